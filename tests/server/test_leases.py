"""The cluster's leases and fences on a real PostgreSQL (ohhell.server.leases): a table has one
owner at a time, a takeover needs the owner's lease to have run out, and a node whose lease
lapsed cannot write one event, lobby row or chat message, because the database refuses it,
whatever the node believes (a paused owner that wakes up)."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from ohhell.server.leases import ClusterStore, LeaseLost, Leases


async def node(url: str, ttl: float = 1.0) -> tuple[Leases, ClusterStore]:
    leases = Leases(url, ttl=ttl)
    store = ClusterStore(url, leases)
    await store.open()
    await leases.open()
    await leases.register()
    return leases, store


async def close(*nodes) -> None:
    for leases, store in nodes:
        await leases.close()
        await store.close()


def logged(url: str, table: str) -> list[tuple[int, str]]:
    with psycopg.connect(url) as conn:
        return [tuple(r) for r in conn.execute("SELECT seq, kind FROM ohhell_events WHERE table_id=%s ORDER BY seq",
                                               (table,)).fetchall()]


def test_a_paused_owner_that_wakes_up_cannot_write(pg_database):
    async def run():
        a, b = await node(pg_database), await node(pg_database)
        (la, sa), (lb, sb) = a, b
        token = await la.acquire("t1")
        assert token is not None
        await sa.append("t1", 0, "create", {"by": "a"})
        await sa.put_listing("t1", {"status": "waiting", "open": [0]}, 1.0)
        await sa.add_chat("t1", 0, {"text": "hi"})
        assert await lb.acquire("t1") is None          # a's lease lives: nobody else may take it
        assert await lb.owner("t1") == (la.node, True)
        # a is paused: it renews nothing while b goes on; its lease runs out (the database's clock)
        for _ in range(6):
            await asyncio.sleep(0.25)
            assert await lb.renew()
        assert await lb.orphans(10) == ["t1"]
        new = await lb.acquire("t1")
        assert new is not None and new > token            # fencing tokens only grow
        assert [e.seq for e in await sb.load("t1")] == [0]
        await sb.append("t1", 1, "join", {"by": "b"})
        # a wakes up, still holding its old token, and tries to write: the database refuses each
        assert la.tokens["t1"] == token
        for write in (sa.append("t1", 1, "join", {"by": "a"}), sa.append("t1", 2, "act", {"by": "a"}),
                      sa.put_listing("t1", {"status": "playing", "open": []}, 2.0),
                      sa.add_chat("t1", 1, {"text": "stale"}), sa.remove_chat("t1", 0), sa.delete_table("t1")):
            with pytest.raises(LeaseLost, match="the database refused"):
                await write
        assert not await la.renew()                        # and its lease stays dead: it must join again
        assert logged(pg_database, "t1") == [(0, "create"), (1, "join")]
        await sb.append("t1", 2, "act", {"by": "b"})       # the new owner writes on
        assert [m for _, _, m in await sb.load_chat("t1", 10)] == [{"text": "hi"}]
        assert await sb.remove_chat("t1", 0) and not await sb.remove_chat("t1", 0)   # the owner may remove
        assert await sb.load_chat("t1", 10) == []
        await close(a, b)
    asyncio.run(run())


def test_a_lapsed_lease_cannot_write_even_before_a_takeover(pg_database):
    async def run():
        a = await node(pg_database, ttl=0.5)
        la, sa = a
        await la.acquire("t2")
        await sa.append("t2", 0, "create", {})
        await asyncio.sleep(0.8)                           # nobody took it; its owner's lease ran out
        with pytest.raises(LeaseLost):
            await sa.append("t2", 1, "join", {})
        with pytest.raises(LeaseLost, match="does not own it"):   # a table it never held: not even asked
            await sa.append("t3", 0, "create", {})
        assert logged(pg_database, "t2") == [(0, "create")]
        await close(a)
    asyncio.run(run())


def test_a_takeover_waits_for_the_owners_write_in_flight(pg_database):
    """The fence locks the owner row: a takeover that comes while the owner's write is still
    uncommitted waits for it, so the new owner's replay of the log includes that event."""
    async def run():
        a, b = await node(pg_database, ttl=5.0), await node(pg_database, ttl=5.0)
        (la, sa), (lb, sb) = a, b
        await la.acquire("t4")
        await sa.append("t4", 0, "create", {})
        slow = await psycopg.AsyncConnection.connect(pg_database)   # a's write, caught mid-transaction
        cur = await slow.execute(
            "INSERT INTO ohhell_events (table_id, seq, ts, kind, data) SELECT 't4', 1, 0, 'join', '{}' "
            "FROM ohhell_owners o JOIN ohhell_nodes n ON n.node = o.node WHERE o.table_id = 't4' "
            "AND o.node = %s AND o.token = %s AND n.expires > now() FOR SHARE OF o", (la.node, la.tokens["t4"]))
        assert cur.rowcount == 1
        assert await lb.expire(la.node)                   # a's lease ends (it stopped listening)
        takeover = asyncio.create_task(lb.acquire("t4"))
        await asyncio.sleep(0.5)
        assert not takeover.done()                          # it waits for a's transaction
        await slow.commit()
        await slow.close()
        assert await takeover is not None
        assert [e.seq for e in await sb.load("t4")] == [0, 1]   # the new owner sees a's last event
        with pytest.raises(LeaseLost):
            await sa.append("t4", 2, "act", {})
        await sb.append("t4", 2, "act", {})
        await close(a, b)
    asyncio.run(run())


def test_a_single_server_and_cluster_nodes_exclude_each_other(pg_database):
    from ohhell.server.storage import PostgresStore, StoreError

    async def run():
        a = await node(pg_database)
        la, sa = a
        await sa.claim()
        _, other = await node(pg_database)
        await other.claim()                                # nodes share the database
        single = PostgresStore(pg_database)
        await single.open()
        with pytest.raises(StoreError, match="another ohhell server"):
            await single.claim()
        await sa.close()
        await other.close()
        await single.claim()                               # the nodes are gone: a single server may start
        lc, sc = await node(pg_database)
        with pytest.raises(StoreError, match="single-node ohhell server"):
            await sc.claim()
        await single.close()
        await sc.close()
        await la.close()
        await lc.close()
    asyncio.run(run())


def test_taking_several_tables_at_once_takes_only_the_free_ones(pg_database):
    async def run():
        a, b, c = await node(pg_database, ttl=0.6), await node(pg_database, ttl=5.0), await node(pg_database, ttl=5.0)
        (la, _), (lb, _), (lc, _) = a, b, c
        await la.acquire("dead1")
        await la.acquire("dead2")
        await lb.acquire("alive")
        await asyncio.sleep(0.8)                          # a's lease ran out; b's lives
        assert sorted(await lc.orphans(10)) == ["dead1", "dead2"]
        taken = await lc.acquire_many(["dead1", "dead2", "alive", "new"])
        assert sorted(taken) == ["dead1", "dead2", "new"] and lc.tokens.keys() == taken.keys()
        assert await lc.orphans(10) == [] and await lb.owner("alive") == (lb.node, True)
        await close(a, b, c)
    asyncio.run(run())
