"""The core hidden-hand sampler: consistent with the view, never against a shown void, exactly uniform."""

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from ohhell import Game, Rules
from ohhell.bots import make
from ohhell.sampling import HandSampler, bid_likelihood, count_deals, estimate_tricks, is_consistent

_SUIT = [0x1FFF << (13 * s) for s in range(4)]


def _advance(game, steps, seed):
    bots = [make("random", seed=f"{seed}:{s}") for s in range(game.players)]
    for _ in range(steps):
        if game.is_over or game.phase_name not in ("bid", "play"):
            break
        hand = game.hand_index
        s = game.to_act
        game.apply(bots[s].act(game.view(s)))
        if game.hand_index != hand:
            break
    return game


@settings(max_examples=60, deadline=None)
@given(players=st.integers(3, 7), size=st.integers(1, 7), steps=st.integers(0, 60),
       seed=st.integers(0, 10**6), must=st.booleans(), who=st.integers(0, 6))
def test_samples_are_consistent_and_never_break_a_void(players, size, steps, seed, must, who):
    size = min(size, 51 // players)
    g = Game(Rules(players, hand_sizes=[size, 1], must_trump=must), seed=seed)
    _advance(g, steps, seed)
    if g.is_over:
        return
    seat = who % players
    v = g.view(seat)
    sampler = HandSampler(v, random.Random(seed))
    truth = [g.hand_mask(s) for s in range(players)]
    assert is_consistent(v, truth)                    # the real deal is one of the consistent ones
    for _ in range(25):
        d = sampler.sample()
        assert is_consistent(v, d.hands, d.stock)
        for s in range(players):
            for u in range(4):
                if v.voids[s] >> u & 1:
                    assert not d.hands[s] & _SUIT[u]
        assert d.hands[seat] == v.hand_mask


def _brute_force(v):
    """Every consistent assignment of the unseen cards (tiny cases only)."""
    unseen = [c for c in range(52) if v.unseen_mask >> c & 1]
    others = [s for s in range(v.players) if s != v.seat]
    need = [v.cards_left(s) for s in others]
    out = []

    def rec(i, left, acc):
        if i == len(others):
            out.append(tuple(acc))
            return
        for combo in itertools.combinations(left, need[i]):
            m = sum(1 << c for c in combo)
            if any(v.voids[others[i]] >> u & 1 and m & _SUIT[u] for u in range(4)):
                continue
            rec(i + 1, [c for c in left if c not in combo], acc + [m])
    rec(0, unseen, [])
    return others, out


def _void_position():
    # 3 players, 3 cards, no trump turned (hand_sizes [3] is the last hand): seat 1 shows a void.
    g = Game.from_deal(Rules(3, hand_sizes=[3]), dealer=2,
                       deal=[["2C", "3C", "AH"], ["2D", "3H", "4H"], ["4C", "5C", "6C"]])
    for b in (1, 1, 0):
        g.apply(g.legal_actions()[b if b < len(g.legal_actions()) else 0])
    for card in ("2C", "2D", "4C"):
        g.apply(g.legal_actions()[[str(a.card) for a in g.legal_actions()].index(card)])
    return g


def test_void_is_recorded_and_respected_in_a_hand_built_position():
    g = _void_position()
    v = g.view(2)
    assert v.is_void(1, 0)                         # seat 1 discarded on clubs
    sampler = HandSampler(v, random.Random(1))
    for _ in range(300):
        assert not sampler.sample().hands[1] & _SUIT[0]


def test_count_matches_brute_force():
    v = _void_position().view(2)
    assert count_deals(v) == _brute_force_small(v)


def _brute_force_small(v):
    """Count consistent deals: hands for the two other seats, the rest to the stock."""
    unseen = [c for c in range(52) if v.unseen_mask >> c & 1]
    total = 0
    for a in itertools.combinations(unseen, v.cards_left(0)):
        ma = sum(1 << c for c in a)
        if any(v.voids[0] >> u & 1 and ma & _SUIT[u] for u in range(4)):
            continue
        rest = [c for c in unseen if c not in a]
        for b in itertools.combinations(rest, v.cards_left(1)):
            mb = sum(1 << c for c in b)
            if any(v.voids[1] >> u & 1 and mb & _SUIT[u] for u in range(4)):
                continue
            total += 1
    return total


def test_exact_uniformity_with_several_voids_on_a_tiny_deck_of_unseen_cards():
    # Late in a 4-player, 12-card no-trump hand: few unseen cards, several voids.
    g = Game(Rules(4, hand_sizes=[12]), seed=11)
    _advance(g, 4 + 4 * 10, 11)
    v = g.view(g.to_act if g.to_act is not None else 0)
    others, deals = _brute_force(v)
    assert count_deals(v) == len(deals)          # the stock is whatever is left: one way
    sampler = HandSampler(v, random.Random(3))
    assert 100 < len(deals) < 5000
    counts = Counter()
    for _ in range(40 * len(deals)):
        d = sampler.sample()
        counts[tuple(d.hands[s] for s in others)] += 1
    assert set(counts) <= set(deals)
    assert len(counts) == len(deals)                 # every consistent deal is drawn
    expected = 40
    chi2 = sum((counts[d] - expected) ** 2 / expected for d in deals)
    # chi-square with len(deals)-1 degrees of freedom: mean k, sd sqrt(2k); 5 sd is far out
    k = len(deals) - 1
    assert chi2 < k + 5 * (2 * k) ** 0.5 + 10


def test_bid_weights_prefer_hands_that_explain_the_bids():
    g = Game.from_deal(Rules(4, hand_sizes=[3], no_trump="never"), dealer=3,
                       deal=[["AS", "KS", "QS"], ["2C", "3D", "4H"], ["5C", "6D", "7H"], ["8C", "9D", "TH"]],
                       trump_card="2S")
    g.apply(g.legal_actions()[3])                   # seat 0 bids 3
    v = g.view(1)
    strong = [0] * 4
    weak = [0] * 4
    strong[0] = sum(1 << c for c in (51, 50, 49))   # AS KS QS
    weak[0] = sum(1 << c for c in (0, 13, 27))      # 2C 2D 3H
    strong[1] = weak[1] = v.hand_mask
    assert bid_likelihood(v, strong) > 20 * bid_likelihood(v, weak)
    assert estimate_tricks(strong[0], 3, 4, 3) > 2.5


def test_sampler_refuses_a_spectator_and_a_finished_game():
    g = Game(Rules(3, hand_sizes=[1]), seed=1)
    with pytest.raises(ValueError):
        HandSampler(g.spectator_view())
    bots = [make("random", seed=s) for s in range(3)]
    from ohhell.bots import play_game
    play_game(g, bots)
    with pytest.raises(ValueError):
        HandSampler(g.view(0))
