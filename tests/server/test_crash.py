"""Kill -9 the real server mid-hand, restart it, finish the game: the record equals the record of
the same game played without a crash (same seed, same deterministic players)."""

from __future__ import annotations

import asyncio

import httpx

import ohhell
from ohhell import bots
from ohhell.server.botpool import bot_seed
from serverkit import Client, ProcessServer

RULES = {"players": 4, "hand_sizes": [2, 4, 3]}
BOTS = {1: "random", 2: "heuristic", 3: "beginner"}


def reference_record(rec: dict) -> dict:
    """The same game without a crash: the server's seed, seat 0 plays its first legal action,
    and each bot decides exactly as the server's bots do."""
    game = ohhell.Game(ohhell.Rules.from_dict(rec["rules"]), seed=rec["seed"], names=rec["players"])
    while not game.is_over:
        seat = game.to_act
        view = game.view(seat)
        if seat == 0:
            action = view.legal[0]
        else:
            action = bots.make(BOTS[seat], seed=bot_seed(rec["seed"], seat, game.action_count)).act(view)
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
