"""argparse's own words in the reader's language: its error messages ("invalid choice",
"the following arguments are required"), ``usage:`` and the help's headings.

argparse words them with the ``_`` and ``ngettext`` it imported from :mod:`gettext`, which
read the process's default ``messages`` domain; no catalog of ohhell's is there, and a
program must not bind that domain for every library in the process.  So while ``ohhell``
builds and parses its command line, :func:`argparse_in_language` points argparse's two
names at ohhell's own catalog, where each of argparse's messages below is translated (they
are marked here so that ``scripts/i18n.py update`` extracts them), and then puts them back.
A message not found there (a newer Python's) is left to gettext, as before: English.

The messages are argparse's, as Python 3.11 to 3.13 write them; the ones only a programmer
can meet (a parser built wrongly) are left out.  ``tests/i18n/test_terminal_i18n.py``
checks that each message of the running Python's argparse a user can meet is listed here.
"""

from __future__ import annotations

import argparse
import contextlib
import threading
from typing import Callable, Iterator

from ..i18n import N_, get_language, ngettext, translations

__all__ = ["MESSAGES", "argparse_in_language", "expected_arguments"]

#: argparse's messages that a user of ``ohhell`` can read (its help, its refusals)
MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("%(prog)s: warning: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("%(heading)s:"),
    N_(" (default: %(default)s)"),
    N_("subcommands"),
    N_("command '%(parser_name)s' is deprecated"),
    N_("option '%(option)s' is deprecated"),
    N_("argument '%(argument_name)s' is deprecated"),
)


def expected_arguments(n: int) -> str:
    """argparse's one plural message, ``expected %s arguments`` (as ``nargs=N`` refuses)."""
    return ngettext("expected %s argument", "expected %s arguments", n)


_lock = threading.RLock()


def _ours(original: Callable[[str], str]) -> Callable[[str], str]:
    def gettext(message: str) -> str:
        said = translations(get_language(), "ohhell").gettext(message)
        return said if said != message else original(message)
    return gettext


def _ours_n(original: Callable[[str, str, int], str]) -> Callable[[str, str, int], str]:
    def ngettext_(singular: str, plural: str, n: int) -> str:
        said = translations(get_language(), "ohhell").ngettext(singular, plural, n)
        return said if said not in (singular, plural) else original(singular, plural, n)
    return ngettext_


@contextlib.contextmanager
def argparse_in_language() -> Iterator[None]:
    """argparse's words in the current language (:func:`ohhell.i18n.get_language`) inside
    the block; argparse as it was after it.  (argparse's names are module globals: while
    the block runs, a parser in another thread of the process speaks the same language.)"""
    with _lock:
        old = argparse._, argparse.ngettext  # type: ignore[attr-defined]
        argparse._ = _ours(old[0])  # type: ignore[attr-defined]
        argparse.ngettext = _ours_n(old[1])  # type: ignore[attr-defined]
        try:
            yield
        finally:
            argparse._, argparse.ngettext = old  # type: ignore[attr-defined]
