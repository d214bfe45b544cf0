"""The ``ohhell`` command: one command layer shared by every front end.

Each subcommand lives in its own module here with ``HELP`` (one line, marked with
``N_`` and worded when the parser is built), ``add_arguments(parser)`` and
``run(args) -> int``; heavy imports (Textual, the web server) happen inside ``run``
so ``ohhell --help`` stays fast.

The language is chosen once, before the parser is built (its help is worded in it):
``--lang LANG`` anywhere on the line, else the environment (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``); see :mod:`ohhell.i18n`.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from typing import Sequence

from ..i18n import LANGUAGES, _, from_environment, use_language

__all__ = ["main", "COMMANDS", "build_parser", "language_of", "HelpFormatter"]

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
    "rules": "ohhell.cli.rules",
}


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, with its own few words (``usage:``, the section headings) in
    the current language; everything else in the help is ours and marked already.
    (argparse's error messages, such as "invalid choice", are worded by
    :func:`ohhell.cli.argwords.argparse_in_language` while the command line is parsed.)"""

    def add_usage(self, usage, actions, groups, prefix=None) -> None:  # type: ignore[override]
        super().add_usage(usage, actions, groups, prefix=prefix if prefix is not None else _("usage: "))

    def start_section(self, heading) -> None:  # type: ignore[override]
        words = {"positional arguments": _("positional arguments"), "options": _("options"),
                 "optional arguments": _("options")}
        super().start_section(words.get(heading, heading) if heading else heading)


def _add_common(parser: argparse.ArgumentParser, *, top: bool = False) -> None:
    """``-h`` and ``--lang``, worded in the current language (every parser has them)."""
    parser.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                        help=_("show this help message and exit"))
    parser.add_argument("--lang", metavar="LANG", default=None if top else argparse.SUPPRESS,
                        help=_("the language to speak: {languages} (default: from LANG)").format(
                            languages=", ".join(LANGUAGES)))


def language_of(argv: "Sequence[str]") -> "str | None":
    """The language ``--lang`` asks for anywhere on the command line (before ``--``), or
    ``None``; an unknown one is a :class:`ValueError` that lists the languages."""
    pre = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    pre.add_argument("--lang", default=None)
    argv = list(argv)
    if "--" in argv:
        argv = argv[:argv.index("--")]
    try:
        known, _rest = pre.parse_known_args(argv)
    except SystemExit:   # "--lang" with nothing after it: the real parser says so
        return None
    lang = known.lang
    if lang is None:
        return None
    from ..i18n import normalize
    code = normalize(lang)
    if code is None or (lang.lower() != code and not lang.lower().startswith(code + "_")
                        and not lang.lower().startswith(code + "-")):
        offered = ", ".join(f"{c} ({name})" for c, name in LANGUAGES.items())
        raise ValueError(_("unknown language {lang!r}: choose one of {offered}").format(
            lang=lang, offered=offered))
    return code


def build_parser() -> argparse.ArgumentParser:
    """The ``ohhell`` parser, its help worded in the current language."""
    from .. import __version__
    parser = argparse.ArgumentParser(
        prog="ohhell", description=_("Oh Hell: play, keep score, run bots and study the game."),
        formatter_class=HelpFormatter, add_help=False)
    _add_common(parser, top=True)
    parser.add_argument("--version", action="version", version=f"ohhell {__version__}",
                        help=_("show program's version number and exit"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        if importlib.util.find_spec(module_name) is None:
            continue
        module = importlib.import_module(module_name)
        words = _(module.HELP)
        p = sub.add_parser(name, help=words, description=words, formatter_class=HelpFormatter,
                           add_help=False)
        _add_common(p)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: "Sequence[str] | None" = None) -> int:
    """Run the command line; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    # The language is set for the whole run, and restored after it (main is also called
    # from tests and other programs, in one process).
    with use_language(from_environment()):
        try:
            lang = language_of(argv)
        except ValueError as e:
            print(f"ohhell: {e}", file=sys.stderr)
            return 2
    with use_language(lang or from_environment()):
        return _main(argv)


def _main(argv: "list[str]") -> int:
    from .argwords import argparse_in_language
    with argparse_in_language():   # argparse's own words ("invalid choice", ...) in the language too
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
        print(_("interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
