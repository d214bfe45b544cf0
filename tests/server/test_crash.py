"""Kill -9 the real server mid-hand, restart it, finish the game: the record equals the record of
the same game played without a crash (same seed, same deterministic players)."""

from __future__ import annotations

import asyncio
import time

import httpx

import ohhell
from ohhell import bots
from ohhell.server.botpool import bot_seed
from serverkit import Client, ProcessServer, logged

RULES = {"players": 4, "hand_sizes": [2, 4, 3]}
BOTS = {1: "random", 2: "heuristic", 3: "beginner"}


def reference_record(rec: dict, bots_at: "dict[int, str]" = BOTS) -> dict:
    """The same game without a crash: the server's seed, seat 0 plays its first legal action,
    and each bot decides exactly as the server's bots do."""
    game = ohhell.Game(ohhell.Rules.from_dict(rec["rules"]), seed=rec["seed"], names=rec["players"])
    while not game.is_over:
        seat = game.to_act
        view = game.view(seat)
        if seat == 0:
            action = view.legal[0]
        else:
            action = bots.make(bots_at[seat], seed=bot_seed(rec["seed"], seat, game.action_count)).act(view)
        game.apply(action)
    out = game.record()
    out["commitments"] = [ohhell.dealing.commitment(ohhell.dealing.hand_key(rec["seed"], k))
                          for k in range(len(rec["rules"]["hand_sizes"]))]
    return out


async def play_until(client: Client, stop) -> None:
    """Seat 0 plays its first legal action until ``stop(view)``."""
    while True:
        v = client.view
        if v is not None and stop(v):
            return
        if v is not None and v["legal"]:
            n = client.state["game"]["n"]
            await client.send({"type": "act", "action": v["legal"][0]})
            await client.wait(lambda m: m["type"] == "state" and m["game"]["n"] > n)
        else:
            await client.recv(30)


def test_kill_9_mid_hand_loses_nothing(tmp_path):
    db = str(tmp_path / "crash.sqlite3")
    server = ProcessServer(db, "--bot-delay", "0.02").start()
    try:
        seats = [{"kind": "open"}] + [{"kind": "bot", "bot": BOTS[s]} for s in (1, 2, 3)]
        t = httpx.post(server.base + "/api/tables", json={"rules": RULES, "seats": seats}).json()

        async def phase1():
            async with Client(server.ws_url, t["id"]) as ann:
                await ann.join(0, "Ann")
                await ann.wait(lambda m: m["type"] == "state" and m["game"])
                # Mid-hand: the second hand, some cards on the table.
                await play_until(ann, lambda v: v["hand_index"] == 1 and v["phase"] == "play"
                                 and v["trick"]["cards"])
                server.kill9()
                return ann.token, ann.state["game"]["n"]
        token, seen = asyncio.run(phase1())

        server = ProcessServer(db, "--bot-delay", "0.02", port=server.port).start()

        async def phase2():
            async with Client(server.ws_url, t["id"], token=token) as ann:
                assert ann.state["you"]["seat"] == 0
                assert ann.state["game"]["n"] >= seen  # nothing acknowledged was lost
                # Second crash: right after sending an action, before its answer.
                await play_until(ann, lambda v: v["hand_index"] == 2 and v["legal"])
                await ann.send({"type": "act", "action": ann.view["legal"][0]})
                server.kill9()
            return ann.state["game"]["n"]
        asyncio.run(phase2())

        server = ProcessServer(db, "--bot-delay", "0.02", port=server.port).start()

        async def phase3():
            async with Client(server.ws_url, t["id"], token=token) as ann:
                await play_until(ann, lambda v: v["phase"] == "over")
        asyncio.run(phase3())

        rec = httpx.get(f"{server.base}/api/tables/{t['id']}/games/1/record").json()
        assert ohhell.Game.from_record(rec).is_over
        assert rec == reference_record(rec)
    finally:
        server.stop()


def test_the_away_timer_survives_kill_9(tmp_path):
    """Bob leaves; on his turn the server is killed before the timer fires.  The restarted
    server arms the timer again from the log by itself, the bot takes Bob's seat (one event),
    a second kill after the takeover changes nothing, and the game ends exactly as the same
    game with a bot in Bob's seat from the start."""
    db = str(tmp_path / "away.sqlite3")
    after = 2
    server = ProcessServer(db, "--bot-delay", "0.02").start()
    try:
        seats = [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "random"},
                 {"kind": "bot", "bot": "beginner"}]
        t = httpx.post(server.base + "/api/tables", json={"rules": RULES, "seats": seats,
                                                          "away": {"after": after, "bot": "heuristic"}}).json()

        async def phase1():
            async with Client(server.ws_url, t["id"]) as bob:
                await bob.join(1, "Bob")
            async with Client(server.ws_url, t["id"]) as ann:
                await ann.join(0, "Ann")
                await ann.wait(lambda m: m["type"] == "state" and m["game"])
                await play_until(ann, lambda v: v["to_act"] == 1 and v["phase"] != "over")
                assert ann.state["table"]["seats"][1]["takeover_in"] > 0
                server.kill9()
                return ann.token
        token = asyncio.run(phase1())
        assert "standin" not in [e["kind"] for e in logged(db, t["id"])]

        launched = time.time()
        server = ProcessServer(db, "--bot-delay", "0.02", port=server.port).start()

        # Nobody connects: the restarted server takes over Bob's seat by itself.
        deadline = time.monotonic() + after + 10
        while "standin" not in [e["kind"] for e in logged(db, t["id"])]:
            assert time.monotonic() < deadline, "the away timer was not armed again after the restart"
            time.sleep(0.1)

        async def phase2():
            async with Client(server.ws_url, t["id"]) as spectator:
                assert spectator.state["table"]["seats"][1]["standin_by"] == "timer"
            async with Client(server.ws_url, t["id"], token=token) as ann:
                # Ann plays until the bot has played for Bob, then the server is killed again.
                await play_until(ann, lambda v: any(e["kind"] == "act" and e["data"]["seat"] == 1
                                                    for e in logged(db, t["id"])))
                server.kill9()
        asyncio.run(phase2())
        standins = [e for e in logged(db, t["id"]) if e["kind"] == "standin"]
        assert [e["data"] for e in standins] == [{"seat": 1, "bot": "heuristic", "by": "timer", "after": after}]
        # The clock restarted with the server (nobody could reconnect before it was up).
        assert standins[0]["ts"] >= launched + after

        server = ProcessServer(db, "--bot-delay", "0.02", port=server.port).start()

        async def phase3():
            async with Client(server.ws_url, t["id"], token=token) as ann:
                assert ann.state["table"]["seats"][1]["standin_by"] == "timer"
                await play_until(ann, lambda v: v["phase"] == "over")
        asyncio.run(phase3())

        rec = httpx.get(f"{server.base}/api/tables/{t['id']}/games/1/record").json()
        assert rec["players"][:2] == ["Ann", "Bob"]
        assert rec == reference_record(rec, {1: "heuristic", 2: "random", 3: "beginner"})
        assert len([e for e in logged(db, t["id"]) if e["kind"] == "standin"]) == 1
    finally:
        server.stop()
