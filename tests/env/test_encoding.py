"""The encodings: every slice means what the layout says, and nothing hidden leaks."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ohhell import Game, Rules
from ohhell.env import Encoder
from ohhell.env.encoding import max_total

from .helpers import VARIANTS, play_random, rules_strategy


def test_layout_is_contiguous_and_documented():
    enc = Encoder(Rules(5), "information_state")
    at = 0
    for s in enc.layout:
        assert s.start == at and s.stop - s.start == int(np.prod(s.shape)) and s.meaning
        at = s.stop
    assert at == enc.size
    table = enc.describe()
    assert all(f"`{s.name}`" in table for s in enc.layout)
    obs = Encoder(Rules(5))
    assert [s.name for s in enc.layout[:len(obs.layout)]] == [s.name for s in obs.layout]


def test_unknown_kind_and_spectator_are_rejected():
    with pytest.raises(ValueError, match="unknown encoding"):
        Encoder(Rules(4), "pixels")
    g = Game(Rules(4, hand_sizes=[2]), seed=1)
    with pytest.raises(ValueError, match="spectator"):
        Encoder(Rules(4, hand_sizes=[2])).encode(g.spectator_view())
    with pytest.raises(ValueError, match="5 players"):
        Encoder(Rules(5)).encode(g.view(0))


@settings(max_examples=40, deadline=None)
@given(rules=rules_strategy(), seed=st.integers(0, 10**6), steps=st.integers(0, 80),
       kind=st.sampled_from(["observation", "information_state"]))
def test_slices_match_the_view(rules, seed, steps, kind):
    g = Game(rules, seed=seed)
    play_random(g, random.Random(seed), steps)
    enc = Encoder(rules, kind)
    n = rules.players
    for seat in range(n):
        v = g.view(seat)
        vec = enc.encode(v)
        assert vec.dtype == np.float32 and vec.shape == (enc.size,)
        assert ((vec >= 0) & (vec <= 1)).all()
        p = enc.split(vec)
        assert p["phase"].tolist() == [v.phase == "bid", v.phase == "play", v.phase == "over"]
        assert set(np.flatnonzero(p["hand"])) == {int(c) for c in v.hand}
        assert p["trump_suit"].argmax() == (4 if v.trump is None else v.trump)
        assert p["dealer"].argmax() == (v.dealer - seat) % n
        assert p["totals"][0] * max_total(rules) == pytest.approx(v.totals[seat])
        if v.phase != "over":
            for s in range(n):
                row = p["bids"][(s - seat) % n]
                assert row.sum() == 1
                b = v.bids[s]
                assert row.argmax() == (row.size - 1 if b is None else b)
                assert p["tricks_won"][(s - seat) % n].argmax() == v.tricks_won[s]
                assert set(np.flatnonzero(p["voids"][(s - seat) % n])) == \
                    {u for u in range(4) if v.voids[s] >> u & 1}
            assert set(np.flatnonzero(p["played"])) == {c for c in range(52) if v.played_mask >> c & 1}
            for i, c in enumerate(v.trick.cards):
                assert p["current_trick"][((v.trick.leader + i) % n - seat) % n, c] == 1
            assert p["cards_left"][0] * max(rules.hand_sizes) == pytest.approx(len(v.hand))
        if kind == "information_state":
            played_now = len(v.tricks) * n + len(v.trick.cards) if v.phase != "over" else 0
            assert p["hand_history"].sum() == played_now
            assert p["past_hands"][:, 0].sum() == len(v.past_hands)


@pytest.mark.parametrize("kind", ["observation", "information_state"])
def test_other_seats_hidden_cards_change_nothing(kind):
    """Swap cards between two other seats: seat 0's encoding stays identical."""
    rules = Rules(4, hand_sizes=[3], no_trump="never")
    deal_a = [["AS", "2C", "7H"], ["KD", "QD", "3C"], ["5S", "6S", "9H"], ["TC", "JC", "4D"]]
    deal_b = [["AS", "2C", "7H"], ["5S", "6S", "9H"], ["KD", "QD", "3C"], ["TC", "JC", "4D"]]
    a = Game.from_deal(rules, dealer=3, deal=deal_a, trump_card="8D")
    b = Game.from_deal(rules, dealer=3, deal=deal_b, trump_card="8D")
    enc = Encoder(rules, kind)
    for bid in (1, 0, 2, 0):
        assert np.array_equal(enc.encode(a.view(0)), enc.encode(b.view(0)))
        a.apply(a.legal_actions()[bid % len(a.legal_actions())])
        b.apply(b.legal_actions()[bid % len(b.legal_actions())])
    assert np.array_equal(enc.encode(a.view(0)), enc.encode(b.view(0)))
    assert not np.array_equal(enc.encode(a.view(1)), enc.encode(b.view(1)))


def test_simultaneous_bids_are_hidden_until_the_reveal():
    rules = Rules(3, hand_sizes=[4], simultaneous_bidding=True)
    g = Game(rules, seed=5)
    enc = Encoder(rules)
    first = g.to_act
    g.apply(g.legal_actions()[3], seat=first)       # bids 3
    for seat in range(3):
        bids = enc.split(enc.encode(g.view(seat)))["bids"]
        own = (first - seat) % 3
        for r in range(3):
            expect = 3 if (r == own and seat == first) else bids.shape[1] - 1
            assert bids[r].argmax() == expect
        assert enc.split(enc.encode(g.view(seat)))["bid_total"][0] == (3 / 12 if seat == first else 0)
    for seat in range(3):
        if seat != first:
            g.apply(g.legal_actions(seat)[0], seat=seat)
    for seat in range(3):
        bids = enc.split(enc.encode(g.view(seat)))["bids"]
        assert bids[(first - seat) % 3].argmax() == 3


@pytest.mark.parametrize("rules", VARIANTS[:4], ids=str)
def test_whole_games_encode_within_bounds(rules):
    g = Game(rules, seed=11)
    enc = Encoder(rules, "information_state")
    rng = random.Random(1)
    while not g.is_over:
        vec = enc.encode(g.view(g.to_act))
        assert vec.min() >= 0 and vec.max() <= 1
        play_random(g, rng, 1)
    vec = enc.encode(g.view(0))
    assert enc.split(vec)["phase"].tolist() == [0, 0, 1]
    assert enc.split(vec)["past_hands"][:, 0].sum() == rules.hand_count
