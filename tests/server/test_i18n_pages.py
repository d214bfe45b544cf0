"""The replay (and its analysis), account, player, leaderboard and Rules pages in each
language, in a real browser (Debian's chromium under Playwright).

The main check is generated from the ``pages`` catalog: on each page, in each language,
no text node and no title/aria-label/placeholder still reads as one of the catalog's
English messages whose translation differs (messages that are only names, numbers or
a word or two around placeholders are left out: they cannot be told from data).
Then: a finished game's replay with its analysis in Basque and Marathi (words, and
Marathi's digits), an account error (a wrong password) worded in the language, and the
Rules page showing each language's own text (escaped: the file's HTML stays text),
linked from the lobby and the table page.
"""

from __future__ import annotations

import re
import time

import httpx
import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import expect

from ohhell.i18n import LANGUAGES, po_path
from ohhell.i18n import rules as rules_module
from serverkit import ThreadServer, axe_problems, sideways_overflow

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
PASSWORD = "a long enough passphrase"

#: a heading per language for the Rules page's test files (the real texts are checked too, when present)
HEADINGS = {"en": "Oh Hell: the rules (test)", "ceb": "Mga lagda sa Oh Hell (test)", "ms": "Peraturan Oh Hell (ujian)",
            "sq": "Rregullat e Oh Hell (provë)", "eu": "Oh Hell jokoaren arauak (proba)", "mr": "Oh Hell चे नियम (चाचणी)"}


@pytest.fixture(scope="module")
def rules_dir(tmp_path_factory):
    """The Rules page reads its texts from a folder of test files (one per language but Malay,
    which falls back to English); each carries raw HTML that must come out as text."""
    folder = tmp_path_factory.mktemp("rules")
    for lang, heading in HEADINGS.items():
        if lang == "ms":
            continue
        (folder / f"{lang}.md").write_text(
            f"# {heading}\n\nThe dealer deals. <script>alert('x')</script> <b>bold?</b>\n\n"
            "| players | hands |\n|---|---|\n| 3 | 15 |\n\n[a link](javascript:alert(1))\n", encoding="utf-8")
    patch = pytest.MonkeyPatch()
    real = rules_module.RULES_DIR
    patch.setattr(rules_module, "RULES_DIR", folder)
    yield folder, real
    patch.undo()


@pytest.fixture(scope="module")
def server(rules_dir):
    with ThreadServer(analysis_samples=6) as srv:
        yield srv


@pytest.fixture(scope="module")
def game(server):
    """A finished 3-bot game whose analysis is ready: (table id, record)."""
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}]
    t = server.create({"players": 3, "hand_sizes": [2, 3, 2]}, seats, title="Languages")
    url = f"{server.base}/api/tables/{t['id']}/games/1"
    deadline = time.monotonic() + 90
    while httpx.get(url + "/record").status_code != 200:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    while httpx.get(url + "/analysis").json().get("status") != "ready":
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.3)
    return t["id"], server.record(t["id"])


@pytest.fixture(scope="module")
def player(server):
    """A signed-up player (made through the account API), for the player page."""
    with httpx.Client(base_url=server.base) as c:
        csrf = c.get("/api/account").json()["csrf"]
        r = c.post("/api/account/signup", json={"username": "Zora", "password": PASSWORD},
                   headers={"x-csrf-token": csrf})
        assert r.status_code in (200, 201), r.text
    return "Zora"


@pytest.fixture(scope="module")
def events(server):
    """Two duplicate events of an organiser (made through the API): one open for entries with
    a guest in a seat, one played to the end by bots (results, hands and deals revealed)."""
    with httpx.Client(base_url=server.base, timeout=30) as c:
        csrf = c.get("/api/account").json()["csrf"]
        r = c.post("/api/account/signup", json={"username": "Oda", "password": PASSWORD}, headers={"x-csrf-token": csrf})
        assert r.status_code in (200, 201), r.text
        csrf = c.get("/api/account").json()["csrf"]
        made = []
        for title in ("Open night", "Played night"):
            r = c.post("/api/events", json={"title": title, "tables": 2, "players": 3, "hand_sizes": [1, 2],
                                            "bot": "random"}, headers={"x-csrf-token": csrf})
            assert r.status_code == 201, r.text
            made.append(r.json()["id"])
        with httpx.Client(base_url=server.base, timeout=30) as guest:
            gcsrf = guest.get("/api/account").json()["csrf"]
            r = guest.post(f"/api/events/{made[0]}/join", json={"table": 1, "seat": 2, "name": "Gus"},
                           headers={"x-csrf-token": gcsrf})
            assert r.status_code == 201, r.text
        assert c.post(f"/api/events/{made[1]}/start", json={}, headers={"x-csrf-token": csrf}).status_code == 200
        deadline = time.monotonic() + 90
        while not c.get(f"/api/events/{made[1]}").json()["revealed"]:
            assert time.monotonic() < deadline, "the event's bots did not finish"
            time.sleep(0.3)
    return made


def context_in(browser, server, lang: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "ohhell_lang", "value": lang, "url": server.base}])
    return context


def _catalog(lang: str):
    with open(po_path(lang, "pages"), "rb") as f:
        return read_po(f, locale=lang, domain="pages")


_FIELD = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


def english_patterns(lang: str) -> list[tuple[str, re.Pattern]]:
    """(message, pattern) for each English message of the pages catalog whose ``lang``
    translation differs, unless it is (nearly) only names and numbers."""
    out = []
    for m in _catalog(lang):
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        said = [m.string] if isinstance(m.string, str) else list(m.string)
        for english in ids:
            if english in said:
                continue                      # the same in this language ("Token", "bot")
            literal = _FIELD.sub("", english)
            if len(re.findall(r"[A-Za-z]", literal)) < 6:
                continue                      # "bid {bid}", "{seat} of {players}": data, not words
            parts = _FIELD.split(english)
            body = r"\S+".join(re.escape(p) for p in parts)
            if len(english.split()) < 2:
                out.append((english, re.compile(rf"^{body}$")))      # a single word: the whole text
            else:
                out.append((english, re.compile(rf"(?<![A-Za-z]){body}(?![A-Za-z])")))
    return out


_TEXTS = """() => {
  const out = [document.title];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (n.parentElement && ["SCRIPT", "STYLE"].includes(n.parentElement.tagName)) continue;
    const s = n.textContent.replace(/\\s+/g, " ").trim();
    if (s) out.push(s);
  }
  for (const e of document.querySelectorAll("[title], [aria-label], [placeholder], [aria-valuetext], [alt]")) {
    for (const a of ["title", "aria-label", "placeholder", "aria-valuetext", "alt"]) {
      const v = e.getAttribute(a);
      if (v) out.push(v.replace(/\\s+/g, " ").trim());
    }
  }
  return out;
}"""


def leftovers(page, lang: str, skip: "set[str] | None" = None) -> list[str]:
    texts = page.evaluate(_TEXTS)
    if skip:
        texts = [s for s in texts if s not in skip]
    found = []
    for english, pattern in english_patterns(lang):
        for s in texts:
            if pattern.search(s):
                found.append(f"{english!r} in {s[:120]!r}")
                break
    return found


def test_the_patterns_catch_english(server):
    """The check itself: an English message is found, its translation is not."""
    pats = english_patterns("eu")
    hit = lambda s: [e for e, p in pats if p.search(s)]   # noqa: E731
    assert hit("The whole game.") == ["The whole game."]
    assert hit("Hand 3 of 7") == ["Hand {hand} of {hands}"]
    assert hit("Partida osoa.") == [] and hit("3/7 eskua") == []


@pytest.mark.parametrize("lang", OTHERS)
def test_every_page_speaks_the_language(browser, server, game, player, lang):
    table_id, record = game
    context = context_in(browser, server, lang)
    errors: list = []
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    problems = {}
    try:
        # the replay, at its last step (every hand scored, the analysis shown in full)
        page.goto(f"{server.base}/t/{table_id}/replay/1")
        page.wait_for_selector("#analysis-ready:visible", timeout=60000)
        page.evaluate("window.ohhellReplay.show(window.ohhellReplay.steps - 1)")
        fair = page.locator("#fair-result")
        expect(fair).to_have_class(re.compile(r"\bok\b"), timeout=30000)
        assert fair.inner_text().startswith("✔")
        problems["replay"] = leftovers(page, lang, skip=set(record["players"]))
        page.evaluate("window.ohhellReplay.show(0)")
        problems["replay, step 1"] = leftovers(page, lang)

        page.goto(f"{server.base}/account")
        page.wait_for_selector("#signed-out:not(.hidden)")
        problems["account"] = leftovers(page, lang)

        page.goto(f"{server.base}/players/{player}")
        page.wait_for_selector("#player:not(.hidden)")
        problems["player"] = leftovers(page, lang, skip={player})

        page.goto(f"{server.base}/leaderboard")
        expect(page.locator("#board-status")).not_to_be_empty()
        problems["leaderboard"] = leftovers(page, lang)

        page.goto(f"{server.base}/rules")
        problems["rules"] = leftovers(page, lang)
    finally:
        context.close()
    assert {k: v for k, v in problems.items() if v} == {}
    assert errors == []


@pytest.mark.parametrize("lang", OTHERS)
def test_the_events_pages_speak_the_language(browser, server, events, lang):
    """The list of events with its form, an event open for entries (a guest's seat, seats to
    take), an event played to the end (ranking, hands, deals, the seed), and a refusal (no
    such event): none of the pages catalog's English shows, cards are written Q♠, the bots'
    seats are worded in the language."""
    open_id, played_id = events
    said = {m.id: m.string for m in _catalog(lang) if m.id}
    context = context_in(browser, server, lang)
    errors: list = []
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    names = {"Oda", "Gus", "Open night", "Played night"}
    problems = {}
    try:
        page.goto(f"{server.base}/events")
        expect(page.locator("#event-list tbody tr")).to_have_count(2)
        assert page.title() == said["Duplicate events · Oh Hell"]
        expect(page.locator(".topbar select.lang-menu")).to_have_count(1)
        problems["list"] = leftovers(page, lang, skip=names)

        page.goto(f"{server.base}/events/{open_id}")
        expect(page.locator("button.take")).to_have_count(5)
        problems["open"] = leftovers(page, lang, skip=names)
        assert page.inner_text("#ev-summary").startswith(said["Open for entries"])

        page.goto(f"{server.base}/events/{played_id}")
        expect(page.locator("#hands table")).to_have_count(2)
        expect(page.locator("#seed")).to_have_text(re.compile(r"^[0-9a-f]{32}$"))
        problems["played"] = leftovers(page, lang, skip=names)
        body = page.inner_text("main")
        assert not re.search(r"\b[2-9TJQKA][CDHS]\b", body), "a card written as a code"
        assert re.search(r"(?:10|[2-9JQKA])[♣♦♥♠]", body)
        assert "Random bot" not in body
        assert said["(the same at every table)"] in body

        page.goto(f"{server.base}/events/nosuchevent1")
        expect(page.locator("#ev-error")).to_contain_text(said["There is no such event."])
        assert "there is no such event" not in page.inner_text("body")
    finally:
        context.close()
    assert {k: v for k, v in problems.items() if v} == {}
    assert errors == []


def test_the_replay_and_its_analysis_in_basque_and_marathi(browser, server, game):
    table_id, record = game
    analysis = httpx.get(f"{server.base}/api/tables/{table_id}/games/1/analysis").json()["analysis"]
    mistakes = [d for h in analysis["hands"] for d in h["decisions"] if d["mistake"]]
    for lang, hands_word, mistake_word in (("eu", "eskuren ondoren", "Akatsa: "), ("mr", "फेऱ्यांनंतर", "चूक: ")):
        context = context_in(browser, server, lang)
        page = context.new_page()
        try:
            page.goto(f"{server.base}/t/{table_id}/replay/1")
            assert page.evaluate("document.documentElement.lang") == lang
            page.wait_for_selector("#analysis-ready:visible", timeout=60000)
            steps = page.evaluate("window.ohhellReplay.steps")
            page.evaluate(f"window.ohhellReplay.show({steps - 1})")
            label = page.get_attribute("#analysis-chart svg", "aria-label")
            assert hands_word in label, label
            assert page.locator("#lost-table tbody tr").count() == 3
            counter = page.inner_text("#counter")
            if lang == "mr":
                # numbers as the page's language writes them (number() of i18n.js), the counter's too
                n = page.evaluate("async (n) => (await import('/static/js/i18n.js')).number(n)", steps)
                assert counter == f"पायरी {n} / {n}", counter
                assert "हुकूम" in page.inner_text("#status")
            else:
                assert counter == f"{steps}/{steps} urratsa"
                assert page.inner_text("#analysis-title") == "Analisia"
            assert page.inner_text("#scores-note") in ("Partida osoa.", "संपूर्ण खेळ.")
            # the server's names for bots' seats ("Random bot 1") in the page's language, everywhere
            assert not re.search(r"(Random|Heuristic) bot", page.inner_text("body") + page.get_attribute(
                "#analysis-chart svg", "aria-label")), lang
            items = page.locator("#mistake-list li button.linkish")
            assert items.count() == len(mistakes)
            if mistakes:
                items.first.click()
                note = page.inner_text("#mistake-note")
                assert note.startswith(mistake_word), note
                assert ("zen onena" if lang == "eu" else "सर्वोत्तम") in note, note
            else:
                assert page.inner_text("#mistake-list") in ("Ez da akatsik aurkitu partida honetan.",
                                                            "या खेळात एकही चूक सापडली नाही.")
        finally:
            context.close()


@pytest.mark.parametrize("lang", ["sq", "mr"])
def test_a_wrong_password_is_told_in_the_language(browser, server, player, lang):
    said = {m.id: m.string for m in _catalog(lang) if m.id}
    context = context_in(browser, server, lang)
    page = context.new_page()
    try:
        page.goto(f"{server.base}/account")
        page.wait_for_selector("#signed-out:not(.hidden)")
        page.fill("#signin-username", player)
        page.fill("#signin-password", "not the password at all")
        page.click("#signin-button")
        # (the server hashes the password it is given: on a loaded machine that takes a while)
        expect(page.locator("#signin-error")).to_have_text(said["That username and password do not match an account."],
                                                           timeout=30000)
        # a name taken: the server's code, worded here with the name
        page.fill("#signup-username", player.upper())
        page.fill("#signup-password", PASSWORD)
        page.fill("#signup-again", PASSWORD)
        page.click("#signup-button")
        expect(page.locator("#signup-error")).to_have_text(
            said["The username '{name}' is taken; choose another."].format(name=player.upper()), timeout=30000)
    finally:
        context.close()


def test_the_rules_page_in_each_language_linked_from_the_lobby_and_the_table(browser, server, game, rules_dir):
    table_id, _ = game
    for lang in LANGUAGES:
        r = httpx.get(f"{server.base}/rules", cookies={"ohhell_lang": lang})
        assert r.status_code == 200
        assert r.headers["content-language"] == lang
        heading = HEADINGS["en" if lang == "ms" else lang]          # Malay has no file: English
        body = r.text
        assert f"<h1>{heading}</h1>" in body
        # the file's HTML is text, its table a table, its javascript: link no link
        assert "<script>alert" not in body and "&lt;script&gt;alert(" in body
        assert "<b>" not in body and "&lt;b&gt;bold?&lt;/b&gt;" in body
        assert "<table>" in body and 'href="javascript:' not in body
        assert f'id="rules-text" lang="{"en" if lang == "ms" else lang}"' in body
    # a server without the texts says so, in the reader's language
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rules_module, "RULES_DIR", rules_dir[0] / "none")
        r = httpx.get(f"{server.base}/rules", cookies={"ohhell_lang": "eu"})
        assert r.status_code == 200 and "Arauak ez daude instalatuta zerbitzari honetan." in r.text
    said = {m.id: m.string for m in _catalog("sq") if m.id}
    context = context_in(browser, server, "sq")
    page = context.new_page()
    try:
        page.goto(f"{server.base}/")
        link = page.locator(".topbar a.rules-link")
        expect(link).to_have_text("Rregullat")
        with page.expect_navigation():
            link.click()
        assert page.url.endswith("/rules")
        assert page.inner_text("#rules-text h1") == HEADINGS["sq"]
        assert page.title() == said["Rules · Oh Hell"]
        assert page.locator(".topbar select.lang-menu").count() == 1
        page.goto(f"{server.base}/t/{table_id}")
        expect(page.locator('a.rules-link[href="/rules"]')).to_have_text(said["The rules of Oh Hell"])
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["mr", "eu"])
def test_the_rules_page_fits_a_phone_and_a_desktop_and_axe_finds_nothing_serious(browser, server, lang):
    for width in (320, 1280):
        context = browser.new_context(viewport={"width": width, "height": 800})
        context.add_cookies([{"name": "ohhell_lang", "value": lang, "url": server.base}])
        page = context.new_page()
        try:
            page.goto(f"{server.base}/rules")
            expect(page.locator(".topbar select.lang-menu")).to_have_count(1)
            assert sideways_overflow(page) == [], width
            assert axe_problems(page) == [], width
        finally:
            context.close()


def test_the_real_rules_texts(server, rules_dir):
    """Each language's own rules file (ohhell/i18n/rules/<lang>.md): its headings are the
    Rules page's headings in that language."""
    _, real = rules_dir
    import html as _html
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rules_module, "RULES_DIR", real)
        for lang in LANGUAGES:
            path = real / f"{lang}.md"
            headings = [line.lstrip("#").strip() for line in path.read_text(encoding="utf-8").splitlines()
                        if re.match(r"#{1,2} ", line)]
            body = httpx.get(f"{server.base}/rules", cookies={"ohhell_lang": lang}).text
            shown = [_html.unescape(re.sub(r"<[^>]+>", "", h)).strip()
                     for h in re.findall(r"<h[12]>(.*?)</h[12]>", body, re.DOTALL)]
            assert shown == headings, lang


#: what /api/players/NAME and /api/leaderboard answer for a player with a history (the pages
#: are checked with every part shown: the rating chart, the tables, recent games, a rank)
PLAYER = {"username": "Zora", "since": 1764000000, "bot": True, "games": 12, "hands": 40, "points_per_hand": 4.125,
          "bids": {"overall": {"bids": 40, "made": 22},
                   "by_cards": {"1": {"bids": 10, "made": 7}, "2": {"bids": 30, "made": 15}},
                   "by_seat": {"1/3": {"bids": 20, "made": 11}, "3/3": {"bids": 20, "made": 11}}},
          "rating": {"mu": 27.1, "sigma": 5.2, "ordinal": 11.5, "games": 12},
          "history": [{"ordinal": 2.5}, {"ordinal": 5.25}, {"ordinal": 11.5}],
          "recent": [{"table": "abc", "game": 1, "finished": 1764650000, "names": ["Zora", "Ann", "Expert bot"],
                      "bots": [None, None, "expert"], "account_bots": [0],
                      "totals": [30, 20, 10], "points": 30, "place": 1, "players": 3, "rated": True,
                      "private": False, "replay": "/t/abc/replay/1"},
                     {"table": None, "game": 2, "finished": 1764660000, "names": ["Zora", None, None],
                      "totals": [1, 20, 10], "points": 1, "place": 3, "players": 3, "rated": False,
                      "private": True, "replay": None}],
          # the analyses of two of the games: one with help (marked), one at a private table
          "analysis": {"games": 2, "of": 12, "helped": 1,
                       "average": {"games": 1, "hands": 10, "lost": 12.25, "lost_se": None, "lost_bid": 8.5,
                                   "lost_play": 3.75, "lost_per_hand": 1.225, "mistakes": 3.0, "score": 30.0,
                                   "luck_games": 1, "luck": 26.5, "skill": 3.5},
                       "average_all": {"games": 2, "hands": 20, "lost": 10.125, "lost_se": 2.125, "lost_bid": 7.0,
                                       "lost_play": 3.125, "lost_per_hand": 1.0125, "mistakes": 2.5, "score": 15.5,
                                       "luck_games": 2, "luck": 16.0, "skill": -0.5},
                       "recent": [{"table": None, "game": 2, "finished": 1764660000, "players": 3, "seat": 0,
                                   "hands": 10, "lost_bid": 5.5, "lost_play": 2.5, "lost": 8.0, "lost_se": 2.0,
                                   "mistakes": 2, "decisions": 40, "score": 1, "luck": 5.5, "skill": -4.5,
                                   "helped": True, "private": True, "analysis": None},
                                  {"table": "abc", "game": 1, "finished": 1764650000, "players": 3, "seat": 0,
                                   "hands": 10, "lost_bid": 8.5, "lost_play": 3.75, "lost": 12.25, "lost_se": 2.5,
                                   "mistakes": 3, "decisions": 40, "score": 30, "luck": 26.5, "skill": 3.5,
                                   "helped": False, "private": False, "analysis": "/t/abc/replay/1#analysis"}]}}
BOARD = {"players": None, "min_games": 5,
         "rows": [{"rank": 1, "username": "Zora", "bot": True, "ordinal": 11.5, "mu": 27.1, "sigma": 5.2, "games": 12}]}


def test_a_players_history_and_the_leaderboard_and_a_signed_in_account_in_every_language(browser, server, player):
    names = {"Zora", "Ann", "Ann, Bob", "Zora, Ann, Bob"}
    problems = {}
    for lang in OTHERS:
        context = context_in(browser, server, lang)
        context.route("**/api/players/Zora", lambda route: route.fulfill(json=PLAYER))
        context.route("**/api/leaderboard?*", lambda route: route.fulfill(json=BOARD))
        page = context.new_page()
        try:
            page.goto(f"{server.base}/players/Zora")
            expect(page.locator("#recent li")).to_have_count(2)
            expect(page.locator("#recent .pill.bot")).to_have_count(1)          # its bots, marked
            expect(page.locator("#recent .pill.bot-account")).to_have_count(1)
            expect(page.locator("#chart svg")).to_have_count(1)
            expect(page.locator("#lost-chart svg")).to_have_count(1)           # the analyses' section
            expect(page.locator("#analysed-games tbody tr")).to_have_count(2)
            expect(page.locator("#lost-figures div")).to_have_count(8)
            expect(page.locator("#recent a[href='/t/abc/replay/1#analysis']")).to_have_count(1)
            problems[f"{lang} player"] = leftovers(page, lang, skip=names)
            if lang == "mr":      # the rating 11.5 and the 40 hands as Marathi writes numbers (number())
                said = page.evaluate("async () => { const m = await import('/static/js/i18n.js');"
                                     " return [m.number(11.5, 1), m.number(40)]; }")
                figures = page.inner_text("#figures")
                assert said[0] in figures and said[1] in figures, (said, figures)
            page.goto(f"{server.base}/leaderboard")
            expect(page.locator("#board tbody tr")).to_have_count(1)
            problems[f"{lang} leaderboard"] = leftovers(page, lang, skip=names)
            if lang == "ceb":     # signed in: the tables, the tokens
                page.goto(f"{server.base}/account")
                page.fill("#signin-username", player)
                page.fill("#signin-password", PASSWORD)
                page.click("#signin-button")
                expect(page.locator("#signed-in")).to_be_visible(timeout=30000)
                expect(page.locator("#token-table tbody td").first).not_to_have_text(
                    _catalog(lang).get("Loading…").string)
                problems[f"{lang} account"] = leftovers(page, lang, skip={player})
        finally:
            context.close()
    assert {k: v for k, v in problems.items() if v} == {}


@pytest.mark.parametrize("lang", ["en", "eu", "mr"])
def test_the_player_page_with_its_analyses_fits_a_phone_and_a_desktop_and_axe_finds_nothing_serious(browser, server,
                                                                                                      lang):
    for width in (390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 900})
        context.add_cookies([{"name": "ohhell_lang", "value": lang, "url": server.base}])
        context.route("**/api/players/Zora", lambda route: route.fulfill(json=PLAYER))
        page = context.new_page()
        errors: list = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            page.goto(f"{server.base}/players/Zora")
            expect(page.locator("#analysed-games tbody tr")).to_have_count(2)
            expect(page.locator("#lost-chart circle")).to_have_count(2)
            expect(page.locator("#lost-chart circle.hollow")).to_have_count(1)    # the game with help
            # in words, oldest first: the public game's 12.25 (shown 12.3), then the private one's 8.0, with help
            label = page.locator(".lost-chart").get_attribute("aria-label")
            said = page.evaluate("async () => { const m = await import('/static/js/i18n.js');"
                                 " return [m.number(12.25, 1), m.number(8, 1)]; }")
            assert label.count(";") == 1 and label.index(said[0]) < label.index(";") < label.index(said[1]), label
            assert sideways_overflow(page) == [], (lang, width)
            assert axe_problems(page) == [], (lang, width)
            assert errors == []
        finally:
            context.close()
