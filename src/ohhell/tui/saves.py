"""Saving and loading ``ohhell play``'s games: the record plus who plays each seat (no Textual needed).

A saved game is a game record (docs/interfaces.md) with one extra field,
``"seats"``: ``"human"`` or a bot name per seat, and the record's ``"help"``: the
hints and undos each seat used (every game of ``ohhell play`` allows both, so it
is written as the server writes it at a table that allows them, and a resumed game
goes on counting).  It is written atomically after every action; a finished game
is also appended to ``history.jsonl`` beside it.
"""

from __future__ import annotations

import json
from typing import Sequence

from .. import bots as botlib
from ..files import append_line, atomic_write_text, read_game
from ..game import Game
from .botnames import default_bot_name
from .paths import history_path

__all__ = ["seats_of_record", "help_of_record", "load_saved_game", "load_saved", "saved_record", "save_game",
           "add_to_history", "no_help"]

#: The help one seat used: ``{"hints": n, "undos": m}`` (the record's ``help``, docs/interfaces.md).
Help = list[dict]


def no_help(players: int) -> Help:
    """No help used yet, per seat."""
    return [{"hints": 0, "undos": 0} for _ in range(players)]


def help_of_record(record: dict, players: int) -> Help:
    """The help each seat used, from a record's ``help`` (none where it has none, or one
    that does not fit: a count must be a whole number of at least 0)."""
    data = record.get("help")
    out = no_help(players)
    if not isinstance(data, list) or len(data) != players:
        return out
    for s, h in enumerate(data):
        if not isinstance(h, dict):
            return no_help(players)
        for key in ("hints", "undos"):
            v = h.get(key, 0)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                return no_help(players)
            out[s][key] = v
    return out


def seats_of_record(record: dict, players: int) -> list["str | None"]:
    """Who plays each seat of a saved game: ``None`` for the person, else a bot name.

    Saved games carry a ``"seats"`` list (``"human"`` or a bot name); any other
    record is resumed with the person at seat 0 and the default bot elsewhere.
    """
    seats = record.get("seats")
    known = botlib.names()
    out: list[str | None] = []
    if isinstance(seats, list) and len(seats) == players:
        for x in seats:
            out.append(None if x == "human" else (x if x in known else default_bot_name()))
        if out.count(None) == 1:
            return out
    return [None] + [default_bot_name()] * (players - 1)


def load_saved_game(path: str) -> tuple[Game, list["str | None"]]:
    """Load a saved game (a record) and who plays each seat.

    :raises RecordError: for a file that is not a valid record (a score sheet or
        JSON Lines get a message that says what they are).
    :raises OSError: when it cannot be read.
    """
    game, seats, _help = load_saved(path)
    return game, seats


def load_saved(path: str) -> tuple[Game, list["str | None"], Help]:
    """Load a saved game, who plays each seat and the help used so far (:func:`help_of_record`).

    :raises RecordError: as :func:`load_saved_game`.
    :raises OSError: when it cannot be read.
    """
    game, data = read_game(path)
    return game, seats_of_record(data, game.players), help_of_record(data, game.players)


def saved_record(game: Game, seats: Sequence["str | None"], help: "Help | None" = None) -> dict:
    """The record of ``game`` with its ``"seats"`` (``"human"`` for the person) and, when
    given, the ``"help"`` each seat used."""
    rec = game.record()
    rec["seats"] = ["human" if b is None else b for b in seats]
    if help is not None:
        rec["help"] = [{"hints": int(h["hints"]), "undos": int(h["undos"])} for h in help]
    return rec


def save_game(path: str, game: Game, seats: Sequence["str | None"], help: "Help | None" = None) -> None:
    """Write the saved game to ``path`` atomically.

    :raises OSError: when it cannot be written (the old file is left as it was).
    """
    atomic_write_text(path, json.dumps(saved_record(game, seats, help), ensure_ascii=False) + "\n")


def add_to_history(save_path: str, game: Game, seats: Sequence["str | None"], help: "Help | None" = None) -> str:
    """Append the (finished) game to ``history.jsonl`` beside ``save_path``; returns that file's path.

    :raises OSError: when it cannot be written.
    """
    path = history_path(save_path)
    append_line(path, json.dumps(saved_record(game, seats, help), ensure_ascii=False))
    return path
