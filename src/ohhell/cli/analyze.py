"""``ohhell analyze``: where every point of a game was won and lost (docs/coach.md)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from ..i18n import N_, _, ngettext

HELP = N_("analyse a game: the points each bid and card lost, luck against skill (a table, an annotated record, --html)")


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected a whole number, not {text!r}").format(text=text)) from None
    if v < 1:
        raise argparse.ArgumentTypeError(_("must be at least 1, not {n}").format(n=v))
    return v


def add_arguments(p: argparse.ArgumentParser) -> None:
    from ..coach import DEFAULT_SAMPLES, MIN_LOSS
    p.add_argument("file", metavar="FILE",
                   help=_("a record (.json), records (.jsonl, one per line) or a web game's download"))
    p.add_argument("--game", type=_positive, default=None, metavar="N",
                   help=_("only record N of a .jsonl file (1 = the first; default: every record)"))
    p.add_argument("-o", "--output", default=None, metavar="PATH",
                   help=_("write the annotated record(s) here (default: FILE's name with .analysis.json, "
                        ".analysis.jsonl for several; '-' for standard output)"))
    p.add_argument("--no-save", action="store_true", help=_("do not write the annotated record"))
    p.add_argument("--html", default=None, metavar="PATH", help=_("also write a standalone page with charts"))
    p.add_argument("--samples", type=_positive, default=DEFAULT_SAMPLES,
                   help=_("sampled deals per decision (default {n}; more is slower and surer)").format(n=DEFAULT_SAMPLES))
    p.add_argument("--seed", default="0", help=_("the analysis's seed (the same file and seed give the same analysis)"))
    p.add_argument("--jobs", type=_positive, default=1, metavar="N", help=_("use N processes (default 1)"))
    p.add_argument("--no-luck", action="store_true",
                   help=_("leave out luck and skill (what the best actions would have scored on the real cards)"))
    p.add_argument("--min-loss", type=float, default=MIN_LOSS, metavar="POINTS",
                   help=_("flag mistakes of at least this many points (default {n})").format(n=MIN_LOSS))
    p.add_argument("--top", type=_positive, default=5, metavar="N", help=_("mistakes to list per seat (default 5)"))
    p.add_argument("--brief", action="store_true", help=_("leave out the hand-by-hand table"))
    p.add_argument("--quiet", action="store_true", help=_("no progress bar"))


def _default_output(path: str, several: bool) -> str:
    base = os.path.basename(path)
    for ext in (".jsonl", ".json"):
        if base.endswith(ext):
            base = base[: -len(ext)]
            break
    return os.path.join(os.path.dirname(path), base + (".analysis.jsonl" if several else ".analysis.json"))


class _Progress:
    """A rich progress bar on standard error when it is a terminal (else nothing)."""

    def __init__(self, enabled: bool) -> None:
        self.bar = None
        self.task = None
        if not enabled or not sys.stderr.isatty():
            return
        try:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        except ImportError:   # pragma: no cover - rich comes with the tui extra
            return
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn(_("decisions")), TimeRemainingColumn(), console=Console(stderr=True),
                            transient=True)

    def __enter__(self) -> "_Progress":
        if self.bar is not None:
            self.bar.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)

    def start(self, description: str):
        if self.bar is None:
            return None
        task = self.bar.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            assert self.bar is not None
            self.bar.update(task, completed=done, total=total)
        return update


def _print(analysis, brief: bool) -> None:
    from ..coach.report import rich_tables, text_report
    if sys.stdout.isatty():
        try:
            from rich.console import Console
        except ImportError:   # pragma: no cover
            pass
        else:
            console = Console()
            for r in rich_tables(analysis, hands=not brief):
                console.print(r)
            return
    sys.stdout.write(text_report(analysis, hands=not brief))


def run(args: argparse.Namespace) -> int:
    from ..coach import analyze_game, annotate
    from ..coach.report import html_report
    from ..errors import OhHellError
    from ..files import RECORDS, SCORESHEET, atomic_write_text, read_file

    def fail(msg: str) -> int:
        print("ohhell analyze: " + msg, file=sys.stderr)
        return 2

    if not (args.min_loss >= 0):
        return fail(_("--min-loss must be 0 or more, not {value}").format(value=args.min_loss))
    try:
        content = read_file(args.file)
    except OSError as e:
        return fail(_("cannot read {path}: {reason}").format(path=args.file, reason=e.strerror or e))
    except OhHellError as e:
        return fail(f"{args.file}: {e}")
    if content.kind == SCORESHEET:
        return fail(_("{path} is a score sheet (ohhell score): it has no bids or cards to analyse").format(
            path=args.file))
    records = content.records
    numbers = list(range(1, len(records) + 1))
    if args.game is not None:
        if args.game > len(records):
            return fail(ngettext("--game must be 1 to {n} ({path} holds {n} record)",
                                 "--game must be 1 to {n} ({path} holds {n} records)", len(records)).format(
                n=len(records), path=args.file))
        numbers = [args.game]
    several = content.kind == RECORDS and len(numbers) > 1
    seed: "int | str" = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
    annotated, analyses = [], []
    with _Progress(not args.quiet) as progress:
        for number in numbers:
            rec = records[number - 1]
            where = _("{path}, record {n}").format(path=args.file, n=number) if content.kind == RECORDS else args.file
            if not isinstance(rec, dict):
                return fail(_("{path}: a record is a JSON object").format(path=where))
            label = _("game {n}").format(n=number) if content.kind == RECORDS else _("analysing")
            try:
                a = analyze_game(rec, samples=args.samples, seed=seed, jobs=args.jobs,
                                 progress=progress.start(label), luck=not args.no_luck,
                                 min_loss=args.min_loss, top=args.top)
            except OhHellError as e:
                return fail(f"{where}: {e}")
            analyses.append((number, a))
            annotated.append(annotate({k: v for k, v in rec.items() if k != "analysis"}, a))
    out = sys.stdout
    to_stdout = args.output == "-"
    for number, a in analyses:
        if to_stdout:
            break
        if len(analyses) > 1:
            out.write("\n=== " + _("Game {n}").format(n=number) + " ===\n")
            out.flush()
        _print(a, args.brief)
    if not args.no_save:
        text = ("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in annotated) if several
                else json.dumps(annotated[0], indent=1, ensure_ascii=False) + "\n")
        if to_stdout:
            sys.stdout.write(text)
        else:
            path = args.output or _default_output(args.file, several)
            try:
                atomic_write_text(path, text)
            except OSError as e:
                return fail(_("cannot write {path}: {reason}").format(path=path, reason=e.strerror or e))
            print(_("annotated record written to {path}").format(path=path), file=sys.stderr)
    if args.html:
        pages = []
        for number, a in analyses:
            title = _("Game analysis: {names}").format(names=", ".join(a.players))
            if len(analyses) > 1:
                title += " (" + _("game {n}").format(n=number) + ")"
            pages.append(html_report(a, title=title))
        try:
            if len(pages) == 1:
                atomic_write_text(args.html, pages[0])
                written = [args.html]
            else:
                root, ext = os.path.splitext(args.html)
                written = []
                for (number, _a), page in zip(analyses, pages):
                    path = f"{root}-{number}{ext or '.html'}"
                    atomic_write_text(path, page)
                    written.append(path)
        except OSError as e:
            return fail(_("cannot write {path}: {reason}").format(path=args.html, reason=e.strerror or e))
        print(_("page written to {paths}").format(paths=', '.join(written)), file=sys.stderr)
    return 0
