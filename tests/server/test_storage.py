"""The stores, SQLite and a real PostgreSQL, behind one interface; a whole game on PostgreSQL
with a server restart in the middle."""

from __future__ import annotations

import asyncio
import time

import pytest

import ohhell
from ohhell.server.storage import SCHEMA_VERSION, PostgresStore, SqliteStore, StoreError, open_store
from serverkit import Client, ThreadServer, play_in_step, play_out


async def _conformance(store) -> None:
    await store.open()
    try:
        assert await store.load("t1") == []
        t0 = time.time()
        await store.append("t1", 0, "create", {"title": "Ünïcode ♠", "n": [1, None]})
        await store.append("t1", 1, "act", {"seat": 2, "action": "QS"})
        await store.append("t2", 0, "create", {})
        with pytest.raises(StoreError, match="already stored"):
            await store.append("t1", 1, "act", {"seat": 3, "action": "KS"})
        events = await store.load("t1")
        assert [(e.seq, e.kind, e.data) for e in events] == [
            (0, "create", {"title": "Ünïcode ♠", "n": [1, None]}), (1, "act", {"seat": 2, "action": "QS"})]
        assert all(e.ts >= t0 - 1 for e in events)
        assert sorted(await store.active_tables(t0 - 1)) == ["t1", "t2"]
        assert await store.active_tables(time.time() + 60) == []
        assert sorted(await store.table_ids()) == ["t1", "t2"]
        # The lobby's list: open seats first, then games in progress, then recently finished
        # games; most recent first in each group; a row is replaced when written again.
        rows = {"a": ("waiting", [1], 100.0), "b": ("playing", [], 200.0), "c": ("over", [], 300.0),
                "d": ("over", [], 50.0), "e": ("over", [2], 10.0), "f": ("waiting", [0, 2], 120.0)}
        for tid, (status, open_, updated) in rows.items():
            await store.put_listing(tid, {"id": tid, "status": status, "open": open_, "names": ["Ünï"]}, updated)
        await store.put_listing("a", {"id": "a", "status": "waiting", "open": [1, 2], "names": ["x"]}, 150.0)
        listed, total = await store.list_tables(250.0, 10, 0)
        assert [r["id"] for r in listed] == ["a", "f", "e", "b", "c"] and total == 5
        assert listed[0] == {"id": "a", "status": "waiting", "open": [1, 2], "names": ["x"], "updated": 150.0}
        listed, total = await store.list_tables(250.0, 2, 2)
        assert [r["id"] for r in listed] == ["e", "b"] and total == 5
        listed, total = await store.list_tables(0.0, 10, 0)
        assert [r["id"] for r in listed] == ["a", "f", "e", "b", "c", "d"] and total == 6
        assert await store.get_meta("listing") == "complete"  # a new database's list is complete
        await store.set_meta("x", "1")
        await store.set_meta("x", "2")
        assert await store.get_meta("x") == "2" and await store.get_meta("nothing") is None
    finally:
        await store.close()
    # Reopening finds the same log (the schema is created once).
    await store.open()
    try:
        assert len(await store.load("t1")) == 2
    finally:
        await store.close()


def test_sqlite_store(tmp_path):
    asyncio.run(_conformance(SqliteStore(str(tmp_path / "sub" / "x.sqlite3"))))


def test_postgres_store(pg_database):
    asyncio.run(_conformance(PostgresStore(pg_database)))


def test_open_store_reads_urls(tmp_path):
    assert isinstance(open_store("postgresql://u@h/db"), PostgresStore)
    assert isinstance(open_store("postgres://u@h/db"), PostgresStore)
    s = open_store(f"sqlite:///{tmp_path}/a.sqlite3")
    assert isinstance(s, SqliteStore) and s.path == f"{tmp_path}/a.sqlite3"
    assert open_store(str(tmp_path / "b.db")).path.endswith("b.db")


def test_postgres_that_is_not_there_is_a_clear_error():
    store = PostgresStore("postgresql://nobody:secret@127.0.0.1:1/none?connect_timeout=2")
    with pytest.raises(StoreError, match="cannot connect") as e:
        asyncio.run(store.open())
    assert "secret" not in str(e.value)


def test_a_game_on_postgres_survives_a_restart(pg_database):
    rules = {"players": 4, "hand_sizes": [2, 3], "hook": True}
    seats = [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"}]

    async def first(srv, t):
        ann, bob = Client(srv.ws_url, t["id"]), Client(srv.ws_url, t["id"])
        await ann.connect()
        await bob.connect()
        await ann.join(0, "Ann")
        await bob.join(1, "Bob")
        await ann.wait(lambda m: m["type"] == "state" and m["game"])
        table = srv.manager.tables[t["id"]]
        await play_in_step(table, [ann, bob], 9)
        fp = table.game.fingerprint()
        await ann.close()
        await bob.close()
        return ann.token, bob.token, fp

    with ThreadServer(pg_database) as srv:
        t = srv.create(rules, seats)
        tokens = asyncio.run(first(srv, t))

    async def second(srv):
        assert srv.manager.tables[t["id"]].game.fingerprint() == tokens[2]
        async with Client(srv.ws_url, t["id"], token=tokens[0]) as ann, \
                Client(srv.ws_url, t["id"], token=tokens[1]) as bob:
            await play_out([ann, bob], lambda c, v: v["legal"][0])
    with ThreadServer(pg_database) as srv:
        asyncio.run(second(srv))
        rec = srv.record(t["id"])
    assert ohhell.Game.from_record(rec).is_over and rec["players"][:2] == ["Ann", "Bob"]


def test_a_database_from_before_the_lobby_list_is_upgraded_and_listed(tmp_path):
    """A version-1 database (no lobby rows) is upgraded on start and every public table in
    it listed, even one too old to be loaded into memory."""
    import sqlite3

    import httpx
    db = str(tmp_path / "old.sqlite3")
    with ThreadServer(db) as srv:
        old = srv.create({"players": 3}, [{"kind": "open"}] * 3, title="Old table")
        srv.create({"players": 3}, [{"kind": "open"}] * 3, private=True)

        async def sit():   # someone waits there (a table nobody sits at is listed only briefly)
            async with Client(srv.ws_url, old["id"]) as ann:
                await ann.join(0, "Ann")
        asyncio.run(sit())
    con = sqlite3.connect(db)
    with con:  # make it what an older server left: schema 1, no lobby rows, a month ago
        con.execute("DROP TABLE ohhell_tables")
        con.execute("DROP TABLE ohhell_chat")
        con.execute("DELETE FROM ohhell_meta WHERE key='listing'")
        con.execute("UPDATE ohhell_meta SET value='1' WHERE key='schema'")
        con.execute("UPDATE ohhell_events SET ts = ts - 30 * 86400")
    con.close()
    with ThreadServer(db, unstarted_ttl=90 * 86400) as srv:   # (so the never-started table is kept)
        assert srv.manager.tables == {}  # too old to resume
        listed = httpx.get(srv.base + "/api/tables").json()
        assert [t["id"] for t in listed["tables"]] == [old["id"]] and listed["total"] == 1
        assert listed["tables"][0]["title"] == "Old table" and listed["tables"][0]["open"] == [1, 2]
    con = sqlite3.connect(db)
    meta = dict(con.execute("SELECT key, value FROM ohhell_meta"))
    assert len(meta.pop("secret_key")) == 64   # the accounts' key, made once (test_accounts.py)
    assert meta == {"schema": str(SCHEMA_VERSION), "listing": "complete"}
    assert con.execute("SELECT count(*) FROM ohhell_chat").fetchone() == (0,)   # the chat's table is made
    con.execute("UPDATE ohhell_meta SET value=? WHERE key='schema'", (str(SCHEMA_VERSION + 1),))
    con.commit()
    con.close()
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1}"):
        asyncio.run(SqliteStore(db).open())
