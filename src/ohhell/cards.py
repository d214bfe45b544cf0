"""Cards, suits and hands as plain integers.

A card is an ``int`` from 0 to 51: ``card = suit * 13 + rank``.

* suits: 0 clubs, 1 diamonds, 2 hearts, 3 spades (``"CDHS"``);
* ranks: 0 is the two, 8 the ten, 12 the ace (``"23456789TJQKA"``).

Each suit is therefore one 13-bit block of a 52-bit integer, and a *hand*
(any set of cards) is such an integer with one bit per card (bit ``card``).
Following suit is one AND (``hand & SUIT_MASKS[suit]``), removing a card one
XOR, and the highest card of a suit ``mask.bit_length() - 1``.

:class:`Card` is an ``int`` subclass whose ``str`` is the card's two-letter
name, so ``CARDS[49]`` is ``Card('QS')`` and still equals ``49``.

OpenSpiel's ``oh_hell`` numbers cards rank-major with its suits in the order
clubs, diamonds, spades, hearts: ``openspiel = rank * 4 + {C: 0, D: 1, S: 2,
H: 3}[suit]``.  :func:`to_openspiel` and :func:`from_openspiel` convert.

>>> parse_card("10d"), str(parse_card("♠q")), int(parse_card("AS"))
(Card('TD'), 'QS', 51)
>>> format_hand(cards_to_mask(["QS", "2H", "AH", "7C"]))
'7C 2H AH QS'
"""

from __future__ import annotations

from typing import Iterable

from .errors import CardError, show

__all__ = [
    "SUITS", "RANKS", "SUIT_NAMES", "SUIT_SYMBOLS", "CLUBS", "DIAMONDS", "HEARTS", "SPADES",
    "Card", "CARDS", "FULL_DECK", "SUIT_MASKS", "SUIT_SHIFT", "RANK_MASK",
    "card_suit", "card_rank", "card_numbers", "parse_card", "parse_cards", "cards_to_mask", "mask_to_cards",
    "format_hand", "to_openspiel", "from_openspiel", "suit_of_text",
]

SUITS = "CDHS"
RANKS = "23456789TJQKA"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = "♣♦♥♠"
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3

RANK_MASK = 0x1FFF                      #: the 13 bits of one suit, shifted to bit 0
SUIT_SHIFT = (0, 13, 26, 39)            #: where each suit's block starts
SUIT_MASKS = tuple(RANK_MASK << (13 * s) for s in range(4))  #: all cards of a suit
FULL_DECK = (1 << 52) - 1               #: all 52 cards

# OpenSpiel's suit order is C, D, S, H.
_OS_SUIT = (0, 1, 3, 2)   # our suit -> OpenSpiel suit
_OS_SUIT_BACK = (0, 1, 3, 2)


class Card(int):
    """A playing card: an ``int`` 0..51 whose ``str`` is its name (``'QS'``).

    Build one with ``Card('QS')``, ``Card(49)`` or :func:`parse_card`; all
    return the same 52 shared instances.

    :raises CardError: for text or a number that names no card.
    """

    __slots__ = ()

    def __new__(cls, value: "int | str") -> "Card":
        if isinstance(value, str):
            return parse_card(value)
        try:
            return CARDS[value] if 0 <= value < 52 and not isinstance(value, bool) else _bad(value)
        except TypeError:
            raise CardError(f"not a card: {show(value)}") from None

    @property
    def suit(self) -> int:
        """The suit, 0..3 (clubs, diamonds, hearts, spades)."""
        return self // 13

    @property
    def rank(self) -> int:
        """The rank, 0 (two) to 12 (ace)."""
        return self % 13

    @property
    def bit(self) -> int:
        """The card's bit in a hand mask."""
        return 1 << self

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card('{_NAMES[self]}')"

    def __format__(self, spec: str) -> str:
        return format(_NAMES[self], spec)

    def __reduce__(self):
        return (Card, (int(self),))

    def pretty(self) -> str:
        """The card with a suit symbol, e.g. ``'Q♠'``."""
        return RANKS[self % 13] + SUIT_SYMBOLS[self // 13]


def _bad(value: object):
    raise CardError(f"not a card: {show(value)} (cards are numbered 0 to 51)")


_NAMES = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52))
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, c) for c in range(52))
_BY_NAME = {name: CARDS[c] for c, name in enumerate(_NAMES)}

_SUIT_TEXT = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3,
              "♧": 0, "♢": 1, "♡": 2, "♤": 3}
_RANK_TEXT = {r: i for i, r in enumerate(RANKS)}
_RANK_TEXT["10"] = 8


def card_suit(card: int) -> int:
    """The suit of a card number."""
    return card // 13


def card_rank(card: int) -> int:
    """The rank of a card number (0 = two, 12 = ace)."""
    return card % 13


def suit_of_text(text: str) -> int:
    """Parse a suit: a letter ``CDHS`` (any case), a symbol, or a name.

    :raises CardError: for anything else.
    """
    t = text.strip()
    s = _SUIT_TEXT.get(t.upper())
    if s is None:
        names = {n: i for i, n in enumerate(SUIT_NAMES)}
        s = names.get(t.lower()) if t.lower() in names else names.get(t.lower() + "s")
    if s is None:
        raise CardError(f"not a suit: {show(text)} (use C, D, H or S)")
    return s


def parse_card(text: "str | int") -> Card:
    """Parse a card name: ``'QS'``, ``'10D'``, ``'td'``, ``'Q♠'``, ``'♠Q'``.

    Rank then suit is usual; suit then rank is accepted too (OpenSpiel writes
    ``'SQ'``), since no letter is both a rank and a suit.  An ``int`` 0..51 is
    returned as its :class:`Card`.

    :raises CardError: when the text names no card.
    """
    if isinstance(text, Card):
        return text
    if isinstance(text, int) and not isinstance(text, bool):
        return Card(text)
    if not isinstance(text, str):
        raise CardError(f"not a card: {show(text)}")
    card = _BY_NAME.get(text)
    if card is not None:
        return card
    t = text.strip().upper()
    if len(t) >= 2:
        for rank_text, suit_text in ((t[:-1], t[-1]), (t[1:], t[0])):
            r = _RANK_TEXT.get(rank_text)
            s = _SUIT_TEXT.get(suit_text)
            if r is not None and s is not None:
                return CARDS[s * 13 + r]
    raise CardError(f"not a card: {show(text)} (write rank then suit, e.g. QS, 10D, 7c, A♥)")


def parse_cards(items: "Iterable[str | int] | str") -> list[Card]:
    """Parse several cards, from an iterable or from one string split on spaces/commas."""
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    return [parse_card(x) for x in items]


def cards_to_mask(cards: "Iterable[str | int]") -> int:
    """The hand mask of some cards (names or numbers).

    :raises CardError: on a bad card or a card given twice.
    """
    mask = 0
    for x in cards:
        c = parse_card(x)
        bit = 1 << c
        if mask & bit:
            raise CardError(f"card {c} is given twice")
        mask |= bit
    return mask


def card_numbers(mask: int) -> list[int]:
    """The card numbers (plain ints) in a hand mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_to_cards(mask: int) -> list[Card]:
    """The cards of a hand mask, lowest first (clubs 2 ... spades ace)."""
    return [CARDS[c] for c in card_numbers(mask)]


def format_hand(mask: int, *, pretty: bool = False) -> str:
    """A hand as text, suit by suit, each suit low to high: ``'7C 2H AH QS'``."""
    cards = mask_to_cards(mask)
    return " ".join(c.pretty() if pretty else str(c) for c in cards)


def to_openspiel(card: int) -> int:
    """Our card number -> OpenSpiel ``oh_hell``'s card number (its deal/play action)."""
    return (card % 13) * 4 + _OS_SUIT[card // 13]


def from_openspiel(action: int) -> Card:
    """OpenSpiel ``oh_hell``'s card number -> our :class:`Card`."""
    if not 0 <= action < 52:
        raise CardError(f"not an OpenSpiel card number: {action!r}")
    return CARDS[_OS_SUIT_BACK[action % 4] * 13 + action // 4]
