"""Which bot plays a seat nobody named, and which one gives hints (no Textual needed)."""

from __future__ import annotations

from .. import bots as botlib

__all__ = ["hint_bot_name", "default_bot_name"]


def hint_bot_name() -> str:
    """The strongest bot available for hints: ``expert``, else ``heuristic``, else ``random``."""
    names = botlib.names()
    for name in ("expert", "heuristic"):
        if name in names:
            return name
    return names[0] if names else "random"


def default_bot_name() -> str:
    """The bot seats get unless told otherwise: :func:`ohhell.bots.default_bot` (chosen there, once)."""
    return botlib.default_bot()
