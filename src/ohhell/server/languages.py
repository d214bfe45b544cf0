"""Each reader's language at the web server.

A page is sent already worded in its reader's language (``ohhell.i18n.html``: the
``data-i18n`` texts and ``data-i18n-attr`` attributes of the static pages), and its
scripts word everything else from the catalog at ``/i18n/{lang}.json``, which
``static/js/i18n.js`` loads before any page script runs.  The websocket carries data and
message codes only; every client words them itself.

The reader's language: the ``ohhell_lang`` cookie, set by the language menu every page
shows (remembered for a year), else the browser's ``Accept-Language``, else English.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
from functools import lru_cache

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..i18n import DEFAULT, LANGUAGES, catalog_json, negotiate, normalize
from ..i18n.catalogs import PAGES
from ..i18n.html import translate_html

__all__ = ["LANG_COOKIE", "reader_language", "page_response", "routes", "catalog_version"]

#: the cookie the language menu sets (``static/js/i18n.js``)
LANG_COOKIE = "ohhell_lang"


def reader_language(conn: HTTPConnection) -> str:
    """The language to word a response in (see the module's docstring)."""
    chosen = normalize(conn.cookies.get(LANG_COOKIE))
    if chosen is not None:
        return chosen
    return negotiate(conn.headers.get("accept-language"), DEFAULT)


@lru_cache(maxsize=None)
def _catalog(lang: str) -> tuple[bytes, str]:
    merged = catalog_json(lang, "web")
    merged["messages"] = {**catalog_json(lang, "pages")["messages"], **merged["messages"]}
    body = json.dumps(merged, ensure_ascii=False, separators=(",", ":"),
                      sort_keys=True).encode("utf-8")
    return body, hashlib.sha256(body).hexdigest()[:12]


def catalog_version(lang: str) -> str:
    """A short hash of ``lang``'s web catalog: pages ask for ``/i18n/{lang}.json?v=...``,
    which is then cached for good."""
    return _catalog(lang)[1]


@lru_cache(maxsize=None)
def _page(path: str, lang: str, mtime: float) -> bytes:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    offered = html.escape(json.dumps(list(LANGUAGES.items()), ensure_ascii=False), quote=True)
    extra = f'data-i18n-version="{catalog_version(lang)}" data-i18n-languages="{offered}"'
    domain = "pages" if os.path.splitext(os.path.basename(path))[0] in PAGES else "web"
    return translate_html(text, lang, domain, extra_html_attrs=extra).encode("utf-8")


def page_response(path: str, request: Request) -> Response:
    """A static page, worded in the reader's language."""
    lang = reader_language(request)
    body = _page(path, lang, os.path.getmtime(path))
    return Response(body, media_type="text/html; charset=utf-8",
                    headers={"cache-control": "no-cache", "content-language": lang,
                             "vary": "accept-language, cookie"})


async def _catalog_endpoint(request: Request) -> Response:
    raw = request.path_params["lang"]
    if raw not in LANGUAGES:
        return JSONResponse({"error": "no_language", "message": f"no such language {raw[:20]!r}",
                             "languages": list(LANGUAGES)}, status_code=404)
    body, version = _catalog(raw)
    cache = ("public, max-age=31536000, immutable" if request.query_params.get("v") == version
             else "no-cache")
    return Response(body, media_type="application/json; charset=utf-8",
                    headers={"cache-control": cache, "etag": f'"{version}"'})


async def _languages_endpoint(request: Request) -> Response:
    return JSONResponse({"languages": [{"code": c, "name": n} for c, n in LANGUAGES.items()],
                         "current": reader_language(request), "cookie": LANG_COOKIE})


def routes() -> list[Route]:
    return [Route("/i18n/{lang}.json", _catalog_endpoint, methods=["GET"]),
            Route("/api/languages", _languages_endpoint, methods=["GET"])]
