"""The duplicate events' pages in a real browser (Debian's chromium under Playwright): the
lobby links to the list; an organiser creates an event with the form; a guest takes a seat on
the event page; the organiser starts it; the guest's seat token reaches the table page's
storage, and the guest plays through it (the other table, which plays the guest's cards, is
not theirs to watch until the end: no link, and its page says why); the page shows the commitments, no card while the
event runs, the results hand by hand (once the first hand is finished at every table, while
the second is played: that hand's figures, exactly, and no card), then the ranking, the hands
and the revealed seed, which verifies the commitments.
No serious or critical axe-core violation, no sideways scroll on a phone.

Set ``OHHELL_SCREENSHOTS=docs`` to refresh ``docs/event.png``.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import threading
import time

import httpx
import pytest

from ohhell import dealing
from serverkit import ROOT, Client, ThreadServer, axe_problems, chromium, play_out, sideways_overflow

CARD = re.compile(r"\b[2-9TJQKA][CDHS]\b|(?<![0-9A-Za-z])(?:10|[2-9JQKA])[♣♦♥♠]")   # a code, or as the page writes it


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("events-ui") / "events.sqlite3")
    with ThreadServer(db) as srv:
        yield srv


def sign_up(ctx, base: str, username: str) -> None:
    """Sign up through the API with the browser context's own cookies (its request context)."""
    token = ctx.request.get(base + "/api/account").json()["csrf"]
    r = ctx.request.post(base + "/api/account/signup", data={"username": username, "password": "correct horse battery"},
                         headers={"x-csrf-token": token, "origin": base})
    assert r.status == 201, r.text()


def wait_text(page, selector: str, pattern: str, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        text = " / ".join(page.locator(selector).all_inner_texts())
        if re.search(pattern, text):
            return text
        assert time.monotonic() < deadline, f"{selector} never matched {pattern!r}: {text[:300]!r}"
        time.sleep(0.2)


def test_an_event_from_the_form_to_the_results(browser, server):
    errors: list[str] = []
    org_ctx = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server.base)
    guest_ctx = browser.new_context(viewport={"width": 390, "height": 844}, base_url=server.base)
    try:
        org, guest = org_ctx.new_page(), guest_ctx.new_page()
        for p in (org, guest):
            p.on("pageerror", lambda e: errors.append(str(e)))
        sign_up(org_ctx, server.base, "organiser")

        org.goto("/")
        org.click("#events-link")
        org.wait_for_url("**/events")
        org.wait_for_function("() => !document.getElementById('ev-create').disabled")
        org.fill("#ev-title", "Tuesday duplicate")
        org.fill("#ev-tables", "2")
        org.select_option("#ev-players", "3")
        org.select_option("#ev-schedule", "custom")
        org.fill("#ev-sizes", "1, 2")
        org.select_option("#ev-bot", "heuristic")
        org.click("#ev-create")
        org.wait_for_url(re.compile(r".*/events/[A-Za-z0-9_-]+$"))
        event_id = org.url.rsplit("/", 1)[1]
        wait_text(org, "#ev-summary", "Open for entries")
        assert org.locator("#commitments li").count() == 2
        assert org.locator("#seed").inner_text().startswith("secret")
        assert org.locator("#ev-start").is_visible()

        # bad input is said on the form, and nothing is made
        org.goto("/events")
        org.wait_for_function("() => !document.getElementById('ev-create').disabled")
        org.select_option("#ev-schedule", "custom")
        org.fill("#ev-sizes", "0")
        org.click("#ev-create")
        wait_text(org, "#create-error", "A hand size is a whole number from 1 to 13 with 4 players")
        assert org.locator("#event-list tbody tr").count() == 1
        assert org.locator("#event-list tbody tr a").inner_text() == "Tuesday duplicate"

        guest.goto(f"/events/{event_id}")
        guest.wait_for_selector("button.take")
        assert guest.locator("#ev-controls").is_hidden()   # not the organiser
        guest.fill("#guest-name", "Gus")
        guest.click("button.take[data-table='1'][data-seat='1']")
        wait_text(guest, "#seats-note, #ev-error", "You hold seat 2 of table 2")
        guest.click("#leave")   # given up, then taken again
        wait_text(guest, "#seats-note, #ev-error", "Take an empty seat")
        guest.wait_for_selector("#guest-name")
        guest.click("button.take[data-table='1'][data-seat='1']")
        wait_text(guest, "#seats-note, #ev-error", "You hold seat 2 of table 2")
        assert guest.locator("button.take").count() == 0
        assert sideways_overflow(guest) == []

        org.goto(f"/events/{event_id}")
        wait_text(org, "#seats", "Gus")
        org.click("#ev-start")
        wait_text(org, "#ev-summary", "Being played")
        wait_text(guest, "#live", "Play at your table")
        table_id = guest.locator("#live a.play-link").get_attribute("href").rsplit("/", 1)[1]
        token = guest.evaluate(f"() => localStorage.getItem('ohhell.seat.{table_id}')")
        assert token, "the guest's seat token was not handed to the table page"
        results = guest.locator("main").inner_text()
        assert not CARD.search(results.split("The deals")[0]), "a card on the page while the event runs"
        # the other table plays the guest's cards: the guest's event page has no link to it, and
        # its table page (opened anyway) says why it cannot be watched, showing nothing of it
        wait_text(org, "#live", "Table 2")
        other_id = org.locator("#live li").first.locator("a").first.get_attribute("href").rsplit("/", 1)[1]
        assert other_id != table_id
        assert guest.locator(f"#live a[href='/t/{other_id}']").count() == 0
        assert "Watch" not in guest.locator("#live li").first.inner_text()
        peek = guest_ctx.new_page()
        peek.on("pageerror", lambda e: errors.append(str(e)))
        assert peek.goto(f"/t/{other_id}").status == 403
        peek.wait_for_selector("#refused")
        said = peek.locator("#refused").inner_text()
        assert "Not while the event is running" in said and "You play at table 2 of this duplicate event" in said
        assert not CARD.search(peek.locator("main").inner_text()) and peek.locator(".card").count() == 0
        assert axe_problems(peek) == []
        peek.close()

        first_hand, go_on = threading.Event(), threading.Event()
        held: list[str] = []

        async def play():   # the guest plays with the token the event page stored for the table page
            c = Client(server.ws_url, table_id, token)
            await c.connect()
            assert c.state["you"]["seat"] == 1
            # the first hand only: the second, dealt now, waits for the guest (still connected,
            # so no away timer runs) while the page is looked at
            while c.view is None or c.view["hand_index"] == 0:
                v = c.view
                if v is not None and v["legal"]:
                    n = c.state["game"]["n"]
                    await c.send({"type": "act", "action": v["legal"][0]})
                    await c.wait(lambda m: m["type"] == "error" or (m["type"] == "state" and m["game"]
                                                                    and m["game"]["n"] > n), timeout=30)
                else:
                    await c.recv(30)
            held.extend(c.view["hand"])
            first_hand.set()
            while not go_on.is_set():
                try:
                    await c.recv(0.2)   # (read the frames meanwhile: an unread pile is disconnected)
                except asyncio.TimeoutError:
                    pass
            await play_out([c], lambda c, v: v["legal"][0], timeout=90)
            await c.close()
        worker = threading.Thread(target=lambda: outcome.append(asyncio.run(play()) or "done"))
        outcome: list[str] = []   # Playwright's sync API runs a loop in this thread: play in another
        worker.start()
        try:
            assert first_hand.wait(90), "the guest's first hand did not finish"
            # hand by hand: the first hand is finished at every table (the bots' table is ahead),
            # the second is being played at the guest's: the page shows hand 1's results, exactly,
            # and no card (the second hand's are in the guest's hand, the first's deal too)
            assert len(held) == 2
            wait_text(guest, "#results-note", r"^1 of 2 hands finished at every table\.")
            ev = httpx.get(f"{server.base}/api/events/{event_id}").json()
            assert ev["status"] == "playing" and ev["results"]["hands_done"] == 1 and not ev["revealed"]
            [hand] = ev["results"]["hands"]
            games = [server.manager.tables[tb["id"]].game for tb in ev["live"]]
            assert [g.hand_index for g in games if not g.is_over] == [1]   # the guest's table, in hand 2
            for tb, g in zip(hand["tables"], games):   # the server's figures are the games' own
                first = g.past_hands[0]
                assert [(x["bid"], x["tricks"], x["score"]) for x in tb] == \
                    list(zip(first.bids, first.tricks_won, first.scores))
            for page in (guest, org):
                if page is org:
                    wait_text(org, "#results-note", r"^1 of 2 hands finished at every table\.")
                tables = page.locator("#hands table")
                assert tables.count() == 1
                assert tables.locator("caption").inner_text() == "Hand 1 (1 card)"
                for t, seats in enumerate(hand["tables"]):
                    row = tables.locator("tbody tr").nth(t)
                    assert row.locator("th").inner_text() == f"Table {t + 1}"
                    assert row.locator("td").all_inner_texts() == [
                        f"bid {x['bid']}, won {x['tricks']}: {x['score']} point{'' if x['score'] == 1 else 's'}"
                        f" · {x['mp']:g} MP" for x in seats]
                assert tables.locator("tbody tr").count() == 2
                assert page.locator("#hands .deal").count() == 0
                assert page.locator("#ranking tbody tr").count() == 6
                text = page.locator("main").inner_text()
                assert not CARD.search(text), f"a card on the page while the event runs: {CARD.search(text)[0]}"
                assert "Gus" in page.locator("#ranking").inner_text()
                # the tables in progress: the guest's table is one hand in, the bots' table ahead
                # of it (playing its second hand, or finished); the server counts the same
                live = {tb["table"]: tb for tb in ev["live"]}
                assert live[1]["hands_finished"] == 1 and live[0]["hands_finished"] >= 1
                lines = wait_text(page, "#live li", r"Table 2 · playing, 1 of 2 hands done")
                assert re.search(r"Table 1 · (playing, 1 of 2 hands done|finished)", lines), lines
        finally:
            go_on.set()
            worker.join(120)
        assert outcome == ["done"], "the guest's game did not finish"

        wait_text(guest, "#ev-summary", "Over", timeout=90)
        wait_text(guest, "#seed", "^[0-9a-f]{32}$")
        seed = guest.locator("#seed").inner_text()
        shown = guest.locator("#commitments li").all_inner_texts()
        assert shown == [dealing.commitment(dealing.hand_key(seed, k)) for k in range(2)]
        assert hashlib.sha256(dealing.hand_key(seed, 0)).hexdigest() == shown[0]
        assert guest.locator("#ranking tbody tr").count() == 6
        assert "Gus" in guest.locator("#ranking").inner_text()
        assert guest.locator("#hands table").count() == 2
        assert "the same at every table" in guest.locator("#hands").inner_text()
        assert sideways_overflow(guest) == []
        if os.environ.get("OHHELL_SCREENSHOTS") == "docs":
            org.goto(f"/events/{event_id}")
            wait_text(org, "#seed", "^[0-9a-f]{32}$")
            org.screenshot(path=str(ROOT / "docs" / "event.png"), full_page=True)
        assert axe_problems(guest) == []
        assert axe_problems(org) == []
        guest.set_viewport_size({"width": 320, "height": 800})
        guest.goto("/events")
        guest.wait_for_selector("#event-list tbody tr")
        assert sideways_overflow(guest) == [] and axe_problems(guest) == []
        assert errors == []
    finally:
        org_ctx.close()
        guest_ctx.close()
