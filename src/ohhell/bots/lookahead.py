"""One round of lookahead for the learned level: each candidate card is tried on a few deals
of the hidden cards, the other seats answer with the play network until the seat is to play
again, and the network's value head scores the position it then sees.

A seat plays again after exactly ``players - 1`` cards by the others (or the hand ends), so
each candidate on each deal costs ``players - 1`` policy passes and one value pass, batched
across the deals and the candidates.
"""

from __future__ import annotations

import random
from typing import Sequence

from ..actions import BIDS, PLAYS
from ..game import Game
from ..sampling import HandSampler
from ..scoring import hand_score
from ..view import View

__all__ = ["hand_from_view", "lookahead_values"]


def hand_from_view(view: View, hands: Sequence[int]) -> Game:
    """A one-hand :class:`~ohhell.game.Game` at the view's position, with ``hands[s]`` as the
    cards seat ``s`` holds now (the view's own hand for its seat): its bids and the cards
    played so far are replayed in order, so ``game.view(s)`` is what seat ``s`` would see
    there (this hand's part of it)."""
    n = view.players
    me = view.seat
    assert me is not None
    rules = view.rules.hand_alone(view.hand_index)
    deal = [hands[s] if s != me else view.hand_mask for s in range(n)]
    for t in (*view.tricks, view.trick):
        for i, c in enumerate(t.cards):
            deal[(t.leader + i) % n] |= 1 << int(c)
    g = Game.from_deals(rules, {0: (deal, view.trump_card)}, dealer=view.dealer, seed=0)
    for i in range(n):
        s = (view.dealer + 1 + i) % n
        g.apply(BIDS[view.bids[s]], seat=s)
    for t in (*view.tricks, view.trick):
        for c in t.cards:
            g.apply(PLAYS[int(c)])
    return g


def lookahead_values(net, view: View, cards: Sequence[int], deals: int, rng: random.Random,
                     to_end: bool = False) -> dict[int, float]:
    """The expected hand score of playing each card of ``cards`` (ints) now, averaged over
    ``deals`` uniform deals of the hidden cards: the others answer with the network's most
    likely card, and the network's value head scores the seat's next turn (the exact score
    when the hand ends first).  ``to_end``: every seat, this one too, plays the network's card
    to the end of the hand, and the hand's exact score counts."""
    me = view.seat
    assert me is not None
    rules = view.rules
    h = view.hand_size
    bid = view.bids[me]
    sampler = HandSampler(view, rng)
    worlds = [hand_from_view(view, sampler.sample().hands) for _ in range(deals)]
    games = []
    for c in cards:
        for w in worlds:
            g = w.copy()
            g.apply(PLAYS[c])
            games.append((c, g))
    while True:
        moving = [g for _, g in games if g.phase_name == "play" and (to_end or g.to_act != me)]
        if not moving:
            break
        views = [g.view(g.to_act) for g in moving]
        for g, v, (policy, _) in zip(moving, views, net.evaluate_batch(views)):
            g.apply(net.best_card(v.legal, policy))
    totals = {c: 0.0 for c in cards}
    live = [(c, g) for c, g in games if g.phase_name == "play"]
    if live:
        views = [g.view(me) for _, g in live]
        for (c, _), v, (_, tricks) in zip(live, views, net.evaluate_batch(views)):
            totals[c] += net.value(v, tricks)
    for c, g in games:
        if g.phase_name != "play":
            totals[c] += hand_score(bid, g.past_hands[-1].tricks_won[me], h, rules)
    return {c: t / deals for c, t in totals.items()}
