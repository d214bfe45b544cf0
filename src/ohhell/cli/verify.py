"""``ohhell verify``: replay records and check every field (and, where present, the fair-shuffle proof)."""

from __future__ import annotations

import argparse
import sys
from ..i18n import N_, _, ngettext

HELP = N_("check game records: replay every action and every derived field")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="RECORD", help=_("a record (.json) or records (.jsonl)"))


def check_fair_dealer(rec: dict) -> "str | None":
    """For a record with the fair-shuffle proof (``commitments``, as the server publishes),
    the problem when its first dealer is not the one its seed picks (the seed chooses the first
    dealer as it chooses the deals: ``dealing.first_dealer``); else ``None``.

    Records without commitments may have a chosen first dealer (``ohhell play --dealer``)."""
    from .. import dealing
    seed, hands = rec.get("seed"), rec.get("hands")
    if "commitments" not in rec or seed is None or not hands:
        return None
    players = rec["rules"]["players"]
    want = dealing.first_dealer(seed, players)
    got = hands[0]["dealer"]
    if got != want:
        return f"the first dealer is seat {got}, but the seed picks seat {want}"
    return None


def verify_file(path: str) -> int:
    """Check every record of one file; returns how many.

    :raises RecordError: the first problem found (with the line), including an empty file.
    :raises OSError: when the file cannot be read.
    """
    from ..errors import RecordError
    from ..records import read_records

    count = 0
    try:
        for _game in read_records(path):   # replays and checks every record (errors name the line)
            count += 1
        for number, rec in enumerate(read_records(path, verify=False), 1):
            assert isinstance(rec, dict)   # verify=False yields the records' dicts
            problem = check_fair_dealer(rec)
            if problem:
                raise RecordError(f"record {number}: {problem}")
    except UnicodeDecodeError as e:
        raise RecordError(_("not a UTF-8 text file (byte {n} cannot be read): records are JSON text").format(
            n=e.start)) from None
    if count == 0:
        raise RecordError(_("no record in this file (it is empty)"))
    return count


def run(args: argparse.Namespace) -> int:
    from ..errors import RecordError

    status = 0
    for path in args.files:
        try:
            count = verify_file(path)
            print(f"{path}: " + ngettext("{n} record OK", "{n} records OK", count).format(n=count))
        except RecordError as e:
            print(f"{path}: {e}", file=sys.stderr)
            status = 1
        except OSError as e:
            print(f"{path}: {e.strerror or e}", file=sys.stderr)
            status = 1
        except RecursionError:
            print(f"{path}: " + _("the JSON is nested too deeply to be a record"), file=sys.stderr)
            status = 1
    return status
