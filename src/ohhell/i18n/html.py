"""Babel extraction of the text of the static HTML pages.

A page marks text for translation with ``data-i18n`` (the element's text is the
message) and ``data-i18n-attr="attr1 attr2"`` (those attributes' values are
messages, e.g. ``aria-label``, ``title``, ``placeholder``).  ``static/js/i18n.js``
words them in the reader's language when the page loads.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import IO, Iterator

__all__ = ["extract_html", "marked_texts", "translate_html"]


class _Marked(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._stack: list[tuple[str, int, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        line = self.getpos()[0]
        for name in (a.get("data-i18n-attr") or "").split():
            if a.get(name):
                self.found.append((line, a[name]))
        if "data-i18n" in a:
            self._stack.append((tag, line, []))

    def handle_data(self, data: str) -> None:
        if self._stack:
            self._stack[-1][2].append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._stack and self._stack[-1][0] == tag:
            _tag, line, parts = self._stack.pop()
            text = " ".join("".join(parts).split())
            if text:
                self.found.append((line, text))


def marked_texts(html: str) -> list[tuple[int, str]]:
    """(line, message) of every marked text of a page."""
    p = _Marked()
    p.feed(html)
    p.close()
    return p.found


def extract_html(fileobj: IO[bytes], keywords: object, comment_tags: object,
                 options: object) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extraction interface: ``(lineno, funcname, message, comments)``."""
    for line, text in marked_texts(fileobj.read().decode("utf-8")):
        yield line, "", text, []


# --- wording a page: the server sends each page already in its reader's language -------------

import html as _html  # noqa: E402
import re as _re  # noqa: E402

_LANG_ATTR = _re.compile(r'(<html\b[^>]*?\blang=")[^"]*(")', _re.IGNORECASE)


class _Rewriter(HTMLParser):
    """Re-emits a page verbatim except the marked texts and attributes, worded by ``word``."""

    def __init__(self, word) -> None:
        super().__init__(convert_charrefs=False)
        self.word = word
        self.out: list[str] = []
        self._marked: "tuple[str, list[str]] | None" = None  # (tag, raw parts inside)

    def _emit(self, raw: str) -> None:
        if self._marked is not None:
            self._marked[1].append(raw)
        else:
            self.out.append(raw)

    def _start(self, attrs: list) -> dict:
        """Emit the start tag just read, with its marked attributes worded."""
        raw = self.get_starttag_text() or ""
        a = dict(attrs)
        for name in (a.get("data-i18n-attr") or "").split():
            value = a.get(name)
            if value:
                said = _html.escape(self.word(value), quote=True)
                raw = _re.sub(r'(\s%s\s*=\s*)(["\'])(.*?)\2' % _re.escape(name),
                              lambda m: f'{m.group(1)}"{said}"', raw, count=1, flags=_re.DOTALL)
        self._emit(raw)
        return a

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = self._start(attrs)
        if "data-i18n" in a and self._marked is None:
            self._marked = (tag, [])

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self._start(attrs)

    def handle_endtag(self, tag: str) -> None:
        if self._marked is not None and self._marked[0] == tag:
            inner = "".join(self._marked[1])
            self._marked = None
            text = " ".join(_html.unescape(inner).split())
            if text:
                lead = inner[:len(inner) - len(inner.lstrip())]
                trail = inner[len(inner.rstrip()):]
                inner = lead + _html.escape(self.word(text), quote=False) + trail
            self.out.append(inner)
        self._emit(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        self._emit(data)

    def handle_entityref(self, name: str) -> None:
        self._emit(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self._emit(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        self._emit(f"<!--{data}-->")

    def handle_decl(self, decl: str) -> None:
        self._emit(f"<!{decl}>")

    def handle_pi(self, data: str) -> None:
        self._emit(f"<?{data}>")

    def unknown_decl(self, data: str) -> None:
        self._emit(f"<![{data}]>")


def translate_html(page: str, lang: str, domain: str = "web", extra_html_attrs: str = "") -> str:
    """``page`` with its marked texts (``data-i18n``, ``data-i18n-attr``) in ``lang`` and
    ``<html lang="...">`` set; ``extra_html_attrs`` (already escaped, e.g.
    ``data-i18n-version="..."``) is added to the ``<html>`` tag.  A marked element holds
    text only (its text is the message)."""
    from . import translator
    t = translator(lang, domain)
    if lang == "en":
        out = page
    else:
        rw = _Rewriter(t.gettext)
        rw.feed(page)
        rw.close()
        out = "".join(rw.out)
    out = _LANG_ATTR.sub(lambda m: f"{m.group(1)}{lang}{m.group(2)}", out, count=1)
    if extra_html_attrs:
        out = _re.sub(r"<html\b", "<html " + extra_html_attrs, out, count=1, flags=_re.IGNORECASE)
    return out
