"""Babel extraction of the text of the static HTML pages.

A page marks text for translation with ``data-i18n`` (the element's text is the
message) and ``data-i18n-attr="attr1 attr2"`` (those attributes' values are
messages, e.g. ``aria-label``, ``title``, ``placeholder``).  ``static/js/i18n.js``
words them in the reader's language when the page loads.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import IO, Iterator

__all__ = ["extract_html", "marked_texts"]


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
