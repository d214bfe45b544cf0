"""Friendly tables in the browser (Debian's chromium under Playwright): the Hint button and
the H key show the expert's suggestion with the value of each choice as bars (and text) and
the trick probabilities for a bid, in a live region; U takes back one's last move; the
game-over screen and the replay say help was used; no serious axe problem, no sideways
scroll on a phone."""

from __future__ import annotations

import httpx
import pytest

from serverkit import ProcessServer, axe_problems, sideways_overflow


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("help-ui") / "tables.sqlite3")
    srv = ProcessServer(db, "--bot-delay", "0.05").start()
    yield srv
    srv.stop()


def friendly_table(server) -> str:
    seats = [{"kind": "open"}] + [{"kind": "bot", "bot": "random"}] * 3
    r = httpx.post(server.base + "/api/tables", json={"rules": {"players": 4, "hand_sizes": [3, 2]},
                                                      "seats": seats, "title": "Friendly", "help": True})
    assert r.status_code == 201, r.text
    return server.base + r.json()["url"]


def state(page) -> dict:
    return page.evaluate("() => window.ohhell.state")


MY_TURN = "() => { const s = window.ohhell.state; return s && s.game && (s.game.view.legal.length > 0 || s.game.view.phase === 'over'); }"


@pytest.mark.parametrize("width", [390, 1280])
def test_hint_undo_and_the_help_badge(browser, server, width):
    url = friendly_table(server)
    ctx = browser.new_context(viewport={"width": width, "height": 860}, is_mobile=width < 500, has_touch=width < 500)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.fill("#name", "Ann")
    page.click("button.join[data-seat='0']")
    page.wait_for_function(MY_TURN, timeout=20000)
    v = state(page)["game"]["view"]
    assert v["phase"] == "bid"
    assert page.locator("#hint-button").is_visible() and page.locator("#undo-button").is_visible()
    # nothing to take back yet: the button says why and the server changes nothing
    assert "not bid or played" in page.get_attribute("#undo-button", "title")

    page.keyboard.press("h")
    page.wait_for_selector("#hint:not([hidden]) #hint-values li", timeout=30000)
    box = page.locator("#hint")
    assert box.get_attribute("aria-live") == "polite"
    text = box.inner_text()
    assert "suggests" in text and "Expected score of each bid" in text
    rows = page.locator("#hint-values li")
    assert 1 <= rows.count() <= len(v["legal"])
    assert page.locator("#hint-probs li").count() >= 1 and "%" in page.inner_text("#hint-probs")
    assert "Hint: the expert suggests" in page.inner_text("#announcer")
    assert not axe_problems(page), axe_problems(page)
    assert not sideways_overflow(page), sideways_overflow(page)

    n = state(page)["game"]["n"]
    page.click("#hint-follow")
    page.wait_for_function(f"() => window.ohhell.state.game.n > {n}")
    page.wait_for_function(MY_TURN, timeout=20000)
    assert page.locator("#hint").is_hidden()          # the game moved on: the old hint is gone
    page.wait_for_function("() => window.ohhell.state.you.undo && window.ohhell.state.you.undo.ok")
    page.keyboard.press("u")
    page.wait_for_function(f"() => window.ohhell.state.game.n === {n}")
    assert state(page)["table"]["help"]["used"][0] == {"hints": 1, "undos": 1}

    # play the game out (the first legal action each turn), then the game-over screen says so
    for _ in range(60):
        page.wait_for_function(MY_TURN, timeout=20000)
        s = state(page)
        if s["game"]["view"]["phase"] == "over":
            break
        k = s["game"]["n"]
        page.evaluate("(a) => window.ohhell.socket.send({type: 'act', action: a})", s["game"]["view"]["legal"][0])
        page.wait_for_function(f"() => window.ohhell.state.game.n > {k}")
    page.wait_for_selector("#help-used")
    assert "Ann: 1 hint, 1 undo" in page.inner_text("#help-used")
    page.click("#replay-link")
    page.wait_for_selector("#help-badge")
    assert "Help used: Ann: 1 hint, 1 undo" in page.inner_text("#help-badge")
    assert not errors, errors
    ctx.close()
