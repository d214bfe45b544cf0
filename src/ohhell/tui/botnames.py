"""Which bot plays a seat nobody named, and which one gives hints (no Textual needed)."""

from __future__ import annotations

from .. import bots as botlib
from ..bots.hints import hint_bot_name  # the one choice, shared with the web server's hints

__all__ = ["hint_bot_name", "default_bot_name"]


def default_bot_name() -> str:
    """The bot seats get unless told otherwise: :func:`ohhell.bots.default_bot` (chosen there, once)."""
    return botlib.default_bot()
