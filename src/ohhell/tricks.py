"""The one home of the rules of play: legal cards, a trick's winner, the hook.

Every rule that decides a bid or a card lives here once, as a small function on
plain ints, and everything that is not a speed-critical inner loop calls it:

* :func:`legal_mask` - follow suit if able; under ``must_trump`` a player who
  cannot follow must trump if able; otherwise any card;
* :func:`play_fault` - why a card is not legal now (the reason behind
  :class:`~ohhell.errors.IllegalActionError`), or ``None``;
* :func:`strength`, :func:`trick_state`, :func:`trick_winner` - the highest
  trump wins the trick, else the highest card of the suit led;
* :func:`hook_bid` - the bid the hook forbids the last bidder;
* :func:`voids_shown` - what the cards played reveal: a seat that did not
  follow holds none of the suit led (under must trump, none of trump either).
* :func:`rejection` - the error, with its reason, for an action that is not
  legal (what :meth:`Game.check <ohhell.game.Game.check>` and
  :meth:`View.rejection <ohhell.view.View.rejection>` return; worded for
  players by :func:`ohhell.text.explain_illegal`).

Conventions: a card is an int ``suit * 13 + rank``; a hand is a 52-bit mask;
``trump`` and ``led`` are a suit 0..3 or ``None`` (no trump; no card led yet).
The fast paths may pass ``-1`` for "none" instead: every function here treats
``-1`` exactly as ``None``.

Copies kept inline for speed point here with a comment ``rule home:
ohhell.tricks.<name>`` and are tested against these functions in lockstep
(``tests/core/test_rule_homes.py``, ``tests/env/test_kernel_rules.py``):
:class:`ohhell.game.Game` (``apply`` and
``legal_actions``), :mod:`ohhell.fast`, the numba kernels of
:mod:`ohhell.env._kernels`, and the bots' search loops
(:mod:`ohhell.bots.solver`, :mod:`ohhell.bots.policy`,
:mod:`ohhell.bots.inference`).

>>> from ohhell.cards import parse_card as c, cards_to_mask as m
>>> trick_winner([c("QS"), c("2H"), c("KS")], leader=1, trump=2, players=4)   # 2H trumps
2
>>> legal_mask(m(["AD", "3C", "5C"]), led=0, trump=None, must_trump=False) == m(["3C", "5C"])
True
>>> hook_bid(hand_size=3, others_total=1)
2
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence

from .actions import Bid, Play
from .cards import SUIT_NAMES
from .errors import IllegalActionError, show

__all__ = ["strength", "trick_state", "trick_winner", "legal_mask", "play_fault", "hook_bid",
           "voids_shown", "rejection", "FAULTS"]

_SUIT_MASK = tuple(0x1FFF << (13 * s) for s in range(4))

#: The reasons :func:`play_fault` and the game give for an illegal action (the
#: ``code`` of an :class:`~ohhell.errors.IllegalActionError`), with what each means.
FAULTS = {
    "not_an_action": "the input names no bid and no card",
    "not_allowed": "(never given: a guard in case the checks disagree)",
    "game_over": "the game is over",
    "no_such_seat": "there is no such seat",
    "already_bid": "the seat has already bid this hand (simultaneous bidding)",
    "not_your_turn": "another seat is to act",
    "must_bid": "the bidding is on: a bid, not a card",
    "bid_too_high": "a bid above the hand size",
    "hook": "the hook forbids the dealer's bid that would make the bids total the tricks",
    "must_play": "the bidding is over: a card, not a bid",
    "not_held": "the seat does not hold the card",
    "must_follow": "the seat holds the suit led and must follow it",
    "must_trump": "under must trump, a seat that cannot follow must trump if able",
}


def _suit(x: Optional[int]) -> int:
    return -1 if x is None else x


def strength(card: int, led: Optional[int], trump: Optional[int]) -> int:
    """How strongly ``card`` stands in a trick: ``26 + rank`` for a trump,
    ``13 + rank`` for the suit led, ``-1`` for a discard.  The highest wins."""
    s = card // 13
    if s == _suit(trump):
        return 26 + card % 13
    if s == _suit(led):
        return 13 + card % 13
    return -1


def trick_state(cards: Sequence[int], leader: int, trump: Optional[int],
                players: int) -> tuple[int, int, int]:
    """``(suit led, strength of the best card, seat winning so far)`` of a trick's
    cards in play order from ``leader``; ``(-1, -1, -1)`` before the lead.

    The ``-1`` sentinels are for the engine's inner state; read the winner with
    :func:`trick_winner` when you need ``None``.
    """
    if not cards:
        return -1, -1, -1
    led = cards[0] // 13
    best, winner = -1, leader
    for i, c in enumerate(cards):
        st = strength(c, led, trump)
        if st > best:
            best, winner = st, (leader + i) % players
    return led, best, winner


def trick_winner(cards: Sequence[int], leader: int, trump: Optional[int],
                 players: int) -> Optional[int]:
    """The seat winning a trick so far (or that won it), ``None`` before the lead."""
    return trick_state(cards, leader, trump, players)[2] if cards else None


def legal_mask(hand: int, led: Optional[int], trump: Optional[int], must_trump: bool) -> int:
    """The cards of ``hand`` (a mask) that may be played to a trick whose suit
    led is ``led`` (``None``: this card leads)."""
    if led is None or led < 0:
        return hand
    m = hand & _SUIT_MASK[led]
    if m:
        return m
    t = _suit(trump)
    if must_trump and t >= 0:
        m = hand & _SUIT_MASK[t]
        if m:
            return m
    return hand


def play_fault(hand: int, card: int, led: Optional[int], trump: Optional[int],
               must_trump: bool) -> Optional[str]:
    """Why ``card`` may not be played from ``hand`` now: ``"not_held"``,
    ``"must_follow"`` or ``"must_trump"`` (see :data:`FAULTS`); ``None`` when it may."""
    if not hand >> card & 1:
        return "not_held"
    if legal_mask(hand, led, trump, must_trump) >> card & 1:
        return None
    assert led is not None
    return "must_follow" if hand & _SUIT_MASK[led] else "must_trump"


def hook_bid(hand_size: int, others_total: int) -> Optional[int]:
    """The bid the hook forbids the last bidder, whose rivals bid ``others_total``
    in all: the one that would make the bids total the number of tricks
    (``None`` when the others already bid more than the hand size)."""
    x = hand_size - others_total
    return x if 0 <= x <= hand_size else None


def voids_shown(tricks: Iterable[tuple[int, Sequence[int]]], players: int, trump: Optional[int],
                must_trump: bool) -> list[int]:
    """What the play shows about who holds no card of a suit: ``voids[s]`` has bit
    ``u`` set when seat ``s`` has shown it holds no card of suit ``u``.

    ``tricks`` are ``(leader, cards)`` pairs of this hand, the open trick
    included.  A seat that did not follow the suit led holds none of it; under
    ``must_trump``, a seat that neither followed nor trumped holds no trump.
    """
    t = _suit(trump)
    voids = [0] * players
    for leader, cards in tricks:
        if not cards:
            continue
        led = cards[0] // 13
        for i, c in enumerate(cards):
            s = c // 13
            if s != led:
                seat = (leader + i) % players
                voids[seat] |= 1 << led
                if must_trump and t >= 0 and s != t:
                    voids[seat] |= 1 << t
    return voids


def rejection(action: object, seat: object, *, players: int, phase: str, to_act: Optional[int],
              has_bid: bool, simultaneous: bool, hand_size: int, forbidden: Optional[int], hand: int,
              led: Optional[int], trump: Optional[int], must_trump: bool) -> IllegalActionError:
    """The :class:`~ohhell.errors.IllegalActionError` for an action that is not legal
    for ``seat``, saying exactly why (its ``code`` is one of :data:`FAULTS`, its
    ``facts`` the numbers a front end needs to word it; see
    :func:`ohhell.text.explain_illegal`).

    The facts are what ``seat`` itself may know: ``has_bid`` whether it has bid
    this hand, ``forbidden`` the bid the hook forbids it now (``None``: none),
    ``hand`` its cards (a mask), ``led`` the suit led to the open trick (``None``
    before the lead).  :class:`~ohhell.game.Game` and :class:`~ohhell.view.View`
    both call this, so they always agree.
    """
    what = (f"bid {action.tricks}" if isinstance(action, Bid) else
            f"play {action.card}" if isinstance(action, Play) else repr(action))
    facts: dict = {"seat": seat, "to_act": to_act, "hand_size": hand_size}

    def err(code: str, reason: str, **more: object) -> IllegalActionError:
        facts.update(more)
        return IllegalActionError(f"illegal {what}: {reason}", seat=seat if isinstance(seat, int) else None,
                                  action=action, reason=reason, code=code, facts=facts)

    n = players
    if phase == "over":
        return err("game_over", "the game is over")
    if seat.__class__ is not int or not 0 <= seat < n:
        return err("no_such_seat", f"there is no seat {show(seat)} (seats are 0 to {n - 1})")
    if phase == "bid" and simultaneous:
        if has_bid:
            return err("already_bid", f"seat {seat} has already bid this hand")
    elif seat != to_act:
        return err("not_your_turn", f"it is seat {to_act}'s turn, not seat {seat}'s")
    h = hand_size
    if phase == "bid":
        if not isinstance(action, Bid):
            return err("must_bid", f"seat {seat} must bid first (0 to {h})")
        b = action.tricks
        if b > h:
            return err("bid_too_high", f"bids are 0 to {h} with {h} card{'s' if h != 1 else ''} each", bid=b)
        if b == forbidden:
            return err("hook", f"seat {seat} is the dealer and, with the hook, may not bid {b}, "
                       f"which would make the bids total {h}, the number of tricks", bid=b)
        return err("not_allowed", "not allowed")  # pragma: no cover - legal_actions and this must agree
    if not isinstance(action, Play):
        return err("must_play", f"the bidding is over; seat {seat} must play a card")
    card = action.card
    fault = play_fault(hand, card, led, trump, must_trump)
    if fault == "not_held":
        return err(fault, f"seat {seat} does not hold {card}", card=int(card))
    if fault == "must_follow":
        assert led is not None
        return err(fault, f"seat {seat} holds {SUIT_NAMES[led]} and must follow {SUIT_NAMES[led]}",
                   card=int(card), led=led)
    if fault == "must_trump":
        assert led is not None and trump is not None
        return err(fault, f"seat {seat} cannot follow {SUIT_NAMES[led]} and, under must trump, "
                   f"must play a trump ({SUIT_NAMES[trump]})", card=int(card), led=led, trump=trump)
    return err("not_allowed", "not allowed")  # pragma: no cover
