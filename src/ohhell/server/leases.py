"""Which node of a cluster owns which table: leases with fencing tokens, in PostgreSQL.

With ``ohhell serve --redis`` several server processes ("nodes") share one PostgreSQL
database.  Each table has exactly one owner node at a time, the only one that writes its
log.  Two rows decide it:

* ``ohhell_nodes``: one row per running node, its **lease**: ``expires`` (the database's own
  clock, never a node's) is pushed forward by the node every :data:`RENEW_EVERY` seconds, and
  only while it has not passed; a lease that ran out stays dead (the node registers again
  under a new id).  A node that stops cleanly deletes its row, so its tables go at once.
* ``ohhell_owners``: one row per table in a node's memory: the owner node and a **fencing
  token**, a fresh value of the sequence ``ohhell_fence`` at every change of owner (so it
  only grows).  A node takes a table (:meth:`Leases.acquire`) only when no row names a live
  node for it.

Every write of a table's log is **fenced by the database itself** (:class:`ClusterStore`):
the insert of an event is an ``INSERT ... SELECT`` from the owner row that names this node
and its token, joined to this node's unexpired lease, and it locks that owner row (``FOR
SHARE``), so it either commits before a takeover changes the row (and the new owner, which
loads the log only after its takeover committed, sees it), or waits for the takeover and
then finds the token changed and inserts nothing.  A node that was paused past its lease (a
``SIGSTOP``, a stalled VM) and wakes up cannot add one event: the database refuses it
(:class:`LeaseLost`).  The lobby row and the chat are fenced the same way.

The nodes and the single-server claim share one advisory lock: a single-node server takes
it exclusively (:meth:`PostgresStore.claim`), each cluster node shared
(:meth:`ClusterStore.claim`), so neither starts while the other kind runs on the database.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import socket
import time
from typing import Any

from .storage import PostgresStore, StoreError, _dumps, _listing_args, _redact

__all__ = ["Leases", "ClusterStore", "Fenced", "LeaseLost", "NODE_TTL", "RENEW_EVERY", "new_node_id"]

log = logging.getLogger("ohhell.server")

#: Seconds a node's lease lasts after each renewal (the database's clock).
NODE_TTL = 3.0
#: Seconds between a node's renewals (and its scans for tables whose owner died).
RENEW_EVERY = 0.5

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS ohhell_nodes (node TEXT PRIMARY KEY, started DOUBLE PRECISION NOT NULL, "
    "expires TIMESTAMPTZ NOT NULL, about TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS ohhell_owners (table_id TEXT PRIMARY KEY, node TEXT NOT NULL, "
    "token BIGINT NOT NULL, since DOUBLE PRECISION NOT NULL)",
    "CREATE INDEX IF NOT EXISTS ohhell_owners_node ON ohhell_owners (node)",
    "CREATE SEQUENCE IF NOT EXISTS ohhell_fence",
)

#: The owner row of table ``%(t)s`` that names this node (``%(node)s``) and token ``%(token)s``,
#: while this node's lease lives, locked against a concurrent takeover: the fence of every write.
_FENCE = ("FROM ohhell_owners o JOIN ohhell_nodes n ON n.node = o.node WHERE o.table_id = %(t)s "
          "AND o.node = %(node)s AND o.token = %(token)s AND n.expires > now() FOR SHARE OF o")
#: Whether an owner row's node (``ohhell_owners.node``) holds a live lease.
_LIVE = "EXISTS (SELECT 1 FROM ohhell_nodes n WHERE n.node = {owner}.node AND n.expires > now())"


class LeaseLost(StoreError):
    """This node does not own the table (any more): the database refused the write."""


def new_node_id() -> str:
    """A new node's id: its host, its process and random digits (never reused)."""
    host = "".join(ch for ch in socket.gethostname() if ch.isalnum() or ch in "-.")[:24] or "node"
    return f"{host}-{os.getpid()}-{secrets.token_hex(3)}"


class Leases:
    """This node's lease and the fencing tokens of the tables it owns, on a PostgreSQL
    connection of their own (so a renewal never waits behind the tables' writes).

    :param ttl: seconds a lease lasts after each renewal.
    """

    def __init__(self, url: str, ttl: float = NODE_TTL) -> None:
        self.url = url
        self.ttl = ttl
        self.node = new_node_id()
        #: table id -> this node's fencing token for it (the tables it owns)
        self.tokens: dict[str, int] = {}
        #: the nodes whose lease lived at the last renewal (this one included)
        self.live: set[str] = set()
        self.started = time.time()
        self._conn: Any = None
        self._lock = asyncio.Lock()
        #: the renewals' own connection, so a renewal never queues behind the tables' lookups
        self._renew_conn: Any = None
        self._renew_lock = asyncio.Lock()
        #: a pool for the lookups and takeovers (the store's, :class:`ClusterStore`), so that many
        #: clients reconnecting at once do not queue on one connection
        self.pool: Any = None

    async def open(self) -> None:
        """Connect and create the cluster's tables if needed.

        :raises StoreError: when the database cannot be reached or used."""
        import psycopg
        try:
            self._conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            self._renew_conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            async with self._conn.transaction():
                await self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (PostgresStore.SCHEMA_KEY,))
                for statement in _SCHEMA:
                    await self._conn.execute(statement)
        except psycopg.Error as e:
            raise StoreError(f"cannot use {_redact(self.url)} for the cluster's leases: {e}") from None

    async def close(self) -> None:
        for conn in (self._conn, self._renew_conn):
            if conn is not None:
                await conn.close()
        self._conn = self._renew_conn = None

    async def _run(self, sql: str, args: Any = (), fetch: bool = True, renew: bool = False) -> list:
        import psycopg
        try:
            if not renew and self.pool is not None:
                async with self.pool.connection() as pooled:
                    cur = await pooled.execute(sql, args)
                    return await cur.fetchall() if fetch and cur.description else []
            conn, lock = (self._renew_conn, self._renew_lock) if renew else (self._conn, self._lock)
            if conn is None:
                raise StoreError("the lease connection is closed")
            async with lock:
                cur = await conn.execute(sql, args)
                return await cur.fetchall() if fetch and cur.description else []
        except psycopg.Error as e:
            raise StoreError(f"the cluster's leases could not be read or written: {e}") from None

    async def register(self, about: str = "") -> None:
        """Start this node's lease under its id (:attr:`node`; after a lapse, a new one: tables
        still named under the old id are then free for any node, this one included)."""
        self.tokens.clear()
        self.started = time.time()
        await self._run("INSERT INTO ohhell_nodes VALUES (%s, %s, now() + make_interval(secs => %s), %s)",
                        (self.node, self.started, self.ttl, about), fetch=False)
        self.live = {self.node}

    async def renew(self) -> bool:
        """Push this node's lease forward; ``False`` when it had already run out (the node must
        give up every table and register again).  Also refreshes :attr:`live`."""
        rows = await self._run(
            "WITH r AS (UPDATE ohhell_nodes SET expires = now() + make_interval(secs => %s) "
            "WHERE node = %s AND expires > now() RETURNING node) "
            "SELECT (SELECT count(*) FROM r), n.node FROM ohhell_nodes n WHERE n.expires > now()",
            (self.ttl, self.node), renew=True)
        renewed = bool(rows) and rows[0][0] > 0
        self.live = {r[1] for r in rows} | ({self.node} if renewed else set())
        return renewed

    async def acquire(self, table_id: str) -> "int | None":
        """Become the owner of a table nobody live owns; returns the new fencing token, or
        ``None`` when a live node owns it (this one included: see :attr:`tokens`)."""
        node = self.node
        rows = await self._run(
            "INSERT INTO ohhell_owners VALUES (%s, %s, nextval('ohhell_fence'), %s) ON CONFLICT (table_id) "
            "DO UPDATE SET node = excluded.node, token = excluded.token, since = excluded.since "
            f"WHERE NOT {_LIVE.format(owner='ohhell_owners')} RETURNING token",
            (table_id, node, time.time()))
        if not rows or node != self.node:   # (taken under an id this node gave up meanwhile: an orphan)
            return None
        self.tokens[table_id] = rows[0][0]
        return rows[0][0]

    async def acquire_many(self, table_ids: list[str]) -> dict[str, int]:
        """:meth:`acquire` for several tables in one statement: those taken, with their tokens."""
        node = self.node
        rows = await self._run(
            "INSERT INTO ohhell_owners SELECT t, %s, nextval('ohhell_fence'), %s FROM unnest(%s::text[]) AS t "
            "ON CONFLICT (table_id) DO UPDATE SET node = excluded.node, token = excluded.token, "
            f"since = excluded.since WHERE NOT {_LIVE.format(owner='ohhell_owners')} RETURNING table_id, token",
            (node, time.time(), list(table_ids)))
        if node != self.node:
            return {}
        taken = {r[0]: r[1] for r in rows}
        self.tokens.update(taken)
        return taken

    async def owner(self, table_id: str) -> "tuple[str, bool] | None":
        """The node named owner of a table and whether its lease lives (``None``: no owner row)."""
        rows = await self._run(f"SELECT o.node, {_LIVE.format(owner='o')} FROM ohhell_owners o "
                               "WHERE o.table_id = %s", (table_id,))
        return (rows[0][0], bool(rows[0][1])) if rows else None

    async def release(self, table_id: str) -> None:
        """Give up a table this node owns (it left memory; any node may load it again)."""
        token = self.tokens.pop(table_id, None)
        if token is not None:
            await self._run("DELETE FROM ohhell_owners WHERE table_id = %s AND node = %s AND token = %s",
                            (table_id, self.node, token), fetch=False)

    async def orphans(self, limit: int) -> list[str]:
        """Up to ``limit`` tables whose owner's lease ran out: a dead node's tables, for the live
        ones to take."""
        rows = await self._run(f"SELECT o.table_id FROM ohhell_owners o WHERE NOT {_LIVE.format(owner='o')} "
                               "LIMIT %s", (limit,))
        return [r[0] for r in rows]

    async def expire(self, node: str) -> bool:
        """End another node's lease now (its Redis connection is gone: it died); its tables
        become free.  Harmless to a node that is in fact alive: its writes are refused from
        now on and it registers again."""
        rows = await self._run("UPDATE ohhell_nodes SET expires = now() WHERE node = %s AND expires > now() "
                               "RETURNING node", (node,), renew=True)
        return bool(rows)

    async def leave(self) -> None:
        """Stop this node's lease (a clean stop): its tables are free at once."""
        self.tokens.clear()
        await self._run("DELETE FROM ohhell_nodes WHERE node = %s", (self.node,), fetch=False)

    async def purge(self, older: float = 86400.0) -> None:
        """Forget the rows of nodes whose lease ran out over ``older`` seconds ago."""
        await self._run("DELETE FROM ohhell_nodes WHERE expires < now() - make_interval(secs => %s) "
                        "AND NOT EXISTS (SELECT 1 FROM ohhell_owners o WHERE o.node = ohhell_nodes.node)",
                        (older,), fetch=False)


class ClusterStore(PostgresStore):
    """The PostgreSQL store of a cluster node: every write of a table's log, lobby row and chat
    is fenced by the table's owner row and this node's lease (see the module's text).

    The tables' writes and reads go through a pool of connections (``psycopg_pool``), so that
    different tables' events are written side by side (a table's own events stay in order: it
    writes one at a time, under its lock); the rest of the store keeps its one connection.

    :param pool_size: the most connections of the pool.
    """

    def __init__(self, url: str, leases: Leases, pool_size: int = 8) -> None:
        super().__init__(url)
        self.leases = leases
        self.pool_size = pool_size
        self._pool: Any = None
        #: called as ``on_lost(table_id, token)`` when the database refused a write fenced by
        #: ``token`` (the node then gives that table object up)
        self.on_lost: Any = None

    async def open(self) -> None:
        await super().open()
        try:
            from psycopg_pool import AsyncConnectionPool
        except ImportError:  # pragma: no cover - depends on the installation
            raise StoreError("a cluster node needs psycopg's pool: pip install 'ohhell[server]'") from None
        pool = AsyncConnectionPool(self.url, min_size=2, max_size=self.pool_size, open=False, timeout=30,
                                   kwargs={"autocommit": True}, name="ohhell-tables")
        try:
            await pool.open(wait=True, timeout=30)
        except Exception as e:  # noqa: BLE001 - psycopg_pool's PoolTimeout and friends
            await pool.close()
            raise StoreError(f"cannot connect to {_redact(self.url)}: {e}") from None
        self._pool = pool

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
        await super().close()

    async def claim(self) -> None:
        # Shared: any number of cluster nodes, but never beside a single-node server (which
        # takes the same advisory lock exclusively), nor a single-node server beside them.
        import psycopg
        try:
            async with self._lock, self._conn.cursor() as cur:
                await cur.execute("SELECT pg_try_advisory_lock_shared(%s)", (self.CLAIM_KEY,))
                row = await cur.fetchone()
        except psycopg.Error as e:
            raise StoreError(f"cannot use {_redact(self.url)}: {e}") from None
        if not row or not row[0]:
            raise StoreError(f"a single-node ohhell server (one started without --redis) is using the database "
                             f"{_redact(self.url)}: stop it before starting cluster nodes on it")

    def fenced(self, token: int) -> "Fenced":
        """This store as one table object writes through it: fenced by the token the node took
        the table with, not the node's current one (so a table object left over from before a
        lapse can never write under the token of a newer one)."""
        return Fenced(self, token)

    def _fence(self, table_id: str, token: "int | None" = None) -> dict:
        if token is None:
            token = self.leases.tokens.get(table_id)
        if not token:
            raise LeaseLost(f"table {table_id}: this node does not own it (another node does, or its lease "
                            f"lapsed); nothing was written")
        return {"t": table_id, "node": self.leases.node, "token": token}

    def _refused(self, table_id: str, what: str) -> LeaseLost:
        return LeaseLost(f"table {table_id}: the database refused {what}: this node's lease on the table has "
                         f"lapsed or another node took the table over (node {self.leases.node})")

    async def _pooled(self, sql: str, args: Any, fetch: bool = False) -> tuple[int, list]:
        """Run one statement on a pooled connection: ``(rows changed, rows)``."""
        if self._pool is None:
            raise StoreError("the database is closed")
        async with self._pool.connection() as conn:
            cur = await conn.execute(sql, args)
            return cur.rowcount, (await cur.fetchall() if fetch else [])

    async def append(self, table_id: str, seq: int, kind: str, data: dict, fence_token: "int | None" = None) -> float:
        import psycopg
        fence = self._fence(table_id, fence_token)
        ts = time.time()
        try:
            count, _ = await self._pooled(
                "INSERT INTO ohhell_events (table_id, seq, ts, kind, data) "
                f"SELECT %(t)s, %(seq)s, %(ts)s, %(kind)s, %(data)s {_FENCE}",
                {**fence, "seq": seq, "ts": ts, "kind": kind, "data": _dumps(data)})
        except psycopg.errors.UniqueViolation:
            raise StoreError(f"table {table_id}: event {seq} is already stored") from None
        except psycopg.Error as e:
            raise StoreError(f"table {table_id}: the database refused the write: {e}") from None
        if count != 1:
            raise self._refused(table_id, f"event {seq}")
        return ts

    async def put_listing(self, table_id: str, row: dict, updated: float, fence_token: "int | None" = None) -> None:
        import psycopg
        fence = self._fence(table_id, fence_token)
        args = dict(zip(("t", "updated", "status", "open", "summary"), _listing_args(table_id, row, updated)))
        try:
            count, _ = await self._pooled(
                "INSERT INTO ohhell_tables SELECT %(t)s, %(updated)s, %(status)s, %(open)s, %(summary)s "
                f"{_FENCE} ON CONFLICT (table_id) DO UPDATE SET updated=excluded.updated, "
                "status=excluded.status, open_seats=excluded.open_seats, summary=excluded.summary",
                {**args, **fence})
        except psycopg.Error as e:
            raise StoreError(f"table {table_id}: the database refused the lobby row: {e}") from None
        if count != 1:
            raise self._refused(table_id, "the lobby row")

    async def add_chat(self, table_id: str, msg_id: int, data: dict, keep: int = 500,
                       fence_token: "int | None" = None) -> float:
        import psycopg
        from .storage import _CHAT_TRIM_EVERY
        fence = self._fence(table_id, fence_token)
        ts = time.time()
        try:
            count, _ = await self._pooled(f"INSERT INTO ohhell_chat SELECT %(t)s, %(id)s, %(ts)s, %(data)s {_FENCE}",
                                          {**fence, "id": msg_id, "ts": ts, "data": _dumps(data)})
            if count == 1 and msg_id % _CHAT_TRIM_EVERY == 0 and msg_id >= keep:
                await self._pooled("DELETE FROM ohhell_chat WHERE table_id=%s AND id <= %s", (table_id, msg_id - keep))
        except psycopg.Error as e:
            raise StoreError(f"table {table_id}: the database refused the chat message: {e}") from None
        if count != 1:
            raise self._refused(table_id, "the chat message")
        return ts

    async def remove_chat(self, table_id: str, msg_id: int, fence_token: "int | None" = None) -> bool:
        import psycopg
        fence = self._fence(table_id, fence_token)
        try:
            count, _ = await self._pooled(f"DELETE FROM ohhell_chat WHERE table_id = %(t)s AND id = %(id)s "
                                          f"AND EXISTS (SELECT 1 {_FENCE}) RETURNING 1", {**fence, "id": msg_id},
                                          fetch=True)
            if count == 0:   # not there, or not ours: the owner row tells which
                _, owned = await self._pooled(f"SELECT 1 {_FENCE}", fence, fetch=True)
                if not owned:
                    raise self._refused(table_id, "to remove a chat message")
        except psycopg.Error as e:
            raise StoreError(f"table {table_id}: the database refused to remove chat message {msg_id}: {e}") from None
        return count > 0

    async def delete_table(self, table_id: str, fence_token: "int | None" = None) -> None:
        import psycopg
        fence = self._fence(table_id, fence_token)
        conn: Any = self._conn
        async with self._lock:
            try:
                async with conn.transaction():
                    cur = await conn.execute(f"SELECT 1 {_FENCE}", fence)
                    if not await cur.fetchall():
                        raise self._refused(table_id, "to remove it")
                    for name in ("ohhell_events", "ohhell_tables", "ohhell_chat", "ohhell_owners"):
                        await conn.execute(f"DELETE FROM {name} WHERE table_id=%s", (table_id,))
            except psycopg.Error as e:
                raise StoreError(f"table {table_id}: the database refused to remove it: {e}") from None
        self.leases.tokens.pop(table_id, None)

    async def load(self, table_id: str) -> list:
        from .storage import _events
        _, rows = await self._pooled("SELECT seq, kind, data, ts FROM ohhell_events WHERE table_id=%s ORDER BY seq",
                                     (table_id,), fetch=True)
        return _events(table_id, rows)

    async def load_chat(self, table_id: str, limit: int) -> list[tuple[int, float, dict]]:
        from .storage import _chat
        _, rows = await self._pooled("SELECT id, ts, data FROM ohhell_chat WHERE table_id=%s ORDER BY id DESC LIMIT %s",
                                     (table_id, limit), fetch=True)
        return _chat(table_id, rows)

    async def created(self, table_id: str) -> "dict | None":
        """What a table was created with (its log's first event), or ``None``."""
        _, rows = await self._pooled("SELECT data FROM ohhell_events WHERE table_id=%s AND seq=0", (table_id,),
                                     fetch=True)
        if not rows:
            return None
        try:
            data = json.loads(rows[0][0])
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    async def exists(self, table_id: str) -> bool:
        """Whether a table has a log."""
        _, rows = await self._pooled("SELECT 1 FROM ohhell_events WHERE table_id=%s AND seq=0", (table_id,),
                                     fetch=True)
        return bool(rows)

    async def load_many(self, table_ids: list[str]) -> dict[str, list]:
        """Several tables' logs in one query: table id -> its events (see :meth:`load`)."""
        from .storage import _events
        _, rows = await self._pooled("SELECT table_id, seq, kind, data, ts FROM ohhell_events "
                                     "WHERE table_id = ANY(%s) ORDER BY table_id, seq", (list(table_ids),), fetch=True)
        grouped: dict[str, list] = {t: [] for t in table_ids}
        for table_id, *rest in rows:
            grouped[table_id].append(rest)
        out: dict[str, list] = {}
        for table_id, found in grouped.items():
            try:
                out[table_id] = _events(table_id, found)
            except StoreError as e:
                out[table_id] = [e]   # damaged: the caller reports it
        return out


class Fenced:
    """A :class:`ClusterStore` as one table object writes through it (:meth:`ClusterStore.fenced`):
    its log, lobby row and chat fenced by one token (0: a read-only copy, which never writes);
    anything else goes to the store itself."""

    def __init__(self, store: ClusterStore, token: int) -> None:
        self._store = store
        self.token = token

    async def append(self, table_id: str, seq: int, kind: str, data: dict) -> float:
        try:
            return await self._store.append(table_id, seq, kind, data, fence_token=self.token)
        except LeaseLost:
            self._lost(table_id)
            raise

    async def put_listing(self, table_id: str, row: dict, updated: float) -> None:
        try:
            await self._store.put_listing(table_id, row, updated, fence_token=self.token)
        except LeaseLost:
            self._lost(table_id)
            raise

    async def add_chat(self, table_id: str, msg_id: int, data: dict, keep: int = 500) -> float:
        try:
            return await self._store.add_chat(table_id, msg_id, data, keep, fence_token=self.token)
        except LeaseLost:
            self._lost(table_id)
            raise

    async def remove_chat(self, table_id: str, msg_id: int) -> bool:
        try:
            return await self._store.remove_chat(table_id, msg_id, fence_token=self.token)
        except LeaseLost:
            self._lost(table_id)
            raise

    def _lost(self, table_id: str) -> None:
        if self.token and self._store.on_lost is not None:
            self._store.on_lost(table_id, self.token)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)
