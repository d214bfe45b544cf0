"""The small immutable pieces of a game's state, shared by the core's modules.

* :class:`Phase` - where a game stands: ``"bid"``, ``"play"`` or ``"over"``
  (a ``str`` enum: the same type in :class:`~ohhell.game.Game`,
  :class:`~ohhell.view.View` and the JSON they produce);
* :class:`Trick` - one trick: who led, the cards in play order, who won;
* :class:`HandRecord` - everything about one finished hand.

They live here, not in :mod:`ohhell.game`, so the modules that read a game
(views, records, text) need not import the game itself.
"""

from __future__ import annotations

import enum
from typing import NamedTuple, Optional

from .cards import Card

__all__ = ["Phase", "BID", "PLAY", "OVER", "PHASES", "Trick", "HandRecord"]


class Phase(enum.StrEnum):
    """The phase of a hand: bidding, playing, or the game is over.

    A ``str``, so ``phase == "bid"`` holds and JSON writes ``"bid"``.
    """

    BID = "bid"
    PLAY = "play"
    OVER = "over"


BID, PLAY, OVER = Phase.BID, Phase.PLAY, Phase.OVER
PHASES = (BID, PLAY, OVER)


class Trick(NamedTuple):
    """A trick: who led, the cards in play order, and who won (``None`` while open)."""

    leader: int
    cards: tuple[Card, ...]
    winner: Optional[int]

    def seat_of(self, i: int, players: int) -> int:
        """The seat that played the trick's ``i``-th card."""
        return (self.leader + i) % players


class HandRecord(NamedTuple):
    """Everything about one finished hand (immutable).

    ``deal[s]`` is seat ``s``'s cards as a mask, ``trump_card`` the turned card
    or ``None``, ``tricks`` the :class:`Trick` list in order, ``bid_order``
    the seats in the order they bid (``None``: clockwise from the dealer's left).
    """

    index: int  # type: ignore[assignment]  # the field shadows tuple.index, as it always has
    dealer: int
    hand_size: int
    deal: tuple[int, ...]
    trump_card: Optional[Card]
    bids: tuple[int, ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    scores: tuple[int, ...]
    bid_order: Optional[tuple[int, ...]] = None

    @property
    def trump(self) -> Optional[int]:
        """The trump suit, or ``None``."""
        return None if self.trump_card is None else self.trump_card // 13

    @property
    def order(self) -> tuple[int, ...]:
        """The seats in the order they bid."""
        if self.bid_order is not None:
            return self.bid_order
        n = len(self.bids)
        return tuple((self.dealer + 1 + i) % n for i in range(n))

    def __repr__(self) -> str:
        return (f"HandRecord(hand {self.index + 1}, dealer {self.dealer}, {self.hand_size} cards, "
                f"trump {self.trump_card}, bids {list(self.bids)}, won {list(self.tricks_won)}, "
                f"scores {list(self.scores)})")
