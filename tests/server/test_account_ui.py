"""The account page in a real browser (Debian's chromium under Playwright) against the real
``ohhell serve``: sign up (claiming this browser's guest seat), see the name in the lobby,
sign out, a wrong password, sign in again; the session cookie is never visible to scripts.
Two players sign up, play a rated game with two bots on the table page (one by the keyboard,
one by clicks), and see their ratings move and their statistics on their pages. The lobby
creates tables with its page's CSRF token, for a guest and signed in."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time

import pytest
from playwright.sync_api import expect

from serverkit import Client, ProcessServer, axe_problems, sideways_overflow

PASSWORD = "a long enough passphrase"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("account-ui") / "tables.sqlite3")
    srv = ProcessServer(db, "--bot-delay", "0.05", "--analysis-samples", "8").start()
    yield srv
    srv.stop()


def guest_seat(server) -> tuple[str, str]:
    """A table where a guest sits in seat 2: (table id, the guest's seat token)."""
    import httpx
    r = httpx.post(server.base + "/api/tables", json={"rules": {"players": 3, "hand_sizes": [1]},
                                                      "seats": [{"kind": "open"}] * 3})
    assert r.status_code == 201, r.text
    table = r.json()["id"]

    async def join() -> str:
        async with Client(server.ws_url, table) as c:
            assert (await c.join(1, "Guest"))["type"] == "joined"
            return c.token
    # (Playwright's sync API runs a loop in this thread: the websocket client gets its own)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return table, pool.submit(asyncio.run, join()).result(30)


def test_the_lobby_creates_tables_with_its_pages_csrf_token(browser, server):
    """POST /api/tables from a browser needs the page's CSRF token: the lobby sends it, for a
    guest and signed in, and says why when the server refuses a stale one."""
    import httpx
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sent: list = []
    page.on("request", lambda r: sent.append(r.headers.get("x-csrf-token"))
            if r.method == "POST" and r.url.endswith("/api/tables") else None)
    try:
        for who in ("a guest", "signed in"):
            if who == "signed in":
                token = context.request.get(server.base + "/api/account").json()["csrf"]
                r = context.request.post(server.base + "/api/account/signup", headers={"x-csrf-token": token,
                                         "origin": server.base}, data={"username": "Lobbyist", "password": PASSWORD})
                assert r.status == 201, r.text()
            page.goto(server.base + "/")
            page.fill("#yourname", "Lou")
            page.fill("#title", f"Made by {who}")
            page.click("#create-button")
            page.wait_for_url("**/t/*")
            table = page.url.rsplit("/", 1)[1]
            assert httpx.get(f"{server.base}/api/tables/{table}").json()["title"] == f"Made by {who}"
            assert sent[-1] and len(sent[-1]) == 64, sent   # the page's token went with it
        # a stale token (an old page, another browser's cookie): refused, and the form says why
        page.route("**/api/account", lambda route: route.fulfill(json={"user": None, "csrf": "0" * 64}))
        page.goto(server.base + "/")
        page.fill("#yourname", "Lou")
        page.click("#create-button")
        expect(page.locator("#create-error")).to_contain_text("security token")
        assert page.url == server.base + "/"
        assert not errors, errors
    finally:
        context.close()


def test_sign_up_sign_out_and_sign_in(browser, server):
    table, token = guest_seat(server)
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # (chromium logs each refused request; the wrong password's 401 is expected)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "status of 401" not in m.text
            else None)

    # the lobby says "Sign in" and leads to the account page
    page.goto(server.base + "/")
    link = page.locator("#account-link")
    expect(link).to_have_text("Sign in")
    # this browser played as a guest at a table (the table page keeps the seat token here)
    page.evaluate("([t, v]) => localStorage.setItem(`ohhell.seat.${t}`, v)", [table, token])
    link.click()
    expect(page).to_have_url(server.base + "/account")

    # sign up: mismatched passwords are caught, then it works and the guest seat is claimed
    expect(page.locator("#claim-row")).to_be_visible()
    expect(page.locator("#claim-text")).to_contain_text("1 guest seat")
    page.fill("#signup-username", "Ivy")
    page.fill("#signup-password", PASSWORD)
    page.fill("#signup-again", PASSWORD + "!")
    page.click("#signup-button")
    expect(page.locator("#signup-error")).to_have_text("The two passwords differ.")
    page.fill("#signup-again", PASSWORD)
    page.click("#signup-button")
    expect(page.locator("#status")).to_contain_text("Welcome, Ivy: your account is ready. 1 guest seat claimed.")
    expect(page.locator("#me")).to_have_text("Ivy")
    expect(page.locator("#seats a")).to_have_text(f"Table {table}")
    # the session is an HttpOnly cookie: no script on the page can read it
    assert "ohhell_session" not in page.evaluate("document.cookie")
    assert any(c["name"] == "ohhell_session" and c["httpOnly"] and c["sameSite"] == "Lax"
               for c in context.cookies())

    # the lobby shows the name
    page.goto(server.base + "/")
    expect(page.locator("#account-link")).to_have_text("Ivy")

    # someone else cannot take the name in another case
    other = browser.new_context().new_page()
    other.goto(server.base + "/account")
    other.fill("#signup-username", "IVY")
    other.fill("#signup-password", PASSWORD)
    other.fill("#signup-again", PASSWORD)
    other.click("#signup-button")
    expect(other.locator("#signup-error")).to_have_text("The username 'IVY' is taken; choose another.")
    other.context.close()

    # sign out
    page.goto(server.base + "/account")
    page.click("#signout-button")
    expect(page.locator("#status")).to_have_text("You are signed out.")
    expect(page.locator("#signin-form")).to_be_visible()
    assert not any(c["name"] == "ohhell_session" for c in context.cookies())
    page.goto(server.base + "/")
    expect(page.locator("#account-link")).to_have_text("Sign in")

    # a wrong password is refused in words; the right one signs in (the name in any case)
    page.goto(server.base + "/account")
    page.fill("#signin-username", "ivy")
    page.fill("#signin-password", "not the password")
    page.click("#signin-button")
    expect(page.locator("#signin-error")).to_have_text("That username and password do not match an account.")
    page.fill("#signin-password", PASSWORD)
    page.click("#signin-button")
    expect(page.locator("#status")).to_have_text("Welcome back, Ivy.")
    expect(page.locator("#me")).to_have_text("Ivy")
    page.reload()
    expect(page.locator("#me")).to_have_text("Ivy")
    assert errors == [], errors
    context.close()


# what a player's page says of the turn (the whole state would be a large evaluation each time)
TURN = """() => { const s = window.ohhell.state; const g = s && s.game;
  return g ? {phase: g.view.phase, legal: g.view.legal, n: g.n, seat: s.you.seat} : null; }"""


def _play_at_the_table_page(pages, url: str) -> None:
    """Each signed-in player sits at ``url`` and plays the game out on the table page itself:
    the first by the keyboard alone (a bid's digit; a card: ArrowRight, then Enter), the second
    by clicking the bid buttons and the cards."""
    for seat, page in enumerate(pages):
        page.goto(url)
        page.fill("#name", "ignored")   # a signed-in player sits under their username
        page.click(f"button.join[data-seat='{seat}']")
        page.wait_for_function(f"() => window.ohhell.state && window.ohhell.state.you.seat === {seat}")
    deadline = time.monotonic() + 120
    over = [False] * len(pages)
    while not all(over):
        assert time.monotonic() < deadline, "the game did not finish"
        moved = False
        for k, page in enumerate(pages):
            turn = page.evaluate(TURN)
            if turn is None or over[k]:
                continue
            if turn["phase"] == "over":
                over[k] = True
                continue
            if not turn["legal"]:
                continue
            if turn["phase"] == "bid":
                if k == 0:
                    page.keyboard.press(str(turn["legal"][0]))
                else:
                    page.locator(f"#bids button.bid[data-bid='{turn['legal'][-1]}']").click()
            elif k == 0:
                page.keyboard.press("ArrowRight")
                page.keyboard.press("Enter")
            else:
                page.locator("#hand button.card.legal").first.click()
            page.wait_for_function(f"() => window.ohhell.state.game.n > {turn['n']}", timeout=15000)
            moved = True
        if not moved:
            time.sleep(0.05)
    for page in pages:   # each sees the game-over screen, the ratings' game counted
        page.wait_for_selector("#standings li")
        expect(page.locator("#standings li")).to_have_count(4)


def ratings_shown(page) -> list[float]:
    """The ratings the player page's chart gives in words (its aria-label): the start, then one
    after each rated game."""
    label = page.locator(".rating-chart").get_attribute("aria-label")
    return [float(x) for x in label.split(":", 1)[1].replace(" ", "").split(";")]


def test_two_players_play_a_rated_game_and_see_it_on_their_pages(browser, server):
    """The issue's check: two players sign up, play a rated game with two bots at the table
    page (by keys and by clicks), and see their ratings move and their figures on their pages."""
    pages, contexts = [], []
    errors: list[str] = []
    for name in ("Oona", "Pia"):
        context = browser.new_context()
        page = context.new_page()
        page.goto(server.base + "/account")
        page.fill("#signup-username", name)
        page.fill("#signup-password", PASSWORD)
        page.fill("#signup-again", PASSWORD)
        page.click("#signup-button")
        expect(page.locator("#me")).to_have_text(name)
        page.click("#player-link")
        expect(page.locator("#name")).to_have_text(name)
        expect(page.locator("#figures")).to_contain_text("not rated yet")
        expect(page.locator("#chart")).to_contain_text("No rated games yet.")
        pages.append(page)
        contexts.append(context)

    import httpx
    r = httpx.post(server.base + "/api/tables", json={
        "rules": {"players": 4, "hand_sizes": [1, 2]},
        "seats": [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "random"},
                  {"kind": "bot", "bot": "heuristic"}]})
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    tables = [context.new_page() for context in contexts]
    for t in tables:
        t.on("pageerror", lambda e: errors.append(str(e)))
    _play_at_the_table_page(tables, f"{server.base}/t/{table}")
    assert not errors, errors

    record = httpx.get(f"{server.base}/api/tables/{table}/games/1/record").json()
    assert record["players"][:2] == ["Oona", "Pia"]   # their accounts' names, whatever was typed
    for seat, page in enumerate(pages):
        page.reload()
        figures = page.locator("#figures")
        expect(figures).not_to_contain_text("not rated yet")
        expect(figures).to_contain_text("Games played1")
        expect(figures).to_contain_text("Hands played2")
        expect(page.locator(".rating-chart circle")).to_have_count(2)    # the start, then game 1
        start, after = ratings_shown(page)
        assert after != start, "the rating did not move"
        expect(page.locator("#by-cards tbody tr")).to_have_count(2)      # 1 and 2 cards
        made = sum(h["bids"][seat] == h["tricks_won"][seat] for h in record["hands"])
        expect(figures).to_contain_text(f"Bids made exactly{made} (")
        recent = page.locator("#recent a").first     # (then "its analysis", once the game is analysed)
        expect(recent).to_have_attribute("href", f"/t/{table}/replay/1")
        expect(page.locator("#recent")).to_contain_text(f"{record['totals'][seat]} points")
        expect(page.locator("#recent")).to_contain_text("rated")
        # the server's bots are marked as the table's seat panel marks them; no program played
        expect(page.locator("#recent .pill.bot")).to_have_text(["bot: random", "bot: heuristic"])
        expect(page.locator("#recent .pill.bot-account")).to_have_count(0)
    # the server analyses the game in the background: each page then shows the player's own
    # seat's points lost, a chart of them, and a link to the replay's analysis
    for seat, page in enumerate(pages):
        deadline = time.monotonic() + 180
        while "1 of 1 game analysed." not in page.inner_text("#analysed-count"):
            assert time.monotonic() < deadline, "the game was not analysed"
            time.sleep(1.0)
            page.reload()
            page.wait_for_selector("#player:not(.hidden)")
        stored = httpx.get(f"{server.base}/api/tables/{table}/games/1/analysis").json()["analysis"]["seats"][seat]
        row = page.locator("#analysed-games tbody tr")
        expect(row).to_have_count(1)
        expect(row.locator("a")).to_have_attribute("href", f"/t/{table}/replay/1#analysis")
        shown = page.evaluate("async (x) => { const m = await import('/static/js/i18n.js');"
                              " return m.number(Math.max(0, x), 1); }", stored["lost"])
        expect(row.locator("td").nth(1)).to_have_text(shown)
        expect(page.locator("#lost-figures")).to_contain_text(f"Points lost per game{shown}")
        expect(page.locator("#lost-chart circle")).to_have_count(1)
        expect(page.locator("#recent a", has_text="its analysis")).to_have_attribute(
            "href", f"/t/{table}/replay/1#analysis")
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            page.reload()
            expect(page.locator("#lost-chart svg")).to_have_count(1)
            assert sideways_overflow(page) == [], width
            assert axe_problems(page) == [], width
    # the link opens the replay at the game's end, on its analysis
    replay = pages[0]
    replay.click("#analysed-games a")
    expect(replay.locator("#analysis-ready")).to_be_visible(timeout=30000)
    expect(replay.locator("#analysis-lost tfoot")).to_have_count(1)        # the whole game's table
    assert replay.evaluate("() => { const s = document.getElementById('slider'); return s.value === s.max; }")
    board = pages[0]
    board.goto(server.base + "/leaderboard?min_games=1&players=4")
    expect(board.locator("#board tbody tr")).to_have_count(2)
    expect(board.locator("#board")).to_contain_text("Oona")
    expect(board.locator("#board")).to_contain_text("Pia")
    for context in contexts:
        context.close()
