"""The away timer: a player who is disconnected while the table waits for them gets a bot
standing in after the table's chosen number of seconds (each takeover an event in the log,
shown to everyone), and takes the seat back when they return.  Short timers keep this quick."""

from __future__ import annotations

import asyncio
import time

import httpx

from ohhell.server.botpool import default_bot
from serverkit import Client, ThreadServer, logged

RULES = {"players": 3, "hand_sizes": [2, 2]}
SEATS = [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}]
AWAY = {"after": 1, "bot": "random"}


async def play(c: Client, until, *, wait_first: float = 0.0) -> None:
    """``c`` plays its first legal action whenever it may, until ``until(c.state)``; the
    first time it may act it waits ``wait_first`` seconds (connected, thinking)."""
    while not until(c.state):
        v = c.view
        if v is not None and v["legal"] and v["phase"] != "over" and not c.state["table"]["seats"][
                c.state["you"]["seat"]]["standin"]:
            if wait_first:
                await asyncio.sleep(wait_first)
                wait_first = 0.0
            n = c.state["game"]["n"]
            await c.send({"type": "act", "action": v["legal"][0]})
            await c.wait(lambda m: m["type"] == "error" or (m["type"] == "state" and m["game"]["n"] > n))
        else:
            await c.recv(10)


def seat(state: dict, s: int) -> dict:
    return state["table"]["seats"][s]


def test_a_bot_plays_for_a_player_away_on_their_turn_until_they_take_the_seat_back(tmp_path):
    db = str(tmp_path / "away.sqlite3")

    async def main(srv, t):
        tid = t["id"]
        table = srv.manager.tables[tid]
        async with Client(srv.ws_url, tid) as bob:
            await bob.join(1, "Bob")
            bob_token = bob.token
        spectator = Client(srv.ws_url, tid)
        await spectator.connect()
        # Bob is away longer than the timer before his first turn comes: the clock counts only
        # time the table waits for him.
        await asyncio.sleep(1.3)
        assert table.timer is None and table.takeovers() == {}
        ann = Client(srv.ws_url, tid)
        await ann.connect()
        await ann.join(0, "Ann")
        await play(ann, lambda st: st["game"] and seat(st, 1)["standin"])
        st = ann.state
        assert seat(st, 1)["standin"] == "random" and seat(st, 1)["standin_by"] == "timer"
        assert seat(st, 1)["takeover_in"] is None and not seat(st, 1)["connected"]
        # Everyone at the table saw the countdown while the table waited for Bob, then the takeover.
        countdowns = [seat(m, 1)["takeover_in"] for m in map(_json, ann.frames + spectator.frames)
                      if m["type"] == "state" and seat(m, 1)["takeover_in"] is not None]
        assert countdowns and all(0 <= x <= 1.0 for x in countdowns) and max(countdowns) > 0.5
        await spectator.wait(lambda m: m["type"] == "state" and seat(m, 1)["standin_by"] == "timer")
        await spectator.close()
        # The takeover is one event in the log, written before the state that shows it.
        events = logged(db, tid)
        k = next(i for i, e in enumerate(events) if e["kind"] == "standin")
        assert events[k]["data"] == {"seat": 1, "bot": "random", "by": "timer", "after": 1}
        first_shown = next(m for m in map(_json, ann.frames) if m["type"] == "state" and seat(m, 1)["standin"])
        assert first_shown["seq"] == k + 1
        # Counted from the moment the table began waiting for Bob, not from his leaving.
        assert 0.95 <= events[k]["ts"] - events[k - 1]["ts"] < 2.5
        # The bot plays Bob's turns.
        await play(ann, lambda st: any(s == 1 for s, _ in table.game.actions()))

        # Bob comes back: he sees the bot in his seat and takes it back.
        bob = Client(srv.ws_url, tid, token=bob_token)
        await bob.connect()
        assert bob.state["you"]["seat"] == 1 and seat(bob.state, 1)["standin"] == "random"
        await bob.send({"type": "reclaim"})
        st = await bob.wait(lambda m: m["type"] == "state" and not seat(m, 1)["standin"])
        assert seat(st, 1)["standin_by"] is None and seat(st, 1)["connected"]
        # Connected, Bob may take longer than the timer to decide.
        await asyncio.gather(play(ann, lambda st: st["game"]["view"]["phase"] == "over"),
                             play(bob, lambda st: st["game"]["view"]["phase"] == "over", wait_first=1.3))
        assert [e["kind"] for e in logged(db, tid)].count("standin") == 1

        # The end: nobody has asked for a rematch, so nobody is waited for and no timer runs.
        await bob.close()
        await ann.wait(lambda m: m["type"] == "state" and not seat(m, 1)["connected"])
        assert table.timer is None and seat(ann.state, 1)["takeover_in"] is None
        # Ann asks for one: now the table waits for Bob's vote, and after a second a bot takes his
        # seat so the next game can start.
        await ann.send({"type": "rematch"})
        st = await ann.wait(lambda m: m["type"] == "state" and seat(m, 1)["takeover_in"] is not None)
        assert 0 < seat(st, 1)["takeover_in"] <= 1.0 and st["game"]["number"] == 1
        st = await ann.wait(lambda m: m["type"] == "state" and m["game"]["number"] == 2, timeout=5)
        assert seat(st, 1)["standin_by"] == "timer"
        kinds = [e["kind"] for e in logged(db, tid)]
        vote = kinds.index("vote")
        assert kinds[vote:vote + 3] == ["vote", "standin", "start"]
        await ann.close()

    with ThreadServer(db) as srv:
        t = srv.create(RULES, SEATS, away=AWAY)
        asyncio.run(main(srv, t))


def test_without_a_timer_the_table_waits_and_the_creator_decides():
    async def main(srv, t):
        tid = t["id"]
        async with Client(srv.ws_url, tid) as bob:
            await bob.join(1, "Bob")
        async with Client(srv.ws_url, tid) as ann:
            await ann.join(0, "Ann")
            await play(ann, lambda st: st["game"] and st["game"]["view"]["to_act"] == 1)
            table = srv.manager.tables[tid]
            assert table.waiting_on() == [1] and table.takeovers() == {} and table.timer is None
            assert seat(ann.state, 1)["takeover_in"] is None and ann.state["table"]["away"] is None
            async with Client(srv.ws_url, tid, admin=t["admin"]) as creator:
                await creator.send({"type": "replace", "seat": 1, "bot": "random"})
                st = await creator.wait(lambda m: m["type"] == "state" and seat(m, 1)["standin"])
                assert seat(st, 1)["standin_by"] == "creator"
    with ThreadServer() as srv:
        t = srv.create(RULES, SEATS, away=None)
        asyncio.run(main(srv, t))


def test_the_timer_is_chosen_at_creation_and_checked():
    with ThreadServer() as srv:
        post = lambda **extra: httpx.post(srv.base + "/api/tables", json={"rules": RULES, **extra})  # noqa: E731
        for bad, words in (({"after": 0}, "from 1 to 3600"), ({"after": 3601}, "from 1 to 3600"),
                           ({"after": "60"}, "number of seconds"), ({"after": True}, "number of seconds"),
                           ({"after": 30, "bot": "nobody"}, "unknown bot 'nobody'"), (60, "or null")):
            r = post(away=bad)
            assert r.status_code == 400 and words in r.json()["message"], (bad, r.text)
        info = lambda r: httpx.get(f"{srv.base}/api/tables/{r.json()['id']}").json()  # noqa: E731
        assert info(post())["away"] == {"after": 60, "bot": default_bot()}
        assert info(post(away=None))["away"] is None
        assert info(post(away={"after": 2.5}))["away"] == {"after": 2.5, "bot": default_bot()}
        assert info(post(away={"after": 90, "bot": "random"}))["away"] == {"after": 90, "bot": "random"}
        options = httpx.get(srv.base + "/api/options").json()
        assert options["away"] == {"after": 60, "bot": default_bot(), "range": [1, 3600]}


def _json(text: str) -> dict:
    import json
    return json.loads(text)


def test_a_countdown_restarts_when_the_player_reconnects_and_leaves_again():
    """Coming back stops the clock; leaving again starts it afresh (not from the turn's start)."""
    async def main(srv, t):
        tid = t["id"]
        async with Client(srv.ws_url, tid) as bob:
            await bob.join(1, "Bob")
            bob_token = bob.token
        async with Client(srv.ws_url, tid) as ann:
            await ann.join(0, "Ann")
            await play(ann, lambda st: st["game"] and st["game"]["view"]["to_act"] == 1)
            table = srv.manager.tables[tid]
            first = table.takeovers()[1]
            await asyncio.sleep(0.6)
            async with Client(srv.ws_url, tid, token=bob_token) as bob:
                assert bob.state["you"]["seat"] == 1 and seat(bob.state, 1)["takeover_in"] is None
                assert table.timer is None
                await asyncio.sleep(0.6)  # past the first deadline, but Bob is here
            left = time.time()
            await ann.wait(lambda m: m["type"] == "state" and seat(m, 1)["takeover_in"] is not None)
            second = table.takeovers()[1]
            assert second >= left + 1.0 - 0.1 and second > first + 1.0
            st = await ann.wait(lambda m: m["type"] == "state" and seat(m, 1)["standin"], timeout=5)
            assert time.time() >= left + 1.0 - 0.1 and seat(st, 1)["standin_by"] == "timer"
    with ThreadServer(bot_delay=0.0) as srv:
        t = srv.create(RULES, SEATS, away=AWAY)
        asyncio.run(main(srv, t))
