"""The hand panel in a narrow terminal: a long suit wraps onto more rows, and no card is cut off."""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult

from ohhell.tui.play import PLAY_CSS
from ohhell.tui.widgets import CardWidget, HandPanel

SPADES = [39 + r for r in range(13)]          # all thirteen spades
HAND = sum(1 << c for c in SPADES) | 1 << 0 | 1 << 13   # and the 2 of clubs and of diamonds


class HandApp(App):
    CSS = PLAY_CSS

    def compose(self) -> ComposeResult:
        yield HandPanel(id="hand")


def _rows(app) -> list[list[int]]:
    panel = app.query_one(HandPanel)
    return [[w.card for w in row.query(CardWidget)] for row in panel.query(".suit-row")]


def _all_visible(app) -> bool:
    width = app.screen.size.width
    return all(0 <= w.region.x and w.region.right <= width and w.region.width == 4
               for w in app.query(CardWidget))


def test_a_long_suit_wraps_in_a_narrow_terminal_and_unwraps_when_it_widens():
    async def main():
        app = HandApp()
        async with app.run_test(size=(40, 20)) as pilot:
            panel = app.query_one(HandPanel)
            await panel.show(HAND, 3, legal=SPADES[:3])
            await pilot.pause()
            rows = _rows(app)
            assert sum(len(r) for r in rows) == 15 and len(rows) > 3          # spades on several rows
            assert sorted(c for r in rows[:-2] for c in r) == SPADES           # trump first, in order
            assert [c for r in rows[:-2] for c in r] == sorted(SPADES, reverse=True)
            assert _all_visible(app)
            legal = {w.card for w in app.query(CardWidget) if w.has_class("legal")}
            assert legal == set(SPADES[:3])
            await pilot.resize_terminal(120, 20)
            await pilot.pause()
            await pilot.pause()
            rows = _rows(app)
            assert [len(r) for r in rows] == [13, 1, 1] and _all_visible(app)
            await pilot.resize_terminal(40, 20)
            await pilot.pause()
            await pilot.pause()
            assert len(_rows(app)) > 3 and _all_visible(app)
    asyncio.run(main())
