"""``random``: a uniformly random legal action."""

from __future__ import annotations

import random

from ..view import View
from .base import Bot, Budget, Decision

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Chooses uniformly among the legal actions (seedable)."""

    name = "random"

    def __init__(self, seed: "int | str | None" = None) -> None:
        self.rng = random.Random(seed)

    def decide(self, view: View, budget: Budget | None = None) -> Decision:
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has no action to take now")
        action = self.rng.choice(legal)
        return Decision(action, {a: 0.0 for a in legal}, note="uniformly random")
