"""``ohhell replay``: step through a game record (or a score sheet) in the terminal."""

from __future__ import annotations

import argparse
import sys

HELP = "step through a game record forwards and backwards (needs the 'tui' extra)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE",
                   help="a record (.json), records (.jsonl, one per line) or a score sheet")
    p.add_argument("--game", type=int, default=1, help="which record of a .jsonl file, 1 = the first")
    p.add_argument("--seat", type=int, default=None,
                   help="show only what this seat (1 to N) saw (default: everyone's cards)")
    p.add_argument("--at", type=int, default=None, metavar="N",
                   help="start after action N (negative: from the end; default: the start)")


def run(args: argparse.Namespace) -> int:
    try:
        from ..tui.replay import ReplayApp, Replayer, load_file
    except ImportError as e:  # pragma: no cover - depends on the installation
        print(f"ohhell replay needs the terminal extra: pip install 'ohhell[tui]' ({e})", file=sys.stderr)
        return 2
    from ..errors import OhHellError
    from ..scoresheet import ScoreSheet

    try:
        content = load_file(args.file)
    except OSError as e:
        print(f"ohhell replay: cannot read {args.file}: {e.strerror or e}", file=sys.stderr)
        return 2
    except OhHellError as e:
        print(f"ohhell replay: {args.file}: {e}", file=sys.stderr)
        return 2
    index = 0
    seat = None
    if not isinstance(content, ScoreSheet):
        if not 1 <= args.game <= len(content):
            print(f"ohhell replay: --game must be 1 to {len(content)}", file=sys.stderr)
            return 2
        index = args.game - 1
        try:
            rep = Replayer(content[index])
        except OhHellError as e:
            where = f" (game {index + 1})" if len(content) > 1 else ""
            print(f"ohhell replay: {args.file}{where}: {e}", file=sys.stderr)
            return 2
        if args.seat is not None:
            if not 1 <= args.seat <= rep.game.players:
                print(f"ohhell replay: --seat must be 1 to {rep.game.players}", file=sys.stderr)
                return 2
            seat = args.seat - 1
    app = ReplayApp(content, index=index, seat=seat, position=args.at, source=args.file)
    app.run()
    return app.return_code or 0   # non-zero when the app stopped on an error
