"""``ohhell rules``: the rules of Oh Hell in the chosen language, in the terminal."""

from __future__ import annotations

import argparse
import sys

from ..i18n import N_, _, get_language

HELP = N_("show the rules of Oh Hell (in the language of --lang)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--plain", action="store_true",
                   help=_("print the plain Markdown, even to a terminal (it is printed plain when piped)"))


def run(args: argparse.Namespace) -> int:
    from ..i18n.rules import rules_markdown, rules_path
    lang = get_language()
    try:
        text = rules_markdown(lang)
    except FileNotFoundError:
        print(_("ohhell rules: the rules text is missing from this installation ({path})").format(
            path=rules_path(lang).parent), file=sys.stderr)
        return 2
    except OSError as e:
        print(_("ohhell rules: cannot read the rules: {reason}").format(reason=e.strerror or e), file=sys.stderr)
        return 2
    if args.plain or not sys.stdout.isatty():
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return 0
    try:
        from rich.console import Console
        from rich.markdown import Markdown
    except ImportError:  # pragma: no cover - rich comes with the 'tui' extra
        sys.stdout.write(text)
        return 0
    Console().print(Markdown(text))
    return 0
