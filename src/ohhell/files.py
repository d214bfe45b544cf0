"""The files ohhell writes and reads: atomic writes, and telling what a file holds.

Every front end (the terminal, the command line, the server) writes its files
with :func:`atomic_write_text` (a file is always the old or the new one, never
half of each) or :func:`append_line` (JSON Lines), and asks
:func:`read_file` what a file holds before it opens it: one game record
(``"format": "ohhell.record"``), several records as JSON Lines (an archive,
``ohhell selfplay --out``, ``history.jsonl``), or a score sheet
(``"format": "ohhell.scoresheet"``).

>>> file_kind('{"format": "ohhell.scoresheet"}'), file_kind('{"format": "ohhell.record"}')
('scoresheet', 'record')
>>> file_kind('{"format": "ohhell.record"}\\n{"format": "ohhell.record"}\\n')
'records'
"""

from __future__ import annotations

import io
import json
import os
from dataclasses import dataclass, field
from typing import Any

from .errors import RecordError

__all__ = ["RECORD", "RECORDS", "SCORESHEET", "KINDS", "FileContent", "atomic_write_text", "append_line",
           "file_kind", "read_file", "read_game"]

RECORD = "record"          #: one game record (a JSON object)
RECORDS = "records"        #: game records as JSON Lines, one per line
SCORESHEET = "scoresheet"  #: a score sheet (``ohhell score``)
KINDS = (RECORD, RECORDS, SCORESHEET)

RECORD_FORMAT = "ohhell.record"          # = records.FORMAT (pinned by a test)
SCORESHEET_FORMAT = "ohhell.scoresheet"  # = scoresheet.FORMAT (pinned by a test)


def atomic_write_text(path: "str | os.PathLike", text: str) -> None:
    """Write ``text`` to ``path`` so that the file is always either the old or the new one.

    The text goes to a temporary file in the same folder (``.NAME.tmp``, the
    same name every time, so a killed save leaves no pile), is flushed and
    ``fsync``-ed, then renamed over ``path`` (atomic on POSIX and Windows);
    the folder is ``fsync``-ed too where the system allows.  Missing folders
    are created; an existing file keeps its permissions.

    :raises OSError: when the file cannot be written (the old one is left as it was).
    """
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        mode = 0o644
    # One fixed temporary name per file: a save killed midway leaves at most this one file,
    # which the next save overwrites (random names piled up, one per killed save).
    tmp = os.path.join(folder, "." + os.path.basename(path) + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        os.chmod(tmp, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dfd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows cannot open folders
        return
    try:
        os.fsync(dfd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(dfd)


def append_line(path: "str | os.PathLike", line: str) -> None:
    """Append one line (a JSON Lines entry; the newline is added) to ``path`` and ``fsync`` it.

    :raises OSError: when it cannot be written.
    """
    path = os.fspath(path)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(line.rstrip("\n") + "\n")
        f.flush()
        os.fsync(f.fileno())


def _json(text: "str | bytes") -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def file_kind(text: str) -> str:
    """What ``text`` (a file's content) holds: :data:`RECORD`, :data:`RECORDS` or :data:`SCORESHEET`.

    One JSON object is a score sheet when its ``format`` says so and a record
    otherwise (reading it says what is wrong with it); anything else is taken
    for JSON Lines.
    """
    data = _json(text)
    if isinstance(data, dict):
        return SCORESHEET if data.get("format") == SCORESHEET_FORMAT else RECORD
    return RECORDS


@dataclass
class FileContent:
    """What :func:`read_file` found: its ``kind``, the ``records`` (dicts, not yet
    verified; one for a single record) or the ``sheet`` (a :class:`~ohhell.scoresheet.ScoreSheet`)."""

    kind: str
    records: list = field(default_factory=list)
    sheet: Any = None


def read_file(path: "str | os.PathLike") -> FileContent:
    """Read a record, JSON Lines records or a score sheet, whichever ``path`` holds.

    Records come back as dicts (replay them with :meth:`ohhell.Game.from_record`);
    a score sheet is loaded and checked.

    :raises RecordError: for a file that holds none of them, or a bad sheet (the message says where).
    :raises OSError: when it cannot be read.
    """
    path = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError as e:
        raise RecordError(f"{path} is not UTF-8 text ({e.reason})") from None
    kind = file_kind(text)
    if kind == SCORESHEET:
        from .scoresheet import ScoreSheet
        return FileContent(kind, sheet=ScoreSheet.from_dict(text))
    if kind == RECORD:
        return FileContent(kind, records=[json.loads(text)])
    from .records import read_records
    records = list(read_records(io.StringIO(text), verify=False))
    if not records:
        raise RecordError(f"{path} holds no record")
    return FileContent(kind, records=records)


def read_game(path: "str | os.PathLike") -> tuple:
    """Read the one game a file holds (a saved game) and replay it: returns the
    :class:`~ohhell.Game` and the record (a dict, with any field its writer added).

    :raises RecordError: for a file that is not JSON, holds a score sheet or several
        records, or a record that does not replay (the message says which).
    :raises OSError: when it cannot be read.
    """
    from .game import Game
    path = os.fspath(path)
    with open(path, "rb") as f:
        raw = f.read()
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as e:     # not JSON, not UTF-8, too deep, too long a number
        lines = [line for line in raw.splitlines() if line.strip()]
        if len(lines) > 1 and all(isinstance(_json(line), dict) for line in lines):
            raise RecordError(f"{path} holds {len(lines)} records (JSON Lines), not one game: "
                              f"open it with `ohhell replay {path}`") from None
        raise RecordError(f"{path} is not JSON: {e}") from None
    if isinstance(data, dict) and data.get("format") == SCORESHEET_FORMAT:
        raise RecordError(f"{path} is a score sheet (ohhell score), not a game: open it with `ohhell score {path}`")
    return Game.from_record(data), data
