"""The ASGI application (Starlette): pages, a small JSON API and one websocket per client.

>>> from ohhell.server import create_app
>>> app = create_app(":memory:", bot_pool="thread")
>>> sorted(r.path for r in app.routes)[:3]
['/', '/api/options', '/api/tables']
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import __version__
from ..rules import MAX_HAND_SIZE, NO_TRUMP_OPTIONS, PRESETS, SCHEDULES, Rules
from .botpool import BotPool, bot_names, default_bot
from .protocol import CLIENT_TYPES, MAX_MESSAGE_BYTES, VERSION, ClientMessage, ProtocolError, encode, \
    parse_client_message
from .session import Connection, RateLimiter
from .storage import Store, open_store
from .tables import AWAY_AFTER_RANGE, DEFAULT_AWAY_AFTER, TableError, TableManager, parse_table_config

__all__ = ["create_app", "STATIC_DIR"]

log = logging.getLogger("ohhell.server")

STATIC_DIR = os.path.join(os.path.dirname(__file__), "static")
#: A client that sends this many messages in a row over its rate limit is disconnected.
FLOOD_LIMIT = 300
MAX_BODY = 16 * 1024
#: Tables per page of the lobby's list (``GET /api/tables?limit=&offset=``): default and most.
LIST_LIMIT, MAX_LIST_LIMIT = 100, 500

_CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
_HEADERS = [(b"content-security-policy", _CSP.encode()), (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY")]


class _SecurityHeaders:
    """Adds a strict Content-Security-Policy and friends to every HTTP response."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + _HEADERS
            await send(message)
        await self.app(scope, receive, send_with_headers)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def create_app(db: "str | None" = None, *, store: "Store | None" = None, bot_delay: float = 0.7,
               bot_pool: str = "process", bot_workers: "int | None" = None,
               idle_evict: float = 1800.0, rate_limit: "tuple[float, float]" = (10.0, 30.0),
               create_limit: "float | None" = 30.0) -> Starlette:
    """The server as an ASGI app.

    :param db: a ``postgresql://`` URL, an SQLite path, or ``None`` for the
        default SQLite file (see :func:`~ohhell.server.storage.default_db_path`).
    :param store: a ready :class:`~ohhell.server.storage.Store` instead of ``db``.
    :param bot_delay: seconds a bot waits before it acts (so people can follow).
    :param bot_pool: ``process`` (default) or ``thread``: where bots think.
    :param rate_limit: ``(messages per second, burst)`` each client may send.
    :param create_limit: tables one address may create per minute (``None``: no limit).
    """
    the_store = store if store is not None else open_store(db)
    pool = BotPool(bot_pool, bot_workers)
    manager = TableManager(the_store, pool, bot_delay=bot_delay, idle_evict=idle_evict)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        await the_store.open()
        loaded = await manager.start()
        log.info("database %s: %d active table%s resumed", getattr(the_store, "url", "?"), loaded,
                 "" if loaded == 1 else "s")
        try:
            yield
        finally:
            await manager.stop()
            pool.close()
            await the_store.close()

    # --- pages ----------------------------------------------------------------------------------

    def page(name: str):
        path = os.path.join(STATIC_DIR, name)

        async def endpoint(request: Request) -> Response:
            return FileResponse(path, media_type="text/html", headers={"cache-control": "no-cache"})
        return endpoint

    # --- JSON API -------------------------------------------------------------------------------

    async def options(request: Request) -> Response:
        return JSONResponse({
            "version": __version__, "protocol": VERSION, "bots": bot_names(), "default_bot": default_bot(),
            "presets": {name: Rules.preset(name).to_dict() for name in PRESETS},
            "schedules": list(SCHEDULES), "no_trump": list(NO_TRUMP_OPTIONS),
            "max_hand_size": {str(k): v for k, v in MAX_HAND_SIZE.items()},
            "message_types": list(CLIENT_TYPES), "max_message_bytes": MAX_MESSAGE_BYTES,
            "away": {"after": DEFAULT_AWAY_AFTER, "bot": default_bot(), "range": list(AWAY_AFTER_RANGE)}})

    async def list_tables(request: Request) -> Response:
        try:
            limit = int(request.query_params.get("limit", LIST_LIMIT))
            offset = int(request.query_params.get("offset", 0))
        except ValueError:
            return _error(400, "bad_query", "limit and offset are whole numbers")
        if not 1 <= limit <= MAX_LIST_LIMIT or offset < 0:
            return _error(400, "bad_query", f"limit is 1 to {MAX_LIST_LIMIT} and offset 0 or more")
        return JSONResponse(await manager.list_tables(limit, offset))

    creators: dict[str, RateLimiter] = {}

    async def create_table(request: Request) -> Response:
        if create_limit:
            ip = request.client.host if request.client else "?"
            limiter = creators.get(ip)
            if limiter is None:
                if len(creators) > 10000:
                    creators.clear()
                limiter = creators[ip] = RateLimiter(rate=create_limit / 60.0, burst=create_limit)
            if not limiter.allow():
                return _error(429, "slow_down", "too many tables created from here; wait a minute")
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BODY:   # refused before it is read
            return _error(413, "too_large", f"the request is over {MAX_BODY} bytes")
        body = await request.body()
        if len(body) > MAX_BODY:
            return _error(413, "too_large", f"the request is over {MAX_BODY} bytes")
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):   # RecursionError: JSON nested too deep
            return _error(400, "bad_json", "send the table as a JSON object")
        try:
            config = parse_table_config(data)
            table, admin, codes = await manager.create(config)
        except TableError as e:
            return _error(503 if e.code in ("full", "storage") else 400, e.code, e.message)
        return JSONResponse({"id": table.id, "url": f"/t/{table.id}", "admin": admin,
                             "invites": {str(i): f"/t/{table.id}#seat={i}&code={c}" for i, c in codes.items()}},
                            status_code=201)

    async def table_info(request: Request) -> Response:
        table = await manager.get(request.path_params["table_id"])
        if table is None:
            return _error(404, "no_table", "there is no such table")
        return JSONResponse(table.public_info())

    async def record(request: Request) -> Response:
        table = await manager.get(request.path_params["table_id"])
        if table is None:
            return _error(404, "no_table", "there is no such table")
        try:
            number = int(request.path_params["game"])
        except ValueError:
            return _error(404, "no_game", "games are numbered 1, 2, ...")
        rec = table.finished.get(number)
        if rec is None:
            if number == table.game_no and table.in_game:
                return _error(409, "not_over", "the game is still being played; its record (and the seed "
                                               "that dealt it) is published when it ends")
            return _error(404, "no_game", f"table {table.id} has no game {number}")
        filename = f"ohhell-{table.id}-game{number}.json"
        disposition = "attachment" if request.query_params.get("download") else "inline"
        return Response(json.dumps(rec, indent=1, ensure_ascii=False) + "\n", media_type="application/json",
                        headers={"content-disposition": f'{disposition}; filename="{filename}"'})

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, **manager.stats()})

    # --- the websocket --------------------------------------------------------------------------

    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        conn = Connection(ws.send_text)
        conn.limiter = RateLimiter(*rate_limit)

        async def pump() -> None:
            try:
                await conn.pump()
            except Exception:  # the socket went away while sending
                conn.closed = True
                return
            if conn.close_reason:
                with contextlib.suppress(Exception):
                    await ws.close(code=1008, reason=conn.close_reason[:100])

        pump_task = asyncio.create_task(pump())
        try:
            while not conn.closed:
                await conn.backpressure()
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                data: "str | bytes" = text if text is not None else (message.get("bytes") or b"")
                if not conn.limiter.allow():
                    conn.dropped += 1
                    now = time.monotonic()
                    if conn.dropped >= FLOOD_LIMIT:
                        conn.error("flood", f"{conn.dropped} messages over the limit in a row; disconnecting")
                        conn.close("message flood")
                        break
                    if now - conn.last_limit_error >= 1.0:
                        conn.last_limit_error = now
                        conn.error("rate_limited", f"too many messages: at most {conn.limiter.rate:g} a second "
                                                   f"(bursts of {conn.limiter.burst:g}); this one was ignored")
                    continue
                conn.dropped = 0
                try:
                    msg = parse_client_message(data)
                except ProtocolError as e:
                    conn.error(e.code, e.message, e.ref)
                    continue
                try:
                    await _handle(conn, msg)
                except TableError as e:
                    conn.error(e.code, e.message, msg.ref)
                except Exception:
                    log.exception("error handling %s", msg.type)
                    conn.error("internal", "the server failed to handle this message; nothing was changed",
                               msg.ref)
        except WebSocketDisconnect:
            pass
        finally:
            if conn.table is not None:
                await conn.table.detach(conn)
            if not conn.close_reason:  # else the pump sends what is queued, then closes
                conn.finish()
            await asyncio.wait([pump_task], timeout=2.0)
            pump_task.cancel()

    async def _handle(conn: Connection, msg: ClientMessage) -> None:
        t, f = msg.type, msg.fields
        if t == "ping":
            conn.send(encode({"type": "pong", "ref": msg.ref}))
            return
        if t == "hello":
            if conn.table is not None:
                raise TableError("already_hello", f"this connection is already at table {conn.table.id}")
            table = await manager.get(f["table"])
            if table is None:
                raise TableError("no_table", f"there is no table {f['table']!r}")
            await table.attach(conn, f["token"], f["admin"])
            return
        table = conn.table
        if table is None:
            raise TableError("hello_first", "say hello first: {\"v\": 1, \"type\": \"hello\", \"table\": ID}")
        if t == "act":
            await table.act(conn, f["action"])
        elif t == "join":
            await table.join(conn, f["seat"], f["name"], f["code"])
        elif t == "leave":
            await table.leave(conn)
        elif t == "rematch":
            await table.rematch(conn)
        elif t == "reclaim":
            await table.reclaim(conn)
        elif t == "replace":
            await table.replace(conn, f["seat"], f["bot"])
        elif t == "set_seat":
            await table.set_seat(conn, f["seat"], f["kind"], f["bot"])
        elif t == "fill_bots":
            await table.fill_bots(conn, f["bot"])
        else:  # pragma: no cover - the schema and this dispatch list the same types
            raise TableError("unknown_type", f"unknown message type {t!r}")

    routes = [
        Route("/", page("index.html")),
        Route("/t/{table_id}", page("table.html")),
        Route("/t/{table_id}/replay/{game}", page("replay.html")),
        Route("/api/options", options),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", table_info),
        Route("/api/tables/{table_id}/games/{game}/record", record),
        Route("/healthz", health),
        WebSocketRoute("/ws", websocket),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.manager = manager
    app.state.store = the_store
    app.add_middleware(_SecurityHeaders)
    return app
