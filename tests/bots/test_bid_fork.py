"""The bid-fork benchmark (benchmarks/bid_fork.py): two bidders compared only where they
disagree, each such bid played out both ways with the same seeds."""

from __future__ import annotations

import json
import os
import sys

import pytest

pytest.importorskip("numpy")

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))

import bid_fork  # noqa: E402

from ohhell import Game  # noqa: E402
from ohhell.actions import BIDS  # noqa: E402
from ohhell.bots.match import make_spec  # noqa: E402
from ohhell.rules import Rules  # noqa: E402

RULES = Rules.preset("standard", players=4, hand_sizes=(4, 6), no_trump="never")
A, B = "learned:bid_lift=0.5", "learned"


def test_positions_are_the_bids_where_the_bidders_differ_after_the_baselines_bids():
    pos, looked = bid_fork.positions(A, B, RULES, "t", 5)
    assert len(pos) == 5 and looked >= 5
    a, b = make_spec(A, seed=0), make_spec(B, seed=0)
    for p in pos:
        g = Game(RULES.replace(hand_sizes=(p["h"],)), seed=p["deal"])
        assert g.turned_card is not None           # a trump hand
        for x in p["before"]:
            g.apply(BIDS[x])
        v = g.view(p["seat"])
        assert g.seats_to_act == [p["seat"]]
        assert (a.decide(v).action.tricks, b.decide(v).action.tricks) == (p["a_bid"], p["b_bid"])
        assert p["a_bid"] != p["b_bid"]
    # the same seed finds the same positions, and asking for more keeps the first ones
    assert bid_fork.positions(A, B, RULES, "t", 7)[0][:5] == pos
    # hands looked at by several workers give the same positions, in the same order
    import multiprocessing as mp
    with mp.get_context("fork").Pool(2) as pool:
        assert bid_fork.positions(A, B, RULES, "t", 5, pool) == (pos, looked)


def test_a_run_plays_each_position_both_ways_and_goes_on_from_its_log(tmp_path):
    log = str(tmp_path / "f.jsonl")
    s = bid_fork.run(A, B, "heuristic", RULES, 3, seed="t", jobs=1, log=log)
    rows = [json.loads(x) for x in open(log)]
    assert s["positions"] == 3 == len(rows)
    for r in rows:
        for side in ("a", "b"):
            # the branch replayed: the bidder's score is the hand's for its bid and tricks
            assert len(r[f"{side}_scores"]) == 4
    own = [r["a_scores"][r["seat"]] - r["b_scores"][r["seat"]] for r in rows]
    assert s["own_gain"] == pytest.approx(sum(own) / 3)
    assert 0 < s["share_of_bids_differing"] <= 1
    more = bid_fork.run(A, B, "heuristic", RULES, 4, seed="t", jobs=1, log=log, resume=True)
    assert more["positions"] == 4 and len(open(log).readlines()) == 4
    with pytest.raises(ValueError, match="other options"):
        bid_fork.run(A, "learned:bid_lift=0.1", "heuristic", RULES, 4, seed="t", jobs=1, log=log, resume=True)


def test_the_command_refuses_bad_options_with_a_message():
    for argv in (["--a", "nobot"], ["--a", A, "--hand-sizes", "x"], ["--a", A, "--positions", "0"]):
        with pytest.raises(SystemExit) as e:
            bid_fork.main(argv)
        assert e.value.code == 2
