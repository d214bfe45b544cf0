"""The reader's language at the web server: pages worded on the server, the catalog the
page scripts load, the language menu (cookie) over the browser's Accept-Language."""

from __future__ import annotations

import re

import httpx
import pytest

from serverkit import ThreadServer


@pytest.fixture(scope="module")
def server():
    with ThreadServer() as s:
        yield s


def test_a_page_takes_the_browsers_language(server):
    r = httpx.get(server.base + "/", headers={"accept-language": "de, eu;q=0.8, en;q=0.5"})
    assert r.status_code == 200
    assert r.headers["content-language"] == "eu"
    assert "accept-language" in r.headers["vary"]
    assert re.search(r'<html[^>]*\blang="eu"', r.text)
    version = re.search(r'data-i18n-version="([0-9a-f]+)"', r.text).group(1)
    cat = httpx.get(f"{server.base}/i18n/eu.json?v={version}")
    assert cat.status_code == 200
    assert "immutable" in cat.headers["cache-control"]
    assert cat.json()["messages"]["Language"] == "Hizkuntza"
    # an old version is not cached for good
    assert httpx.get(f"{server.base}/i18n/eu.json?v=stale").headers["cache-control"] == "no-cache"


def test_the_chosen_language_beats_the_browsers(server):
    r = httpx.get(server.base + "/", headers={"accept-language": "eu", "cookie": "ohhell_lang=mr"})
    assert r.headers["content-language"] == "mr"
    # a cookie naming no offered language is ignored
    r = httpx.get(server.base + "/", headers={"accept-language": "sq", "cookie": "ohhell_lang=<x>"})
    assert r.headers["content-language"] == "sq"
    r = httpx.get(server.base + "/")
    assert r.headers["content-language"] == "en"


def test_unknown_catalog_is_a_clear_404(server):
    r = httpx.get(server.base + "/i18n/xx.json")
    assert r.status_code == 404
    assert r.json()["error"] == "no_language"
    assert "ceb" in r.json()["languages"]
    langs = httpx.get(server.base + "/api/languages").json()
    assert [x["code"] for x in langs["languages"]] == ["en", "ceb", "ms", "sq", "eu", "mr"]


def test_the_language_menu_switches_and_is_remembered(server, browser):
    context = browser.new_context(locale="sq-AL")
    page = context.new_page()
    try:
        page.goto(server.base + "/")
        assert page.evaluate("document.documentElement.lang") == "sq"
        menu = page.locator(".topbar select.lang-menu")
        assert menu.get_attribute("aria-label") == "Gjuha"
        with page.expect_navigation():
            menu.select_option("mr")
        assert page.evaluate("document.documentElement.lang") == "mr"
        assert page.locator(".topbar select.lang-menu").get_attribute("aria-label") == "भाषा"
        page.goto(server.base + "/leaderboard")
        assert page.evaluate("document.documentElement.lang") == "mr"
    finally:
        context.close()


def test_plural_expressions_are_evaluated_without_eval(server, browser):
    """i18n.js parses gettext plural expressions (the CSP forbids eval); check it against
    Python's gettext for every language's rule."""
    import gettext as g
    from babel.messages.plurals import get_plural
    page = browser.new_page()
    try:
        page.goto(server.base + "/")
        for lang in ["ceb", "ms", "sq", "eu", "mr", "en"]:
            expr = get_plural(lang).plural_expr
            want = [g.c2py(expr)(n) for n in range(0, 130)]
            got = page.evaluate("""async (expr) => {
                const m = await import('/static/js/i18n.js');
                const f = m.__compilePlural(expr);
                return Array.from({length: 130}, (_, n) => f(n));
            }""", expr)
            assert got == want, lang
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["en", "ceb", "ms", "sq", "eu", "mr"])
def test_the_page_writes_numbers_as_the_terminal_does(server, browser, lang):
    """number() of i18n.js writes each number as ohhell.i18n.format_number does (the
    catalog's CLDR symbols): Basque and Albanian decimal commas although Chromium has no data
    for them, Marathi with the digits 0-9 as the glossary asks; and dateTime() gives a date a
    reader of the language can read (numeric where the browser knows no such language)."""
    from ohhell.i18n import format_number
    values = [(0, 0), (7, 0), (-3, 0), (1234, 0), (12345.678, 1), (-1234567.25, 2), (0.04, 1), (-0.04, 1),
              (99.95, 0), (1000, 1), (-0.5, 1)]
    context = browser.new_context()
    context.add_cookies([{"name": "ohhell_lang", "value": lang, "url": server.base}])
    page = context.new_page()
    try:
        page.goto(server.base + "/leaderboard")
        assert page.evaluate("document.documentElement.lang") == lang
        got = page.evaluate("""async (values) => {
            const m = await import('/static/js/i18n.js');
            return values.map(([v, d]) => m.number(v, d));
        }""", values)
        assert got == [format_number(v, d, lang=lang) for v, d in values]
        when = page.evaluate("async () => (await import('/static/js/i18n.js')).dateTime(1764612300)")
        assert re.search(r"\d", when) and not re.search(r"[०-९]", when), when
        if lang in ("eu", "sq", "ceb"):     # no Intl data in Chromium: the numeric form
            assert re.fullmatch(r"2025-12-0[12] \d\d:\d\d", when), when
    finally:
        context.close()


def test_the_menu_offers_the_servers_languages(server, browser):
    """The language menu lists ohhell.i18n.LANGUAGES as the server names them on the page
    (data-i18n-languages), so a language added there needs nothing more in the scripts."""
    from ohhell.i18n import LANGUAGES
    page = browser.new_page()
    try:
        for path in ("/", "/events", "/rules", "/leaderboard"):
            page.goto(server.base + path)
            options = page.eval_on_selector_all(".topbar select.lang-menu option", "os => os.map(o => [o.value, o.textContent])")
            assert options == [list(x) for x in LANGUAGES.items()], path
    finally:
        page.close()
