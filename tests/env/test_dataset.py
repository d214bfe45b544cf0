"""Training data from records, and the bid-predictor example built on it."""

from __future__ import annotations

import importlib.util
import pathlib

import numpy as np
import pytest

import ohhell
from ohhell.bots import make, play_game
from ohhell.env.dataset import bid_dataset, decisions

ROOT = pathlib.Path(__file__).resolve().parents[2]


def played(rules, seed):
    return play_game(ohhell.Game(rules, seed=seed), [make("random", seed=s) for s in range(rules.players)])


def test_decisions_replay_every_action_with_the_deciders_view():
    g = played(ohhell.Rules(4, hand_sizes=[3, 2], hook=True), 6)
    steps = list(decisions(g.record()))
    assert [(s.seat, s.action) for s in steps] == list(g.actions())
    before = g.fingerprint()
    assert [(s.seat, s.action, s.tricks_won) for s in decisions(g)] == \
        [(s.seat, s.action, s.tricks_won) for s in steps]
    assert g.fingerprint() == before                  # a Game is replayed from a copy
    for s in steps:
        assert s.action in s.view.legal and s.view.seat == s.seat
        hr = g.past_hands[s.hand_index]
        assert (s.tricks_won, s.score) == (hr.tricks_won[s.seat], hr.scores[s.seat])


def test_simultaneous_bids_stay_hidden_in_training_views():
    g = played(ohhell.Rules(3, hand_sizes=[4], simultaneous_bidding=True), 2)
    bids = [s for s in decisions(g.record()) if s.is_bid]
    assert len(bids) == 3
    for s in bids:
        assert all(b is None for seat, b in enumerate(s.view.bids) if seat != s.seat)


def test_bid_dataset_and_unfinished_records():
    g = ohhell.Game(ohhell.Rules(4, hand_sizes=[2, 3]), seed=3)
    for _ in range(4 + 8 + 2):
        g.apply(g.legal_actions()[0])
    X, won, bids = bid_dataset([g.record()])          # the unfinished second hand is left out
    assert X.shape[0] == 4 and won.tolist() == list(g.past_hands[0].tricks_won)
    assert bids.tolist() == [0, 0, 0, 0]
    with pytest.raises(ohhell.RecordError):
        list(decisions({"format": "ohhell.record"}))


def load_example():
    spec = importlib.util.spec_from_file_location("bid_predictor", ROOT / "examples" / "bid_predictor.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bid_features_are_trump_relative():
    ex = load_example()
    rules = ohhell.Rules(4, hand_sizes=[3], no_trump="never")
    a = ohhell.Game.from_deal(rules, 0, [["AS", "KS", "2C"], ["3C", "4C", "5C"], ["6C", "7C", "8C"],
                                         ["9C", "TC", "JC"]], "QS")
    b = ohhell.Game.from_deal(rules, 0, [["AH", "KH", "2C"], ["3C", "4C", "5C"], ["6C", "7C", "8C"],
                                         ["9C", "TC", "JC"]], "QH")
    fa, fb = ex.bid_features(a.view(0)), ex.bid_features(b.view(0))
    assert np.array_equal(fa, fb)                      # the same hand relative to trump
    assert fa[12] == 1 and fa[11] == 1                 # ace and king of the trump suit come first


def test_example_runs_end_to_end(capsys):
    ex = load_example()
    assert ex.main(["--train-games", "40", "--eval-games", "8", "--epochs", "2"]) == 0
    out = capsys.readouterr().out
    assert "| heuristic |" in out and "| learned bid predictor |" in out
