"""The frame audit: every websocket frame sent during full games, checked against the finished
records. No seat or spectator ever receives a card, a bid or a secret it may not see."""

from __future__ import annotations

import asyncio
import random

import ohhell
from serverkit import Client, ThreadServer, audit_frames, play_out

GAMES = [
    # rules, seats (h: a scripted person, b: a bot)
    ({"players": 4, "hand_sizes": [3, 5, 2], "hook": True}, "hhbb"),
    ({"players": 5, "hand_sizes": [4, 3, 1], "simultaneous_bidding": True, "must_trump": True}, "hhhbb"),
    ({"players": 3, "hand_sizes": [2, 15], "no_trump": "never", "zero_bid_scores_hand_size": True}, "hbh"),
]


def test_no_frame_carries_what_its_receiver_may_not_see():
    async def one_game(srv, rules, kinds, seed):
        seats = [{"kind": "open"} if k == "h" else {"kind": "bot", "bot": "random"} for k in kinds]
        t = srv.create(rules, seats)
        spectator = Client(srv.ws_url, t["id"])
        await spectator.connect()
        players = {}
        for s, k in enumerate(kinds):
            if k == "h":
                c = Client(srv.ws_url, t["id"])
                await c.connect()
                assert (await c.join(s, f"Player{s}"))["type"] == "joined"
                players[s] = c
        rng = random.Random(seed)
        await play_out(list(players.values()), lambda c, v: rng.choice(v["legal"]))
        await spectator.wait(lambda m: m["type"] == "state" and m["game"] and m["game"]["view"]["phase"] == "over")
        # Another game at the same table, so a second seed and deal are audited too.
        for c in players.values():
            await c.send({"type": "rematch"})
        for c in players.values():
            await c.wait(lambda m: m["type"] == "state" and m["game"]["number"] == 2)
        await play_out(list(players.values()), lambda c, v: rng.choice(v["legal"]))
        await spectator.wait(lambda m: m["type"] == "state" and m["game"]["number"] == 2
                             and m["game"]["view"]["phase"] == "over")
        records = {g: srv.record(t["id"], g) for g in (1, 2)}
        for rec in records.values():
            assert ohhell.Game.from_record(rec).is_over
        tokens = {s: c.token for s, c in players.items()}
        checked = 0
        for s, c in players.items():
            others = [tok for s2, tok in tokens.items() if s2 != s] + [t["admin"]]
            checked += audit_frames(c.frames, s, records, others + [records[1]["seed"], records[2]["seed"]])
        checked += audit_frames(spectator.frames, None, records, list(tokens.values()) + [t["admin"]])
        for c in [spectator, *players.values()]:
            await c.close()
        return checked

    async def main(srv):
        counts = await asyncio.gather(*(one_game(srv, r, k, i) for i, (r, k) in enumerate(GAMES)))
        return counts

    with ThreadServer(bot_delay=0.0) as srv:
        counts = asyncio.run(main(srv))
    # Each person saw every action of both games (states coalesce only when a client lags).
    assert all(c > 50 for c in counts), counts


def test_the_audit_catches_a_leak():
    """The auditor itself: a frame showing another seat's card or a hidden bid is caught."""
    import json
    import pytest
    g = ohhell.Game(ohhell.Rules(3, hand_sizes=[2], simultaneous_bidding=True), seed="audit")
    g.apply(ohhell.Bid(1), seat=1)
    v = g.view(0).to_dict()
    frame = {"type": "state", "seq": 3, "table": {}, "you": {"seat": 0},
             "game": {"number": 1, "n": 1, "commitments": [], "view": v}}
    while not g.is_over:
        if g.phase_name == "bid":
            s = next(s for s in range(3) if g.bids[s] is None)
            g.apply(g.legal_actions(seat=s)[0], seat=s)
        else:
            g.apply(g.legal_actions()[0])
    records = {1: g.record()}
    assert audit_frames([json.dumps(frame)], 0, records, []) == 1
    leak = json.loads(json.dumps(frame))
    leak["game"]["view"]["trick"]["cards"] = [str(ohhell.mask_to_cards(g.past_hands[0].deal[1])[0])]
    with pytest.raises(AssertionError, match="saw"):
        audit_frames([json.dumps(leak)], 0, records, [])
    hidden = json.loads(json.dumps(frame))
    hidden["game"]["view"]["bids"][1] = 1
    with pytest.raises(AssertionError, match="hidden bid"):
        audit_frames([json.dumps(hidden)], 0, records, [])
    seeded = json.loads(json.dumps(frame))
    seeded["table"]["title"] = "the seed is audit"
    with pytest.raises(AssertionError, match="secret"):
        audit_frames([json.dumps(seeded)], 0, records, ["audit"])
