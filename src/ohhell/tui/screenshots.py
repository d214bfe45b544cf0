"""Make the screenshots in ``docs/`` (SVG): ``python -m ohhell.tui.screenshots docs``.

Every picture comes from a seeded game driven by Textual's pilot, so running
this again gives the same pictures.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile

from .. import bots as botlib
from ..rules import Rules
from ..scoresheet import ScoreSheet
from .play import GameOverScreen, PlayApp, PlayOptions, default_settings
from .replay import ReplayScreen
from .score import ScoreApp, settings_for

__all__ = ["make_screenshots"]

SIZE = (120, 36)


async def _play(folder: str, tmp: str) -> None:
    rules = Rules(4, hook=True)
    bot = "heuristic" if "heuristic" in botlib.names() else "random"
    you = botlib.make(bot, seed="docs:you")   # plays your seat, for a plausible picture
    settings = default_settings(rules, ["You", "Ada", "Bo", "Cy"], [None, bot, bot, bot], dealer=0)
    app = PlayApp(settings, PlayOptions(delay=0, save_path=os.path.join(tmp, "game.json"),
                                        pause_after_hand=False, seed="docs"), setup=False)
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        assert table is not None
        while True:
            await pilot.pause()
            if table.game.is_over:
                raise RuntimeError("the game ended before the picture could be taken")
            if not table.human_may_act:
                continue
            v = table.view
            if v.hand_index >= 5 and v.phase == "play" and len(v.trick.cards) >= 2:
                break
            await table.choose(you.act(v))
        await pilot.pause()
        app.save_screenshot("terminal-play.svg", folder)
        while not isinstance(app.screen, GameOverScreen):
            await pilot.pause()
            if table.human_may_act:
                await table.choose(you.act(table.view))
        await pilot.pause()
        await pilot.pause()
        app.save_screenshot("terminal-game-over.svg", folder)
        over = app.screen
        over.analysis_samples = 40          # "Analyse this game", quickly
        await pilot.press("a")
        while not isinstance(app.screen, ReplayScreen):
            await pilot.pause(0.05)
        await pilot.press("m")
        await pilot.press("m")
        await pilot.pause()
        app.save_screenshot("terminal-replay-coach.svg", folder)
        await pilot.press("a")
        await pilot.pause()
        app.save_screenshot("terminal-replay-summary.svg", folder)


async def _score(folder: str, tmp: str) -> None:
    rules = Rules(5, hook=True)
    sheet = ScoreSheet(rules, ["Alice", "Bruno", "Chen", "Dana", "Emil"], first_dealer=2)
    results = [([0, 1, 1, 0, 0], [0, 1, 0, 0, 0]), ([1, 0, 1, 1, 0], [1, 0, 1, 0, 0]),
               ([1, 1, 0, 2, 1], [1, 1, 0, 1, 0]), ([2, 0, 1, 1, 1], [2, 0, 1, 1, 0])]
    for bids, won in results:
        for s in sheet.order():
            sheet.enter_bid(bids[s])
        for s in sheet.order():
            sheet.enter_tricks(won[s])
    sheet.enter_bid(2)
    sheet.enter_bid(1)
    path = os.path.join(tmp, "scoresheet.json")
    sheet.save(path)
    app = ScoreApp(path, settings_for(rules, None, None), sheet=ScoreSheet.load(path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.pause()
        app.save_screenshot("terminal-score.svg", folder)


def make_screenshots(folder: str) -> list[str]:
    """Write the screenshots into ``folder``; returns their paths."""
    folder = os.path.abspath(folder)
    os.makedirs(folder, exist_ok=True)
    home = os.environ.get("HOME")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["HOME"] = tmp   # so the pictures show ~/... rather than a temporary folder
        try:
            asyncio.run(_play(folder, tmp))
            asyncio.run(_score(folder, tmp))
        finally:
            if home is None:
                os.environ.pop("HOME", None)
            else:
                os.environ["HOME"] = home
    return [os.path.join(folder, f) for f in ("terminal-play.svg", "terminal-game-over.svg",
                                                     "terminal-replay-coach.svg", "terminal-replay-summary.svg",
                                                     "terminal-score.svg")]


if __name__ == "__main__":  # pragma: no cover
    for path in make_screenshots(sys.argv[1] if len(sys.argv) > 1 else "docs"):
        print(path)
