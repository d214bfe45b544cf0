"""One decision, evaluated from the deciding seat's view: the expected score of every legal action.

The evaluation is flat Monte Carlo over the seat's information set, the same
machinery the ``expert`` bot searches with:

1. ``samples`` deals of the hidden cards are drawn from the core sampler
   (:class:`ohhell.sampling.HandSampler`: exactly uniform over the deals
   consistent with what the seat has seen, never breaking a shown void), each
   weighted by how well it explains the bids already made
   (:func:`ohhell.sampling.bid_likelihood`);
2. in every sampled deal, every legal action is taken and the hand is played
   out with every seat on the heuristic policy (:func:`ohhell.bots.policy.heuristic_playout`,
   which plays each seat from its own cards and the cards seen); for a bid,
   the seats still to bid bid as the heuristic values their sampled hands
   (a hooked dealer avoids the forbidden bid);
3. an action's value is the weighted mean of the seat's hand score over the
   deals, with its standard error from the per-deal returns.  Every action is
   evaluated on the *same* deals, so the difference between two actions (the
   points lost) has a much smaller error than either value (common random
   numbers), and that error is computed from the per-deal differences.

Only the view is read: the real hidden cards never enter an evaluation.
Everything is drawn from the ``rng`` passed in, so a seeded evaluation is
reproducible.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..actions import BIDS, Action
from ..fast import HandState
from ..sampling import HandSampler, bid_likelihood
from ..scoring import hand_score
from ..tricks import hook_bid
from ..view import View
from ..bots.expert import model_bid
from ..bots.policy import heuristic_playout

__all__ = ["Evaluation", "evaluate", "evaluate_bid", "evaluate_play", "outcomes", "model_bid", "Z95"]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959964


@dataclass
class Evaluation:
    """The expected score of each legal action of one decision, from the deciding seat's view.

    ``actions`` lists the legal actions (in the core's order), ``mean[i]`` and
    ``se[i]`` the expected hand score of ``actions[i]`` and its standard error,
    ``returns[d][i]`` the score of action ``i`` in sampled deal ``d`` with
    ``weights[d]`` that deal's weight, and for a bid ``tricks[i][t]`` the
    probability of taking ``t`` tricks after bidding ``actions[i]``.
    ``exact`` marks a decision with one legal action (nothing to estimate).
    """

    kind: str
    actions: list[Action]
    mean: list[float]
    se: list[float]
    weights: list[float] = field(default_factory=list)
    returns: list[list[float]] = field(default_factory=list)
    tricks: "list[list[float]] | None" = None
    exact: bool = False

    @property
    def best(self) -> int:
        """The index of the action with the highest expected score (ties: the first)."""
        return max(range(len(self.actions)), key=lambda i: (self.mean[i], -i))

    @property
    def deals(self) -> int:
        """How many sampled deals the estimates rest on."""
        return len(self.weights)

    @property
    def effective_deals(self) -> float:
        """The effective sample size of the weighted deals (``(sum w)^2 / sum w^2``)."""
        s = sum(self.weights)
        s2 = sum(w * w for w in self.weights)
        return s * s / s2 if s2 > 0 else 0.0

    def index(self, action: Action) -> int:
        """The position of ``action`` among :attr:`actions`.

        :raises ValueError: for an action that was not legal here.
        """
        for i, a in enumerate(self.actions):
            if a == action:
                return i
        raise ValueError(f"{action} was not a legal action of this decision")

    def loss(self, taken: int, best: "int | None" = None) -> tuple[float, float]:
        """The expected points lost by taking action ``taken`` instead of ``best``
        (default: :attr:`best`) and its standard error, from the paired per-deal returns."""
        if best is None:
            best = self.best
        if taken == best or self.exact or not self.weights:
            return 0.0, 0.0
        diffs = [r[best] - r[taken] for r in self.returns]
        m, se = _weighted_mean_se(diffs, self.weights)
        return m, se

    def _fold_best(self, fold: int) -> int:
        """The best-looking action on the sampled deals of one fold (even or odd positions)."""
        rows = range(fold, len(self.returns), 2)
        ws = [self.weights[d] for d in rows]
        means = [_weighted_mean_se([self.returns[d][i] for d in rows], ws)[0] for i in range(len(self.actions))]
        return max(range(len(self.actions)), key=lambda i: (means[i], -i))

    def crossfit_loss(self, taken: int) -> tuple[float, float]:
        """The points lost by action ``taken``, cross-fitted: the best action is chosen on one
        half of the sampled deals (the even positions, then the odd) and the loss measured on
        the other half, so the noise that made an action look best does not also make the
        loss look large (the winner's curse of :meth:`loss` against the same samples).

        Every deal's difference is taken against the action the *other* half rated best,
        and the mean and its standard error come from those differences.  The estimate is
        unbiased for a chosen action's advantage, so it can be below zero for a close
        decision (no measurable loss).  Taking :attr:`best` costs nothing, as with
        :meth:`loss`; with fewer than 4 deals this is :meth:`loss`.  Deterministic: the
        halves are fixed by the deals' positions.
        """
        best = self.best
        if taken == best or self.exact or len(self.returns) < 4:
            return self.loss(taken, best)
        return _weighted_mean_se(self.crossfit_diffs(taken), self.weights)

    def crossfit_diffs(self, taken: int) -> list[float]:
        """Per sampled deal, the difference :meth:`crossfit_loss` averages (a list of zeros
        where it costs nothing; against :attr:`best` with fewer than 4 deals), so that other
        estimates paired over the same deals get their standard error from it."""
        best = self.best
        if taken == best or self.exact or not self.weights:
            return [0.0] * len(self.returns)
        if len(self.returns) < 4:
            return [r[best] - r[taken] for r in self.returns]
        fb = (self._fold_best(0), self._fold_best(1))
        return [r[fb[1 - d % 2]] - r[taken] for d, r in enumerate(self.returns)]

    def paired_se(self, diffs: Sequence[float]) -> float:
        """The standard error of the weighted mean of per-deal ``diffs`` (one per sampled deal)."""
        return _weighted_mean_se(diffs, self.weights)[1] if self.weights else 0.0


def _weighted_mean_se(xs: Sequence[float], ws: Sequence[float]) -> tuple[float, float]:
    """A self-normalised weighted mean and its standard error."""
    wsum = sum(ws)
    if wsum <= 0:
        return 0.0, 0.0
    m = sum(w * x for w, x in zip(ws, xs)) / wsum
    var = sum(w * w * (x - m) ** 2 for w, x in zip(ws, xs)) / (wsum * wsum)
    n = len(xs)
    if n > 1:
        var *= n / (n - 1)       # the small-sample correction of the unweighted case
    return m, math.sqrt(var)


def _finish(kind: str, actions: list, weights: list[float], returns: list[list[float]],
            tricks: "list[list[float]] | None" = None) -> Evaluation:
    k = len(actions)
    mean, se = [], []
    for i in range(k):
        m, s = _weighted_mean_se([r[i] for r in returns], weights)
        mean.append(m)
        se.append(s)
    return Evaluation(kind, actions, mean, se, weights, returns, tricks)


def _forced(view: View, action: Action) -> Evaluation:
    """A decision with one legal action: nothing to choose, nothing lost (no sampling)."""
    return Evaluation("bid" if view.phase == "bid" else "play", [action], [0.0], [0.0], exact=True)


def _deals(view: View, samples: int, rng: random.Random):
    sampler = HandSampler(view, rng)
    weighted = any(b is not None for s, b in enumerate(view.bids) if s != view.seat)
    for _ in range(samples):
        d = sampler.sample()
        yield d.hands, (bid_likelihood(view, d.hands) if weighted else 1.0)


def _play_consts(view: View):
    """What every playout of a card decision shares: the turned card's bit, the scoring flag,
    the seat's hand score by tricks won."""
    rules = view.rules
    me = view.seat
    assert me is not None
    h = view.hand_size
    gone0 = 1 << int(view.trump_card) if view.trump_card is not None else 0
    score = [hand_score(view.bids[me], t, h, rules) for t in range(h + 1)]
    return gone0, rules.missed_bid_scores_tricks, score


def _play_row(base: HandState, cards: Sequence[int], me: int, gone0: int, st_flag: bool,
              score: Sequence[int]) -> list[float]:
    """The seat's hand score after each of ``cards`` from ``base``, the rest played out by the
    heuristic policy for every seat."""
    row = []
    for c in cards:
        s = base.copy()
        s.play(c)
        won = heuristic_playout(s, gone0, st_flag)
        row.append(float(score[won[me]]))
    return row


def evaluate_play(view: View, samples: int, rng: random.Random) -> Evaluation:
    """The expected hand score of each legal card of ``view.seat`` (see the module's notes).

    :raises ValueError: when the view is not a seat's turn to play.
    """
    legal = list(view.legal_actions())
    if view.phase != "play" or not legal:
        raise ValueError("evaluate_play needs the view of a seat about to play a card")
    if len(legal) == 1:
        return _forced(view, legal[0])
    me = view.seat
    assert me is not None
    gone0, st_flag, score = _play_consts(view)
    cards = [int(a.card) for a in legal]
    weights: list[float] = []
    returns: list[list[float]] = []
    for hands, w in _deals(view, samples, rng):
        returns.append(_play_row(HandState.from_view(view, hands), cards, me, gone0, st_flag, score))
        weights.append(w)
    return _finish("play", legal, weights, returns)


class _Bidding:
    """What every playout of a bid decision shares (the seats still to bid, a hooked dealer
    among them, who leads, the candidate bids)."""

    def __init__(self, view: View, legal: Sequence[Action]) -> None:
        rules = view.rules
        self.rules = rules
        self.n = n = view.players
        assert view.seat is not None
        self.me = view.seat
        self.h = view.hand_size
        self.trump = view.trump
        self.trump_i = -1 if view.trump is None else view.trump
        self.tc = -1 if view.trump_card is None else int(view.trump_card)
        self.gone0 = 1 << self.tc if self.tc >= 0 else 0
        self.st_flag = rules.missed_bid_scores_tricks
        order = [(view.dealer + 1 + i) % n for i in range(n)]
        self.leader = order[0]
        self.dealer = view.dealer
        self.pending = [s for s in order if s != self.me and view.bids[s] is None]
        self.hook_dealer = rules.hook and view.dealer != self.me and view.dealer in self.pending
        self.all_bids = list(range(self.h + 1))
        self.bids_of = [int(a.tricks) for a in legal]  # type: ignore[attr-defined]
        self.known = list(view.bids)

    def model(self, hand: int, legal: Sequence[int]) -> int:
        return model_bid(hand, self.trump_i, self.n, self.h, self.tc, legal, self.rules)

    def row(self, hands: Sequence[int], base: Sequence["int | None"],
            dealer_bid: "Callable[[int | None], int] | None") -> tuple[list[float], list[int]]:
        """The seat's hand score after each candidate bid, and the tricks it took, on the deal
        ``hands`` with the other seats' bids ``base`` (a hooked dealer's from ``dealer_bid``,
        given the bid the hook forbids), the hand played out by the heuristic policy."""
        me, h, rules = self.me, self.h, self.rules
        row, took = [], []
        for b in self.bids_of:
            bids = list(base)
            bids[me] = b
            if dealer_bid is not None:
                forbid = hook_bid(h, sum(x for s, x in enumerate(bids) if s != self.dealer))  # type: ignore[misc]
                bids[self.dealer] = dealer_bid(forbid)
            st = HandState(hands, self.trump, self.leader, hand_size=h, bids=bids, must_trump=rules.must_trump)
            t = heuristic_playout(st, self.gone0, self.st_flag)[me]
            took.append(t)
            row.append(float(hand_score(b, t, h, rules)))
        return row, took


def evaluate_bid(view: View, samples: int, rng: random.Random, *, sample_forced: bool = False) -> Evaluation:
    """The expected hand score of each legal bid of ``view.seat`` and the distribution of
    the tricks it then takes (see the module's notes).  A single legal bid is not sampled
    unless ``sample_forced`` (its value is still what the cards are worth).

    :raises ValueError: when the view is not a seat's turn to bid.
    """
    legal = list(view.legal_actions())
    if view.phase != "bid" or not legal:
        raise ValueError("evaluate_bid needs the view of a seat about to bid")
    if len(legal) == 1 and not sample_forced:
        return _forced(view, legal[0])
    bd = _Bidding(view, legal)
    k = len(legal)
    weights: list[float] = []
    returns: list[list[float]] = []
    tricks = [[0.0] * (bd.h + 1) for _ in range(k)]
    for hands, w in _deals(view, samples, rng):
        base = bd.known[:]
        for s in bd.pending:
            if not (bd.hook_dealer and s == bd.dealer):
                base[s] = bd.model(hands[s], bd.all_bids)
        dealer_bid = None
        if bd.hook_dealer:
            dealer_hand = hands[bd.dealer]

            def dealer_bid(forbid: "int | None") -> int:
                return bd.model(dealer_hand, [x for x in bd.all_bids if x != forbid])
        row, took = bd.row(hands, base, dealer_bid)
        for i, t in enumerate(took):
            tricks[i][t] += w
        weights.append(w)
        returns.append(row)
    wsum = sum(weights) or 1.0
    probs = [[x / wsum for x in tr] for tr in tricks]
    return _finish("bid", legal, weights, returns, probs)


def outcomes(view: View, hands: Sequence[int], bids: "Sequence[int | None] | None" = None) -> list[float]:
    """What each legal action of ``view.seat`` scores on one given deal: ``hands[s]`` is seat
    ``s``'s cards now (a mask; after the game, the real ones), the rest of the hand played out
    as the evaluation plays it out (every seat on the heuristic policy).  For a bid, the other
    seats bid ``bids[s]`` where given (a hooked dealer the nearest bid the hook allows, the lower
    one on a tie) and as the evaluation models them otherwise.

    This is one deal of :func:`evaluate`'s average, the one that was dealt: on the real cards,
    after the game, it says what a different action would have scored there.  The values are
    in the order of ``view.legal_actions()``.

    :raises ValueError: when the view is not a seat's turn.
    """
    legal = list(view.legal_actions())
    if not legal or view.phase not in ("bid", "play"):
        raise ValueError("outcomes needs the view of a seat about to bid or play")
    me = view.seat
    assert me is not None
    if view.phase == "play":
        gone0, st_flag, score = _play_consts(view)
        return _play_row(HandState.from_view(view, hands), [int(a.card) for a in legal],  # type: ignore[attr-defined]
                         me, gone0, st_flag, score)
    bd = _Bidding(view, legal)
    base = bd.known[:]
    given = list(bids) if bids is not None else [None] * bd.n
    for s in bd.pending:
        if not (bd.hook_dealer and s == bd.dealer):
            g = given[s]
            base[s] = g if g is not None else bd.model(hands[s], bd.all_bids)
    dealer_bid = None
    if bd.hook_dealer:
        want = given[bd.dealer]
        dealer_hand = hands[bd.dealer]

        def dealer_bid(forbid: "int | None") -> int:
            allowed = [x for x in bd.all_bids if x != forbid]
            if want is None:
                return bd.model(dealer_hand, allowed)
            return min(allowed, key=lambda x: (abs(x - want), x))
    return bd.row(hands, base, dealer_bid)[0]


def evaluate(view: View, samples: int, rng: random.Random) -> Evaluation:
    """:func:`evaluate_bid` or :func:`evaluate_play`, whichever the view's phase calls for."""
    if view.phase == "bid":
        return evaluate_bid(view, samples, rng)
    return evaluate_play(view, samples, rng)
