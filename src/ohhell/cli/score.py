"""``ohhell score``: the scorekeeper for a game played with real cards."""

from __future__ import annotations

import argparse
import os
import sys

from .common import UsageError, add_rules_arguments, name_list, rules_or_fail
from ..i18n import N_, _, ngettext, pgettext

HELP = N_("keep score for a game played with real cards (resumes the last sheet; needs the 'tui' extra)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", nargs="?", default=None, metavar="FILE",
                   help=_("the score sheet (saved after every entry; resumed when it exists; default: "
                        "scoresheet.json in $OHHELL_HOME or ~/.local/share/ohhell)"))
    p.add_argument("--new", action="store_true",
                   help=_("start a new sheet even if FILE exists (the old one is kept as FILE-DATE.json)"))
    p.add_argument("--names", default=None, help=_("comma-separated names, clockwise"))
    p.add_argument("--dealer", type=int, default=None, help=_("the first dealer's seat, 1 to N (default 1)"))
    p.add_argument("--start", action="store_true",
                   help=_("skip the setup screen (needs --names) and start at once"))
    p.add_argument("--print", action="store_true", dest="print_table",
                   help=_("print the sheet's score table and exit (no full screen)"))
    add_rules_arguments(p)


def run(args: argparse.Namespace) -> int:
    from ..errors import RecordError, RulesError
    from ..scoresheet import ScoreSheet
    from ..text import rules_words

    path = args.file
    if path is None:
        from ..tui.play import data_dir
        path = os.path.join(data_dir(), "scoresheet.json")
    sheet = None
    if os.path.exists(path) and not args.new:
        try:
            sheet = ScoreSheet.load(path)
        except RecordError as e:
            print(_("ohhell score: {path} is not a score sheet this version can read: {reason}\n"
                    "(it is left untouched; pass another FILE, or --new to start over and keep it "
                    "under another name)").format(path=path, reason=e), file=sys.stderr)
            return 2
        except OSError as e:
            print(_("ohhell score: cannot read {path}: {reason}").format(path=path, reason=e.strerror or e),
                  file=sys.stderr)
            return 2
    if args.print_table:
        if sheet is None:
            print(_("ohhell score: no score sheet at {path}").format(path=path), file=sys.stderr)
            return 2
        print(sheet_text(sheet))
        return 0
    try:
        from ..tui.score import ScoreApp, settings_for
    except ImportError as e:  # pragma: no cover - depends on the installation
        print(_("ohhell score needs the terminal extra: pip install 'ohhell[tui]' ({reason})").format(reason=e),
              file=sys.stderr)
        return 2
    if args.names and args.players is None:
        # The number of names sets the number of players when --players is not given.
        count = len(args.names.split(","))
        if 3 <= count <= 7:
            args.players = count
    rules = rules_or_fail(args)
    names = name_list(args.names, rules.players) if args.names else None
    dealer = None
    if args.dealer is not None:
        if not 1 <= args.dealer <= rules.players:
            raise UsageError(_("--dealer must be a seat from 1 to {n}").format(n=rules.players))
        dealer = args.dealer - 1
    if args.start and names is None and sheet is None:
        raise UsageError(_("--start needs --names"))
    settings = settings_for(rules, names, dealer)
    if args.start and sheet is None:
        try:
            ScoreSheet(rules, names or [], dealer or 0)
        except RulesError as e:
            raise UsageError(rules_words(e)) from None
    app = ScoreApp(path, settings, sheet=sheet, setup=not args.start)
    app.run()
    if app.sheet is not None:
        print(_("Score sheet saved in {path} — `{command}` resumes it.").format(
            path=path, command="ohhell score" + ("" if args.file is None else " " + path)))
    return app.return_code or 0   # non-zero when the app stopped on an error


def sheet_text(sheet) -> str:
    """The sheet as a plain-text table (for ``--print``)."""
    from ..i18n import display_width as _width
    n = sheet.players
    header = [pgettext("column", "hand"), pgettext("column", "cards"), pgettext("column", "dealer")] + list(sheet.names)
    rows = []
    totals = [0] * n
    for k in range(sheet.hands_started):
        p = sheet.plan(k)
        scores = sheet.scores(k)
        cells = []
        for s in range(n):
            b, w = sheet.bids(k)[s], sheet.tricks_won(k)[s]
            if scores is None:
                cells.append(f"{'-' if b is None else b}/{'-' if w is None else w}")
            else:
                totals[s] += scores[s]
                cells.append(f"{b}/{w}{'*' if b == w else ' '} {totals[s]:>4}")
        rows.append([str(k + 1), str(p.hand_size), sheet.names[p.dealer]] + cells)
    widths = [max(_width(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def fmt(r: "list[str]") -> str:   # (padded by terminal cells: Devanagari's marks take none)
        pad = [" " * (w - _width(x)) for x, w in zip(r, widths)]
        return "  ".join(p + x if i else x + p for i, (x, p) in enumerate(zip(r, pad)))
    lines = [fmt(header), "  ".join("-" * w for w in widths), *map(fmt, rows),
             _("(each cell: bid/won, * = made, then the running total)")]
    if sheet.is_over:
        lines.append(ngettext("Winner: {names}", "Winners: {names}", len(sheet.winners)).format(
            names=", ".join(sheet.names[s] for s in sheet.winners)))
    elif sheet.finished_hands:
        lines.append(_("Leading: {names}").format(names=", ".join(sheet.names[s] for s in sheet.leaders())))
    return "\n".join(lines)
