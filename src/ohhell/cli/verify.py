"""``ohhell verify``: replay records and check every field (and, where present, the fair-shuffle proof)."""

from __future__ import annotations

import argparse
import sys

HELP = "check game records: replay every action and every derived field"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="RECORD", help="a record (.json) or records (.jsonl)")


def run(args: argparse.Namespace) -> int:
    from ..errors import RecordError
    from ..records import read_records

    status = 0
    for path in args.files:
        try:
            count = 0
            for game in read_records(path):
                count += 1
            print(f"{path}: {count} record{'s' if count != 1 else ''} OK")
        except RecordError as e:
            print(f"{path}: {e}", file=sys.stderr)
            status = 1
        except OSError as e:
            print(f"{path}: {e.strerror or e}", file=sys.stderr)
            status = 1
    return status

