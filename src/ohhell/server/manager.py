"""The table manager: every table of a server, created, loaded from the store (a damaged
one left out), listed in the lobby, evicted from memory when idle, removed when it never
started."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from typing import Any

from ..errors import OhHellError
from .botpool import BotPool
from .config import CHAT_ADDRESS_RATE, CHAT_HISTORY
from .session import RateLimiter
from .storage import Store, StoreError
from .tables import Table, TableError, new_id, new_token, token_hash

__all__ = ["TableManager", "TABLE_ID"]

log = logging.getLogger("ohhell.server")

#: What a table id looks like (the server makes 12 of these characters); anything else is
#: answered "no such table" without asking the database.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

#: What replaying a damaged log can raise.
_DAMAGE = (StoreError, OhHellError, ValueError, KeyError, TypeError, AssertionError, IndexError, AttributeError)


class TableManager:
    """All tables of a server: created, loaded from the store, listed, evicted when idle,
    removed when they never started.

    :param bot_delay: seconds a bot's move takes, so people can follow.
    :param idle_evict: seconds after which a table nobody watches leaves memory
        (it is loaded again from the store when someone comes back; the lobby lists it
        from the store meanwhile).
    :param unstarted_ttl: seconds after its last change that a table which never started a
        game, and where nobody is connected, is removed (its log and lobby row deleted).
    :param max_open_per_creator: tables one creator (address) may have open that have not
        started a game yet.
    :param max_tables: tables in memory at once; creating more is refused (``full``).
    """

    #: seconds a finished game with every seat taken stays in the lobby's list
    FINISHED_LISTED = 3600.0
    #: seconds a new table with nobody seated stays in the lobby's list
    EMPTY_LISTED = 600.0

    def __init__(self, store: Store, pool: BotPool, *, bot_delay: float = 0.7,
                 idle_evict: float = 1800.0, resume_window: float = 7 * 86400.0,
                 max_tables: int = 20000, unstarted_ttl: float = 3600.0,
                 max_open_per_creator: int = 20) -> None:
        self.store = store
        self.pool = pool
        self.bot_delay = bot_delay
        self.idle_evict = idle_evict
        self.resume_window = resume_window
        self.max_tables = max_tables
        self.unstarted_ttl = unstarted_ttl
        self.max_open_per_creator = max_open_per_creator
        self.tables: dict[str, Table] = {}
        #: creator -> the ids of their tables that have not started a game (in memory or not)
        self.unstarted: dict[str, set[str]] = {}
        #: tables whose log could not be replayed (logged once, answered ``damaged``)
        self.damaged: dict[str, str] = {}
        #: the user ids of the bot accounts (kept by ohhell.server.accounts; the tables mark their seats)
        self.bot_accounts: set[str] = set()
        self.closing = False
        self._loading: dict[str, asyncio.Future] = {}
        self._sweeper: "asyncio.Task | None" = None
        self._listing_version = 0
        self._listing_cache: dict[tuple[int, int], tuple[int, float, dict]] = {}
        #: address -> its chat token bucket (all its connections, every table, together)
        self._chat_limiters: dict[str, RateLimiter] = {}
        #: this node's part in a cluster (``ohhell serve --redis``; :mod:`ohhell.server.cluster`),
        #: ``None`` for a single server: then every table of the database is this process's
        self.cluster: "Any" = None

    def chat_allowed(self, address: str) -> bool:
        """Take a chat token from ``address``'s bucket (``config.CHAT_ADDRESS_RATE``);
        ``False`` when it is empty.  An unknown address ("") is limited per connection only."""
        if not address:
            return True
        limiter = self._chat_limiters.get(address)
        if limiter is None:
            if len(self._chat_limiters) > 10000:
                self._chat_limiters.clear()
            limiter = self._chat_limiters[address] = RateLimiter(*CHAT_ADDRESS_RATE)
        return limiter.allow()

    async def start(self) -> int:
        """Fill in the lobby's list if the database predates it, remove the tables that
        never started and expired meanwhile, then load the tables active recently (so their
        bots carry on and their away timers run); returns how many."""
        if await self.store.get_meta("listing") != "complete":
            await self._backfill_listing()
        await self._expire_stored()
        ids = await self.store.active_tables(time.time() - self.resume_window)
        loaded = 0
        for tid in ids:
            try:
                if self.cluster is not None:   # a node takes the active tables no live node owns
                    if await self.cluster.leases.acquire(tid) is None:
                        continue
                    table = await self.cluster._take(tid)
                else:
                    table = await self.get(tid)
            except TableError:   # damaged: logged, and every other table still loads
                continue
            if table is not None:
                loaded += 1
        self._sweeper = asyncio.create_task(self._sweep())
        return loaded

    async def _backfill_listing(self) -> None:
        """Write the lobby row of every table (a database from before the list was kept)."""
        count = 0
        for tid in await self.store.table_ids():
            if self.cluster is not None and await self.cluster.leases.acquire(tid) is None:
                continue   # another node has it in memory and keeps its row
            table = Table(tid, self)
            try:
                table.replay(await self.store.load(tid))
            except _DAMAGE as e:
                self._damaged(tid, e)
                continue
            await table.sync_listing()
            if self.cluster is not None:
                await self.cluster.leases.release(tid)
            count += 1
        await self.store.set_meta("listing", "complete")
        if count:
            log.info("lobby list: %d table%s listed from the log", count, "" if count == 1 else "s")

    async def stop(self) -> None:
        """Stop the bots and the away timers (both resume when the server starts again)."""
        self.closing = True
        if self._sweeper:
            self._sweeper.cancel()
        tasks = [t for table in self.tables.values() for t in (*table.bot_tasks.values(), table.timer) if t]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _damaged(self, table_id: str, error: BaseException) -> TableError:
        if table_id not in self.damaged:
            self.damaged[table_id] = str(error) or type(error).__name__
            log.error("table %s is damaged and is left out (every other table works): %s: %s",
                      table_id, type(error).__name__, error)
        return TableError("damaged", f"table {table_id} cannot be loaded: its saved log is damaged "
                                     f"(the server's log says how)")

    async def get(self, table_id: str) -> "Table | None":
        """The table with this id, loaded from the store if need be; ``None`` if unknown
        (or not a table id at all).

        :raises TableError: ``damaged`` when its log cannot be replayed.
        """
        if not isinstance(table_id, str) or not TABLE_ID.fullmatch(table_id):
            return None
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.damaged:
            raise self._damaged(table_id, StoreError(self.damaged[table_id]))
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        if self.cluster is not None:   # this node's, or another's (then a read-only copy)
            return await self.cluster.get(table_id)
        return await self.load(table_id)

    async def load(self, table_id: str, events: "list | None" = None) -> "Table | None":
        """Load a table from the store into memory (in a cluster: one this node owns), and resume
        it; ``None`` when it has no log.  ``events``: its log, already read.

        :raises TableError: ``damaged`` when its log cannot be replayed.
        """
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.damaged:
            raise self._damaged(table_id, StoreError(self.damaged[table_id]))
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            table = None
            try:
                if events is None:
                    events = await self.store.load(table_id)
                if events and isinstance(events[0], StoreError):   # read in a batch, found damaged
                    raise events[0]
                if events:
                    table = Table(table_id, self)
                    if self.cluster is not None:   # written under the token this node holds now
                        table.store = self.cluster.store.fenced(self.cluster.leases.tokens.get(table_id, 0))
                    table.replay(events)
                    try:
                        table.load_chat(await self.store.load_chat(table_id, CHAT_HISTORY))
                    except StoreError as e:   # the table still plays; its chat starts afresh
                        log.error("table %s: its chat could not be loaded: %s", table_id, e)
            except _DAMAGE as e:
                raise self._damaged(table_id, e) from None
            if table is not None:
                self.tables[table_id] = table
                if table.game is None:
                    self.unstarted.setdefault(table.creator, set()).add(table_id)
                await table.resume()
            fut.set_result(table)
            return table
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # mark retrieved
            raise
        finally:
            del self._loading[table_id]

    async def replica(self, table_id: str) -> "Table | None":
        """A read-only copy of a table another cluster node owns, replayed from its log (for the
        pages and API that read a table: its record, its analysis).  Nothing runs at it, and a
        change to it would be refused by the database (this node holds no lease on it).

        :raises TableError: ``damaged``."""
        try:
            events = await self.store.load(table_id)
            if not events:
                return None
            table = Table(table_id, self)
            table.store = self.store.fenced(0)   # type: ignore[attr-defined]  # (it never writes)
            table.replay(events)
        except _DAMAGE as e:
            raise self._damaged(table_id, e) from None
        return table

    def drop(self, table_id: str) -> "Table | None":
        """Forget a table at once (this cluster node lost it): its bots, timer and hints stop."""
        table = self.tables.pop(table_id, None)
        if table is None:
            return None
        table.dropped = True
        for task in (*table.bot_tasks.values(), table.timer, *table._hint_tasks):
            if task is not None:
                task.cancel()
        table.bot_tasks.clear()
        table.timer = table.timer_at = None
        self._forget(table_id)
        return table

    async def claim(self, table_id: str, thash: str, account: str) -> "int | None":
        """Bind the seat a guest's token holds at a table to ``account`` (at the table's owner
        node, in a cluster); see :meth:`Table.claim`."""
        if self.cluster is not None:
            if not isinstance(table_id, str) or not TABLE_ID.fullmatch(table_id):
                return None
            try:
                return await self.cluster.call(table_id, "claim", thash=thash, account=account)
            except TableError as e:
                if e.code == "no_table":
                    return None
                raise
        table = await self.get(table_id)
        return None if table is None else await table.claim(thash, account)

    async def create(self, config: dict, creator: str = "") -> tuple[Table, str, dict[int, str]]:
        """Create a table from a checked config; returns it, the creator's token and the
        invite codes of reserved seats.  ``creator``: who asks (a hash of the address).

        :raises TableError: ``full`` (too many tables in memory) or ``too_many_tables`` (this
            creator has :attr:`max_open_per_creator` tables that have not started).
        """
        if len(self.tables) >= self.max_tables:
            raise TableError("full", "this server has too many tables open; try again later")
        mine = self.unstarted.get(creator, set())
        if len(mine) >= self.max_open_per_creator:
            raise TableError("too_many_tables", f"you have {len(mine)} tables where no game has started; "
                                                f"play or wait for those (a table nobody starts is removed "
                                                f"{self.unstarted_ttl / 60:g} minutes after its last change)")
        table_id = new_id()
        fence = None
        if self.cluster is not None:
            fence = await self.cluster.leases.acquire(table_id)
            if fence is None:
                raise TableError("storage", "the server could not make the table; try again")
        admin = new_token()
        codes = {i: new_id(12) for i, s in enumerate(config["seats"]) if s["kind"] == "reserved"}
        table = Table(table_id, self)
        if fence is not None:
            table.store = self.store.fenced(fence)   # type: ignore[attr-defined]
        async with table.lock:
            await table._commit("create", {**config, "admin": token_hash(admin), "creator": creator,
                                           "codes": {str(i): token_hash(c) for i, c in codes.items()}})
            self.tables[table_id] = table
            self.unstarted.setdefault(creator, set()).add(table_id)
            await table._after_change()
        return table, admin, codes

    async def list_tables(self, limit: int = 100, offset: int = 0) -> dict:
        """The lobby's list, from the store (so tables out of memory are in it too):
        ``{"tables": [summary, ...], "total": n}``.

        Every public table with an open seat and every game in progress is listed; a
        finished game with every seat taken for :attr:`FINISHED_LISTED` seconds.  Tables
        with open seats come first, then games in progress, most recently active first.
        Answers are cached for a second, and up to 5 while no listed table changes (so a
        crowd polling the lobby costs the database a query a second)."""
        key = (limit, offset)
        now = time.time()
        hit = self._listing_cache.get(key)
        if hit is not None and (now - hit[1] < 1.0 or hit[0] == self._listing_version and now - hit[1] < 5.0
                                and self.cluster is None):   # other nodes' changes: a second at most
            return hit[2]
        version = self._listing_version
        rows, total = await self.store.list_tables(now - self.FINISHED_LISTED, limit, offset,
                                                   now - self.EMPTY_LISTED)
        result = {"tables": rows, "total": total}
        if len(self._listing_cache) > 64:
            self._listing_cache.clear()
        self._listing_cache[key] = (version, now, result)
        return result

    def listing_changed(self) -> None:
        """A lobby row was written (cached lists are stale)."""
        self._listing_version += 1

    def touch(self, table: Table) -> None:
        """Note activity (for eviction)."""
        table.updated = max(table.updated, time.time())

    def started(self, table: Table) -> None:
        """A table started its first game: it no longer counts against its creator."""
        mine = self.unstarted.get(table.creator)
        if mine is not None:
            mine.discard(table.id)
            if not mine:
                del self.unstarted[table.creator]

    def _forget(self, table_id: str) -> None:
        self.tables.pop(table_id, None)
        for creator, mine in list(self.unstarted.items()):
            if table_id in mine:
                mine.discard(table_id)
                if not mine:
                    del self.unstarted[creator]

    async def _expire(self, table_id: str) -> None:
        table = self.tables.pop(table_id, None)   # first, so nobody finds it while it is deleted
        try:
            await self.store.delete_table(table_id)
        except StoreError as e:
            log.error("%s", e)
            if table is not None:
                self.tables[table_id] = table
            return
        self._forget(table_id)
        self.listing_changed()
        log.info("table %s never started and was idle for %gs: removed", table_id, self.unstarted_ttl)

    async def _expire_stored(self) -> None:
        """Remove the tables in the store that never started and have been idle too long."""
        for tid in await self.store.stale_unstarted(time.time() - self.unstarted_ttl):
            table = self.tables.get(tid)
            if table is None and self.cluster is not None and tid not in self.cluster.leases.tokens \
                    and await self.cluster.leases.acquire(tid) is None:
                continue   # another node has it in memory: that node expires it
            if table is None or (not table.conns and not table.lock.locked()
                                 and time.time() - table.updated > self.unstarted_ttl):
                await self._expire(tid)

    async def sweep(self) -> None:
        """One round of housekeeping: expire the tables that never started, then evict idle
        tables from memory.  A table that never started stays in memory until it starts or
        expires (so this needs no database query; the ones left from before a restart are
        removed by :meth:`start`)."""
        now = time.time()
        for tid, t in list(self.tables.items()):
            if t.game is None and not t.conns and now - t.updated > self.unstarted_ttl and not t.lock.locked():
                await self._expire(tid)
        for tid, t in list(self.tables.items()):
            if not t.conns and not t.bot_tasks and t.timer is None and now - t.updated > self.idle_evict \
                    and t.game is not None and not t.lock.locked():
                del self.tables[tid]
                if self.cluster is not None:   # any node may load it again
                    await self.cluster.leases.release(tid)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(min(60.0, self.idle_evict / 2, self.unstarted_ttl / 2))
            try:
                await self.sweep()
            except Exception:  # pragma: no cover - logged; the next round tries again
                log.exception("housekeeping failed")

    def fallback(self, seed: str, view) -> "int | str":
        """A random legal action (when a bot raised)."""
        import random
        return random.Random(seed).choice(view.legal_actions()).to_json()

    def stats(self) -> dict:
        """Counts for ``/healthz``."""
        return {"tables": len(self.tables), "connections": sum(len(t.conns) for t in self.tables.values()),
                "games_in_progress": sum(1 for t in self.tables.values() if t.in_game),
                "unstarted": sum(len(v) for v in self.unstarted.values()),
                "bot_queue": self.pool.queued(), "bot_decisions": self.pool.started,
                "bot_decisions_degraded": self.pool.degraded}
