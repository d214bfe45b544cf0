"""The rule-based policy on bitmasks: bids and card choices that aim to make a bid exactly.

This is the brain of the ``heuristic`` bot and the rollout policy of the
``expert`` bot's search, so it works on raw masks and ints (no views, no
action objects) and allocates almost nothing per decision.

Card play, for a seat that still needs ``need`` tricks:

* ``need > 0``: on lead, draw trumps with the top trump when every remaining
  trick is needed (or when the top trump is ours and trumps are out), else
  cash a master (a card no unseen card can beat), else lead low from the
  longest side suit; following, win as cheaply as is safe (the lowest card
  that no later card can beat, the lowest winner when last), and play low
  when the trick cannot be won.
* ``need == 0`` (bid made): lead the card with most unseen cards above it,
  follow with the highest card that still loses, discard the most dangerous
  card (high cards, then high trumps) and never trump a trick a discard would
  lose.
* ``need < 0`` or a bid that can no longer be made: when missed bids score
  their tricks, take tricks; otherwise spoil: let a seat that has made its bid
  win the trick (so it goes over), take the trick from a seat that needs it.
"""

from __future__ import annotations

import math
from typing import Sequence

from ..cards import SUIT_MASKS as _SUIT
from ..fast import HandState
from ..sampling import card_win_chances

__all__ = ["choose_card", "heuristic_playout", "mixed_playout", "heuristic_bid", "sure_tricks", "PLAYOUTS"]

_FULL = (1 << 52) - 1
# _ABOVE[c]: the cards of c's suit ranked above c
_ABOVE = tuple(_SUIT[c // 13] & ~((2 << c) - 1) for c in range(52))


def _low(m: int) -> int:
    return (m & -m).bit_length() - 1


def _high(m: int) -> int:
    return m.bit_length() - 1


def _beating(legal: int, best: int, led: int, trump: int) -> int:
    """The cards of ``legal`` that beat a trick whose best strength is ``best``.

    Rule home: :func:`ohhell.tricks.strength` (a card beats the trick when its
    strength is above ``best``), inlined on masks for speed.
    """
    out = 0
    if best >= 26:           # a trump is winning: only higher trumps beat it
        if trump >= 0:
            out = legal & _SUIT[trump] & ~((1 << (trump * 13 + best - 26 + 1)) - 1)
        return out
    # led suit is winning at rank best-13
    out = legal & _SUIT[led] & ~((1 << (led * 13 + best - 13 + 1)) - 1)
    if trump >= 0 and trump != led:
        out |= legal & _SUIT[trump]
    return out


def _lowest_rank(m: int) -> int:
    """The card of lowest rank in ``m`` (ties: the lower suit)."""
    best_c, best_r = -1, 99
    for s in range(4):
        x = m & _SUIT[s]
        if x:
            c = _low(x)
            r = c - 13 * s
            if r < best_r:
                best_c, best_r = c, r
    return best_c


def _highest_rank(m: int) -> int:
    best_c, best_r = -1, -1
    for s in range(4):
        x = m & _SUIT[s]
        if x:
            c = _high(x)
            r = c - 13 * s
            if r > best_r:
                best_c, best_r = c, r
    return best_c


def choose_card(hand: int, legal: int, trick_len: int, led: int, best: int, winner: int,
                n: int, trump: int, gone: int, need: int, tricks_left: int,
                winner_need: "int | None" = None, scores_tricks: bool = False) -> int:
    """The heuristic card for a seat holding ``hand`` (``legal`` its legal cards).

    ``trick_len`` cards are in the current trick (``led`` suit, ``best``
    strength as in :func:`ohhell.fast.trick_strength`, ``winner`` the seat
    winning it so far); ``gone`` is every card this seat knows is out of play
    (played this hand, the turned trump card); ``need`` is its bid minus
    tricks won and ``tricks_left`` the tricks still to play, this one
    included; ``winner_need`` the current winner's bid minus tricks won.
    """
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    out = _FULL & ~gone & ~hand           # cards that others may hold
    tmask = _SUIT[trump] if trump >= 0 else 0
    last = trick_len == n - 1
    if need < 0 or need > tricks_left:
        if scores_tricks:
            need = tricks_left            # every trick is a point now
        else:
            return _spoil(legal, trick_len, led, best, trump, out, winner_need, last)
    if need > 0:
        if trick_len == 0:
            return _lead_to_win(hand, legal, trump, tmask, out, need, tricks_left)
        wins = _beating(legal, best, led, trump)
        if not wins:
            return _discard_cheap(legal, trump, tmask, led)
        if last:
            if need == 1:
                # this trick makes the bid: take it with the card most likely to win later
                return _most_dangerous(wins, trump, out)
            return _low_of(wins, led, trump)
        safe = 0
        m = wins
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            if c // 13 == trump:
                if not out & _ABOVE[c]:
                    safe |= low
            elif not out & _ABOVE[c] and not (trump >= 0 and out & tmask and trick_len < 2 and
                                              (out & _SUIT[c // 13]).bit_count() < n):
                safe |= low
        if safe:
            return _low_of(safe, led, trump)
        if 2 * need >= tricks_left or wins & tmask:
            # fight for it: the highest winner (the lowest ruff when trumping)
            if wins & tmask and not wins & _SUIT[led]:
                return _low(wins & tmask)
            return _high(wins & _SUIT[led]) if wins & _SUIT[led] else _high(wins)
        return _discard_cheap(legal, trump, tmask, led)
    # need == 0: stay under
    if trick_len == 0:
        return _lead_to_lose(legal, trump, out)
    loses = legal & ~_beating(legal, best, led, trump)
    if loses:
        follow = loses & _SUIT[led]
        if follow:
            return _high(follow)
        return _most_dangerous(loses, trump, out)
    # every legal card wins so far
    if last:
        return _high(legal & _SUIT[led]) if legal & _SUIT[led] else _highest_rank(legal)
    return _low_of(legal, led, trump)


def _low_of(m: int, led: int, trump: int) -> int:
    """The cheapest card of ``m``: the lowest of the led suit, else the lowest trump, else lowest rank."""
    if led >= 0 and m & _SUIT[led]:
        return _low(m & _SUIT[led])
    if trump >= 0 and m & _SUIT[trump]:
        return _low(m & _SUIT[trump])
    return _lowest_rank(m)


def _discard_cheap(legal: int, trump: int, tmask: int, led: int) -> int:
    """The least useful card when we want tricks later: a low card, keeping trumps."""
    if led >= 0 and legal & _SUIT[led]:
        return _low(legal & _SUIT[led])
    side = legal & ~tmask
    if side:
        return _lowest_rank(side)
    return _low(legal)


def _lead_to_win(hand: int, legal: int, trump: int, tmask: int, out: int, need: int,
                 tricks_left: int) -> int:
    trumps = legal & tmask
    out_trumps = out & tmask
    if trumps:
        top = _high(trumps)
        top_master = not out & _ABOVE[top]
        if top_master and out_trumps and (need >= tricks_left or trumps.bit_count() >= 2
                                          or need * 2 >= tricks_left):
            return top
    # cash a side master, preferring the suit others hold most of (least likely to be ruffed)
    best_c, best_k = -1, -1
    for s in range(4):
        if s == trump:
            continue
        x = legal & _SUIT[s]
        if not x:
            continue
        c = _high(x)
        if not out & _ABOVE[c]:
            k = (out & _SUIT[s]).bit_count()
            if k > best_k:
                best_c, best_k = c, k
    if best_c >= 0 and (best_k > 0 or not out_trumps):
        return best_c
    if trumps and not out & _ABOVE[_high(trumps)]:
        return _high(trumps)
    if best_c >= 0:
        return best_c
    if need >= tricks_left:
        side = legal & ~tmask
        return _highest_rank(side) if side else _high(legal)
    # lead low from the longest side suit, keeping the high cards for later
    best_s, best_len = -1, 0
    for s in range(4):
        if s == trump:
            continue
        ln = (legal & _SUIT[s]).bit_count()
        if ln > best_len:
            best_s, best_len = s, ln
    if best_s >= 0:
        return _low(legal & _SUIT[best_s])
    return _low(legal)


def _lead_to_lose(legal: int, trump: int, out: int) -> int:
    """The lead least likely to win: most unseen cards above it (trumps count as riskier)."""
    best_c, best_score = -1, -99
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        above = (out & _ABOVE[c]).bit_count()
        if above == 0:
            score = -10 - c % 13        # a sure winner: lead it only if nothing else
        else:
            score = above * 2 - (3 if c // 13 == trump else 0)
            if not out & _SUIT[c // 13] & ~_ABOVE[c] and above:
                score += 1
        if score > best_score or (score == best_score and c % 13 < best_c % 13):
            best_c, best_score = c, score
    return best_c


def _most_dangerous(m: int, trump: int, out: int) -> int:
    """The card most likely to win a trick later (to get rid of it now)."""
    best_c, best_score = -1, -99
    x = m
    while x:
        low = x & -x
        c = low.bit_length() - 1
        x ^= low
        score = 13 - (out & _ABOVE[c]).bit_count() * 2 + c % 13 // 2
        if c // 13 == trump:
            score += 8
        if score > best_score:
            best_c, best_score = c, score
    return best_c


def _spoil(legal: int, trick_len: int, led: int, best: int, trump: int, out: int,
           winner_need: "int | None", last: bool) -> int:
    """Our bid is lost: make the others miss theirs."""
    if trick_len == 0:
        return _lowest_rank(legal)
    wins = _beating(legal, best, led, trump)
    if winner_need is not None and winner_need > 0 and wins:
        return _low_of(wins, led, trump)    # take the trick it needs
    loses = legal & ~wins
    if loses:
        follow = loses & _SUIT[led]
        return _high(follow) if follow else _most_dangerous(loses, trump, out)
    return _low_of(legal, led, trump)


def heuristic_playout(state: HandState, gone0: int = 0, scores_tricks: bool = False,
                      stop: int = 0) -> list[int]:
    """Finish ``state``'s hand with every seat playing :func:`choose_card`; returns tricks won.

    ``state.bids`` must be complete.  ``gone0`` is the turned trump card's
    bit (public, out of play).  ``state`` is consumed.  With ``stop``, play
    stops at the first trick boundary with ``stop`` tricks left.
    """
    n = state.n
    hands = state.hands
    bids = state.bids
    won = state.won
    trump = state.trump
    must = state.must_trump and trump >= 0
    tmask = _SUIT[trump] if trump >= 0 else 0
    # rule home: ohhell.tricks.legal_mask (inlined for speed; trump is -1 for none here)
    while state.tricks_left:
        p = state.to_act
        hand = hands[p]
        tl = len(state.trick)
        if not tl and state.tricks_left <= stop:
            break
        if tl:
            led = state.led
            legal = hand & _SUIT[led]
            if not legal:
                legal = hand & tmask if must and hand & tmask else hand
            wn = state.winner
            wneed = bids[wn] - won[wn]
        else:
            led = -1
            legal = hand
            wneed = None
        if legal & (legal - 1):
            c = choose_card(hand, legal, tl, led, state.best, state.winner, n, trump,
                            state.played | gone0, bids[p] - won[p], state.tricks_left, wneed,
                            scores_tricks)
        else:
            c = legal.bit_length() - 1
        state.play(c)
    return won


def mixed_playout(state: HandState, me: int, gone0: int, scores_tricks: bool, rand) -> list[int]:
    """Finish the hand with seat ``me`` on :func:`choose_card` and every other seat
    playing uniformly random legal cards; returns tricks won (``state`` is consumed)."""
    bids = state.bids
    won = state.won
    hands = state.hands
    trump = state.trump
    tmask = _SUIT[trump] if trump >= 0 else 0
    must = state.must_trump and trump >= 0
    # rule home: ohhell.tricks.legal_mask (inlined for speed; trump is -1 for none here)
    while state.tricks_left:
        p = state.to_act
        hand = hands[p]
        tl = len(state.trick)
        if tl:
            legal = hand & _SUIT[state.led]
            if not legal:
                legal = hand & tmask if must and hand & tmask else hand
        else:
            legal = hand
        if not legal & (legal - 1):
            c = legal.bit_length() - 1
        elif p == me:
            wn = state.winner
            c = choose_card(hand, legal, tl, state.led if tl else -1, state.best, wn, state.n, trump,
                            state.played | gone0, bids[p] - won[p], state.tricks_left,
                            bids[wn] - won[wn] if tl else None, scores_tricks)
        else:
            k = int(rand() * legal.bit_count())
            m = legal
            while k:
                m &= m - 1
                k -= 1
            c = (m & -m).bit_length() - 1
        state.play(c)
    return won


#: The rollout policies by name: ``playout(state, gone0, scores_tricks, stop=0)`` finishes the
#: hand with every seat on that policy (``"heuristic"``: :func:`heuristic_playout`;
#: ``"v2"``: :func:`ohhell.bots.policy_v2.playout_v2`, added by that module, which imports this one).
PLAYOUTS = {"heuristic": heuristic_playout}


# --- bidding ----------------------------------------------------------------------------

def sure_tricks(hand: int, trump: int, trump_card: int = -1) -> int:
    """Tricks a hand takes whatever happens: its unbroken run of top trumps.

    The turned trump card is out of play, so the run may pass over it
    (holding the king when the ace is turned up is a sure trick).
    """
    if trump < 0:
        return 0
    k = 0
    gone = 1 << trump_card if trump_card >= 0 else 0
    for r in range(12, -1, -1):
        bit = 1 << (trump * 13 + r)
        if hand & bit:
            k += 1
        elif not gone & bit:
            break
    return k


def heuristic_bid(hand: int, trump: int, players: int, hand_size: int, trump_card: int,
                  legal_bids: Sequence[int], *, others_total: int = 0, bids_made: int = 0,
                  bias: float = 0.0) -> tuple[int, float]:
    """The heuristic's bid and its trick estimate.

    Rounds the estimated tricks (:func:`ohhell.sampling.estimate_tricks`),
    never bids below the sure tricks, and, when the hook forbids the natural
    bid, takes the legal bid nearest the estimate on the side the hand
    supports (never dropping below a sure trick such as the trump ace).
    """
    chances = card_win_chances(hand, trump, players, hand_size, trump_card)
    est = sum(p for _, p in chances) + bias
    sure = sure_tricks(hand, trump, trump_card)
    # an almost-certain card is worth a full trick, a long shot worth none
    natural = int(math.floor(est + 0.5))
    natural = max(sure, min(hand_size, natural))
    if natural in legal_bids:
        return natural, est
    options = sorted(legal_bids, key=lambda b: (b < sure, abs(b - est), b))
    return options[0], est
