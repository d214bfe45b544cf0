"""A new table's configuration: checking what a creator asks for (rules, seats, title, the
away timer) before anything is written, and the error every table operation raises.

>>> parse_table_config({"rules": {"players": 3, "hand_sizes": [1]}})["seats"]
[{'kind': 'open', 'bot': None}, {'kind': 'open', 'bot': None}, {'kind': 'open', 'bot': None}]
"""

from __future__ import annotations

from typing import Any

from ..errors import RulesError
from ..rules import PRESETS, Rules
from .botpool import bot_names, default_bot
from .protocol import clean_text

__all__ = ["TableError", "parse_table_config", "parse_away", "SEAT_KINDS", "MAX_TITLE", "MAX_HANDS",
           "DEFAULT_AWAY_AFTER", "AWAY_AFTER_RANGE", "SPECTATOR_CHAT", "CHAT_MAX_LENGTH", "CHAT_RATE",
           "CHAT_ADDRESS_RATE", "CHAT_HISTORY", "CHAT_KEEP"]

SEAT_KINDS = ("open", "bot", "reserved")
MAX_TITLE = 60
#: The most hands a table's schedule may have (the longest standard schedule, up-down for
#: three players, has 29), so no game's state grows without bound.
MAX_HANDS = 60
#: The away timer a table gets when its creator does not choose: after this many seconds
#: away on their turn, a player's seat is played by the default bot until they take it back.
DEFAULT_AWAY_AFTER = 60
#: The shortest and longest away timer a creator may choose (seconds).
AWAY_AFTER_RANGE = (1, 3600)

# --- chat (docs/server.md, "Limits") ---------------------------------------------------------
#: Who reads the spectators' messages: ``together`` (everyone at the table, the default) or
#: ``apart`` (only spectators; players' messages still reach everyone).  The creator chooses.
SPECTATOR_CHAT = ("together", "apart")
#: The longest chat message, in characters after cleaning (control characters removed).
CHAT_MAX_LENGTH = 300
#: Chat messages one connection may send: ``(per second, burst)``, a token bucket.
CHAT_RATE = (0.5, 5.0)
#: Chat messages all the connections from one address may send together: ``(per second, burst)``.
CHAT_ADDRESS_RATE = (1.0, 10.0)
#: The recent messages a client receives when it says hello (so a reconnect or a reload keeps
#: the conversation).
CHAT_HISTORY = 100
#: The messages kept in the store per table (older ones are deleted).
CHAT_KEEP = 500


class TableError(Exception):
    """An operation the table refuses; ``code`` is stable, the English text is for programs
    and logs (pages word the code in their reader's language); ``reason``, for a refused
    bid or card, is the core's reason as JSON facts (``tables.reason_facts``)."""

    def __init__(self, code: str, message: str, reason: "dict | None" = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason


def parse_table_config(body: Any) -> dict:
    """Check a create-table request; returns the config stored in the log.

    ``body``: ``{"title": str, "private": bool, "rules": {...} (record fields,
    optionally "preset"), "seats": [{"kind": "open" | "bot" | "reserved",
    "bot": name}, ...], "away": {"after": seconds, "bot": name} | null,
    "spectator_chat": "together" | "apart", "help": bool}`` with one seat per player.  ``away``
    is the away timer (see :func:`parse_away`); left out, the table gets the
    default one.  ``spectator_chat`` (default ``together``): whether spectators'
    chat messages reach the players too, or only other spectators.  ``help`` (default
    false): a friendly game, where each player may ask for hints and take back their last
    action (docs/server.md, "Hints and undo").

    :raises TableError: ``bad_config`` saying what is wrong.
    """
    if not isinstance(body, dict):
        raise TableError("bad_config", "send a JSON object with rules and seats")
    rules_in = body.get("rules", {})
    if not isinstance(rules_in, dict):
        raise TableError("bad_config", "rules must be an object")
    fields = dict(rules_in)
    preset = fields.pop("preset", None)
    try:
        if preset is not None:
            if preset not in PRESETS:
                raise RulesError(f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}")
            rules = Rules.preset(preset, **fields)
        else:
            rules = Rules(**fields)
    except (RulesError, TypeError) as e:
        raise TableError("bad_config", f"rules: {e}") from None
    if rules.hand_count > MAX_HANDS:
        raise TableError("bad_config", f"rules: {rules.hand_count} hands; a table plays at most {MAX_HANDS}")
    seats_in = body.get("seats")
    if seats_in is None:
        seats_in = [{"kind": "open"}] * rules.players
    if not isinstance(seats_in, list) or len(seats_in) != rules.players:
        raise TableError("bad_config", f"seats must list {rules.players} seats, one per player")
    names = bot_names()
    seats = []
    for i, s in enumerate(seats_in):
        if not isinstance(s, dict) or s.get("kind") not in SEAT_KINDS:
            raise TableError("bad_config", f"seat {i}: kind must be one of {', '.join(SEAT_KINDS)}")
        bot = None
        if s["kind"] == "bot":
            bot = s.get("bot") or default_bot()
            if bot not in names:
                raise TableError("bad_config", f"seat {i}: unknown bot {bot!r}; choose one of "
                                               f"{', '.join(names)}")
        seats.append({"kind": s["kind"], "bot": bot})
    title = body.get("title") or ""
    if not isinstance(title, str):
        raise TableError("bad_config", "title must be text")
    title = clean_text(title)[:MAX_TITLE].rstrip()
    private = body.get("private", False)
    if not isinstance(private, bool):
        raise TableError("bad_config", "private must be true or false")
    away = parse_away(body["away"]) if "away" in body else {"after": DEFAULT_AWAY_AFTER, "bot": default_bot()}
    chat = body.get("spectator_chat", "together")
    if chat not in SPECTATOR_CHAT:
        raise TableError("bad_config", f"spectator_chat must be one of {', '.join(SPECTATOR_CHAT)}, not {chat!r}")
    help_ = body.get("help", False)
    if not isinstance(help_, bool):
        raise TableError("bad_config", "help must be true or false")
    return {"title": title, "private": private, "rules": rules.to_dict(), "seats": seats, "away": away,
            "spectator_chat": chat, **({"help": True} if help_ else {})}


def parse_away(value: Any) -> "dict | None":
    """Check a table's away timer: ``{"after": seconds, "bot": name}``, or ``null`` (or
    ``false``) for none.

    With a timer, a seated player who is disconnected for ``after`` seconds while the
    table waits for them (their bid or card, or their rematch vote once someone else has
    voted) gets bot ``bot`` standing in for them, until they come back and take the seat
    back.  ``bot`` defaults to the default bot.

    >>> parse_away({"after": 30, "bot": "random"})
    {'after': 30, 'bot': 'random'}
    >>> parse_away(None) is None
    True
    >>> parse_away({"after": 0})
    Traceback (most recent call last):
    ohhell.server.config.TableError: away.after must be a number of seconds from 1 to 3600, not 0

    :raises TableError: ``bad_config`` saying what is wrong.
    """
    if value is None or value is False:
        return None
    if not isinstance(value, dict):
        raise TableError("bad_config", "away must be {\"after\": seconds, \"bot\": name} or null (no timer)")
    lo, hi = AWAY_AFTER_RANGE
    after = value.get("after", DEFAULT_AWAY_AFTER)
    if isinstance(after, bool) or not isinstance(after, (int, float)) or not lo <= after <= hi:
        raise TableError("bad_config", f"away.after must be a number of seconds from {lo} to {hi}, "
                                       f"not {after!r}")
    bot = value.get("bot") or default_bot()
    names = bot_names()
    if bot not in names:
        raise TableError("bad_config", f"away.bot: unknown bot {bot!r}; choose one of {', '.join(names)}")
    return {"after": after, "bot": bot}
