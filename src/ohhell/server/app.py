"""The ASGI application (Starlette): pages, a small JSON API and one websocket per client.

>>> from ohhell.server import create_app
>>> app = create_app(":memory:", bot_pool="thread")
>>> sorted(r.path for r in app.routes)[:3]
['/', '/account', '/api/account']
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import time
from urllib.parse import urlsplit
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import __version__
from ..rules import MAX_HAND_SIZE, NO_TRUMP_OPTIONS, PRESETS, SCHEDULES, Rules
from .botpool import BotPool, bot_names, default_bot
from .protocol import CLIENT_TYPES, MAX_MESSAGE_BYTES, VERSION, ClientMessage, ProtocolError, encode, \
    parse_client_message
from .accounts import CSRF_HEADER, SIGNIN_FAILURES_PER_USER, SIGNIN_PER_ADDRESS, SIGNUP_PER_ADDRESS, AccountError, \
    Accounts
from .players import PlayerPages
from .session import Connection, RateLimiter
from .storage import Store, StoreError, _redact, open_store
from .config import (AWAY_AFTER_RANGE, CHAT_MAX_LENGTH, CHAT_RATE, DEFAULT_AWAY_AFTER, SPECTATOR_CHAT,
                     TableError, parse_table_config)
from .manager import TABLE_ID, TableManager
from . import languages, rules_page
from .languages import page_response
from .analysis_jobs import DEFAULT_ANALYSIS_SAMPLES, MAX_QUEUED_PER_CREATOR, AnalysisJobs
from .events import Events

__all__ = ["create_app", "STATIC_DIR"]

log = logging.getLogger("ohhell.server")

STATIC_DIR = os.path.join(os.path.dirname(__file__), "static")
#: A client that sends this many messages in a row over its rate limit is disconnected.
FLOOD_LIMIT = 300
#: The largest request body (a new table's JSON); reading stops there, declared length or not.
MAX_BODY = 16 * 1024
#: Seconds a client may take to send a request's body.
BODY_TIMEOUT = 10.0
#: Tables per page of the lobby's list (``GET /api/tables?limit=&offset=``): default and most;
#: and the largest offset.
LIST_LIMIT, MAX_LIST_LIMIT, MAX_LIST_OFFSET = 100, 500, 1_000_000
#: Open websockets one address may hold at once (a household or a club behind one address
#: stays well under it; ``ohhell serve --max-sockets-per-address``, 0 for no limit).
MAX_SOCKETS_PER_ADDRESS = 200

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


class _BodyError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.response = _error(status, code, message)


async def read_body(request: Request, limit: int = MAX_BODY, timeout: float = BODY_TIMEOUT) -> bytes:
    """The request's body, read as it streams in: a declared length over ``limit`` is refused
    before anything is read, and reading stops at the first chunk past ``limit`` (a chunked
    body declares nothing), or after ``timeout`` seconds.

    :raises _BodyError: 413 (too large) or 408 (too slow), with the response to send.
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _BodyError(413, "too_large", f"the request is over {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(timeout):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise _BodyError(413, "too_large", f"the request is over {limit} bytes")
                chunks.append(chunk)
    except TimeoutError:
        raise _BodyError(408, "too_slow", f"the request's body took over {timeout:g} seconds") from None
    return b"".join(chunks)


def creator_key(host: "str | None") -> str:
    """Who creates a table, as the server remembers it: a short hash of the client's address
    (the address itself is not stored)."""
    return hashlib.sha256(f"ohhell-creator/{host or '?'}".encode()).hexdigest()[:16]


def origin_allowed(origin: "str | None", host: "str | None", allowed: "tuple[str, ...]" = ()) -> bool:
    """Whether a websocket from a page at ``origin`` may connect: no ``Origin`` (not a
    browser), the server's own host (the ``Host`` header), or one of ``allowed`` (origins
    such as ``https://cards.example.org``; ``*`` allows any).

    >>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000")
    True
    >>> origin_allowed("https://evil.example", "127.0.0.1:8000")
    False
    """
    if not origin:
        return True
    if "*" in allowed or origin.rstrip("/").lower() in {a.rstrip("/").lower() for a in allowed}:
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(host) and netloc.lower() == (host or "").lower()


def create_app(db: "str | None" = None, *, store: "Store | None" = None, bot_delay: float = 0.7,
               bot_pool: str = "process", bot_workers: "int | None" = None,
               idle_evict: float = 1800.0, rate_limit: "tuple[float, float]" = (10.0, 30.0),
               create_limit: "float | None" = 30.0, allowed_origins: "tuple[str, ...] | list[str]" = (),
               body_timeout: float = BODY_TIMEOUT, unstarted_ttl: float = 3600.0,
               max_open_per_creator: int = 20, bot_seconds: "float | None" = None,
               bot_per_creator: "int | None" = None,
               signin_limit: "tuple[float, float]" = SIGNIN_PER_ADDRESS,
               signin_user_limit: "tuple[float, float]" = SIGNIN_FAILURES_PER_USER,
               signup_limit: "tuple[float, float]" = SIGNUP_PER_ADDRESS,
               analysis_samples: int = DEFAULT_ANALYSIS_SAMPLES,
               analysis_per_creator: int = MAX_QUEUED_PER_CREATOR,
               max_sockets_per_address: "int | None" = MAX_SOCKETS_PER_ADDRESS,
               analysis_ray: "str | None" = None, redis: "str | None" = None) -> Starlette:
    """The server as an ASGI app.

    :param db: a ``postgresql://`` URL, an SQLite path, or ``None`` for the
        default SQLite file (see :func:`~ohhell.server.storage.default_db_path`).
    :param store: a ready :class:`~ohhell.server.storage.Store` instead of ``db``.
    :param bot_delay: seconds a bot's move takes (so people can follow; a bot that decides
        sooner waits, so its timing tells nothing about its cards).
    :param bot_pool: ``process`` (default) or ``thread``: where bots think.
    :param rate_limit: ``(messages per second, burst)`` each client may send.
    :param create_limit: tables one address may create per minute (``None``: no limit).
    :param allowed_origins: pages of other origins whose websockets are accepted (besides
        the server's own host).
    :param body_timeout: seconds a client may take to send a request's body.
    :param unstarted_ttl: seconds after which a table that never started a game (nobody
        connected) is removed.
    :param max_open_per_creator: tables one address may have where no game has started.
    :param bot_seconds: a bot decision's thinking time when the server is not loaded (``None``:
        each bot's own default); it shrinks under load.
    :param bot_per_creator: the most bot workers one creator's tables use at once.
    :param signin_limit: sign-in attempts per address, ``(per second, burst)``
        (:mod:`ohhell.server.accounts`); ``signin_user_limit``: failed sign-ins per username;
        ``signup_limit``: accounts created per address.
    :param analysis_samples: sampled deals per decision of the replays' analyses
        (:mod:`ohhell.server.analysis_jobs`); ``analysis_per_creator``: analyses one creator
        or address may have waiting; ``analysis_ray``: run them on Ray instead (the cluster's
        ``HOST:PORT``, or ``""`` for a Ray instance started here; docs/ray.md).
    :param max_sockets_per_address: open websockets one address may hold at once; the next
        handshake is refused with HTTP 429 (``None`` or 0: no limit).  Behind a reverse proxy,
        name it with ``--trusted-proxy`` so the address is the client's, not the proxy's.
    :param redis: a ``redis://`` URL: run as one node of a cluster on the PostgreSQL database
        ``db`` (:mod:`ohhell.server.cluster`; docs/deploy.md).
    """
    leases = None
    if redis is not None:
        from .cluster import check_redis_url
        from .leases import ClusterStore, Leases
        check_redis_url(redis)
        if store is not None or not (db or "").startswith(("postgresql://", "postgres://")):
            raise StoreError("--redis needs a PostgreSQL database (--db postgresql://...): the nodes of a cluster "
                             "share it")
        leases = Leases(db)   # type: ignore[arg-type]
        store = ClusterStore(db, leases)   # type: ignore[arg-type]
    the_store = store if store is not None else open_store(db)
    pool = BotPool(bot_pool, bot_workers, per_creator=bot_per_creator, full_seconds=bot_seconds)
    manager = TableManager(the_store, pool, bot_delay=bot_delay, idle_evict=idle_evict,
                           unstarted_ttl=unstarted_ttl, max_open_per_creator=max_open_per_creator)
    analyses = AnalysisJobs(the_store, pool, kind=bot_pool if analysis_ray is None else "ray",
                            samples=analysis_samples, per_creator=analysis_per_creator,
                            ray_address=analysis_ray or None)
    origins = tuple(allowed_origins)
    sockets_per_address: dict[str, int] = {}
    accounts = Accounts(the_store, manager, allowed_origins=origins, signin_limit=signin_limit,
                        signin_user_limit=signin_user_limit, signup_limit=signup_limit)
    events = Events(the_store, manager, accounts)   # duplicate events (docs/events.md)
    cluster = None
    if redis is not None:
        from .cluster import Cluster
        assert leases is not None
        cluster = manager.cluster = Cluster(redis, leases, manager)

        def revealed_elsewhere(event_id: str) -> None:   # another node revealed an event's deals
            if event_id in events.revealed:
                return
            events.revealed.add(event_id)
            for t in list(manager.tables.values()):
                if t.event is not None and t.event["id"] == event_id:
                    t._broadcast()
        cluster.on_revealed = revealed_elsewhere
        events.on_reveal = lambda event_id: cluster.announce(revealed=event_id)   # type: ignore[union-attr]

    def game_over(table, number: int, rec: dict) -> None:
        analyses.game_over(table, number, rec)
        events.game_over(table, number, rec)
    manager.on_game_over = game_over   # type: ignore[attr-defined]

    @contextlib.asynccontextmanager
    async def lifespan(app):
        await the_store.open()
        if cluster is not None:
            await cluster.open()   # the cluster's leases replace the single server's claim
        else:
            await the_store.claim()
        await accounts.open()
        analyses.start()
        await events.open()   # before the tables load: it says which events' deals are revealed
        loaded = await manager.start()
        await events.resume()
        if cluster is not None:
            cluster.start()
            log.info("cluster node %s on Redis %s", cluster.node, _redact(cluster.redis_url))
        log.info("database %s: %d active table%s resumed", _redact(getattr(the_store, "url", "?")), loaded,
                 "" if loaded == 1 else "s")
        try:
            yield
        finally:
            await manager.stop()
            if cluster is not None:
                await cluster.close()   # hands this node's tables to the others at once
            await events.stop()
            await analyses.stop()
            pool.close()
            await the_store.close()

    # --- pages ----------------------------------------------------------------------------------

    def page(name: str):
        path = os.path.join(STATIC_DIR, name)

        async def endpoint(request: Request) -> Response:
            return page_response(path, request)
        return endpoint

    # --- JSON API -------------------------------------------------------------------------------

    async def options(request: Request) -> Response:
        return JSONResponse({
            "version": __version__, "protocol": VERSION, "bots": bot_names(), "default_bot": default_bot(),
            "presets": {name: Rules.preset(name).to_dict() for name in PRESETS},
            "schedules": list(SCHEDULES), "no_trump": list(NO_TRUMP_OPTIONS),
            "max_hand_size": {str(k): v for k, v in MAX_HAND_SIZE.items()},
            "message_types": list(CLIENT_TYPES), "max_message_bytes": MAX_MESSAGE_BYTES,
            "away": {"after": DEFAULT_AWAY_AFTER, "bot": default_bot(), "range": list(AWAY_AFTER_RANGE)},
            "chat": {"max_length": CHAT_MAX_LENGTH, "spectator_chat": list(SPECTATOR_CHAT)}})

    async def list_tables(request: Request) -> Response:
        raw_limit = request.query_params.get("limit", str(LIST_LIMIT))
        raw_offset = request.query_params.get("offset", "0")
        try:
            if len(raw_limit) > 20 or len(raw_offset) > 20:   # out of range anyway; int() of
                raise ValueError                                # thousands of digits is slow
            limit, offset = int(raw_limit), int(raw_offset)
        except ValueError:
            return _error(400, "bad_query", "limit and offset are whole numbers")
        if not 1 <= limit <= MAX_LIST_LIMIT or not 0 <= offset <= MAX_LIST_OFFSET:
            return _error(400, "bad_query", f"limit is 1 to {MAX_LIST_LIMIT} and offset 0 to {MAX_LIST_OFFSET}")
        return JSONResponse(await manager.list_tables(limit, offset))

    creators: dict[str, RateLimiter] = {}

    async def create_table(request: Request) -> Response:
        # The peer's address: a proxy's X-Forwarded-For is used only when the proxy is one
        # the operator named (``ohhell serve --trusted-proxy``); uvicorn applies it.
        ip = request.client.host if request.client else "?"
        if not accounts.origin_ok(request):   # a page of another site may not create tables
            return _error(403, "bad_origin", "this request came from a page of another site; it was refused")
        # CSRF (docs/server.md, *Accounts*): a request that carries cookies (a browser's) needs its
        # page's token, as every state-changing request does; a program shows its API token
        # (``Authorization: Bearer``, which no page of another site can send) or no cookie at all,
        # and so holds nothing a forged request could ride on
        token_user = await accounts.check_token(request)
        if isinstance(token_user, AccountError):
            return token_user.response()
        if token_user is None and request.headers.get("cookie"):
            try:
                accounts.check_csrf(request, request.headers.get(CSRF_HEADER))
            except AccountError as e:
                return e.response()
        if create_limit:
            limiter = creators.get(ip)
            if limiter is None:
                if len(creators) > 10000:
                    creators.clear()
                limiter = creators[ip] = RateLimiter(rate=create_limit / 60.0, burst=create_limit)
            if not limiter.allow():
                return _error(429, "slow_down", "too many tables created from here; wait a minute")
        try:
            body = await read_body(request, MAX_BODY, body_timeout)
        except _BodyError as e:
            return e.response
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):   # RecursionError: JSON nested too deep
            return _error(400, "bad_json", "send the table as a JSON object")
        try:
            config = parse_table_config(data)
            table, admin, codes = await manager.create(config, creator_key(ip))
        except TableError as e:
            status = 503 if e.code in ("full", "storage") else 429 if e.code == "too_many_tables" else 400
            return _error(status, e.code, e.message)
        return JSONResponse({"id": table.id, "url": f"/t/{table.id}", "admin": admin,
                             "invites": {str(i): f"/t/{table.id}#seat={i}&code={c}" for i, c in codes.items()}},
                            status_code=201)

    async def find(request: Request):
        try:
            return await manager.get(request.path_params["table_id"])
        except TableError as e:   # damaged
            return _error(503, e.code, e.message)

    async def table_info(request: Request) -> Response:
        if cluster is not None:   # the owner node knows who is connected
            try:
                return JSONResponse(await cluster.call(request.path_params["table_id"], "info"))
            except TableError as e:
                if e.code == "no_table":
                    return _error(404, "no_table", "there is no such table")
                return _error(503, e.code, e.message)
        table = await find(request)
        if isinstance(table, Response):
            return table
        if table is None:
            return _error(404, "no_table", "there is no such table")
        return JSONResponse(table.public_info())

    async def finished_game(request: Request, what: str = "its record (and the seed that dealt it) is"):
        """``(table, number, record)`` of the finished game a request names, or the error to
        send: the one rule for who may see a finished game (its record, its analysis)."""
        table = await find(request)
        if isinstance(table, Response):
            return table
        if table is None:
            return _error(404, "no_table", "there is no such table")
        try:
            game = request.path_params["game"]
            if len(game) > 12:
                raise ValueError
            number = int(game)
        except ValueError:
            return _error(404, "no_game", "games are numbered 1, 2, ...")
        rec = table.finished.get(number)
        if rec is not None and table.secret_until_event():
            return _error(409, "event_running", f"this game is part of a duplicate event that is still being "
                                                f"played; {what} published when the event ends")
        if rec is None:
            if number == table.game_no and table.in_game:
                return _error(409, "not_over", f"the game is still being played; {what} published when it ends")
            return _error(404, "no_game", f"table {table.id} has no game {number}")
        return table, number, rec

    async def record(request: Request) -> Response:
        found = await finished_game(request)
        if isinstance(found, Response):
            return found
        table, number, rec = found
        filename = f"ohhell-{table.id}-game{number}.json"
        disposition = "attachment" if request.query_params.get("download") else "inline"
        return Response(json.dumps(rec, indent=1, ensure_ascii=False) + "\n", media_type="application/json",
                        headers={"content-disposition": f'{disposition}; filename="{filename}"'})

    async def analysis(request: Request) -> Response:
        found = await finished_game(request, "its analysis is")
        if isinstance(found, Response):
            return found
        table, number, rec = found
        for read in range(2):
            try:
                stored = await the_store.get_analysis(table.id, number)
            except StoreError as e:
                log.error("%s", e)
                return _error(503, "storage", "the analysis could not be read; try again")
            if stored is not None:
                return JSONResponse({"status": "ready", "analysis": stored}, headers={"cache-control": "no-cache"})
            if read == 0 and request.query_params.get("retry"):
                analyses.retry(table.id, number)
            state = analyses.status(table.id, number)
            # Neither stored nor queued: the job may have ended (stored) while the store was
            # read, so read once more before queueing the game anew; nothing awaits after that.
            if state is not None:
                break
        if state is None:
            ip = request.client.host if request.client else "?"
            try:
                analyses.enqueue(table.id, number, rec, creator_key(ip), wanted=True)
            except TableError as e:
                return _error(429, e.code, e.message)
            state = analyses.status(table.id, number)
        elif state["status"] == "queued":
            analyses.enqueue(table.id, number, rec, "", wanted=True)   # someone waits: it goes ahead
            state = analyses.status(table.id, number)
        return JSONResponse(state, headers={"cache-control": "no-store"})

    async def health(request: Request) -> Response:
        extra = {"cluster": cluster.stats()} if cluster is not None else {}
        return JSONResponse({"ok": True, **manager.stats(), **analyses.stats(), **extra})

    # --- the websocket --------------------------------------------------------------------------

    async def websocket(ws: WebSocket) -> None:
        # A program shows an API token (docs/bots-api.md); a browser cannot set that header, so
        # such a handshake needs no Origin check, and its cookies are never read.
        token_user = await accounts.check_token(ws)
        if isinstance(token_user, AccountError):
            log.info("websocket with a bad API token refused (%s)", token_user.code)
            if "websocket.http.response" in ws.scope.get("extensions", {}):
                await ws.send_denial_response(token_user.response())   # HTTP 401/429, JSON reason
            else:  # pragma: no cover - every server the project runs under has the extension
                await ws.close(code=1008)
            return
        if token_user is None and not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), origins):
            log.info("websocket from origin %.100r refused", ws.headers.get("origin"))
            await ws.close(code=1008)   # before accepting: the client gets HTTP 403
            return
        host = ws.client.host if ws.client else "?"
        if max_sockets_per_address and sockets_per_address.get(host, 0) >= max_sockets_per_address:
            log.info("websocket refused: %s already holds %d", creator_key(host), max_sockets_per_address)
            if "websocket.http.response" in ws.scope.get("extensions", {}):
                await ws.send_denial_response(_error(
                    429, "too_many_sockets",
                    f"this address already has {max_sockets_per_address} connections open; close one first"))
            else:  # pragma: no cover - every server the project runs under has the extension
                await ws.close(code=1008)
            return
        sockets_per_address[host] = sockets_per_address.get(host, 0) + 1
        try:
            await _socket(ws, token_user)
        finally:
            sockets_per_address[host] -= 1
            if not sockets_per_address[host]:
                del sockets_per_address[host]

    async def _socket(ws: WebSocket, token_user) -> None:
        await ws.accept()
        conn = Connection(ws.send_text)
        if token_user is not None:
            accounts.token_socket(conn, token_user)
        else:
            await accounts.attach_socket(ws, conn)   # the session cookie (a browser's handshake only)
            events.attach_socket(ws, conn)           # a guest's duplicate-event seats (their cookies)
        conn.limiter = RateLimiter(*rate_limit)
        conn.chat_limiter = RateLimiter(*CHAT_RATE)
        conn.address = creator_key(ws.client.host if ws.client else None)

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
                    await accounts.recheck_socket(conn)
                    if conn.closed:   # its API token was revoked: it acts no more, not even as a guest
                        break
                    await _handle(conn, msg)
                except TableError as e:
                    conn.error(e.code, e.message, msg.ref, e.reason)
                except Exception:
                    log.exception("error handling %s", msg.type)
                    conn.error("internal", "the server failed to handle this message; nothing was changed",
                               msg.ref)
        except WebSocketDisconnect:
            pass
        finally:
            accounts.detach_socket(conn)
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
            if cluster is not None:   # this node's table, or another node's (then its messages go there)
                found = await cluster.locate(f["table"]) if TABLE_ID.fullmatch(f["table"]) else None
            else:
                found = await manager.get(f["table"])
            if found is None:
                raise TableError("no_table", f"there is no table {f['table']!r}")
            await events.check_watch(found, conn)   # a running event's players watch no other table of it
            await found.attach(conn, f["token"], f["admin"])
            return
        table = conn.table
        if table is None:
            raise TableError("hello_first", "say hello first: {\"v\": 1, \"type\": \"hello\", \"table\": ID}")
        if cluster is not None and table.remote:   # its owner answers, as it would its own client
            await table.forward(conn, msg)
            return
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
        elif t == "chat":
            await table.chat(conn, f["text"])
        elif t == "chat_remove":
            await table.chat_remove(conn, f["id"])
        elif t == "chat_setting":
            await table.set_spectator_chat(conn, f["spectator_chat"])
        elif t == "hint":
            await table.hint(conn)
        elif t == "undo":
            await table.undo(conn)
        elif t == "allow_undo":
            await table.allow_undo(conn, f["on"])
        else:  # pragma: no cover - the schema and this dispatch list the same types
            raise TableError("unknown_type", f"unknown message type {t!r}")

    routes = [
        Route("/", page("index.html")),
        Route("/t/{table_id}", events.guard(page("table.html"), page=True)),
        Route("/t/{table_id}/replay/{game}", page("replay.html")),
        Route("/api/options", options),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", events.guard(table_info)),
        Route("/api/tables/{table_id}/games/{game}/record", record),
        Route("/api/tables/{table_id}/games/{game}/analysis", analysis),
        Route("/healthz", health),
        *languages.routes(),
        *rules_page.routes(),
        *accounts.routes(page),
        *PlayerPages(the_store, manager).routes(page),
        *events.routes(page),
        WebSocketRoute("/ws", websocket),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.manager = manager
    app.state.store = the_store
    app.state.accounts = accounts
    app.state.analyses = analyses
    app.state.events = events
    app.state.cluster = cluster
    if cluster is not None:
        cluster.handler = _handle
    app.add_middleware(_SecurityHeaders)
    return app
