"""Duplicate events (docs/events.md), on SQLite and PostgreSQL: an event of 3 tables x 4 seats
(a signed-in person, a guest, a bot account and the server's bots) played to the end through
the API and the websockets; its results worked out again here from the stored logs (replayed
with ``ohhell.game.Game``, matchpoints by this file's own code) must equal the server's; every
table got the same deals and the commitments verify against the revealed seed; nothing of a
game in progress (no card, no seed, no record) is shown while the event runs; bad requests are
refused and change nothing; the results survive a restart.  And Hypothesis properties of the
matchpoints (ohhell.duplicate).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time

import httpx
import pytest
from hypothesis import given, settings, strategies as st

from ohhell import dealing, duplicate
from ohhell.actions import parse_action
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server.storage import SCHEMA_VERSION, open_store
from ohhell.server.tables import token_hash

from serverkit import CARD_RE, Client, ThreadServer, play_out, strings_in
from test_accounts import AccountClient, csrf, post, set_cookies, signup
from test_bot_api import TokenClient, new_token

HAND_SIZES = [1, 2]


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "events.sqlite3")
    return request.getfixturevalue("pg_database")


def browser_client(srv) -> httpx.Client:
    return httpx.Client(base_url=srv.base, timeout=30)


def new_event(c: httpx.Client, **over) -> httpx.Response:
    body = {"title": "Club night", "tables": 3, "rules": {"players": 4}, "hand_sizes": HAND_SIZES,
            "bot": "heuristic", "away": None, **over}
    return post(c, "/api/events", body, csrf(c))


def card_strings(obj) -> list[str]:
    return [s for s in strings_in(obj) if CARD_RE.match(s)]


def wait_for(predicate, timeout: float = 60.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while True:
        got = predicate()
        if got:
            return got
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout:g} s for {what}")
        time.sleep(0.1)


# --- the test's own replay and matchpoints (independent of the server's code) ----------------------

def stored_logs(db: str, table_ids: list[str]) -> list[list]:
    async def go():
        store = open_store(db)
        await store.open()
        try:
            return [await store.load(t) for t in table_ids]
        finally:
            await store.close()
    return asyncio.run(go())


def replay(events) -> Game:
    rules = game = None
    for e in events:
        if e.kind == "create":
            rules = Rules.from_dict(e.data["rules"])
        elif e.kind == "start":
            game = Game(rules, seed=e.data["seed"], names=e.data["names"])
        elif e.kind == "act":
            game.apply(parse_action(e.data["action"]), e.data["seat"])
    return game


def my_matchpoints(scores):
    """scores[t][h][s] -> mp[t][h][s]: 1 per other table beaten at the same seat, 1/2 per tie."""
    n = len(scores)
    return [[[sum((scores[t][h][s] > scores[u][h][s]) + 0.5 * (scores[t][h][s] == scores[u][h][s])
                  for u in range(n) if u != t)
              for s in range(len(scores[t][h]))] for h in range(len(scores[t]))] for t in range(n)]


# --- the check --------------------------------------------------------------------------------

def test_a_duplicate_event_runs_to_the_end_and_its_results_recompute_from_the_logs(db):
    with ThreadServer(db) as srv, browser_client(srv) as org, browser_client(srv) as ann, \
            browser_client(srv) as guest, browser_client(srv) as robo, browser_client(srv) as other:
        signup(org, "organiser")
        signup(ann, "ann")
        signup(other, "nosy")
        r = post(robo, "/api/account/signup", {"username": "robo", "password": "correct horse battery",
                                                "bot": True}, csrf(robo))
        assert r.status_code == 201, r.text
        api_token = new_token(robo)["token"]

        # bad input: a clear 400 and nothing stored
        for bad, words in [({"tables": 1}, "tables must be"), ({"tables": "3"}, "tables must be"),
                           ({"rules": {"players": 9}}, "rules:"), ({"hand_sizes": [0]}, "rules:"),
                           ({"hand_sizes": [1] * 61}, "at most"), ({"bot": "nobody"}, "unknown bot"),
                           ({"rules": []}, "rules must be")]:
            r = new_event(org, **bad)
            assert r.status_code == 400 and r.json()["error"] == "bad_config", (bad, r.text)
            assert words in r.json()["message"], (bad, r.json())
        assert post(guest, "/api/events", {"tables": 3}, csrf(guest)).status_code == 401   # signed out
        assert post(org, "/api/events", {"tables": 3}).json()["error"] == "csrf"           # no CSRF token
        assert org.get("/api/events").json()["events"] == []

        r = new_event(org)
        assert r.status_code == 201, r.text
        eid = r.json()["id"]
        ev = org.get(f"/api/events/{eid}").json()
        assert ev["status"] == "open" and ev["seed"] is None and len(ev["commitments"]) == 2
        assert ev["you"]["organiser"] and not other.get(f"/api/events/{eid}").json()["you"]["organiser"]
        assert [e["id"] for e in org.get("/api/events").json()["events"]] == [eid]

        # seats: a person and a guest at table 1, a bot account at table 2; table 3 is all bots
        assert post(ann, f"/api/events/{eid}/join", {"table": 0, "seat": 0}, csrf(ann)).status_code == 201
        r = post(guest, f"/api/events/{eid}/join", {"table": 0, "seat": 2, "name": "Gus"}, csrf(guest))
        assert r.status_code == 201, r.text
        guest_token = r.json()["token"]
        r = httpx.post(f"{srv.base}/api/events/{eid}/join", json={"table": 1, "seat": 2},   # a program: no cookie
                       headers={"authorization": f"Bearer {api_token}"})
        assert r.status_code == 201 and r.json()["name"] == "robo", r.text
        shown = org.get(f"/api/events/{eid}").text + org.get("/api/events").text
        assert guest_token not in shown and token_hash(guest_token) not in shown and api_token not in shown
        before = org.get(f"/api/events/{eid}").json()["seats"]
        # refused, nothing changes: a full seat, a second seat for one account, a bad seat, no CSRF
        for c, body, code in [(other, {"table": 0, "seat": 0}, "seat_taken"), (ann, {"table": 2, "seat": 0}, "already_entered"),
                              (other, {"table": 3, "seat": 0}, "bad_seat"), (other, {"table": 0, "seat": -1}, "bad_seat"),
                              (guest, {"table": 2, "seat": 1, "name": ""}, "bad_name")]:
            r = post(c, f"/api/events/{eid}/join", body, csrf(c))
            assert r.json()["error"] == code, (body, r.text)
        assert post(other, f"/api/events/{eid}/join", {"table": 2, "seat": 0}).json()["error"] == "csrf"
        # a non-organiser may not start it
        r = post(other, f"/api/events/{eid}/start", {}, csrf(other))
        assert r.status_code == 403 and r.json()["error"] == "not_organiser"
        assert org.get(f"/api/events/{eid}").json()["seats"] == before
        assert org.get(f"/api/events/{eid}").json()["status"] == "open"

        r = post(org, f"/api/events/{eid}/start", {}, csrf(org))
        assert r.status_code == 200, r.text
        r = post(org, f"/api/events/{eid}/start", {}, csrf(org))
        assert r.status_code == 409 and r.json()["error"] == "not_open"
        assert post(other, f"/api/events/{eid}/join", {"table": 2, "seat": 0}, csrf(other)).json()["error"] == "not_open"
        ev = org.get(f"/api/events/{eid}").json()
        ids = [t["id"] for t in ev["live"]]
        assert ev["status"] == "playing" and len(ids) == 3 and ev["seed"] is None

        # the all-bot table finishes while the others wait for their people: nothing of it shows
        manager = srv.manager
        wait_for(lambda: manager.tables.get(ids[2]) and manager.tables[ids[2]].status == "over", what="table 3")
        ev = other.get(f"/api/events/{eid}").json()
        assert card_strings(ev) == [] and ev["seed"] is None and ev["results"]["hands_done"] == 0
        r = other.get(f"/api/tables/{ids[2]}/games/1/record")
        assert r.status_code == 409 and r.json()["error"] == "event_running"
        info = other.get(f"/api/tables/{ids[2]}").json()
        assert info["private"] and info["event"] == {"id": eid, "table": 2}

        async def play():
            clients = [AccountClient(srv, ids[0], ann.cookies), Client(srv.ws_url, ids[0], guest_token),
                       TokenClient(srv, ids[1], api_token)]
            for c in clients:
                await c.connect()
            assert [c.state["you"]["seat"] for c in clients] == [0, 2, 2]
            watcher = Client(srv.ws_url, ids[2])
            await watcher.connect()   # a spectator of the finished table: no seed, no record yet
            assert "seed" not in watcher.state["game"] and "record" not in watcher.state["game"]
            await watcher.close()
            def choose(c, v):   # before each move, what the event shows of the games in progress
                r = other.get(f"/api/events/{eid}")
                seen = r.json()
                texts.append(r.text)
                snapshots.append((seen["results"]["hands_done"], seen["revealed"], card_strings(seen), seen["seed"]))
                return v["legal"][-1]
            await play_out(clients, choose, timeout=120)
            for c in clients:
                await c.close()
        snapshots: list = []
        texts: list[str] = []
        asyncio.run(play())
        # while a game was in progress: no card, no seed; a hand's results once every table finished it
        assert snapshots and all(cards == [] and seed is None and not revealed
                                 for _, revealed, cards, seed in snapshots)
        assert {done for done, *_ in snapshots} == {0, 1}

        ev = wait_for(lambda: (e := other.get(f"/api/events/{eid}").json())["revealed"] and e, what="the reveal")
        assert ev["status"] == "over" and ev["seed"]
        assert not any(ev["seed"] in text for text in texts)   # the seed was never shown before the end
        assert card_strings(ev["results"]["hands"]) != []   # the deals, now
        served = ev["results"]
        assert other.get(f"/api/tables/{ids[2]}/games/1/record").status_code == 200
        rec = other.get(f"/api/tables/{ids[1]}/games/1/record").json()
        assert rec["account_bots"] == [2] and "account_bots" not in other.get(f"/api/tables/{ids[0]}/games/1/record").json()

    # --- recomputed here from the stored logs ---
    logs = stored_logs(db, ids)
    games = [replay(log) for log in logs]
    assert all(g.is_over for g in games)
    seeds = {next(e.data["seed"] for e in log if e.kind == "start") for log in logs}
    assert seeds == {ev["seed"]}
    for k, digest in enumerate(ev["commitments"]):
        assert dealing.verify_commitment(dealing.hand_key(ev["seed"], k), digest)
    for h in range(len(HAND_SIZES)):   # the same cards to the same seats at every table
        deals = {(g.past_hands[h].deal, g.past_hands[h].trump_card, g.past_hands[h].dealer) for g in games}
        assert len(deals) == 1
        assert served["hands"][h]["deal"]["same_at_every_table"]
    scores = [[list(g.past_hands[h].scores) for h in range(len(HAND_SIZES))] for g in games]
    mp = my_matchpoints(scores)
    assert served["hands_done"] == 2
    for h, hand in enumerate(served["hands"]):
        assert [[x["mp"] for x in seats] for seats in hand["tables"]] == [mp[t][h] for t in range(3)]
        assert [[x["score"] for x in seats] for seats in hand["tables"]] == [scores[t][h] for t in range(3)]
    totals = {(t, s): sum(mp[t][h][s] for h in range(2)) for t in range(3) for s in range(4)}
    assert {(e["table"], e["seat"]): e["total"] for e in served["ranking"]} == totals
    best = max(totals.values())
    assert {(e["table"], e["seat"]) for e in served["ranking"] if e["place"] == 1} == \
        {k for k, v in totals.items() if v == best}
    assert [e["total"] for e in served["ranking"]] == sorted(totals.values(), reverse=True)
    kinds = {(e["table"], e["seat"]): (e["name"], e["kind"], e["bot"]) for e in served["ranking"]}
    assert kinds[(0, 0)] == ("ann", "account", False) and kinds[(0, 2)] == ("Gus", "guest", False)
    assert kinds[(1, 2)] == ("robo", "bot_account", True) and kinds[(2, 0)][1:] == ("bot", True)

    # --- a restarted server answers the same, from the same logs ---
    with ThreadServer(db) as srv, browser_client(srv) as c:
        again = c.get(f"/api/events/{eid}").json()
        assert again["results"] == served and again["seed"] == ev["seed"]
        r = post(c, f"/api/events/{eid}/start", {}, csrf(c))
        assert r.status_code == 401   # signed out: refused before anything else


def test_an_event_carries_on_after_a_restart_and_is_revealed_there(db):
    with ThreadServer(db) as srv, browser_client(srv) as org, browser_client(srv) as ann, \
            browser_client(srv) as bob:
        signup(org, "organiser")
        signup(ann, "ann")
        signup(bob, "bob")
        eid = new_event(org, tables=2).json()["id"]
        assert post(ann, f"/api/events/{eid}/join", {"table": 1, "seat": 3}, csrf(ann)).status_code == 201
        assert post(bob, f"/api/events/{eid}/join", {"table": 0, "seat": 1}, csrf(bob)).status_code == 201
        assert post(org, f"/api/events/{eid}/start", {}, csrf(org)).status_code == 200
        ids = [t["id"] for t in org.get(f"/api/events/{eid}").json()["live"]]
        cookies = {"ann": ann.cookies, "bob": bob.cookies}
    with ThreadServer(db) as srv, browser_client(srv) as watcher:   # both tables wait for their person

        async def play(who: str, table: str, seat: int):
            c = AccountClient(srv, table, cookies[who])
            await c.connect()
            assert c.state["you"]["seat"] == seat
            await play_out([c], lambda c, v: v["legal"][0], timeout=90)
            await c.close()
        asyncio.run(play("ann", ids[1], 3))
        wait_for(lambda: srv.manager.tables[ids[1]].status == "over", what="ann's table")
        ev = watcher.get(f"/api/events/{eid}").json()
        assert ev["status"] == "playing" and not ev["revealed"] and ev["seed"] is None
        assert watcher.get(f"/api/tables/{ids[1]}/games/1/record").json()["error"] == "event_running"
        assert watcher.get("/api/players/ann").json()["games"] == 0   # not before the event is over

        asyncio.run(play("bob", ids[0], 1))
        ev = wait_for(lambda: (e := watcher.get(f"/api/events/{eid}").json())["revealed"] and e, what="the reveal")
        assert ev["status"] == "over" and ev["results"]["hands_done"] == 2
        assert sorted(e["name"] for e in ev["results"]["ranking"] if e["kind"] == "account") == ["ann", "bob"]
        assert watcher.get(f"/api/tables/{ids[1]}/games/1/record").json()["seed"] == ev["seed"]
        assert watcher.get("/api/players/ann").json()["games"] == 1


def test_seats_given_up_and_an_event_cancelled_by_its_organiser_only(tmp_path):
    db = str(tmp_path / "cancel.sqlite3")
    with ThreadServer(db) as srv, browser_client(srv) as org, browser_client(srv) as other, \
            browser_client(srv) as guest:
        signup(org, "organiser")
        signup(other, "other")
        eid = new_event(org).json()["id"]
        token = post(guest, f"/api/events/{eid}/join", {"table": 1, "seat": 1, "name": "Gus"}, csrf(guest)).json()["token"]
        assert post(other, f"/api/events/{eid}/join", {"table": 0, "seat": 0}, csrf(other)).status_code == 201
        # nobody gives up a seat they do not hold: no token, someone else's seat, a wrong token
        assert post(org, f"/api/events/{eid}/leave", {}, csrf(org)).json()["error"] == "no_seat"
        assert post(guest, f"/api/events/{eid}/leave", {"token": "nope"}, csrf(guest)).json()["error"] == "no_seat"
        assert post(guest, f"/api/events/{eid}/leave", {"token": token}).json()["error"] == "csrf"
        seats = org.get(f"/api/events/{eid}").json()["seats"]
        assert seats[1][1]["name"] == "Gus" and seats[0][0]["name"] == "other"
        assert post(guest, f"/api/events/{eid}/leave", {"token": token}, csrf(guest)).json()["left"] == [[1, 1]]
        assert post(other, f"/api/events/{eid}/leave", {}, csrf(other)).json()["left"] == [[0, 0]]
        seats = org.get(f"/api/events/{eid}").json()["seats"]
        assert all(e["kind"] == "open" for row in seats for e in row)
        assert post(other, f"/api/events/{eid}/join", {"table": 2, "seat": 3}, csrf(other)).status_code == 201
        r = post(other, f"/api/events/{eid}/cancel", {}, csrf(other))
        assert r.status_code == 403 and r.json()["error"] == "not_organiser"
        assert post(org, f"/api/events/{eid}/cancel", {}, csrf(org)).json()["status"] == "cancelled"
        assert post(org, f"/api/events/{eid}/cancel", {}, csrf(org)).json()["error"] == "not_running"
        assert post(org, f"/api/events/{eid}/start", {}, csrf(org)).json()["error"] == "not_open"
        assert post(other, f"/api/events/{eid}/leave", {}, csrf(other)).json()["error"] == "not_open"
        ev = org.get(f"/api/events/{eid}").json()
        assert ev["status"] == "cancelled" and ev["seed"] is None and ev["live"] == []
        assert org.get("/api/events/nope!").json()["error"] == "no_event"
        assert org.get("/api/events/abc").status_code == 404


async def hello_answer(c: Client) -> dict:
    """Connect ``c`` and return the server's answer to its hello: a state frame or an error."""
    wait = c.wait
    c.wait = lambda predicate, timeout=20.0: wait(lambda m: m["type"] in ("state", "error"), timeout)
    try:
        return await c.connect()
    finally:
        c.wait = wait


def test_a_player_of_a_running_event_watches_no_other_table_of_it(db):
    """Every table of an event plays the same cards: while it runs, its players (by account, by
    API token, a guest by the seat cookie of their browser) are refused the other tables, over
    HTTP and the websocket, and nothing is shown them; anyone else may watch; at the end, all may."""
    with ThreadServer(db) as srv, browser_client(srv) as org, browser_client(srv) as ann, \
            browser_client(srv) as guest, browser_client(srv) as robo, browser_client(srv) as nosy, \
            browser_client(srv) as stranger:
        signup(org, "organiser")
        signup(ann, "ann")
        signup(nosy, "nosy")
        r = post(robo, "/api/account/signup", {"username": "robo", "password": "correct horse battery",
                                                "bot": True}, csrf(robo))
        assert r.status_code == 201, r.text
        api_token = new_token(robo)["token"]
        eid = new_event(org, tables=3).json()["id"]
        assert post(ann, f"/api/events/{eid}/join", {"table": 0, "seat": 0}, csrf(ann)).status_code == 201
        r = post(guest, f"/api/events/{eid}/join", {"table": 1, "seat": 1, "name": "Gus"}, csrf(guest))
        assert r.status_code == 201, r.text
        guest_token = r.json()["token"]
        cookie = set_cookies(r)[f"ohhell_event_{eid}"]
        assert cookie["value"] == guest_token and "httponly" in cookie and cookie["samesite"].lower() == "lax"
        r = httpx.post(f"{srv.base}/api/events/{eid}/join", json={"table": 2, "seat": 3},
                       headers={"authorization": f"Bearer {api_token}"})
        assert r.status_code == 201, r.text
        assert post(org, f"/api/events/{eid}/start", {}, csrf(org)).status_code == 200
        ids = [t["id"] for t in org.get(f"/api/events/{eid}").json()["live"]]

        # HTTP: the table page and its facts, refused with the reason; one's own table, and anyone
        # else (the organiser, another account, a browser without cookies), served
        for who, mine in ((ann, 0), (guest, 1)):
            for t, tid in enumerate(ids):
                page, info = who.get(f"/t/{tid}"), who.get(f"/api/tables/{tid}")
                if t == mine:
                    assert page.status_code == 200 and info.status_code == 200, (mine, t)
                    continue
                assert page.status_code == 403 and "<html" in page.text, (mine, t)   # the page, which says why
                assert info.status_code == 403 and info.json()["error"] == "event_player", info.text
                assert f"you play at table {mine + 1} of this duplicate event" in info.json()["message"]
                assert "seats" not in info.json()
        for who in (org, nosy, stranger):
            assert all(who.get(f"/t/{tid}").status_code == 200 and who.get(f"/api/tables/{tid}").status_code == 200
                       for tid in ids)

        async def watch():
            # the websocket: a refused hello gets no state (so no card) and leaves nothing behind
            for c in (AccountClient(srv, ids[1], ann.cookies), AccountClient(srv, ids[2], guest.cookies),
                      TokenClient(srv, ids[0], api_token)):
                answer = await hello_answer(c)
                assert answer["type"] == "error" and answer["code"] == "event_player", answer
                await c.send({"type": "ping"})
                assert (await c.wait(lambda m: m["type"] == "pong"))
                assert c.state is None and card_strings([json.loads(f) for f in c.frames]) == []
                await c.close()
            # the guest's seat cookie is what tells them: without it, a guest is any spectator
            c = Client(srv.ws_url, ids[2])
            assert (await hello_answer(c))["type"] == "state"
            await c.close()
            for c in (AccountClient(srv, ids[1], nosy.cookies), AccountClient(srv, ids[0], org.cookies)):
                assert (await hello_answer(c))["type"] == "state"
                await c.close()
            # and each player plays at their own table, to the end
            players = [AccountClient(srv, ids[0], ann.cookies), Client(srv.ws_url, ids[1], guest_token),
                       TokenClient(srv, ids[2], api_token)]
            for c in players:
                assert (await hello_answer(c))["type"] == "state"
            await play_out(players, lambda c, v: v["legal"][0], timeout=120)
            for c in players:
                await c.close()
        asyncio.run(watch())
        wait_for(lambda: other_revealed(org, eid), what="the reveal")

        # the event is over: every table may be watched by all
        for who in (ann, guest):
            assert all(who.get(f"/t/{tid}").status_code == 200 and who.get(f"/api/tables/{tid}").status_code == 200
                       for tid in ids)

        async def after():
            c = AccountClient(srv, ids[1], ann.cookies)
            answer = await hello_answer(c)
            assert answer["type"] == "state" and answer["game"]["view"]["phase"] == "over"
            await c.close()
        asyncio.run(after())


def other_revealed(c: httpx.Client, eid: str) -> bool:
    return c.get(f"/api/events/{eid}").json()["revealed"]


def test_an_older_database_gains_the_event_tables(tmp_path):
    import sqlite3
    db = str(tmp_path / "old.sqlite3")

    async def make_then_reopen():
        store = open_store(db)
        await store.open()
        await store.close()
        con = sqlite3.connect(db)
        con.execute("DROP TABLE ohhell_duplicate")
        con.execute("DROP TABLE ohhell_duplicate_seats")
        con.execute("UPDATE ohhell_meta SET value='5' WHERE key='schema'")
        con.commit()
        con.close()
        store = open_store(db)
        await store.open()
        await store.add_event("e1", "u1", 1.0, "open", {"x": 1})
        got = await store.get_event("e1"), await store.get_meta("schema")
        await store.close()
        return got
    event, schema = asyncio.run(make_then_reopen())
    assert event["data"] == {"x": 1} and schema == str(SCHEMA_VERSION) == "6"


# --- matchpoints (ohhell.duplicate) ------------------------------------------------------------------

score_grids = st.integers(1, 5).flatmap(lambda n: st.integers(0, 4).flatmap(lambda hands: st.integers(3, 5).flatmap(
    lambda seats: st.lists(st.lists(st.lists(st.integers(-5, 15), min_size=seats, max_size=seats),
                                    min_size=hands, max_size=hands), min_size=n, max_size=n))))


@settings(max_examples=200, deadline=None)
@given(score_grids)
def test_matchpoints_share_out_one_point_per_pair_of_tables(scores):
    mp = duplicate.matchpoints(scores)
    n = len(scores)
    assert mp == my_matchpoints(scores)
    for h in range(len(scores[0])):
        for s in range(len(scores[0][h])):
            assert sum(mp[t][h][s] for t in range(n)) == n * (n - 1) / 2
            assert all(0 <= mp[t][h][s] <= n - 1 for t in range(n))


@settings(max_examples=100, deadline=None)
@given(score_grids, st.randoms())
def test_the_ranking_does_not_depend_on_the_order_of_the_tables(scores, rnd):
    order = list(range(len(scores)))
    rnd.shuffle(order)
    first = duplicate.standings(duplicate.matchpoints(scores))
    second = duplicate.standings(duplicate.matchpoints([scores[t] for t in order]))
    by_entry = {(e["table"], e["seat"]): (e["total"], e["place"]) for e in first}
    assert {(order[e["table"]], e["seat"]): (e["total"], e["place"]) for e in second} == by_entry
    places = [e["place"] for e in first]
    assert places == sorted(places) and places[:1] in ([], [1])


def test_ties_share_a_place():
    assert duplicate.places([3.0, 3.0, 1.0]) == [1, 1, 3]
    assert duplicate.percentage(0.0, 1, 3) is None
    with pytest.raises(ValueError, match="table 1"):
        duplicate.matchpoints([[[1, 2, 3]], [[1, 2]]])
    assert list(itertools.chain(*duplicate.totals([[[1.0, 0.0, 0.5]], ]))) == [1.0, 0.0, 0.5]
