"""``learned``: the learned-only level. No search: one pass of a network per decision.

* **Bid**: a one-card hand by the exact equilibrium of :mod:`ohhell.bots.onecard`, as the
  expert (``one_card=False`` asks the model below instead).  Otherwise the learned trick
  model (:class:`ohhell.bots.learned.TrickModel`) gives P(k tricks) from the hand, the
  turned card, the place in the bidding order and the bids before it.  Under the standard
  game's rules the bid-conditioned model (:class:`ohhell.bots.playnet.BidNet`: P(k tricks |
  ..., bid ``b``), learned from the network's own play of standard hands in which one seat
  explores its bid) then weighs the bids within one trick of the trick model's best; under
  other rules the trick model's distribution is used for every bid.  The bot bids the legal
  bid with the best expected hand score under the table's scoring (never below its sure
  tricks).
* **Card**: the play network's policy (:class:`ohhell.bots.playnet.PlayNet`),
  its most likely legal card (``temperature`` above 0: drawn from the policy
  sharpened by it, seeded; ``endgame=2``: in the last two tricks, the card that scores best
  over sampled deals of the hidden cards, each solved exactly).

Every input is built from the seat's :class:`~ohhell.view.View`.  Needs NumPy
(the ``env`` extra).

>>> import ohhell
>>> from ohhell.bots import make, play_game
>>> g = play_game(ohhell.Game(ohhell.Rules(4, hand_sizes=[3, 2]), seed=2),
...               [make("learned", seed=s) for s in range(4)])
>>> g.phase
<Phase.OVER: 'over'>
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Sequence

from ..actions import BIDS
from ..scoring import hand_score
from ..view import View
from .base import Bot, Budget, Decision
from .learned import LearnedBidEvidence, features
from .playnet import shared_nets
from .policy import sure_tricks

if TYPE_CHECKING:
    import numpy as np

__all__ = ["LearnedBidderEvidence", "LearnedBot", "bid_features", "bid_position", "standard_game", "window_dists"]


def bid_position(view: View) -> "tuple[int, list[int], bool]":
    """``(place in the bidding order, the bids it saw before its turn, hook applies)`` for
    the view's seat (bidding unseen, it saw no bid and the hook does not apply)."""
    n = view.players
    order = [(view.dealer + 1 + i) % n for i in range(n)]
    me = view.seat
    assert me is not None
    pos = order.index(me)
    if view.rules.simultaneous_bidding:
        return pos, [], False
    earlier = [view.bids[s] for s in order[:pos]]
    return pos, [b for b in earlier if b is not None], view.rules.hook


def bid_features(view: View) -> "list[float]":
    """The bidder's inputs to the learned bid models (:func:`ohhell.bots.learned.features` of
    its hand, the trump, the table and the bids before it): the one home of that reading of a
    view, for the learned level, the expert's ``bid_net`` and the training data."""
    trump = -1 if view.trump is None else view.trump
    tc = -1 if view.trump_card is None else int(view.trump_card)
    pos, earlier, hook = bid_position(view)
    return features(view.hand_mask, trump, tc, view.players, view.hand_size, pos, earlier, hook)


def standard_game(rules) -> bool:
    """Whether a hand under ``rules`` is bid as in the standard game, the rules the learned
    level's standard-game bid models were trained for: the standard scoring (a missed bid
    scores nothing, a made bid 10 plus the bid), bids in turn, no hook, no obligation to trump
    (any number of players, any hand size)."""
    return (not rules.missed_bid_scores_tricks and not rules.zero_bid_scores_hand_size
            and not rules.simultaneous_bidding and not rules.hook and not rules.must_trump)


def lift_made(dist: "Sequence[float] | np.ndarray", bid: int, lift: float) -> "list[float]":
    """``dist`` (P(0..n tricks)) with the chance of exactly ``bid`` tricks moved by ``lift`` in
    log-odds and the other counts scaled to keep the sum; a chance of 0 or 1 stays as it is.

    >>> [round(p, 3) for p in lift_made([0.25, 0.5, 0.25], 1, math.log(3))]
    [0.125, 0.75, 0.125]
    """
    p = float(dist[bid])
    if not 0.0 < p < 1.0 or not lift:
        return [float(x) for x in dist]
    z = math.log(p) - math.log1p(-p) + lift
    # the logistic of z without overflow at either end (a chance may be as small as 5e-324)
    q = 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))
    scale = (1.0 - q) / (1.0 - p)
    return [q if k == bid else float(x) * scale for k, x in enumerate(dist)]


def window_dists(bases: "Sequence[Sequence[float]]", hand_sizes: Sequence[int], legal: "Sequence[Sequence[int]]",
                 rules, *, window: int = 1, bid_net=None,
                 trick_weights: "str | None" = None) -> "list[dict[int, np.ndarray]]":
    """The bids the learned level weighs and P(0..hand size tricks | bid) for each, for many
    bidders at once (``bases``: their :func:`bid_features`; ``legal``: their legal bids): with
    ``window`` 0 or more only the legal bids within that many tricks of the trick model's best
    (the conditioned model is asked where its data are: each hand explored bids within two of
    that best), with -1 every legal bid.  The one home of that choice, for the level's bid and
    for its bids read as evidence (:class:`LearnedBidderEvidence`)."""
    import numpy as np
    from .playnet import bid_inputs
    cands = [list(b) for b in legal]
    if window >= 0:
        from .bidpolicy import trick_values
        from .learned import feature_matrix, shared_model
        ev = trick_values(feature_matrix(bases), hand_sizes, rules, shared_model(trick_weights))
        for i, bids in enumerate(cands):
            top = max(bids, key=lambda b: (ev[i][b], -b))
            cands[i] = [b for b in bids if abs(b - top) <= window]
    net = bid_net if bid_net is not None else shared_nets()[1]
    X = np.concatenate([bid_inputs(base, c, h) for base, c, h in zip(bases, cands, hand_sizes)])
    P = net.predict_batch(X, [h for c, h in zip(cands, hand_sizes) for _ in c])
    out: "list[dict[int, np.ndarray]]" = []
    j = 0
    for c, h in zip(cands, hand_sizes):
        out.append({b: P[j + k, :h + 1] for k, b in enumerate(c)})
        j += len(c)
    return out


class LearnedBidderEvidence(LearnedBidEvidence):
    """The learned level's own bid as evidence about hidden hands: a
    :class:`~ohhell.sampling.BidEvidence` consistent with how the learned level, and so the
    expert (``bidder="learned"``), bids.

    For a sampled deal each other seat that has bid is put back at its turn (as
    :class:`~ohhell.bots.learned.LearnedBidEvidence` does), and the bids the learned level
    would weigh there (:func:`window_dists`) get ``P(bid) = exp(beta * (EV(bid) - EV(best))) +
    floor``; a bid it would not weigh gets ``floor``.  One-card hands are left to the parent's
    trick model (the level bids them by the exact equilibrium).  The level never bids below
    its sure tricks; that refinement is left out here.
    """

    def __init__(self, *, beta: float = 1.0, floor: float = 0.02, bid_net=None,
                 trick_weights: "str | None" = None) -> None:
        super().__init__(beta=beta, floor=floor)
        self.bid_net = bid_net
        self.trick_weights = trick_weights

    def bid_weights(self, dists: "dict[int, np.ndarray]", legal: Sequence[int],
                    scores: "np.ndarray") -> "dict[int, float]":
        """P(bid), up to a factor, for each legal bid of one bidder: ``dists`` are the bids the
        level weighs with their P(k tricks) (:func:`window_dists`), ``scores[b][k]`` the hand
        score of bidding ``b`` and taking ``k``."""
        ev = {b: float(scores[b][:len(p)] @ p) for b, p in dists.items()}
        best = max(ev.values())
        return {b: (math.exp(self.beta * (ev[b] - best)) if b in ev else 0.0) + self.floor for b in legal}

    def __call__(self, view, deals) -> "list[float]":
        h = view.hand_size
        bidders = self.bidders(view)
        if not bidders or not deals or h == 1:
            return super().__call__(view, deals)
        import numpy as np
        n, t, tc, played = view.players, view.trump, view.trump_card, view.played_by
        hook = view.rules.hook and not view.rules.simultaneous_bidding
        rows = [features(hands[s] | played[s], t, tc, n, h, pos, earlier, hook)
                for hands in deals for s, _, pos, earlier, _ in bidders]
        legal = [lg for _ in deals for *_, lg in bidders]
        dists = window_dists(rows, [h] * len(rows), legal, view.rules, bid_net=self.bid_net,
                             trick_weights=self.trick_weights)
        S = np.array([[hand_score(b, k, h, view.rules) for k in range(h + 1)] for b in range(h + 1)])
        out = []
        i = 0
        for _ in deals:
            w = 1.0
            for s, b, *_ in bidders:
                w *= self.bid_weights(dists[i], (b,), S)[b]
                i += 1
            out.append(w)
        return out


class LearnedBot(Bot):
    """Learned only: bids by the learned trick model, plays the policy network's card.

    :param seed: seeds the draw when ``temperature`` is above 0 (otherwise it plays the same
        card every time in the same position).
    :param temperature: 0 (default) plays the policy's most likely card; above 0 draws a card
        with probability proportional to ``policy ** (1 / temperature)``.
    :param weights: a weights file other than the shipped one (``scripts/train_play_model.py``).
    :param trick_weights: a weights file of the trick model other than the shipped one
        (``bids="trick"``; ``scripts/train_bid_model.py``).
    :param bids: ``"auto"`` (default): the bid-conditioned model within one trick of the
        trick model's best bid (under every rules variant: trained on the standard game, it
        still bids better than the trick model under each); ``"trick"``: the trick model of
        :class:`~ohhell.bots.learned.TrickModel`, one distribution for every bid;
        ``"conditioned"``: the trick model conditioned on the bid
        (:class:`~ohhell.bots.playnet.BidNet`, trained on the network's own play of standard
        hands), over every legal bid unless ``bid_window`` is given; ``"policy"``: the bid
        policy of :mod:`ohhell.bots.bidpolicy`, which imitates the expert's bids, under the
        standard game's rules (elsewhere the trick model).
    :param lookahead: 0 (default) plays the network's card; ``N`` tries the network's
        ``width`` likeliest cards on ``N`` uniform deals of the hidden cards each
        (:func:`ohhell.bots.lookahead.lookahead_values`) and plays the best.  Measured no
        stronger than the network alone (BENCHMARKS.md, "Lookahead for the learned level").
    :param width: how many of the network's likeliest cards the lookahead tries (default 3).
    :param to_end: the lookahead plays each deal out to the end of the hand with the
        network for every seat (exact scores) instead of stopping at the seat's next turn
        and asking the network's value head.
    :param one_card: bid one-card hands by the exact equilibrium
        (:func:`ohhell.bots.onecard.one_card_decision`; default) rather than by the model.
    :param bid_window: with ``bids="conditioned"``, only the legal bids within this many tricks
        of the trick model's best are weighed (default -1: every legal bid).
    :param policy_weights: with ``bids="policy"``, a weights file of the bid policy other
        than the shipped one (``scripts/train_bid_policy.py``).
    :param endgame: 0 (default: off) plays the network's card to the end of the hand; ``K``:
        once ``K`` tricks or fewer are left (this one included) the card is chosen by solving
        the hand exactly on ``endgame_deals`` sampled deals of the hidden cards (weighed by the
        bids, as the expert's sampler weighs them), each card's outcome by max^n
        (:func:`ohhell.bots.solver.solve_cards`): the card with the best mean hand score (ties to
        the network's choice).  Perfect-information Monte Carlo for the last tricks; the deals
        are seeded by the position and ``seed``, so a position gets the same card every time.
        ``endgame=2`` measured +0.02 to +0.03 per hand at 4 players and +0.00 to +0.01 at 5 over
        the network alone, but its slowest decisions (with a collection of Python's heap that
        its allocations start) take up to 20 ms, over the level's 10 ms, so it is off
        (BENCHMARKS.md, "An exact endgame for the learned level").
    :param endgame_deals: the sampled deals the endgame solves (default 16).
    :param bid_lift: 0 (default) takes the model's chances as they are; above 0, the chance of
        taking exactly the bid ``b`` is raised by ``bid_lift * b`` in log-odds (the other
        counts of tricks shrink in proportion, :func:`lift_made`), for a player whose card
        play makes its bids more often than the network's own play, for which the model was
        learned (the expert: BENCHMARKS.md, "Bid calibration in self-play").
    """

    name = "learned"

    def __init__(self, seed: "int | str | None" = None, *, temperature: float = 0.0,
                 weights: "str | None" = None, bids: str = "auto", trick_weights: "str | None" = None,
                 lookahead: int = 0, width: int = 3, to_end: bool = False, one_card: bool = True,
                 policy_weights: "str | None" = None, bid_window: int = -1,
                 bid_lift: float = 0.0, endgame: int = 0, endgame_deals: int = 16) -> None:
        if not temperature >= 0:
            raise ValueError(f"temperature must be 0 or more, not {temperature!r}")
        if bids not in ("auto", "conditioned", "policy", "trick"):
            raise ValueError(f"bids must be one of auto, conditioned, policy, trick, not {bids!r}")
        if isinstance(bid_window, bool) or not isinstance(bid_window, int) or bid_window < -1:
            raise ValueError(f"bid_window must be a whole number of tricks, 0 or more (-1: no window), "
                             f"not {bid_window!r}")
        if isinstance(bid_lift, bool) or not isinstance(bid_lift, (int, float)) or not 0 <= bid_lift <= 2:
            raise ValueError(f"bid_lift must be a number of log-odds per trick from 0 to 2, not {bid_lift!r}")
        if not isinstance(one_card, bool):
            raise ValueError(f"one_card must be true or false, not {one_card!r}")
        if isinstance(lookahead, bool) or not isinstance(lookahead, int) or lookahead < 0:
            raise ValueError(f"lookahead must be a whole number of deals, 0 or more, not {lookahead!r}")
        if isinstance(endgame, bool) or not isinstance(endgame, int) or not 0 <= endgame <= 4:
            raise ValueError(f"endgame must be a whole number of tricks from 0 to 4, not {endgame!r}")
        if isinstance(endgame_deals, bool) or not isinstance(endgame_deals, int) or endgame_deals < 1:
            raise ValueError(f"endgame_deals must be a whole number of deals, 1 or more, not {endgame_deals!r}")
        if isinstance(width, bool) or not isinstance(width, int) or width < 1:
            raise ValueError(f"width must be a whole number of cards, 1 or more, not {width!r}")
        self.bids = bids
        self.temperature = float(temperature)
        self.seed = seed
        self.rng = random.Random(seed)
        self.play_net, self.bid_net = shared_nets(weights)
        self.trick_weights = trick_weights
        self.lookahead = lookahead
        self.width = width
        self.to_end = bool(to_end)
        self.one_card = one_card
        self.bid_window = bid_window
        self.bid_lift = float(bid_lift)
        self.endgame = endgame
        self.endgame_deals = endgame_deals
        if endgame:
            from . import pimc  # noqa: F401  (imported now, not inside the first decision's 10 ms)
        self.policy = None
        if bids == "policy":
            from .bidpolicy import shared_policy
            self.policy = shared_policy(policy_weights)

    def decide(self, view: View, budget: Budget | None = None) -> Decision:
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has no action to take now")
        if view.phase == "bid":
            return self._bid(view, legal)
        return self._play(view, legal)

    def _bid(self, view: View, legal) -> Decision:
        h = view.hand_size
        if self.one_card and h == 1:
            from .onecard import one_card_decision
            return one_card_decision(view)
        base = bid_features(view)
        bids = [a.tricks for a in legal]
        mode, window = self.bids, self.bid_window
        if mode == "auto":
            # the bid-conditioned model near the trick model's best: learned from the network's
            # own play of the standard game, it bids better than the trick model under every
            # rules variant too (BENCHMARKS.md, "The learned level's bid under each variant")
            mode, window = "conditioned", 1
        if mode in ("trick", "policy"):
            from .learned import feature_matrix, shared_model
            P = shared_model(self.trick_weights).predict_batch(feature_matrix([base]), [h])[0, :h + 1]
            dists = {b: P for b in bids}
        else:
            dists = window_dists([base], [h], [bids], view.rules, window=window, bid_net=self.bid_net,
                                 trick_weights=self.trick_weights)[0]
            bids = list(dists)
        if self.bid_lift:
            import numpy as np
            dists = {b: np.asarray(lift_made(d, b, self.bid_lift * b)) for b, d in dists.items()}
        rules = view.rules
        values = {b: sum(float(p) * hand_score(b, k, h, rules) for k, p in enumerate(dists[b])) for b in bids}
        sure = sure_tricks(view.hand_mask, -1 if view.trump is None else view.trump,
                           -1 if view.trump_card is None else int(view.trump_card))   # as bid_features reads them
        stats: dict = {"trick_probs_by_bid": {BIDS[b]: [float(p) for p in d] for b, d in dists.items()}}
        if self.policy is not None and self.policy.covers(rules):
            # The policy chooses; the trick model still gives each bid's expected score.
            pol = self.policy.policy(base, values)
            stats["bid_policy"] = {BIDS[b]: p for b, p in pol.items()}
            best = max(bids, key=lambda b: (b >= sure, pol[b], -b))
            note = (f"bid {best}: the bid policy, which imitates the expert, gives it {100 * pol[best]:.0f}%; "
                    f"the trick model expects {values[best]:.2f} points")
            ranked = pol
        else:
            best = max(bids, key=lambda b: (b >= sure, values[b], -b))
            note = (f"bid {best}: expected {values[best]:.2f} points; the network gives "
                    f"{100 * float(dists[best][best]):.0f}% to taking exactly {best}")
            ranked = values
        probs = [float(p) for p in dists[best]]
        if best == sure and sure and ranked[best] < max(ranked.values()):
            note += f" (never below its {sure} sure tricks)"
        return Decision(BIDS[best], {BIDS[b]: v for b, v in values.items()}, probs, note, stats)

    def _play(self, view: View, legal) -> Decision:
        if len(legal) == 1:
            return Decision(legal[0], {legal[0]: 1.0}, note="the only legal card")
        policy, tricks = self.play_net.evaluate(view)
        if self.temperature > 0:
            w = [policy[a] ** (1.0 / self.temperature) for a in legal]
            tot = sum(w)
            r = self.rng.random() * tot
            acc = 0.0
            choice = legal[-1]
            for a, x in zip(legal, w):
                acc += x
                if r < acc:
                    choice = a
                    break
        else:
            choice = self.play_net.best_card(legal, policy)
        looked = ""
        if self.lookahead > 0:
            from .lookahead import lookahead_values
            ranked = sorted(legal, key=lambda a: (-policy[a], a.card))[:self.width]
            if len(ranked) > 1:
                q = lookahead_values(self.play_net, view, [int(a.card) for a in ranked], self.lookahead, self.rng,
                                     self.to_end)
                picked = max(ranked, key=lambda a: (q[int(a.card)], policy[a]))
                if picked != choice:
                    looked = f" (the lookahead's card over the network's {choice.card})"
                choice = picked
        if self.endgame and bin(view.hand_mask).count("1") <= self.endgame:
            picked = self._endgame(view, legal, policy)
            if picked != choice:
                looked += f" (the endgame solver's card over the network's {choice.card})"
            choice = picked
        me = view.seat
        assert me is not None
        bid = view.bids[me]
        h = view.hand_size
        ev = sum(float(p) * hand_score(bid, k, h, view.rules) for k, p in enumerate(tricks))
        make = float(tricks[bid]) if bid is not None and bid < len(tricks) else math.nan
        note = (f"{choice.card}: the network's choice ({100 * policy[choice]:.0f}%){looked}; expects "
                f"{ev:.2f} points, makes the bid {100 * make:.0f}%")
        return Decision(choice, dict(policy), None, note,
                        {"expected_score": ev, "trick_probs": [float(p) for p in tricks]})

    def _endgame(self, view: View, legal, policy):
        """The legal card with the best mean hand score over ``endgame_deals`` bid-weighted
        sampled deals, each solved exactly: the ``pimc`` reference bot's card play
        (:class:`ohhell.bots.pimc.PimcBot`), ties to the network's likelier card."""
        from .pimc import PimcBot
        # seeded by the position (and the bot's seed): the same view gets the same card, as the
        # network alone gives it, whatever the bot decided before
        seed = f"{self.seed!r}/{view.seat}/{view.hand_mask}/{view.unseen_mask}/{view.bids}/{view.tricks_won}/{view.trick}"
        values = PimcBot(seed, determinizations=self.endgame_deals, exact_tricks=13, weighted=True).decide(view).values
        return max(legal, key=lambda a: (values[a], policy[a]))
