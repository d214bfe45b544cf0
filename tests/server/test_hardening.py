"""Issue 18: what a hostile client could do to the server, each attack reproduced first."""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
import subprocess
import sys
import time

import httpx
import pytest
import websockets

from ohhell import bots
from ohhell.server import create_app
from ohhell.server.botpool import BotPool
from ohhell.server.storage import SqliteStore, open_store
from ohhell.server.config import parse_table_config
from ohhell.server.manager import TableManager
from serverkit import ROOT, Client, ThreadServer, free_port, play_out

RULES = {"players": 3, "hand_sizes": [1]}


def first_legal(client, view):
    return view["legal"][0]


# --- High: request bodies ---------------------------------------------------------------------

async def _asgi_post(app, chunks, *, delay_after: "int | None" = None):
    """POST /api/tables to the ASGI app with a chunked body (no declared length); returns the
    status and how many body bytes the app asked for."""
    sent = {"bytes": 0, "i": 0}
    status = {}

    async def receive():
        i = sent["i"]
        if delay_after is not None and i >= delay_after:
            await asyncio.sleep(3600)   # a client that stops sending
        if i >= len(chunks):
            return {"type": "http.request", "body": b"", "more_body": False}
        sent["i"] += 1
        sent["bytes"] += len(chunks[i])
        return {"type": "http.request", "body": chunks[i], "more_body": True}

    async def send(message):
        if message["type"] == "http.response.start":
            status["code"] = message["status"]

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/api/tables", "raw_path": b"/api/tables", "query_string": b"",
             "root_path": "", "headers": [(b"host", b"test"), (b"transfer-encoding", b"chunked"),
                                           (b"content-type", b"application/json")],
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 80)}
    await asyncio.wait_for(app(scope, receive, send), 10)
    return status["code"], sent["bytes"]


def test_a_streamed_body_over_the_limit_is_not_read_to_its_end():
    app = create_app(":memory:", bot_pool="thread", create_limit=None)
    chunks = [b" " * 1024] * 4096   # 4 MiB, declared by no Content-Length
    code, read = asyncio.run(_asgi_post(app, chunks))
    assert code == 413
    assert read <= 16 * 1024 + 1024, f"the server read {read} bytes of a body over the limit"


def test_a_body_that_stops_coming_is_answered_408():
    app = create_app(":memory:", bot_pool="thread", create_limit=None, body_timeout=0.3)
    start = time.monotonic()
    code, _ = asyncio.run(_asgi_post(app, [b'{"rules": '], delay_after=1))
    assert code == 408 and time.monotonic() - start < 5


# --- High: bots shared fairly -----------------------------------------------------------------

class _SlowBot:
    """A test bot: thinks ``pause`` seconds, notes the budget it got, plays the first legal action."""

    budgets: list = []
    pause = 0.05

    def __init__(self, seed=None, **options):
        self.seed = seed

    def act(self, view, budget=None):
        _SlowBot.budgets.append((self.seed, budget))
        time.sleep(_SlowBot.pause)
        return view.legal_actions()[0]


@pytest.fixture
def slow_bot():
    bots.register("slowtest", _SlowBot)
    _SlowBot.budgets = []
    _SlowBot.pause = 0.05
    try:
        yield "slowtest"
    finally:
        bots._REGISTRY.pop("slowtest", None)


def _a_view():
    from ohhell import Game, Rules
    g = Game(Rules(3, hand_sizes=[2]), seed=1)
    return g.view(g.to_act)


def test_one_creator_flooding_the_bots_does_not_delay_another(slow_bot):
    """Creator A has 20 tables' bot moves queued on one worker; creator B's one move is
    served next, not after A's twenty."""
    pool = BotPool("thread", 1)
    view = _a_view()
    done: list[str] = []

    async def one(creator, table):
        await pool.decide(slow_bot, "s", view, creator=creator, table=table)
        done.append(creator)

    async def main():
        flood = [asyncio.create_task(one("A", f"a{i}")) for i in range(20)]
        await asyncio.sleep(0.01)
        other = asyncio.create_task(one("B", "b0"))
        await asyncio.gather(*flood, other)
    try:
        asyncio.run(main())
    finally:
        pool.close()
    assert done.index("B") <= 2, done


def test_a_flooding_creator_gets_smaller_budgets_not_the_others(slow_bot):
    pool = BotPool("thread", 2, full_seconds=1.0)
    view = _a_view()

    async def main():
        await pool.decide(slow_bot, "B", view, creator="B", table="b")
        flood = [asyncio.create_task(pool.decide(slow_bot, "A", view, creator="A", table=f"a{i}"))
                 for i in range(12)]
        await asyncio.sleep(0.12)
        await pool.decide(slow_bot, "B", view, creator="B", table="b")   # while A floods
        await asyncio.gather(*flood)
    try:
        asyncio.run(main())
    finally:
        pool.close()
    (_, first), rest = _SlowBot.budgets[0], _SlowBot.budgets[1:]
    assert first.seconds == 1.0                      # nobody else waiting: the full budget
    flood = [b.seconds for who, b in rest if who == "A"]
    other = [b.seconds for who, b in rest if who == "B"]
    assert min(flood) < 0.2 and all(x >= pool.min_seconds for x in flood)   # the flood thinks less
    assert other == [1.0], other                     # the other creator keeps its budget
    assert pool.degraded > 0


def test_a_bot_takes_the_same_time_whatever_it_holds(slow_bot):
    """A bot's move is released bot_delay after its turn began, not bot_delay plus its
    thinking time (which tells a spectator when it had a forced move)."""
    _SlowBot.pause = 0.6
    with ThreadServer(bot_delay=1.0) as srv:
        t = srv.create({"players": 3, "hand_sizes": [2]},
                       [{"kind": "open"}, {"kind": "bot", "bot": slow_bot}, {"kind": "bot", "bot": slow_bot}])

        async def main():
            async with Client(srv.ws_url, t["id"]) as c:
                await c.join(0, "Ann")
                stamps = []
                while True:
                    msg = await c.recv(20)
                    if msg["type"] != "state" or not msg["game"]:
                        continue
                    stamps.append((time.monotonic(), msg["game"]["n"], msg["game"]["view"]))
                    v = msg["game"]["view"]
                    if v["phase"] == "over":
                        return stamps
                    if v["legal"]:
                        await c.send({"type": "act", "action": v["legal"][0]})
        stamps = asyncio.run(main())
    gaps = []
    for (t0, n0, v0), (t1, n1, _) in zip(stamps, stamps[1:]):
        if n1 == n0 + 1 and v0["to_act"] not in (0, None) and not v0["legal"]:
            trick_done = not v0["trick"]["cards"] and n0 > 0 and v0["phase"] != "bid"
            gaps.append(t1 - t0 - (1.5 if trick_done else 0.0))
    assert gaps, stamps
    assert max(gaps) < 1.45, f"bot moves took {gaps}: the thinking time shows"
    assert min(gaps) > 0.9


# --- Medium: who is the client; how many tables --------------------------------------------------

def test_forwarded_for_counts_only_from_a_trusted_proxy():
    xff = lambda ip: {"x-forwarded-for": ip}  # noqa: E731
    with ThreadServer(create_limit=2) as srv:
        codes = [httpx.post(srv.base + "/api/tables", json={"rules": RULES}, headers=xff(f"10.0.0.{i}")).status_code
                 for i in range(4)]
        assert codes == [201, 201, 429, 429], "a forged X-Forwarded-For escaped the limit"
    with ThreadServer(create_limit=2, uvicorn={"trusted_proxies": ["127.0.0.1"]}) as srv:
        codes = [httpx.post(srv.base + "/api/tables", json={"rules": RULES}, headers=xff(f"10.0.0.{i}")).status_code
                 for i in range(4)]
        assert codes == [201] * 4   # behind a configured proxy, each client has its own limit


def test_one_address_may_hold_only_so_many_tables_that_never_start():
    with ThreadServer(max_open_per_creator=3) as srv:
        made = [httpx.post(srv.base + "/api/tables", json={"rules": RULES}) for _ in range(4)]
        assert [r.status_code for r in made] == [201, 201, 201, 429]
        assert made[3].json()["error"] == "too_many_tables"

        async def start(t):   # the creator fills the table with bots: its game starts
            async with Client(srv.ws_url, t["id"], admin=t["admin"]) as c:
                await c.send({"type": "fill_bots", "bot": "random"})
                await c.wait(lambda m: m["type"] == "state" and m["game"] is not None)
        asyncio.run(start(made[0].json()))
        assert httpx.post(srv.base + "/api/tables", json={"rules": RULES}).status_code == 201


def _manager(db, **options):
    store = open_store(db)
    return store, TableManager(store, BotPool("thread", 1), bot_delay=0.0, **options)


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request, tmp_path):
    """A fresh database of each back end (their SQL differs)."""
    if request.param == "sqlite":
        return str(tmp_path / "t.sqlite3")
    return request.getfixturevalue("pg_database")


def test_tables_that_never_start_are_removed_and_stay_removed(any_db):
    db = any_db

    async def first():
        store, m = _manager(db, unstarted_ttl=0.2)
        await store.open()
        await m.start()
        idle, _, _ = await m.create(parse_table_config({"rules": RULES}), "c")
        bots_only = {"rules": RULES, "seats": [{"kind": "bot", "bot": "random"}] * 3}
        played, _, _ = await m.create(parse_table_config(bots_only), "c")
        while played.status != "over":
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)
        await m.sweep()
        assert await store.load(idle.id) == [] and idle.id not in m.tables
        assert await store.load(played.id) != []
        listed = [r["id"] for r in (await m.list_tables())["tables"]]
        assert listed == [played.id]
        assert m.unstarted == {}
        await m.stop()
        await store.close()
        return played.id

    async def restart(played_id):
        store, m = _manager(db, unstarted_ttl=0.2)
        await store.open()
        # a table made and abandoned before the restart goes at the start
        await store.append("oldtable1234", 0, "create", {**parse_table_config({"rules": RULES}),
                                                          "admin": "x", "creator": "c"})
        await asyncio.sleep(0.3)
        await m.start()
        assert await store.load("oldtable1234") == []
        assert await m.get(played_id) is not None
        await m.stop()
        await store.close()
    played_id = asyncio.run(first())
    asyncio.run(restart(played_id))


def test_the_lobby_lists_tables_with_people_first_and_empty_ones_only_for_a_while(any_db):
    with ThreadServer(any_db) as srv:
        empty = srv.create(RULES, [{"kind": "open"}] * 3)
        waiting = srv.create(RULES, [{"kind": "open"}] * 3)

        async def sit():
            c = Client(srv.ws_url, waiting["id"])
            await c.connect()
            await c.join(0, "Ann")
            return c
        client = asyncio.run(sit())
        newer = srv.create(RULES, [{"kind": "open"}] * 3)
        ids = [t["id"] for t in httpx.get(srv.base + "/api/tables").json()["tables"]]
        assert ids == [waiting["id"], newer["id"], empty["id"]]   # someone waits there: first
        srv.manager.EMPTY_LISTED = 0.0
        srv.manager.listing_changed()
        time.sleep(1.1)   # past the lobby's cache
        ids = [t["id"] for t in httpx.get(srv.base + "/api/tables").json()["tables"]]
        assert ids == [waiting["id"]]
        del client


def test_lobby_queries_do_not_hold_up_the_event_loop(tmp_path, monkeypatch):
    class Reader(sqlite3.Connection):
        def execute(self, sql, *args):
            if "FROM ohhell_tables WHERE" in sql:
                time.sleep(0.3)
            return super().execute(sql, *args)

    real_connect = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: real_connect(*a, factory=Reader, **k))
    store = SqliteStore(str(tmp_path / "u.sqlite3"))
    with ThreadServer(store=store) as srv:
        t = srv.create(RULES, [{"kind": "open"}] * 3)

        async def main():
            async with Client(srv.ws_url, t["id"]) as c:
                async def lobby(i):
                    async with httpx.AsyncClient() as h:
                        await h.get(srv.base + f"/api/tables?limit={i + 1}")
                crowd = asyncio.gather(*(lobby(i) for i in range(6)))
                await asyncio.sleep(0.05)
                pings = []
                for _ in range(5):
                    start = time.monotonic()
                    await c.send({"type": "ping", "ref": 1})
                    await c.wait(lambda m: m["type"] == "pong")
                    pings.append(time.monotonic() - start)
                await crowd
                return pings
        pings = asyncio.run(main())
    assert max(pings) < 0.25, f"a ping waited {max(pings):.2f}s behind lobby queries"


def test_a_schedule_has_a_bounded_number_of_hands():
    with ThreadServer() as srv:
        r = httpx.post(srv.base + "/api/tables", json={"rules": {"players": 3, "hand_sizes": [1] * 8000}})
        assert r.status_code == 400 and "at most 60" in r.json()["message"]
        r = httpx.post(srv.base + "/api/tables", json={"rules": {"players": 3, "hand_sizes": [1] * 60}})
        assert r.status_code == 201


def test_state_frames_do_not_carry_every_past_trick():
    """A state frame is rebuilt for every move: its size must not grow with every card of the
    game so far.  Finished hands keep their scores and the last trick shown, not their cards."""
    from ohhell import Game, Rules
    from ohhell.server.protocol import encode
    from ohhell.server.tables import trim_history
    sizes = []
    for hand_sizes in ([1] * 60, [15] * 60):   # the same number of hands, 15 times the cards
        g = Game(Rules(3, hand_sizes=hand_sizes), seed=1)
        while not g.is_over:
            g.apply(g.legal_actions()[0], seat=g.seats_to_act[0])
        full = g.view(0).to_dict()
        trimmed = trim_history(json.loads(json.dumps(full)))
        last = full["past_hands"][-1]["tricks"][-1]
        assert trimmed["past_hands"][-1]["tricks"] == [last]
        assert [(h["bids"], h["tricks_won"], h["scores"]) for h in trimmed["past_hands"]] == \
            [(h["bids"], h["tricks_won"], h["scores"]) for h in full["past_hands"]]
        sizes.append(len(encode(trimmed)))
    assert sizes[1] < 1.2 * sizes[0] and sizes[1] < 10_000, sizes


# --- Medium: slowloris -------------------------------------------------------------------------

def _closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
    except socket.timeout:
        return False
    except ConnectionResetError:
        return True


def test_half_open_requests_are_closed_after_the_header_timeout():
    with ThreadServer(uvicorn={"header_timeout": 0.5}) as srv:
        silent = socket.create_connection(("127.0.0.1", srv.port))
        dribble = socket.create_connection(("127.0.0.1", srv.port))
        dribble.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")   # and never the blank line
        start = time.monotonic()
        assert _closed_within(silent, 5) and _closed_within(dribble, 5)
        assert time.monotonic() - start < 4

        async def main():   # a websocket is not a half-open request: it stays
            t = srv.create(RULES, [{"kind": "open"}] * 3)
            async with Client(srv.ws_url, t["id"]) as c:
                await asyncio.sleep(1.2)
                await c.send({"type": "ping", "ref": 2})
                await c.wait(lambda m: m["type"] == "pong", timeout=5)
        asyncio.run(main())
        assert httpx.get(srv.base + "/healthz").status_code == 200


def test_one_address_cannot_hold_many_half_open_requests():
    with ThreadServer(uvicorn={"header_timeout": 30, "max_half_open": 8}) as srv:
        attack = [socket.create_connection(("127.0.0.1", srv.port)) for _ in range(12)]
        try:
            for s in attack:
                s.sendall(b"GET / HTTP/1.1\r\n")
            closed = sum(_closed_within(s, 0.5) for s in attack)
            assert closed == 4, f"{closed} of 12 half-open connections closed; the limit is 8"
            # another address is served meanwhile (the loopback network answers on 127.0.0.2 too)
            other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"))
            assert other.get(srv.base + "/healthz").status_code == 200
            other.close()
        finally:
            for s in attack:
                s.close()
        time.sleep(0.3)
        assert httpx.get(srv.base + "/healthz").status_code == 200   # and the address again, once they are gone

        async def many_sockets():   # websockets do not count as half-open once upgraded
            t = srv.create(RULES, [{"kind": "open"}] * 3)
            clients = [Client(srv.ws_url, t["id"]) for _ in range(12)]
            for c in clients:
                await c.connect()
            for c in clients:
                await c.close()
        asyncio.run(many_sockets())


# --- Low: clear answers to strange input ---------------------------------------------------------

def test_strange_input_gets_a_clear_4xx():
    with ThreadServer() as srv:
        r = httpx.post(srv.base + "/api/tables", content=b'{"rules": {"players": 3}, "title": "x\\ud800y"}')
        assert r.status_code == 201
        info = httpx.get(f"{srv.base}/api/tables/{r.json()['id']}").json()
        assert info["title"] == "xy"
        for q in ("offset=99999999999999999999", "offset=" + "9" * 5000, "limit=" + "9" * 5000, "offset=-1"):
            r = httpx.get(srv.base + "/api/tables?" + q)
            assert r.status_code == 400 and r.json()["error"] == "bad_query", q
        for bad in ("%ED%A0%80", "..%2F..", "x" * 300, "a b"):
            r = httpx.get(f"{srv.base}/api/tables/{bad}")
            assert r.status_code == 404, bad
        r = httpx.get(f"{srv.base}/api/tables/abc/games/{'9' * 5000}/record")
        assert r.status_code == 404

        async def hello():
            async with websockets.connect(srv.ws_url) as ws:
                await ws.send('{"v": 1, "type": "hello", "table": "\\ud800"}')
                return json.loads(await asyncio.wait_for(ws.recv(), 10))
        msg = asyncio.run(hello())
        assert msg["type"] == "error" and msg["code"] == "no_table"


def test_titles_lose_bidi_overrides_and_control_characters():
    with ThreadServer() as srv:
        t = srv.create(RULES, [{"kind": "open"}] * 3, title="\u202eevil\u202c \x1b[31mred\x07 \u2066x\u2069")
        info = httpx.get(f"{srv.base}/api/tables/{t['id']}").json()
        assert info["title"] == "evil [31mred x"


def test_a_reserved_seat_stays_reserved_when_its_holder_leaves_between_games():
    with ThreadServer() as srv:
        r = httpx.post(srv.base + "/api/tables", json={"rules": RULES, "seats": [
            {"kind": "reserved"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]})
        t = r.json()
        code = t["invites"]["0"].split("code=")[1]

        async def main():
            async with Client(srv.ws_url, t["id"]) as ann, Client(srv.ws_url, t["id"]) as eve:
                assert (await ann.join(0, "Ann", code))["type"] == "joined"
                await play_out([ann], first_legal)
                await ann.send({"type": "leave"})
                await ann.wait(lambda m: m["type"] == "state" and m["table"]["seats"][0]["kind"] != "human")
                assert ann.state["table"]["seats"][0]["kind"] == "reserved"
                refused = await eve.join(0, "Eve")
                assert refused["type"] == "error" and refused["code"] == "reserved"
                assert (await ann.join(0, "Ann", code))["type"] == "joined"
        asyncio.run(main())


def test_websockets_from_other_origins_are_refused():
    with ThreadServer(allowed_origins=["https://cards.example.org"]) as srv:
        t = srv.create(RULES, [{"kind": "open"}] * 3)

        async def main():
            with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
                await websockets.connect(srv.ws_url, origin="https://evil.example")
            assert refused.value.response.status_code == 403
            for origin in (srv.base, "https://cards.example.org", None):
                async with websockets.connect(srv.ws_url, origin=origin) as ws:
                    await ws.send(json.dumps({"v": 1, "type": "hello", "table": t["id"]}))
                    assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "state"
        asyncio.run(main())


# --- Low: damaged data -------------------------------------------------------------------------

def test_a_damaged_table_is_left_out_and_everything_else_works(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    with ThreadServer(db) as srv:
        good = srv.create(RULES, [{"kind": "open"}] * 3, title="good")
        bad = srv.create(RULES, [{"kind": "open"}] * 3, title="bad")
        other = srv.create(RULES, [{"kind": "open"}] * 3, title="row")
    con = sqlite3.connect(db)
    con.execute("UPDATE ohhell_events SET data='{\"title\": ' WHERE table_id=?", (bad["id"],))
    con.execute("INSERT INTO ohhell_tables SELECT 'orphan', updated, status, open_seats, '[not a row' "
                "FROM ohhell_tables WHERE table_id=?", (other["id"],))
    con.commit()
    con.close()
    with ThreadServer(db) as srv:
        assert srv.manager.tables.keys() >= {good["id"]}
        for _ in range(2):   # the same clear answer every time, not a 500
            r = httpx.get(f"{srv.base}/api/tables/{bad['id']}")
            assert r.status_code == 503 and r.json()["error"] == "damaged"
        assert httpx.get(f"{srv.base}/api/tables/{good['id']}").status_code == 200
        r = httpx.get(srv.base + "/api/tables")
        listed = [x["id"] for x in r.json()["tables"]]
        assert r.status_code == 200 and "orphan" not in listed and {good["id"], other["id"]} <= set(listed)
        assert httpx.post(srv.base + "/api/tables", json={"rules": RULES}).status_code == 201


@pytest.mark.parametrize("damage", ["garbage", "schema"])
def test_a_damaged_database_is_a_clear_message_not_a_traceback(tmp_path, damage):
    db = tmp_path / "t.sqlite3"
    if damage == "garbage":
        db.write_bytes(b"this is not a database" * 500)
        expect = "cannot use the database"
    else:
        con = sqlite3.connect(db)
        con.execute("CREATE TABLE ohhell_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        con.execute("INSERT INTO ohhell_meta VALUES ('schema', '99')")
        con.commit()
        con.close()
        expect = "schema version 99"
    p = subprocess.run([sys.executable, "-m", "ohhell.cli", "serve", "--port", str(free_port()), "--db", str(db)],
                       capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert p.returncode == 1
    assert expect in p.stderr and "Traceback" not in p.stderr + p.stdout, p.stderr


def test_serve_checks_its_new_options(capsys):
    from ohhell.cli import main
    for flag, value in (("--header-timeout", "0"), ("--max-open-tables", "0"), ("--unstarted-expiry", "-1"),
                        ("--bot-seconds", "0")):
        assert main(["serve", flag, value]) == 2
        assert f"{flag} must be at least" in capsys.readouterr().err


def test_bots_for_measuring_only_are_not_offered_to_tables():
    # pimc, with no time budget, can think for a minute a move: no seat at a shared server gets it
    from ohhell.server.botpool import bot_names
    from ohhell.server.config import TableError, parse_table_config
    assert "pimc" in bots.names() and "pimc" not in bot_names()
    assert "expert" in bot_names() and "expert-2026.11" in bot_names()
    with pytest.raises(TableError) as e:
        parse_table_config({"rules": {"players": 3}, "seats": [{"kind": "bot", "bot": "pimc"}] + [{"kind": "open"}] * 2})
    assert "pimc" in str(e.value)


def test_open_websockets_are_capped_per_address():
    """One address may hold only so many websockets at once: the next handshake is refused
    with HTTP 429 and a reason, the open ones keep working, and a closed one frees a place."""
    async def scenario(srv):
        held = [await websockets.connect(srv.ws_url) for _ in range(3)]
        try:
            with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
                await websockets.connect(srv.ws_url)
            assert refused.value.response.status_code == 429
            assert json.loads(refused.value.response.body)["error"] == "too_many_sockets"
            # the open ones still answer
            await held[0].send(json.dumps({"v": 1, "type": "ping", "ref": 7}))
            pong = json.loads(await asyncio.wait_for(held[0].recv(), 10))
            assert pong["type"] == "pong"
            await held.pop().close()
            for _ in range(100):   # the server counts the close once its handler has ended
                try:
                    held.append(await websockets.connect(srv.ws_url))
                    break
                except websockets.exceptions.InvalidStatus:
                    await asyncio.sleep(0.05)
            assert len(held) == 3
        finally:
            for ws in held:
                await ws.close()

    with ThreadServer(max_sockets_per_address=3) as srv:
        asyncio.run(scenario(srv))


def test_serve_refuses_a_negative_socket_cap():
    r = subprocess.run([sys.executable, "-m", "ohhell.cli", "serve", "--max-sockets-per-address", "-1"],
                       capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 2
    assert "--max-sockets-per-address must be at least 0" in r.stderr and "Traceback" not in r.stderr
