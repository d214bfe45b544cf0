"""Actions: a :class:`Bid` or a :class:`Play` of a card.

Actions are shared, immutable singletons: ``Bid(2) is Bid(2)`` and
``Play("QS") is Play(49)``, so the engine allocates nothing per decision.
Every action also has an integer :attr:`id`: a play is its card number 0..51
and a bid of ``b`` is ``52 + b`` (the numbering of the research API).

>>> Bid(2).tricks, str(Play("qs").card), Play("QS").id, Bid(0).id
(2, 'QS', 49, 52)
>>> parse_action("bid 3"), parse_action("10h")
(Bid(3), Play('TH'))
"""

from __future__ import annotations

from .cards import CARDS, Card, parse_card
from .errors import CardError, IllegalActionError, show

__all__ = ["Action", "Bid", "Play", "BIDS", "PLAYS", "MAX_BID", "parse_action", "action_from_id"]

MAX_BID = 52  #: bids are whole numbers 0..MAX_BID (the rules then allow 0..hand size)


class Action:
    """Base class of :class:`Bid` and :class:`Play`."""

    __slots__ = ()
    id: int

    def to_json(self) -> "int | str":
        """The action as it appears in a record: a bid's number or a card's name."""
        raise NotImplementedError


class Bid(Action):
    """A bid of ``tricks`` tricks.

    :raises IllegalActionError: when ``tricks`` is not a whole number 0..52.
    """

    __slots__ = ("tricks", "id")
    tricks: int

    def __new__(cls, tricks: int) -> "Bid":
        if type(tricks) is int and 0 <= tricks <= MAX_BID:
            return BIDS[tricks]
        if isinstance(tricks, int) and not isinstance(tricks, bool) and 0 <= tricks <= MAX_BID:
            return BIDS[int(tricks)]
        raise IllegalActionError(f"not a bid: {show(tricks)} (a bid is a whole number of tricks, 0 or more)",
                                 action=tricks)

    def __repr__(self) -> str:
        return f"Bid({self.tricks})"

    def __str__(self) -> str:
        return f"bid {self.tricks}"

    def __reduce__(self):
        return (Bid, (self.tricks,))

    def __setattr__(self, name, value):
        raise AttributeError("actions are immutable")

    def to_json(self) -> int:
        return self.tricks


class Play(Action):
    """Playing ``card`` (a :class:`~ohhell.cards.Card`; give a name or a number).

    :raises CardError: when the argument names no card.
    """

    __slots__ = ("card", "bit", "id", "suit", "rank")
    card: Card
    bit: int
    suit: int
    rank: int

    def __new__(cls, card: "str | int") -> "Play":
        if type(card) is int or type(card) is Card:
            if 0 <= card < 52:
                return PLAYS[card]
        return PLAYS[parse_card(card)]

    def __repr__(self) -> str:
        return f"Play('{self.card}')"

    def __str__(self) -> str:
        return str(self.card)

    def __reduce__(self):
        return (Play, (int(self.card),))

    def __setattr__(self, name, value):
        raise AttributeError("actions are immutable")

    def to_json(self) -> str:
        return str(self.card)


def _make_bid(b: int) -> Bid:
    obj = object.__new__(Bid)
    object.__setattr__(obj, "tricks", b)
    object.__setattr__(obj, "id", 52 + b)
    return obj


def _make_play(c: int) -> Play:
    obj = object.__new__(Play)
    object.__setattr__(obj, "card", CARDS[c])
    object.__setattr__(obj, "bit", 1 << c)
    object.__setattr__(obj, "id", c)
    object.__setattr__(obj, "suit", c // 13)
    object.__setattr__(obj, "rank", c % 13)
    return obj


BIDS: tuple[Bid, ...] = tuple(_make_bid(b) for b in range(MAX_BID + 1))
PLAYS: tuple[Play, ...] = tuple(_make_play(c) for c in range(52))


def action_from_id(action_id: int) -> Action:
    """The action with integer id ``action_id`` (0..51 plays, 52.. bids).

    :raises IllegalActionError: for an id that is no action.
    """
    if type(action_id) is int and 0 <= action_id < 52 + MAX_BID + 1:
        return PLAYS[action_id] if action_id < 52 else BIDS[action_id - 52]
    raise IllegalActionError(f"not an action id: {show(action_id)}", action=action_id)


def parse_action(text: "str | int") -> Action:
    """Parse an action as people or records write it.

    ``"3"``, ``"bid 3"``, ``"b3"`` and the int ``3`` are bids; a card name
    (``"QS"``, ``"10h"``, ``"play QS"``) is a play.

    :raises IllegalActionError: when the text is neither.
    """
    if isinstance(text, Action):
        return text
    if isinstance(text, int) and not isinstance(text, bool):
        return Bid(text)
    if not isinstance(text, str):
        raise IllegalActionError(f"not an action: {show(text)}", action=text)
    t = text.strip().lower()
    for prefix in ("bid ", "bid", "b", ""):
        number = t[len(prefix):].strip()
        if t.startswith(prefix) and number.isascii() and number.isdecimal() and len(number) <= 3:
            return Bid(int(number))
    if t.startswith("play "):
        t = t[5:]
    try:
        return PLAYS[parse_card(t)]
    except CardError:
        raise IllegalActionError(f"not an action: {show(text)} (write a bid such as 2 or a card such as QS)",
                                 action=text) from None
