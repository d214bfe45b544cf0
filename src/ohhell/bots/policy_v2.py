"""The ``v2`` play policy: :func:`ohhell.bots.policy.choose_card`'s plan with odds instead of certainties.

The first policy calls a card safe only when no unseen card can beat it, so
in a short hand (5 cards each, most of the deck undealt) a king is never
safe while the ace is unseen, though the ace is most likely in the stock.
``v2`` plays from what the seat knows, as the first one does, but weighs it:

* **Odds of a card holding the trick** (:func:`win_chance`): every unseen
  card is as likely as any other to be in a given hand or in the stock; the
  seats still to play that want tricks overtake when one of them holds a
  higher card of the suit (counted jointly: with no stock an unseen ace is
  surely somewhere) or, void in the suit (shown, else by the odds of its card
  count), a trump that beats it; a seat that has made its bid overtakes only
  when it must (no lower card of the suit; a ruff only under ``must_trump``).
  A seat whose bid is lost wants tricks when missed bids score them, or to
  spoil a seat that needs them.
* **Sure tricks against the need.** Cards that will very likely win when
  led (``SURE``) are counted, and so is the expected number of winners (each
  card's odds when led, summed); when the sure cards cover what the bid still
  needs, or the expected winners exceed it by ``MARGIN``, the seat plays to
  lose this trick: it ducks with its most dangerous card that is not a sure
  one, or, when every card may win, plays the one least likely to.
* **Taking a trick:** the cheapest card that holds it with good odds
  (``SAFE``); when only one trick is still needed, the card most likely to
  hold (getting rid of a high card with it); a riskier winner when the bid is
  pressed for time (needs at least half the tricks left) or the odds reach
  ``FIGHT``; else a cheap discard.
* **Leading, tricks needed:** every trick needed: the likeliest winner; sure
  trumps that cover the need: lose the lead with another card; else cash a
  sure side card (before a ruff spoils it), draw trumps with a sure trump, or
  lead the likeliest winner when it wins at least ``CASH`` of the time; else
  lead low from the shortest side suit when holding a trump (to ruff it
  later), from the longest when not.
* **Bid made:** lead the card least likely to win, discard the card most
  likely to win later, follow with the highest card that loses (as before).
* **Bid lost:** as :func:`ohhell.bots.policy.choose_card` (take tricks when
  missed bids score them, else spoil).

Voids are tracked during a playout (a seat that did not follow the suit led
holds none of it; under ``must_trump``, one that also did not trump holds no
trump: :func:`ohhell.tricks.voids_shown`).  The policy never reads the other
seats' hands: only its own, the cards played, the bids, the tricks won and
the voids shown, so it is a fair player as well as a rollout policy.
"""

from __future__ import annotations

from typing import Sequence, cast

from ..cards import SUIT_MASKS as _SUIT
from ..fast import HandState
from .policy import _ABOVE, _FULL, PLAYOUTS, _beating, _high, _low, _low_of, _spoil, choose_card

__all__ = ["choose_card_v2", "playout_v2", "win_chance", "eagerness"]


def _nohold_table() -> tuple:
    # _NOHOLD[u][t][k]: the chance that t cards drawn from u unseen cards hold none of k given ones
    out = []
    for u in range(53):
        row = []
        for t in range(53):
            col = [1.0]
            p = 1.0
            for i in range(13):
                p = 0.0 if u - t - i <= 0 or u - i <= 0 else p * (u - t - i) / (u - i)
                col.append(p)
            row.append(tuple(col))
        out.append(tuple(row))
    return tuple(out)


_NOHOLD = _nohold_table()
#: a card this likely to win when led counts as a sure trick
SURE = 0.85
#: the cheapest winner at least this likely to hold is played when tricks are needed
SAFE = 0.75
#: with one trick to go, the likeliest winner is played when it holds at least this often
ONE = 0.5
#: with more to go and time to spare, a risky winner is played when it holds this often
FIGHT = 0.25
#: on lead, the card likeliest to win is cashed when it wins at least this often
CASH = 0.25
#: tricks are to spare when the sure cards cover the need, or the expected winners
#: (each card's odds when led, summed) exceed it by this much
MARGIN = 0.3


def eagerness(me: int, n: int, tricks_left: int, bids: Sequence, won: Sequence[int], scores_tricks: bool,
              my_need: int) -> list:
    """Which seats want tricks (``True``) and which duck when they can, as seat ``me`` sees it:
    a seat that still needs tricks and can make its bid wants them; one whose bid is lost wants
    them when missed bids score their tricks, or (spoiling) when ``me`` needs tricks."""
    out = []
    for j in range(n):
        bj = bids[j]
        need = bj - won[j] if bj is not None else 1
        if 0 < need <= tricks_left:
            out.append(True)
        elif need == 0:
            out.append(False)
        else:
            out.append(scores_tricks or my_need > 0)
    return out


def win_chance(c: int, me: int, tl: int, led: int, n: int, trump: int, out: int, u: int,
               tricks_left: int, eager: Sequence[bool], voids: "Sequence[int] | None",
               must: bool = False, _NOHOLD=_NOHOLD, _ABOVE=_ABOVE, _SUIT=_SUIT) -> float:
    """The chance that card ``c``, played now by seat ``me`` as the ``tl``-th card of the trick
    (0: the lead) and beating the cards already in it, holds the trick.

    ``out`` is the cards the seat has not seen (``u`` of them), in the other hands or the
    stock, every unseen card as likely as any other to be in a given hand; every seat still
    to play holds ``tricks_left`` of them.  A seat that wants tricks (``eager``) overtakes
    when it holds a higher card of the suit or, void in it (shown in ``voids``, else by the
    odds), a trump that beats ``c``; one that does not only when it must (it holds no lower
    card of the suit; void, it ruffs only under ``must``).
    """
    s = c // 13
    if tl == 0:
        led = s
    t = tricks_left
    nl = n - 1 - tl
    if nl <= 0:
        return 1.0
    nh = _NOHOLD[u][t]
    k = (out & _ABOVE[c]).bit_count()
    s_led = (out & _SUIT[led]).bit_count()
    if trump >= 0:
        kt = k if s == trump else (out & _SUIT[trump]).bit_count()   # trumps that beat c
    else:
        kt = 0
    ruff = (1.0 - _NOHOLD[u - s_led][t][kt]) if kt and led != trump else 0.0
    void = nh[s_led]
    forced = (1.0 - nh[k]) * nh[s_led - k] if s == led else 0.0
    p = 1.0
    eager_followers = 0
    j = me
    for _ in range(nl):
        j = j + 1 if j + 1 < n else 0
        vj = voids[j] if voids is not None else 0
        if vj >> led & 1:
            if ruff and not vj >> trump & 1 and (eager[j] or must):
                p *= 1.0 - ruff
            continue
        if s != led:
            # a ruff of a side suit: overtaken only by a void seat's higher trump
            if eager[j] or must:
                p *= 1.0 - void * ruff
        elif eager[j]:
            eager_followers += 1
            p *= 1.0 - void * ruff
        else:
            p *= 1.0 - forced - (void * ruff if must else 0.0)
    if eager_followers and k:
        # none of the higher cards in the hands of the seats that would play one (jointly: with
        # no stock an unseen ace is surely in some hand)
        held = t * eager_followers
        p *= _NOHOLD[u][held if held < u else u][k]
    return p if p > 0.0 else 0.0


def choose_card_v2(hand: int, legal: int, me: int, tl: int, led: int, best: int, winner: int, n: int,
                   trump: int, gone: int, tricks_left: int, bids: Sequence, won: Sequence[int],
                   voids: "Sequence[int] | None" = None, scores_tricks: bool = False,
                   must: bool = False) -> int:
    """The ``v2`` card for seat ``me`` holding ``hand`` (``legal`` its legal cards).

    The trick has ``tl`` cards (``led`` suit, ``best`` strength as in
    :func:`ohhell.fast.trick_strength`, ``winner`` the seat winning it); ``gone`` is
    every card out of play that the seat has seen (played, the turned trump card);
    ``bids`` and ``won`` every seat's bid and tricks; ``voids[s]`` the suits seat ``s``
    has shown it lacks (bit ``u`` for suit ``u``; ``None``: none known); ``must`` whether a
    seat that cannot follow must trump.
    """
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    out = _FULL & ~gone & ~hand
    u = out.bit_count()
    tmask = _SUIT[trump] if trump >= 0 else 0
    last = tl == n - 1
    need = bids[me] - won[me]
    if need < 0 or need > tricks_left:
        if not scores_tricks:
            wn = bids[winner] - won[winner] if tl else None
            return _spoil(legal, tl, led, best, trump, out, wn, last)
        need = tricks_left
    eg = eagerness(me, n, tricks_left, bids, won, scores_tricks, need)
    if need == 0:
        return _stay_under(hand, legal, me, tl, led, best, n, trump, out, u, tricks_left, eg, voids, must, last)
    # --- need > 0: the sure tricks in hand (each card's odds when led, as if leading now)
    sure_t = 0
    sure_s = 0
    sure = 0
    expect = 0.0
    chances = []
    m = hand
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        pc = win_chance(c, me, 0, -1, n, trump, out, u, tricks_left, eg, voids, must)
        expect += pc
        chances.append((c, pc))
        if pc >= SURE:
            sure |= low
            if c // 13 == trump:
                sure_t += 1
            else:
                sure_s += 1
    if tl == 0:
        return _lead_need(hand, legal, me, n, trump, tmask, out, u, need, tricks_left, eg, voids, must,
                          sure, sure_t, chances)
    wins = _beating(legal, best, led, trump)
    spare = (sure_t + sure_s >= need or expect >= need + MARGIN) and need < tricks_left
    if spare:
        # the sure cards make the bid: lose this trick if a card that is not needed can
        loses = legal & ~wins
        if loses:
            keep = loses & ~sure or loses
            follow = keep & _SUIT[led]
            return _high(follow) if follow else _danger(keep, me, n, trump, out, u, tricks_left, eg, voids, must)
        if sure & wins and not wins & ~sure:
            # only sure cards: take it with the one most exposed to a ruff later (a side card)
            side = wins & ~tmask
            return _high(side) if side else _low(wins)
        cand = wins & ~sure or wins
        # every card may win: the one least likely to
        return _least_likely(cand, me, tl, led, n, trump, out, u, tricks_left, eg, voids, must)
    if not wins:
        return _discard(legal, trump, tmask, led, hand)
    if last:
        if need == 1:
            return _danger(wins, me, n, trump, out, u, tricks_left, eg, voids, must)
        return _low_of(wins, led, trump)
    # odds of each winner holding the trick
    best_c, best_p = -1, -1.0
    cheap_c = -1
    m = wins
    # cheapest first: led suit low to high, then trumps low to high
    order = []
    if wins & _SUIT[led]:
        order.append(wins & _SUIT[led])
    if tmask and wins & tmask and led != trump:
        order.append(wins & tmask)
    for m in order:
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            pw = win_chance(c, me, tl, led, n, trump, out, u, tricks_left, eg, voids, must)
            if cheap_c < 0 and pw >= SAFE:
                cheap_c = c
            if pw > best_p + 1e-9:
                best_c, best_p = c, pw
    if need == 1 and best_p >= ONE:
        return best_c
    if cheap_c >= 0:
        return cheap_c
    if 2 * need >= tricks_left or best_p >= FIGHT:
        return best_c
    return _discard(legal, trump, tmask, led, hand)


def _discard(legal: int, trump: int, tmask: int, led: int, hand: int) -> int:
    """The least useful card when tricks are needed later: the lowest of the led suit, else a
    low side card (keeping trumps and high cards)."""
    if led >= 0 and legal & _SUIT[led]:
        return _low(legal & _SUIT[led])
    side = legal & ~tmask
    if side:
        best_c, best_r = -1, 99
        for s in range(4):
            x = side & _SUIT[s]
            if x:
                c = _low(x)
                r = c - 13 * s
                if r < best_r:
                    best_c, best_r = c, r
        return best_c
    return _low(legal)


def _danger(m: int, me: int, n: int, trump: int, out: int, u: int, tricks_left: int, eg, voids, must) -> int:
    """The card of ``m`` most likely to win a trick later (to get rid of it now): its odds when
    led, trumps first among equals, then the higher rank."""
    best_c, best_v = -1, -1.0
    x = m
    while x:
        low = x & -x
        x ^= low
        c = low.bit_length() - 1
        v = win_chance(c, me, 0, -1, n, trump, out, u, tricks_left, eg, voids, must)
        v += 0.02 * (c % 13) + (0.3 if c // 13 == trump else 0.0)
        if v > best_v:
            best_c, best_v = c, v
    return best_c


def _least_likely(m: int, me: int, tl: int, led: int, n: int, trump: int, out: int, u: int,
                  tricks_left: int, eg, voids, must) -> int:
    """The card of ``m`` least likely to hold this trick (ties: the lower rank)."""
    best_c, best_v = -1, 9.0
    x = m
    while x:
        low = x & -x
        x ^= low
        c = low.bit_length() - 1
        v = win_chance(c, me, tl, led, n, trump, out, u, tricks_left, eg, voids, must) + 0.001 * (c % 13)
        if v < best_v:
            best_c, best_v = c, v
    return best_c


def _stay_under(hand: int, legal: int, me: int, tl: int, led: int, best: int, n: int, trump: int,
                out: int, u: int, tricks_left: int, eg, voids, must, last: bool) -> int:
    """Bid made: lose the trick, shedding the cards most likely to win later."""
    if tl == 0:
        return _least_likely(legal, me, 0, -1, n, trump, out, u, tricks_left, eg, voids, must)
    loses = legal & ~_beating(legal, best, led, trump)
    if loses:
        follow = loses & _SUIT[led]
        if follow:
            return _high(follow)
        return _danger(loses, me, n, trump, out, u, tricks_left, eg, voids, must)
    # every legal card wins so far
    if last:
        x = legal & _SUIT[led]
        if x:
            return _high(x)
        return _danger(legal, me, n, trump, out, u, tricks_left, eg, voids, must)
    return _least_likely(legal, me, tl, led, n, trump, out, u, tricks_left, eg, voids, must)


def _lead_need(hand: int, legal: int, me: int, n: int, trump: int, tmask: int, out: int, u: int,
               need: int, tricks_left: int, eg, voids, must, sure: int, sure_t: int, chances) -> int:
    """On lead, tricks still needed (``chances``: each card of the hand with its odds when led)."""
    if need >= tricks_left:
        # every trick: the card most likely to hold, a trump among equals
        return max(chances, key=lambda x: (x[1] + 0.001 * (x[0] % 13) + (0.01 if x[0] // 13 == trump else 0.0)))[0]
    if sure_t >= need:
        # the sure trumps make the bid whenever they are played: lose the lead with another card
        rest = legal & ~(sure & tmask)
        if rest:
            return min((x for x in chances if rest >> x[0] & 1), key=lambda x: x[1] + 0.001 * (x[0] % 13))[0]
        return _high(legal)
    side_sure = sure & ~tmask
    if side_sure:
        # cash a side master before someone runs out of the suit
        return max((x for x in chances if side_sure >> x[0] & 1), key=lambda x: x[1] + 0.001 * (x[0] % 13))[0]
    if sure & tmask and out & tmask:
        # draw trumps with a sure one while others hold trumps (more is needed than the sure ones)
        return _high(sure & tmask)
    c, pc = max(chances, key=lambda x: x[1] + 0.001 * (x[0] % 13))
    if pc >= CASH:
        return c
    # no likely winner: lead low from a side suit, keeping the high cards: the shortest when
    # holding a trump (to ruff it later), else the longest
    short = hand & tmask
    best_s, best_len = -1, 0 if not short else 99
    for s in range(4):
        if s == trump:
            continue
        ln = (legal & _SUIT[s]).bit_count()
        if ln and ((ln > best_len) if not short else (ln < best_len)):
            best_s, best_len = s, ln
    if best_s >= 0:
        return _low(legal & _SUIT[best_s])
    return _low(legal)


def playout_v2(state: HandState, gone0: int = 0, scores_tricks: bool = False, stop: int = 0,
               voids: "Sequence[int] | None" = None, only: int = -1) -> list[int]:
    """Finish ``state``'s hand with every seat playing :func:`choose_card_v2`; returns tricks won.

    As :func:`ohhell.bots.policy.heuristic_playout` (``state.bids`` complete, ``gone0`` the
    turned trump card's bit, ``state`` consumed, ``stop``); ``voids`` the suits each seat has
    shown it lacks before the playout (the playout adds those it shows).  ``only`` (a seat):
    that seat plays ``v2`` and every other seat the heuristic's card
    (:func:`ohhell.bots.policy.choose_card`), as a searching seat may model its own play and
    the others'.
    """
    n = state.n
    hands = state.hands
    bids = cast("list[int]", state.bids)     # complete in a playout
    won = state.won
    trump = state.trump
    must = state.must_trump and trump >= 0
    tmask = _SUIT[trump] if trump >= 0 else 0
    vd = list(voids) if voids is not None else [0] * n
    # rule home: ohhell.tricks.legal_mask (inlined for speed; trump is -1 for none here)
    # rule home: ohhell.tricks.voids_shown (inlined: the voids a card shows, as it is played)
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
        else:
            led = -1
            legal = hand
        if not legal & (legal - 1):
            c = legal.bit_length() - 1
        elif only < 0 or p == only:
            c = choose_card_v2(hand, legal, p, tl, led, state.best, state.winner, n, trump,
                               state.played | gone0, state.tricks_left, bids, won, vd, scores_tricks, must)
        else:
            wn = state.winner
            c = choose_card(hand, legal, tl, led, state.best, wn, n, trump, state.played | gone0,
                            bids[p] - won[p], state.tricks_left, bids[wn] - won[wn] if tl else None,
                            scores_tricks)
        if tl and c // 13 != led:
            vd[p] |= 1 << led
            if must and c // 13 != trump:
                vd[p] |= 1 << trump
        state.play(c)
    return won


PLAYOUTS["v2"] = playout_v2
