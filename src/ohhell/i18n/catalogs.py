"""Keeping the catalogs: extract the messages from the sources, update every
language's ``.po`` file, and check that each is complete.

Used by ``scripts/i18n.py`` (``extract``, ``update``, ``check``, ``init LANG``) and by
the test suite, which fails on any problem :func:`problems` finds.  Needs Babel.

Sources per domain (paths relative to the ``ohhell`` package):

* ``ohhell``: every ``*.py`` outside ``server/`` and ``i18n/``;
* ``web``: ``server/*.py``, ``server/static/js/**.js`` and the pages
  ``server/static/*.html`` (see :data:`HTML_METHOD`), except the pages of :data:`PAGES`;
* ``pages``: the scripts and HTML of the pages in :data:`PAGES` (replay, analysis,
  account, player, leaderboard, the events pages, Rules).  The browser gets ``web`` and
  ``pages`` as one catalog.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Iterator

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from . import DEFAULT, DOMAINS, LANGUAGES, LOCALE_DIR, po_path

__all__ = ["PACKAGE_DIR", "template", "update", "init", "problems", "placeholders", "printf_fields", "pot_path",
           "JS_KEYWORDS", "HTML_METHOD"]

PACKAGE_DIR = Path(__file__).resolve().parent.parent
PROJECT = "ohhell"

#: the functions the pages' JavaScript marks text with (see ``static/js/i18n.js``)
JS_KEYWORDS = {"t": None, "tn": (1, 2), "tp": ((1, "c"), 2), "_": None, "ngettext": (1, 2)}
#: the extraction method for the static HTML pages (a ``module:function`` Babel calls);
#: ``None`` until the pages carry marked text
HTML_METHOD: "str | None" = "ohhell.i18n.html:extract_html"

_PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(?:[:!][^{}]*)?\}(?!\})")
#: printf-style fields (argparse's messages: ``%(prog)s``, ``%s``, ``%r``); ``%%`` is a literal %
_PRINTF = re.compile(r"%(?:%|(\([A-Za-z_][A-Za-z0-9_]*\))?[#0+-]*\d*(?:\.\d+)?([sdr]))")


def pot_path(domain: str) -> Path:
    return LOCALE_DIR / f"{domain}.pot"


#: the pages whose words are in the ``pages`` domain (the rest of the web is ``web``): each is
#: ``static/<name>.html`` and/or ``static/js/<name>.js``
PAGES = ("replay", "replay-analysis", "account", "player", "leaderboard", "rules", "rules-link",
         "events", "event", "event-words")


def _method_map(domain: str) -> list[tuple[str, str]]:
    if domain == "ohhell":
        return [("server/**", "ignore"), ("i18n/**", "ignore"), ("**.py", "python")]
    html = HTML_METHOD or "ignore"
    pages_js = [(f"server/static/js/{p}.js", "javascript") for p in PAGES]
    pages_html = [(f"server/static/{p}.html", html) for p in PAGES]
    if domain == "web":
        return [*((pat, "ignore") for pat, _m in pages_js + pages_html),
                ("server/static/js/**.js", "javascript"), ("server/static/*.html", html),
                ("server/*.py", "python"), ("**", "ignore")]
    if domain == "pages":
        return [*pages_js, *pages_html, ("**", "ignore")]
    raise ValueError(f"no such domain {domain!r}")


def template(domain: str) -> Catalog:
    """The messages the sources of ``domain`` mark, as a template catalog."""
    keywords = dict(DEFAULT_KEYWORDS)
    if domain in ("web", "pages"):
        keywords.update(JS_KEYWORDS)
    cat = Catalog(project=PROJECT, domain=domain, fuzzy=False, charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            PACKAGE_DIR, _method_map(domain), keywords=keywords,
            comment_tags=("TRANSLATORS:",), strip_comment_tags=True,
            directory_filter=lambda path: not Path(path).name.startswith((".", "__"))):
        cat.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return cat


_DATES = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date): [^"]*"\n', re.MULTILINE)


def _write(path: Path, cat: Catalog) -> bool:
    """Write a catalog, unless only its dates would change (so ``update`` leaves untouched
    catalogs as they are, and diffs show real changes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, cat, width=100, omit_header=False, sort_output=False, no_location=False,
             include_previous=False, ignore_obsolete=True)
    new = buf.getvalue()
    if path.exists() and _DATES.sub(b"", path.read_bytes()) == _DATES.sub(b"", new):
        return False
    path.write_bytes(new)
    return True


def _read(path: Path, lang: "str | None", domain: str) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


def init(lang: str, domains: "tuple[str, ...]" = DOMAINS) -> list[Path]:
    """Start the catalogs of a new language (after adding it to ``LANGUAGES``)."""
    written = []
    for domain in domains:
        path = po_path(lang, domain)
        if path.exists():
            continue
        cat = Catalog(locale=lang, domain=domain, project=PROJECT, fuzzy=False, charset="utf-8")
        tmpl = _read(pot_path(domain), None, domain) if pot_path(domain).exists() else template(domain)
        cat.update(tmpl, no_fuzzy_matching=True)
        if _write(path, cat):
            written.append(path)
    return written


def update(domains: "tuple[str, ...]" = DOMAINS) -> list[Path]:
    """Extract every domain's template and bring every language's catalog up to it
    (new messages untranslated, gone ones dropped, translations kept); returns the files
    that changed."""
    written = []
    for domain in domains:
        tmpl = template(domain)
        if _write(pot_path(domain), tmpl):
            written.append(pot_path(domain))
        for lang in LANGUAGES:
            if lang == DEFAULT:
                continue
            path = po_path(lang, domain)
            if path.exists():
                cat = _read(path, lang, domain)
            else:
                cat = Catalog(locale=lang, domain=domain, project=PROJECT, fuzzy=False, charset="utf-8")
            cat.update(tmpl, no_fuzzy_matching=True, update_header_comment=False)
            cat.fuzzy = False
            if _write(path, cat):
                written.append(path)
    return written


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a message (``{{`` and ``}}`` are literal braces)."""
    return set(_PLACEHOLDER.findall(text))


def printf_fields(text: str) -> list[str]:
    """The printf-style fields of a message, sorted (``%(prog)s``, and each ``%s``: their
    number matters, as they are filled in order); ``%%`` and a lone ``%`` are not fields."""
    return sorted(m.group(0) for m in _PRINTF.finditer(text) if m.group(0) != "%%")


def problems(domains: "tuple[str, ...]" = DOMAINS) -> Iterator[str]:
    """Everything wrong with the catalogs, one sentence each: a template out of date
    with the sources, a message untranslated or fuzzy, a translation whose
    placeholders differ from the English, the wrong number of plural forms."""
    for domain in domains:
        fresh = template(domain)
        fresh_ids = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in fresh if m.id}
        pot = pot_path(domain)
        if not pot.exists():
            yield f"{domain}: no template {pot.name}: run scripts/i18n.py update"
            continue
        saved_ids = {(m.id if isinstance(m.id, str) else m.id[0], m.context)
                     for m in _read(pot, None, domain) if m.id}
        for mid, ctx in sorted(fresh_ids - saved_ids, key=str):
            yield f"{domain}: {mid!r} is in the sources but not in {pot.name}: run scripts/i18n.py update"
        for mid, ctx in sorted(saved_ids - fresh_ids, key=str):
            yield f"{domain}: {mid!r} is in {pot.name} but no longer in the sources: run scripts/i18n.py update"
        for lang in LANGUAGES:
            if lang == DEFAULT:
                continue
            path = po_path(lang, domain)
            if not path.exists():
                yield f"{lang}/{domain}: no catalog {path.relative_to(LOCALE_DIR)}"
                continue
            cat = _read(path, lang, domain)
            have = {}
            for m in cat:
                if m.id:
                    have[(m.id if isinstance(m.id, str) else m.id[0], m.context)] = m
            for key in sorted(fresh_ids, key=str):
                found = have.get(key)
                where = f"{lang}/{domain}: {key[0]!r}" + (f" ({key[1]})" if key[1] else "")
                if found is None:
                    yield f"{where} is missing: run scripts/i18n.py update"
                    continue
                m = found
                if m.fuzzy:
                    yield f"{where} is fuzzy"
                if isinstance(m.id, str):
                    if not m.string:
                        yield f"{where} is not translated"
                        continue
                    said = str(m.string)
                    if placeholders(said) != placeholders(m.id):
                        yield (f"{where}: placeholders {sorted(placeholders(said))} "
                               f"differ from the English {sorted(placeholders(m.id))}")
                    if printf_fields(m.id) and printf_fields(said) != printf_fields(m.id):
                        yield (f"{where}: fields {printf_fields(said)} differ from the English "
                               f"{printf_fields(m.id)}")
                else:
                    forms = [str(f or "") for f in m.string] if isinstance(m.string, (tuple, list)) \
                        else [str(m.string or "")]
                    if len(forms) != cat.num_plurals or not all(forms):
                        yield f"{where} needs {cat.num_plurals} plural form(s), has {sum(1 for f in forms if f)}"
                        continue
                    source = placeholders(str(m.id[0])) | placeholders(str(m.id[1]))
                    fields = printf_fields(str(m.id[1]))
                    for i, form in enumerate(forms):
                        if fields and printf_fields(form) != fields:
                            yield f"{where}: plural form {i} has fields {printf_fields(form)}, the English {fields}"
                        got = placeholders(form)
                        # a form may leave out the count ("one trick"), never add or lose another field
                        if got - source or (source - got) - {"n", "count"}:
                            yield (f"{where}: plural form {i} has placeholders {sorted(got)}, "
                                   f"the English {sorted(source)}")
