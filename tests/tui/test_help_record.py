"""Help used at the terminal is recorded (the record's ``help``, as the server writes it), kept
across save and resume, and shown on the game-over standings and in ``ohhell replay``; the
replay also marks the seats bot accounts played (the record's ``account_bots``)."""

from __future__ import annotations

import asyncio
import json

from ohhell import Game, Rules
from ohhell.bots import make, play_game
from ohhell.tui.play import GameOverScreen, HintScreen, PlayApp, PlayOptions, PlayScreen, default_settings
from ohhell.tui.replay import ReplayApp
from ohhell.tui.saves import help_of_record, load_saved

from .conftest import _render

SIZE = (120, 42)
RULES = Rules(3, hand_sizes=[1, 2])


def make_app(tmp_path, resume=None):
    options = PlayOptions(delay=0.0, save_path=str(tmp_path / "game.json"), pause_after_hand=False,
                          seed="help", hint_bot="oracle")
    settings = default_settings(RULES, ["You", "Ada", "Bo"], [None, "first", "first"], dealer=0)
    return PlayApp(settings, options, setup=False, resume=resume)


async def human_turn(pilot, app, until):
    scr = app.table
    await until(pilot, lambda: not scr.busy or not isinstance(app.screen, PlayScreen))
    await pilot.pause()


def saved(tmp_path) -> dict:
    return json.loads((tmp_path / "game.json").read_text())


def test_hints_and_undos_are_counted_saved_resumed_and_shown(tmp_path, test_bots, until, text_of):
    async def first_half():
        app = make_app(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            scr = app.table
            await human_turn(pilot, app, until)
            assert saved(tmp_path)["help"] == [{"hints": 0, "undos": 0}] * 3   # allowed, none used
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, HintScreen))
            await pilot.press("escape")                 # a hint seen counts, followed or not
            await pilot.pause()
            await pilot.press("0")
            await human_turn(pilot, app, until)
            await pilot.press("u")                      # take the bid back
            await human_turn(pilot, app, until)
            assert scr.game.bids[0] is None
            await pilot.press("u")                      # nothing left to take back: not counted
            await pilot.pause()
            assert scr.help_used[0] == {"hints": 1, "undos": 1}
            assert saved(tmp_path)["help"] == [{"hints": 1, "undos": 1}, {"hints": 0, "undos": 0},
                                               {"hints": 0, "undos": 0}]
            await pilot.press("ctrl+q")

    asyncio.run(first_half())
    game, seats, help_used = load_saved(str(tmp_path / "game.json"))
    assert help_used[0] == {"hints": 1, "undos": 1}
    assert Game.from_record(saved(tmp_path)).fingerprint() == game.fingerprint()   # readers ignore it

    async def second_half():
        app = make_app(tmp_path, resume=(game, seats, help_used))
        async with app.run_test(size=SIZE) as pilot:
            scr = app.table
            await human_turn(pilot, app, until)
            await pilot.press("h")                      # the resumed game goes on counting
            await until(pilot, lambda: isinstance(app.screen, HintScreen))
            await pilot.press("enter")                  # and follows this one
            for _ in range(50):
                await human_turn(pilot, app, until)
                if isinstance(app.screen, GameOverScreen):
                    break
                if scr.human_may_act:
                    await scr.choose(scr.view.legal_actions()[0])
            assert isinstance(app.screen, GameOverScreen)
            text = text_of(app)
            assert "Help used: You: 2 hints, 1 undo" in text
            assert app.screen.record["help"][0] == {"hints": 2, "undos": 1}

    asyncio.run(second_half())
    rec = saved(tmp_path)
    assert rec["help"][0] == {"hints": 2, "undos": 1}
    history = [json.loads(x) for x in (tmp_path / "history.jsonl").read_text().splitlines()]
    assert history[-1]["help"][0] == {"hints": 2, "undos": 1}

    async def replay():
        app = ReplayApp([rec], source="game")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            note = _render(app.screen.query_one("#record-note").content)
            assert "Help used: You: 2 hints, 1 undo" in note
            await pilot.press("q")

    asyncio.run(replay())


def finished_record() -> dict:
    g = Game(RULES, seed=4, names=["Ann", "Bob", "Cat"])
    play_game(g, [make("random", seed=s) for s in range(3)])
    return g.record()


def test_the_replay_shows_a_web_games_help_and_marks_its_bot_accounts():
    rec = finished_record()
    rec["help"] = [{"hints": 0, "undos": 0}, {"hints": 3, "undos": 0}, {"hints": 0, "undos": 2}]
    rec["account_bots"] = [2]

    async def main():
        app = ReplayApp([rec], source="web game")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            scr = app.screen
            assert scr.query_one("#record-note").display
            note = _render(scr.query_one("#record-note").content)
            assert "Ann · Bob · Cat (bot)" in note and "a program playing through the bot API" in note
            assert "Help used: Bob: 3 hints, 0 undos; Cat: 0 hints, 2 undos" in note
            await pilot.press("q")

    asyncio.run(main())


def test_a_plain_record_or_nonsense_help_shows_no_note():
    plain = finished_record()
    odd = dict(plain, help=[{"hints": -1, "undos": "x"}, None, 7], account_bots=[9, "1", True])
    assert help_of_record(odd, 3) == [{"hints": 0, "undos": 0}] * 3

    async def main():
        for rec in (plain, odd, dict(plain, help=[{"hints": 0, "undos": 0}] * 3)):
            app = ReplayApp([rec], source="game")
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause()
                assert not app.screen.query_one("#record-note").display
                await pilot.press("q")

    asyncio.run(main())
