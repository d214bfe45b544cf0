"""Inference from play: how well a sampled deal explains the cards the others have played.

The core sampler (:class:`ohhell.sampling.HandSampler`) draws deals consistent
with the rules (card counts, shown voids) and weighs them by the bids
(:func:`ohhell.sampling.bid_likelihood`).  The cards the others chose tell
more: a seat that needed a trick and played low while holding a winner, or
that dropped a high card under a winner, probably held no better choice.
:class:`PlayModel` replays this hand's plays of the other seats in a sampled
deal and scores each with a soft model of a sensible player: the card the
heuristic policy (:func:`ohhell.bots.policy.choose_card`) would play from
the sampled hand is ``1 / slack`` times as likely as any other legal card.
The product over the plays is the deal's likelihood, a relative weight.
"""

from __future__ import annotations

from typing import Sequence

from ..cards import SUIT_MASKS as _SUIT
from ..tricks import strength
from ..view import View
from .policy import choose_card

__all__ = ["PlayModel"]



class PlayModel:
    """The plays of the other seats so far in this hand, ready to be scored in sampled deals.

    :param view: the observing seat's view.
    :param slack: how likely a card other than the heuristic's is, relative to
        the heuristic's (1: plays carry no information; small: the others are
        trusted to play like the heuristic).
    """

    __slots__ = ("events", "slack", "n", "trump", "must", "scores_tricks")

    def __init__(self, view: View, slack: float = 0.35) -> None:
        self.slack = slack
        n = view.players
        self.n = n
        self.trump = -1 if view.trump is None else view.trump
        self.must = view.rules.must_trump and self.trump >= 0
        self.scores_tricks = view.rules.missed_bid_scores_tricks
        me = view.seat
        bids = view.bids
        gone = 1 << int(view.trump_card) if view.trump_card is not None else 0
        won = [0] * n
        tricks = list(view.tricks) + ([view.trick] if view.trick.cards else [])
        h = view.hand_size
        raw = []
        for t_index, t in enumerate(tricks):
            led = -1
            best = -1
            winner = t.leader
            for i, c in enumerate(t.cards):
                c = int(c)
                s = (t.leader + i) % n
                if s != me and bids[s] is not None:
                    wneed = (bids[winner] - won[winner]) if i and bids[winner] is not None else None
                    raw.append((s, c, i, led, best, winner, gone, bids[s] - won[s], h - t_index, wneed))
                if i == 0:
                    led = c // 13
                    best = strength(c, led, self.trump)
                    winner = s
                else:
                    st = strength(c, led, self.trump)
                    if st > best:
                        best, winner = st, s
                gone |= 1 << c
            if len(t.cards) == n:
                won[winner] += 1
        # the cards each seat played from each event on (to rebuild its hand at that moment)
        later = [0] * n
        events = []
        for ev in reversed(raw):
            s, c = ev[0], ev[1]
            later[s] |= 1 << c
            events.append(ev + (later[s],))
        events.reverse()
        self.events = events

    def likelihood(self, hands: Sequence[int]) -> float:
        """The relative likelihood of the observed plays if the others held ``hands`` now."""
        w = 1.0
        slack = self.slack
        n = self.n
        trump = self.trump
        tmask = _SUIT[trump] if trump >= 0 else 0
        for s, c, tl, led, best, winner, gone, need, left, wneed, held in self.events:
            hand = hands[s] | held
            # rule home: ohhell.tricks.legal_mask (inlined: this loop runs per sampled deal)
            if tl:
                legal = hand & _SUIT[led]
                if not legal:
                    legal = hand & tmask if self.must and hand & tmask else hand
            else:
                legal = hand
            if not legal & (legal - 1):
                continue
            k = legal.bit_count()
            pick = choose_card(hand, legal, tl, led, best, winner, n, trump, gone, need, left,
                               wneed, self.scores_tricks)
            if pick == c:
                w /= 1.0 + slack * (k - 1)
            else:
                w *= slack / (1.0 + slack * (k - 1))
        return w
