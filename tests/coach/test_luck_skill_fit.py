"""The luck-plus-skill benchmark's fit past the analysis's noise (benchmarks/analysis_quality.py,
``--reliability``): on synthetic games where score = cards - lost + fall exactly and each
measurement carries independent noise, the instrumental-variables fit finds the exact split
that a plain least-squares fit misses (attenuation)."""

from __future__ import annotations

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))

import analysis_quality as aq  # noqa: E402


def _games(n: int, seed: int):
    rng = random.Random(seed)
    a, b = [], []
    for g in range(n):
        sa, sb = [], []
        for _seat in range(4):
            cards, lost_bid, lost_play = rng.gauss(90, 5), abs(rng.gauss(20, 8)), abs(rng.gauss(12, 5))
            score = cards - lost_bid - lost_play + rng.gauss(0, 15)
            for into in (sa, sb):   # two analyses: the same truth, independent noise
                into.append({"score": score, "cards": cards + rng.gauss(0, 2),
                             "lost_bid": lost_bid + rng.gauss(0, 3), "lost_play": lost_play + rng.gauss(0, 8)})
        a.append({"game": g, "seats": sa})
        b.append({"game": g, "seats": sb})
    return a, b


def test_the_iv_fit_undoes_attenuation():
    a, b = _games(400, 3)
    r = aq.reliability(a, b, boot=200)
    for name, want in (("cards", 1.0), ("lost_bid", -1.0), ("lost_play", -1.0)):
        est, lo, hi = r["iv"][name]
        assert lo <= want <= hi, (name, r["iv"][name])
    # the plain fit on the noisy play losses is pulled well towards zero
    assert r["ols_on_the_mean"]["lost_play"][0] > -0.75
    assert r["test_retest"]["lost_play"] < r["test_retest"]["lost_bid"]


def test_logs_of_different_games_are_refused():
    a, b = _games(5, 1)
    b[0]["seats"][0]["score"] += 1
    try:
        aq.reliability(a, b, boot=10)
    except SystemExit as e:
        assert "not the same games" in str(e)
    else:
        raise AssertionError("two logs of different games were fitted")


def test_the_benchmark_works_out_the_analysis_s_luck_from_its_trace():
    # The luck-plus-skill table's "anchored (now)" row is computed from the logged trace;
    # it must be the luck the analysis itself writes.
    from ohhell import Game, Rules
    from ohhell.bots import make, play_game
    from ohhell.coach import analyze_game
    for seed in range(3):
        g = Game(Rules(4, hand_sizes=[3, 5, 4]), seed=f"fit:{seed}")
        play_game(g, [make("intermediate" if s % 2 else "beginner", seed=f"{seed}:{s}") for s in range(4)])
        a = analyze_game(g, samples=16, seed=seed, trace=True)
        line = {"game": seed, "seats": [{"score": s["score"], "lost": s["lost"], "lost_bid": s["lost_bid"],
                                         "lost_play": s["lost_play"], "lost_play_policy": s["lost_play_policy"],
                                         "cards": s["cards"]} for s in a.seats],
                "trace": aq._trace(a), "model": aq.model_outcomes(g)}
        for o, s in zip(aq.luck_variants(line, min_loss=a.settings["min_loss"]), a.seats):
            assert abs(o["first_best_flagged+gain"] - s["luck"]) < 0.02
            parts = o["chance_before"] + o["chance_at"] + o["chance_after"] + o["chance_others"]
            assert abs(parts - (s["score"] - s["luck"] + s["lost"])) < 0.05
