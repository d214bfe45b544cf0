"""``heuristic`` (and the ``beginner`` level): fast rule-based bots.

Bids: each card's chance of taking a trick is estimated in closed form
(:func:`ohhell.sampling.card_win_chances`: trumps, high cards, suit lengths,
the number of players, the hand size, the turned card); the number of tricks
the hand takes is then a sum of independent chances (a Poisson-binomial
distribution), and the bot bids the legal bid with the highest expected score
under the active scoring rules.  Under the hook this never drops below a sure
trick (a dealer holding the trump ace never bids 0).

Play: :func:`ohhell.bots.policy.choose_card` (take tricks while the bid needs
them, duck and discard once it is made, spoil when it is lost).

>>> import ohhell
>>> g = ohhell.Game(ohhell.Rules(4), seed=1)
>>> bot = HeuristicBot(seed=1)
>>> d = bot.decide(g.view(g.to_act))
>>> round(sum(d.trick_probs), 6), d.action in g.legal_actions()
(1.0, True)
"""

from __future__ import annotations

import random

from ..actions import PLAYS
from ..game import trick_state
from ..sampling import card_win_chances
from ..scoring import hand_score
from ..view import View
from .base import Bot, Budget, Decision
from .policy import choose_card, sure_tricks
from .policy_v2 import choose_card_v2

__all__ = ["HeuristicBot", "BeginnerBot", "trick_distribution", "view_card_inputs"]


def trick_distribution(chances) -> list[float]:
    """P(exactly k tricks) for independent per-card chances (Poisson-binomial)."""
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        q = 1.0 - p
        for k, x in enumerate(dist):
            nxt[k] += x * q
            nxt[k + 1] += x * p
        dist = nxt
    return dist


def view_card_inputs(view: View) -> dict:
    """The arguments of :func:`~ohhell.bots.policy.choose_card` for a view's seat."""
    me = view.seat
    legal = 0
    for a in view.legal:
        legal |= a.bit
    trick = view.trick
    trump = -1 if view.trump is None else view.trump
    gone = view.played_mask | (1 << view.trump_card if view.trump_card is not None else 0)
    n = view.players
    if trick.cards:
        led, best, winner = trick_state(trick.cards, trick.leader, trump, n)
        wb = view.bids[winner]
        winner_need = None if wb is None else wb - view.tricks_won[winner]
    else:
        led, best, winner, winner_need = -1, -1, me, None
    bid = view.bids[me]
    return dict(hand=view.hand_mask, legal=legal, trick_len=len(trick.cards), led=led, best=best,
                winner=winner, n=n, trump=trump, gone=gone,
                need=(bid if bid is not None else 0) - view.tricks_won[me],
                tricks_left=view.hand_size - len(view.tricks), winner_need=winner_need,
                scores_tricks=view.rules.missed_bid_scores_tricks)


class HeuristicBot(Bot):
    """Rule-based: bids its hand's estimated tricks, then plays to make the bid exactly.

    ``mistakes`` (0..1) is the chance of a uniformly random card instead of
    the rule's, ``bid_noise`` the spread (in tricks) of noise added to its
    trick estimate: both 0 for ``heuristic``; the ``beginner`` level sets them.
    ``play`` picks the card policy: ``"heuristic"`` (default,
    :func:`~ohhell.bots.policy.choose_card`) or ``"v2"``
    (:func:`~ohhell.bots.policy_v2.choose_card_v2`, which weighs each card's odds of
    holding a trick and reads the voids shown).
    Decisions take well under a millisecond.
    """

    name = "heuristic"

    def __init__(self, seed: "int | str | None" = None, *, mistakes: float = 0.0,
                 bid_noise: float = 0.0, play: str = "heuristic") -> None:
        if play not in ("heuristic", "v2"):
            raise ValueError(f"play must be one of heuristic, v2, not {play!r}")
        self.rng = random.Random(seed)
        self.mistakes = mistakes
        self.bid_noise = bid_noise
        self.play = play

    def decide(self, view: View, budget: Budget | None = None) -> Decision:
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has no action to take now")
        if view.phase == "bid":
            return self._bid(view, legal)
        return self._play(view, legal)

    def _bid(self, view: View, legal) -> Decision:
        trump = -1 if view.trump is None else view.trump
        tc = -1 if view.trump_card is None else int(view.trump_card)
        chances = card_win_chances(view.hand_mask, trump, view.players, view.hand_size, tc)
        probs = [p for _, p in chances]
        if self.bid_noise:
            shift = self.rng.gauss(0.0, self.bid_noise) / max(1, len(probs))
            probs = [min(1.0, max(0.0, p + shift)) for p in probs]
        dist = trick_distribution(probs)
        h = view.hand_size
        rules = view.rules
        values = {a: sum(dist[t] * hand_score(a.tricks, t, h, rules) for t in range(h + 1)) for a in legal}
        sure = sure_tricks(view.hand_mask, trump, tc)
        best = max(legal, key=lambda a: (a.tricks >= sure, values[a], -a.tricks))
        est = sum(probs)
        note = f"hand worth about {est:.1f} tricks; bid {best.tricks}"
        if sure:
            note += f" ({sure} sure from top trumps)"
        return Decision(best, values, dist, note, {"estimate": est})

    def _play(self, view: View, legal) -> Decision:
        if self.mistakes and self.rng.random() < self.mistakes:
            a = self.rng.choice(legal)
            return Decision(a, {x: float(x is a) for x in legal}, note="a careless card")
        args = view_card_inputs(view)
        if self.play == "v2" and view.seat is not None:
            c = choose_card_v2(args["hand"], args["legal"], view.seat, args["trick_len"], args["led"],
                               args["best"], args["winner"], args["n"], args["trump"], args["gone"],
                               args["tricks_left"], [0 if b is None else b for b in view.bids],
                               view.tricks_won, view.voids, args["scores_tricks"],
                               view.rules.must_trump and args["trump"] >= 0)
        else:
            c = choose_card(**args)
        action = PLAYS[c]
        need = args["need"]
        why = ("needs %d more trick%s" % (need, "" if need == 1 else "s") if need > 0 else
               "bid made: ducking" if need == 0 else "bid lost: spoiling")
        return Decision(action, {x: float(x is action) for x in legal}, note=why)


class BeginnerBot(HeuristicBot):
    """The ``beginner`` level: the heuristic's plan with a casual player's slips
    (a random card one time in three, bids off by about a trick)."""

    name = "beginner"

    def __init__(self, seed: "int | str | None" = None, *, mistakes: float = 0.35,
                 bid_noise: float = 1.0) -> None:
        super().__init__(seed, mistakes=mistakes, bid_noise=bid_noise)

