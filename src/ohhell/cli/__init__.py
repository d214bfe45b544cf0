"""The ``ohhell`` command: one command layer shared by every front end.

Each subcommand lives in its own module here with ``HELP`` (one line),
``add_arguments(parser)`` and ``run(args) -> int``; heavy imports (Textual,
the web server) happen inside ``run`` so ``ohhell --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from typing import Sequence

__all__ = ["main", "COMMANDS"]

#: subcommand -> module (listed only when the module exists)
COMMANDS = {
    "selfplay": "ohhell.cli.selfplay",
    "arena": "ohhell.cli.arena",
    "play": "ohhell.cli.play",
    "replay": "ohhell.cli.replay",
    "score": "ohhell.cli.score",
    "serve": "ohhell.cli.serve",
    "verify": "ohhell.cli.verify",
    "analyze": "ohhell.cli.analyze",
    "export": "ohhell.cli.export",
    "import": "ohhell.cli.importer",
    "admin": "ohhell.cli.admin",
}


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__
    parser = argparse.ArgumentParser(
        prog="ohhell", description="Oh Hell: play, keep score, run bots and study the game.")
    parser.add_argument("--version", action="version", version=f"ohhell {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        if importlib.util.find_spec(module_name) is None:
            continue
        module = importlib.import_module(module_name)
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: "Sequence[str] | None" = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    from .common import UsageError
    try:
        return int(args._run(args) or 0)
    except UsageError as e:
        print(f"ohhell {args.command}: {e}", file=sys.stderr)
        return int(getattr(e, "status", 2))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
