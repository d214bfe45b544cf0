"""Duplicate events: several tables play the same deals, and players are compared by matchpoints.

An organiser (a signed-in account) creates an event: the rules (as for a table, with their
hand schedule or a given list of hand sizes), the number of tables and the bot that fills
the seats nobody takes.  The event's seed is drawn at once and **committed**: the event page
shows ``dealing.commitment(dealing.hand_key(seed, k))`` for every hand ``k`` before anyone
plays, and the seed itself once every table has finished, so anyone can check every deal
(docs/events.md).

Players take seats of the event before it starts (``POST /api/events/{id}/join``): a
signed-in person or a bot account (an API token, docs/bots-api.md) by their account, a guest
with a name and a seat token it keeps.  When the organiser starts it, one ordinary table is
made per event table, private, its seats bound to whoever took them (the account, or the
guest's token: the table seat binding of ``tables.py``) and the rest filled with bots.  Every
table's one game is dealt from the event's seed, so the same seat number holds the same cards
at every table.

The stored table logs are the truth: the results are worked out from them on every request
(:func:`game_of_log`, then :mod:`ohhell.duplicate` for the matchpoints).  While the event
runs, the page shows no card at all: only the hands every table has finished (bids, tricks,
scores, matchpoints), and the tables' seeds and records stay secret
(:meth:`~ohhell.server.tables.Table.secret_until_event`) until the deals are revealed.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
import weakref
from typing import Any, Iterable

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import dealing, duplicate
from ..actions import parse_action
from ..cards import mask_to_cards
from ..game import Game
from ..rules import Rules
from .accounts import CSRF_HEADER, AccountError
from .botpool import bot_names, default_bot
from .config import DEFAULT_AWAY_AFTER, MAX_TITLE, TableError, parse_away, parse_table_config
from .protocol import ProtocolError, clean_name, clean_text
from .storage import StoreError, Taken
from .tables import new_id, new_token, token_hash

__all__ = ["Events", "parse_event_config", "game_of_log", "results", "MAX_EVENT_TABLES"]

log = logging.getLogger("ohhell.server")

#: The most tables one event may have, and the fewest (one table compares with nothing).
MAX_EVENT_TABLES, MIN_EVENT_TABLES = 16, 2
#: Events one organiser may have waiting to start.
MAX_OPEN_EVENTS = 10
EVENT_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
STATUSES = ("open", "playing", "over", "cancelled")
#: A guest's event seat token is also kept in an HTTP-only cookie named this + the event id
#: (``__Host-`` first over https), so that the server knows a guest player's browser when it
#: asks to watch another table of the event (:meth:`Events.watch_refusal`).
EVENT_COOKIE = "ohhell_event_"
EVENT_COOKIE_DAYS = 30


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status,
                        headers={"cache-control": "no-store"})


def parse_event_config(body: Any) -> dict:
    """Check a new event: ``{"title": str, "tables": n, "rules": {...} (as a table's, a
    ``preset`` too), "players": n (optional, else the rules'), "hand_sizes": [...] (optional:
    a given list of hand sizes instead of the rules' schedule), "bot": name (fills the seats
    nobody takes), "away": {...} | null (the tables' away timer)}``.

    >>> cfg = parse_event_config({"tables": 3, "rules": {"players": 4}, "hand_sizes": [1, 2]})
    >>> cfg["tables"], cfg["rules"]["hand_sizes"], cfg["rules"]["players"]
    (3, [1, 2], 4)
    >>> parse_event_config({"tables": 1})
    Traceback (most recent call last):
    ohhell.server.config.TableError: tables must be a whole number from 2 to 16, not 1

    :raises TableError: ``bad_config`` saying what is wrong.
    """
    if not isinstance(body, dict):
        raise TableError("bad_config", "send the event as a JSON object with rules and tables")
    tables = body.get("tables")
    if isinstance(tables, bool) or not isinstance(tables, int) or not MIN_EVENT_TABLES <= tables <= MAX_EVENT_TABLES:
        raise TableError("bad_config", f"tables must be a whole number from {MIN_EVENT_TABLES} to "
                                       f"{MAX_EVENT_TABLES}, not {str(tables)[:20]}")
    rules_in = body.get("rules", {})
    if not isinstance(rules_in, dict):
        raise TableError("bad_config", "rules must be an object")
    fields = dict(rules_in)
    if "players" in body:
        fields["players"] = body["players"]
    if body.get("hand_sizes") is not None:
        fields["hand_sizes"] = body["hand_sizes"]
        if fields.get("schedule") not in (None, "custom"):
            fields.pop("schedule")
    table = parse_table_config({"rules": fields, "title": body.get("title") or "",
                                "away": body.get("away", {"after": DEFAULT_AWAY_AFTER})})
    bot = body.get("bot") or default_bot()
    if bot not in bot_names():
        raise TableError("bad_config", f"unknown bot {str(bot)[:40]!r}; choose one of {', '.join(bot_names())}")
    title = table["title"] or "Duplicate event"
    return {"title": clean_text(title)[:MAX_TITLE], "tables": tables, "rules": table["rules"], "bot": bot,
            "away": parse_away(table["away"])}


def _secure(conn: HTTPConnection) -> bool:
    return conn.url.scheme in ("https", "wss")


def _cookie_name(conn: HTTPConnection, event_id: str) -> str:
    return ("__Host-" if _secure(conn) else "") + EVENT_COOKIE + event_id


def _cookie_tokens(conn: HTTPConnection) -> set[str]:
    """The hashes of the event seat tokens in a request's cookies."""
    return {token_hash(v) for k, v in conn.cookies.items()
            if k.startswith((EVENT_COOKIE, "__Host-" + EVENT_COOKIE)) and v and len(v) <= 128}


def game_of_log(events: Iterable[Any]) -> "Game | None":
    """The game of an event table's stored log (its one game), replayed with the core's
    :class:`~ohhell.game.Game`; ``None`` before it started.

    :raises ValueError: (an ``OhHellError``) when the log cannot be replayed.
    """
    rules: "Rules | None" = None
    game: "Game | None" = None
    for e in events:
        if e.kind == "create":
            rules = Rules.from_dict(e.data["rules"])
        elif e.kind == "start":
            assert rules is not None
            game = Game(rules, seed=e.data["seed"], names=e.data["names"])
        elif e.kind == "act" and game is not None:
            game.apply(parse_action(e.data["action"]), e.data["seat"])
        elif e.kind == "undo" and game is not None:
            for _ in range(e.data["count"]):
                game.undo()
    return game


def results(games: "list[Game | None]", entries: "list[list[dict]]", *, reveal: bool) -> dict:
    """The event's results from its tables' games: only the hands **every** table has finished
    (``hands_done``), each seat's bid, tricks, score and matchpoints, the ranking, and (when
    ``reveal``) each hand's deal.  ``entries[t][s]`` says who sat there (``name``, ``kind``,
    ``bot``)."""
    done = min((len(g.past_hands) if g is not None else 0) for g in games) if games else 0
    scores = [[list(g.past_hands[h].scores) for h in range(done)] if g is not None else [] for g in games]
    mp = duplicate.matchpoints(scores) if done else [[] for _ in games]
    hands = []
    for h in range(done):
        row: dict[str, Any] = {"hand": h + 1, "size": 0, "tables": []}
        for t, g in enumerate(games):
            assert g is not None
            hr = g.past_hands[h]
            row["size"] = hr.hand_size
            row["tables"].append([{"bid": hr.bids[s], "tricks": hr.tricks_won[s], "score": hr.scores[s],
                                   "mp": mp[t][h][s]} for s in range(len(hr.scores))])
        if reveal:
            hr = games[0].past_hands[h]   # type: ignore[union-attr]
            row["deal"] = {"dealer": hr.dealer, "trump": None if hr.trump_card is None else str(hr.trump_card),
                           "hands": [[str(c) for c in mask_to_cards(m)] for m in hr.deal],
                           "same_at_every_table": all(g is not None and g.past_hands[h].deal == hr.deal
                                                      and g.past_hands[h].trump_card == hr.trump_card
                                                      for g in games)}
        hands.append(row)
    ranking = []
    if done:
        for e in duplicate.standings(mp):
            who = entries[e["table"]][e["seat"]]
            ranking.append({**e, "name": who["name"], "kind": who["kind"], "bot": who["bot"],
                            "points": sum(scores[e["table"]][h][e["seat"]] for h in range(done))})
    return {"hands_done": done, "hands": hands, "ranking": ranking}


class Events:
    """The duplicate events of a server: their API, their tables, their results."""

    def __init__(self, store: Any, manager: Any, accounts: Any) -> None:
        self.store = store
        self.manager = manager
        self.accounts = accounts
        #: the events whose deals are revealed (every table finished): their tables' seeds and
        #: records are published (read by ``Table.secret_until_event``)
        self.revealed: set[str] = set()
        manager.events_revealed = self.revealed
        #: called with an event id whose deals this server just revealed (a cluster tells its
        #: other nodes, whose tables of the event then publish their seeds too)
        self.on_reveal: "Any" = None
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task] = set()
        self._games_cache: dict[str, tuple[tuple, list]] = {}
        #: the event seat tokens (hashed) each browser's websocket showed in its cookies
        self._socket_tokens: "weakref.WeakKeyDictionary[Any, set[str]]" = weakref.WeakKeyDictionary()

    async def open(self) -> None:
        """Learn which events are revealed (before the tables load)."""
        try:
            for ev in await self.store.list_events(limit=1_000_000):
                if ev["data"].get("revealed"):
                    self.revealed.add(ev["event_id"])
        except StoreError as e:
            log.error("the events could not be read: %s", e)

    async def resume(self) -> None:
        """After a restart: check the events whose tables were playing (one may have finished
        while the server was down: its deals are revealed now)."""
        try:
            pending = [ev["event_id"] for ev in await self.store.list_events(limit=1_000_000)
                       if ev["status"] in ("playing", "cancelled") and not ev["data"].get("revealed")
                       and ev["data"].get("table_ids")]
        except StoreError as e:
            log.error("the events could not be read: %s", e)
            return
        for event_id in pending:
            await self._check(event_id)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def game_over(self, table: Any, number: int, record: dict) -> None:
        """A table's game ended: if it is an event's, see whether the whole event is over."""
        if table.event is None:
            return
        task = asyncio.get_running_loop().create_task(self._check(table.event["id"]))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _check(self, event_id: str) -> None:
        """Reveal an event's deals once every one of its tables has finished (and mark a playing
        event over)."""
        try:
            async with self._lock:
                ev = await self.store.get_event(event_id)
                if ev is None or ev["data"].get("revealed") or not ev["data"].get("table_ids"):
                    return
                tables = [await self.manager.get(tid) for tid in ev["data"]["table_ids"]]
                if not all(t is not None and t.game is not None and t.game.is_over for t in tables):
                    return
                data = {**ev["data"], "revealed": time.time()}
                status = "over" if ev["status"] == "playing" else ev["status"]
                if not await self.store.update_event(event_id, status, data, was=ev["status"]):
                    return
                self.revealed.add(event_id)
                log.info("event %s is over; its seed is revealed", event_id)
                if self.on_reveal is not None:
                    self.on_reveal(event_id)
            for t in tables:   # their pages get the seed and the records now
                async with t.lock:
                    t._broadcast()
        except (StoreError, TableError) as e:
            log.error("event %s could not be checked: %s", event_id, e)

    # --- who asks -------------------------------------------------------------------------------

    async def _body(self, request: Request) -> dict:
        return await self.accounts._read(request)

    def _csrf(self, request: Request, data: dict) -> None:
        sent = request.headers.get(CSRF_HEADER) or (data.get("csrf") if isinstance(data.get("csrf"), str) else None)
        self.accounts.check_csrf(request, sent)

    async def _organiser(self, request: Request, data: dict) -> dict:
        self._csrf(request, data)
        user = await self.accounts.current(request)
        if user is None:
            raise AccountError("signed_out", "sign in first: an event is organised by an account", 401)
        return user

    async def _event(self, request: Request) -> "dict | None":
        event_id = request.path_params["event_id"]
        if not EVENT_ID.fullmatch(event_id):
            return None
        return await self.store.get_event(event_id)

    # --- who may watch an event's tables ---------------------------------------------------------

    async def watch_refusal(self, table: Any, account: "str | None", tokens: "set[str]") -> "TableError | None":
        """Why the player of a running duplicate event may not watch ``table``, another table
        of the same event (it plays their cards), or ``None``.  The player is told by their
        account (user id) or, a guest, by the hash of an event seat token their browser showed;
        the event runs until its deals are revealed (every table finished)."""
        ev = getattr(table, "event", None)
        if ev is None or ev["id"] in self.revealed or (account is None and not tokens):
            return None
        for e in await self.store.event_seats(ev["id"]):
            if e["table"] == ev["table"]:
                continue
            if (account is not None and e["user_id"] == account) or \
                    (e["token_hash"] is not None and e["token_hash"] in tokens):
                return TableError("event_player", f"you play at table {e['table'] + 1} of this duplicate event, "
                                                  f"and its tables play the same cards: you may watch the others "
                                                  f"once every table has finished")
        return None

    def attach_socket(self, ws: HTTPConnection, conn: Any) -> None:
        """Remember the event seat tokens of a browser's websocket handshake (its cookies;
        a program's handshake, without an ``Origin``, has its cookies ignored)."""
        if ws.headers.get("origin"):
            tokens = _cookie_tokens(ws)
            if tokens:
                self._socket_tokens[conn] = tokens

    async def check_watch(self, table: Any, conn: Any) -> None:
        """Refuse a websocket's ``hello`` to a table its player may not watch.

        :raises TableError: ``event_player``.
        """
        account = conn.account["user_id"] if conn.account else None
        refusal = await self.watch_refusal(table, account, self._socket_tokens.get(conn, set()))
        if refusal is not None:
            raise refusal

    def guard(self, endpoint: Any, *, page: bool = False) -> Any:
        """``endpoint`` (a table's page or its ``/api/tables/{table_id}``) for everyone but the
        players of a running event the table belongs to, who get HTTP 403: JSON saying why, or
        (``page``) the page itself, whose websocket is refused with the reason in words."""
        async def guarded(request: Request) -> Response:
            try:
                table = await self.manager.get(request.path_params["table_id"])
            except TableError:   # the endpoint says so
                table = None
            if table is not None and table.event is not None:
                user = await self.accounts.current(request)
                refusal = await self.watch_refusal(table, user["user_id"] if user else None, _cookie_tokens(request))
                if refusal is not None:
                    if not page:
                        return _error(403, refusal.code, refusal.message)
                    response = await endpoint(request)
                    response.status_code = 403
                    return response
            return await endpoint(request)
        return guarded

    # --- the API ----------------------------------------------------------------------------------

    async def _guard(self, request: Request, handler) -> Response:
        try:
            return await handler(request)
        except AccountError as e:
            return e.response()
        except TableError as e:
            status = 503 if e.code in ("full", "storage") else 400
            return _error(status, e.code, e.message)
        except StoreError as e:
            log.error("event request failed: %s", e)
            return _error(503, "storage", "the server could not read or save this; nothing was changed, try again")

    async def list_events(self, request: Request) -> Response:
        """``GET /api/events``: the latest events."""
        async def go(request: Request) -> Response:
            rows = []
            for ev in await self.store.list_events(limit=100):
                d = ev["data"]
                rows.append({"id": ev["event_id"], "title": d["title"], "status": ev["status"],
                             "organiser": d.get("organiser_name"), "created": ev["created"],
                             "tables": d["tables"], "players": d["rules"]["players"],
                             "hands": len(d["rules"]["hand_sizes"]), "url": f"/events/{ev['event_id']}"})
            return JSONResponse({"events": rows}, headers={"cache-control": "no-cache"})
        return await self._guard(request, go)

    async def create(self, request: Request) -> Response:
        """``POST /api/events`` (signed in, CSRF): a new event, open for entries."""
        async def go(request: Request) -> Response:
            data = await self._body(request)
            user = await self._organiser(request, data)
            config = parse_event_config(data)
            if await self.store.count_events(user["user_id"], "open") >= MAX_OPEN_EVENTS:
                raise TableError("too_many_events", f"you have {MAX_OPEN_EVENTS} events waiting to start; start "
                                                    f"or cancel one first")
            seed = secrets.token_hex(16)
            hands = len(config["rules"]["hand_sizes"])
            event_id = new_id()
            stored = {**config, "seed": seed, "organiser_name": user["username"],
                      "commitments": [dealing.commitment(dealing.hand_key(seed, k)) for k in range(hands)]}
            await self.store.add_event(event_id, user["user_id"], time.time(), "open", stored)
            log.info("event %s created by %s", event_id, user["user_id"])
            return JSONResponse({"id": event_id, "url": f"/events/{event_id}"}, status_code=201)
        return await self._guard(request, go)

    async def show(self, request: Request) -> Response:
        """``GET /api/events/{id}``: the event, its seats, its tables and its results so far
        (``you``: the signed-in account's, or that of the ``Authorization: Bearer`` token)."""
        async def go(request: Request) -> Response:
            ev = await self._event(request)
            if ev is None:
                return _error(404, "no_event", "there is no such event")
            # a program asks with its API token (docs/bots-api.md): ``you.seat`` is its account's
            token_user = await self.accounts.check_token(request)
            if isinstance(token_user, AccountError):
                raise token_user
            user = token_user or await self.accounts.current(request)
            return JSONResponse(await self.describe(ev, user), headers={"cache-control": "no-store"})
        return await self._guard(request, go)

    async def join(self, request: Request) -> Response:
        """``POST /api/events/{id}/join`` ``{"table": t, "seat": s, "name": ...}``: take a seat
        before the event starts; a signed-in person (CSRF) or a bot account (``Authorization:
        Bearer``) by their account, a guest by name (then the answer holds a seat token to keep)."""
        async def go(request: Request) -> Response:
            data = await self._body(request)
            token_user = await self.accounts.check_token(request)
            if isinstance(token_user, AccountError):
                raise token_user
            if token_user is None:
                self._csrf(request, data)
                user = await self.accounts.current(request)
            else:
                user = token_user
            async with self._lock:   # not while the event is being started (its seats are read then)
                return await self._join(request, data, user)
        return await self._guard(request, go)

    async def _join(self, request: Request, data: dict, user: "dict | None") -> Response:
        """The rest of :meth:`join`, under the lock."""
        ev = await self._event(request)
        if ev is None:
            return _error(404, "no_event", "there is no such event")
        d = ev["data"]
        if ev["status"] != "open":
            return _error(409, "not_open", f"this event is {ev['status']}; seats are taken before it starts")
        t, s = data.get("table"), data.get("seat")
        players = d["rules"]["players"]
        if isinstance(t, bool) or isinstance(s, bool) or not isinstance(t, int) or not isinstance(s, int) \
                or not 0 <= t < d["tables"] or not 0 <= s < players:
            return _error(400, "bad_seat", f"choose a table 0 to {d['tables'] - 1} and a seat 0 to {players - 1}")
        taken = await self.store.event_seats(ev["event_id"])
        if any(e["table"] == t and e["seat"] == s for e in taken):
            return _error(409, "seat_taken", f"seat {s + 1} of table {t + 1} is taken")
        token = None
        if user is not None:
            if any(e["user_id"] == user["user_id"] for e in taken):
                return _error(409, "already_entered", "this account already holds a seat in this event")
            name, uid, thash = user["username"], user["user_id"], None
        else:
            try:
                raw = data.get("name")
                name = clean_name(raw if isinstance(raw, str) else "")
            except ProtocolError as e:
                return _error(400, e.code, e.message)
            token = new_token()
            uid, thash = None, token_hash(token)
        try:
            await self.store.add_event_seat(ev["event_id"], t, s, name, uid, thash, time.time())
        except Taken:   # taken meanwhile (or by this account)
            return _error(409, "seat_taken", f"seat {s + 1} of table {t + 1} is taken")
        answer: dict[str, Any] = {"event": ev["event_id"], "table": t, "seat": s, "name": name}
        if token is not None:
            answer["token"] = token
        response = JSONResponse(answer, status_code=201, headers={"cache-control": "no-store"})
        if token is not None:   # the browser shows it again when it asks to watch a table
            response.set_cookie(_cookie_name(request, ev["event_id"]), token, max_age=EVENT_COOKIE_DAYS * 86400,
                                path="/", secure=_secure(request), httponly=True, samesite="lax")
        return response

    async def leave(self, request: Request) -> Response:
        """``POST /api/events/{id}/leave``: give up one's seat before the event starts (an
        account's, or a guest's: ``{"token": the seat token join gave}``)."""
        async def go(request: Request) -> Response:
            data = await self._body(request)
            token_user = await self.accounts.check_token(request)
            if isinstance(token_user, AccountError):
                raise token_user
            if token_user is None:
                self._csrf(request, data)
            user = token_user if token_user is not None else await self.accounts.current(request)
            async with self._lock:
                ev = await self._event(request)
                if ev is None:
                    return _error(404, "no_event", "there is no such event")
                if ev["status"] != "open":
                    return _error(409, "not_open", f"this event is {ev['status']}; its seats are fixed")
                raw = data.get("token")
                thash = token_hash(raw) if isinstance(raw, str) and raw else None
                mine = [e for e in await self.store.event_seats(ev["event_id"])
                        if (user is not None and e["user_id"] == user["user_id"])
                        or (thash is not None and e["token_hash"] is not None
                            and secrets.compare_digest(e["token_hash"], thash))]
                if not mine:
                    return _error(404, "no_seat", "you hold no seat in this event")
                for e in mine:
                    await self.store.delete_event_seat(ev["event_id"], e["table"], e["seat"])
            response = JSONResponse({"event": ev["event_id"], "left": [[e["table"], e["seat"]] for e in mine]})
            response.delete_cookie(_cookie_name(request, ev["event_id"]), path="/", secure=_secure(request),
                                   httponly=True, samesite="lax")
            return response
        return await self._guard(request, go)

    async def start(self, request: Request) -> Response:
        """``POST /api/events/{id}/start`` (the organiser, CSRF): make the tables and deal."""
        async def go(request: Request) -> Response:
            data = await self._body(request)
            user = await self._organiser(request, data)
            async with self._lock:
                ev = await self._event(request)
                if ev is None:
                    return _error(404, "no_event", "there is no such event")
                if ev["organiser"] != user["user_id"]:
                    return _error(403, "not_organiser", "only the event's organiser may start it")
                if ev["status"] != "open":
                    return _error(409, "not_open", f"this event is {ev['status']}; it can be started once")
                ids = await self._make_tables(ev)
                stored = {**ev["data"], "table_ids": ids, "started": time.time()}
                if not await self.store.update_event(ev["event_id"], "playing", stored, was="open"):
                    return _error(409, "not_open", "this event was started or cancelled meanwhile")
            log.info("event %s started: tables %s", ev["event_id"], ", ".join(ids))
            return JSONResponse({"event": ev["event_id"], "tables": [f"/t/{i}" for i in ids]})
        return await self._guard(request, go)

    async def _make_tables(self, ev: dict) -> list[str]:
        """One private table per event table, its seats bound to who took them, bots elsewhere."""
        d = ev["data"]
        taken = {(e["table"], e["seat"]): e for e in await self.store.event_seats(ev["event_id"])}
        ids = []
        for t in range(d["tables"]):
            seats = []
            for s in range(d["rules"]["players"]):
                e = taken.get((t, s))
                if e is None:
                    seats.append({"kind": "bot", "bot": d["bot"]})
                else:
                    seats.append({"kind": "human", "bot": None, "name": e["name"],
                                  "token": e["token_hash"] or token_hash(new_token()),
                                  **({"account": e["user_id"]} if e["user_id"] else {})})
            config = {"title": f"{d['title']} · table {t + 1}"[:MAX_TITLE], "private": True, "rules": d["rules"],
                      "seats": seats, "away": d["away"], "spectator_chat": "together",
                      "event": {"id": ev["event_id"], "table": t, "seed": d["seed"]}}
            table, _, _ = await self.manager.create(config, f"event/{ev['event_id']}")
            ids.append(table.id)
            for s, seat in enumerate(seats):
                if seat.get("account"):
                    try:
                        await self.store.add_user_seat(seat["account"], table.id, s, time.time())
                    except StoreError as err:
                        log.error("event %s: a seat was not indexed for its account: %s", ev["event_id"], err)
        return ids

    async def cancel(self, request: Request) -> Response:
        """``POST /api/events/{id}/cancel`` (the organiser, CSRF): call the event off.  Tables
        already playing play on; the deals are revealed when they have all finished."""
        async def go(request: Request) -> Response:
            data = await self._body(request)
            user = await self._organiser(request, data)
            async with self._lock:
                ev = await self._event(request)
                if ev is None:
                    return _error(404, "no_event", "there is no such event")
                if ev["organiser"] != user["user_id"]:
                    return _error(403, "not_organiser", "only the event's organiser may cancel it")
                if ev["status"] not in ("open", "playing"):
                    return _error(409, "not_running", f"this event is {ev['status']} already")
                stored = {**ev["data"], "cancelled": time.time()}
                if not await self.store.update_event(ev["event_id"], "cancelled", stored, was=ev["status"]):
                    return _error(409, "not_running", "this event changed meanwhile; reload it")
            await self._check(ev["event_id"])
            return JSONResponse({"event": ev["event_id"], "status": "cancelled"})
        return await self._guard(request, go)

    # --- what the page shows ------------------------------------------------------------------------

    async def describe(self, ev: dict, user: "dict | None") -> dict:
        """The event as anyone may see it: no card of a game in progress, no seed before the
        deals are revealed, no seat token."""
        d = ev["data"]
        rules = Rules.from_dict(d["rules"])
        players, n = rules.players, d["tables"]
        bots: set[str] = getattr(self.manager, "bot_accounts", set())
        taken = {(e["table"], e["seat"]): e for e in await self.store.event_seats(ev["event_id"])}
        entries = []
        for t in range(n):
            row = []
            for s in range(players):
                e = taken.get((t, s))
                if e is not None:
                    kind = "bot_account" if e["user_id"] in bots else "account" if e["user_id"] else "guest"
                    row.append({"name": e["name"], "kind": kind, "bot": kind == "bot_account"})
                elif ev["status"] == "open":
                    row.append({"name": None, "kind": "open", "bot": False})
                else:
                    row.append({"name": f"{d['bot'].capitalize()} bot", "kind": "bot", "bot": True})
            entries.append(row)
        reveal = bool(d.get("revealed"))
        out: dict[str, Any] = {
            "id": ev["event_id"], "title": d["title"], "status": ev["status"], "organiser": d.get("organiser_name"),
            "created": ev["created"], "started": d.get("started"), "revealed": reveal, "tables": n,
            "players": players, "bot": d["bot"], "rules": rules.to_dict(), "description": rules.describe(),
            "commitments": list(d["commitments"]), "seed": d["seed"] if reveal else None, "seats": entries,
            "you": {"organiser": user is not None and user["user_id"] == ev["organiser"],
                    "seat": next(([e["table"], e["seat"]] for e in taken.values()
                                  if user is not None and e["user_id"] == user["user_id"]), None)},
            "live": [], "results": {"hands_done": 0, "hands": [], "ranking": []}}
        ids = d.get("table_ids") or []
        if ids:
            games = await self._games(ev["event_id"], ids)
            for t, (tid, game) in enumerate(zip(ids, games)):
                if game is not None:   # the names the game started with (told apart: "Heuristic bot 2")
                    for s, name in enumerate(game.names):
                        entries[t][s]["name"] = name
                out["live"].append({"table": t, "id": tid, "url": f"/t/{tid}",
                                    "status": "over" if game is not None and game.is_over else "playing",
                                    "hands_finished": len(game.past_hands) if game is not None else 0})
            out["results"] = results(games, entries, reveal=reveal)
        return out

    async def _games(self, event_id: str, ids: list[str]) -> "list[Game | None]":
        """The games of an event's tables, replayed from their stored logs; kept while every
        table is in memory and none has logged anything since (a page polls every few seconds)."""
        tables = [self.manager.tables.get(tid) for tid in ids]
        key = tuple(t.seq for t in tables) if all(t is not None for t in tables) else None
        hit = self._games_cache.get(event_id)
        if key is not None and hit is not None and hit[0] == key:
            return hit[1]
        games = [game_of_log(await self.store.load(tid)) for tid in ids]
        if key is not None:
            if len(self._games_cache) > 256:
                self._games_cache.clear()
            self._games_cache[event_id] = (key, games)
        return games

    def routes(self, page: Any) -> list:
        """The event pages and their API."""
        return [Route("/events", page("events.html")),
                Route("/events/{event_id}", page("event.html")),
                Route("/api/events", self.list_events, methods=["GET"]),
                Route("/api/events", self.create, methods=["POST"]),
                Route("/api/events/{event_id}", self.show, methods=["GET"]),
                Route("/api/events/{event_id}/join", self.join, methods=["POST"]),
                Route("/api/events/{event_id}/leave", self.leave, methods=["POST"]),
                Route("/api/events/{event_id}/start", self.start, methods=["POST"]),
                Route("/api/events/{event_id}/cancel", self.cancel, methods=["POST"])]
