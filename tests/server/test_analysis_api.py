"""The replay analysis on the server (``ohhell.server.analysis_jobs``): a finished game is
analysed in the background and the result stored and served by
``GET /api/tables/{id}/games/{game}/analysis``; it survives a restart; it yields to the bots
(asserted by order, not by timing); it is refused for a game not over; and the queue has limits.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time

import httpx
import pytest

from ohhell import Game, Rules
from ohhell.coach import GameAnalysis
from ohhell.server.analysis_jobs import AnalysisJobs
from ohhell.server.botpool import BotPool
from ohhell.server.config import TableError
from ohhell.server.storage import SCHEMA_VERSION, open_store
from serverkit import ThreadServer

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}]
RULES = {"players": 3, "hand_sizes": [1, 2]}


def finish(srv: ThreadServer, rules: dict = RULES) -> str:
    """A new all-bot table whose first game has ended; its id."""
    t = srv.create(rules, BOTS)
    deadline = time.monotonic() + 60
    while httpx.get(f"{srv.base}/api/tables/{t['id']}/games/1/record").status_code != 200:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return t["id"]


def analysis(srv: ThreadServer, table_id: str, game: int = 1, timeout: float = 60.0) -> dict:
    """Poll the endpoint until the analysis is ready; returns it (every answer is checked)."""
    deadline = time.monotonic() + timeout
    while True:
        r = httpx.get(f"{srv.base}/api/tables/{table_id}/games/{game}/analysis")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["status"] in ("queued", "running", "ready"), body
        if body["status"] == "ready":
            return body["analysis"]
        assert 0.0 <= body["progress"] <= 1.0
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.05)


def test_a_finished_game_is_analysed_stored_and_served_after_a_restart(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    with ThreadServer(db, analysis_samples=4) as srv:
        tid = finish(srv)
        first = analysis(srv, tid)
        jobs = srv.app.state.analyses
        assert jobs.completed == 1   # queued when the game ended: the request found it on its way
        rec = srv.record(tid)
    data = GameAnalysis.from_dict(first)           # the coach's own format, whole
    assert data.players == rec["players"] and len(data.hands) == 2
    assert data.settings["samples"] == 4 and data.settings["seed"] == f"{tid}/1"
    assert [d["seat"] for d in data.hands[0]["decisions"]][:3] == [(rec["hands"][0]["dealer"] + i) % 3
                                                                  for i in (1, 2, 3)]
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM ohhell_analysis WHERE table_id=? AND game=1", (tid,)).fetchone() == (1,)
    con.close()
    with ThreadServer(db, analysis_samples=4) as srv:   # a restart: served from the store, not made again
        r = httpx.get(f"{srv.base}/api/tables/{tid}/games/1/analysis")
        assert r.status_code == 200 and r.json() == {"status": "ready", "analysis": first}
        assert srv.app.state.analyses.completed == 0


def test_a_game_analysed_on_first_request_when_none_is_stored(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    with ThreadServer(db, analysis_samples=4) as srv:
        srv.app.state.manager.on_game_over = None     # as if it ended before this server
        tid = finish(srv)
        jobs = srv.app.state.analyses
        assert jobs.status(tid, 1) is None
        r = httpx.get(f"{srv.base}/api/tables/{tid}/games/1/analysis")
        assert r.status_code == 200 and r.json()["status"] in ("queued", "running", "ready")
        assert analysis(srv, tid)["format"] == "ohhell.analysis"


def test_a_request_while_the_last_move_is_being_saved_does_not_analyse_the_game_twice(tmp_path, monkeypatch):
    # The lobby write after the last move is slow here: a request in that gap sees the game over.
    # It must find the game's analysis queued, and the game's end must not queue it once more.
    from ohhell.server import tables
    real = tables.Table.sync_listing

    async def slow(self):
        if self.game is not None and self.game.is_over:
            await asyncio.sleep(1.5)
        await real(self)
    monkeypatch.setattr(tables.Table, "sync_listing", slow)
    with ThreadServer(str(tmp_path / "t.sqlite3"), analysis_samples=4) as srv:
        tid = finish(srv)
        analysis(srv, tid)
        time.sleep(2.0)   # the write is over: the old order queued the game again here
        jobs = srv.app.state.analyses
        assert jobs.completed == 1 and jobs.stats()["analyses_queued"] == 0 and jobs.status(tid, 1) is None


def test_a_request_whose_read_of_the_store_outlasts_the_analysis_does_not_queue_it_again(tmp_path, monkeypatch):
    # The store's answer "not there" comes back only once the job has stored it and finished:
    # the request then sees it neither stored nor queued, and must not analyse the game again.
    from ohhell.server import storage
    real = storage.SqliteStore.get_analysis
    held = {}

    async def slow(self, table_id, game):
        got = await real(self, table_id, game)
        jobs = held.get("jobs")
        if got is None and jobs is not None and jobs.status(table_id, game) is not None:
            deadline = time.monotonic() + 60
            while jobs.status(table_id, game) is not None and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
        return got
    monkeypatch.setattr(storage.SqliteStore, "get_analysis", slow)
    from ohhell.server import analysis_jobs
    real_analyse = analysis_jobs._analyse

    def later(*args):   # still running when the request first reads the store
        time.sleep(1.0)
        return real_analyse(*args)
    monkeypatch.setattr(analysis_jobs, "_analyse", later)
    with ThreadServer(str(tmp_path / "t.sqlite3"), analysis_samples=4) as srv:
        held["jobs"] = jobs = srv.app.state.analyses
        tid = finish(srv)
        r = httpx.get(f"{srv.base}/api/tables/{tid}/games/1/analysis")
        assert r.status_code == 200 and r.json()["status"] == "ready", r.text
        assert jobs.completed == 1 and jobs.stats()["analyses_queued"] == 0 and jobs.status(tid, 1) is None


def test_refused_for_a_game_not_over_or_not_there():
    with ThreadServer(bot_delay=30.0) as srv:   # the bots take their time: game 1 is being played
        t = srv.create(RULES, BOTS)
        deadline = time.monotonic() + 10
        while httpx.get(f"{srv.base}/api/tables/{t['id']}").json().get("status") != "playing":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        r = httpx.get(f"{srv.base}/api/tables/{t['id']}/games/1/analysis")
        assert r.status_code == 409 and r.json()["error"] == "not_over"
        assert "analysis is published when it ends" in r.json()["message"]
        for path, code in ((f"{t['id']}/games/2", "no_game"), (f"{t['id']}/games/x", "no_game"),
                           ("nosuchtable/games/1", "no_table")):
            r = httpx.get(f"{srv.base}/api/tables/{path}/analysis")
            assert r.status_code == 404 and r.json()["error"] == code
        assert srv.app.state.analyses.stats()["analyses_queued"] == 0


def test_the_queue_per_creator_is_limited_and_says_so():
    with ThreadServer(analysis_samples=4, analysis_per_creator=1) as srv:
        jobs = srv.app.state.analyses
        jobs.pool.on_load = None
        jobs._go.clear()                               # hold the first analysis where it starts
        a = finish(srv)                                # running (held)
        b = finish(srv)                                # queued when it ended: the creator's one
        c = finish(srv)                                # not queued: over the limit (quietly)
        assert jobs.status(a, 1)["status"] == "running"
        assert jobs.status(b, 1)["status"] == "queued" and jobs.status(c, 1) is None
        r = httpx.get(f"{srv.base}/api/tables/{c}/games/1/analysis")
        assert r.status_code == 429 and r.json()["error"] == "too_many_analyses"
        assert "waiting already" in r.json()["message"]
        jobs._go.set()
        analysis(srv, a)
        analysis(srv, b)
        assert analysis(srv, c)["format"] == "ohhell.analysis"   # asked again once there is room


def _record(seed: int = 3) -> dict:
    g = Game(Rules(3, hand_sizes=[3, 3]), seed=seed)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    return g.record()


def _long_record(seed: int = 3) -> dict:
    g = Game(Rules(4, hand_sizes=[10, 9, 8, 7, 6]), seed=seed)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    return g.record()


def test_a_requested_analysis_goes_ahead_of_those_queued_at_games_ends():
    async def run():
        store = open_store(":memory:")
        await store.open()
        pool = BotPool("thread", 1)
        jobs = AnalysisJobs(store, pool, kind="thread", samples=2, per_creator=5)
        jobs._go.clear()
        jobs.start()
        rec = _record()
        jobs.enqueue("t1", 1, rec, "x", wanted=False)
        await asyncio.sleep(0.05)                      # t1 starts (and waits, held)
        for name in ("t2", "t3", "t4"):
            jobs.enqueue(name, 1, rec, "x", wanted=False)
        jobs.enqueue("t4", 1, rec, "y", wanted=True)   # someone opened t4's replay
        assert jobs.status("t4", 1)["ahead"] == 1      # only the running one is ahead of it
        assert jobs.status("t2", 1)["ahead"] == 2
        with pytest.raises(TableError):
            for i in range(10):
                jobs.enqueue(f"u{i}", 1, rec, "x", wanted=False)
        order = []
        orig = store.put_analysis

        async def put(table_id, game, data):
            order.append(table_id)
            await orig(table_id, game, data)
        store.put_analysis = put                       # type: ignore[method-assign]
        jobs._go.set()
        while len(order) < 4:
            await asyncio.sleep(0.05)
        await jobs.stop()
        pool.close()
        await store.close()
        return order
    order = asyncio.run(run())
    assert order[:4] == ["t1", "t4", "t2", "t3"]


@pytest.mark.timeout(300)
def test_the_analysis_waits_while_the_bots_need_the_pool():
    """Ordering, not timing: while bot decisions wait or fill the pool, the analysis does not
    take one more step; when the pool has room again it carries on to the end."""
    async def run():
        store = open_store(":memory:")
        await store.open()
        pool = BotPool("thread", 1)
        jobs = AnalysisJobs(store, pool, kind="thread", samples=3)
        jobs.start()
        # A game long enough that the analysis is still running when the bots arrive (a short
        # one could finish between two looks, on a fast machine, and leave nothing to hold).
        jobs.enqueue("t1", 1, _long_record(), "x", wanted=True)
        while (jobs.status("t1", 1) or {}).get("progress", 0) < 0.02:
            assert await store.get_analysis("t1", 1) is None, "the analysis ended before the test held it"
            await asyncio.sleep(0.005)
        game = Game(Rules(3, hand_sizes=[5]), seed=9)
        view = game.view(game.to_act)
        decisions = [asyncio.ensure_future(pool.decide("heuristic", f"s{i}", view, creator="c", table="t"))
                     for i in range(6)]
        await asyncio.sleep(0)                         # the decisions reach the pool
        assert jobs.paused                             # the pool is saturated: the analysis waits
        held = jobs.status("t1", 1)["progress"]
        seen = []
        for d in decisions:
            await d
            seen.append(jobs.status("t1", 1)["progress"] if jobs.status("t1", 1) else None)
        # Every decision finished with the analysis where it was held (give or take the one step
        # it was in when the pause came: the worker stops between steps, and that step may end
        # while the bots play, as once in CI); after the last, it goes on.
        assert sorted(seen[:-1]) == seen[:-1] and seen[0] >= held
        assert len(set(seen[:-1]) | {held}) <= 2, (held, seen)
        assert jobs.pauses >= 1
        while jobs.status("t1", 1) is not None:
            await asyncio.sleep(0.02)
        stored = await store.get_analysis("t1", 1)
        await jobs.stop()
        pool.close()
        await store.close()
        return stored
    stored = asyncio.run(run())
    assert stored is not None and stored["format"] == "ohhell.analysis"


def test_a_schema_4_database_is_upgraded_to_5(tmp_path):
    db = str(tmp_path / "old.sqlite3")

    async def make_old():
        store = open_store(db)
        await store.open()
        await store.append("t1", 0, "create", {"title": "x"})
        await store.close()
    asyncio.run(make_old())
    con = sqlite3.connect(db)
    with con:   # what a schema-4 server left: no analysis table
        con.execute("DROP TABLE ohhell_analysis")
        con.execute("UPDATE ohhell_meta SET value='4' WHERE key='schema'")
    con.close()

    async def reopen():
        store = open_store(db)
        await store.open()
        assert await store.get_analysis("t1", 1) is None
        await store.put_analysis("t1", 1, {"format": "ohhell.analysis", "n": 1})
        await store.put_analysis("t1", 1, {"format": "ohhell.analysis", "n": 2})   # replaced, not doubled
        got = await store.get_analysis("t1", 1), await store.get_meta("schema"), len(await store.load("t1"))
        await store.close()
        return got
    assert asyncio.run(reopen()) == ({"format": "ohhell.analysis", "n": 2}, str(SCHEMA_VERSION), 1)
    assert SCHEMA_VERSION >= 5   # 6 added the duplicate events; the analyses came in 5


def test_postgres_keeps_analyses_and_upgrades_from_4(pg_database):
    async def run():
        store = open_store(pg_database)
        await store.open()
        await store.put_analysis("t1", 2, {"format": "ohhell.analysis", "x": [1, 2]})
        await store._write("DROP TABLE ohhell_analysis")
        await store._write("UPDATE ohhell_meta SET value='4' WHERE key='schema'")
        await store.close()
        store = open_store(pg_database)
        await store.open()   # upgraded: the table is back (empty)
        before = await store.get_analysis("t1", 2)
        await store.put_analysis("t1", 2, {"format": "ohhell.analysis", "x": [3]})
        after = await store.get_analysis("t1", 2), await store.get_meta("schema")
        await store.close()
        return before, after
    assert asyncio.run(run()) == (None, ({"format": "ohhell.analysis", "x": [3]}, str(SCHEMA_VERSION)))


def test_the_real_command_analyses_in_a_worker_process_of_its_own(tmp_path):
    from serverkit import ProcessServer
    srv = ProcessServer(str(tmp_path / "t.sqlite3"), "--bot-delay", "0.01", "--analysis-samples", "4").start()
    try:
        t = httpx.post(srv.base + "/api/tables", json={"rules": RULES, "seats": BOTS}).json()
        deadline = time.monotonic() + 90
        while True:
            r = httpx.get(f"{srv.base}/api/tables/{t['id']}/games/1/analysis")
            assert r.status_code in (200, 409), r.text
            if r.status_code == 200 and r.json()["status"] == "ready":
                break
            assert r.status_code == 409 or r.json()["status"] in ("queued", "running"), r.text
            assert time.monotonic() < deadline, "no analysis"
            time.sleep(0.2)
        assert r.json()["analysis"]["settings"]["samples"] == 4
        health = httpx.get(srv.base + "/healthz").json()
        assert health["analyses_done"] == 1 and health["analyses_queued"] == 0
    finally:
        srv.stop()
    assert "Traceback" not in srv.output()
