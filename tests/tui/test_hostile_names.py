"""Issue 18: names (and other user text) that look like markup are shown as they are, never read
as markup, by every terminal tool; huge numbers and killed saves do no harm."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

from textual.widgets import Input

from ohhell import Game, Rules, bots
from ohhell.scoresheet import ScoreSheet, atomic_write_text
from ohhell.tui.play import MessageScreen
from ohhell.tui.replay import ReplayApp, load_file
from ohhell.tui.score import ScoreApp, SheetScreen, settings_for

SIZE = (140, 50)
HOSTILE = ["[/]", "[@click=app.quit]X[/]", "[b]Bold", "Dee[red]"]


def _played(names, seed=3) -> Game:
    g = Game(Rules(len(names), hand_sizes=[2, 1]), seed=seed, names=names)
    return bots.play_game(g, [bots.make("random", seed=f"{seed}:{s}") for s in range(len(names))])


def test_replay_shows_markup_like_names_as_they_are(tmp_path, text_of):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_played(HOSTILE).record()))

    async def main():
        app = ReplayApp(load_file(str(path)), source=str(path))
        async with app.run_test(size=SIZE) as pilot:
            seen = text_of(app)
            for key in ("right", "down", "pagedown", "end", "c", "v"):
                await pilot.press(key)
                seen += text_of(app)
            await pilot.press("q")
        return seen
    seen = asyncio.run(main())
    for name in HOSTILE:
        assert name in seen, name


def test_replay_of_a_score_sheet_shows_markup_like_names_as_they_are(tmp_path, text_of):
    sheet = ScoreSheet(Rules(3, hand_sizes=[1, 2]), HOSTILE[:3])
    for v in (0, 0, 1, 1, 0, 0, 1):
        sheet.enter(v)
    path = tmp_path / "sheet.json"
    sheet.save(path)

    async def main():
        app = ReplayApp(load_file(str(path)), source=str(path))
        async with app.run_test(size=SIZE) as pilot:
            seen = text_of(app)
            for key in ("right", "c", "home"):
                await pilot.press(key)
                seen += text_of(app)
        return seen
    seen = asyncio.run(main())
    for name in HOSTILE[:3]:
        assert name in seen, name


def test_ohhell_replay_of_a_hostile_record_does_not_crash_and_fails_loudly_if_it_did(tmp_path):
    from ohhell.cli import main
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_played(HOSTILE).record()))

    class Boom(ReplayApp):
        def on_mount(self) -> None:
            raise RuntimeError("boom")
    import ohhell.tui.replay as replay_module
    original = replay_module.ReplayApp
    replay_module.ReplayApp = Boom
    try:
        code = main(["replay", str(path)])
    finally:
        replay_module.ReplayApp = original
    assert code != 0   # a crashed app is not a success


def _type(pilot, app, text):
    async def go():
        entry = app.screen.query_one("#entry", Input)
        entry.focus()
        entry.value = text
        await pilot.press("enter")
        await pilot.pause()
    return go()


def test_the_score_keeper_shows_markup_like_names_as_they_are(tmp_path, text_of, until):
    path = tmp_path / "sheet.json"
    names = HOSTILE[:3]

    async def main():
        app = ScoreApp(str(path), settings_for(Rules(3, hand_sizes=[1, 2]), names, 0), setup=False)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SheetScreen))
            seen = text_of(app)
            for entry in ("1", "0", "1", "1", "0", "9" * 5000, "e " + "9" * 5000, "dealer " + "9" * 5000,
                          "name " + "9" * 5000 + " x", "name 1 [/]", "b 1"):
                await _type(pilot, app, entry)
                seen += text_of(app)
            await pilot.press("enter")   # closes the bid table
            await pilot.press("f5")
            seen += text_of(app)
            await pilot.press("escape")
            for _ in range(40):   # play the sheet out: the end screen shows the names too
                if app.sheet.is_over:
                    break
                for value in ("0", "1", "2"):
                    before = app.sheet.dumps()
                    await _type(pilot, app, value)
                    if app.sheet.dumps() != before:
                        break
            await until(pilot, lambda: app.sheet.is_over and not isinstance(app.screen, SheetScreen))
            seen += text_of(app)
        return app, seen
    app, seen = asyncio.run(main())
    for name in names:
        assert name in seen, name
    assert "0 to 1" in seen   # the 5,000-digit bid: a clear answer
    assert ScoreSheet.load(path).names == tuple(names) or list(ScoreSheet.load(path).names) == names


def test_a_huge_number_is_a_clear_entry_error():
    from ohhell.scoresheet import EntryError, parse_count
    for text in ("9" * 5000, "²", "١"):
        try:
            parse_count(text, "bid", 3)
        except EntryError as e:
            assert "0 to 3" in str(e)
        else:
            raise AssertionError(f"{text[:10]!r} was accepted")


def test_killed_saves_leave_no_stray_temporary_files(tmp_path):
    path = tmp_path / "sheet.json"
    path.write_text("old")
    killer = ("import os, sys\nimport ohhell.scoresheet as s\n"
              "os.fsync = lambda fd: os._exit(9)   # killed in the middle of the save\n"
              "s.atomic_write_text(sys.argv[1], 'new')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for _ in range(5):
        p = subprocess.run([sys.executable, "-c", killer, str(path)], env=env)
        assert p.returncode == 9
    assert path.read_text() == "old"
    atomic_write_text(path, "newest")
    assert path.read_text() == "newest"
    assert sorted(os.listdir(tmp_path)) == ["sheet.json"], os.listdir(tmp_path)


def test_play_shows_markup_like_names_as_they_are(tmp_path, text_of):
    from ohhell.tui.play import GameOverScreen, PlayApp, PlayOptions, default_settings

    names = ["[/]", "[@click=app.quit]X[/]", "[b]Bold", "Dee[red]"]
    settings = default_settings(Rules(4, hand_sizes=[2, 1]), names, [None, "random", "random", "random"], dealer=0)
    you = bots.make("random", seed="you")

    async def main():
        app = PlayApp(settings, PlayOptions(delay=0, save_path=str(tmp_path / "game.json"), pause_after_hand=True,
                                            seed="names"), setup=False)
        seen = ""
        async with app.run_test(size=SIZE) as pilot:
            table = app.table
            for _ in range(2000):
                await pilot.pause()
                seen += text_of(app)
                if isinstance(app.screen, GameOverScreen):
                    break
                if isinstance(app.screen, MessageScreen):
                    await pilot.press("enter")   # the hand's result
                    continue
                if table.human_may_act:
                    await table.choose(you.act(table.view))
            seen += text_of(app)
            assert isinstance(app.screen, GameOverScreen)
        return seen
    seen = asyncio.run(main())
    for name in names:
        assert name in seen, name
