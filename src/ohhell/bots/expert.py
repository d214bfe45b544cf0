"""``expert``: determinized search over sampled deals with heuristic rollouts.

Each decision:

1. draws deals of the hidden cards from the core sampler
   (:class:`ohhell.sampling.HandSampler`: exact, never breaks a shown void),
   each weighted by how well it explains the bids already made
   (:func:`ohhell.sampling.bid_likelihood`);
2. for a card: plays each legal card in every sampled deal and finishes the
   hand with every seat following the heuristic policy
   (:func:`ohhell.bots.policy.heuristic_playout`), the same deals for every
   card (common random numbers, so the comparison is sharp); the value of a
   card is its weighted mean score;
3. for a bid: in every sampled deal, the seats still to bid bid as the
   heuristic would (the dealer respecting the hook), the hand is played out
   for each candidate bid, and the bot picks the bid with the highest expected
   score under the active scoring rules; the reasoning gives the probability
   of each number of tricks and each bid's expected score;
4. late in the game (the last ``late_hands`` hands) the objective adds the
   chance of winning the game to the hand's score, so the bot will break its
   own bid to stop a rival who would otherwise overtake it.

The budget: ``iterations`` sampled deals per decision (default 160) and a
wall-clock cap of ``seconds`` (default 0.8 s); whichever ends first.
"""

from __future__ import annotations

import math
import random
import time

from ..actions import BIDS
from ..fast import HandState
from ..sampling import HandSampler, bid_likelihood, card_win_chances
from ..scoring import hand_score
from ..view import View
from .base import Bot, Budget, Decision
from .heuristic import trick_distribution
from .policy import heuristic_playout, sure_tricks

__all__ = ["ExpertBot"]

_SUIT = tuple(0x1FFF << (13 * s) for s in range(4))


def _dist_bid(hand: int, trump: int, n: int, h: int, tc: int, legal: "list[int]", rules) -> int:
    """The heuristic's bid for a sampled hand (expected-score argmax, never below sure tricks)."""
    dist = trick_distribution([p for _, p in card_win_chances(hand, trump, n, h, tc)])
    sure = sure_tricks(hand, trump, tc)
    best, best_v = legal[0], -1e9
    for b in legal:
        v = sum(dist[t] * hand_score(b, t, h, rules) for t in range(h + 1))
        if b < sure:
            v -= 100
        if v > best_v:
            best, best_v = b, v
    return best


class ExpertBot(Bot):
    """Search: sampled deals (bid-weighted) x heuristic rollouts, score-aware late in the game.

    :param seed: seeds the bot's sampler (a seeded bot is reproducible given
        an iteration budget).
    :param iterations: sampled deals per decision (``Budget.iterations`` overrides).
    :param seconds: wall-clock cap per decision (``Budget.seconds`` overrides).
    :param weighted: weight deals by the bids (``False``: uniform).
    :param late_hands: in the game's last this-many hands, value winning the game too.
    """

    name = "expert"

    def __init__(self, seed: "int | str | None" = None, *, iterations: int = 160,
                 seconds: float = 0.8, weighted: bool = True, late_hands: int = 2,
                 win_weight: float = 25.0) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.weighted = weighted
        self.late_hands = late_hands
        self.win_weight = win_weight

    # --- the objective ------------------------------------------------------------------

    def _late(self, view: View) -> bool:
        return self.late_hands > 0 and view.hand_count - view.hand_index <= self.late_hands

    def _utility(self, view: View, scores) -> float:
        """The hand's score for this seat plus, late in the game, the value of winning."""
        me = view.seat
        u = float(scores[me])
        if not self._late(view):
            return u
        finals = [t + s for t, s in zip(view.totals, scores)]
        rival = max(f for s, f in enumerate(finals) if s != me)
        margin = finals[me] - rival
        after = view.hand_count - view.hand_index - 1
        if after == 0:
            win = 1.0 if margin > 0 else (0.5 if margin == 0 else 0.0)
        else:
            win = 0.5 * (1.0 + math.erf(margin / (12.0 * math.sqrt(after) * math.sqrt(2))))
        return u + self.win_weight * win

    # --- deciding -----------------------------------------------------------------------

    def decide(self, view: View, budget: Budget | None = None) -> Decision:
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has no action to take now")
        iters = self.iterations
        secs = self.seconds
        if budget is not None:
            if budget.iterations is not None:
                iters = max(1, budget.iterations)
            if budget.seconds is not None:
                secs = budget.seconds
        deadline = time.perf_counter() + secs
        if view.phase == "bid":
            return self._bid(view, legal, iters, deadline)
        return self._play(view, legal, iters, deadline)

    def _deals(self, view: View):
        sampler = HandSampler(view, self.rng)
        weighted = self.weighted and any(b is not None for s, b in enumerate(view.bids) if s != view.seat)
        while True:
            d = sampler.sample()
            w = bid_likelihood(view, d.hands) if weighted else 1.0
            yield d.hands, w

    def _play(self, view: View, legal, iters: int, deadline: float) -> Decision:
        if len(legal) == 1:
            return Decision(legal[0], {legal[0]: 0.0}, note="the only legal card")
        rules = view.rules
        me = view.seat
        h = view.hand_size
        bids = list(view.bids)
        scores_tricks = rules.missed_bid_scores_tricks
        gone0 = 1 << view.trump_card if view.trump_card is not None else 0
        cards = [a.card for a in legal]
        k = len(cards)
        tot_u = [0.0] * k
        tot_s = [0.0] * k
        made = [0.0] * k
        wsum = 0.0
        done = 0
        clock = time.perf_counter
        for hands, w in self._deals(view):
            if w > 0:
                base = HandState.from_view(view, hands)
                for i in range(k):
                    st = base.copy()
                    st.play(cards[i])
                    won = heuristic_playout(st, gone0, scores_tricks)
                    scores = [hand_score(bids[s], won[s], h, rules) for s in range(view.players)]
                    tot_u[i] += w * self._utility(view, scores)
                    tot_s[i] += w * scores[me]
                    made[i] += w * (won[me] == bids[me])
                wsum += w
            done += 1
            if done >= iters or clock() > deadline:
                break
        if wsum <= 0:
            wsum = 1.0
        ev = {legal[i]: tot_s[i] / wsum for i in range(k)}
        util = [tot_u[i] / wsum for i in range(k)]
        bi = max(range(k), key=lambda i: (util[i], -cards[i] % 13))
        best = legal[bi]
        note = (f"{best.card}: expected {ev[best]:.2f} points, makes the bid "
                f"{100 * made[bi] / wsum:.0f}% of {done} sampled deals")
        stats = {"deals": done, "make_chance": {legal[i]: made[i] / wsum for i in range(k)}}
        if self._late(view):
            stats["utility"] = {legal[i]: util[i] for i in range(k)}
            note += " (weighing the game score)"
        return Decision(best, ev, None, note, stats)

    def _bid(self, view: View, legal, iters: int, deadline: float) -> Decision:
        rules = view.rules
        n = view.players
        me = view.seat
        h = view.hand_size
        trump = -1 if view.trump is None else view.trump
        tc = -1 if view.trump_card is None else int(view.trump_card)
        gone0 = 1 << tc if tc >= 0 else 0
        legal_bids = [a.tricks for a in legal]
        if len(legal_bids) == 1:
            return Decision(legal[0], {legal[0]: 0.0}, note="the only legal bid")
        # Bid order from the dealer's left; the seats after us still to bid.
        order = [(view.dealer + 1 + i) % n for i in range(n)]
        pending = [s for s in order if s != me and view.bids[s] is None]
        hook_dealer = rules.hook and view.dealer != me and view.dealer in pending
        leader = order[0]
        # Candidate bids: near the closed-form estimate first, widened by what the rollouts show.
        dist0 = trick_distribution([p for _, p in card_win_chances(view.hand_mask, trump, n, h, tc)])
        mean0 = sum(t * p for t, p in enumerate(dist0))
        sure = sure_tricks(view.hand_mask, trump, tc)
        cands = sorted({b for b in legal_bids if abs(b - mean0) <= 1.6 or b == sure})
        if not cands:
            cands = legal_bids[:]
        tricks = {b: [0.0] * (h + 1) for b in legal_bids}
        util = {b: 0.0 for b in legal_bids}
        score = {b: 0.0 for b in legal_bids}
        wsum = 0.0
        done = 0
        clock = time.perf_counter
        widened = False
        all_bids_range = list(range(h + 1))
        for hands, w in self._deals(view):
            if w > 0:
                base_bids = list(view.bids)
                for s in pending:
                    if s == view.dealer and rules.hook:
                        continue
                    base_bids[s] = _dist_bid(hands[s], trump, n, h, tc, all_bids_range, rules)
                for b in cands:
                    bids = base_bids[:]
                    bids[me] = b
                    if hook_dealer:
                        forbid = h - sum(x for s, x in enumerate(bids) if s != view.dealer)
                        opts = [x for x in all_bids_range if x != forbid]
                        bids[view.dealer] = _dist_bid(hands[view.dealer], trump, n, h, tc, opts, rules)
                    st = HandState(hands, trump, leader, hand_size=h, bids=bids,
                                   must_trump=rules.must_trump)
                    won = heuristic_playout(st, gone0, rules.missed_bid_scores_tricks)
                    scores = [hand_score(bids[s], won[s], h, rules) for s in range(n)]
                    tricks[b][won[me]] += w
                    util[b] += w * self._utility(view, scores)
                    score[b] += w * scores[me]
                wsum += w
            done += 1
            if not widened and done >= max(8, iters // 5):
                # add any legal bid the rollouts say is reachable
                widened = True
                seen = [t for b in cands for t in range(h + 1) if tricks[b][t] > 0]
                extra = {b for b in legal_bids if seen and min(seen) - 1 <= b <= max(seen) + 1} - set(cands)
                if extra:
                    cands = sorted(set(cands) | extra)
                    # restart the tallies so every candidate sees the same deals
                    tricks = {b: [0.0] * (h + 1) for b in legal_bids}
                    util = {b: 0.0 for b in legal_bids}
                    score = {b: 0.0 for b in legal_bids}
                    wsum = 0.0
                    done = 0
            if (done >= iters and widened) or clock() > deadline:
                break
        if wsum <= 0:
            wsum = 1.0
        values = {BIDS[b]: score[b] / wsum for b in cands}
        u = {b: util[b] / wsum for b in cands}
        best_b = max(cands, key=lambda b: (u[b], -abs(b - mean0)))
        probs = [x / wsum for x in tricks[best_b]]
        best = BIDS[best_b]
        note = (f"bid {best_b}: expected {values[best]:.2f} points; "
                f"makes it in {100 * probs[best_b]:.0f}% of {done} sampled deals")
        stats = {"deals": done, "trick_probs_by_bid": {BIDS[b]: [x / wsum for x in tricks[b]] for b in cands}}
        if self._late(view):
            stats["utility"] = {BIDS[b]: u[b] for b in cands}
            note += " (weighing the game score)"
        return Decision(best, values, probs, note, stats)

