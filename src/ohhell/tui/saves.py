"""Saving and loading ``ohhell play``'s games: the record plus who plays each seat (no Textual needed).

A saved game is a game record (docs/interfaces.md) with one extra field,
``"seats"``: ``"human"`` or a bot name per seat.  It is written atomically after
every action; a finished game is also appended to ``history.jsonl`` beside it.
"""

from __future__ import annotations

import json
from typing import Sequence

from .. import bots as botlib
from ..files import append_line, atomic_write_text, read_game
from ..game import Game
from .botnames import default_bot_name
from .paths import history_path

__all__ = ["seats_of_record", "load_saved_game", "saved_record", "save_game", "add_to_history"]


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
    game, data = read_game(path)
    return game, seats_of_record(data, game.players)


def saved_record(game: Game, seats: Sequence["str | None"]) -> dict:
    """The record of ``game`` with its ``"seats"`` (``"human"`` for the person)."""
    rec = game.record()
    rec["seats"] = ["human" if b is None else b for b in seats]
    return rec


def save_game(path: str, game: Game, seats: Sequence["str | None"]) -> None:
    """Write the saved game to ``path`` atomically.

    :raises OSError: when it cannot be written (the old file is left as it was).
    """
    atomic_write_text(path, json.dumps(saved_record(game, seats), ensure_ascii=False) + "\n")


def add_to_history(save_path: str, game: Game, seats: Sequence["str | None"]) -> str:
    """Append the (finished) game to ``history.jsonl`` beside ``save_path``; returns that file's path.

    :raises OSError: when it cannot be written.
    """
    path = history_path(save_path)
    append_line(path, json.dumps(saved_record(game, seats), ensure_ascii=False))
    return path
