"""The Rules page (``/rules``): the rules of Oh Hell in the reader's language.

The text is :func:`ohhell.i18n.rules.rules_markdown` (one Markdown file per language,
English where a language has none yet), rendered to HTML here on the server with
markdown-it (CommonMark and tables; raw HTML in the file is escaped, never passed
through, and links keep markdown-it's safe-URL check), inside ``static/rules.html``,
whose own words (title, headings) are in the ``pages`` catalog like the other pages'.
"""

from __future__ import annotations

import html
import os
import re
from functools import lru_cache

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..i18n import DEFAULT
from ..i18n import rules as _rules
from .languages import page_response, reader_language

__all__ = ["RULES_PAGE", "render_rules", "routes"]

RULES_PAGE = os.path.join(os.path.dirname(__file__), "static", "rules.html")
#: where the rendered rules go in ``rules.html`` (it holds the page's words for "no rules here")
MARK = re.compile(r'<div class="rules-text" id="rules-text">(.*?)</div>', re.DOTALL)


@lru_cache(maxsize=1)
def _markdown():
    from markdown_it import MarkdownIt
    return MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")


def render_rules(markdown: str) -> str:
    """Markdown to HTML, with any HTML in the text shown as text."""
    return _markdown().render(markdown)


@lru_cache(maxsize=32)
def _rendered(path: str, mtime: float) -> str:
    with open(path, encoding="utf-8") as f:
        return render_rules(f.read())


def _text_for(lang: str) -> tuple[str, str]:
    """(the language the rules are written in, their HTML) for a reader of ``lang``."""
    path = _rules.rules_path(lang)
    if not path.exists():
        lang, path = DEFAULT, _rules.rules_path(DEFAULT)
    if not path.exists():
        return DEFAULT, ""
    return lang, _rendered(str(path), path.stat().st_mtime)


async def rules(request: Request) -> Response:
    page = page_response(RULES_PAGE, request)
    lang, text = _text_for(reader_language(request))
    body = bytes(page.body).decode("utf-8")
    if text:
        filled = f'<div class="rules-text" id="rules-text" lang="{html.escape(lang)}">{text}</div>'
        body = MARK.sub(lambda m: filled, body, count=1)
    headers = {k: v for k, v in page.headers.items() if k.lower() not in ("content-length", "content-type")}
    return Response(body.encode("utf-8"), status_code=200, media_type="text/html; charset=utf-8", headers=headers)


def routes() -> list[Route]:
    return [Route("/rules", rules, methods=["GET"])]
