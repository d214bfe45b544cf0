"""The lobby, the replay and the table's chat in real browsers (Debian's chromium under
Playwright) against the real ``ohhell serve``: no sideways scroll at any width, no serious or
critical axe-core violation, scores revealed only as the replay reaches them, the replay's
seats around a felt as at the table, showing at each step exactly the cards the record
allows (and the card played moving to the trick, unless motion is reduced), and the chat
between browsers (the limit, the rate limit, HTML shown as text, mute, spectators apart).

Set ``OHHELL_SCREENSHOTS=docs`` to refresh ``docs/lobby-*.png``, ``docs/replay-*.png``,
``docs/chat.png`` and ``docs/chat-creator.png``.
"""

from __future__ import annotations

import os
import time

import httpx
import pytest

from serverkit import FOCUS_CONTRAST, ROOT, WIDTHS, ProcessServer, axe_problems, chromium, sideways_overflow

SHOTS = os.environ.get("OHHELL_SCREENSHOTS")
#: The widths the issue names (every page is also checked at the others of WIDTHS).
NAMED_WIDTHS = (390, 768, 1280, 1920)


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("pages") / "tables.sqlite3")
    srv = ProcessServer(db, "--bot-delay", "0.05").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def finished(server):
    """A finished all-bot game of three hands (two bots of one kind) and its record."""
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"},
             {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"}]
    t = httpx.post(server.base + "/api/tables", json={"rules": {"players": 4, "hand_sizes": [1, 2, 3]},
                                                      "seats": seats, "title": "Replay check"}).json()
    deadline = time.monotonic() + 60
    while True:
        r = httpx.get(f"{server.base}/api/tables/{t['id']}/games/1/record")
        if r.status_code == 200:
            return t["id"], r.json()
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)


def page_at(browser, width: int, errors: list, **context):
    ctx = browser.new_context(viewport={"width": width, "height": 900}, **context)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(f"{width}px: {e}"))
    page.on("console", lambda m: errors.append(f"{width}px console: {m.text}") if m.type == "error" else None)
    return page


def shot(page, name: str, **kw) -> None:
    if SHOTS:
        page.screenshot(path=str(ROOT / SHOTS / name), **kw)
        if name.startswith("replay"):
            shrink(ROOT / SHOTS / name)


def shrink(path) -> None:
    """256 colours (the felt's gradient makes a full-colour file big; octree keeps the gold turn
    ring and the avatars' colours, which median cut loses)."""
    from PIL import Image
    with Image.open(path) as im:
        small = im.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


# --- the lobby ---------------------------------------------------------------------------------

def test_the_lobby_fits_every_width_and_axe_finds_nothing_serious(browser, server):
    # A listed table with a long title and names, so the list has rows to lay out.
    httpx.post(server.base + "/api/tables", json={
        "title": "Friday night at the Hendersons' with everyone who could make it", "rules": {"players": 5},
        "seats": [{"kind": "open"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"},
                  {"kind": "open"}, {"kind": "reserved"}]})
    errors: list = []
    for width in WIDTHS:
        page = page_at(browser, width, errors)
        page.goto(server.base + "/")
        page.wait_for_selector("#seats .row")
        page.wait_for_selector("#tables li[data-table]")
        # The widest things the form can hold: seven seats, each reserved or a bot, a custom schedule.
        page.select_option("#players", "7")
        rows = page.locator("#seats .row")
        for i in range(7):
            rows.nth(i).locator(".kind").select_option("reserved" if i % 2 else "bot")
        page.select_option("#schedule", "custom")
        page.fill("#hand-sizes", "1,2,3,4,5,6,7,6,5,4,3,2,1")
        assert sideways_overflow(page) == [], f"the lobby at {width}px"
        if width in NAMED_WIDTHS:
            assert axe_problems(page) == [], f"the lobby at {width}px"
        if width in (390, 1280):
            page.reload()
            page.wait_for_selector("#tables li[data-table]")
            shot(page, f"lobby-{'phone' if width == 390 else 'desktop'}.png", full_page=True)
        page.context.close()
    assert errors == []


def test_the_lobby_by_keyboard_creates_a_table_whose_spectators_chat_apart(browser, server):
    errors: list = []
    page = page_at(browser, 390, errors)
    page.goto(server.base + "/")
    page.wait_for_selector("#seats .row")
    page.keyboard.press("Tab")       # the skip link comes first and leads to the form
    assert page.evaluate("document.activeElement.className") == "skip-link"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "yourname"
    page.keyboard.type("Ann")
    page.focus("#spectators-apart")
    page.keyboard.press("Space")
    assert page.is_checked("#spectators-apart")
    page.focus("#create-button")
    page.keyboard.press("Enter")
    page.wait_for_url("**/t/*")
    table_id = page.url.rsplit("/", 1)[1]
    info = httpx.get(f"{server.base}/api/tables/{table_id}").json()
    assert info["spectator_chat"] == "apart"
    page.context.close()
    assert errors == []


# --- the replay ----------------------------------------------------------------------------------

def totals_shown(page) -> list[str]:
    return page.locator(".replay-total").all_inner_texts()


#: A step of the fixture's game with a trick on the felt: hand 3's first trick, its third card
#: (hand 1 is 10 steps: dealt, 4 bids, 4 cards, scored; hand 2 is 14; hand 3 starts at 25).
MID_TRICK = 32


def allowed(rec) -> list[dict]:
    """What each step of the replay may show, from the record alone (as buildSteps walks it:
    the deal, each bid, each card, the scoring): every seat's cards still in hand, the trick
    on the felt in the order played (the hand's last trick while it is scored) and the trump."""
    n = rec["rules"]["players"]
    out = []
    for h in rec["hands"]:
        hands = [list(c) for c in h["deal"]]
        snap = lambda trick: out.append({"hands": [sorted(c) for c in hands], "trick": list(trick),  # noqa: E731
                                         "trump": [h["trump_card"]] if h["trump_card"] else []})
        snap([])
        for _ in (b for b in h["bids"] if b is not None):
            snap([])
        for trick in h["tricks"]:
            for i, card in enumerate(trick["cards"]):
                hands[(trick["leader"] + i) % n].remove(card)
                snap(trick["cards"][:i + 1])
        if h.get("scores"):
            snap(h["tricks"][-1]["cards"] if h["tricks"] else [])
    return out


SHOWN = """(i) => {
  window.ohhellReplay.show(i);
  const cards = (sel) => [...document.querySelectorAll(sel)].map((c) => c.dataset.card);
  const seats = [...document.querySelectorAll('#seats .seat')].sort((a, b) => a.dataset.seat - b.dataset.seat);
  return {
    hands: seats.map((s) => cards(`#seats .seat[data-seat='${s.dataset.seat}'] .seat-hand .card.face`).sort()),
    groups: seats.map((s) => s.querySelector('.seat-hand').getAttribute('aria-label')),
    trick: cards('#trick .card.face'), trump: cards('#deck .card.face'), all: cards('main [data-card]').sort(),
    faces: document.querySelectorAll('main .card:not(.face):not(.back)').length,
  };
}"""


def test_each_replay_step_shows_exactly_the_cards_the_record_allows(browser, server, finished):
    table_id, rec = finished
    want = allowed(rec)
    errors: list = []
    page = page_at(browser, 1280, errors)
    page.goto(f"{server.base}/t/{table_id}/replay/1")
    page.wait_for_selector("#fair-result.ok", timeout=15000)
    assert page.evaluate("window.ohhellReplay.steps") == len(want)
    for i, w in enumerate(want):
        got = page.evaluate(SHOWN, i)
        assert got["hands"] == w["hands"], f"step {i + 1}"
        assert got["trick"] == w["trick"], f"step {i + 1}"
        assert got["trump"] == w["trump"], f"step {i + 1}"
        # nothing else: no card of a later step, of another hand, or drawn twice
        assert got["all"] == sorted([c for h in w["hands"] for c in h] + w["trick"] + w["trump"]), f"step {i + 1}"
        assert got["groups"] == [f"{name}'s cards" for name in rec["players"]] and got["faces"] == 0
    # A card held is drawn as at the table (cards.js: corner indices, a pip), named in words.
    page.evaluate(f"window.ohhellReplay.show({MID_TRICK - 1})")
    card = page.locator("#seats .seat-hand .card.face").first
    assert card.get_attribute("role") == "img" and " of " in card.get_attribute("aria-label")
    assert card.locator(".index.tl").count() == 1 and card.locator(".pip, .court").count() == 1
    page.context.close()
    assert errors == []


GEOMETRY = """() => {
  const box = (e) => e.getBoundingClientRect().toJSON();
  return {
    felt: box(document.getElementById('felt')),
    seats: [...document.querySelectorAll('#seats .seat')].map((s) => ({
      seat: Number(s.dataset.seat), plate: box(s), text: box(s.querySelector('.seat-text')),
      avatar: s.querySelector('.avatar').textContent, name: s.querySelector('.seat-name').textContent,
      cards: [...s.querySelectorAll('.seat-hand .card')].map(box) })),
    trick: [...document.querySelectorAll('#trick .card')].map(box),
  };
}"""


def meet(a: dict, b: dict) -> bool:
    """Whether two client rectangles overlap (by more than half a pixel each way)."""
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5 and \
        min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5


def inside(a: dict, b: dict) -> bool:
    return a["left"] >= b["left"] - 0.5 and a["right"] <= b["right"] + 0.5 and \
        a["top"] >= b["top"] - 0.5 and a["bottom"] <= b["bottom"] + 0.5


def test_the_replay_seats_the_players_around_a_felt_as_the_table_does(browser, server, finished):
    table_id, rec = finished
    errors: list = []
    for width in (320, 390, 768, 1280, 1920):
        page = page_at(browser, width, errors)
        page.goto(f"{server.base}/t/{table_id}/replay/1#step={MID_TRICK}")
        page.wait_for_selector("#fair-result.ok", timeout=15000)
        g = page.evaluate(GEOMETRY)
        felt, seats = g["felt"], sorted(g["seats"], key=lambda s: s["seat"])
        assert [s["name"] for s in seats] == rec["players"]
        assert [s["avatar"] for s in seats] == ["R1", "H1", "R2", "H2"]
        cx, cy = felt["x"] + felt["width"] / 2, felt["y"] + felt["height"] / 2
        centre = [((s["plate"]["left"] + s["plate"]["right"]) / 2, (s["plate"]["top"] + s["plate"]["bottom"]) / 2) for s in seats]
        # seat 1 at the bottom, then clockwise: seat 2 on the left, seat 3 at the top, seat 4 on the right
        assert centre[0][1] > cy and abs(centre[0][0] - cx) < felt["width"] * .1, width
        assert centre[1][0] < cx - felt["width"] * .25, width
        assert centre[2][1] < cy and abs(centre[2][0] - cx) < felt["width"] * .1, width
        assert centre[3][0] > cx + felt["width"] * .25, width
        for s in seats:
            assert inside(s["plate"], felt), (width, s["seat"])
            assert all(inside(c, felt) for c in s["cards"]), (width, s["seat"])
        for a in seats:
            for b in seats:
                if a["seat"] < b["seat"]:
                    assert not meet(a["plate"], b["plate"]), (width, a["seat"], b["seat"])
        # the trick between the seats: three cards, on the felt, clear of every plate's words and cards
        assert len(g["trick"]) == 3
        for c in g["trick"]:
            assert inside(c, felt)
            for s in seats:
                assert not meet(c, s["text"]) and not any(meet(c, h) for h in s["cards"]), (width, s["seat"])
        page.context.close()
    assert errors == []


#: Logs the motions the page starts (Element.animate): where, and how long.
MOTION_LOG = """(() => {
  window.__motions = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (keyframes, options) {
    window.__motions.push({ where: this.closest('#trick') ? 'trick' : 'other', duration: options.duration });
    return animate.call(this, keyframes, options);
  };
})()"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_step_forward_moves_the_card_played_to_the_trick_unless_motion_is_reduced(browser, server, finished, motion):
    table_id, rec = finished
    errors: list = []
    page = page_at(browser, 1280, errors, reduced_motion=motion)
    page.context.add_init_script(MOTION_LOG)
    page.goto(f"{server.base}/t/{table_id}/replay/1#step={MID_TRICK - 1}")
    page.wait_for_selector("#fair-result.ok", timeout=15000)
    page.evaluate("() => { window.__motions = []; }")
    page.keyboard.press("ArrowRight")          # the trick's third card is played
    assert page.inner_text("#counter").startswith(f"step {MID_TRICK} of")
    moved = page.evaluate("window.__motions")
    assert moved == ([{"where": "trick", "duration": 280}] if motion == "no-preference" else []), moved
    page.evaluate("() => { window.__motions = []; }")
    page.keyboard.press("ArrowLeft")           # back, and a jump: nothing moves
    page.keyboard.press("End")
    assert page.evaluate("window.__motions") == []
    page.context.close()
    assert errors == []


def test_the_replay_reveals_scores_only_as_it_reaches_them(browser, server, finished):
    table_id, rec = finished
    assert rec["players"] == ["Random bot 1", "Heuristic bot 1", "Random bot 2", "Heuristic bot 2"]
    errors: list = []
    page = page_at(browser, 1280, errors)
    page.goto(f"{server.base}/t/{table_id}/replay/1")
    page.wait_for_selector("#fair-result.ok", timeout=15000)
    # Step 1: nothing scored, no final totals anywhere on the page.
    assert page.inner_text("#counter").startswith("step 1 of")
    assert totals_shown(page) == ["total 0"] * 4
    assert page.locator("#score-table").count() == 0 and page.locator("#chart svg").count() == 0
    text = page.inner_text("main")
    assert "Game over" not in text
    final = [str(t) for t in rec["totals"] if t]
    assert not any(f"total {t}" in text for t in final)
    # Step by step to the first scored hand: one row, hand 1's points only.
    for _ in range(40):
        if "scored" in page.inner_text("#step-text"):
            break
        page.keyboard.press("ArrowRight")
    first = rec["hands"][0]["scores"]
    assert page.locator("#score-table tbody tr").count() == 1
    assert page.locator("#score-table tfoot td").all_inner_texts() == [str(v) for v in first]
    assert totals_shown(page) == [f"total {v}" for v in first]
    assert "Game over" not in page.inner_text("#step-text")
    # Page Down: the next hand begins; the step back and forward keys move one step.
    page.keyboard.press("PageDown")
    assert page.inner_text("#step-text").startswith("Hand 2:")
    n = int(page.inner_text("#counter").split()[1])
    page.keyboard.press("ArrowLeft")
    assert int(page.inner_text("#counter").split()[1]) == n - 1
    page.keyboard.press("ArrowRight")
    # Play at 8x, pause: the replay moves, then stops; Space does the same.
    page.select_option("#speed", "8")
    page.click("#play")
    assert page.get_attribute("#play", "aria-pressed") == "true"
    page.wait_for_function(f"() => window.ohhellReplay.at > {n + 2}")
    page.click("#play")
    assert page.get_attribute("#play", "aria-pressed") == "false"
    stopped = page.evaluate("window.ohhellReplay.at")
    time.sleep(0.4)
    assert page.evaluate("window.ohhellReplay.at") == stopped
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("Space")
    assert page.evaluate("window.ohhellReplay.playing")
    page.keyboard.press("Space")
    assert not page.evaluate("window.ohhellReplay.playing")
    page.keyboard.press("-")
    assert page.input_value("#speed") == "4"
    # The end: every hand, the record's totals, and the result.
    page.keyboard.press("End")
    assert "Game over" in page.inner_text("#step-text")
    assert page.locator("#score-table tbody tr").count() == 3
    assert page.locator("#score-table tfoot td").all_inner_texts() == [str(v) for v in rec["totals"]]
    # A link to a step opens there (the hash says which).
    step = page.evaluate("location.hash")
    page.goto(f"{server.base}/t/{table_id}/replay/1#step=2")
    page.wait_for_selector("#fair-result.ok", timeout=15000)
    assert page.inner_text("#counter").startswith("step 2 of") and step.startswith("#step=")
    page.context.close()
    assert errors == []


def test_the_replay_fits_every_width_and_axe_finds_nothing_serious(browser, server, finished):
    table_id, rec = finished
    errors: list = []
    for width in WIDTHS:
        page = page_at(browser, width, errors)
        page.goto(f"{server.base}/t/{table_id}/replay/1#step={MID_TRICK}")
        page.wait_for_selector("#fair-result.ok", timeout=15000)
        assert sideways_overflow(page) == [], f"the replay at {width}px"
        if width in NAMED_WIDTHS:
            assert axe_problems(page) == [], f"the replay at {width}px"
        if width in (390, 1280):
            shot(page, f"replay-{'phone' if width == 390 else 'desktop'}.png", full_page=width == 390)
        page.context.close()
    assert errors == []
    page = page_at(browser, 390, [])      # (the browser logs the record's 404)
    page.goto(f"{server.base}/t/nosuchtable/replay/1")
    page.wait_for_function("() => document.getElementById('step-text').textContent.includes('not available')")
    assert page.is_disabled("#play")
    page.context.close()


# --- the chat ------------------------------------------------------------------------------------

def sit(page, seat: int, name: str) -> None:
    """Take a seat through the page's own socket (the table page's join controls are its own)."""
    page.wait_for_function("() => window.ohhellChat !== undefined")
    page.evaluate("""async ([seat, name]) => {
        const { tableFrames } = await import("/static/js/socket.js");
        while (!tableFrames.state) await new Promise((r) => setTimeout(r, 50));
        tableFrames.send({ type: "join", seat, name });
    }""", [seat, name])
    page.wait_for_function(f"() => window.ohhellChat.seat === {seat}")


def send_chat(page, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def lines(page) -> list[str]:
    return page.locator("#chat .chat-line .chat-text").all_inner_texts()


def wait_lines(page, count: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#chat .chat-line').length === {count}")


def test_chat_between_two_players_limit_rate_html_as_text_and_mute(browser, server):
    t = httpx.post(server.base + "/api/tables", json={"rules": {"players": 3}, "seats": [{"kind": "open"}] * 3}).json()
    errors: list = []
    ann = page_at(browser, 1280, errors)
    bob = page_at(browser, 390, errors, is_mobile=True, has_touch=True)
    for page in (ann, bob):
        page.goto(f"{server.base}/t/{t['id']}")
    sit(ann, 0, "Ann")
    sit(bob, 1, "Bob")
    assert ann.get_attribute("#chat-input", "maxlength") == "300"
    # HTML is text: shown as typed, never run or rendered.
    evil = '<img src=x onerror="window.pwned=1"><b>bold</b>'
    send_chat(ann, evil)
    wait_lines(bob, 1)
    assert lines(bob) == [evil] and lines(ann) == [evil]
    assert bob.locator("#chat img, #chat b").count() == 0
    assert bob.evaluate("window.pwned") is None and ann.evaluate("window.pwned") is None
    assert bob.locator("#chat .chat-who").all_inner_texts() == ["Ann"]
    assert ann.locator("#chat .chat-who").all_inner_texts() == ["You"]
    # The length limit: the box holds 300 characters; a longer message is refused by the server.
    ann.evaluate("""async () => {
        const { tableFrames } = await import("/static/js/socket.js");
        tableFrames.send({ type: "chat", text: "z".repeat(301) });
    }""")
    ann.wait_for_function("() => document.querySelector('#chat .chat-status').textContent.includes('limit is 300')")
    # The rate limit: five in a row pass, the sixth is refused and says so.
    for i in range(6):
        send_chat(bob, f"hi {i}")
    bob.wait_for_function("() => document.querySelector('#chat .chat-status').textContent.includes('too fast')")
    wait_lines(ann, 6)
    assert lines(ann)[1:] == [f"hi {i}" for i in range(5)]
    assert bob.evaluate("""() => { const c = document.getElementById("chat"), r = c.getBoundingClientRect();
        return c.scrollWidth <= c.clientWidth && r.right <= document.documentElement.clientWidth; }""")
    assert axe_problems(ann, "#chat") == [] and axe_problems(bob, "#chat") == []
    shot(ann, "chat.png", clip=ann.locator("#chat").bounding_box())
    # Mute: Bob hides Ann (by keyboard), and it holds across a reload, until he unmutes.
    bob.focus("#chat button[aria-label='Mute Ann']")
    bob.keyboard.press("Enter")
    assert lines(bob) == [f"hi {i}" for i in range(5)]
    assert "1 message from muted people hidden" in bob.inner_text("#chat")
    bob.reload()
    bob.wait_for_function("() => window.ohhellChat && window.ohhellChat.messages.length === 6")
    time.sleep(2.2)   # a token back in Bob's bucket (one every 2 s)
    send_chat(ann, "still there?")
    send_chat(bob, "quiet here")
    wait_lines(ann, 8)
    bob.wait_for_function("() => window.ohhellChat.messages.length === 8")
    assert "still there?" not in lines(bob) and "quiet here" in lines(bob)
    bob.click("#chat button[aria-label='Unmute Ann']")
    assert lines(bob)[0] == evil and "still there?" in lines(bob)
    for page in (ann, bob):
        page.context.close()
    assert errors == []


def test_the_creator_removes_a_message_for_everyone_in_the_browser(browser, server):
    """The creator's page (the admin token the lobby keeps) has a Remove button on every
    message; a player's has none. Removing a player's message takes it off every page, and
    each page says what happened."""
    t = httpx.post(server.base + "/api/tables", json={"rules": {"players": 3}, "seats": [{"kind": "open"}] * 3}).json()
    errors: list = []
    owner = page_at(browser, 1280, errors)
    owner.context.add_init_script(f"localStorage.setItem('ohhell.admin.{t['id']}', '{t['admin']}')")
    ann = page_at(browser, 390, errors, is_mobile=True, has_touch=True)
    for page in (owner, ann):
        page.goto(f"{server.base}/t/{t['id']}")
    sit(owner, 0, "Olga")
    sit(ann, 1, "Ann")
    send_chat(ann, "something rude")
    send_chat(owner, "welcome")
    wait_lines(owner, 2)
    wait_lines(ann, 2)
    assert owner.locator("#chat button.chat-remove").count() == 2
    assert ann.locator("#chat button.chat-remove").count() == 0
    assert axe_problems(owner, "#chat") == []
    shot(owner, "chat-creator.png", clip=owner.locator("#chat").bounding_box())
    owner.focus("#chat button[aria-label=\"Remove Ann's message for everyone\"]")
    owner.keyboard.press("Enter")
    for page in (owner, ann):
        wait_lines(page, 1)
        assert lines(page) == ["welcome"]
    owner.wait_for_function("() => document.querySelector('#chat .chat-status').textContent.includes('removed for everyone')")
    ann.wait_for_function("() => document.querySelector('#chat .chat-status').textContent.includes(\"creator removed a message\")")
    ann.reload()   # the history sent on hello no longer has it
    ann.wait_for_function("() => window.ohhellChat && window.ohhellChat.messages.length === 1")
    assert lines(ann) == ["welcome"]
    # the creator sets spectators apart from the chat panel; only the creator has the switch
    assert ann.locator("#chat-apart").is_hidden() and owner.locator("#chat-apart").is_visible()
    owner.focus("#chat-input")
    owner.keyboard.press("Shift+Tab")    # keyboard focus (:focus-visible) to the log, then the switch
    owner.keyboard.press("Shift+Tab")
    [switch] = owner.evaluate(FOCUS_CONTRAST, ["#chat-apart"])
    assert switch["visible"] and switch["style"] == "solid" and switch["width"] >= 2 and switch["ratio"] >= 3, switch
    owner.check("#chat-apart")
    ann.wait_for_function("() => document.querySelector('#chat .chat-note').textContent.includes('you do not see their messages')")
    owner.wait_for_function("() => document.querySelector('#chat .chat-status').textContent.includes('now chat separately')")
    assert axe_problems(owner, "#chat") == []
    for page in (owner, ann):
        page.context.close()
    assert errors == []


def test_spectators_apart_chat_only_among_spectators_in_the_browser(browser, server):
    t = httpx.post(server.base + "/api/tables", json={"rules": {"players": 3}, "seats": [{"kind": "open"}] * 3,
                                                      "spectator_chat": "apart"}).json()
    errors: list = []
    ann, w1, w2 = (page_at(browser, 1280, errors) for _ in range(3))
    for page in (ann, w1, w2):
        page.goto(f"{server.base}/t/{t['id']}")
    sit(ann, 0, "Ann")
    for page in (w1, w2):
        page.wait_for_function("() => document.querySelector('#chat .chat-note').textContent.includes('apart')")
    assert "the players do not see your messages" in w1.inner_text("#chat .chat-note")
    assert "you do not see their messages" in ann.inner_text("#chat .chat-note")
    send_chat(w1, "she will miss her bid")
    wait_lines(w2, 1)
    assert w2.locator("#chat .chat-tag").all_inner_texts() == ["spectators only"]
    # The sender sees its own message as its own (no Mute button for oneself), also after a reload.
    wait_lines(w1, 1)
    for _ in range(2):
        assert w1.locator("#chat .chat-who").all_inner_texts() == ["You"]
        assert w1.locator("#chat .chat-mute").count() == 0 and w2.locator("#chat .chat-mute").count() == 1
        w1.reload()
        wait_lines(w1, 1)
    send_chat(ann, "hello all")
    for page in (w1, w2):
        wait_lines(page, 2)
    wait_lines(ann, 1)
    time.sleep(0.3)
    assert lines(ann) == ["hello all"]
    for page in (ann, w1, w2):
        page.context.close()
    assert errors == []
