"""Languages: which ones ohhell speaks, how one is chosen, and the words in each.

ohhell speaks English (``en``), Cebuano (``ceb``), Malay (``ms``), Albanian (``sq``),
Basque (``eu``) and Marathi (``mr``): the languages its rules came in.

The words live in gettext catalogs managed with Babel, one ``.po`` file per language
and *domain* under ``ohhell/i18n/locale/<lang>/LC_MESSAGES/``:

* ``ohhell`` - everything said by the Python front ends outside the server: the
  terminal game, replay and scorekeeper, ``ohhell --help``, the words for cards and
  suits and the reasons an action is refused (:func:`ohhell.text.explain_illegal`);
* ``web`` - the browser's pages (their JavaScript modules and HTML) and the few texts
  the server itself words (HTTP error messages, page titles).  The server sends
  data and message *codes* on the websocket; each page words them in its reader's
  language from this catalog, which :func:`catalog_json` hands to the page;
* ``pages`` - the replay, analysis, account, player, leaderboard, events and Rules pages
  (kept apart from ``web`` so the two can be worked on at once; the browser gets both as one
  catalog).

Catalogs are read from the ``.po`` files and compiled in memory the first time a
language is used (no build step, nothing generated is committed).  ``scripts/i18n.py``
extracts the messages from the sources, updates every catalog and checks them
(``docs/languages.md`` has the recipe for adding a language).

In Python code, mark text with :func:`_` (or :func:`ngettext` for counts), which words
it in the *current* language: the one chosen with :func:`set_language` (the terminal:
``--lang``, else ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``) or, inside the
server, the language of the request being answered (a context variable, so each
request and websocket task has its own).  Text computed at import time must be marked
with :func:`N_` and worded where it is shown, since the language is not known yet.
Placeholders are ``str.format`` fields (``{name}``), the same in every language.

Without Babel installed (a bare ``pip install ohhell``), everything is English.
"""

from __future__ import annotations

import contextvars
import gettext as _gettext
import io
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Mapping

__all__ = ["LANGUAGES", "DEFAULT", "DOMAINS", "LOCALE_DIR", "normalize", "negotiate",
           "from_environment", "set_language", "get_language", "use_language", "translations",
           "Translator", "translator", "_", "N_", "ngettext", "pgettext", "npgettext",
           "format_number", "number_symbols", "display_width", "catalog_json", "po_path"]

#: code -> the language's own name for itself (what a language menu shows)
LANGUAGES: dict[str, str] = {
    "en": "English",
    "ceb": "Sinugboanon",
    "ms": "Bahasa Melayu",
    "sq": "Shqip",
    "eu": "Euskara",
    "mr": "मराठी",
}
#: the language of the source texts, and of anyone whose language is not offered
DEFAULT = "en"
#: the catalogs (see the module's docstring)
DOMAINS = ("ohhell", "web", "pages")
#: where the catalogs live: ``LOCALE_DIR/<lang>/LC_MESSAGES/<domain>.po`` (templates: ``<domain>.pot``)
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

_current: contextvars.ContextVar[str] = contextvars.ContextVar("ohhell_language", default=DEFAULT)

_TAG = re.compile(r"^\s*([A-Za-z]{2,3})(?:[-_]([A-Za-z0-9]{2,8}))*")


def normalize(tag: "str | None") -> "str | None":
    """The offered language a tag names, or ``None``.

    Accepts BCP 47 tags and POSIX locale names: ``ms-MY``, ``ceb_PH.UTF-8``,
    ``eu-ES``, ``MR``.  ``C``, ``POSIX``, ``*`` and unknown languages give ``None``.
    """
    if not tag:
        return None
    tag = tag.split(".", 1)[0].split("@", 1)[0]
    m = _TAG.match(tag)
    if not m:
        return None
    code = m.group(1).lower()
    return code if code in LANGUAGES else None


def negotiate(accept_language: "str | None", default: str = DEFAULT) -> str:
    """The best offered language for an HTTP ``Accept-Language`` header.

    Ranges are taken in order of their quality (``q``); ties keep the header's order.
    ``de, ms;q=0.8, en;q=0.5`` gives ``ms``.  A header that names nothing offered, or
    cannot be read, gives ``default``.
    """
    if not accept_language or len(accept_language) > 2000:
        return default
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept_language.split(",")):
        fields = part.strip().split(";")
        q = 1.0
        for param in fields[1:]:
            key, _sep, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if not (0.0 < q <= 1.0):
            continue
        code = normalize(fields[0])
        if code is not None:
            ranked.append((-q, i, code))
    return min(ranked)[2] if ranked else default


def from_environment(environ: "Mapping[str, str] | None" = None, default: str = DEFAULT) -> str:
    """The language the environment asks for, as gettext reads it: the first offered
    language in ``LANGUAGE`` (a colon-separated list), else ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``; ``default`` when none names an offered language."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for tag in value.split(":"):
            code = normalize(tag)
            if code is not None:
                return code
        if var != "LANGUAGE":
            # LC_ALL=C means C: do not look further down the list
            return default
    return default


def _check(lang: str) -> str:
    if lang not in LANGUAGES:
        offered = ", ".join(LANGUAGES)
        raise ValueError(f"no such language {lang!r}: ohhell speaks {offered}")
    return lang


def set_language(lang: str) -> None:
    """Make ``lang`` the current language of this context (the terminal: the whole run)."""
    _current.set(_check(lang))


def get_language() -> str:
    """The current language of this context."""
    return _current.get()


class use_language:
    """``with use_language("eu"): ...`` words everything inside in Basque, then restores."""

    def __init__(self, lang: str) -> None:
        self.lang = _check(lang)
        self._token: "contextvars.Token[str] | None" = None

    def __enter__(self) -> str:
        self._token = _current.set(self.lang)
        return self.lang

    def __exit__(self, *exc: object) -> None:
        assert self._token is not None
        _current.reset(self._token)


def po_path(lang: str, domain: str) -> Path:
    """The catalog file of one language and domain."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


@lru_cache(maxsize=None)
def translations(lang: str, domain: str = "ohhell") -> _gettext.NullTranslations:
    """The compiled catalog of ``lang`` in ``domain`` (cached).

    English, a missing catalog, or no Babel give the source texts unchanged."""
    _check(lang)
    path = po_path(lang, domain)
    if lang == DEFAULT or not path.exists():
        return _gettext.NullTranslations()
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError:  # a bare install: English only
        return _gettext.NullTranslations()
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=domain)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return _gettext.GNUTranslations(buf)


class Translator:
    """The words of one language and domain: ``t.gettext``, ``t.ngettext``,
    ``t.pgettext``, ``t.npgettext`` and ``t.number``."""

    def __init__(self, lang: str, domain: str = "ohhell") -> None:
        self.lang = _check(lang)
        self.domain = domain
        self._t = translations(lang, domain)

    def gettext(self, message: str) -> str:
        return self._t.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._t.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self._t.pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self._t.npgettext(context, singular, plural, n)

    def number(self, value: float, digits: int = 0) -> str:
        return format_number(value, digits, lang=self.lang)


def translator(lang: "str | None" = None, domain: str = "ohhell") -> Translator:
    """A :class:`Translator` for ``lang`` (default: the current language)."""
    return Translator(lang or get_language(), domain)


def _(message: str) -> str:
    """``message`` in the current language (domain ``ohhell``)."""
    return translations(get_language(), "ohhell").gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it now (say it later with ``_``)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the current language."""
    return translations(get_language(), "ohhell").ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart by ``context`` (e.g. a card's rank)."""
    return translations(get_language(), "ohhell").pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return translations(get_language(), "ohhell").npgettext(context, singular, plural, n)


def format_number(value: float, digits: int = 0, *, lang: "str | None" = None) -> str:
    """A number as ``lang`` writes it (decimal mark, grouping, minus sign), with
    exactly ``digits`` decimals.  Without Babel, Python's own formatting."""
    lang = _check(lang or get_language())
    try:
        from babel.numbers import format_decimal
    except ImportError:
        return f"{value:,.{digits}f}"
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    if round(value, digits) == 0:
        value = 0.0     # no "-0.0" for a small loss rounded away
    return format_decimal(value, format=pattern, locale=lang)


def display_width(text: str) -> int:
    """How many terminal cells ``text`` takes: combining marks (Devanagari's vowel signs and
    viramas among them) none, East Asian wide characters two, the rest one.  For lining up
    plain-text tables in any language (``len`` counts Marathi's marks as letters)."""
    import unicodedata
    return sum(0 if unicodedata.category(c) in ("Mn", "Me", "Cf") else
               2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def number_symbols(lang: str) -> dict[str, str]:
    """How ``lang`` writes numbers, as :func:`format_number` does: ``{"decimal", "group",
    "minus"}`` (the pages format numbers with these, so a page and the terminal agree, and a
    browser without the language's locale data still writes them right)."""
    one = format_number(1000.5, 1, lang=lang)            # "1,000.5", "1.000,5", "1 000,5"
    return {"decimal": one[-2], "group": one[1:-5], "minus": format_number(-1, lang=lang)[:-1]}


def catalog_json(lang: str, domain: str = "web") -> dict:
    """A catalog as a page reads it: ``{"lang", "plural", "messages", "number"}``.

    ``plural`` is the language's gettext plural expression (C syntax, in ``n``);
    ``messages`` maps a message id (``"context\\u0004id"`` with a context) to its
    translation, or, for a message with a plural, its singular id to the list of
    forms; ``number`` how the language writes numbers (:func:`number_symbols`).
    Untranslated and fuzzy messages are left out (the page shows the English)."""
    _check(lang)
    out: dict = {"lang": lang, "plural": "n != 1", "messages": {}}
    path = po_path(lang, domain)
    if lang == DEFAULT or not path.exists():
        return out
    try:
        out["number"] = number_symbols(lang)
    except ImportError:  # no Babel: the page's own defaults
        pass
    from babel.messages.pofile import read_po
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=domain)
    out["plural"] = catalog.plural_expr
    for message in catalog:
        if not message.id or message.fuzzy or not message.string:
            continue
        if isinstance(message.id, (tuple, list)):
            forms = list(message.string)
            if not all(forms):
                continue
            key = message.id[0]
            value: "str | list[str]" = forms
        else:
            key, value = message.id, str(message.string)
        if message.context:
            key = f"{message.context}\u0004{key}"
        out["messages"][key] = value
    return out


def languages_offered() -> Iterable[tuple[str, str]]:
    """(code, own name) of every language, in menu order."""
    return LANGUAGES.items()
