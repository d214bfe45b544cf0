"""``pimc``: a plain Perfect-Information Monte Carlo bot, the reference published work measures against.

For each decision the bot draws ``determinizations`` deals of the hidden cards from
the core's exact sampler (:class:`ohhell.sampling.HandSampler`: uniform over the deals
consistent with the view, never breaking a shown void; with ``weighted=True`` each deal
is weighted by :func:`ohhell.sampling.bid_likelihood`, off by default as in published
PIMC), solves each deal with every card known, and takes the action with the best
(weighted) mean over the deals.

* Card play: for each deal and each legal card, the tricks every seat ends with when
  the rest of the hand is played by max^n (every seat maximises its own hand score
  given the bids; :func:`ohhell.bots.solver.solve_cards`, the solver with equivalent
  cards merged).  The card's value is this seat's mean hand score.
* Bidding: for each deal and each candidate bid (the legal bids within
  ``bid_spread`` of the closed-form trick estimate, plus the sure tricks), the hand is
  played out the same way with the bids already made (from the view) and, for the
  seats still to bid, the heuristic's bid on their sampled hand (a hooked dealer's
  bid avoids the forbidden one).  The bid with the best mean hand score is chosen.

Exactness.  A full 10-card max^n solve in pure Python takes from a millisecond to
several seconds (3 players; see ``docs/bots.md``), too slow for 50 deals a decision.
So the play-out is exact only for the last ``exact_tricks`` tricks (default 7): with
more tricks left, every seat plays the heuristic's card
(:func:`ohhell.bots.policy.choose_card`) until ``exact_tricks`` remain (after this
seat's candidate card), then max^n finishes the hand.  ``exact_tricks=13`` is plain
PIMC (every play-out exact).

>>> import ohhell
>>> g = ohhell.Game(ohhell.Rules(3, hand_sizes=[2]), seed=1)
>>> bot = PimcBot(seed=1, determinizations=4)
>>> bot.decide(g.view(g.to_act)).action in g.legal_actions()
True
"""

from __future__ import annotations

import random
import time

from ..actions import BIDS, PLAYS, Action
from ..fast import HandState
from ..sampling import HandSampler, bid_likelihood, card_win_chances
from ..scoring import hand_score
from ..tricks import hook_bid
from ..view import View
from .base import Bot, Budget, Decision
from .policy import heuristic_bid, heuristic_playout, sure_tricks
from .solver import solve_cards

__all__ = ["PimcBot"]


class PimcBot(Bot):
    """Reference: Perfect-Information Monte Carlo (sampled deals, each solved by max^n).

    :param seed: seeds the sampler (a seeded bot is reproducible).
    :param determinizations: sampled deals per decision (``Budget.iterations`` overrides;
        with ``Budget.seconds`` the bot stops drawing deals once the time is up, after one at least).
    :param exact_tricks: the last this-many tricks of every play-out are solved exactly;
        earlier tricks follow the heuristic (13: every play-out exact, plain PIMC).
    :param weighted: weight the deals by the bids already made (default uniform, as
        published PIMC).
    :param bid_spread: candidate bids are the legal bids within this of the trick estimate.
    :raises ValueError: for an option out of range.
    """

    name = "pimc"

    def __init__(self, seed: "int | str | None" = None, *, determinizations: int = 50,
                 exact_tricks: int = 7, weighted: bool = False, bid_spread: float = 2.5) -> None:
        if not isinstance(determinizations, int) or determinizations < 1:
            raise ValueError(f"determinizations must be a whole number of at least 1, not {determinizations!r}")
        if not isinstance(exact_tricks, int) or not 0 <= exact_tricks <= 13:
            raise ValueError(f"exact_tricks must be a whole number from 0 to 13, not {exact_tricks!r}")
        if not isinstance(bid_spread, (int, float)) or bid_spread < 0:
            raise ValueError(f"bid_spread must be a number of at least 0, not {bid_spread!r}")
        self.rng = random.Random(seed)
        self.determinizations = determinizations
        self.exact_tricks = exact_tricks
        self.weighted = bool(weighted)
        self.bid_spread = float(bid_spread)

    # --- shared -------------------------------------------------------------------------

    def _deals(self, view: View, count: int, deadline: "float | None"):
        """Up to ``count`` sampled deals with their weights, drawn one at a time: after the
        first, none once ``deadline`` (a ``perf_counter`` time) has passed."""
        sampler = HandSampler(view, self.rng)
        weighted = self.weighted and any(b is not None for s, b in enumerate(view.bids) if s != view.seat)
        for i in range(count):
            if i and deadline is not None and time.perf_counter() > deadline:
                return
            d = sampler.sample()
            yield d.hands, (bid_likelihood(view, d.hands) if weighted else 1.0)

    def _finish(self, state: HandState, score, gone0: int, scores_tricks: bool) -> list[int]:
        """The tricks won when ``state``'s hand is played out (heuristic, then exact)."""
        if state.tricks_left > self.exact_tricks:
            heuristic_playout(state, gone0, scores_tricks, stop=self.exact_tricks)
        if state.tricks_left == 0:
            return list(state.won)
        res = solve_cards(state, score, gone0, scores_tricks, root=False)
        assert isinstance(res, list)
        return res

    def decide(self, view: View, budget: Budget | None = None) -> Decision:
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has no action to take now")
        count = self.determinizations
        if budget is not None and budget.iterations is not None:
            count = max(1, budget.iterations)
        t0 = time.perf_counter()
        deadline = t0 + budget.seconds if budget is not None and budget.seconds is not None else None
        if len(legal) == 1:
            d = Decision(legal[0], {legal[0]: 0.0}, note="the only legal action")
        elif view.phase == "bid":
            d = self._bid(view, legal, count, deadline)
        else:
            d = self._play(view, legal, count, deadline)
        d.stats["seconds"] = time.perf_counter() - t0
        return d

    # --- card play ----------------------------------------------------------------------

    def _play(self, view: View, legal, count: int, deadline: "float | None" = None) -> Decision:
        rules = view.rules
        me = view.seat
        assert me is not None
        n = view.players
        h = view.hand_size
        bids = list(view.bids)
        score = [[float(hand_score(bids[s], t, h, rules)) for t in range(h + 1)] for s in range(n)]
        gone0 = 1 << int(view.trump_card) if view.trump_card is not None else 0
        st_ = rules.missed_bid_scores_tricks
        cards = [int(a.card) for a in legal]
        total = {c: 0.0 for c in cards}
        made = {c: 0.0 for c in cards}
        wsum = 0.0
        used = 0
        for hands, w in self._deals(view, count, deadline):
            used += 1
            if w <= 0:
                continue
            state = HandState.from_view(view, hands)
            if state.tricks_left <= self.exact_tricks:
                res = solve_cards(state, score, gone0, st_)
                assert isinstance(res, dict)
                outcome = res
            else:
                outcome = {}
                for c in cards:
                    s = state.copy()
                    s.play(c)
                    outcome[c] = self._finish(s, score, gone0, st_)
            for c in cards:
                won = outcome[c]
                total[c] += w * score[me][won[me]]
                made[c] += w * (won[me] == bids[me])
            wsum += w
        wsum = wsum or 1.0
        values: dict[Action, float] = {PLAYS[c]: total[c] / wsum for c in cards}
        best = max(cards, key=lambda c: (total[c], -c))
        action = PLAYS[best]
        note = (f"{action.card}: mean {values[action]:.2f} points over {used} sampled deals, "
                f"each solved (the last {self.exact_tricks} tricks exactly); makes the bid in "
                f"{100 * made[best] / wsum:.0f}%")
        return Decision(action, values, None, note,
                        {"deals": used, "make_chance": {PLAYS[c]: made[c] / wsum for c in cards}})

    # --- bidding ------------------------------------------------------------------------

    def _bid(self, view: View, legal, count: int, deadline: "float | None" = None) -> Decision:
        rules = view.rules
        me = view.seat
        assert me is not None
        n = view.players
        h = view.hand_size
        trump = -1 if view.trump is None else view.trump
        tc = -1 if view.trump_card is None else int(view.trump_card)
        gone0 = 1 << tc if tc >= 0 else 0
        st_ = rules.missed_bid_scores_tricks
        order = [(view.dealer + 1 + i) % n for i in range(n)]
        pending = [s for s in order if s != me and view.bids[s] is None]
        hook_dealer = rules.hook and view.dealer in pending
        legal_bids = [a.tricks for a in legal]
        est = sum(p for _, p in card_win_chances(view.hand_mask, trump, n, h, tc))
        sure = sure_tricks(view.hand_mask, trump, tc)
        cands = sorted({b for b in legal_bids if abs(b - est) <= self.bid_spread or b == sure}) or legal_bids
        all_bids = list(range(h + 1))
        tricks = {b: [0.0] * (h + 1) for b in cands}
        total = {b: 0.0 for b in cands}
        wsum = 0.0
        used = 0
        for hands, w in self._deals(view, count, deadline):
            used += 1
            if w <= 0:
                continue
            base = list(view.bids)
            for s in pending:
                if not (hook_dealer and s == view.dealer):
                    base[s] = heuristic_bid(hands[s], trump, n, h, tc, all_bids)[0]
            for b in cands:
                bids = base[:]
                bids[me] = b
                if hook_dealer:
                    forbid = hook_bid(h, sum(x for s, x in enumerate(bids) if s != view.dealer))
                    opts = [x for x in all_bids if x != forbid]
                    bids[view.dealer] = heuristic_bid(hands[view.dealer], trump, n, h, tc, opts)[0]
                score = [[float(hand_score(bids[s], t, h, rules)) for t in range(h + 1)] for s in range(n)]
                state = HandState(hands, view.trump, order[0], hand_size=h, bids=bids,
                                  must_trump=rules.must_trump)
                won = self._finish(state, score, gone0, st_)
                tricks[b][won[me]] += w
                total[b] += w * score[me][won[me]]
            wsum += w
        wsum = wsum or 1.0
        values: dict[Action, float] = {BIDS[b]: total[b] / wsum for b in cands}
        best_b = max(cands, key=lambda b: (total[b], -abs(b - est)))
        probs = [x / wsum for x in tricks[best_b]]
        action = BIDS[best_b]
        note = (f"bid {best_b}: mean {values[action]:.2f} points over {used} sampled deals, "
                f"each played out by the solver (the last {self.exact_tricks} tricks exactly); "
                f"makes it in {100 * probs[best_b]:.0f}%")
        return Decision(action, values, probs, note,
                        {"deals": used,
                         "trick_probs_by_bid": {BIDS[b]: [x / wsum for x in tricks[b]] for b in cands}})
