"""Exact endgames: the rest of a hand with every card known, solved by max^n.

In a determinized deal (every hand known, as in one sample of the search),
the last few tricks can be played out exactly instead of by a rollout
policy: every seat, at its turn, plays the card that maximises its own
score for the hand given everybody's bids, assuming every later card is
chosen the same way (max^n, Luckhardt and Irani, 1986).  Ties (a seat whose
score no card can change) are broken towards the heuristic's card, so an
indifferent seat plays as the rollout policy would.

:func:`solve` returns the tricks each seat ends with.  The search is on
bitmasks with a table of solved positions at trick boundaries (hands, leader,
tricks won), shared across calls through ``memo``; a position of ``k`` tricks
with four players visits a few hundred positions for ``k`` = 3 and a few
thousand for ``k`` = 4.
"""

from __future__ import annotations

from typing import Sequence

from ..cards import SUIT_MASKS as _SUIT, card_numbers
from ..fast import HandState
from .policy import choose_card, heuristic_playout

__all__ = ["solve", "solve_cards", "finish"]


def solve(state: HandState, score: Sequence[Sequence[float]], gone0: int = 0,
          scores_tricks: bool = False, memo: "dict | None" = None) -> list[int]:
    """The tricks each seat wins when the rest of ``state``'s hand is played by max^n.

    ``score[s][t]`` is seat ``s``'s value of ending the hand with ``t``
    tricks (its hand score under the rules, or any utility).  ``state`` is
    not modified.  ``memo`` (a dict) may be passed to share solved positions
    between calls on the same deal and bids.
    """
    if memo is None:
        memo = {}
    n = state.n
    trump = state.trump
    tmask = _SUIT[trump] if trump >= 0 else 0
    must = state.must_trump and trump >= 0
    bids = state.bids
    nxt = tuple((s + 1) % n for s in range(n))

    def legal_of(hand: int, led: int) -> int:
        # rule home: ohhell.tricks.legal_mask (inlined for speed)
        if led >= 0:
            m = hand & _SUIT[led]
            if m:
                return m
            if must and hand & tmask:
                return hand & tmask
        return hand

    def trick(hands: list, won: tuple, p: int, played: int, tl: int, led: int, best: int,
              winner: int, left: int) -> tuple:
        # Inside a trick: seat p to play, tl cards already in it.
        if tl == 0 and left:
            key = (tuple(hands), p, won)
            hit = memo.get(key)
            if hit is not None:
                return hit
        if left == 0:
            return won
        hand = hands[p]
        legal = legal_of(hand, led if tl else -1)
        # The heuristic's card first: it wins ties.
        if legal & (legal - 1):
            wn = winner
            first = choose_card(hand, legal, tl, led if tl else -1, best, wn, n, trump,
                                played | gone0, bids[p] - won[p], left,
                                (bids[wn] - won[wn]) if tl else None, scores_tricks)
        else:
            first = legal.bit_length() - 1
        best_res = None
        best_v = -1e18
        m = legal & ~(1 << first)
        order = [first]
        while m:
            low = m & -m
            order.append(low.bit_length() - 1)
            m ^= low
        sp = score[p]
        wp = won[p]
        # the best this seat could end with: no card can do better than that
        top = max(sp[wp:wp + left + 1])
        for c in order:
            bit = 1 << c
            hands[p] ^= bit
            s = c // 13
            # rule home: ohhell.tricks.strength (inlined for speed)
            if tl:
                st = 26 + c % 13 if s == trump else (13 + c % 13 if s == led else -1)
                if st > best:
                    nb, nw = st, p
                else:
                    nb, nw = best, winner
                nled = led
            else:
                nled = s
                nb = 26 + c % 13 if s == trump else 13 + c % 13
                nw = p
            if tl + 1 == n:
                w2 = list(won)
                w2[nw] += 1
                res = trick(hands, tuple(w2), nw, played | bit, 0, -1, -1, -1, left - 1)
            else:
                res = trick(hands, won, nxt[p], played | bit, tl + 1, nled, nb, nw, left)
            hands[p] ^= bit
            v = sp[res[p]]
            if v > best_v:
                best_v = v
                best_res = res
                if v >= top:
                    break
        if tl == 0:
            memo[(tuple(hands), p, won)] = best_res
        return best_res

    hands = list(state.hands)
    tl = len(state.trick)
    res = trick(hands, tuple(state.won), state.to_act, state.played, tl,
                state.led if tl else -1, state.best if tl else -1, state.winner if tl else -1,
                state.tricks_left)
    return list(res)


def finish(state: HandState, score: Sequence[Sequence[float]], exact: int, gone0: int = 0,
           scores_tricks: bool = False, memo: "dict | None" = None, playout=heuristic_playout) -> list[int]:
    """Finish ``state``'s hand: the heuristic policy (or ``playout``, called as
    ``playout(state, gone0, scores_tricks, stop=exact)``) until ``exact`` tricks are left
    (at a trick boundary), then :func:`solve`.  Returns the tricks won; ``state`` is consumed."""
    if state.tricks_left > exact:
        playout(state, gone0, scores_tricks, stop=exact)
    if state.tricks_left == 0:
        return state.won
    return solve(state, score, gone0, scores_tricks, memo)


def _classes(legal: int, live: int) -> list[int]:
    """``legal`` split into classes of equivalent cards, each a mask: cards of one suit
    with no card of ``live`` (the cards still in play) between them in rank."""
    out = []
    m = legal
    while m:
        low = m & -m
        cls = low
        c = low.bit_length() - 1
        m ^= low
        top_of_suit = (c // 13) * 13 + 12
        while m:
            nlow = m & -m
            d = nlow.bit_length() - 1
            # the same suit, and nothing still in play strictly between c and d
            if d > top_of_suit or live & (nlow - (1 << (c + 1))):
                break
            cls |= nlow
            m ^= nlow
            c = d
        out.append(cls)
    return out


def solve_cards(state: HandState, score: Sequence[Sequence[float]], gone0: int = 0,
                scores_tricks: bool = False, memo: "dict | None" = None,
                root: bool = True) -> "dict[int, list[int]] | list[int]":
    """:func:`solve` with the double-dummy solver's speed-ups, and every root card's outcome.

    The same max^n as :func:`solve` (the same tie-break towards the heuristic's card, the
    same cut-off when a seat reaches the best its score table allows, the same table of
    positions at trick boundaries), plus *equivalent cards merged*: the cards of one suit
    that a seat may play and between which no card still in play (in a hand or in the
    current trick) lies in rank lead to the same outcome, so only one of them is searched.
    Moves are ordered as :func:`solve` orders them: the heuristic's card (its class) first,
    then the classes by their lowest card.

    With ``root`` (default) returns ``{card: tricks won}`` for every legal card of the seat
    to act (each searched in full, no cut-off at the root); with ``root=False`` returns the
    tricks won, as :func:`solve` does.
    """
    if memo is None:
        memo = {}
    n = state.n
    trump = state.trump
    tmask = _SUIT[trump] if trump >= 0 else 0
    must = state.must_trump and trump >= 0
    bids = state.bids
    nxt = tuple((s + 1) % n for s in range(n))

    def legal_of(hand: int, led: int) -> int:
        # rule home: ohhell.tricks.legal_mask (inlined for speed)
        if led >= 0:
            m = hand & _SUIT[led]
            if m:
                return m
            if must and hand & tmask:
                return hand & tmask
        return hand

    def trick(hands: list, won: tuple, p: int, played: int, tl: int, led: int, best: int,
              winner: int, left: int, inplay: int, at_root: bool):
        # Inside a trick: seat p to play, tl cards already in it; inplay = the trick's cards.
        if tl == 0 and left and not at_root:
            key = (tuple(hands), p, won)
            hit = memo.get(key)
            if hit is not None:
                return hit
        if left == 0:
            return won
        hand = hands[p]
        legal = legal_of(hand, led if tl else -1)
        if legal & (legal - 1):
            wn = winner
            first = choose_card(hand, legal, tl, led if tl else -1, best, wn, n, trump,
                                played | gone0, bids[p] - won[p], left,
                                (bids[wn] - won[wn]) if tl else None, scores_tricks)
            live = inplay
            for hm in hands:
                live |= hm
            # At the root every card is searched on its own: which card of a class stays in
            # the hand can change how indifferent seats break ties later, so each root card's
            # outcome is exactly that of solving the position after it.
            classes = [1 << c for c in card_numbers(legal)] if at_root else _classes(legal, live)
            fbit = 1 << first
            order: list[tuple[int, int]] = []
            for cls in classes:
                if cls & fbit:
                    order.insert(0, (first, cls))
                else:
                    order.append(((cls & -cls).bit_length() - 1, cls))
        else:
            first = legal.bit_length() - 1
            order = [(first, legal)]
        best_res = None
        best_v = -1e18
        sp = score[p]
        wp = won[p]
        top = max(sp[wp:wp + left + 1])
        results = {}
        for c, cls in order:
            bit = 1 << c
            hands[p] ^= bit
            s = c // 13
            # rule home: ohhell.tricks.strength (inlined for speed)
            if tl:
                st = 26 + c % 13 if s == trump else (13 + c % 13 if s == led else -1)
                if st > best:
                    nb, nw = st, p
                else:
                    nb, nw = best, winner
                nled = led
            else:
                nled = s
                nb = 26 + c % 13 if s == trump else 13 + c % 13
                nw = p
            if tl + 1 == n:
                w2 = list(won)
                w2[nw] += 1
                res = trick(hands, tuple(w2), nw, played | bit, 0, -1, -1, -1, left - 1, 0, False)
            else:
                res = trick(hands, won, nxt[p], played | bit, tl + 1, nled, nb, nw, left,
                            inplay | bit, False)
            hands[p] ^= bit
            if at_root:
                m = cls
                while m:
                    low = m & -m
                    results[low.bit_length() - 1] = list(res)
                    m ^= low
                continue
            v = sp[res[p]]
            if v > best_v:
                best_v = v
                best_res = res
                if v >= top:
                    break
        if at_root:
            return results
        if tl == 0:
            memo[(tuple(hands), p, won)] = best_res
        return best_res

    hands = list(state.hands)
    tl = len(state.trick)
    inplay = 0
    for c in state.trick:
        inplay |= 1 << c
    res = trick(hands, tuple(state.won), state.to_act, state.played, tl,
                state.led if tl else -1, state.best if tl else -1, state.winner if tl else -1,
                state.tricks_left, inplay, root and state.tricks_left > 0)
    if root and state.tricks_left > 0:
        return res
    return list(res)
