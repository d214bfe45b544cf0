"""Tables: seats, games and the rules of who may do what, with the log as truth.

A :class:`Table` changes only through :meth:`Table._commit`, which appends one
event to the store and then applies it with :meth:`Table._apply_event`, the
same function that rebuilds a table from its log after a restart.  Every live
operation holds the table's lock from its checks to its broadcast, so two
actions on one table never interleave, and a rejected operation changes
nothing: the checks run before anything is written.

Each client receives only what its seat may see: ``game.view(seat).to_dict()``
for a seat, ``game.spectator_view().to_dict()`` otherwise.  The game's secret
seed is revealed (with the finished record) only once the game is over.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any, Iterable

from .. import dealing
from ..actions import parse_action
from ..cards import CARDS
from ..bots.session import TableSession, Turn
from ..errors import IllegalActionError, OhHellError
from ..game import Game
from ..rules import Rules
from ..text import explain_illegal
from ..tricks import hook_bid
from .botpool import bot_names, bot_seed, default_bot
# The configuration's names, here too (they were defined here before the split).
from .config import (AWAY_AFTER_RANGE, DEFAULT_AWAY_AFTER, MAX_HANDS, MAX_TITLE, SEAT_KINDS,  # noqa: F401
                     TableError, parse_away, parse_table_config)
from .config import CHAT_HISTORY, CHAT_KEEP, CHAT_MAX_LENGTH, SPECTATOR_CHAT

#: The hint bot's thinking time for one hint (seconds).
HINT_SECONDS = 2.0
#: Hints one connection may ask for: ``(per second, burst)``, a token bucket (and one at a time).
HINT_RATE = (0.2, 3.0)
from .protocol import ProtocolError, clean_name, clean_text, encode
from .session import Connection, RateLimiter
from .storage import Event, StoreError

if TYPE_CHECKING:
    from .manager import TableManager

__all__ = ["TableError", "Table", "TableManager", "token_hash", "new_token", "parse_table_config", "trim_history"]

log = logging.getLogger("ohhell.server")


def __getattr__(name: str) -> Any:
    """``TableManager`` lives in :mod:`ohhell.server.manager` (imported on first use here, as
    that module imports this one)."""
    if name == "TableManager":
        from .manager import TableManager
        return TableManager
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def new_id(nbytes: int = 9) -> str:
    """A random public id (a table's, an event's, a seat code): URL-safe, never starting with
    ``-``, so that it can follow an option on a command line (``--table ID``) and is never
    read as an option itself."""
    while True:
        token = secrets.token_urlsafe(nbytes)
        if not token.startswith("-"):
            return token


def new_token() -> str:
    """An unguessable token (192 random bits)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the log stores for a token: its SHA-256 (a leaked log holds no usable token)."""
    return hashlib.sha256(token.encode()).hexdigest()


class Seat:
    """One seat: ``open``, ``reserved`` (for whoever has its code), ``human`` or ``bot``.
    A person's seat may be bound to an account (``account``, its user id): then only a client
    signed in to that account acts at it, whatever token another shows."""

    __slots__ = ("kind", "name", "bot", "token_hash", "code_hash", "standin", "standin_by", "account")

    def __init__(self, kind: str, bot: "str | None" = None, code_hash: "str | None" = None) -> None:
        self.kind = kind
        self.bot = bot
        self.name: "str | None" = None
        self.token_hash: "str | None" = None
        self.code_hash = code_hash
        self.standin: "str | None" = None
        self.standin_by: "str | None" = None   # "timer" or "creator"
        self.account: "str | None" = None


def trim_history(view: dict) -> dict:
    """A view for a ``state`` frame: the finished hands keep their bids, tricks won and scores,
    but not their tricks' cards, except the last trick of the last finished hand (the page shows
    it until the next lead).  The cards of earlier tricks are public and in the record; sending
    them again with every move made each frame grow with the whole game."""
    past = view.get("past_hands")
    if past:
        view["past_hands"] = [{**h, "tricks": h["tricks"][-1:] if k == len(past) - 1 else []}
                              for k, h in enumerate(past)]
    return view


class _Unregistered:
    """A bot a log names that is not registered (any more): the table still loads, and each
    of its decisions fails in the pool, so the table plays a random legal action for it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def act(self, view: Any, budget: Any = None) -> Any:
        raise LookupError(f"no bot {self.name!r} is registered")


def _bot_spec(name: str) -> Any:
    """A seat's bot for the session: its name, or a stand-in for a name not registered."""
    return name if name in bot_names() else _Unregistered(name)


def _bot_display(bot: str) -> str:
    return f"{bot.capitalize()} bot"


class Table:
    """A table: its seats, the current game, its finished games and its clients."""

    #: a table in this process (a cluster's gateway node has :class:`~ohhell.server.cluster.RemoteTable`\ s too)
    remote = False
    #: set when a cluster node gave the table up (its lease lapsed): nothing more is scheduled here
    dropped = False

    def __init__(self, table_id: str, manager: "TableManager") -> None:
        self.id = table_id
        self.manager = manager
        #: where its log, lobby row and chat are written: the manager's store, or in a cluster the
        #: store fenced by the token this node took the table with (:meth:`ClusterStore.fenced`)
        self.store: Any = getattr(manager, "store", None)
        self.seq = 0
        self.created = 0.0
        self.updated = 0.0
        self.title = ""
        self.private = False
        self.rules: "Rules | None" = None
        self.seats: list[Seat] = []
        self.admin_hash = ""
        self.game: "Game | None" = None
        #: the current game's session (who plays each seat, whose turn, which bot turns are
        #: due): the same :class:`~ohhell.bots.TableSession` every other front end runs on;
        #: built when a game starts (live or replayed), fed every logged action
        self.session: "TableSession | None" = None
        self.game_no = 0
        self.seed: "str | None" = None
        self.commitments: list[str] = []
        self.finished: dict[int, dict] = {}
        self.votes: set[int] = set()
        self.away: "dict | None" = None       # the away timer: {"after": seconds, "bot": name}
        #: seat -> when the table began waiting for its rematch vote, from the log's timestamps
        #: (so a restarted server knows them too); during a game the session keeps when each
        #: turn began, from the same timestamps (its clock reads the event being applied)
        self.vote_since: dict[int, float] = {}
        #: seat -> when its last connection closed (not logged: after a load, the load time)
        self.away_since: dict[int, float] = {}
        self._event_ts: "float | None" = None   # the timestamp of the event being applied
        self.loaded = time.time()
        self.timer: "asyncio.Task | None" = None
        self.timer_at: "float | None" = None
        self.listed: "dict | None" = None      # the lobby row last written to the store
        self.creator = ""                      # who created it (a hash of the address), if known
        #: ``together`` or ``apart``: whether spectators' chat reaches the players (the creator's choice)
        self.spectator_chat = "together"
        #: the recent chat messages (as sent to clients, without ``type``), oldest first; loaded
        #: from the store with the table, not from the log (see :meth:`chat`)
        self.chat_log: collections.deque[dict] = collections.deque(maxlen=CHAT_HISTORY)
        self.chat_seq = 0                      # the next chat message's id
        #: a friendly table (its creator allowed hints and undo: docs/server.md, "Hints and undo")
        self.help = False
        #: the people who allow the others to take back their last action (each one's own toggle)
        self.undo_ok: set[int] = set()
        #: the current game's help: seat -> {"hints": n, "undos": m} (from the log)
        self.help_used: list[dict] = []
        #: a duplicate event's table (ohhell.server.events): ``{"id", "table", "seed"}`` from the
        #: create event; its one game is dealt from the event's seed, and its seed and record stay
        #: secret until the whole event is over (other tables play the same cards)
        self.event: "dict | None" = None
        #: the seats bot accounts (programs) held when the current game started (from its
        #: ``start`` event; the finished record keeps them as ``account_bots``)
        self.start_account_bots: list[int] = []
        #: the action count at which the current hand began (an undo never reopens a finished hand)
        self.hand_start = 0
        self._hint_limits: "dict[Connection, RateLimiter]" = {}
        self._hinting: "set[Connection]" = set()
        self._hint_tasks: "set[asyncio.Task]" = set()
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.bot_tasks: dict[int, asyncio.Task] = {}

    # --- the log ------------------------------------------------------------------------------

    def _apply_event(self, kind: str, data: dict, ts: float) -> None:
        """Apply one logged event; the only place the table's truth changes."""
        self._event_ts = ts
        try:
            self._apply(kind, data, ts)
        finally:
            self._event_ts = None

    def _clock(self) -> float:
        """The session's clock: the timestamp of the event being applied (live or replayed, so
        a turn's away clock starts when its event was logged), else the time now."""
        return self._event_ts if self._event_ts is not None else time.time()

    def _apply(self, kind: str, data: dict, ts: float) -> None:
        if kind == "create":
            self.created = ts
            self.title = data["title"]
            self.private = data["private"]
            self.rules = Rules.from_dict(data["rules"])
            self.admin_hash = data["admin"]
            self.away = data.get("away")  # tables created before the timer existed have none
            self.creator = data.get("creator") or ""
            self.spectator_chat = data.get("spectator_chat") or "together"   # older tables: together
            self.help = bool(data.get("help"))
            codes = data.get("codes", {})
            self.seats = [Seat(s["kind"], s.get("bot"), codes.get(str(i)))
                          for i, s in enumerate(data["seats"])]
            self.event = data.get("event")
            for seat, s in zip(self.seats, data["seats"]):
                if s["kind"] == "human" and "token" in s:   # an event's seat, taken before the table was made
                    seat.name, seat.token_hash, seat.account = s.get("name"), s["token"], s.get("account")
        elif kind == "join":
            seat = self.seats[data["seat"]]
            seat.kind = "human"
            seat.name = data["name"]
            seat.token_hash = data["token"]
            seat.standin = seat.standin_by = None
            seat.account = data.get("account")
        elif kind == "leave":
            seat = self.seats[data["seat"]]
            seat.kind, seat.name, seat.token_hash, seat.standin = "open", None, None, None
            seat.standin_by = seat.account = None
            self.undo_ok.discard(data["seat"])
            if data.get("reserved"):  # a reserved seat stays reserved for its invite code
                seat.kind = "reserved"
            else:
                seat.code_hash = None
            self.votes.discard(data["seat"])
        elif kind == "set_seat":
            seat = self.seats[data["seat"]]
            seat.kind, seat.bot, seat.name, seat.token_hash, seat.standin = data["kind"], data.get("bot"), \
                None, None, None
            seat.code_hash = seat.standin_by = seat.account = None
            self.undo_ok.discard(data["seat"])
        elif kind == "claim":   # a guest's seat bound to the account they signed up with
            self.seats[data["seat"]].account = data["account"]
        elif kind == "standin":
            seat = self.seats[data["seat"]]
            seat.standin = data["bot"]
            seat.standin_by = data.get("by", "creator")
            if self.session is not None and self.in_game:   # between games, the next start sees it
                self.session.stand_in(data["seat"], _bot_spec(data["bot"]))
        elif kind == "reclaim":
            seat = self.seats[data["seat"]]
            seat.standin = seat.standin_by = None
            if self.session is not None and self.in_game:
                self.session.reclaim(data["seat"])
        elif kind == "start":
            self.game_no = data["game"]
            self.seed = data["seed"]
            assert self.rules is not None
            self.game = Game(self.rules, seed=self.seed, names=data["names"])
            self.session = self._new_session(self.game)
            self.commitments = [dealing.commitment(dealing.hand_key(self.seed, k))
                                for k in range(self.rules.hand_count)]
            self.votes = set()
            self.help_used = [{"hints": 0, "undos": 0} for _ in self.seats]
            self.hand_start = 0
            self.start_account_bots = list(data.get("account_bots", []))
        elif kind == "act":
            game, session = self.game, self.session
            assert game is not None and session is not None and data["game"] == self.game_no
            hand = game.hand_index
            session.apply(data["seat"], parse_action(data["action"]))
            if game.hand_index != hand or game.is_over:
                self.hand_start = game.action_count
            if game.is_over:
                rec = game.record()
                rec["commitments"] = list(self.commitments)
                if self.help:
                    rec["help"] = [dict(h) for h in self.help_used]
                if self.start_account_bots:   # the seats programs played (docs/bots-api.md)
                    rec["account_bots"] = list(self.start_account_bots)
                self.finished[self.game_no] = rec
        elif kind == "hint":
            assert data["game"] == self.game_no
            self.help_used[data["seat"]]["hints"] += 1
        elif kind == "undo":
            session = self.session
            assert session is not None and data["game"] == self.game_no
            taken = session.take_back(data["seat"])
            if taken != data["count"]:
                raise StoreError(f"table {self.id}: the undo took back {taken} actions, the log says "
                                 f"{data['count']}")
            self.help_used[data["seat"]]["undos"] += 1
        elif kind == "allow_undo":
            if data["on"]:
                self.undo_ok.add(data["seat"])
            else:
                self.undo_ok.discard(data["seat"])
        elif kind == "vote":
            self.votes.add(data["seat"])
        elif kind == "chat_setting":
            self.spectator_chat = data["spectator_chat"]
        else:  # pragma: no cover - a log written by a newer server
            raise StoreError(f"table {self.id}: unknown event {kind!r}")
        self.updated = ts
        since = self.vote_since
        self.vote_since = {s: since.get(s, ts) for s in self._voters_waiting()}

    def _new_session(self, game: Game) -> TableSession:
        """The session of a game that starts: each bot seat's bot by name, a person's seat
        ``None`` (the session's outside player), and the stand-ins already playing for people.
        The session's own bots are not asked: the server makes a fresh seeded bot per decision
        (:func:`~ohhell.server.botpool.bot_seed`) in its pool, from the session's due turns."""
        specs = [_bot_spec(s.bot or "") if s.kind == "bot" else None for s in self.seats]
        away = self.away
        standin = away["bot"] if away and away["bot"] in bot_names() else None
        session = TableSession(game, specs, delay=self.manager.bot_delay, trick_pause=2.5,
                               away_after=away["after"] if away else None, standin=standin, clock=self._clock)
        for i, s in enumerate(self.seats):
            if s.kind == "human" and s.standin:
                session.stand_in(i, _bot_spec(s.standin))
        return session

    def waiting_on(self) -> list[int]:
        """The seats the table is waiting for: those to bid or play (the session's), or, once
        a finished game has a rematch vote, the people (no bot standing in) who have not voted."""
        game = self.game
        if game is None:
            return []
        if not game.is_over:
            assert self.session is not None
            return self.session.game.seats_to_act
        return self._voters_waiting()

    def _voters_waiting(self) -> list[int]:
        """Once a finished game has a rematch vote: the people (no bot standing in) who have
        not voted."""
        if self.game is None or not self.game.is_over or not self.votes:
            return []
        return [i for i, s in enumerate(self.seats) if s.kind == "human" and not s.standin and i not in self.votes]

    async def _commit(self, kind: str, data: dict) -> None:
        """Write one event to the store, then apply it (the caller holds the lock).

        :raises TableError: ``storage`` when the write fails; nothing changed then.
        """
        try:
            ts = await self.store.append(self.id, self.seq, kind, data)
        except StoreError as e:
            log.error("%s", e)
            raise TableError("storage", "the server could not save this; nothing was changed, "
                                        "try again") from None
        self.seq += 1
        self._apply_event(kind, data, ts)
        # The game-over hook runs before the next await: from then on a request can see the
        # finished game, and it must find the analysis queued, not queue it a second time.
        hook = getattr(self.manager, "on_game_over", None)   # the replay analysis (analysis_jobs.py)
        if hook is not None and kind == "act" and self.game_no in self.finished and self.game and self.game.is_over:
            hook(self, self.game_no, self.finished[self.game_no])
        await self.sync_listing()

    async def sync_listing(self) -> None:
        """Write the table's lobby row to the store when it changed (public tables only).

        The lobby lists tables from the store, so a table out of memory is listed too.
        A failed write is logged and retried at the next change (and at the next load)."""
        if self.private or self.rules is None:
            return
        row = self.summary()
        row.pop("updated")
        if row == self.listed:
            return
        try:
            await self.store.put_listing(self.id, row, self.updated)
        except StoreError as e:
            log.error("%s", e)
            return
        self.listed = row
        self.manager.listing_changed()

    def replay(self, events: Iterable[Event]) -> None:
        """Rebuild the table from its log."""
        for e in events:
            if e.seq != self.seq:
                raise StoreError(f"table {self.id}: the log jumps from event {self.seq - 1} to {e.seq}")
            self._apply_event(e.kind, e.data, e.ts)
            self.seq += 1

    async def resume(self) -> None:
        """After loading: start a game the crash interrupted, wake the bots, arm the away
        timers (nobody is connected yet, so each seat's clock starts now) and make sure the
        lobby row is current."""
        async with self.lock:
            await self.sync_listing()
            await self._after_change()

    # --- who is who ---------------------------------------------------------------------------

    def seat_of_token(self, thash: str) -> "int | None":
        """The seat a token holds, if any."""
        for i, s in enumerate(self.seats):
            if s.kind == "human" and s.token_hash is not None and secrets.compare_digest(s.token_hash, thash):
                return i
        return None

    def seat_of(self, thash: "str | None", account: "str | None") -> "int | None":
        """The seat of a client showing token hash ``thash`` while signed in to ``account``
        (a user id, or ``None`` for a guest): the token's seat unless another account holds
        it, else the seat ``account`` holds."""
        if thash is not None:
            i = self.seat_of_token(thash)
            if i is not None and self.seats[i].account in (None, account):
                return i
        if account is not None:
            for i, s in enumerate(self.seats):
                if s.kind == "human" and s.account == account:
                    return i
        return None

    def connected(self, seat: int) -> bool:
        """Whether a client holding ``seat`` is connected."""
        return any(c.seat == seat for c in self.conns)

    @property
    def status(self) -> str:
        """``waiting`` (for players), ``playing`` or ``over``."""
        if self.game is None:
            return "waiting"
        return "over" if self.game.is_over else "playing"

    @property
    def in_game(self) -> bool:
        """Whether a game is being played."""
        return self.game is not None and not self.game.is_over

    def _require_admin(self, conn: Connection) -> None:
        if not conn.admin:
            raise TableError("not_admin", "only the table's creator may do this")

    def _seat_index(self, seat: int) -> Seat:
        if not 0 <= seat < len(self.seats):
            raise TableError("bad_seat", f"there is no seat {seat}; seats are 0 to {len(self.seats) - 1}")
        return self.seats[seat]

    # --- operations (each under the lock) -------------------------------------------------------

    async def attach(self, conn: Connection, token: "str | None", admin: "str | None") -> None:
        """A client says hello: find its seat and send it the current state."""
        await self.attach_hashed(conn, token_hash(token) if token is not None else None,
                                 token_hash(admin) if admin is not None else None)

    async def attach_hashed(self, conn: Connection, thash: "str | None", admin_hash: "str | None") -> None:
        """:meth:`attach` with the tokens' hashes (what a cluster's gateway node forwards)."""
        async with self.lock:
            conn.table = self
            if admin_hash is not None and secrets.compare_digest(admin_hash, self.admin_hash):
                conn.admin = True
            if thash is not None:
                conn.token_hash = thash
            self.conns.add(conn)
            self._arm()
            self._broadcast()
            history = [m for m in self.chat_log if self._may_read(conn, m)]
            if history:   # a table without chat sends no chat frame
                conn.send(encode({"type": "chat_history", "messages": history}))

    async def detach(self, conn: Connection) -> None:
        """A client went away (a seat's away clock starts when its last connection closes)."""
        async with self.lock:
            self._hint_limits.pop(conn, None)
            if conn in self.conns:
                self.conns.discard(conn)
                if conn.seat is not None and not self.connected(conn.seat):
                    self.away_since[conn.seat] = time.time()
                self._arm()
                self._broadcast()
        self.manager.touch(self)

    async def join(self, conn: Connection, seat_no: int, name: str, code: "str | None") -> str:
        """Take a seat; returns the seat token to keep (only its hash is stored)."""
        async with self.lock:
            try:
                name = clean_name(name)
            except ProtocolError as e:
                raise TableError(e.code, e.message) from None
            seat = self._seat_index(seat_no)
            if conn.seat is not None:
                raise TableError("seated", f"you already hold seat {conn.seat}")
            if seat.kind == "reserved":
                if code is None or seat.code_hash is None or \
                        not secrets.compare_digest(token_hash(code), seat.code_hash):
                    raise TableError("reserved", f"seat {seat_no} is reserved; it needs the invite link "
                                                 f"the creator sent for it")
            elif seat.kind != "open":
                raise TableError("seat_taken", f"seat {seat_no} is taken")
            token = new_token()
            thash = token_hash(token)
            account = conn.account
            if account is not None:   # a signed-in player sits under their username, bound to it
                name = account["username"]
            await self._commit("join", {"seat": seat_no, "name": name, "token": thash,
                                        **({"account": account["user_id"]} if account else {})})
            conn.token_hash = thash
            conn.send(encode({"type": "joined", "table": self.id, "seat": seat_no, "token": token}))
            if account is not None:
                await self._remember_seat(account["user_id"], seat_no)
            await self._after_change()
            return token

    async def claim(self, thash: str, account: str) -> "int | None":
        """Bind the seat a guest's token holds to ``account`` (the account they signed up or in
        with, on the browser that holds the token); returns the seat, ``None`` if the token
        holds none here.

        :raises TableError: ``claimed`` when another account holds that seat.
        """
        async with self.lock:
            seat = self.seat_of_token(thash)
            if seat is None:
                return None
            owner = self.seats[seat].account
            if owner == account:
                return seat
            if owner is not None:
                raise TableError("claimed", f"seat {seat} of table {self.id} belongs to another account")
            await self._commit("claim", {"seat": seat, "account": account})
            await self._remember_seat(account, seat)
            self._broadcast()
            return seat

    async def _remember_seat(self, account: str, seat: int) -> None:
        """Index the account's seat for its pages (the log stays the truth: a failed write is
        logged, and the binding holds all the same)."""
        try:
            await self.manager.store.add_user_seat(account, self.id, seat, self.updated)
        except StoreError as e:
            log.error("table %s: the account's seat %d was not indexed: %s", self.id, seat, e)

    async def leave(self, conn: Connection) -> None:
        """Give up one's seat (not while a game is being played)."""
        async with self.lock:
            if conn.seat is None:
                raise TableError("no_seat", "you hold no seat at this table")
            if self.in_game:
                raise TableError("game_running", "a game is being played: close the page instead; the "
                                                 "creator may put a bot in your seat until you come back")
            seat = conn.seat
            await self._commit("leave", {"seat": seat, **({"reserved": True} if self.seats[seat].code_hash
                                                           else {})})
            await self._after_change()

    async def act(self, conn: Connection, value: "int | str") -> None:
        """A bid or a card from the client holding a seat."""
        async with self.lock:
            seat = conn.seat
            if seat is None:
                raise TableError("no_seat", "you hold no seat at this table; spectators cannot play")
            if not self.in_game:
                raise TableError("no_game", "no game is being played at this table now")
            if self.seats[seat].standin:
                raise TableError("standin", "a bot is playing your seat; take it back first")
            try:
                action = parse_action(value)
            except OhHellError as e:
                raise TableError("bad_action", str(e)) from None
            game = self.game
            assert game is not None
            try:
                game.check(action, seat=seat)
            except IllegalActionError as e:
                code = "not_your_turn" if not game.legal_actions(seat) else "illegal"
                raise TableError(code, str(e), reason_facts(e)) from None
            await self._commit("act", {"game": self.game_no, "seat": seat, "action": action.to_json()})
            await self._after_change()

    async def rematch(self, conn: Connection) -> None:
        """Vote for another game with the same seats (it starts when every player has voted)."""
        async with self.lock:
            if conn.seat is None:
                raise TableError("no_seat", "only players can ask for a rematch")
            if self.status != "over":
                raise TableError("no_rematch", "a rematch can be asked for once the game is over")
            if self.event is not None:
                raise TableError("no_rematch", "this table is part of a duplicate event: it plays one game")
            if conn.seat in self.votes:
                raise TableError("voted", "you have already asked for a rematch")
            await self._commit("vote", {"seat": conn.seat})
            await self._after_change()

    async def reclaim(self, conn: Connection) -> None:
        """Take one's seat back from the bot standing in."""
        async with self.lock:
            if conn.seat is None or not self.seats[conn.seat].standin:
                raise TableError("no_standin", "no bot is standing in for you")
            await self._commit("reclaim", {"seat": conn.seat})
            await self._after_change()

    async def replace(self, conn: Connection, seat_no: int, bot: str) -> None:
        """Creator: let a bot play for a player who is away (they can take it back)."""
        async with self.lock:
            self._require_admin(conn)
            seat = self._seat_index(seat_no)
            if bot not in bot_names():
                raise TableError("bad_bot", f"unknown bot {bot!r}; choose one of {', '.join(bot_names())}")
            if seat.kind != "human":
                raise TableError("bad_seat", f"seat {seat_no} has no player to replace")
            if seat.standin:
                raise TableError("bad_seat", f"a bot already stands in for seat {seat_no}")
            if self.connected(seat_no):
                raise TableError("present", f"{seat.name} is connected; only a player who has left "
                                            f"can be replaced")
            await self._commit("standin", {"seat": seat_no, "bot": bot, "by": "creator"})
            await self._after_change()

    async def set_seat(self, conn: Connection, seat_no: int, kind: str, bot: "str | None") -> None:
        """Creator, while no game is being played: make an empty seat a bot, or a bot seat open."""
        async with self.lock:
            self._require_admin(conn)
            seat = self._seat_index(seat_no)
            if self.in_game:
                raise TableError("game_running", "seats can be changed only between games")
            if kind not in ("bot", "open"):
                raise TableError("bad_field", "kind must be 'bot' or 'open'")
            if seat.kind == "human":
                raise TableError("seat_taken", f"{seat.name} sits in seat {seat_no}")
            if kind == "bot":
                bot = bot or default_bot()
                if bot not in bot_names():
                    raise TableError("bad_bot", f"unknown bot {bot!r}; choose one of {', '.join(bot_names())}")
            else:
                bot = None
            await self._commit("set_seat", {"seat": seat_no, "kind": kind, "bot": bot})
            await self._after_change()

    async def fill_bots(self, conn: Connection, bot: "str | None") -> None:
        """Creator: put bots in every open seat (and so start the game)."""
        async with self.lock:
            self._require_admin(conn)
            if self.in_game:
                raise TableError("game_running", "a game is already being played")
            bot = bot or default_bot()
            if bot not in bot_names():
                raise TableError("bad_bot", f"unknown bot {bot!r}; choose one of {', '.join(bot_names())}")
            open_seats = [i for i, s in enumerate(self.seats) if s.kind in ("open", "reserved")]
            if not open_seats:
                raise TableError("no_open_seat", "every seat is taken")
            for i in open_seats:
                await self._commit("set_seat", {"seat": i, "kind": "bot", "bot": bot})
            await self._after_change()

    # --- hints and undo (friendly tables) ---------------------------------------------------------

    def _helper_seat(self, conn: Connection, what: str) -> int:
        """The asker's seat, if it may have help now (the caller holds the lock)."""
        if not self.help:
            raise TableError("no_help", f"this table was created without hints and undo; {what} is "
                                        f"for friendly tables")
        seat = conn.seat
        if seat is None:
            raise TableError("no_seat", f"you hold no seat at this table; {what} is for players")
        if not self.in_game:
            raise TableError("no_game", "no game is being played at this table now")
        if self.seats[seat].standin:
            raise TableError("standin", "a bot is playing your seat; take it back first")
        return seat

    def undo_blocker(self, seat: int) -> "tuple[str, str] | None":
        """Why ``seat`` may not take back its last action now (``(code, sentence)``), or ``None``
        when it may: the table allows help, a game is on, the seat acted in the current hand,
        every action after its last one is a bot's (no person's is ever taken back, nor a
        stand-in's), and every other person at the table allows undo (or there is none)."""
        game = self.game
        if not self.help or game is None or game.is_over:
            return ("no_game", "no game is being played at this table now") if self.help else \
                ("no_help", "this table was created without hints and undo")
        actions = list(game.actions())
        last = max((k for k, (s, _) in enumerate(actions) if s == seat), default=None)
        if last is None or last < self.hand_start:
            return ("nothing_to_undo", "you have not bid or played in this hand yet; a finished hand "
                                       "cannot be taken back")
        for s, _ in actions[last + 1:]:
            if self.seats[s].kind != "bot":
                who = self.display_names()[s] or f"seat {s}"
                return ("undo_person", f"{who} has acted since your last move; only bots' actions "
                                       f"are taken back with yours")
        others = [i for i, t in enumerate(self.seats) if t.kind == "human" and i != seat]
        missing = [i for i in others if i not in self.undo_ok]
        if missing:
            names = self.display_names()
            who = ", ".join(names[i] or f"seat {i}" for i in missing)
            return ("undo_not_agreed", f"undo needs every other player's agreement: {who} has not "
                                       f"switched on \"Allow undo\"")
        return None

    async def undo(self, conn: Connection) -> None:
        """Take back the asker's last action and the bots' actions after it (one ``undo`` event
        in the log, replayed like an action; the deal never changes: a hand's cards come from
        the game's seed alone)."""
        async with self.lock:
            seat = self._helper_seat(conn, "undo")
            why = self.undo_blocker(seat)
            if why is not None:
                raise TableError(*why)
            game = self.game
            assert game is not None
            actions = list(game.actions())
            last = max(k for k, (s, _) in enumerate(actions) if s == seat)
            count = len(actions) - last
            for task in list(self.bot_tasks.values()):   # their turns are stale now
                task.cancel()
            self.bot_tasks.clear()
            await self._commit("undo", {"game": self.game_no, "seat": seat, "count": count})
            await self._after_change()

    async def allow_undo(self, conn: Connection, on: bool) -> None:
        """A player's own switch: whether the others may take back their last action."""
        async with self.lock:
            if not self.help:
                raise TableError("no_help", "this table was created without hints and undo")
            if conn.seat is None:
                raise TableError("no_seat", "you hold no seat at this table")
            if (conn.seat in self.undo_ok) == on:
                self._broadcast()
                return
            await self._commit("allow_undo", {"seat": conn.seat, "on": on})
            self._broadcast()

    async def hint(self, conn: Connection) -> None:
        """A hint for the asker's turn: the hint bot's suggestion, from the asker's own view
        only, computed in the bot pool within ``HINT_SECONDS``, sent to the asker alone as a
        ``hint`` frame; the hint is logged (the game's record counts it).  One at a time per
        connection, at most ``HINT_RATE``.

        :raises TableError: ``no_help``, ``no_seat``, ``no_game``, ``standin``, ``not_your_turn``,
            ``hint_busy``, ``hint_rate_limited``, ``hint_failed`` or ``storage``."""
        async with self.lock:
            seat = self._helper_seat(conn, "a hint")
            game = self.game
            assert game is not None
            if not game.legal_actions(seat):
                raise TableError("not_your_turn", "a hint is for your turn")
            if conn in self._hinting:
                raise TableError("hint_busy", "a hint is already being worked out for you")
            limiter = self._hint_limits.setdefault(conn, RateLimiter(*HINT_RATE))
            if not limiter.allow():
                raise TableError("hint_rate_limited", f"you are asking for hints too fast (at most "
                                                      f"{HINT_RATE[1]:g} in a row, then one every "
                                                      f"{1 / HINT_RATE[0]:g} s); wait a moment")
            view, n, number = game.view(seat), game.action_count, self.game_no
            self._hinting.add(conn)
        # Worked out beside the connection's other messages (an act, a chat), not before them.
        task = asyncio.create_task(self._hint_work(conn, seat, view, n, number), name=f"hint {self.id}/{seat}")
        self._hint_tasks.add(task)
        task.add_done_callback(self._hint_tasks.discard)

    async def _hint_work(self, conn: Connection, seat: int, view: Any, n: int, number: int) -> None:
        """The rest of :meth:`hint`: the pool's answer, logged and sent (or the refusal sent)."""
        try:
            await self._hint_answer(conn, seat, view, n, number)
        except TableError as e:
            conn.error(e.code, e.message)
        except asyncio.CancelledError:
            raise
        except Exception:  # pragma: no cover - logged, nothing changed
            log.exception("hint failed at table %s seat %d", self.id, seat)
            conn.error("internal", "the server failed to work out the hint; nothing was changed")

    async def _hint_answer(self, conn: Connection, seat: int, view: Any, n: int, number: int) -> None:
        try:
            try:
                hint = await self.manager.pool.hint(view, HINT_SECONDS)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("hint failed at table %s seat %d", self.id, seat)
                raise TableError("hint_failed", "the hint could not be worked out; try again") from None
            async with self.lock:
                if self.game_no != number or self.game is None or self.game.action_count != n \
                        or conn.seat != seat:
                    raise TableError("hint_stale", "the game moved on while the hint was worked out; "
                                                   "ask again")
                await self._commit("hint", {"game": number, "seat": seat})
                conn.send(encode({"type": "hint", "game": number, "n": n, "seat": seat, **hint}))
                self._broadcast()
        finally:
            self._hinting.discard(conn)

    # --- after every change ---------------------------------------------------------------------

    async def _after_change(self) -> None:
        """Start a game when everyone is ready, wake the bots, tell everyone."""
        if self._ready_to_start():
            names = self.display_names()
            seed = self.event["seed"] if self.event else secrets.token_hex(16)
            bots = sorted(self.account_bots())
            await self._commit("start", {"game": self.game_no + 1, "seed": seed, "names": names,
                                         **({"account_bots": bots} if bots else {})})
            self.manager.started(self)
        self._schedule_bots()
        self._arm()
        self._broadcast()
        self.manager.touch(self)

    def _ready_to_start(self) -> bool:
        if self.in_game or not self.seats:
            return False
        if any(s.kind in ("open", "reserved") for s in self.seats):
            return False
        if self.game is None:
            return True
        if self.event is not None:   # an event's table plays its one game
            return False
        # A rematch needs someone to ask for it (bots alone never start another game) and
        # every person's vote (a seat a bot stands in for does not vote).
        humans = [i for i, s in enumerate(self.seats) if s.kind == "human" and not s.standin]
        return bool(self.votes) and all(i in self.votes for i in humans)

    # --- the away timer -------------------------------------------------------------------------

    def takeovers(self) -> dict[int, float]:
        """seat -> when (Unix time) the away timer lets a bot play for it, for every seat the
        table is waiting for whose player is not connected (empty without a timer).

        A seat's clock starts at the later of the moment the table began waiting for it
        (logged) and the moment its last connection closed (or the table was loaded: after a
        restart nobody could have reconnected earlier).  During a game these are the session's
        (:meth:`TableSession.takeovers`), told who is away first; between games, for a rematch
        vote, the table's own."""
        away = self.away
        if not away or self.manager.closing:
            return {}
        session = self.session
        if session is not None and self.in_game:
            self._mark_away(session)
            return session.takeovers()
        out = {}
        for s, since in self.vote_since.items():
            seat = self.seats[s]
            if seat.kind != "human" or seat.standin or self.connected(s):
                continue
            out[s] = max(since, self.away_since.get(s, self.loaded)) + away["after"]
        return out

    def _mark_away(self, session: TableSession) -> None:
        """Tell the session which people are away (no connection holds their seat) and since
        when: their last connection's close, or the table's load."""
        for i, seat in enumerate(self.seats):
            if seat.kind == "human" and not self.connected(i):
                session.set_away(i, since=self.away_since.get(i, self.loaded))
            else:
                session.set_away(i, False)

    def _arm(self) -> None:
        """(Re)set the timer task to the earliest takeover (the caller holds the lock)."""
        if self.dropped:
            return
        when = min(self.takeovers().values(), default=None)
        if when == self.timer_at:
            return
        if self.timer is not None:
            self.timer.cancel()
        self.timer, self.timer_at = None, when
        if when is not None:
            self.timer = asyncio.create_task(self._away_timer(when), name=f"away {self.id}")

    async def _away_timer(self, when: float) -> None:
        me = asyncio.current_task()
        try:
            await asyncio.sleep(max(0.0, when - time.time()))
            async with self.lock:
                if self.timer is not me:
                    return
                self.timer, self.timer_at = None, None
                now = time.time()
                due = sorted(s for s, t in self.takeovers().items() if t <= now)
                done = 0
                try:
                    for s in due:  # in seat order, each one event in the log before anyone hears of it
                        away = self.away
                        assert away is not None
                        await self._commit("standin", {"seat": s, "bot": away["bot"], "by": "timer",
                                                       "after": away["after"]})
                        done += 1
                        log.info("table %s: %s away for %gs; a %s bot plays for them", self.id,
                                 self.seats[s].name, away["after"], away["bot"])
                except TableError:  # the store refused: try again in a second
                    self.timer_at = time.time() + 1.0
                    self.timer = asyncio.create_task(self._away_timer(self.timer_at), name=f"away {self.id}")
                if done:
                    await self._after_change()
                elif self.timer is None:
                    self._arm()
        except asyncio.CancelledError:
            raise
        except Exception:  # pragma: no cover - logged, the table stays as it was
            log.exception("away timer failed at table %s", self.id)

    def _schedule_bots(self) -> None:
        """A task for every bot turn the session says is due and none runs for yet."""
        session = self.session
        if session is None or session.game.is_over or self.manager.closing or self.dropped:
            return
        for turn in session.due():
            if turn.seat not in self.bot_tasks:
                self.bot_tasks[turn.seat] = asyncio.create_task(
                    self._bot_turn(session, turn, session.game.action_count), name=f"bot {self.id}/{turn.seat}")

    async def _bot_turn(self, session: TableSession, turn: Turn, n: int) -> None:
        """One bot move, for a turn the session handed out after ``n`` actions.  The bot starts
        thinking at once (a fresh bot seeded ``bot_seed(game seed, seat, n)``, in the pool) and
        its move is logged ``turn.delay`` seconds (the session's: ``bot_delay``, 2.5 times that
        after a trick's last card) after its turn began, not sooner, however quickly it decided:
        how long a bot takes tells nobody anything about its cards (a forced move would
        otherwise come faster than a free one).  The move is logged only while the session
        still says the turn is current, then applied through the log like any action."""
        manager = self.manager
        me = asyncio.current_task()
        seat, name = turn.seat, turn.name
        try:
            due = time.monotonic() + turn.delay
            seed = bot_seed(self.seed or "", seat, n)
            try:
                action = await manager.pool.decide(name, seed, turn.view, creator=self.creator or self.id,
                                                   table=self.id)
            except asyncio.CancelledError:
                raise
            except Exception:  # a broken bot must not stop the table: log, fall back to random
                log.exception("bot %s failed at table %s seat %d; playing a random legal action",
                              name, self.id, seat)
                action = manager.fallback(seed, turn.view)
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            async with self.lock:
                if self.session is not session or session.game.is_over:
                    return
                if not session.is_current(turn):   # the seat changed hands meanwhile: a fresh turn
                    self._forget_bot(seat, me)
                    self._schedule_bots()
                    return
                game = session.game
                try:
                    # Checked before it is logged, as a person's action is: a bot
                    # (a registered one too) that answers nonsense must not reach
                    # the log, which is replayed on every restart.
                    game.check(parse_action(action), seat=seat)
                except OhHellError as e:
                    log.error("bot %s at table %s seat %d answered %r (%s); playing a random legal "
                              "action", name, self.id, seat, action, e)
                    action = manager.fallback(seed, game.view(seat))
                # The task stays in bot_tasks until its action is logged, so whoever
                # waits for the table's bots (a shutdown, a test) also waits for this write.
                try:
                    await self._commit("act", {"game": self.game_no, "seat": seat, "action": action})
                except TableError:
                    self._forget_bot(seat, me)
                    await asyncio.sleep(1.0)
                    self._schedule_bots()
                    return
                self._forget_bot(seat, me)   # the next turn may be this seat's again
                await self._after_change()
                return
        except asyncio.CancelledError:
            raise
        except Exception:  # pragma: no cover - logged, the table stays as it was
            log.exception("bot turn failed at table %s seat %d", self.id, seat)
        finally:
            self._forget_bot(seat, me)

    def _forget_bot(self, seat: int, task) -> None:
        """Unregister ``task`` as ``seat``'s bot turn (if a newer turn has not replaced it)."""
        if self.bot_tasks.get(seat) is task:
            del self.bot_tasks[seat]

    # --- what clients see -----------------------------------------------------------------------

    def public_info(self) -> dict:
        """The table as anyone may see it (no token, no code, no seed)."""
        seats = []
        names = self.display_names()
        takeovers = self.takeovers()
        now = time.time()
        account_bots = self.account_bots()
        for i, s in enumerate(self.seats):
            when = takeovers.get(i)
            seats.append({"seat": i, "kind": s.kind, "name": names[i],
                          "bot": s.bot if s.kind == "bot" else None, "account_bot": i in account_bots,
                          "standin": s.standin,
                          "standin_by": s.standin_by,
                          "takeover_in": None if when is None else round(max(0.0, when - now), 1),
                          "connected": s.kind == "bot" or self.connected(i)})
        return {"id": self.id, "title": self.title, "private": self.private, "away": self.away,
                "event": {"id": self.event["id"], "table": self.event["table"]} if self.event else None,
                "spectator_chat": self.spectator_chat,
                "rules": self.rules.to_dict() if self.rules else None,
                "description": self.rules.describe() if self.rules else "",
                "seats": seats, "status": self.status, "game": self.game_no,
                "actions": self.game.action_count if self.game else 0,
                "finished": sorted(self.finished), "votes": sorted(self.votes),
                "help": {"allowed": self.help, "undo_ok": sorted(self.undo_ok),
                         "used": [dict(h) for h in self.help_used] if self.help and self.game else None},
                "spectators": sum(1 for c in self.conns if c.seat is None)}

    def summary(self) -> dict:
        """One line of the lobby's list."""
        return {"id": self.id, "title": self.title, "description": self.rules.describe() if self.rules else "",
                "rules": self.rules.to_dict() if self.rules else None, "players": len(self.seats), "open": [i for i, s in enumerate(self.seats) if s.kind == "open"],
                "seated": sum(1 for s in self.seats if s.kind == "human"),
                "status": self.status, "game": self.game_no,
                "names": self.display_names(), "account_bots": sorted(self.account_bots()),
                "hand": (self.game.hand_index + 1) if self.in_game else None,
                "hands": self.rules.hand_count if self.rules else 0, "updated": self.updated}

    def account_bots(self) -> set[int]:
        """The seats a bot account holds (a program, through the bot API: docs/bots-api.md)."""
        bots = getattr(self.manager, "bot_accounts", ())
        return {i for i, s in enumerate(self.seats) if s.kind == "human" and s.account and s.account in bots}

    def display_names(self) -> "list[str | None]":
        """The name of each seat as everyone sees it (the lobby, the table, the chat, and the
        names a game starts with, so its record and replay too): a person's name, a bot's
        level ("Expert bot"), ``None`` for an open or reserved seat.  The one place seat
        names are made: two seats with one name are told apart by number ("Expert bot 1",
        "Expert bot 2").  During a game, the names it started with."""
        if self.in_game and self.game is not None:
            return list(self.game.names)
        return _distinct([s.name if s.kind == "human" else _bot_display(s.bot or "bot") if s.kind == "bot"
                          else None for s in self.seats])

    # --- chat -----------------------------------------------------------------------------------

    def _may_read(self, conn: Connection, msg: dict) -> bool:
        """Whether ``conn`` may read chat message ``msg``: every message is for everyone at the
        table, except spectators' messages at a table whose creator set spectators apart."""
        return msg["audience"] == "all" or conn.seat is None

    def chat_name(self, conn: Connection) -> "tuple[int | None, str]":
        """Who ``conn`` is in the chat, from the server's own facts, never from the client:
        a player's seat and the seat's name, or for a spectator ``None`` and "Spectator"
        with four hex digits of a hash of the table and its address (the same for each of
        its connections, so a mute holds across reconnects, and telling nothing of the
        address)."""
        seat = conn.seat
        if seat is not None:
            return seat, self.display_names()[seat] or f"Seat {seat + 1}"
        tag = hashlib.sha256(f"ohhell-chat/{self.id}/{conn.address or conn.id}".encode()).hexdigest()[:4]
        return None, f"Spectator {tag}"

    async def chat(self, conn: Connection, text: str) -> None:
        """A chat message from ``conn``: cleaned (control and format characters removed,
        spaces collapsed), checked against the length and rate limits, stored, then sent to
        everyone who may read it (a ``chat`` frame).  Players' messages reach everyone; a
        spectator's reaches only spectators if the table sets spectators apart.

        :raises TableError: ``chat_empty``, ``chat_too_long``, ``chat_rate_limited`` or
            ``storage``; nothing was sent then.
        """
        text = chat_text(text)
        if not conn.chat_limiter.allow() or not self.manager.chat_allowed(conn.address):
            rate, burst = conn.chat_limiter.rate, conn.chat_limiter.burst
            raise TableError("chat_rate_limited", f"you are sending messages too fast (at most {burst:g} in a "
                                                  f"row, then one every {1 / rate:g} s); wait a moment")
        async with self.lock:
            seat, name = self.chat_name(conn)
            audience = "spectators" if seat is None and self.spectator_chat == "apart" else "all"
            msg: dict[str, Any] = {"id": self.chat_seq, "seat": seat, "name": name, "audience": audience,
                                   "text": text}
            try:
                ts = await self.store.add_chat(self.id, self.chat_seq, msg, keep=CHAT_KEEP)
            except StoreError as e:
                log.error("%s", e)
                raise TableError("storage", "the server could not save this message; it was not sent, "
                                            "try again") from None
            self.chat_seq += 1
            msg["ts"] = round(ts, 3)
            self.chat_log.append(msg)
            frame = encode({"type": "chat", **msg})
            for c in list(self.conns):
                if c is conn:   # the sender's echo says it is theirs (a spectator learns its chat name)
                    c.send(encode({"type": "chat", **msg, "you": True}))
                elif self._may_read(c, msg):
                    c.send(frame)

    async def set_spectator_chat(self, conn: Connection, value: str) -> None:
        """The table's creator changes whether spectators chat apart (``apart``) or with everyone
        (``together``), at any time: a logged event (so a restart keeps it), then a state frame
        to everyone. Messages already sent keep the audience they had.

        :raises TableError: ``not_admin``, ``bad_field`` for another value, or ``storage``.
        """
        self._require_admin(conn)
        if value not in SPECTATOR_CHAT:
            raise TableError("bad_field", f"spectator_chat must be one of {', '.join(SPECTATOR_CHAT)}, "
                                          f"not {value!r}")
        async with self.lock:
            if value == self.spectator_chat:
                return
            await self._commit("chat_setting", {"spectator_chat": value})
            await self._after_change()

    async def chat_remove(self, conn: Connection, msg_id: int) -> None:
        """The table's creator removes chat message ``msg_id`` for everyone: it is deleted from
        the store and the recent history, and everyone who could read it gets a
        ``chat_removed`` frame.

        :raises TableError: ``not_admin`` (only the creator may), ``chat_gone`` (no such message
            in the chat now: never sent, too old or removed already) or ``storage``; nothing
            changed then.
        """
        self._require_admin(conn)
        async with self.lock:
            msg = next((m for m in self.chat_log if m["id"] == msg_id), None)
            if msg is None:
                raise TableError("chat_gone", f"there is no chat message {msg_id} in this table's chat now "
                                              f"(it was removed, or is too old)")
            try:
                await self.store.remove_chat(self.id, msg_id)
            except StoreError as e:
                log.error("%s", e)
                raise TableError("storage", "the server could not remove the message; it is still there, "
                                            "try again") from None
            self.chat_log.remove(msg)
            frame = encode({"type": "chat_removed", "id": msg_id})
            for c in list(self.conns):
                if self._may_read(c, msg):
                    c.send(frame)

    def load_chat(self, messages: "Iterable[tuple[int, float, dict]]") -> None:
        """The recent chat from the store (after the log was replayed)."""
        for msg_id, ts, data in messages:
            self.chat_log.append({**data, "id": msg_id, "ts": round(ts, 3)})
            self.chat_seq = max(self.chat_seq, msg_id + 1)

    def _game_info(self, seat: "int | None") -> "dict | None":
        game = self.game
        if game is None:
            return None
        view = game.spectator_view() if seat is None else game.view(seat)
        info = {"number": self.game_no, "n": game.action_count, "commitments": self.commitments,
                "view": trim_history(view.to_dict()), "explain": explain(view)}
        if game.is_over and not self.secret_until_event():
            info["seed"] = self.seed
            info["record"] = f"/api/tables/{self.id}/games/{self.game_no}/record"
        return info

    def secret_until_event(self) -> bool:
        """Whether this table's seed and finished record are still secret: it is a duplicate
        event's table and the event's deals are not revealed yet (another table may still be
        playing them).  The events service says which events are revealed."""
        if self.event is None:
            return False
        return self.event["id"] not in getattr(self.manager, "events_revealed", ())

    def _broadcast(self) -> None:
        """Send every client the state as its seat sees it (built once per seat)."""
        if not self.conns:
            return
        table = self.public_info()
        cache: dict[tuple, str] = {}
        for c in list(self.conns):
            key = (c.seat, c.admin)
            text = cache.get(key)
            if text is None:
                you: dict[str, Any] = {"seat": c.seat, "admin": c.admin}
                if self.help and c.seat is not None and self.in_game:
                    why = self.undo_blocker(c.seat)   # the server decides; the page only shows it
                    you["undo"] = {"ok": why is None, "code": why and why[0], "why": why and why[1]}
                text = encode({"type": "state", "seq": self.seq, "table": table, "you": you,
                               "game": self._game_info(c.seat)})
                cache[key] = text
            c.send(text, state=True)


def chat_text(text: str) -> str:
    """A chat message's text as it is stored and shown: cleaned (:func:`~ohhell.server.protocol.clean_text`:
    control and format characters removed, spaces collapsed) and checked.

    >>> chat_text("  gg\u202e  <b>wp</b> ")
    'gg <b>wp</b>'

    :raises TableError: ``chat_empty`` when nothing is left, ``chat_too_long`` over
        ``config.CHAT_MAX_LENGTH`` characters.
    """
    text = clean_text(text)
    if not text:
        raise TableError("chat_empty", "the message is empty")
    if len(text) > CHAT_MAX_LENGTH:
        raise TableError("chat_too_long", f"the message is {len(text)} characters; the limit is "
                                          f"{CHAT_MAX_LENGTH}")
    return text


def explain(view: Any) -> dict:
    """What the table page shows beside a view, in the core's words (docs/protocol.md,
    ``game.explain``), so that the page never works a rule out for itself:

    * ``why_not``: for the receiver's own choices that are not legal now (the cards it
      holds, the bids 0 to the hand size), the sentence :func:`ohhell.text.explain_illegal`
      makes of the core's reason (:meth:`View.rejection`); empty when it is not to act;
    * ``winning``: the seat winning the open trick so far (``None`` before the lead);
    * ``why_code``: the same refusals as the core's code and facts (:func:`reason_facts`),
      which pages word in their reader's language (``why_not`` stays, in English, for programs);
    * ``hook``: while a hand is bid in turn under the hook, ``{"seat": dealer, "bid": b}``,
      ``b`` the bid the dealer may not make (``None`` until every other bid is in).

    Nothing here is more than the view holds: a seat learns only about its own cards.
    """
    why: dict[str, str] = {}
    why_code: dict[str, dict] = {}
    if view.seat is not None and view.legal:
        names = list(view.names)
        if view.phase == "bid":
            choices: list[object] = list(range(view.hand_size + 1))
        else:
            choices = [str(c) for c in view.hand]
        for choice in choices:
            err = view.rejection(choice)
            if err is not None:
                why[str(choice)] = explain_illegal(err, names)
                why_code[str(choice)] = reason_facts(err)
    hook = None
    rules = view.rules
    if view.phase == "bid" and rules.hook and not rules.simultaneous_bidding and view.bids[view.dealer] is None:
        others = [b for s, b in enumerate(view.bids) if s != view.dealer]
        bid = hook_bid(view.hand_size, sum(others)) if all(b is not None for b in others) else None
        hook = {"seat": view.dealer, "bid": bid}
    winning = view.trick_winner_so_far if view.phase == "play" else None
    return {"why_not": why, "why_code": why_code, "winning": winning, "hook": hook}


def reason_facts(err: IllegalActionError) -> dict:
    """The core's reason for a refused action as JSON for a page to word: ``{"code": ...}``
    and the facts behind it (``to_act``, ``hand_size``, ``bid``; ``led`` and ``trump`` as
    suit letters, ``card`` as its name), the same facts :func:`ohhell.text.explain_illegal`
    words in English.  Nothing the refused seat does not know.

    >>> from ohhell import Game, Rules
    >>> g = Game(Rules(3, schedule="custom", hand_sizes=(1,)), seed=1)
    >>> reason_facts(g.view(g.to_act).rejection(5))["code"]
    'bid_too_high'
    """
    f = err.facts
    out: dict[str, Any] = {"code": err.code or "not_allowed"}
    for key in ("to_act", "hand_size", "bid"):
        if f.get(key) is not None:
            out[key] = f[key]
    for key in ("led", "trump"):
        if f.get(key) is not None:
            out[key] = "CDHS"[f[key]]
    if f.get("card") is not None:
        out["card"] = str(CARDS[f["card"]])
    return out


def _distinct(names: "list[str | None]") -> "list[str | None]":
    """Names told apart: each name that two or more seats share gets a number ("Expert bot 1",
    "Expert bot 2"), skipping a number another seat's name already has; ``None`` stays.

    >>> _distinct(["Expert bot", "Ann", "Expert bot", None])
    ['Expert bot 1', 'Ann', 'Expert bot 2', None]
    >>> _distinct(["Ann", "Ann 1", "Ann"])
    ['Ann 2', 'Ann 1', 'Ann 3']
    """
    counts = collections.Counter(n for n in names if n is not None)
    taken = set(counts)
    out: "list[str | None]" = []
    number: dict[str, int] = {}
    for n in names:
        if n is None or counts[n] == 1:
            out.append(n)
            continue
        k = number.get(n, 0) + 1
        while f"{n} {k}" in taken:
            k += 1
        number[n] = k
        taken.add(f"{n} {k}")
        out.append(f"{n} {k}")
    return out
