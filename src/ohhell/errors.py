"""The error types of ohhell.

Every error raised because the input was bad is an :class:`OhHellError`, which
is a :class:`ValueError`, so callers that only know Python's built-in types can
still catch it.  The subclasses say what kind of input was wrong:

* :class:`RulesError` - a rules configuration that makes no sense;
* :class:`IllegalActionError` - a bid or a card that the rules do not allow now;
* :class:`CardError` - text that does not name a card;
* :class:`RecordError` - a game record that is malformed or inconsistent.

A rejected action or record never changes any game.
"""

from __future__ import annotations

__all__ = ["OhHellError", "RulesError", "IllegalActionError", "CardError", "RecordError", "show"]


def show(value: object, limit: int = 60) -> str:
    """``repr(value)`` for an error message: shortened, and safe for any value
    (a 5,000-digit int cannot be written out, and a message must never fail)."""
    try:
        text = repr(value)
    except Exception:  # e.g. ValueError: int too large to convert to a string
        bits = value.bit_length() if isinstance(value, int) else None
        return f"<an int of {bits} bits>" if bits is not None else f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


class OhHellError(ValueError):
    """Base class of every ohhell error caused by bad input."""


class RulesError(OhHellError):
    """A rules configuration that makes no sense, e.g. 8 players.

    ``code`` and ``facts``, where set, say why for a front end to word in its reader's
    language (:func:`ohhell.text.rules_words`); the message is the English.
    """

    def __init__(self, message: str, *, code: "str | None" = None, facts: "dict | None" = None) -> None:
        super().__init__(message)
        self.code = code
        self.facts = dict(facts or {})


class CardError(OhHellError):
    """Text or a number that does not name a playing card."""


class IllegalActionError(OhHellError):
    """An action the rules do not allow in the current state.

    ``seat`` is the seat that tried to act (or ``None`` when unknown), ``action``
    the rejected action and ``reason`` the explanation without the prefix.
    ``code`` names the rule that was broken (one of :data:`ohhell.tricks.FAULTS`,
    or ``None`` when unclassified) and ``facts`` holds the numbers behind it
    (``seat``, ``to_act``, ``hand_size``, and as they apply ``bid``, ``card``,
    ``led``, ``trump``: seats 0-based, suits 0..3); :func:`ohhell.text.explain_illegal`
    words them for the player.
    """

    def __init__(self, message: str, *, seat: int | None = None, action: object = None,
                 reason: str | None = None, code: str | None = None,
                 facts: dict | None = None) -> None:
        super().__init__(message)
        self.seat = seat
        self.action = action
        self.reason = reason if reason is not None else message
        self.code = code
        self.facts = facts if facts is not None else {}


class RecordError(OhHellError):
    """A game record that cannot be loaded.

    ``hand`` and ``trick`` (1-based, as people count) locate the problem when
    it lies inside a hand or a trick.
    """

    def __init__(self, message: str, *, hand: int | None = None, trick: int | None = None) -> None:
        where = []
        if hand is not None:
            where.append(f"hand {hand}")
        if trick is not None:
            where.append(f"trick {trick}")
        super().__init__(", ".join(where) + ": " + message if where else message)
        self.hand = hand
        self.trick = trick
        self.detail = message
