"""Several ``ohhell serve --redis`` nodes on one PostgreSQL database and one Redis (both real,
started under temporary directories): a client of any node sees the same frames as one of the
table's owner, and gets the same answers; a node killed with ``kill -9`` or paused past its
lease has its tables taken over by the others within seconds, from the log, and the game goes
on with nothing lost or applied twice; the single-server claim and bad options are refused."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time

import httpx
import psycopg
import pytest

import ohhell
from serverkit import ROOT, Client, ProcessServer, audit_frames, free_port, free_ports, play_out

pytestmark = pytest.mark.timeout(300)


def nodes(db: str, redis: str, n: int, *extra: str) -> list[ProcessServer]:
    """``n`` cluster nodes, started side by side."""
    started = [ProcessServer(db, "--redis", redis, "--bot-pool", "thread", "--create-limit", "0",
                             "--bot-delay", "0.15", *extra, port=port).launch() for port in free_ports(n)]
    try:
        return [s.ready() for s in started]
    except BaseException:
        for s in started:
            s.stop()
        raise


def stop(servers: list[ProcessServer]) -> None:
    """Stop the nodes; when a test is failing (called from its ``finally``), print each node's
    log first, so that the failure report says what the nodes did."""
    if sys.exc_info()[0] is not None:
        for s in servers:
            print(f"--- node at port {s.port} ---\n{s.output()}")
    for s in servers:
        s.stop()


def create(node: ProcessServer, seats: list, hands: list) -> dict:
    r = httpx.post(node.base + "/api/tables", json={"rules": {"players": len(seats), "hand_sizes": hands},
                                                    "seats": seats}, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()


def logged(db: str, table: str) -> list[tuple[int, str, dict]]:
    with psycopg.connect(db) as conn:
        rows = conn.execute("SELECT seq, kind, data FROM ohhell_events WHERE table_id=%s ORDER BY seq",
                            (table,)).fetchall()
    return [(seq, kind, json.loads(data)) for seq, kind, data in rows]


def check_log(db: str, table: str, node: ProcessServer) -> dict:
    """The table's log is whole (events 0..n-1) and its finished game (its record, asked of
    ``node``) replays and verifies, with one logged action per action of the game: nothing
    lost, nothing applied twice.  Returns the record."""
    events = logged(db, table)
    assert [e[0] for e in events] == list(range(len(events)))
    acts = [(d["game"], d["seat"], d["action"]) for _, kind, d in events if kind == "act"]
    rec = httpx.get(f"{node.base}/api/tables/{table}/games/1/record", timeout=30).json()
    game = ohhell.Game.from_record(rec)
    assert game.is_over and len(acts) == game.action_count
    return rec


async def drain(*clients: Client, quiet: float = 0.5) -> None:
    """Read every frame already on its way."""
    for c in clients:
        while True:
            try:
                await c.recv(quiet)
            except asyncio.TimeoutError:
                break


async def play_until(c: Client, until: int) -> None:
    """A scripted player: plays its first legal action on each turn until the game has ``until``
    actions (as its frames show)."""
    while c.state["game"] is None or c.state["game"]["n"] < until:
        v = c.view
        if v is not None and v["legal"]:
            n = c.state["game"]["n"]
            await c.send({"type": "act", "action": v["legal"][0]})
            await c.wait(lambda m: m["type"] == "state" and m["game"]["n"] > n)
        else:
            await c.recv(10)


def aligned(a: list[str], b: list[str]) -> tuple[list[str], list[str]]:
    """Both lists from the first state frame both clients received on."""
    def first_both(frames: list[str]) -> int:
        return next(i for i, f in enumerate(frames) if json.loads(f).get("table", {}).get("spectators") == 2)
    return a[first_both(a):], b[first_both(b):]


def test_a_client_of_any_node_gets_the_same_frames_and_answers(pg_database, redis_url):
    owner, gateway = nodes(pg_database, redis_url, 2)
    try:
        t = create(owner, [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "random"},
                           {"kind": "bot", "bot": "random"}], [3, 2, 1])
        tid = t["id"]

        async def run():
            far = Client(gateway.ws_url, tid)       # a spectator served through the other node
            near = Client(owner.ws_url, tid)        # and one at the table's owner
            await far.connect()
            await near.connect()
            ann = Client(owner.ws_url, tid)
            await ann.connect()
            assert (await ann.join(0, "Ann"))["type"] == "joined"
            bob = Client(gateway.ws_url, tid)
            await bob.connect()
            assert (await bob.join(1, "Bob"))["type"] == "joined"
            await bob.wait(lambda m: m["type"] == "state" and m["you"]["seat"] == 1 and m["game"])
            bob_here = Client(owner.ws_url, tid, token=bob.token)   # Bob's seat, at the owner too
            await bob_here.connect()
            assert bob_here.state["you"]["seat"] == 1
            # The same refusals, with the same reasons, through either node.
            for action in (9, "2C", "XX"):   # too high a bid, a card while bidding, not an action
                answers = []
                for c in (bob, bob_here):
                    await c.send({"type": "act", "action": action, "ref": 77})
                    answers.append(await c.wait(lambda m: m["type"] == "error"))
                assert answers[0] == answers[1], answers
            await bob.send({"type": "chat", "text": "hello from the far node"})
            said = await bob.wait(lambda m: m["type"] == "chat")
            # the table's creator, through the other node, removes it: every client is told, at either node
            boss = Client(gateway.ws_url, tid, admin=t["admin"])
            await boss.connect()
            await boss.send({"type": "chat_remove", "id": said["id"]})
            for c in (boss, bob, ann, near, far, bob_here):
                got = await c.wait(lambda m: m["type"] in ("chat_removed", "error"))
                assert got == {"v": 1, "type": "chat_removed", "id": said["id"]}, got
            await boss.close()
            await play_out([ann, bob], lambda c, v: v["legal"][-1], timeout=120)
            await drain(far, near, bob_here, ann, bob)
            a, b = aligned(near.frames, far.frames)
            assert len(a) > 20 and a == b           # the same frames, in the same order
            rec = check_log(pg_database, tid, gateway)
            records = {1: rec}
            secrets_ = [rec["seed"], t["admin"]]
            assert audit_frames(ann.frames, 0, records, secrets_ + [bob.token]) > 10
            assert audit_frames(bob.frames, 1, records, secrets_ + [ann.token]) > 10
            assert audit_frames(far.frames, None, records, secrets_ + [ann.token, bob.token]) > 10
            info = httpx.get(f"{gateway.base}/api/tables/{tid}", timeout=30).json()   # asked of the owner
            assert info["spectators"] == 2 and [s["connected"] for s in info["seats"]] == [True] * 4
            health = [httpx.get(n.base + "/healthz", timeout=30).json()["cluster"] for n in (owner, gateway)]
            assert health[0]["tables_owned"] == 1 and health[0]["remote_clients"] == 2
            assert health[1]["tables_owned"] == 0 and health[1]["gateway_clients"] == 2
            for c in (far, near, ann, bob, bob_here):
                await c.close()
        asyncio.run(run())
    finally:
        stop([owner, gateway])


def test_a_killed_nodes_tables_play_on_at_another_node(pg_database, redis_url):
    servers = nodes(pg_database, redis_url, 3)
    owner, b, c = servers
    try:
        t = create(owner, [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "random"},
                           {"kind": "bot", "bot": "random"}], [4, 3, 2, 1])
        bots = create(owner, [{"kind": "bot", "bot": "random"}] * 3, [5, 4, 3])   # nobody watches this one
        tid = t["id"]

        async def run():
            ann = Client(owner.ws_url, tid)         # at the owner: her socket dies with it
            await ann.connect()
            await ann.join(0, "Ann")
            bob = Client(b.ws_url, tid)             # through node b
            await bob.connect()
            await bob.join(1, "Bob")
            watch = Client(c.ws_url, tid)           # a spectator through node c
            await watch.connect()
            await asyncio.gather(play_until(ann, 8), play_until(bob, 8))
            while True:   # on to Bob's turn
                await drain(ann, bob, quiet=0.3)
                if bob.view["legal"]:
                    break
                if ann.view["legal"]:
                    n = ann.state["game"]["n"]
                    await ann.send({"type": "act", "action": ann.view["legal"][0]})
                    await ann.wait(lambda m: m["type"] == "state" and m["game"]["n"] > n)
            await drain(watch, quiet=0.3)
            seen = watch.state["game"]["n"]
            assert bob.state["game"]["n"] == seen
            before = [e for e in logged(pg_database, tid)]
            owner.kill9()
            killed = time.monotonic()
            # Bob acts at once: his node publishes to an owner that is gone (nobody receives it);
            # it is delivered to the new owner when the table moves, and applied there once.
            action = bob.view["legal"][0]
            await bob.send({"type": "act", "action": action})
            await bob.wait(lambda m: m["type"] == "state" and m["game"]["n"] > seen, timeout=15)
            assert not bob.errors
            acts = [d for _, kind, d in logged(pg_database, tid) if kind == "act"]
            assert acts[seen] == {"game": 1, "seat": 1, "action": action}
            ann2 = Client(c.ws_url, tid, token=ann.token)   # Ann's page reconnects, to another node
            await ann2.connect()
            assert ann2.state["you"]["seat"] == 0
            assert ann2.state["game"]["n"] >= seen + 1  # the table as it was: nothing lost
            back = time.monotonic() - killed
            await play_out([ann2, bob], lambda c_, v: v["legal"][0], timeout=120)
            await drain(watch, quiet=0.5)
            assert watch.view["phase"] == "over"
            rec = check_log(pg_database, tid, b)
            assert logged(pg_database, tid)[:len(before)] == before   # what was logged stays as it was
            ns = [json.loads(f)["game"]["n"] for f in watch.frames if json.loads(f)["type"] == "state"
                  and json.loads(f)["game"]]
            assert ns == sorted(ns)                     # the spectator never saw the game go back
            for x in (ann2, bob, watch):
                await x.close()
            return back, rec
        back, rec = asyncio.run(run())
        assert back < 5.0, f"the table answered again only {back:.1f} s after the kill"
        # The table nobody watched went on too (its bots, at a new owner).
        deadline = time.monotonic() + 60
        while httpx.get(f"{b.base}/api/tables/{bots['id']}", timeout=30).json()["status"] != "over":
            assert time.monotonic() < deadline, "the bots' table did not finish after the takeover"
            time.sleep(0.5)
        check_log(pg_database, bots["id"], c)
        taken = sum(httpx.get(n.base + "/healthz", timeout=30).json()["cluster"]["takeovers"] for n in (b, c))
        assert taken == 2
    finally:
        stop(servers)


def test_a_paused_owner_loses_its_tables_and_cannot_write_when_it_wakes(pg_database, redis_url):
    owner, other = nodes(pg_database, redis_url, 2, "--bot-delay", "0.3")
    try:
        t = create(owner, [{"kind": "open"}] + [{"kind": "bot", "bot": "random"}] * 3, [3, 2, 1])
        tid = t["id"]

        async def run():
            bob = Client(other.ws_url, tid)   # served through the other node
            await bob.connect()
            await bob.join(0, "Bob")
            await play_until(bob, 6)
            while not bob.view["legal"]:
                await bob.recv(10)
            n = bob.state["game"]["n"]
            os.kill(owner.proc.pid, signal.SIGSTOP)   # its Redis socket stays open: only its lease can run out
            paused = time.monotonic()
            # Bob acts: the frozen owner's Redis connection receives it, but it is never handled
            # there; when the table moves, his node sends it to the new owner, which applies it.
            action = bob.view["legal"][0]
            await bob.send({"type": "act", "action": action})
            # (his action applied there: the next turn may be his again, when it ends a trick he wins)
            await bob.wait(lambda m: m["type"] == "state" and m["game"]["n"] > n, timeout=30)
            taken = time.monotonic() - paused
            os.kill(owner.proc.pid, signal.SIGCONT)   # it wakes up, believing it owns the table,
            # with Bob's action still to handle: its write is refused, and nothing it says reaches Bob
            while bob.view["phase"] != "over":
                if bob.view["legal"]:
                    m = bob.state["game"]["n"]
                    await bob.send({"type": "act", "action": bob.view["legal"][0]})
                    await bob.wait(lambda f: f["type"] == "state" and f["game"]["n"] > m, timeout=30)
                else:
                    await bob.recv(30)
            assert not bob.errors, bob.errors
            await bob.close()
            acts = [d for _, kind, d in logged(pg_database, tid) if kind == "act"]
            assert acts[n] == {"game": 1, "seat": 0, "action": action}
            return taken
        taken = asyncio.run(run())
        assert taken < 6.0, f"the other node took the table {taken:.1f} s after the owner paused"
        check_log(pg_database, tid, other)
        deadline = time.monotonic() + 20
        while "lease lapsed" not in owner.output():
            assert time.monotonic() < deadline, owner.output()
            time.sleep(0.2)
        health = httpx.get(owner.base + "/healthz", timeout=30).json()["cluster"]
        assert health["lapses"] == 1 and health["tables_owned"] == 0 and health["nodes_live"] == 2
    finally:
        stop([owner, other])


def serve(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ohhell.cli", "serve", "--port", str(free_port()), *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def serve_all(argss: list[tuple]) -> list[tuple[int, str, str]]:
    """Several ``ohhell serve`` that should stop at once, side by side: (status, stdout, stderr) each."""
    ports = free_ports(len(argss))
    procs = [subprocess.Popen([sys.executable, "-m", "ohhell.cli", "serve", "--port", str(port), *args],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
             for port, args in zip(ports, argss)]
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=90)
        out.append((p.returncode, stdout, stderr))
    return out


def test_single_servers_and_cluster_nodes_do_not_mix_and_bad_options_are_refused(pg_database, redis_url,
                                                                                   tmp_path):
    node = nodes(pg_database, redis_url, 1)
    try:
        r = serve("--db", pg_database)                     # a single server beside a cluster node
        assert r.returncode == 1 and "another ohhell server" in r.stderr
    finally:
        stop(node)
    single = ProcessServer(pg_database).start()
    try:
        r = serve("--db", pg_database, "--redis", redis_url)   # a cluster node beside a single server
        assert r.returncode == 1 and "single-node ohhell server" in r.stderr
    finally:
        single.stop()
    cases = (
        (("--db", str(tmp_path / "t.sqlite3"), "--redis", redis_url), 2, "PostgreSQL database"),
        (("--redis", redis_url), 2, "PostgreSQL database"),
        (("--db", pg_database, "--redis", "http://127.0.0.1:1"), 2, "--redis takes a redis://"),
        (("--db", pg_database, "--redis", f"redis://127.0.0.1:{free_port()}"), 1, "cannot reach Redis"),
        (("--db", pg_database, "--redis", "redis://:secret@127.0.0.1:1/0"), 1, "cannot reach Redis"),
        (("--db", "postgresql://nobody@127.0.0.1:1/none", "--redis", redis_url), 1, "cannot connect"))
    for (args, status, says), (code, stdout, stderr) in zip(cases, serve_all([c[0] for c in cases])):
        assert code == status and says in stderr, (args, stderr)
        assert "Traceback" not in stderr + stdout and "secret" not in stderr + stdout
