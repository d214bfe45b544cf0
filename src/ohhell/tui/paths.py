"""Where ``ohhell play`` and ``ohhell score`` keep their files, and paths shown to people.

Nothing here needs Textual, so the command line can use it without the terminal extra.
"""

from __future__ import annotations

import os

__all__ = ["data_dir", "default_save_path", "archive_path", "shown_path", "history_path"]


def data_dir() -> str:
    """Where ``ohhell`` keeps its files: ``$OHHELL_HOME``, else ``$XDG_DATA_HOME/ohhell``,
    else ``~/.local/share/ohhell``."""
    home = os.environ.get("OHHELL_HOME")
    if home:
        return home
    xdg = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(xdg, "ohhell")


def default_save_path() -> str:
    """The file ``ohhell play`` saves the current game to unless told otherwise."""
    return os.path.join(data_dir(), "game.json")


def archive_path(path: str) -> str:
    """Where a file is moved to make room for a new one: ``NAME-YYYYmmdd-HHMMSS.json``."""
    import datetime as _dt
    stem, ext = os.path.splitext(path)
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = f"{stem}-{stamp}{ext or '.json'}"
    i = 2
    while os.path.exists(out):
        out = f"{stem}-{stamp}-{i}{ext or '.json'}"
        i += 1
    return out


def shown_path(path: str) -> str:
    """A path for people: the home folder written as ``~``."""
    home = os.path.expanduser("~")
    full = os.path.abspath(path)
    if home not in ("", "/") and full.startswith(home.rstrip(os.sep) + os.sep):
        return "~" + full[len(home.rstrip(os.sep)):]
    return path


def history_path(save_path: str) -> str:
    """The JSON Lines file next to the save file that collects every finished game."""
    return os.path.join(os.path.dirname(os.path.abspath(save_path)), "history.jsonl")
