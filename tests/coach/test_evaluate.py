"""The evaluation of one decision: exact where it can be, seeded, and blind to the hidden cards."""

from __future__ import annotations

import random

import pytest

import ohhell
from ohhell import Bid, Game, Play, Rules
from ohhell.coach import evaluate, evaluate_bid, evaluate_play
from ohhell.coach.evaluate import Z95


def _one_card(trump_card="5S", mine="AS"):
    rules = Rules(3, hand_sizes=[1], no_trump="never")
    return Game.from_deal(rules, dealer=2, deal=[[mine], ["2H"], ["7C"]], trump_card=trump_card)


def test_a_sure_trick_is_worth_its_bid_exactly():
    # Seat 0 holds the ace of trumps in a one-card hand: bid 1 scores 11 in every deal, bid 0 nothing.
    v = _one_card().view(0)
    ev = evaluate_bid(v, 50, random.Random(1))
    by = {a.tricks: (m, s) for a, m, s in zip(ev.actions, ev.mean, ev.se)}
    assert by[1] == (11.0, 0.0) and by[0] == (0.0, 0.0)
    assert ev.actions[ev.best] == Bid(1)
    assert ev.tricks is not None and ev.tricks[ev.index(Bid(1))] == [0.0, 1.0]
    loss, se = ev.loss(ev.index(Bid(0)))
    assert (loss, se) == (11.0, 0.0)


def test_a_single_legal_action_costs_nothing_and_samples_nothing():
    g = Game.from_deal(Rules(3, hand_sizes=[2], no_trump="never"), dealer=2, deal=[["AS", "2H"], ["3H", "4C"], ["7C", "8C"]],
                       trump_card="5D")
    for b in (0, 0, 0):
        g.apply(Bid(b))
    g.apply(ohhell.Play(ohhell.parse_card("2H")))   # seat 0 leads 2H
    v = g.view(1)                                    # seat 1 must follow with 3H
    ev = evaluate_play(v, 50, random.Random(0))
    assert ev.exact and len(ev.actions) == 1 and ev.deals == 0 and ev.loss(0) == (0.0, 0.0)


def test_the_same_seed_gives_the_same_evaluation():
    g = Game(Rules(4), seed=11)
    while g.hand_index < 4:
        g.apply(g.legal_actions()[0])
    v = g.view(g.to_act)
    a = evaluate(v, 40, random.Random("x"))
    b = evaluate(v, 40, random.Random("x"))
    assert (a.mean, a.se, a.tricks) == (b.mean, b.se, b.tricks)


def _swap_hidden(deal, me):
    """The same deal with the other seats' hands rotated among them (seat ``me`` unchanged)."""
    others = [s for s in range(len(deal)) if s != me]
    out = list(deal)
    for a, b in zip(others, others[1:] + others[:1]):
        out[b] = deal[a]
    return out


@pytest.mark.parametrize("phase", ["bid", "play"])
def test_the_evaluation_never_reads_the_hidden_cards(phase):
    # Two games that look the same to seat 1 but hide different cards from it: the same seed
    # must give the same numbers, card for card.
    rules = Rules(4, hand_sizes=[6], no_trump="never")
    deal = [["AS", "KS", "2H", "3H", "4C", "5C"], ["QS", "JS", "TS", "AH", "KH", "2D"],
            ["9S", "8S", "QH", "JH", "3D", "4D"], ["7S", "6S", "TH", "9H", "5D", "6D"]]
    games = [Game.from_deal(rules, dealer=0, deal=d, trump_card="AD") for d in (deal, _swap_hidden(deal, 1))]
    results = []
    for g in games:
        if phase == "play":
            for b in (2, 1, 2, 1):          # seats 1, 2, 3, 0 bid; seat 1 leads
                g.apply(Bid(b))
        assert g.to_act == 1
        ev = evaluate(g.view(1), 60, random.Random(5))
        results.append((ev.actions, ev.mean, ev.se, ev.tricks))
    assert results[0] == results[1]


def test_errors_are_intervals_not_false_precision():
    g = Game(Rules(4), seed=3)
    while g.hand_index < 6:
        g.apply(g.legal_actions()[0])
    ev = evaluate(g.view(g.to_act), 80, random.Random(2))
    assert ev.deals == 80 and 0 < ev.effective_deals <= 80
    assert any(s > 0 for s in ev.se)            # sampled numbers carry an error
    for i in range(len(ev.actions)):
        loss, se = ev.loss(i)
        assert loss >= 0 and se >= 0
        assert Z95 * se < 30                    # a 95% interval of sane width for a hand of 7


def test_cross_fitted_card_losses_lose_the_winners_curse():
    """Among equally good actions, the loss against the best-looking action of the same deals
    is positive on average (it picks the luckiest noise); cross-fitted it averages about zero.
    A real gap is still measured."""
    from ohhell.coach.evaluate import Evaluation
    rng = random.Random(11)
    same, cross, real = [], [], []
    for _ in range(400):
        returns = [[rng.gauss(5.0, 3.0) for _ in range(4)] for _ in range(60)]
        ev = Evaluation("play", [Play(c) for c in ("2C", "3C", "4C", "5C")], [0.0] * 4, [0.0] * 4,
                        [1.0] * 60, returns)
        ev.mean = [sum(r[i] for r in returns) / 60 for i in range(4)]
        taken = 0
        same.append(ev.loss(taken)[0])
        cross.append(ev.crossfit_loss(taken)[0])
        for r in returns:
            r[0] -= 2.0                     # action 0 is now 2 points worse than the others
        ev.mean = [sum(r[i] for r in returns) / 60 for i in range(4)]
        real.append(ev.crossfit_loss(taken)[0])
    mean = lambda xs: sum(xs) / len(xs)   # noqa: E731
    assert mean(same) > 0.3                 # the bias: about 0.5 points here
    assert abs(mean(cross)) < 0.1
    assert 1.5 < mean(real) < 2.5
    # Deterministic, and the best action costs nothing.
    assert ev.crossfit_loss(ev.best) == (0.0, 0.0)
    assert ev.crossfit_loss(0) == ev.crossfit_loss(0)
