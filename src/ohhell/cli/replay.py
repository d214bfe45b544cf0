"""``ohhell replay``: step through a game record (or a score sheet) in the terminal."""

from __future__ import annotations

import argparse
import sys
from ..i18n import _, N_

HELP = N_("step through a game record forwards and backwards (needs the 'tui' extra)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE",
                   help=_("a record (.json), records (.jsonl, one per line) or a score sheet"))
    p.add_argument("--game", type=int, default=1, help=_("which record of a .jsonl file, 1 = the first"))
    p.add_argument("--seat", type=int, default=None,
                   help=_("show only what this seat (1 to N) saw (default: everyone's cards)"))
    p.add_argument("--at", type=int, default=None, metavar="N",
                   help=_("start after action N (negative: from the end; default: the start)"))
    p.add_argument("--analyze", "--analyse", action="store_true",
                   help=_("analyse the game first (with a progress bar), save the annotated record as "
                        "NAME.analysis.json beside FILE, and show the coach's annotations "
                        "(an annotated record shows them without this)"))
    p.add_argument("--samples", type=_positive, default=None,
                   help=_("with --analyze: sampled deals per decision (default: ohhell analyze's)"))
    p.add_argument("--no-save", action="store_true",
                   help=_("with --analyze: keep the analysis in memory, write no file"))


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected a whole number, not {text!r}").format(text=text)) from None
    if v < 1:
        raise argparse.ArgumentTypeError(_("must be at least 1, not {n}").format(n=v))
    return v


def run(args: argparse.Namespace) -> int:
    try:
        from ..tui.replay import ReplayApp, Replayer, load_file
    except ImportError as e:  # pragma: no cover - depends on the installation
        print(_("ohhell replay needs the terminal extra: pip install 'ohhell[tui]' ({reason})").format(reason=e),
              file=sys.stderr)
        return 2
    from ..errors import OhHellError
    from ..scoresheet import ScoreSheet

    try:
        content = load_file(args.file)
    except OSError as e:
        print(_("ohhell replay: cannot read {path}: {reason}").format(path=args.file, reason=e.strerror or e),
              file=sys.stderr)
        return 2
    except OhHellError as e:
        print(f"ohhell replay: {args.file}: {e}", file=sys.stderr)
        return 2
    index = 0
    seat = None
    if not isinstance(content, ScoreSheet):
        if not 1 <= args.game <= len(content):
            print(_("ohhell replay: --game must be 1 to {n}").format(n=len(content)), file=sys.stderr)
            return 2
        index = args.game - 1
        try:
            rep = Replayer(content[index])
        except OhHellError as e:
            where = " (" + _("game {n}").format(n=index + 1) + ")" if len(content) > 1 else ""
            print(f"ohhell replay: {args.file}{where}: {e}", file=sys.stderr)
            return 2
        if args.seat is not None:
            if not 1 <= args.seat <= rep.game.players:
                print(_("ohhell replay: --seat must be 1 to {n}").format(n=rep.game.players), file=sys.stderr)
                return 2
            seat = args.seat - 1
        if args.analyze:
            rc = _analyze(args, content, index)
            if rc:
                return rc
    elif args.analyze:
        print(_("ohhell replay: {path} is a score sheet: it has no bids or cards to analyse").format(path=args.file),
              file=sys.stderr)
        return 2
    app = ReplayApp(content, index=index, seat=seat, position=args.at, source=args.file)
    app.run()
    return app.return_code or 0   # non-zero when the app stopped on an error


def _analyze(args: argparse.Namespace, records: list, index: int) -> int:
    """Analyse ``records[index]`` in place (annotating it), saving it unless ``--no-save``."""
    import json

    from ..coach import DEFAULT_SAMPLES, analyze_game, annotate
    from ..errors import OhHellError
    from ..files import atomic_write_text
    from ..tui.coach import analysis_path
    from .analyze import _Progress

    samples = args.samples or DEFAULT_SAMPLES
    try:
        with _Progress(True) as progress:
            a = analyze_game(records[index], samples=samples,
                             progress=progress.start(_("Analysing game {n}").format(n=index + 1)
                                                     if len(records) > 1 else _("Analysing")))
    except (OhHellError, ValueError) as e:
        print(_("ohhell replay: {path}: cannot analyse it: {reason}").format(path=args.file, reason=e),
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(_("ohhell replay: analysis interrupted"), file=sys.stderr)
        return 130
    records[index] = annotate(records[index], a)
    if not args.no_save:
        out = analysis_path(args.file)
        if len(records) > 1:
            base = out[: -len(".analysis.json")]
            out = f"{base}.game{index + 1}.analysis.json"
        try:
            atomic_write_text(out, json.dumps(records[index], ensure_ascii=False) + "\n")
        except OSError as e:
            print(_("ohhell replay: could not save the analysis to {path}: {reason} "
                    "(replaying it anyway)").format(path=out, reason=e.strerror or e), file=sys.stderr)
        else:
            print(_("ohhell replay: the annotated record is saved in {path}").format(path=out), file=sys.stderr)
    return 0
