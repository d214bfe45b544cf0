"""``ohhell export``: a game record in an open format (PBN, or OpenSpiel's action history)."""

from __future__ import annotations

import argparse
import sys
from ..i18n import _, N_

HELP = N_("write a game record as PBN (every hand) or as OpenSpiel's oh_hell history (one hand)")

FORMATS = ("pbn", "openspiel")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help=_("a record (.json) or records (.jsonl, one per line)"))
    p.add_argument("--format", choices=FORMATS, required=True,
                   help=_("pbn: PBN 2.1 with ohhell's Oh Hell tags; openspiel: pyspiel's serialize_game_and_state text"))
    p.add_argument("--hand", type=int, default=None, metavar="N",
                   help=_("only hand N (1 = the first); openspiel needs it for a game of several hands"))
    p.add_argument("--game", type=int, default=None, metavar="N",
                   help=_("which record of a .jsonl file, 1 = the first (pbn: default every game)"))
    p.add_argument("-o", "--output", default=None, metavar="OUT", help=_("write here (default: standard output)"))
    p.add_argument("--rescore", action="store_true",
                   help=_("openspiel: export a hand played under other rules, scored as OpenSpiel scores it"))
    p.add_argument("--event", default=None, help=_("pbn: the Event tag (default: the record's, else 'Oh Hell')"))
    p.add_argument("--site", default=None, help=_("pbn: the Site tag (default: the record's, else '?')"))
    p.add_argument("--date", default=None, help=_("pbn: the Date tag, YYYY.MM.DD (default: the record's, else unknown)"))


def run(args: argparse.Namespace) -> int:
    from ..errors import OhHellError
    from ..files import atomic_write_text, read_file
    from ..game import Game

    def fail(message: str) -> int:
        print(f"ohhell export: {message}", file=sys.stderr)
        return 2

    try:
        content = read_file(args.file)
    except OSError as e:
        return fail(_("cannot read {path}: {reason}").format(path=args.file, reason=e.strerror or e))
    except OhHellError as e:
        return fail(f"{args.file}: {e}")
    if content.sheet is not None:
        return fail(_("{path} is a score sheet, which holds no cards; export a game record").format(path=args.file))
    records = content.records
    if args.game is not None:
        if not 1 <= args.game <= len(records):
            return fail(_("--game must be 1 to {n}").format(n=len(records)))
        picked = [(args.game, records[args.game - 1])]
    elif args.format == "openspiel" and len(records) > 1:
        return fail(_("{path} holds {n} games; OpenSpiel holds one hand: choose one with --game").format(
            path=args.file, n=len(records)))
    else:
        picked = list(enumerate(records, 1))
    games = []
    for number, rec in picked:
        try:
            games.append((Game.from_record(rec), rec))
        except OhHellError as e:
            where = " " + _("(game {n})").format(n=number) if len(records) > 1 else ""
            return fail(f"{args.file}{where}: {e}")
    try:
        if args.format == "pbn":
            from ..pbn import dumps
            parts = []
            for g, rec in games:
                kept = rec.get("pbn") if isinstance(rec.get("pbn"), dict) else {}   # from ohhell import
                tags = {"event": args.event or kept.get("Event") or "Oh Hell",
                        "site": args.site or kept.get("Site") or "?",
                        "date": args.date or kept.get("Date") or "????.??.??"}
                if not all(isinstance(v, str) for v in tags.values()):
                    return fail(_("{path}: the record's pbn tags must be text").format(path=args.file))
                parts.append(dumps(g, hand=args.hand, **tags))
            # one header for the file: later games drop their own
            text = parts[0] + "".join("\n".join(p.splitlines()[3:]) + "\n" for p in parts[1:])
        else:
            from ..openspiel_format import to_openspiel
            exported = to_openspiel(games[0][0], args.hand, rescore=args.rescore)
            text = exported.text()
            if exported.returns is not None and exported.ohhell_scores is not None \
                    and tuple(exported.returns) != tuple(exported.ohhell_scores):
                print("ohhell export: " + _("note: OpenSpiel scores hand {hand} {scores}; the record's rules scored "
                                            "it {ours}").format(hand=exported.hand, scores=list(exported.returns),
                                                                ours=list(exported.ohhell_scores)), file=sys.stderr)
    except OhHellError as e:
        return fail(str(e))
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        try:
            atomic_write_text(args.output, text)
        except OSError as e:
            return fail(_("cannot write {path}: {reason}").format(path=args.output, reason=e.strerror or e))
    return 0
