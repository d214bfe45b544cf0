"""Bots, made by name: ``ohhell.bots.make("heuristic", seed=1)``.

>>> import ohhell
>>> bot = ohhell.bots.make("random", seed=1)
>>> g = ohhell.Game(ohhell.Rules(3, hand_sizes=[2]), seed=3)
>>> g.apply(bot.act(g.view(g.to_act)))
"""

from __future__ import annotations

import importlib
from typing import Callable, Sequence

from ..game import Game
from .base import Bot, Budget, Decision
from .session import DEFAULT_BOT, Applied, TableSession, Turn, default_bot

__all__ = ["Bot", "Budget", "Decision", "make", "names", "register", "play_game", "LEVELS",
           "TableSession", "Turn", "Applied", "DEFAULT_BOT", "default_bot"]

# name -> "module:factory"; factories take (seed=..., **options).
_REGISTRY: dict[str, str] = {
    "random": "ohhell.bots.random_bot:RandomBot",
    "heuristic": "ohhell.bots.heuristic:HeuristicBot",
    "expert": "ohhell.bots.expert:ExpertBot",
    # Levels for people (docs/bots.md): beginner < intermediate < expert, as measured.
    "beginner": "ohhell.bots.heuristic:BeginnerBot",
    "intermediate": "ohhell.bots.heuristic:HeuristicBot",
}

#: The levels offered to people, weakest first (each a name :func:`make` accepts).
LEVELS = ("beginner", "intermediate", "expert")


def register(name: str, target: "str | Callable[..., Bot]") -> None:
    """Register a bot factory (a callable, or ``"module:attribute"``) under ``name``."""
    _REGISTRY[name] = target  # type: ignore[assignment]


def names() -> list[str]:
    """The names :func:`make` accepts."""
    return list(_REGISTRY)


def make(name: str, seed: "int | str | None" = None, **options) -> Bot:
    """Make a bot by name.

    :raises ValueError: for an unknown name (the message lists the known ones).
    """
    target = _REGISTRY.get(name)
    if target is None:
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(_REGISTRY)}")
    if isinstance(target, str):
        module, _, attr = target.partition(":")
        target = getattr(importlib.import_module(module), attr)
    return target(seed=seed, **options)


def play_game(game: Game, bots: Sequence[Bot], budget: Budget | None = None,
              on_action: "Callable[[Game, int, object], None] | None" = None) -> Game:
    """Let ``bots[s]`` play seat ``s`` until the game is over; returns the game.

    Each bot sees only its seat's view.  During simultaneous bidding every seat
    bids from a view taken before any bid of the round is revealed.  The game is
    driven by a :class:`TableSession`; ``on_action(game, seat, action)`` runs
    after every action.
    """
    TableSession(game, bots, budget=budget, on_action=on_action).run_bots(sleep=None)
    return game
