"""The bot interface: a bot sees one seat's view and a budget, and returns an action.

A bot never receives the game, only a :class:`~ohhell.view.View`, so it can
use nothing its seat is not entitled to know.  :meth:`Bot.decide` also
returns the bot's reasoning (:class:`Decision`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..actions import Action
from ..view import View

__all__ = ["Bot", "Budget", "Decision"]


@dataclass(frozen=True)
class Budget:
    """How much a bot may think: wall-clock ``seconds`` and/or ``iterations``.

    ``None`` means the bot's own default for that dimension.
    """

    seconds: float | None = None
    iterations: int | None = None


@dataclass
class Decision:
    """A chosen action with the reasoning behind it.

    * ``values``: for each legal action considered, its value to the bot (for
      a bid, the expected score of bidding it; for a card, its estimated
      expected score for the hand).
    * ``trick_probs``: for a bid, the estimated probability of winning each
      number of tricks 0..hand size (``None`` for a card).
    * ``note``: a short human-readable explanation.
    """

    action: Action
    values: dict[Action, float] = field(default_factory=dict)
    trick_probs: list[float] | None = None
    note: str = ""
    stats: dict[str, Any] = field(default_factory=dict)


class Bot:
    """Base class: subclasses implement :meth:`decide` (and may override :meth:`act`)."""

    name = "bot"

    def act(self, view: View, budget: Budget | None = None) -> Action:
        """The action this bot takes in ``view`` (legal for ``view.seat``)."""
        return self.decide(view, budget).action

    def decide(self, view: View, budget: Budget | None = None) -> Decision:
        """The action and the reasoning behind it."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
