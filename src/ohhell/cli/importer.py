"""``ohhell import``: a game from an open format (PBN, or OpenSpiel's action history) as a record."""

from __future__ import annotations

import argparse
import sys
from ..i18n import _, N_

HELP = N_("read a PBN file or an OpenSpiel oh_hell serialization and write it as a game record")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE",
                   help=_("a .pbn file, or the text of pyspiel.serialize_game_and_state (the format is detected)"))
    p.add_argument("-o", "--output", default=None, metavar="OUT.json",
                   help=_("write the record here (several games: JSON Lines); default: standard output"))


def detect_format(text: str) -> str:
    """``"openspiel"`` for serialize_game_and_state text, ``"pbn"`` for anything with a tag pair."""
    lines = [line.strip() for line in text.lstrip("\ufeff").splitlines() if line.strip()]
    if any(line == "[Game]" for line in lines) and any(line == "[State]" for line in lines):
        return "openspiel"
    return "pbn"


def run(args: argparse.Namespace) -> int:
    import json

    from ..errors import OhHellError
    from ..files import atomic_write_text

    def fail(message: str) -> int:
        print(f"ohhell import: {message}", file=sys.stderr)
        return 2

    try:
        with open(args.file, "rb") as f:
            data = f.read()
    except OSError as e:
        return fail(_("cannot read {path}: {reason}").format(path=args.file, reason=e.strerror or e))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")      # PBN 2.0 files are ISO 8859-1
    notes = []
    try:
        if detect_format(text) == "openspiel":
            from ..openspiel_format import from_openspiel
            records = [from_openspiel(text).record()]
            notes.append(_("an OpenSpiel oh_hell hand: a game of one hand under the 'openspiel' preset"))
        else:
            from ..pbn import parse
            found = parse(text)
            records = []
            for g in found:
                rec = g.game.record()
                if g.event:
                    rec["pbn"] = g.event      # PBN's Event, Site, Date...: ohhell export writes them back
                records.append(rec)
            for g in found:
                if not g.whole:
                    notes.append(_("hand {hand} (line {line}) is imported alone, as a game of one hand under that "
                                   "hand's rules; the scores before it are not in the file").format(
                        hand=g.hands[0], line=g.line))
    except OhHellError as e:
        return fail(f"{args.file}: {e}")
    if len(records) == 1:
        out = json.dumps(records[0], indent=2, ensure_ascii=False) + "\n"
    else:
        out = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
        notes.append(_("{n} games: written as JSON Lines, one record per line").format(n=len(records)))
    for note in notes:
        print("ohhell import: " + _("note: {note}").format(note=note), file=sys.stderr)
    if args.output in (None, "-"):
        sys.stdout.write(out)
    else:
        try:
            atomic_write_text(args.output, out)
        except OSError as e:
            return fail(_("cannot write {path}: {reason}").format(path=args.output, reason=e.strerror or e))
    return 0
