"""``ohhell score`` driven by Textual's pilot: a whole session, bad input, corrections, crash and resume."""

from __future__ import annotations

import asyncio
import json

from textual.widgets import Input

from ohhell import Rules
from ohhell.scoresheet import ScoreSheet
from ohhell.tui.play import MessageScreen
from ohhell.tui.score import EditHandScreen, ScoreApp, SheetOverScreen, SheetScreen, settings_for
from ohhell.tui.setup import SetupScreen
from ohhell.tui.widgets import ChartView

SIZE = (120, 44)


async def type_line(pilot, app, text: str) -> None:
    entry = app.screen.query_one("#entry", Input)
    entry.focus()
    entry.value = text
    await pilot.press("enter")
    await pilot.pause()


def message(app, text_of) -> str:
    return text_of(app)


def test_a_whole_scorekeeping_session_with_mistakes_corrections_and_a_crash(tmp_path, text_of, until):
    path = tmp_path / "sheet.json"
    rules = Rules(3, hand_sizes=[2, 3], hook=True, missed_bid_scores_tricks=True, no_trump="never")

    async def first_part():
        app = ScoreApp(str(path), settings_for(rules, ["Ann", "Bob", "Cat"], 0), setup=True)
        async with app.run_test(size=SIZE) as pilot:
            assert isinstance(app.screen, SetupScreen)
            await pilot.click("#start")
            await until(pilot, lambda: isinstance(app.screen, SheetScreen))
            text = text_of(app)
            assert ("Hand 1 of 2: Ann deals 2 cards each; Bob bids first and leads; the dealer turns the next "
                    "card for trump") in text
            assert "Bid of Bob (0 to 2)" in text
            assert path.exists()                                        # saved before the first entry
            before = ScoreSheet.load(path)
            await type_line(pilot, app, "x")
            assert "'x' is not a bid: type a whole number from 0 to 2 (or ? for the commands)." in text_of(app)
            await type_line(pilot, app, "5")
            assert "a bid is 0 to 2 in this hand, not 5" in text_of(app)
            await type_line(pilot, app, "1.")
            assert "'1.' is not a bid" in text_of(app)
            assert app.sheet == before and ScoreSheet.load(path) == before
            await type_line(pilot, app, "1")                             # Bob
            await pilot.click("#quick-0")                                 # Cat, with the mouse
            assert app.sheet.bids() == (None, 1, 0)
            text = text_of(app)
            assert "Ann deals and, with the hook, may not bid 1: the bids would total 2, the number of tricks" in text
            await until(pilot, lambda: [b.id for b in app.screen.query(".quick-button")] == ["quick-0", "quick-2"])
            await type_line(pilot, app, "1")
            assert "with the hook, may not bid 1" in text_of(app)
            assert app.sheet.bids() == (None, 1, 0)
            await type_line(pilot, app, "2")                             # Ann
            assert "Tricks won by Bob" in text_of(app)
            await type_line(pilot, app, "2")                             # Bob
            await type_line(pilot, app, "1")
            assert "Cat cannot have won 1: the tricks would add up to 3, but this hand has only 2" in text_of(app)
            await type_line(pilot, app, "0")                             # Cat
            await type_line(pilot, app, "1")
            assert "Ann cannot have won 1: the tricks would add up to 3" in text_of(app)
            await type_line(pilot, app, "0")                             # Ann: hand 1 is scored
            assert "Hand 1 scored: Ann +0, Bob +2, Cat +10" in text_of(app)   # a missed bid scores its tricks
            assert ScoreSheet.load(path).totals == (0, 2, 10)
            await type_line(pilot, app, "u")                             # take back Ann's 0
            assert "Taken back: hand 1: Ann won 0." in text_of(app)
            assert app.sheet.hand_index == 0 and app.sheet.tricks_won(0) == (None, 2, 0)
            await type_line(pilot, app, "0")
            await type_line(pilot, app, "t qh")
            assert "Trump card noted: QH." in text_of(app)
            await type_line(pilot, app, "1")                             # hand 2: Cat bids first
            # the terminal is closed here, in the middle of hand 2: nothing may be lost
        return app.sheet

    sheet = asyncio.run(first_part())
    saved = ScoreSheet.load(path)
    assert saved == sheet
    assert saved.hand_index == 1 and saved.bids(1) == (None, None, 1)
    assert str(saved.trump_card(1)) == "QH"

    async def second_part():
        app = ScoreApp(str(path), settings_for(rules, None, None), sheet=ScoreSheet.load(path))
        async with app.run_test(size=SIZE) as pilot:
            assert isinstance(app.screen, SheetScreen)
            assert "Bid of Ann" in text_of(app)                          # resumed at the right entry
            await pilot.press("f3")
            await until(pilot, lambda: isinstance(app.screen, MessageScreen))
            assert "bids total 1 of 3 tricks (2 under)" in text_of(app)
            await pilot.press("enter")
            for value in ("1", "0", "1", "1", "1"):                      # Ann, Bob bid; Cat, Ann, Bob won
                await type_line(pilot, app, value)
            await until(pilot, lambda: isinstance(app.screen, SheetOverScreen))
            text = text_of(app)
            assert "Final standings" in text and "Scores over the hands" in text
            chart = app.screen.query_one(ChartView)
            assert chart.series == [[0, 0, 11], [0, 2, 3], [0, 10, 21]]
            assert "Cat wins!" in text
            await pilot.press("e")                                       # back to the sheet to correct
            await until(pilot, lambda: isinstance(app.screen, SheetScreen))
            await type_line(pilot, app, "e 1")
            await until(pilot, lambda: isinstance(app.screen, EditHandScreen))
            edit = app.screen
            edit.query_one("#edit-won-0", Input).value = "1"             # Ann won 1, not 0 ...
            await pilot.press("ctrl+s")
            assert "the tricks won add up to 3, but the hand has 2" in text_of(app)
            edit.query_one("#edit-won-1", Input).value = "1"             # ... and Bob 1, not 2
            edit.query_one("#edit-bid-2", Input).value = "one"
            await pilot.press("ctrl+s")
            assert "hand 1, Cat: 'one' is not a bid" in text_of(app)
            edit.query_one("#edit-bid-2", Input).value = "0"
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, (SheetScreen, SheetOverScreen)))
            assert app.sheet.scores(0) == (1, 11, 10)
            assert app.sheet.totals == (12, 12, 21)
            assert ScoreSheet.load(path).totals == (12, 12, 21)
        return app.sheet

    final = asyncio.run(second_part())
    data = json.loads(path.read_text())
    assert data["format"] == "ohhell.scoresheet" and data["winners"] == [2]
    assert final.is_over


def test_commands_and_names(tmp_path, text_of, until):
    path = tmp_path / "s.json"
    rules = Rules(4, hand_sizes=[1, 13])

    async def main():
        app = ScoreApp(str(path), settings_for(rules, ["Ann", "Bob", "Cat", "Dan"], 3), setup=False)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SheetScreen))
            assert "Hand 1 of 2: Dan deals 1 card each; Ann bids first" in text_of(app)
            await type_line(pilot, app, "?")
            await until(pilot, lambda: isinstance(app.screen, MessageScreen))
            assert "take back the last entry" in text_of(app)
            await pilot.press("escape")
            await type_line(pilot, app, "name 2 Bert")
            assert "Bob is now Bert." in text_of(app) and app.sheet.names[1] == "Bert"
            await type_line(pilot, app, "name 2 Ann")
            assert "two players are called 'Ann'" in text_of(app)
            await type_line(pilot, app, "e 2")
            assert "Give a hand number from 1 to 1." in text_of(app)
            await type_line(pilot, app, "e")
            assert "Nothing has been entered in hand 1 yet." in text_of(app)
            await type_line(pilot, app, "u")
            assert "nothing to take back" in text_of(app)
            await type_line(pilot, app, "frobnicate")
            assert "'frobnicate' is not a bid" in text_of(app)
            for value in ("0", "0", "0", "0", "1", "0", "0", "0"):
                await type_line(pilot, app, value)
            text = text_of(app)
            assert "no trump: the deal uses the whole deck" in text
            await type_line(pilot, app, "t 2c")
            assert "hand 2 turns no card for trump" in text_of(app)
            assert ScoreSheet.load(path).names[1] == "Bert"
            await type_line(pilot, app, "rule missed on")
            assert app.sheet.rules.missed_bid_scores_tricks and "Rules now:" in text_of(app)
            assert "Totals: Ann 10→0" not in text_of(app)
            await type_line(pilot, app, "rule bogus on")
            assert "Write: rule hook|missed|zero on|off." in text_of(app)
            await type_line(pilot, app, "dealer 9")
            assert "Write: dealer N" in text_of(app)
            await pilot.press("f5")
            await until(pilot, lambda: isinstance(app.screen, MessageScreen))
            text = text_of(app)
            assert "Totals under every scoring variant" in text and "made 0 scores 5 + hand size" in text
            await pilot.press("escape")
            assert ScoreSheet.load(path).rules.missed_bid_scores_tricks
            await pilot.press("ctrl+q")

    asyncio.run(main())


def test_starting_a_new_sheet_keeps_the_old_file(tmp_path, until):
    path = tmp_path / "s.json"
    old = ScoreSheet(Rules(3, hand_sizes=[1]), ["A", "B", "C"])
    old.enter_bid(1)
    old.save(path)

    async def main():
        app = ScoreApp(str(path), settings_for(Rules(3), ["X", "Y", "Z"], 1), setup=False)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SheetScreen))
            await pilot.press("ctrl+q")

    asyncio.run(main())
    files = sorted(p.name for p in tmp_path.iterdir())
    kept = [f for f in files if f.startswith("s-") and f.endswith(".json")]
    assert len(files) == 2 and "s.json" in files and len(kept) == 1
    assert ScoreSheet.load(tmp_path / kept[0]) == old
    assert ScoreSheet.load(path).names == ["X", "Y", "Z"] and ScoreSheet.load(path).plan(0).dealer == 1
