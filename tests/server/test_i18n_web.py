"""The play path in every language, in a real browser: the lobby and a short game at the
table show none of the English UI strings (the list comes from the ``web`` catalog), a
refused bid or card says why in the reader's language (from the core's code and facts,
never the English ``message``), Marathi is drawn in Devanagari, and a screenshot of the
table per language (``OHHELL_I18N_SHOTS=docs/screenshots`` writes them there), and two
players at one table, one in Basque and one in Marathi, each reading only their own.

One server, one browser, one short game (3 players, hands of 2 and 1 cards) per language.
"""

from __future__ import annotations

import os
import re
import time
from functools import lru_cache
from pathlib import Path

import httpx
import pytest

from serverkit import ThreadServer

from ohhell.i18n import DEFAULT, LANGUAGES, po_path

#: every language but the source texts' (a language added by the recipe is played here at once)
LANGS = tuple(code for code in LANGUAGES if code != DEFAULT)
ROOT = Path(__file__).resolve().parents[2]
SHOTS = os.environ.get("OHHELL_I18N_SHOTS")   # e.g. docs/screenshots
MAX_SHOT_BYTES = 150_000


@pytest.fixture(scope="module")
def server():
    with ThreadServer() as s:
        yield s


@lru_cache(maxsize=None)
def catalog(lang: str):
    from babel.messages.pofile import read_po
    with open(po_path(lang, "web"), "rb") as f:
        return read_po(f, locale=lang, domain="web")


def said(lang: str, msgid: str, context: "str | None" = None) -> str:
    """The catalog's translation of one (singular) message."""
    m = catalog(lang).get(msgid, context=context)
    assert m is not None and m.string, (lang, msgid)
    return m.string


@lru_cache(maxsize=None)
def english_strings(lang: str) -> tuple[str, ...]:
    """The English texts that must not show on a page in ``lang``: every literal part of
    each message whose translation differs from the English (placeholders cut out), less
    the short ones, numbers and symbols, and the words and names the language's own
    translations use too (loanwords such as "bot", names such as "La Podrida")."""
    cat = catalog(lang)
    own: list[str] = []
    for m in cat:
        if m.id:
            own.extend(m.string if isinstance(m.string, (tuple, list)) else [m.string])
    own_text = "\n".join(own).lower()
    found: set[str] = set()
    for m in cat:
        if not m.id:
            continue
        ids = list(m.id) if isinstance(m.id, (tuple, list)) else [m.id]
        strings = list(m.string) if isinstance(m.string, (tuple, list)) else [m.string]
        if set(strings) <= set(ids):
            continue   # the same in both languages
        for text in ids:
            for part in re.split(r"\{[^{}]*\}|#|·|[()“”—;:]", text):
                part = part.strip(" .,!?…–-+%✓✗★←/")
                if len(re.sub(r"[^A-Za-z]", "", part)) < 4 or part == "Oh Hell":
                    continue
                if re.search(r"(?<![a-z])" + re.escape(part.lower()) + r"(?![a-z])", own_text):
                    continue
                found.add(part)
    return tuple(sorted(found, key=lambda s: (-len(s), s)))


PAGE_TEXT = """() => {
  const parts = [document.title, document.body.innerText];
  for (const node of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    for (const a of ['aria-label', 'title', 'placeholder']) if (node.hasAttribute(a)) parts.push(node.getAttribute(a));
  }
  return parts.join('\\n');
}"""


def english_on_page(page, lang: str, names=()) -> list[str]:
    """The English strings of :func:`english_strings` the page shows (text or labels),
    the players' names and the table's title left out."""
    text = page.evaluate(PAGE_TEXT)
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        text = text.replace(name, " ")
    text = text.replace("Oh Hell", " ")
    return [s for s in english_strings(lang)
            if re.search(r"(?<![A-Za-z])" + re.escape(s) + r"(?![A-Za-z])", text, re.IGNORECASE)]


def open_context(browser, lang: str, server):
    ctx = browser.new_context(viewport={"width": 1100, "height": 760}, locale="en-GB")
    ctx.add_cookies([{"name": "ohhell_lang", "value": lang, "url": server.base}])
    return ctx


def new_table(server, hand_sizes=(2, 1), title="T", **rules) -> str:
    seats = [{"kind": "open"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]
    r = httpx.post(server.base + "/api/tables", json={
        "rules": {"players": 3, "hand_sizes": list(hand_sizes), **rules}, "seats": seats, "title": title})
    assert r.status_code == 201, r.text
    return server.base + r.json()["url"]


def sit(ctx, url: str):
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.fill("#name", "Ann")
    page.click("button.join[data-seat='0']")
    page.wait_for_function("() => window.ohhell.state && window.ohhell.state.game")
    return page, errors


def state(page) -> dict:
    return page.evaluate("() => window.ohhell.state")


def act(page, choice) -> None:
    n = state(page)["game"]["n"]
    sel = f"#bids button[data-bid='{choice}']" if isinstance(choice, int) else f"#hand .card[data-card='{choice}']"
    page.click(sel)
    page.wait_for_function(f"() => window.ohhell.state.game.n > {n}", timeout=15000)


def shrink(path: Path) -> None:
    from PIL import Image
    with Image.open(path) as im:
        small = im.convert("RGB").quantize(colors=96, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def screenshot(page, lang: str, tmp_path: Path) -> Path:
    page.evaluate("() => document.querySelectorAll('.toast').forEach((t) => t.remove())")
    out = (ROOT / SHOTS if SHOTS else tmp_path) / f"table-{lang}.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    page.locator(".play-area").screenshot(path=str(out))
    shrink(out)
    assert out.stat().st_size < MAX_SHOT_BYTES, (out, out.stat().st_size)
    return out


def play_game(page, lang: str, tmp_path: Path, blocked: list) -> None:
    """Play the game to its end by clicks, checking the page for English at each turn of
    ours, a refused choice's words when one is offered, and a screenshot once a card lies
    in the trick."""
    deadline = time.monotonic() + 90
    shot = False
    while True:
        assert time.monotonic() < deadline, "the game did not finish"
        st = state(page)
        v = st["game"]["view"]
        if v["phase"] == "over":
            break
        if not v["legal"] or st["you"]["seat"] is None:
            time.sleep(0.05)
            continue
        page.wait_for_timeout(150)   # the frame drawn (and its motion under way)
        if lang != "en":
            assert not english_on_page(page, lang, v["names"] + [st["table"]["title"]]), \
                (lang, v["phase"], english_on_page(page, lang, v["names"]))
        codes = st["game"]["explain"].get("why_code") or {}
        if codes and lang != "en":
            choice, reason = sorted(codes.items())[0]
            check_refusal(page, lang, v, choice, reason, st["game"]["explain"]["why_not"][choice])
            blocked.append(reason["code"])
        if not shot and (v["phase"] == "play" and v["trick"]["cards"]):
            screenshot(page, lang, tmp_path)
            shot = True
        act(page, v["legal"][0])
    if not shot:
        screenshot(page, lang, tmp_path)


def check_refusal(page, lang: str, v: dict, choice: str, reason: dict, english: str) -> None:
    """A choice the core refuses says why in ``lang`` on the button and, when chosen, in
    the toast; nothing is sent and the English sentence shows nowhere."""
    if v["phase"] == "bid":
        node = page.locator(f"#bids button[data-bid='{choice}']")
    else:
        node = page.locator(f"#hand .card[data-card='{choice}']")
    n = state(page)["game"]["n"]
    node.click(force=True)
    toast = page.locator(".toast.error").last
    toast.wait_for()
    words = toast.inner_text()
    assert words and english not in page.evaluate(PAGE_TEXT)
    assert words in (node.get_attribute("aria-label") or "")
    fixed = {"hook": "You deal and, with the hook, may not bid {bid}: the bids would total {total}, the number of tricks.",
             "must_follow": "You must follow suit: you hold {suit} {symbol}.",
             "must_trump": "You cannot follow {led}, so under must trump you must play a trump ({trump} {symbol})."}
    if reason["code"] in fixed:
        first = re.split(r"\{", said(lang, fixed[reason["code"]]))[0].strip()
        assert not first or first in words, (lang, words, first)
    assert state(page)["game"]["n"] == n
    page.evaluate("() => document.querySelectorAll('.toast').forEach((t) => t.remove())")


@pytest.mark.parametrize("lang", LANGS + (DEFAULT,))
def test_a_game_in_each_language_shows_no_english(browser, server, lang, tmp_path):
    ctx = open_context(browser, lang, server)
    try:
        lobby = ctx.new_page()
        errors: list[str] = []
        lobby.on("pageerror", lambda e: errors.append(str(e)))
        lobby.goto(server.base + "/")
        assert lobby.evaluate("document.documentElement.lang") == lang
        lobby.wait_for_selector("#seats .row")
        lobby.wait_for_function("() => !document.querySelector('#tables li.muted') || "
                                "document.querySelector('#tables li.muted').textContent !== 'Loading…'")
        if lang != "en":   # the tables listed show their seats' names (bots' names are English data)
            listed = httpx.get(server.base + "/api/tables?limit=500").json()["tables"]
            names = [n for t in listed for n in t["names"] if n] + [t["title"] for t in listed]
            assert not english_on_page(lobby, lang, names), (lang, english_on_page(lobby, lang, names))
        lobby.close()
        page, errors2 = sit(ctx, new_table(server, hook=True))
        blocked: list[str] = []
        play_game(page, lang, tmp_path, blocked)
        page.wait_for_selector("#end:not([hidden])")
        page.wait_for_selector("#fair-result.ok", timeout=20000)
        st = state(page)
        if lang != "en":
            bad = english_on_page(page, lang, st["game"]["view"]["names"] + [st["table"]["title"]])
            assert not bad, (lang, "game over", bad)
        assert not errors and not errors2, errors + errors2
    finally:
        ctx.close()


def test_a_refused_bid_and_card_are_worded_in_basque(browser, server):
    """The server's refusal of an illegal bid carries the core's code and facts, and the
    page words it in Basque; "you must follow hearts" is the catalog's Basque sentence."""
    ctx = open_context(browser, "eu", server)
    try:
        page, errors = sit(ctx, new_table(server, hand_sizes=(2,)))
        page.wait_for_function("() => window.ohhell.state.game.view.legal.length > 0", timeout=20000)
        v = state(page)["game"]["view"]
        assert v["phase"] == "bid"
        # an illegal bid sent past the page's buttons: the server refuses it with the reason
        page.evaluate("() => window.ohhell.socket.send({type: 'act', action: 9})")
        toast = page.locator(".toast.error").last
        toast.wait_for()
        m = catalog("eu").get("Bids are 0 to {max}: this hand has {n} trick.")
        want = m.string[1].replace("{max}", "2").replace("{n}", "2")
        assert toast.inner_text() == want
        assert "Bids are" not in page.evaluate(PAGE_TEXT)
        # the must-follow sentence, from the core's facts, in the page's own wording function
        got = page.evaluate("""async () => (await import('/static/js/common.js'))
            .reasonWords({code: 'must_follow', led: 'H', hand_size: 2}, [])""")
        assert got == said("eu", "You must follow suit: you hold {suit} {symbol}.").replace(
            "{suit}", said("eu", "hearts")).replace("{symbol}", "♥")
        assert "bihotzak" in got and "follow" not in got
        assert not errors, errors
    finally:
        ctx.close()


def test_the_error_frame_keeps_the_english_message_and_adds_the_reason(server):
    """Programs keep the English ``message``; the page words ``reason`` (tables.reason_facts)."""
    import json

    from websockets.sync.client import connect
    url = new_table(server, hand_sizes=(1,))
    table = url.rsplit("/", 1)[1]
    with connect(server.ws_url) as ws:
        ws.send(json.dumps({"v": 1, "type": "hello", "table": table}))
        ws.send(json.dumps({"v": 1, "type": "join", "seat": 0, "name": "Ann"}))
        deadline = time.monotonic() + 20
        while True:
            assert time.monotonic() < deadline
            msg = json.loads(ws.recv(timeout=20))
            if msg["type"] == "state" and msg["game"] and msg["game"]["view"]["legal"]:
                break
        why_code = msg["game"]["explain"]["why_code"]
        assert set(why_code) == set(msg["game"]["explain"]["why_not"])
        ws.send(json.dumps({"v": 1, "type": "act", "action": 5, "ref": 7}))
        while True:
            msg = json.loads(ws.recv(timeout=20))
            if msg["type"] == "error":
                break
    assert msg["code"] == "illegal" and msg["message"].startswith("illegal bid 5")
    assert msg["reason"] == {"code": "bid_too_high", "to_act": 0, "hand_size": 1, "bid": 5}


def test_marathi_is_drawn_in_devanagari(browser, server):
    """A Marathi label's font has Devanagari glyphs: the text is not as wide as the same
    number of missing-glyph boxes (tofu), and the named Noto font is installed."""
    ctx = open_context(browser, "mr", server)
    try:
        page = ctx.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("#seats .row")
        label = page.locator("label[for='yourname']")
        assert label.inner_text() == said("mr", "Your name")
        widths = page.evaluate("""() => {
            const label = document.querySelector("label[for='yourname']");
            const probe = (text) => { const s = document.createElement('span'); s.textContent = text;
              s.style.font = getComputedStyle(label).font; s.style.whiteSpace = 'pre';
              document.body.append(s); const w = s.getBoundingClientRect().width; s.remove(); return w; };
            const text = label.textContent;
            return {text: probe(text), tofu: probe('\\u{10FFFD}'.repeat([...text].length)),
                    deva: probe('कखगघङ'), tofu5: probe('\\u{10FFFD}'.repeat(5)),
                    font: getComputedStyle(label).fontFamily,
                    noto: document.fonts.check("16px 'Noto Sans Devanagari'", 'भाषा')};
        }""")
        assert "Noto Sans Devanagari" in widths["font"]
        assert abs(widths["deva"] - widths["tofu5"]) > 1 and abs(widths["text"] - widths["tofu"]) > 1, widths
        assert widths["noto"]
    finally:
        ctx.close()


DEVANAGARI = re.compile(r"[\u0900-\u097F]")
#: the page's text less the language menu's options (each language's own name, on purpose)
PAGE_TEXT_NO_MENU = PAGE_TEXT.replace(
    "const parts = [document.title, document.body.innerText];",
    "const menu = new Set([...document.querySelectorAll('select.lang-menu option')].map((o) => o.textContent));\n"
    "  const parts = [document.title, ...document.body.innerText.split('\\n').filter((l) => !menu.has(l.trim()))];")


@lru_cache(maxsize=None)
def basque_strings_for(lang: str) -> tuple[str, ...]:
    """The Basque texts a page in ``lang`` must not show: the literal parts of each Basque
    translation that differs from ``lang``'s, less the short ones and the words ``lang``'s
    own translations use too (as :func:`english_strings`)."""
    own = []
    for m in catalog(lang):
        if m.id:
            own.extend(m.string if isinstance(m.string, (tuple, list)) else [m.string])
    own_text = "\n".join(own).lower()
    found: set[str] = set()
    for m in catalog("eu"):
        if not m.id:
            continue
        mine = catalog(lang).get(m.id, context=m.context)
        strings = list(m.string) if isinstance(m.string, (tuple, list)) else [m.string]
        theirs = (list(mine.string) if isinstance(mine.string, (tuple, list)) else [mine.string]) if mine else []
        if set(strings) <= set(theirs):
            continue
        for text in strings:
            for part in re.split(r"\{[^{}]*\}|#|·|[()“”—;:«»]", text):
                part = part.strip(" .,!?…–-+%✓✗★←/")
                if len(re.sub(r"[^A-Za-zñÑ]", "", part)) < 4 or part == "Oh Hell":
                    continue
                if re.search(r"(?<![a-zñ])" + re.escape(part.lower()) + r"(?![a-zñ])", own_text):
                    continue
                found.add(part)
    return tuple(sorted(found, key=lambda s: (-len(s), s)))


def other_language_on_page(page, lang: str, names) -> list[str]:
    """What the page in ``lang`` (eu or mr) shows of the other's words: Devanagari on the
    Basque page, Basque strings on the Marathi one (names left out)."""
    text = page.evaluate(PAGE_TEXT_NO_MENU)
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        text = text.replace(name, " ")
    if lang == "eu":
        return sorted({line.strip() for line in text.splitlines() if DEVANAGARI.search(line)})
    return [s for s in basque_strings_for(lang)
            if re.search(r"(?<![A-Za-zñ])" + re.escape(s) + r"(?![A-Za-zñ])", text, re.IGNORECASE)]


def test_two_players_at_one_table_each_read_their_own_language(browser, server):
    """A table shows each player the game in their own language. Ann's browser
    chose Basque in the language menu (the cookie), Bea's asks for Marathi (Accept-Language
    only); they sit at one table and play it out. At every turn of either, each page shows
    none of the English UI strings and none of the other's language, and what one does is
    worded on the other's page in the other's words (the server sends data, not text)."""
    url = server.base + httpx.post(server.base + "/api/tables", json={
        "rules": {"players": 3, "hand_sizes": [2, 1]}, "title": "T",
        "seats": [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "heuristic"}]}).json()["url"]
    eu_ctx = open_context(browser, "eu", server)
    mr_ctx = browser.new_context(viewport={"width": 1100, "height": 760}, locale="mr-IN",
                                 extra_http_headers={"Accept-Language": "mr-IN,mr;q=0.9"})
    try:
        pages, errors = {}, []
        for lang, ctx, name, seat in (("eu", eu_ctx, "Ann", 0), ("mr", mr_ctx, "Bea", 1)):
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url)
            assert page.evaluate("document.documentElement.lang") == lang
            page.fill("#name", name)
            page.click(f"button.join[data-seat='{seat}']")
            pages[lang] = page
        for page in pages.values():
            page.wait_for_function("() => window.ohhell.state && window.ohhell.state.game"
                                   " && window.ohhell.state.game.view.names.filter(Boolean).length === 3")

        def check_both(when: str) -> None:
            for lang, page in pages.items():
                st = state(page)
                names = st["game"]["view"]["names"] + [st["table"]["title"]]
                assert not english_on_page(page, lang, names), (lang, when, english_on_page(page, lang, names))
                assert not other_language_on_page(page, lang, names), \
                    (lang, when, other_language_on_page(page, lang, names))

        deadline = time.monotonic() + 90
        worded = set()
        while True:
            assert time.monotonic() < deadline, "the game did not finish"
            views = {lang: state(page)["game"]["view"] for lang, page in pages.items()}
            if all(v["phase"] == "over" for v in views.values()):
                break
            turn = [lang for lang, v in views.items() if v["legal"]]
            if not turn:
                time.sleep(0.05)
                continue
            lang = turn[0]
            page = pages[lang]
            page.wait_for_timeout(150)   # the frame drawn
            check_both(f"{lang} to {views[lang]['phase']}")
            v = views[lang]
            if v["phase"] == "bid":
                # the bid, announced on the other player's page in the other's words
                bid = v["legal"][0]
                act(page, bid)
                other, me = ("mr", "Ann") if lang == "eu" else ("eu", "Bea")
                want = said(other, "{name} bids {bid}.").replace("{name}", me).replace("{bid}", str(bid))
                pages[other].wait_for_function("(want) => document.getElementById('announcer').textContent.includes(want)",
                                               arg=want, timeout=15000)
                worded.add(other)
            else:
                act(page, v["legal"][0])
        assert worded == {"eu", "mr"}
        for page in pages.values():
            page.wait_for_selector("#end:not([hidden])")
        check_both("game over")
        assert not errors, errors
    finally:
        eu_ctx.close()
        mr_ctx.close()
