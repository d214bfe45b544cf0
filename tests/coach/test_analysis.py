"""The whole game's analysis: golden annotated record, round trip, invariants, hidden cards."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import ohhell
from ohhell import Game, Rules
from ohhell.bots import make, play_game
from ohhell.cards import mask_to_cards
from ohhell.coach import (GameAnalysis, analysis_of, analyze_game, annotate, decision_view)
from ohhell.coach.evaluate import Z95


def play_random(game: Game, rng, steps=None) -> Game:
    """Random legal actions (any unbid seat during simultaneous bidding)."""
    count = 0
    while not game.is_over and (steps is None or count < steps):
        seat = rng.choice(game.seats_to_act)
        game.apply(rng.choice(game.legal_actions(seat)), seat=seat)
        count += 1
    return game


@st.composite
def rules_strategy(draw) -> Rules:
    """Any combination of the rules' options, with one or two short hands."""
    players = draw(st.integers(3, 6))
    simultaneous = draw(st.booleans())
    return Rules(players=players, hand_sizes=draw(st.lists(st.integers(1, 24 // players), min_size=1, max_size=2)),
                 no_trump=draw(st.sampled_from(["last", "largest", "never"])),
                 hook=False if simultaneous else draw(st.booleans()), simultaneous_bidding=simultaneous,
                 must_trump=draw(st.booleans()), missed_bid_scores_tricks=draw(st.booleans()),
                 zero_bid_scores_hand_size=draw(st.booleans()))

DATA = Path(__file__).resolve().parents[1] / "data"
GOLDEN = DATA / "coach-golden-3.json"


def small_game() -> Game:
    """The golden game: 3 players, hands of 2 and 3 cards, played by seeded bots."""
    g = Game(Rules(3, hand_sizes=[2, 3], hook=True), seed="coach-golden", names=["Ann", "Bob", "Cat"])
    return play_game(g, [make("intermediate", seed=1), make("beginner", seed=2), make("random", seed=3)])


def test_golden_annotated_record():
    g = small_game()
    got = annotate(g, analyze_game(g, samples=30, seed=1))
    if os.environ.get("OHHELL_REGENERATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(got, indent=1) + "\n")
    assert got == json.loads(GOLDEN.read_text())


def test_the_annotated_record_replays_the_same_game():
    g = small_game()
    rec = annotate(g, analyze_game(g, samples=10))
    again = Game.from_record(rec)
    assert again.record() == g.record()
    assert ohhell.Game.from_record(json.dumps(rec)).fingerprint() == g.fingerprint()
    a = analysis_of(rec)
    assert isinstance(a, GameAnalysis) and a.to_dict() == rec["analysis"]
    # Re-analysing an annotated record ignores the old analysis.
    assert analyze_game(rec, samples=10).to_dict() == rec["analysis"]


def test_jobs_and_progress_do_not_change_the_analysis():
    g = small_game()
    calls = []
    one = analyze_game(g, samples=12, seed="s", progress=lambda d, t: calls.append((d, t)))
    two = analyze_game(g, samples=12, seed="s", jobs=2)
    assert one.to_dict() == two.to_dict()
    total = sum(len(h["decisions"]) for h in one.hands)
    assert calls[0] == (0, total) and calls[-1] == (total, total)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_luck_changes_nothing_else():
    g = small_game()
    with_luck = analyze_game(g, samples=12, seed=4)
    without = analyze_game(g, samples=12, seed=4, luck=False)
    assert [h["decisions"] for h in with_luck.hands] == [h["decisions"] for h in without.hands]
    assert with_luck.settings["luck"] == "anchored" and "luck" not in without.settings
    assert all("luck" not in r and "skill" not in r for h in without.hands for r in h["seats"])


def test_another_seed_is_another_sample():
    g = small_game()
    assert analyze_game(g, samples=12, seed=1).hands != analyze_game(g, samples=12, seed=2).hands


def test_a_bad_record_or_setting_is_a_clear_error():
    rec = small_game().record()
    rec["hands"][0]["bids"][0] = 7
    with pytest.raises(ohhell.RecordError, match="hand 1"):
        analyze_game(rec)
    with pytest.raises(ValueError, match="samples"):
        analyze_game(small_game(), samples=0)
    with pytest.raises(ValueError, match="jobs"):
        analyze_game(small_game(), jobs=0)
    with pytest.raises(ValueError, match="format"):
        GameAnalysis.from_dict({"format": "something else"})


def test_an_unfinished_game_is_analysed_as_far_as_it_went():
    g = Game(Rules(4, hand_sizes=[2, 3]), seed=9)
    play_random(g, __import__("random").Random(9), steps=15)
    a = analyze_game(g, samples=8)
    assert [len(h["decisions"]) for h in a.hands] == [12, 3]
    assert a.hands[1]["finished"] is False and "score" not in a.hands[1]["seats"][0]
    assert a.seats[0]["score"] == g.past_hands[0].scores[0]


def _check(game: Game, a: GameAnalysis) -> None:
    """The invariants every analysis keeps."""
    actions = list(game.actions())
    flat = [d for h in a.hands for d in h["decisions"]]
    assert len(flat) == len(actions)
    g = Game.from_record(game.record())  # the game as recorded, to check the hands
    for h in a.hands:
        for d in h["decisions"]:
            view, taken = decision_view(g, h["hand"], d["index"])
            assert d["seat"] == view.seat
            label = taken.tricks if d["kind"] == "bid" else str(taken.card)
            assert d["action"] == label
            legal = [x.tricks if d["kind"] == "bid" else str(x.card) for x in view.legal_actions()]
            assert d["best"] in legal
            # A bid's points lost are never negative (paired with the best-looking bid); a
            # card's are cross-fitted, so a close call can come out just below zero. A flagged
            # loss is significant.
            assert d["loss_se"] >= 0
            if d["kind"] == "bid":
                assert d["loss"] >= 0
            if d["mistake"]:
                assert d["loss"] >= a.settings["min_loss"] and d["loss"] - Z95 * d["loss_se"] > 0
            if d["action"] == d["best"]:
                assert d["loss"] == 0
            if d.get("forced"):
                assert d["loss"] == 0 and len(legal) == 1
                continue
            assert [v["action"] for v in d["values"]] == legal
            best_mean = max(v["mean"] for v in d["values"])
            taken_mean = next(v["mean"] for v in d["values"] if v["action"] == d["action"])
            if d["kind"] == "bid":
                assert abs(d["loss"] - (best_mean - taken_mean)) < 2e-3
            else:   # held-out: never more than the same-sample gap by more than the noise
                assert d["loss"] <= best_mean - taken_mean + 4 * Z95 * d["loss_se"] + 2e-3
            if d["kind"] == "bid":
                for probs in d["tricks"].values():
                    assert len(probs) == view.hand_size + 1 and abs(sum(probs) - 1) < 1e-3
            else:
                # No card hidden from the deciding seat appears in its annotations: every card
                # named is in its own hand.
                own = {str(c) for c in mask_to_cards(view.hand_mask)}
                named = {d["action"], d["best"]} | {v["action"] for v in d["values"]}
                assert named <= own
    for h in a.hands:
        bidders = {d["seat"] for d in h["decisions"] if d["kind"] == "bid"}
        for r in h["seats"]:
            assert ("cards" in r) == (r["seat"] in bidders)
            if "luck" in r:
                assert r["skill"] == pytest.approx(r["score"] - r["luck"], abs=2e-3)
                # Luck follows the real game to the seat's first mistake of the hand.
                mistakes = [d["index"] for d in h["decisions"] if d["seat"] == r["seat"] and d["mistake"]]
                assert r.get("luck_from") == (mistakes[0] if mistakes else None)
                if not mistakes:
                    assert r["luck"] == r["score"]
                # Luck's sampling error is that of the later cards' estimated gains: none
                # without a mistake (luck is the score then), and skill's is the same.
                assert r["luck_se"] >= 0 and r["skill_se"] == r["luck_se"]
                if not mistakes:
                    assert r["luck_se"] == 0
            ds = [d for d in h["decisions"] if d["seat"] == r["seat"]]
            assert r["lost_se"] == pytest.approx(math.sqrt(sum(d["loss_se"] ** 2 for d in ds)), abs=2e-3)
            if "score" in r:
                # score = cards - points lost + fall, hand by hand
                assert r["score"] == pytest.approx(r["cards"] - r["lost_bid"] - r["lost_play"] + r["fall"], abs=3e-3)
                bid = next(d for d in h["decisions"] if d["kind"] == "bid" and d["seat"] == r["seat"])
                if not bid.get("forced"):
                    assert r["cards"] == max(v["mean"] for v in bid["values"])
                    # fall = score - (the taken bid's value) + lost_play: its error is the
                    # taken bid's value's and the play losses' (each decision sampled apart)
                    taken_se = next(v["se"] for v in bid["values"] if v["action"] == bid["action"])
                    assert r["fall_se"] == pytest.approx(math.hypot(taken_se, r["lost_play_se"]), abs=3e-3)
    for s, row in enumerate(a.seats):
        assert row["lost"] == pytest.approx(row["lost_bid"] + row["lost_play"], abs=2e-3)
        assert row["score"] == sum(h.scores[s] for h in game.past_hands)
        assert row["mistakes"] == sum(1 for _, d in a.decisions(s) if d["mistake"])
        assert len(row["top"]) <= 5
        if game.is_over:
            assert row["score"] == pytest.approx(row["cards"] - row["lost"] + row["fall"], abs=0.05)
            assert row["skill"] == pytest.approx(row["score"] - row["luck"], abs=2e-3)
            done = [h["seats"][s] for h in a.hands if "score" in h["seats"][s]]
            for key in ("luck_se", "fall_se"):   # hands are sampled apart: variances add up
                assert row[key] == pytest.approx(math.sqrt(sum(r[key] ** 2 for r in done)), abs=3e-3)
            assert row["skill_se"] == row["luck_se"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy(), seed=st.integers(0, 10**6))
def test_every_analysis_keeps_its_invariants(rules, seed):
    # Small games of any rules (hook, simultaneous bids, must trump, scoring variants).
    g = play_random(Game(rules, seed=seed), __import__("random").Random(seed))
    a = analyze_game(g, samples=6, seed=seed)
    _check(g, a)
    json.dumps(a.to_dict())        # plain JSON


def test_the_golden_game_keeps_its_invariants():
    g = small_game()
    _check(g, analyze_game(g, samples=30, seed=1))


def test_a_seat_annotations_do_not_change_with_the_cards_hidden_from_it():
    # Swap the hands of two seats other than the first bidder: the first bidder's decision
    # (before any card is seen) is annotated identically, so nothing hidden leaked into it.
    rules = Rules(4, hand_sizes=[5], no_trump="never")
    g = Game(rules, seed=21)
    first = g.to_act
    deal = [[str(c) for c in mask_to_cards(m)] for m in g.deal]
    x, y = [s for s in range(4) if s != first][:2]
    swapped = list(deal)
    swapped[x], swapped[y] = deal[y], deal[x]
    out = []
    for d in (deal, swapped):
        game = Game.from_deal(rules, dealer=g.dealer, deal=d, trump_card=str(g.turned_card))
        game.apply(game.legal_actions()[0])
        out.append(analyze_game(game, samples=20, luck=False).hands[0]["decisions"][0])
    assert out[0] == out[1] and out[0]["seat"] == first


def test_a_later_cards_gain_has_the_paired_error_of_its_two_losses():
    # Luck adds, at each card after the seat's first mistake, loss - loss_policy: the
    # per-deal differences behind its standard error average to exactly that gain.
    import random
    from ohhell.bots.heuristic import HeuristicBot
    from ohhell.coach.analysis import _gain_se, _label
    from ohhell.coach.evaluate import _weighted_mean_se, evaluate
    g = Game(Rules(4, hand_sizes=[5]), seed=3)
    play_game(g, [make("beginner", seed=s) for s in range(4)])
    seen = 0
    replay = Game.from_deals(g.rules, {0: (g.past_hands[0].deal, g.past_hands[0].trump_card)},
                             seed=g.seed, dealer=g.past_hands[0].dealer)
    for seat, action in g.actions():
        view = replay.view(seat)
        if view.phase == "play" and len(view.legal_actions()) > 1:
            ev = evaluate(view, 40, random.Random(seen))
            taken, pi = ev.index(action), ev.index(HeuristicBot().decide(view).action)
            gain = ev.crossfit_loss(taken)[0] - ev.loss(taken, pi)[0]
            pol = [r[pi] - r[taken] for r in ev.returns] if pi != taken else [0.0] * len(ev.returns)
            diffs = [x - y for x, y in zip(ev.crossfit_diffs(taken), pol)]
            mean, se = _weighted_mean_se(diffs, ev.weights)
            assert mean == pytest.approx(gain, abs=1e-9)
            assert _gain_se(ev, action, _label(ev.actions[pi])) == pytest.approx(se)
            seen += 1
        replay.apply(action, seat)
    assert seen >= 5
