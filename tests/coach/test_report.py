"""The analysis for people: the plain table and the standalone page, in a real browser."""

from __future__ import annotations

import os
import re

import pytest

from ohhell import Game, Rules
from ohhell.bots import make, play_game
from ohhell.coach import analyze_game
from ohhell.coach.report import action_words, html_report, mistake_words, text_report

CHROMIUM = "/usr/bin/chromium"
EVIL = '<script>alert("x")</script>&amp;'


@pytest.fixture(scope="module")
def analysis():
    g = Game(Rules(4, hand_sizes=[1, 3, 2]), seed=5, names=["Ann", EVIL, "Cat", "Dan"])
    play_game(g, [make("beginner", seed=s) for s in range(4)])
    return analyze_game(g, samples=20, seed=3)


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is needed: apt-get install chromium")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def test_the_text_report_names_every_seat_and_its_mistakes(analysis):
    text = text_report(analysis)
    for name in analysis.players:
        assert name in text
    for s in analysis.seats:
        for m in s["top"]:
            # the record keeps describe_mistake's text (cards as codes); people read it worded
            # from the data, cards as symbols: "hand 3, trick 1: played 4♥, Q♠ was best; ..."
            hand = analysis.hands[m["hand"]]
            d = next(d for d in hand["decisions"] if d["index"] == m["index"])
            said = mistake_words(hand, d)
            assert said in text
            english = m["text"]
            for card in {d["action"], d["best"]} if d["kind"] == "play" else ():
                english = english.replace(card, action_words(card, "play"))
            assert said == english
    assert "95% interval" in text
    assert "±" in text


def test_the_page_is_standalone_and_escapes_every_name(analysis):
    page = html_report(analysis, title=f"Analysis of {EVIL}")
    assert "<script>" not in page                  # the name is shown, never run
    assert "&lt;script&gt;" in page
    assert not re.search(r'(src|href)\s*=\s*"?(https?:)?//', page)   # no external asset
    assert page.count("<svg") == 3
    assert "tricks taken: " in page              # each bid with its trick distribution


def test_the_page_renders_in_a_browser(analysis, browser, tmp_path):
    path = tmp_path / "analysis.html"
    path.write_text(html_report(analysis, title=f"Analysis of {EVIL}"))
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(path.as_uri())
    assert page.title() == f"Analysis of {EVIL}"
    assert page.locator("svg.chart").count() == 3
    assert page.locator("svg.chart").first.bounding_box()["width"] > 300
    assert page.locator("details").count() == len(analysis.hands)
    page.locator("details summary").first.click()
    rows = page.locator("details").first.locator("tr")
    assert rows.count() == 1 + len(analysis.hands[0]["decisions"])
    assert EVIL in page.locator("table").first.inner_text()
    assert not errors and not dialogs
    page.close()


def _strip_errors(data):
    """An analysis as made before luck, skill, fall and each hand's points lost had errors."""
    import copy
    out = copy.deepcopy(data)
    for row in out["seats"]:
        for key in ("luck_se", "skill_se", "fall_se"):
            row.pop(key, None)
    for row in (r for h in out["hands"] for r in h["seats"]):
        for key in ("luck_se", "skill_se", "fall_se", "lost_se"):
            row.pop(key, None)
    return out


def test_every_estimate_in_the_table_and_the_page_has_its_interval():
    import json
    from pathlib import Path
    from ohhell.coach import GameAnalysis, analysis_of
    from ohhell.coach.evaluate import Z95
    from ohhell.coach.report import summary_rows
    from ohhell.i18n import format_number
    golden = json.loads((Path(__file__).resolve().parents[1] / "data" / "coach-golden-3.json").read_text())
    analysis = analysis_of(golden)
    pm = lambda se: f"± {format_number(Z95 * se, 1)}"
    rows = summary_rows(analysis)
    for s, row in zip(analysis.seats, rows):
        # fall is an estimate (it holds the sampled cards and play losses): always with ±
        assert row["fall"].endswith(pm(s["fall_se"]))
        # luck and skill where sampled (the later cards' gains), bare where exact (no mistake)
        for key in ("luck", "skill"):
            assert row[key].endswith(pm(s[f"{key}_se"])) if s[f"{key}_se"] else "±" not in row[key]
    assert any(s["luck_se"] for s in analysis.seats) and not all(s["luck_se"] for s in analysis.seats)
    text = text_report(analysis)
    for h in analysis.hands:                             # the hand table: each seat's loss with ±
        for r in h["seats"]:
            if r["lost_se"]:
                assert pm(r["lost_se"]) in text
            if r.get("luck_se"):
                assert f"({format_number(r['luck'], 1)} {pm(r['luck_se'])})" in text.replace("luck ", "")
    page = html_report(analysis)
    for row in rows:
        assert f"<td>{row['fall']}</td>" in page and f"<td>{row['luck']}</td>" in page
    # Analyses made before these errors were written still load and show, without ±.
    old = GameAnalysis.from_dict(_strip_errors(analysis.to_dict()))
    for row in summary_rows(old):
        assert "±" not in row["fall"] and "±" not in row["luck"] and "±" not in row["skill"]
    assert text_report(old) and html_report(old)
