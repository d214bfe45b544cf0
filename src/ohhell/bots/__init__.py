"""Bots, made by name: ``ohhell.bots.make("heuristic", seed=1)``.

>>> import ohhell
>>> bot = ohhell.bots.make("random", seed=1)
>>> g = ohhell.Game(ohhell.Rules(3, hand_sizes=[2]), seed=3)
>>> g.apply(bot.act(g.view(g.to_act)))
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass
from typing import Callable, Sequence

from ..game import Game
from ..i18n import N_
from .base import Bot, Budget, Decision
from .session import DEFAULT_BOT, Applied, TableSession, Turn, default_bot

__all__ = ["Bot", "Budget", "Decision", "make", "names", "register", "play_game", "LEVELS", "BotInfo", "catalog",
           "available", "NEEDS",
           "factory", "table_names", "MEASURING_ONLY", "TableSession", "Turn", "Applied", "DEFAULT_BOT", "default_bot"]

# The bots' networks are small (a decision multiplies at most a few hundred rows by 128-wide
# layers), where a BLAS library's threads only cost time: on a machine busy with other games or
# match workers they wait on each other, and a 0.2 ms pass took 15 ms (BENCHMARKS.md, "The card
# search's budget, and bids read by the learned level's own bid").  So, unless the process
# already chose (an environment variable set, or NumPy imported before the bots), its BLAS runs
# on the calling thread.
if "numpy" not in sys.modules:
    for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_var, "1")

# name -> "module:factory"; factories take (seed=..., **options).
_REGISTRY: dict[str, str] = {
    "random": "ohhell.bots.random_bot:RandomBot",
    "heuristic": "ohhell.bots.heuristic:HeuristicBot",
    "expert": "ohhell.bots.expert:ExpertBot",
    "pimc": "ohhell.bots.pimc:PimcBot",
    # Learned only: one pass of the play or bid network per decision (needs NumPy).
    "learned": "ohhell.bots.learnedbot:LearnedBot",
    # Levels for people (docs/bots.md): beginner < intermediate < learned < expert, as measured.
    "beginner": "ohhell.bots.heuristic:BeginnerBot",
    "intermediate": "ohhell.bots.heuristic:HeuristicBot",
    # Baselines: fixed bots to measure the others against (docs/bots.md).
    "expert-2026.11": "ohhell.bots.baseline:Expert202611",
}

#: The levels offered to people, weakest first (each a name :func:`make` accepts).
LEVELS = ("beginner", "intermediate", "learned", "expert")

#: Bots for measuring others, not for seats people share: with no time budget they may think
#: for many seconds a move (``pimc`` solves every sampled deal), so ``ohhell serve`` offers none.
MEASURING_ONLY = ("pimc",)

#: Bots that need a package beyond the core, by name: the module they import to decide.
NEEDS: dict[str, str] = {"learned": "numpy"}


def available(name: str) -> bool:
    """Whether bot ``name`` can decide here: it needs no extra package, or the one it needs
    (:data:`NEEDS`) is installed (``ohhell serve`` offers only these)."""
    import importlib.util
    module = NEEDS.get(name)
    return module is None or importlib.util.find_spec(module) is not None


# name -> one line for ``--list-bots``; a bot without one is described by its docstring's first sentence.
_ABOUT: dict[str, str] = {   # marked for the catalogs: --list-bots words them in the reader's language
    "random": N_("plays a uniformly random legal action (a floor to measure others against)"),
    "heuristic": N_("rule-based: bids the tricks its hand is worth, then plays to make the bid exactly"),
    "expert": N_("search: samples the hidden hands from what it has seen and the bids, then ISMCTS "
                 "(about 50 ms a decision, at most 1 s)"),
    "beginner": N_("the heuristic's plan with a casual player's slips (a random card one time in three, "
                   "bids off by about a trick)"),
    # Lines for bots other branches register (used once they are in the registry):
    "pimc": N_("reference: perfect-information Monte Carlo (50 sampled deals, each played out by the "
               "heuristic then solved exactly for the last 7 tricks); slow"),
    "learned": N_("learned only: bids by a learned trick model, plays a policy network's card "
                  "(no search, about 1 ms a decision; needs NumPy)"),
    "expert-2026.11": N_("the expert of November 2026, frozen: a fixed baseline to measure the expert against"),
}


def register(name: str, target: "str | Callable[..., Bot]") -> None:
    """Register a bot factory (a callable, or ``"module:attribute"``) under ``name``."""
    _REGISTRY[name] = target  # type: ignore[assignment]


def names() -> list[str]:
    """The names :func:`make` accepts."""
    return list(_REGISTRY)


def factory(name: str) -> Callable[..., Bot]:
    """The callable that :func:`make` calls for ``name`` (for its options' signature).

    :raises ValueError: for an unknown name (the message lists the known ones).
    """
    target = _REGISTRY.get(name)
    if target is None:
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(_REGISTRY)}")
    if isinstance(target, str):
        module, _, attr = target.partition(":")
        return getattr(importlib.import_module(module), attr)
    return target


@dataclass(frozen=True)
class BotInfo:
    """One registered name, as ``ohhell play --list-bots`` shows it."""

    name: str
    description: str
    #: 1-based position in :data:`LEVELS` (of the bot it names), or ``None`` for a bot that is no level
    level: "int | None" = None
    #: the name this one is another name for (same bot, same options), or ``None``
    alias_of: "str | None" = None


def catalog() -> list[BotInfo]:
    """Every registered name with a one-line description and its level; the levels first,
    weakest first, then the other bots.  Two names for the same factory are one bot: the one
    that is a level (else the first registered) is listed as the bot, the other as its alias.
    """
    canonical: dict[object, str] = {}
    for name in sorted(_REGISTRY, key=lambda x: (x not in LEVELS, list(_REGISTRY).index(x))):
        canonical.setdefault(_REGISTRY[name], name)
    infos = []
    for name, target in _REGISTRY.items():
        main = canonical[target]
        same = [x for x in _REGISTRY if _REGISTRY[x] == target]
        about = next((_ABOUT[x] for x in [name, main, *same] if x in _ABOUT), None) or _first_sentence(name)
        level = LEVELS.index(main) + 1 if main in LEVELS else None
        infos.append(BotInfo(name, about, level, None if main == name else main))
    return sorted(infos, key=lambda i: (i.level is None, i.level or 0, i.alias_of is not None, i.name))


def _first_sentence(name: str) -> str:
    try:
        doc = factory(name).__doc__ or ""
    except Exception:  # a bot whose module cannot be imported here (a missing extra) is still listed
        return "(its module cannot be imported here)"
    text = " ".join(doc.strip().split("\n\n")[0].split())
    return text.split(". ")[0].rstrip(".").replace("``", "") or name


def table_names(names: Sequence[str]) -> list[str]:
    """Display names for the seats of one table: a name that occurs once stays as it is,
    repeated ones are numbered in seat order.

    >>> table_names(["expert", "heuristic", "expert", "random"])
    ['expert 1', 'heuristic', 'expert 2', 'random']
    """
    total = {n: list(names).count(n) for n in names}
    taken = set(names)
    seen: dict[str, int] = {}
    out = []
    for n in names:
        if total[n] == 1:
            out.append(n)
            continue
        k = seen.get(n, 0) + 1
        while f"{n} {k}" in taken:      # never the same as another seat's name
            k += 1
        seen[n] = k
        out.append(f"{n} {k}")
    return out


def make(name: str, seed: "int | str | None" = None, **options) -> Bot:
    """Make a bot by name.

    :raises ValueError: for an unknown name (the message lists the known ones).
    """
    return factory(name)(seed=seed, **options)


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
