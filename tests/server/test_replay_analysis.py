"""The replay's Analysis panel in a real browser (Debian's chromium under Playwright): a
progress bar while the server analyses the game, then the chart of scores beside expected
scores, the points lost per hand and the mistake notes, each shown only up to the replay's
step (like the scores); keyboard use, no sideways scroll, axe clean.

Set ``OHHELL_SCREENSHOTS=docs`` to refresh ``docs/replay-analysis.png``.
"""

from __future__ import annotations

import os
import time
from decimal import ROUND_HALF_UP, Decimal

import httpx
import pytest

from serverkit import ROOT, WIDTHS, ThreadServer, axe_problems, sideways_overflow


def one_decimal(x: float) -> str:
    """``x`` to one decimal as the page writes it (JavaScript's ``toFixed``: a tie, such as
    7.25 exactly, goes up, where Python's format goes to the even digit)."""
    value = Decimal(abs(x)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return ("-" if x < 0 and value else "") + str(value)

SHOTS = os.environ.get("OHHELL_SCREENSHOTS")


@pytest.fixture(scope="module")
def server():
    with ThreadServer(analysis_samples=6) as srv:
        yield srv


@pytest.fixture(scope="module")
def held(server):
    """A finished all-bot game whose analysis is held at its start (the worker paused as if
    the bots needed the CPU) until the test lets it go."""
    jobs = server.app.state.analyses
    jobs.pool.on_load = None          # the bots' load no longer moves the pause ...
    jobs._go.clear()                  # ... which the test holds
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"},
             {"kind": "bot", "bot": "random"}]
    t = server.create({"players": 3, "hand_sizes": [2, 3, 2]}, seats, title="Analysis check")
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.base}/api/tables/{t['id']}/games/1/record").status_code != 200:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    return t["id"], server.record(t["id"]), jobs


def new_page(browser, width: int, errors: list):
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.on("pageerror", lambda e: errors.append(f"{width}px: {e}"))
    page.on("console", lambda m: errors.append(f"{width}px console: {m.text}") if m.type == "error" else None)
    return page


def test_progress_then_the_chart_and_the_mistakes_each_only_up_to_the_step(browser, server, held):
    table_id, record, jobs = held
    errors: list = []
    page = new_page(browser, 1280, errors)
    page.goto(f"{server.base}/t/{table_id}/replay/1")
    # While the analysis waits: a progress bar, no chart.
    page.wait_for_selector("#analysis-progress:visible")
    # A function, not a bare expression: Playwright evaluates a function's text once, where the
    # page's CSP allows it, and re-evaluates a bare expression on every poll (refused: no
    # 'unsafe-eval').
    page.wait_for_function("() => document.getElementById('analysis-state').textContent.includes('Analysing')")
    assert "bots at live tables come first" in page.inner_text("#analysis-detail")
    assert page.is_hidden("#analysis-ready")
    jobs._go.set()                    # the bots are done: the analysis runs
    page.wait_for_selector("#analysis-ready:visible", timeout=60000)
    assert page.is_hidden("#analysis-wait")
    analysis = httpx.get(f"{server.base}/api/tables/{table_id}/games/1/analysis").json()["analysis"]

    # Step 1: nothing scored, so no chart lines and no lost points yet.
    page.evaluate("window.ohhellReplay.show(0)")
    assert page.locator("#analysis-chart svg").count() == 0
    assert "No hand has been scored" in page.inner_text("#analysis-lost")

    # After hand 1 is scored: one hand in the chart and the table, hand 1's figures only.
    steps = page.evaluate("window.ohhellReplay.steps")
    per_hand = 1 + 3 + 3 * 2 + 1       # start, 3 bids, 6 cards, scored
    page.evaluate(f"window.ohhellReplay.show({per_hand - 1})")
    label = page.get_attribute("#analysis-chart svg", "aria-label")
    assert "after 1 hand:" in label
    first = analysis["hands"][0]["seats"]
    for s, name in enumerate(record["players"]):
        assert f"{name} {first[s]['score']} (expected {one_decimal(first[s]['cards'])})" in label
    assert page.locator("#lost-table tbody tr").count() == 1
    # The chart: a solid score line and a dashed expected one per player, each 2 points long.
    assert page.locator("#analysis-chart polyline.score").count() == 3
    assert page.locator("#analysis-chart polyline.expected").count() == 3
    pts = page.get_attribute("#analysis-chart polyline.score", "points").split()
    assert len(pts) == 2

    # At the end: every hand, and every mistake listed and marked.
    page.evaluate(f"window.ohhellReplay.show({steps - 1})")
    assert page.locator("#lost-table tbody tr").count() == 3
    # Every sampled figure with its 95% interval: each seat's points lost per hand and in all,
    # and its expected score (docs/coach.md).
    cells = page.locator("#lost-table tbody td")
    for i, r in enumerate(r for h in analysis["hands"] for r in h["seats"]):
        assert ("±" in cells.nth(i).inner_text()) == (1.96 * r["lost_se"] >= 0.05)
    foot = page.locator("#lost-table tfoot tr")
    expected_cells = foot.nth(1).locator("td")
    for s in range(3):
        rows = [h["seats"][s] for h in analysis["hands"]]
        lost_se = sum(r["lost_se"] ** 2 for r in rows) ** 0.5
        cards_se = sum(r["cards_se"] ** 2 for r in rows) ** 0.5    # 0 where every sample agreed
        assert ("±" in foot.nth(0).locator("td").nth(s).inner_text()) == (1.96 * lost_se >= 0.05)
        text = expected_cells.nth(s).inner_text()
        assert " / " in text and (" ± " in text) == (1.96 * cards_se >= 0.05)
    assert "±" in page.inner_text("#lost-table tfoot")
    mistakes = [(h, d) for h in analysis["hands"] for d in h["decisions"] if d["mistake"]]
    assert page.locator("#mistake-marks .mark").count() == len(mistakes)
    items = page.locator("#mistake-list li button.linkish")
    assert items.count() == len(mistakes)
    if mistakes:
        # Going to a mistake's step shows its note there, in words, with the better action.
        items.first.focus()
        page.keyboard.press("Enter")
        note = page.inner_text("#mistake-note")
        assert note.startswith("Mistake: ") and " was best (cost " in note and " points)" in note
        at = page.evaluate("window.ohhellReplay.at")
        # Earlier, that mistake is neither listed nor noted; the next-mistake button leads to it.
        page.evaluate(f"window.ohhellReplay.show({at - 1})")
        assert page.locator("#mistake-list li button.linkish").count() == 0 or \
            page.locator(f"#mistake-list button[data-step='{at}']").count() == 0
        assert page.is_hidden("#mistake-note")
        page.focus("#next-mistake")
        page.keyboard.press("Enter")
        assert page.evaluate("window.ohhellReplay.at") == at
    assert errors == []
    page.context.close()


def test_the_analysis_panel_fits_every_width_and_axe_finds_nothing_serious(browser, server, held):
    table_id, record, jobs = held
    jobs._go.set()
    errors: list = []
    for width in WIDTHS:
        page = new_page(browser, width, errors)
        steps = 3 * (1 + 3) + 3 * (2 + 3 + 2) + 3
        page.goto(f"{server.base}/t/{table_id}/replay/1#step={steps - 3}")
        page.wait_for_selector("#analysis-ready:visible", timeout=60000)
        assert sideways_overflow(page) == [], f"the replay's analysis at {width}px"
        if width in (390, 1280, 1920):
            assert axe_problems(page, "#analysis") == [], f"the analysis panel at {width}px"
        if width == 1280 and SHOTS:
            page.locator("#analysis").screenshot(path=str(ROOT / SHOTS / "replay-analysis.png"))
        page.context.close()
    assert errors == []
