"""The expert's model of the seats still to bid when it searches its own bid:
``bid_model="learned"`` (the learned trick model's best bid for each of them, reading the bids
before it, this seat's candidate included)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from ohhell import Bid, Game, Rules  # noqa: E402
from ohhell.bots import make  # noqa: E402
from ohhell.bots.expert import learned_pending_bids  # noqa: E402
from ohhell.bots.learned import shared_model  # noqa: E402
from ohhell.sampling import HandSampler  # noqa: E402
from ohhell.scoring import hand_score  # noqa: E402
from ohhell.tricks import hook_bid  # noqa: E402


def deals_for(v, k=12, seed=1):
    return [d.hands for d in HandSampler(v, random.Random(seed)).sample_many(k)]


def by_hand(model, v, hands, b):
    """What the function must give, worked out one seat at a time with the model's own predict."""
    n, h, rules = v.players, v.hand_size, v.rules
    order = [(v.dealer + 1 + i) % n for i in range(n)]
    simultaneous = rules.simultaneous_bidding
    hook = rules.hook and not simultaneous
    bids = list(v.bids)
    bids[v.seat] = b
    for pos, s in enumerate(order):
        if s == v.seat or v.bids[s] is not None:
            continue
        earlier = [] if simultaneous else [bids[t] for t in order[:pos]]
        p = model.predict(hands[s], v.trump, v.trump_card, n, h, pos, earlier, hook)
        legal = list(range(h + 1))
        if hook and pos == n - 1 and hook_bid(h, sum(earlier)) is not None:
            legal.remove(hook_bid(h, sum(earlier)))
        bids[s] = max(legal, key=lambda x: (sum(float(p[k]) * hand_score(x, k, h, rules) for k in range(h + 1)), -x))
    return bids


@pytest.mark.parametrize("rules, made", [
    (Rules(4, hand_sizes=[5]), 0),            # first to bid: three seats still to bid
    (Rules(4, hand_sizes=[5], hook=True), 2),  # the dealer still to bid, under the hook
    (Rules(5, hand_sizes=[4]), 1),
    (Rules(4, hand_sizes=[6], zero_bid_scores_hand_size=True, missed_bid_scores_tricks=True), 1),
])
def test_each_seat_still_to_bid_takes_the_models_best_bid_given_the_bids_before_it(rules, made):
    model = shared_model()
    g = Game(rules, seed=7)
    for _ in range(made):
        g.apply(Bid(1))
    v = g.view(g.to_act)
    deals = deals_for(v)
    cands = [0, 1, 2, 3]
    out = learned_pending_bids(model, v, deals, cands)
    assert len(out) == len(deals)
    for d, hands in enumerate(deals):
        assert sorted(out[d]) == cands
        for b in cands:
            assert out[d][b] == by_hand(model, v, hands, b)
            assert out[d][b][v.seat] == b
            assert all(out[d][b][s] == v.bids[s] for s in range(v.players) if v.bids[s] is not None)


def test_a_hooked_dealer_never_makes_the_forbidden_bid():
    model = shared_model()
    rules = Rules(4, hand_sizes=[3], hook=True)
    for seed in range(8):
        g = Game(rules, seed=seed)
        g.apply(Bid(1))
        v = g.view(g.to_act)
        order = [(v.dealer + 1 + i) % 4 for i in range(4)]
        for bids in (bb for d in learned_pending_bids(model, v, deals_for(v, 6, seed), [0, 1, 2, 3]) for bb in d.values()):
            assert bids[v.dealer] != hook_bid(3, sum(bids[s] for s in order[:3]))


def test_bidding_unseen_a_seat_reads_no_earlier_bid():
    model = shared_model()
    rules = Rules(4, hand_sizes=[4], simultaneous_bidding=True)
    g = Game(rules, seed=3)
    v = g.view(0)
    deals = deals_for(v, 6)
    out = learned_pending_bids(model, v, deals, [0, 2])
    for d, hands in enumerate(deals):
        # the others' bids do not depend on this seat's candidate: none of them sees it
        assert [x for s, x in enumerate(out[d][0]) if s != 0] == [x for s, x in enumerate(out[d][2]) if s != 0]
        assert out[d][2] == by_hand(model, v, hands, 2)


def test_the_expert_with_the_learned_model_of_later_bidders_bids_legally():
    bot = make("expert", seed=1, bid_model="learned", iterations=20, bidder="search")
    for seed in range(6):
        g = Game(Rules(random.Random(seed).randint(3, 6), hand_sizes=[4]), seed=seed)
        while g.phase == "bid":
            v = g.view(g.to_act)
            d = bot.decide(v)
            assert d.action in v.legal_actions()
            g.apply(d.action)


def test_an_unknown_bid_model_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="bid_model must be one of heuristic, learned, random"):
        make("expert", bid_model="neural")
