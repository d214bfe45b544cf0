"""Where the server keeps the truth: an append-only log of events per table.

Every change to a table (created, a seat taken, a game started with its secret
seed, each bid and card, a bot standing in, a rematch vote) is one event,
written before anyone is told about it.  Replaying a table's events rebuilds
it exactly, so a server killed at any moment restarts where it was.

Beside the log, each public table has one row in a second table: what the
lobby's list shows of it (written when it changes, after the event that changed
it), so the lobby lists every open table, in memory or not.

A third table keeps each table's recent chat messages (``ohhell_chat``): not part of
the log (a message changes nothing at the table, and old ones are deleted), but kept
so that a reconnect, a reload or a restart does not lose the conversation.

Two back ends share one small interface (:class:`Store`):

* :class:`SqliteStore` - the embedded default: a file opened in WAL mode with
  ``synchronous=NORMAL`` (a committed event survives the process being
  killed; only a power cut can lose the last few).  Its writes take tens of
  microseconds, so they run on the event loop itself; every read (a table's
  log, the lobby's list, which can take milliseconds) runs in a thread on a
  connection of its own, and the checkpoints that copy the log into the
  database (and wait for the disk) in another, so neither a slow query nor a
  slow disk stalls the loop.
* :class:`PostgresStore` - for a ``postgresql://`` URL (needs ``psycopg``).

>>> import asyncio
>>> async def demo():
...     store = open_store(":memory:")
...     await store.open()
...     await store.append("t1", 0, "create", {"title": "x"})
...     events = await store.load("t1")
...     await store.close()
...     return [(e.seq, e.kind, e.data) for e in events]
>>> asyncio.run(demo())
[(0, 'create', {'title': 'x'})]
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from typing import Any

__all__ = ["Event", "Store", "StoreError", "Taken", "SqliteStore", "PostgresStore", "open_store", "default_db_path"]

log = logging.getLogger("ohhell.server")

#: 1: the event log; 2: and the lobby's list (``ohhell_tables``); 3: and the chat
#: (``ohhell_chat``); 4: and accounts (``ohhell_users``, ``ohhell_sessions``,
#: ``ohhell_user_seats``); 5: and the replays' analyses (``ohhell_analysis``); 6: and the
#: duplicate events (``ohhell_duplicate``, ``ohhell_duplicate_seats``).  An older database is upgraded when opened (a version-1 one has its
#: list filled in from the log by the server; one before 4 has no accounts yet).
SCHEMA_VERSION = 6


class StoreError(RuntimeError):
    """The database refused or lost a write (the change was not made)."""


class Taken(StoreError):
    """A new row's unique key (a username) is already in use."""


#: The accounts' tables (the same SQL on both back ends).  Only an Argon2 hash of a password
#: is stored, and only a SHA-256 of a session id (a stolen database holds no usable session).
_ACCOUNT_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS ohhell_users (user_id TEXT PRIMARY KEY, username TEXT NOT NULL, "
    "username_key TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL, created DOUBLE PRECISION NOT NULL, "
    "password_changed DOUBLE PRECISION NOT NULL)",
    "CREATE TABLE IF NOT EXISTS ohhell_sessions (session_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL, "
    "created DOUBLE PRECISION NOT NULL, expires DOUBLE PRECISION NOT NULL)",
    "CREATE INDEX IF NOT EXISTS ohhell_sessions_user ON ohhell_sessions (user_id)",
    "CREATE TABLE IF NOT EXISTS ohhell_user_seats (user_id TEXT NOT NULL, table_id TEXT NOT NULL, "
    "seat INTEGER NOT NULL, since DOUBLE PRECISION NOT NULL, PRIMARY KEY (user_id, table_id, seat))",
    # API tokens for programs (ohhell.server.accounts): only the SHA-256 of each secret is kept.
    # Added without a schema version of their own: "IF NOT EXISTS" creates them in any database.
    "CREATE TABLE IF NOT EXISTS ohhell_api_tokens (token_id TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, "
    "user_id TEXT NOT NULL, name TEXT NOT NULL, hint TEXT NOT NULL, created DOUBLE PRECISION NOT NULL, "
    "last_used DOUBLE PRECISION)",
    "CREATE INDEX IF NOT EXISTS ohhell_api_tokens_user ON ohhell_api_tokens (user_id)",
    # The accounts that are programs ("bot accounts"), shown as bots everywhere.
    "CREATE TABLE IF NOT EXISTS ohhell_bot_accounts (user_id TEXT PRIMARY KEY, since DOUBLE PRECISION NOT NULL)",
)
_USER_COLUMNS = "user_id, username, username_key, password_hash, created, password_changed"


#: Each finished game's analysis (:mod:`ohhell.server.analysis_jobs`), as JSON, keyed by table and game.
_ANALYSIS_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS ohhell_analysis (table_id TEXT NOT NULL, game INTEGER NOT NULL, "
    "created DOUBLE PRECISION NOT NULL, data TEXT NOT NULL, PRIMARY KEY (table_id, game))",
)


#: Duplicate events (:mod:`ohhell.server.events`, schema version 6): one row per event (its
#: settings and secret seed in ``data``, JSON) and one per seat taken before it starts.  The
#: primary key makes a seat taken once; the unique index, one seat per account per event.
#: The games themselves are ordinary tables' logs (the truth the results are worked out from).
_EVENT_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS ohhell_duplicate (event_id TEXT PRIMARY KEY, organiser TEXT NOT NULL, "
    "created DOUBLE PRECISION NOT NULL, status TEXT NOT NULL, data TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS ohhell_duplicate_created ON ohhell_duplicate (created)",
    "CREATE TABLE IF NOT EXISTS ohhell_duplicate_seats (event_id TEXT NOT NULL, table_no INTEGER NOT NULL, "
    "seat INTEGER NOT NULL, name TEXT NOT NULL, user_id TEXT, token_hash TEXT, since DOUBLE PRECISION NOT NULL, "
    "PRIMARY KEY (event_id, table_no, seat))",
    "CREATE UNIQUE INDEX IF NOT EXISTS ohhell_duplicate_seats_user ON ohhell_duplicate_seats (event_id, user_id)",
)
_EVENT_COLUMNS = ("event_id", "organiser", "created", "status", "data")


def _user(row: Any) -> "dict | None":
    if row is None:
        return None
    return dict(zip(("user_id", "username", "username_key", "password_hash", "created", "password_changed"), row))


@dataclass(frozen=True)
class Event:
    """One entry of a table's log."""

    seq: int
    kind: str
    data: dict
    ts: float


class Store:
    """The interface of a back end; every method is a coroutine."""

    url: str

    async def open(self) -> None:
        """Connect and create the schema if needed."""
        raise NotImplementedError

    async def close(self) -> None:
        """Flush and disconnect (and give up the claim of :meth:`claim`)."""
        raise NotImplementedError

    async def claim(self) -> None:
        """Become the one server using this database, until :meth:`close`.

        Two servers on one database would both write the same tables' logs; the second
        is refused here, at start, instead of at its first clashing write.  A claim
        dies with its process (even ``kill -9``), so a crashed server never blocks the
        next one.

        :raises StoreError: when another server holds the claim (saying which, if known).
        """
        raise NotImplementedError

    async def append(self, table_id: str, seq: int, kind: str, data: dict) -> float:
        """Append event ``seq`` to a table's log, durably; returns its timestamp.

        :raises StoreError: when the write fails or ``seq`` is already taken
            (two servers on one database).
        """
        raise NotImplementedError

    async def load(self, table_id: str) -> list[Event]:
        """A table's events in order (empty for an unknown table)."""
        raise NotImplementedError

    async def active_tables(self, since: float) -> list[str]:
        """The tables with an event at or after ``since`` (a Unix time)."""
        raise NotImplementedError

    async def table_ids(self) -> list[str]:
        """Every table with a log."""
        raise NotImplementedError

    async def put_listing(self, table_id: str, row: dict, updated: float) -> None:
        """Write a public table's lobby row: ``row`` is its summary (with ``status`` and
        ``open``, the list of open seats); ``updated`` the time of its last change.

        :raises StoreError: when the write fails.
        """
        raise NotImplementedError

    async def list_tables(self, finished_since: float, limit: int, offset: int,
                          empty_since: "float | None" = None) -> tuple[list[dict], int]:
        """The lobby's list and its full length, best first: tables with an open seat and
        someone seated, then games in progress, then new tables nobody sits at yet (changed
        at or after ``empty_since``), then games finished at or after ``finished_since``;
        most recently changed first within each group.  Each row is the summary given to
        :meth:`put_listing` with ``updated`` added (a damaged row is left out and logged)."""
        raise NotImplementedError

    async def delete_table(self, table_id: str) -> None:
        """Remove a table's log and lobby row (an expired table that never started)."""
        raise NotImplementedError

    async def stale_unstarted(self, before: float) -> list[str]:
        """The tables that never started a game and whose last event is before ``before``."""
        raise NotImplementedError

    async def add_chat(self, table_id: str, msg_id: int, data: dict, keep: int = 500) -> float:
        """Store chat message ``msg_id`` of a table (deleting all but its last ``keep``
        now and then); returns its timestamp.

        :raises StoreError: when the write fails.
        """
        raise NotImplementedError

    async def load_chat(self, table_id: str, limit: int) -> list[tuple[int, float, dict]]:
        """A table's last ``limit`` chat messages, oldest first: ``(id, ts, data)`` (a damaged
        one is left out and logged)."""
        raise NotImplementedError

    async def remove_chat(self, table_id: str, msg_id: int) -> bool:
        """Delete chat message ``msg_id`` of a table (its creator removed it); whether it was there.

        :raises StoreError: when the write fails.
        """
        raise NotImplementedError

    async def get_meta(self, key: str) -> "str | None":
        """A value of the store's own settings."""
        raise NotImplementedError

    async def set_meta(self, key: str, value: str) -> None:
        """Set a value of the store's own settings."""
        raise NotImplementedError

    async def add_meta(self, key: str, value: str) -> str:
        """Set a setting unless it is set already; returns the value it has now (so two
        servers starting together agree on one)."""
        await self._write("INSERT INTO ohhell_meta VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (key, value))
        found = await self.get_meta(key)
        assert found is not None
        return found

    # --- accounts (the same SQL on both back ends, through _write and _fetch) ----------------

    async def _write(self, sql: str, args: tuple = ()) -> int:
        """Run one statement that changes rows; returns how many it changed.

        :raises Taken: a unique key is in use; :raises StoreError: any other refusal."""
        raise NotImplementedError

    async def _fetch(self, sql: str, args: tuple = ()) -> list:
        """The rows of one query."""
        raise NotImplementedError

    async def create_user(self, user_id: str, username: str, key: str, password_hash: str, now: float) -> None:
        """Add an account.

        :raises Taken: when ``key`` (the username's case-folded form) is in use."""
        await self._write(f"INSERT INTO ohhell_users ({_USER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                          (user_id, username, key, password_hash, now, now))

    async def user_by_key(self, key: str) -> "dict | None":
        """The account whose username folds to ``key``, if any."""
        rows = await self._fetch(f"SELECT {_USER_COLUMNS} FROM ohhell_users WHERE username_key=?", (key,))
        return _user(rows[0] if rows else None)

    async def user_by_id(self, user_id: str) -> "dict | None":
        """The account ``user_id``, if any."""
        rows = await self._fetch(f"SELECT {_USER_COLUMNS} FROM ohhell_users WHERE user_id=?", (user_id,))
        return _user(rows[0] if rows else None)

    async def list_users(self) -> list[dict]:
        """Every account, by username, with its number of live sessions (``sessions``), of API
        tokens (``tokens``) and whether it is a bot account (``bot``)."""
        rows = await self._fetch(
            f"SELECT {', '.join('u.' + c.strip() for c in _USER_COLUMNS.split(','))}, "
            "(SELECT count(*) FROM ohhell_sessions s WHERE s.user_id = u.user_id AND s.expires > ?), "
            "(SELECT count(*) FROM ohhell_api_tokens t WHERE t.user_id = u.user_id), "
            "(SELECT count(*) FROM ohhell_bot_accounts b WHERE b.user_id = u.user_id) "
            "FROM ohhell_users u ORDER BY u.username_key", (time.time(),))
        return [{**(_user(r[:6]) or {}), "sessions": r[6], "tokens": r[7], "bot": bool(r[8])} for r in rows]

    async def set_password_hash(self, user_id: str, password_hash: str, now: "float | None" = None) -> bool:
        """Replace an account's password hash; ``False`` when there is no such account."""
        changed = await self._write("UPDATE ohhell_users SET password_hash=?, password_changed=? WHERE user_id=?",
                                    (password_hash, time.time() if now is None else now, user_id))
        return changed > 0

    async def add_session(self, session_hash: str, user_id: str, now: float, expires: float) -> None:
        """Record a signed-in session (by the hash of its id)."""
        await self._write("INSERT INTO ohhell_sessions VALUES (?, ?, ?, ?)", (session_hash, user_id, now, expires))

    async def session_user(self, session_hash: str, now: float) -> "dict | None":
        """The account of an unexpired session, with the session's ``expires``; else ``None``."""
        rows = await self._fetch(
            f"SELECT {', '.join('u.' + c.strip() for c in _USER_COLUMNS.split(','))}, s.expires "
            "FROM ohhell_sessions s JOIN ohhell_users u ON u.user_id = s.user_id "
            "WHERE s.session_hash=? AND s.expires > ?", (session_hash, now))
        if not rows:
            return None
        return {**(_user(rows[0][:6]) or {}), "expires": rows[0][6]}

    async def delete_session(self, session_hash: str) -> None:
        """End one session."""
        await self._write("DELETE FROM ohhell_sessions WHERE session_hash=?", (session_hash,))

    async def delete_user_sessions(self, user_id: str) -> int:
        """End every session of an account; returns how many there were."""
        return await self._write("DELETE FROM ohhell_sessions WHERE user_id=?", (user_id,))

    async def purge_sessions(self, now: float) -> int:
        """Forget expired sessions; returns how many."""
        return await self._write("DELETE FROM ohhell_sessions WHERE expires <= ?", (now,))

    async def add_token(self, token_id: str, token_hash: str, user_id: str, name: str, hint: str,
                        now: float) -> None:
        """Record an API token of an account (by the SHA-256 of its secret)."""
        await self._write("INSERT INTO ohhell_api_tokens VALUES (?, ?, ?, ?, ?, ?, NULL)",
                          (token_id, token_hash, user_id, name, hint, now))

    async def list_tokens(self, user_id: str) -> list[dict]:
        """An account's API tokens, newest first: ``id``, ``name``, ``hint``, ``created``, ``last_used``."""
        rows = await self._fetch("SELECT token_id, name, hint, created, last_used FROM ohhell_api_tokens "
                                 "WHERE user_id=? ORDER BY created DESC, token_id", (user_id,))
        return [dict(zip(("id", "name", "hint", "created", "last_used"), r)) for r in rows]

    async def token_user(self, token_hash: str) -> "dict | None":
        """The account an API token (by its hash) belongs to, with ``token_id``; else ``None``."""
        rows = await self._fetch(
            f"SELECT {', '.join('u.' + c.strip() for c in _USER_COLUMNS.split(','))}, t.token_id "
            "FROM ohhell_api_tokens t JOIN ohhell_users u ON u.user_id = t.user_id WHERE t.token_hash=?",
            (token_hash,))
        if not rows:
            return None
        return {**(_user(rows[0][:6]) or {}), "token_id": rows[0][6]}

    async def touch_token(self, token_id: str, now: float) -> None:
        """Note when a token was last used."""
        await self._write("UPDATE ohhell_api_tokens SET last_used=? WHERE token_id=?", (now, token_id))

    async def delete_token(self, user_id: str, token_id: str) -> "str | None":
        """Revoke one of an account's tokens; returns its hash (``None``: it has no such token)."""
        rows = await self._fetch("SELECT token_hash FROM ohhell_api_tokens WHERE user_id=? AND token_id=?",
                                 (user_id, token_id))
        if not rows:
            return None
        await self._write("DELETE FROM ohhell_api_tokens WHERE token_id=?", (token_id,))
        return rows[0][0]

    async def set_bot_account(self, user_id: str, bot: bool, now: "float | None" = None) -> None:
        """Mark an account as a program's (``bot``) or a person's."""
        if bot:
            await self._write("INSERT INTO ohhell_bot_accounts VALUES (?, ?) ON CONFLICT DO NOTHING",
                              (user_id, time.time() if now is None else now))
        else:
            await self._write("DELETE FROM ohhell_bot_accounts WHERE user_id=?", (user_id,))

    async def bot_accounts(self) -> set[str]:
        """The user ids of the bot accounts."""
        return {r[0] for r in await self._fetch("SELECT user_id FROM ohhell_bot_accounts")}

    async def add_user_seat(self, user_id: str, table_id: str, seat: int, since: float) -> None:
        """Remember that an account sits (or sat) at ``seat`` of a table (for its pages)."""
        await self._write("INSERT INTO ohhell_user_seats VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                          (user_id, table_id, seat, since))

    async def account_tables(self) -> list[str]:
        """Every table where an account has sat."""
        return [r[0] for r in await self._fetch("SELECT DISTINCT table_id FROM ohhell_user_seats")]

    async def user_seats(self, user_id: str) -> list[tuple[str, int, float]]:
        """The ``(table_id, seat, since)`` an account has held, latest first."""
        rows = await self._fetch("SELECT table_id, seat, since FROM ohhell_user_seats WHERE user_id=? "
                                 "ORDER BY since DESC, table_id, seat", (user_id,))
        return [(r[0], r[1], r[2]) for r in rows]

    # --- replay analyses ------------------------------------------------------------------------

    async def put_analysis(self, table_id: str, game: int, data: dict) -> None:
        """Store (or replace) the analysis of a table's finished game.

        :raises StoreError: when the write fails."""
        await self._write("INSERT INTO ohhell_analysis VALUES (?, ?, ?, ?) ON CONFLICT (table_id, game) "
                          "DO UPDATE SET created=excluded.created, data=excluded.data",
                          (table_id, game, time.time(), _dumps(data)))

    async def get_analysis(self, table_id: str, game: int) -> "dict | None":
        """The stored analysis of a table's game, or ``None`` (also for a damaged row, logged)."""
        rows = await self._fetch("SELECT data FROM ohhell_analysis WHERE table_id=? AND game=?", (table_id, game))
        if not rows:
            return None
        try:
            data = json.loads(rows[0][0])
        except ValueError:
            log.error("table %s game %d: the stored analysis is damaged; it will be made again", table_id, game)
            return None
        return data if isinstance(data, dict) else None

    #: The SQL that cuts a stored analysis's text before its ``"hands"`` (the whole text when it
    #: has none): ``put_analysis`` writes ``GameAnalysis.to_dict()`` compactly and in its order
    #: (format, version, settings, players, seats, hands), so what comes before is the summary.
    #: The cut is the database's, so that a page of many games reads kilobytes, not the
    #: hundreds of kilobytes of every game's decisions.
    _ANALYSIS_HEAD = ("CASE WHEN instr(data, ',\"hands\":') > 0 THEN substr(data, 1, instr(data, ',\"hands\":') - 1) "
                      "ELSE data END")

    async def analysis_times(self, user_id: str) -> list[tuple[str, int, float]]:
        """``(table_id, game, created)`` of every stored analysis of a table where an account has
        sat (one query; the analyses' text is not read)."""
        rows = await self._fetch("SELECT table_id, game, created FROM ohhell_analysis WHERE table_id IN "
                                 "(SELECT table_id FROM ohhell_user_seats WHERE user_id=?)", (user_id,))
        return [(r[0], r[1], r[2]) for r in rows]

    async def analysis_summaries(self, keys: "list[tuple[str, int]]") -> "dict[tuple[str, int], tuple[float, dict]]":
        """The stored analyses of ``(table_id, game)`` keys without their hands (``format``,
        ``version``, ``settings``, ``players``, ``seats``), with when each was made:
        ``{key: (created, summary)}``. One query per 400 keys; a key with no analysis is
        missing, a damaged one is left out and logged."""
        out: dict[tuple[str, int], tuple[float, dict]] = {}
        for i in range(0, len(keys), 400):
            part = keys[i:i + 400]
            rows = await self._fetch(f"SELECT table_id, game, created, {self._ANALYSIS_HEAD} FROM ohhell_analysis "
                                     f"WHERE (table_id, game) IN (VALUES {', '.join(['(?, ?)'] * len(part))})",
                                     tuple(x for key in part for x in key))
            for table_id, game, created, text in rows:
                data: Any = None
                for candidate in (text + "}", text):   # the cut summary, else a whole text without hands
                    try:
                        data = json.loads(candidate)
                        break
                    except ValueError:
                        continue
                if isinstance(data, dict):
                    data.pop("hands", None)
                    out[(table_id, game)] = (created, data)
                else:
                    log.error("table %s game %d: the stored analysis is damaged; it will be made again",
                              table_id, game)
        return out

    # --- duplicate events -----------------------------------------------------------------------

    async def add_event(self, event_id: str, organiser: str, created: float, status: str, data: dict) -> None:
        """Store a new duplicate event.

        :raises StoreError: when the write fails."""
        await self._write("INSERT INTO ohhell_duplicate VALUES (?, ?, ?, ?, ?)",
                          (event_id, organiser, created, status, _dumps(data)))

    async def update_event(self, event_id: str, status: str, data: dict, was: str) -> bool:
        """Change an event whose status is still ``was``; ``False`` (nothing written) when it is not.

        :raises StoreError: when the write fails."""
        return await self._write("UPDATE ohhell_duplicate SET status=?, data=? WHERE event_id=? AND status=?",
                                 (status, _dumps(data), event_id, was)) > 0

    async def get_event(self, event_id: str) -> "dict | None":
        """An event (``event_id``, ``organiser``, ``created``, ``status``, ``data``), or ``None``."""
        rows = await self._fetch(f"SELECT {', '.join(_EVENT_COLUMNS)} FROM ohhell_duplicate WHERE event_id=?",
                                 (event_id,))
        return _event(rows[0]) if rows else None

    async def list_events(self, limit: int = 100, status: "str | None" = None) -> list[dict]:
        """The latest events first (``status``: only those)."""
        where, args = ("WHERE status=? ", (status,)) if status else ("", ())
        rows = await self._fetch(f"SELECT {', '.join(_EVENT_COLUMNS)} FROM ohhell_duplicate {where}"
                                 "ORDER BY created DESC, event_id LIMIT ?", (*args, limit))
        return [e for e in map(_event, rows) if e is not None]

    async def count_events(self, organiser: str, status: str) -> int:
        """How many of an organiser's events have ``status``."""
        rows = await self._fetch("SELECT count(*) FROM ohhell_duplicate WHERE organiser=? AND status=?",
                                 (organiser, status))
        return int(rows[0][0])

    async def add_event_seat(self, event_id: str, table_no: int, seat: int, name: str, user_id: "str | None",
                             token_hash: "str | None", since: float) -> None:
        """Take a seat of an event before it starts (a person, a guest by token hash, a bot account).

        :raises Taken: the seat is taken, or the account holds another seat of the event."""
        await self._write("INSERT INTO ohhell_duplicate_seats VALUES (?, ?, ?, ?, ?, ?, ?)",
                          (event_id, table_no, seat, name, user_id, token_hash, since))

    async def delete_event_seat(self, event_id: str, table_no: int, seat: int) -> bool:
        """Give up a seat of an event before it starts; ``False`` when nobody held it.

        :raises StoreError: when the write fails."""
        return await self._write("DELETE FROM ohhell_duplicate_seats WHERE event_id=? AND table_no=? AND seat=?",
                                 (event_id, table_no, seat)) > 0

    async def event_seats(self, event_id: str) -> list[dict]:
        """The seats taken in an event, by table and seat."""
        rows = await self._fetch("SELECT table_no, seat, name, user_id, token_hash, since FROM ohhell_duplicate_seats "
                                 "WHERE event_id=? ORDER BY table_no, seat", (event_id,))
        return [dict(zip(("table", "seat", "name", "user_id", "token_hash", "since"), r)) for r in rows]


def _event(row: Any) -> "dict | None":
    event = dict(zip(_EVENT_COLUMNS, row))
    try:
        event["data"] = json.loads(event["data"])
    except ValueError:
        log.error("event %s is damaged (its stored settings are not JSON); it is left out", event["event_id"])
        return None
    return event


#: The lobby rows to list, best first (the same SQL on both back ends; ``?`` placeholders:
#: finished_since, empty_since).  The ``status`` column is the row's status, except that a
#: table waiting for players with nobody seated yet is ``empty``: listed only for a while,
#: and after the tables where someone waits and the games being played.
_LIST_WHERE = ("status = 'playing' OR (status <> 'empty' AND (open_seats > 0 OR updated >= ?)) "
               "OR (status = 'empty' AND updated >= ?)")
_LIST_ORDER = ("CASE WHEN status = 'playing' THEN 1 WHEN status = 'empty' THEN 2 WHEN open_seats > 0 THEN 0 "
               "ELSE 3 END, updated DESC, table_id")
#: The tables that never started a game and whose last event is before ``?``.
_STALE_UNSTARTED = ("SELECT table_id FROM ohhell_events GROUP BY table_id HAVING max(ts) < ? "
                    "AND sum(CASE WHEN kind = 'start' THEN 1 ELSE 0 END) = 0")


def _listing_args(table_id: str, row: dict, updated: float) -> tuple:
    status = "empty" if row["status"] == "waiting" and row.get("seated", 1) == 0 else row["status"]
    return (table_id, updated, status, len(row["open"]), _dumps(row))


def _rows(found) -> list[dict]:
    out = []
    for summary, updated in found:
        try:
            row = json.loads(summary)
            if not isinstance(row, dict):
                raise ValueError("not an object")
        except ValueError as e:
            log.error("a lobby row is damaged and is left out of the list (%s): %.80r", e, summary)
            continue
        out.append({**row, "updated": updated})
    return out


def _events(table_id: str, rows) -> list[Event]:
    out = []
    for seq, kind, data, ts in rows:
        try:
            value = json.loads(data)
            if not isinstance(value, dict):
                raise ValueError("not an object")
        except ValueError as e:
            raise StoreError(f"table {table_id}: event {seq} ({kind}) is damaged: {e}") from None
        out.append(Event(seq, kind, value, ts))
    return out


_CHAT_COLUMNS = ("table_id TEXT NOT NULL, id INTEGER NOT NULL, ts DOUBLE PRECISION NOT NULL, "
                 "data TEXT NOT NULL, PRIMARY KEY (table_id, id)")
#: How often (in messages) a table's chat is trimmed to its last ``keep``.
_CHAT_TRIM_EVERY = 50


def _chat(table_id: str, rows) -> list[tuple[int, float, dict]]:
    out = []
    for msg_id, ts, data in reversed(rows):
        try:
            value = json.loads(data)
            if not isinstance(value, dict):
                raise ValueError("not an object")
        except ValueError as e:
            log.error("table %s: chat message %s is damaged and is left out (%s)", table_id, msg_id, e)
            continue
        out.append((msg_id, ts, value))
    return out


def _dumps(data: dict) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


class SqliteStore(Store):
    """The embedded store: one SQLite file (``:memory:`` for tests)."""

    #: seconds between checkpoints (the WAL file is copied into the database by a thread)
    CHECKPOINT_EVERY = 2.0

    def __init__(self, path: str) -> None:
        self.path = path
        self.url = path if path == ":memory:" else f"sqlite:///{os.path.abspath(path)}"
        self._db: "sqlite3.Connection | None" = None
        self._reader: "sqlite3.Connection | None" = None
        self._read_lock = threading.Lock()
        self._stop = threading.Event()
        self._checkpointer: "threading.Thread | None" = None
        self._claim_fd: "int | None" = None

    async def open(self) -> None:
        try:
            self._open()
        except sqlite3.Error as e:
            if self._db is not None:
                self._db.close()
                self._db = None
            raise StoreError(f"cannot use the database {self.path}: {e} (is it an ohhell database, and "
                             f"undamaged? Move it away to start afresh)") from None

    def _open(self) -> None:
        if self.path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db = db
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA busy_timeout=5000")
        db.execute("CREATE TABLE IF NOT EXISTS ohhell_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("CREATE TABLE IF NOT EXISTS ohhell_events (table_id TEXT NOT NULL, seq INTEGER NOT NULL, "
                   "ts REAL NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL, "
                   "PRIMARY KEY (table_id, seq)) WITHOUT ROWID")
        db.execute("CREATE INDEX IF NOT EXISTS ohhell_events_ts ON ohhell_events (ts)")
        try:
            version = _check_version(db.execute("SELECT value FROM ohhell_meta WHERE key='schema'").fetchone())
        except StoreError:
            db.close()
            self._db = None
            raise
        db.execute(f"CREATE TABLE IF NOT EXISTS ohhell_tables ({_TABLES_COLUMNS}) WITHOUT ROWID")
        db.execute("CREATE INDEX IF NOT EXISTS ohhell_tables_updated ON ohhell_tables (updated)")
        db.execute(f"CREATE TABLE IF NOT EXISTS ohhell_chat ({_CHAT_COLUMNS}) WITHOUT ROWID")
        for statement in _ACCOUNT_SCHEMA + _ANALYSIS_SCHEMA + _EVENT_SCHEMA:
            db.execute(statement)
        if version is None:  # a new database: its list is complete (empty)
            db.execute("INSERT OR IGNORE INTO ohhell_meta VALUES ('listing', 'complete')")
        db.execute("INSERT INTO ohhell_meta VALUES ('schema', ?) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                   (str(SCHEMA_VERSION),))
        if self.path != ":memory:":
            reader = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            reader.execute("PRAGMA busy_timeout=5000")
            self._reader = reader
            db.execute("PRAGMA wal_autocheckpoint=0")  # the thread below does it, off the loop
            self._stop.clear()
            self._checkpointer = threading.Thread(target=self._checkpoints, daemon=True,
                                                  name="ohhell-sqlite-checkpoint")
            self._checkpointer.start()
        else:  # one connection (a second one would open another, empty database)
            self._reader = db

    async def _read(self, sql: str, args: tuple = ()) -> list:
        """Rows of a query, run in a thread on the reading connection (off the event loop)."""
        def run() -> list:
            with self._read_lock:
                return self._reader.execute(sql, args).fetchall()  # type: ignore[union-attr]
        try:
            return await asyncio.to_thread(run)
        except sqlite3.Error as e:
            raise StoreError(f"the database could not be read: {e}") from None

    def _checkpoints(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None)
        db.execute("PRAGMA busy_timeout=5000")
        try:
            while not self._stop.wait(self.CHECKPOINT_EVERY):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:  # busy: try again next time
                    pass
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            db.close()

    async def claim(self) -> None:
        if self.path == ":memory:" or self._claim_fd is not None:
            return  # an in-memory database is this process's alone
        import fcntl
        lock = os.path.abspath(self.path) + ".lock"
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as e:
            raise StoreError(f"cannot create the lock file {lock}: {e.strerror or e}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 64).decode("ascii", "replace").strip()
            os.close(fd)
            who = f" (pid {holder})" if holder.isdigit() else ""
            raise StoreError(f"another ohhell server{who} is using the database {self.path}: stop it first, "
                             f"or give this one another --db") from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._claim_fd = fd

    async def close(self) -> None:
        if self._claim_fd is not None:
            os.close(self._claim_fd)   # the lock goes with the descriptor
            self._claim_fd = None
        if self._checkpointer is not None:
            self._stop.set()
            self._checkpointer.join(10)
            self._checkpointer = None
        if self._reader is not None and self._reader is not self._db:
            with self._read_lock:
                self._reader.close()
        self._reader = None
        if self._db is not None:
            self._db.close()
            self._db = None

    async def append(self, table_id: str, seq: int, kind: str, data: dict) -> float:
        ts = time.time()
        try:
            self._db.execute("INSERT INTO ohhell_events VALUES (?, ?, ?, ?, ?)",  # type: ignore[union-attr]
                             (table_id, seq, ts, kind, _dumps(data)))
        except sqlite3.IntegrityError:
            raise StoreError(f"table {table_id}: event {seq} is already stored (is another server "
                             f"using this database?)") from None
        except sqlite3.Error as e:
            raise StoreError(f"table {table_id}: the database refused the write: {e}") from None
        return ts

    async def load(self, table_id: str) -> list[Event]:
        rows = await self._read("SELECT seq, kind, data, ts FROM ohhell_events WHERE table_id=? ORDER BY seq",
                                (table_id,))
        return _events(table_id, rows)

    async def active_tables(self, since: float) -> list[str]:
        return [r[0] for r in await self._read("SELECT DISTINCT table_id FROM ohhell_events WHERE ts >= ?",
                                               (since,))]

    async def table_ids(self) -> list[str]:
        return [r[0] for r in await self._read("SELECT DISTINCT table_id FROM ohhell_events")]

    async def stale_unstarted(self, before: float) -> list[str]:
        return [r[0] for r in await self._read(_STALE_UNSTARTED, (before,))]

    async def delete_table(self, table_id: str) -> None:
        try:
            self._db.execute("DELETE FROM ohhell_events WHERE table_id=?", (table_id,))  # type: ignore
            self._db.execute("DELETE FROM ohhell_tables WHERE table_id=?", (table_id,))  # type: ignore
            self._db.execute("DELETE FROM ohhell_chat WHERE table_id=?", (table_id,))  # type: ignore
        except sqlite3.Error as e:
            raise StoreError(f"table {table_id}: the database refused to remove it: {e}") from None

    async def put_listing(self, table_id: str, row: dict, updated: float) -> None:
        try:
            self._db.execute(_UPSERT_TABLE.replace("%s", "?"),  # type: ignore[union-attr]
                             _listing_args(table_id, row, updated))
        except sqlite3.Error as e:
            raise StoreError(f"table {table_id}: the database refused the lobby row: {e}") from None

    async def list_tables(self, finished_since: float, limit: int, offset: int,
                          empty_since: "float | None" = None) -> tuple[list[dict], int]:
        since = (finished_since, finished_since if empty_since is None else empty_since)
        def run() -> tuple[list, int]:
            with self._read_lock:
                db = self._reader
                assert db is not None
                total = db.execute(f"SELECT count(*) FROM ohhell_tables WHERE {_LIST_WHERE}", since).fetchone()[0]
                found = db.execute(f"SELECT summary, updated FROM ohhell_tables WHERE {_LIST_WHERE} "
                                   f"ORDER BY {_LIST_ORDER} LIMIT ? OFFSET ?", (*since, limit, offset)).fetchall()
                return found, total
        try:
            found, total = await asyncio.to_thread(run)
        except sqlite3.Error as e:
            raise StoreError(f"the lobby's list could not be read: {e}") from None
        return _rows(found), total

    async def add_chat(self, table_id: str, msg_id: int, data: dict, keep: int = 500) -> float:
        ts = time.time()
        db: Any = self._db
        try:
            db.execute("INSERT INTO ohhell_chat VALUES (?, ?, ?, ?)", (table_id, msg_id, ts, _dumps(data)))
            if msg_id % _CHAT_TRIM_EVERY == 0 and msg_id >= keep:
                db.execute("DELETE FROM ohhell_chat WHERE table_id=? AND id <= ?", (table_id, msg_id - keep))
        except sqlite3.Error as e:
            raise StoreError(f"table {table_id}: the database refused the chat message: {e}") from None
        return ts

    async def load_chat(self, table_id: str, limit: int) -> list[tuple[int, float, dict]]:
        rows = await self._read("SELECT id, ts, data FROM ohhell_chat WHERE table_id=? ORDER BY id DESC LIMIT ?",
                                (table_id, limit))
        return _chat(table_id, rows)

    async def remove_chat(self, table_id: str, msg_id: int) -> bool:
        db: Any = self._db
        try:
            return db.execute("DELETE FROM ohhell_chat WHERE table_id=? AND id=?", (table_id, msg_id)).rowcount > 0
        except sqlite3.Error as e:
            raise StoreError(f"table {table_id}: the database refused to remove chat message {msg_id}: {e}") from None

    async def get_meta(self, key: str) -> "str | None":
        rows = await self._read("SELECT value FROM ohhell_meta WHERE key=?", (key,))
        return rows[0][0] if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        self._db.execute("INSERT INTO ohhell_meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET "  # type: ignore
                         "value=excluded.value", (key, value))

    async def _write(self, sql: str, args: tuple = ()) -> int:
        if self._db is None:
            raise StoreError("the database is closed")
        try:
            return self._db.execute(sql, args).rowcount
        except sqlite3.IntegrityError as e:
            raise Taken(f"already taken: {e}") from None
        except sqlite3.Error as e:
            raise StoreError(f"the database refused the write: {e}") from None

    async def _fetch(self, sql: str, args: tuple = ()) -> list:
        return await self._read(sql, args)


_TABLES_COLUMNS = ("table_id TEXT PRIMARY KEY, updated DOUBLE PRECISION NOT NULL, status TEXT NOT NULL, "
                   "open_seats INTEGER NOT NULL, summary TEXT NOT NULL")
_UPSERT_TABLE = ("INSERT INTO ohhell_tables VALUES (%s, %s, %s, %s, %s) ON CONFLICT (table_id) DO UPDATE SET "
                 "updated=excluded.updated, status=excluded.status, open_seats=excluded.open_seats, "
                 "summary=excluded.summary")


class PostgresStore(Store):
    """A PostgreSQL store (``postgresql://user@host/db``); needs the ``psycopg`` package."""

    _ANALYSIS_HEAD = "split_part(data, ',\"hands\":', 1)"   # (one scan; the whole text when there is none)

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: Any = None
        self._lock = asyncio.Lock()

    async def open(self) -> None:
        try:
            import psycopg
        except ImportError:  # pragma: no cover - depends on the installation
            raise StoreError("a postgresql:// database needs psycopg: pip install 'ohhell[server]'") from None
        try:
            self._conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        except psycopg.Error as e:
            raise StoreError(f"cannot connect to {_redact(self.url)}: {e}") from None
        try:
            # One process at a time creates or upgrades the schema (the nodes of a cluster start
            # together, and two concurrent CREATE TABLE IF NOT EXISTS can clash in PostgreSQL).
            async with self._conn.transaction():
                await self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (self.SCHEMA_KEY,))
                await self._create_schema()
        except psycopg.Error as e:
            raise StoreError(f"cannot use {_redact(self.url)}: {e}") from None

    async def _create_schema(self) -> None:
        async with self._conn.cursor() as cur:   # type: ignore[union-attr]
            await cur.execute("CREATE TABLE IF NOT EXISTS ohhell_meta (key TEXT PRIMARY KEY, "
                              "value TEXT NOT NULL)")
            await cur.execute("CREATE TABLE IF NOT EXISTS ohhell_events (table_id TEXT NOT NULL, "
                              "seq INTEGER NOT NULL, ts DOUBLE PRECISION NOT NULL, kind TEXT NOT NULL, "
                              "data TEXT NOT NULL, PRIMARY KEY (table_id, seq))")
            await cur.execute("CREATE INDEX IF NOT EXISTS ohhell_events_ts ON ohhell_events (ts)")
            await cur.execute("SELECT value FROM ohhell_meta WHERE key='schema'")
            version = _check_version(await cur.fetchone())
            await cur.execute(f"CREATE TABLE IF NOT EXISTS ohhell_tables ({_TABLES_COLUMNS})")
            await cur.execute("CREATE INDEX IF NOT EXISTS ohhell_tables_updated ON ohhell_tables (updated)")
            await cur.execute(f"CREATE TABLE IF NOT EXISTS ohhell_chat ({_CHAT_COLUMNS})")
            for statement in _ACCOUNT_SCHEMA + _ANALYSIS_SCHEMA + _EVENT_SCHEMA:
                await cur.execute(statement)
            if version is None:
                await cur.execute("INSERT INTO ohhell_meta VALUES ('listing', 'complete') ON CONFLICT DO NOTHING")
            await cur.execute("INSERT INTO ohhell_meta VALUES ('schema', %s) ON CONFLICT (key) DO UPDATE SET "
                              "value=excluded.value", (str(SCHEMA_VERSION),))

    #: the advisory lock a server holds on its PostgreSQL database (any 64-bit key; "ohhell")
    CLAIM_KEY = 0x6F68_6865_6C6C
    #: the advisory lock held while the schema is created or upgraded ("ohhells")
    SCHEMA_KEY = 0x6F68_6865_6C6C_73

    async def claim(self) -> None:
        # A session-level advisory lock: PostgreSQL drops it when the connection ends,
        # also when the server's process is killed.
        import psycopg
        try:
            async with self._lock, self._conn.cursor() as cur:
                await cur.execute("SELECT pg_try_advisory_lock(%s)", (self.CLAIM_KEY,))
                row = await cur.fetchone()
        except psycopg.Error as e:
            raise StoreError(f"cannot use {_redact(self.url)}: {e}") from None
        if not row or not row[0]:
            raise StoreError(f"another ohhell server is using the database {_redact(self.url)} (a single server, "
                             f"or the nodes of a cluster started with --redis): stop it first, or give this one "
                             f"another --db")

    async def close(self) -> None:
        if self._conn is not None:
            try:   # the claim goes now, not when the server notices the connection closed
                await self._conn.execute("SELECT pg_advisory_unlock_all()")
            except Exception:  # noqa: BLE001 - closing anyway
                pass
            await self._conn.close()
            self._conn = None

    async def append(self, table_id: str, seq: int, kind: str, data: dict) -> float:
        import psycopg
        ts = time.time()
        async with self._lock:
            try:
                await self._conn.execute("INSERT INTO ohhell_events VALUES (%s, %s, %s, %s, %s)",
                                         (table_id, seq, ts, kind, _dumps(data)))
            except psycopg.errors.UniqueViolation:
                raise StoreError(f"table {table_id}: event {seq} is already stored (is another server "
                                 f"using this database?)") from None
            except psycopg.Error as e:
                raise StoreError(f"table {table_id}: the database refused the write: {e}") from None
        return ts

    async def load(self, table_id: str) -> list[Event]:
        async with self._lock:
            cur = await self._conn.execute("SELECT seq, kind, data, ts FROM ohhell_events WHERE "
                                           "table_id=%s ORDER BY seq", (table_id,))
            rows = await cur.fetchall()
        return _events(table_id, rows)

    async def active_tables(self, since: float) -> list[str]:
        async with self._lock:
            cur = await self._conn.execute("SELECT DISTINCT table_id FROM ohhell_events WHERE ts >= %s",
                                           (since,))
            rows = await cur.fetchall()
        return [r[0] for r in rows]

    async def table_ids(self) -> list[str]:
        async with self._lock:
            cur = await self._conn.execute("SELECT DISTINCT table_id FROM ohhell_events")
            rows = await cur.fetchall()
        return [r[0] for r in rows]

    async def put_listing(self, table_id: str, row: dict, updated: float) -> None:
        import psycopg
        async with self._lock:
            try:
                await self._conn.execute(_UPSERT_TABLE, _listing_args(table_id, row, updated))
            except psycopg.Error as e:
                raise StoreError(f"table {table_id}: the database refused the lobby row: {e}") from None

    async def list_tables(self, finished_since: float, limit: int, offset: int,
                          empty_since: "float | None" = None) -> tuple[list[dict], int]:
        where = _LIST_WHERE.replace("?", "%s")
        since = (finished_since, finished_since if empty_since is None else empty_since)
        async with self._lock:
            cur = await self._conn.execute(f"SELECT count(*) FROM ohhell_tables WHERE {where}", since)
            total = (await cur.fetchone())[0]
            cur = await self._conn.execute(f"SELECT summary, updated FROM ohhell_tables WHERE {where} "
                                           f"ORDER BY {_LIST_ORDER} LIMIT %s OFFSET %s",
                                           (*since, limit, offset))
            found = await cur.fetchall()
        return _rows(found), total

    async def stale_unstarted(self, before: float) -> list[str]:
        conn: Any = self._conn
        async with self._lock:
            cur = await conn.execute(_STALE_UNSTARTED.replace("?", "%s"), (before,))
            rows = await cur.fetchall()
        return [r[0] for r in rows]

    async def delete_table(self, table_id: str) -> None:
        import psycopg
        conn: Any = self._conn
        async with self._lock:
            try:
                async with conn.transaction():
                    await conn.execute("DELETE FROM ohhell_events WHERE table_id=%s", (table_id,))
                    await conn.execute("DELETE FROM ohhell_tables WHERE table_id=%s", (table_id,))
                    await conn.execute("DELETE FROM ohhell_chat WHERE table_id=%s", (table_id,))
            except psycopg.Error as e:
                raise StoreError(f"table {table_id}: the database refused to remove it: {e}") from None

    async def add_chat(self, table_id: str, msg_id: int, data: dict, keep: int = 500) -> float:
        import psycopg
        conn: Any = self._conn
        ts = time.time()
        async with self._lock:
            try:
                await conn.execute("INSERT INTO ohhell_chat VALUES (%s, %s, %s, %s)",
                                   (table_id, msg_id, ts, _dumps(data)))
                if msg_id % _CHAT_TRIM_EVERY == 0 and msg_id >= keep:
                    await conn.execute("DELETE FROM ohhell_chat WHERE table_id=%s AND id <= %s",
                                       (table_id, msg_id - keep))
            except psycopg.Error as e:
                raise StoreError(f"table {table_id}: the database refused the chat message: {e}") from None
        return ts

    async def load_chat(self, table_id: str, limit: int) -> list[tuple[int, float, dict]]:
        conn: Any = self._conn
        async with self._lock:
            cur = await conn.execute("SELECT id, ts, data FROM ohhell_chat WHERE table_id=%s ORDER BY id DESC "
                                     "LIMIT %s", (table_id, limit))
            rows = await cur.fetchall()
        return _chat(table_id, rows)

    async def remove_chat(self, table_id: str, msg_id: int) -> bool:
        import psycopg
        conn: Any = self._conn
        async with self._lock:
            try:
                cur = await conn.execute("DELETE FROM ohhell_chat WHERE table_id=%s AND id=%s", (table_id, msg_id))
            except psycopg.Error as e:
                raise StoreError(f"table {table_id}: the database refused to remove chat message {msg_id}: "
                                 f"{e}") from None
        return cur.rowcount > 0

    async def get_meta(self, key: str) -> "str | None":
        async with self._lock:
            cur = await self._conn.execute("SELECT value FROM ohhell_meta WHERE key=%s", (key,))
            row = await cur.fetchone()
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self._lock:
            await self._conn.execute("INSERT INTO ohhell_meta VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET "
                                     "value=excluded.value", (key, value))

    async def _write(self, sql: str, args: tuple = ()) -> int:
        import psycopg
        conn: Any = self._conn
        if conn is None:
            raise StoreError("the database is closed")
        async with self._lock:
            try:
                cur = await conn.execute(sql.replace("?", "%s"), args)
            except psycopg.errors.UniqueViolation as e:
                raise Taken(f"already taken: {e.diag.constraint_name or e}") from None
            except psycopg.Error as e:
                raise StoreError(f"the database refused the write: {e}") from None
            return cur.rowcount

    async def _fetch(self, sql: str, args: tuple = ()) -> list:
        import psycopg
        conn: Any = self._conn
        if conn is None:
            raise StoreError("the database is closed")
        async with self._lock:
            try:
                cur = await conn.execute(sql.replace("?", "%s"), args)
                return await cur.fetchall()
            except psycopg.Error as e:
                raise StoreError(f"the database could not be read: {e}") from None


def _check_version(row: Any) -> "int | None":
    """The database's schema version (``None`` for a new one); one this code cannot read
    (a newer one) is an error.  Older ones are upgraded by ``open``."""
    if row is None:
        return None
    try:
        version = int(row[0])
    except (TypeError, ValueError):
        version = -1
    if not 1 <= version <= SCHEMA_VERSION:
        raise StoreError(f"the database has schema version {row[0]}; this ohhell knows 1 to {SCHEMA_VERSION}")
    return version


def _redact(url: str) -> str:
    """A database URL without its password (for messages)."""
    head, sep, tail = url.partition("@")
    if not sep or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, creds = head.partition("//")
    return f"{scheme}//{creds.split(':', 1)[0]}:***@{tail}"


def default_db_path() -> str:
    """The default SQLite file: ``$OHHELL_DB``, else ``$XDG_DATA_HOME/ohhell/server.sqlite3``
    (``~/.local/share/ohhell/server.sqlite3``)."""
    env = os.environ.get("OHHELL_DB")
    if env:
        return env
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "ohhell", "server.sqlite3")


def open_store(db: "str | None") -> Store:
    """The store for a ``--db`` value: a ``postgresql://`` (or ``postgres://``) URL, a
    ``sqlite:///path`` URL, a plain file path, ``:memory:``, or ``None`` for the default file."""
    if db is None:
        return SqliteStore(default_db_path())
    if db.startswith(("postgresql://", "postgres://")):
        return PostgresStore(db)
    if db.startswith("sqlite:///"):
        return SqliteStore(db[len("sqlite:///"):] if db != "sqlite:///:memory:" else ":memory:")
    return SqliteStore(db)
