"""Bids as evidence about hidden hands: the core's batch API and the learned model behind it."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from ohhell import Bid, Game, Rules  # noqa: E402
from ohhell.bots import make  # noqa: E402
from ohhell.bots.expert import ExpertBot  # noqa: E402
from ohhell.bots.learned import LearnedBidEvidence  # noqa: E402
from ohhell.cards import cards_to_mask  # noqa: E402
from ohhell.sampling import HandSampler, bid_likelihood, bid_likelihoods  # noqa: E402

# Seat 1 holds the top spades (trump), seat 2 low hearts; seat 0 deals, so 1 bids first.
DEAL = [["2C", "3C", "4C"], ["AS", "KS", "QS"], ["2H", "3H", "4H"], ["5D", "6D", "7D"]]


def game_after_bids(bids, rules=None) -> Game:
    g = Game.from_deal(rules or Rules(4, hand_sizes=[3], no_trump="never"), 0, DEAL, "9S")
    for b in bids:
        g.apply(Bid(b))
    return g


@pytest.fixture(scope="module")
def evidence() -> LearnedBidEvidence:
    return LearnedBidEvidence()


def real_hands(g: Game) -> list[int]:
    return [cards_to_mask(h) for h in DEAL]


def test_no_bid_seen_weighs_every_deal_alike(evidence):
    g = game_after_bids([])
    v = g.view(g.to_act)
    deals = [d.hands for d in HandSampler(v, random.Random(1)).sample_many(20)]
    assert evidence(v, deals) == [1.0] * 20
    assert bid_likelihoods(v, deals, evidence) == [1.0] * 20


def test_a_high_bid_favours_deals_that_give_the_bidder_the_high_trumps(evidence):
    g = game_after_bids([3, 0])       # seat 1 bid 3, seat 2 bid 0; seat 3 to bid
    v = g.view(3)
    true = real_hands(g)
    swapped = list(true)
    swapped[1], swapped[2] = true[2], true[1]   # the low hearts to the seat that bid 3
    w_true, w_swapped = evidence(v, [true, swapped])
    assert w_true > 5 * w_swapped
    c_true, c_swapped = bid_likelihoods(v, [true, swapped])
    assert c_true > c_swapped   # the closed form agrees on the direction


def test_weights_are_positive_and_one_per_deal(evidence):
    g = game_after_bids([1, 0, 2])
    v = g.view(0)
    deals = [d.hands for d in HandSampler(v, random.Random(3)).sample_many(50)]
    ws = bid_likelihoods(v, deals, evidence)
    assert len(ws) == 50 and all(w > 0 for w in ws)


def test_only_bidders_hands_matter(evidence):
    """The seat asking and seats that have not bid do not change a deal's weight."""
    g = game_after_bids([2])
    v = g.view(3)
    base = real_hands(g)
    other = list(base)
    other[2], other[3] = base[3], base[2]   # neither has bid (seat 3 is asking)
    a, b = evidence(v, [base, other])
    assert a == pytest.approx(b)


def test_a_model_giving_the_wrong_number_of_weights_is_refused():
    g = game_after_bids([1])
    v = g.view(2)
    with pytest.raises(ValueError, match="gave 1 weights for 2 deals"):
        bid_likelihoods(v, [real_hands(g)] * 2, lambda view, deals: [1.0])


def test_closed_form_batch_is_the_per_deal_function():
    g = game_after_bids([1, 2])
    v = g.view(3)
    deals = [d.hands for d in HandSampler(v, random.Random(5)).sample_many(10)]
    assert bid_likelihoods(v, deals) == [bid_likelihood(v, h) for h in deals]


def test_the_hook_removes_the_dealers_forbidden_bid(evidence):
    g = game_after_bids([1, 1, 0], Rules(4, hand_sizes=[3], no_trump="never", hook=True))
    g.apply(Bid(2))   # the dealer may not bid 1 (1 + 1 + 0 + 1 = 3)
    v = g.view(1)
    dealer = [b for b in evidence.bidders(v) if b[0] == 0][0]
    assert dealer[2] == 3 and 1 not in dealer[4]


def test_unseen_bidding_gives_no_bidder_earlier_bids(evidence):
    g = Game.from_deal(Rules(4, hand_sizes=[3], no_trump="never", simultaneous_bidding=True), 0, DEAL, "9S")
    while g.phase == "bid":
        g.apply(Bid(1), seat=g.seats_to_act[0])
    v = g.view(0)
    assert all(earlier == () for _, _, _, earlier, _ in evidence.bidders(v))


@pytest.mark.parametrize("bad", [{"beta": -1}, {"floor": -0.1}, {"beta": float("nan")}])
def test_bad_options_are_refused(bad):
    with pytest.raises(ValueError):
        LearnedBidEvidence(**bad)


def test_expert_with_learned_evidence_plays_legal_cards():
    with pytest.raises(ValueError, match="bid_evidence"):
        ExpertBot(bid_evidence="psychic")
    g = game_after_bids([1, 0, 2, 1])
    bot = make("expert", seed=1, bid_evidence="learned", iterations=40)
    v = g.view(g.to_act)
    d = bot.decide(v)
    assert d.action in v.legal_actions()


# --- the learned level's own bid as evidence ---------------------------------------------

def learned_bids_game(seed: int, players: int = 4, h: int = 6) -> Game:
    g = Game(Rules(players, hand_sizes=[h], no_trump="never"), seed=seed)
    bot = make("learned", seed=0)
    while g.phase == "bid":
        g.apply(bot.decide(g.view(g.to_act)).action)
    return g


@pytest.mark.parametrize("seed", range(6))
def test_the_real_deal_explains_the_learned_levels_bids_best(seed):
    """Every seat bid as the learned level: the real hands get a bid the level weighs at its
    best for each bidder (the largest weight a deal can get, unless its sure tricks forced a
    bid), and no sampled deal weighs more."""
    from ohhell.bots.learnedbot import LearnedBidderEvidence
    g = learned_bids_game(seed)
    v = g.view(g.to_act)
    ev = LearnedBidderEvidence()
    true = [cards_to_mask(g.hand(s)) for s in range(4)]
    deals = [true] + [d.hands for d in HandSampler(v, random.Random(seed)).sample_many(40)]
    ws = ev(v, deals)
    top = (1 + ev.floor) ** len(ev.bidders(v))
    assert ws[0] == pytest.approx(top)
    assert max(ws) <= top * (1 + 1e-9)
    assert min(ws) < ws[0]          # some sampled deal explains the bids worse


def test_the_bidder_evidence_weighs_each_bid_as_the_level_would():
    """A bid the level would not weigh at all (outside its window) gets only the floor."""
    from ohhell.bots.learnedbot import LearnedBidderEvidence, window_dists
    from ohhell.bots.learned import features
    g = game_after_bids([3, 0])       # seat 1 bid 3 with the three top trumps
    v = g.view(3)
    true = real_hands(g)
    swapped = list(true)
    swapped[1], swapped[2] = true[2], true[1]   # the low hearts to the seat that bid 3
    ev = LearnedBidderEvidence()
    w_true, w_swapped = ev(v, [true, swapped])
    assert w_true > 5 * w_swapped
    weighed = window_dists([features(true[2], v.trump, v.trump_card, 4, 3, 0, [], False)], [3],
                           [[0, 1, 2, 3]], v.rules)[0]
    assert 3 not in weighed            # low hearts would never bid 3...
    assert ev.bidders(v)[0][:2] == (1, 3)
    # ...so the swapped deal's weight is the floor for seat 1 times seat 2's factor
    assert w_swapped <= ev.floor * (1 + ev.floor) * (1 + 1e-9)


def test_the_bidder_evidence_leaves_one_card_hands_to_the_trick_model():
    from ohhell.bots.learnedbot import LearnedBidderEvidence
    g = Game(Rules(4, hand_sizes=[1], no_trump="never"), seed=3)
    g.apply(Bid(0))
    g.apply(Bid(1))
    v = g.view(g.to_act)
    deals = [d.hands for d in HandSampler(v, random.Random(2)).sample_many(8)]
    assert LearnedBidderEvidence()(v, deals) == LearnedBidEvidence(beta=1.0)(v, deals)


def test_the_learned_level_bids_as_before_through_the_shared_window():
    """window_dists is the one home of the learned level's bid window: one bidder's
    distributions are the bid network's for the bids within one trick of the trick model's best."""
    from ohhell.bots.bidpolicy import trick_values
    from ohhell.bots.learned import feature_matrix
    from ohhell.bots.learnedbot import bid_features, window_dists
    from ohhell.bots.playnet import shared_nets
    for seed in range(5):
        g = Game(Rules(4, hand_sizes=[7], no_trump="never"), seed=seed)
        g.apply(Bid(2))
        v = g.view(g.to_act)
        base = bid_features(v)
        legal = [a.tricks for a in v.legal_actions()]
        ev = trick_values(feature_matrix([base]), [7], v.rules)[0]
        top = max(legal, key=lambda b: (ev[b], -b))
        want = [b for b in legal if abs(b - top) <= 1]
        got = window_dists([base], [7], [legal], v.rules)[0]
        assert list(got) == want
        direct = shared_nets()[1].by_bid(base, want, 7)
        for b in want:
            assert np.allclose(got[b], direct[b], atol=1e-6)


def test_expert_with_the_bidder_evidence_plays_legal_cards():
    g = game_after_bids([1, 0, 2, 1])
    bot = make("expert", seed=1, bid_evidence="bidder", iterations=40)
    v = g.view(g.to_act)
    d = bot.decide(v)
    assert d.action in v.legal_actions()
    with pytest.raises(ValueError, match="closed, learned, bidder"):
        ExpertBot(bid_evidence="psychic")


@pytest.mark.parametrize("preset, expect", [(None, "1"), ("4", "4")])
def test_the_bots_run_blas_on_the_calling_thread_unless_told_otherwise(preset, expect):
    """Importing the bots before NumPy keeps BLAS to one thread (their matmuls are tiny), and an
    explicit setting wins."""
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    if preset:
        env["OPENBLAS_NUM_THREADS"] = preset
    out = subprocess.run([sys.executable, "-c", "import ohhell.bots, os; print(os.environ['OPENBLAS_NUM_THREADS'])"],
                         env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == expect
