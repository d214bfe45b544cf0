"""``ohhell replay``: stepping through records both ways, seat views, JSON Lines files, score sheets."""

from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import given, settings, strategies as st

from ohhell import Game, Rules, bots
from ohhell.errors import RecordError
from ohhell.scoresheet import ScoreSheet
from ohhell.tui.replay import ReplayApp, Replayer, ReplayScreen, SheetReplayScreen, load_file

SIZE = (120, 44)


def played(rules: Rules, seed) -> Game:
    g = Game(rules, seed=seed, names=["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"][:rules.players])
    return bots.play_game(g, [bots.make("random", seed=f"{seed}:{s}") for s in range(rules.players)])


@settings(max_examples=25, deadline=None)
@given(n=st.integers(3, 5), sizes=st.lists(st.integers(1, 4), min_size=1, max_size=3), seed=st.integers(0, 10**6),
       simultaneous=st.booleans(), steps=st.lists(st.sampled_from(["f", "b", "t", "T", "h", "H", "go"]),
                                                    max_size=30), data=st.data())
def test_stepping_both_ways_always_shows_the_state_after_exactly_pos_actions(n, sizes, seed, simultaneous, steps,
                                                                             data):
    rules = Rules(n, hand_sizes=sizes, simultaneous_bidding=simultaneous)
    final = played(rules, seed)
    rep = Replayer(final.record())
    # A record keeps simultaneous bids by seat, not in the order they were made.
    actions = list(Game.from_record(final.record()).actions())
    assert sorted(map(repr, rep.actions)) == sorted(map(repr, final.actions()))
    assert rep.actions == actions and rep.pos == 0
    for step in steps:
        if step == "f":
            rep.forward()
        elif step == "b":
            rep.back()
        elif step == "t":
            rep.next_trick()
        elif step == "T":
            rep.prev_trick()
        elif step == "h":
            rep.next_hand()
        elif step == "H":
            rep.prev_hand()
        else:
            rep.go(data.draw(st.integers(-3, len(actions) + 3)))
        assert 0 <= rep.pos <= len(actions)
        fresh = Game.from_record(final.record())
        for _ in range(len(actions) - rep.pos):
            fresh.undo()
        assert rep.game.fingerprint() == fresh.fingerprint()
    rep.go(len(actions))
    assert rep.game.record() == final.record()


def test_trick_and_hand_steps_stop_at_the_boundaries():
    final = played(Rules(3, hand_sizes=[2, 3]), 11)
    rep = Replayer(final.record())
    rep.next_trick()                           # the whole bidding of hand 1
    assert rep.pos == 3 and rep.game.phase_name == "play" and not rep.game.current_trick.cards
    rep.next_trick()
    assert rep.pos == 6 and len(rep.game.tricks) == 1 and not rep.game.current_trick.cards
    rep.next_hand()
    assert rep.pos == 9 and rep.game.hand_index == 1 and all(b is None for b in rep.game.bids)
    rep.prev_trick()
    assert rep.pos == 6
    rep.forward()
    rep.prev_hand()
    assert rep.pos == 0
    rep.go(10)
    rep.prev_hand()
    assert rep.pos == 9
    rep.prev_hand()
    assert rep.pos == 0
    rep.go(999)
    assert rep.pos == len(rep.actions) and rep.game.is_over
    assert not rep.forward()
    rep.go(-5)
    assert rep.pos == 0 and not rep.back()


def test_replay_app_keys_views_and_games_of_a_jsonl_file(tmp_path, text_of):
    games = [played(Rules(4, hand_sizes=[2, 3]), s) for s in (1, 2)]
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(g.record()) + "\n" for g in games))
    content = load_file(str(path))
    assert isinstance(content, list) and len(content) == 2

    async def main():
        app = ReplayApp(content, source=str(path))
        async with app.run_test(size=SIZE) as pilot:
            scr = app.screen
            assert isinstance(scr, ReplayScreen)
            g = scr.rep.game
            text = text_of(app)
            assert "Action 0 of" in text and "everyone's cards" in text and "game 1 of 2" in text
            for s in range(4):                         # everyone's hand is on show
                assert g.names[s] in text
            await pilot.press("right", "right")
            assert scr.rep.pos == 2 and "Action 2 of" in text_of(app)
            await pilot.press("left")
            assert scr.rep.pos == 1
            await pilot.press("down")                   # to the end of the bidding
            assert g.phase_name == "play" and scr.rep.pos == 4
            await pilot.press("pagedown")
            assert g.hand_index == 1 and "Hand 2 of 2" in text_of(app)
            await pilot.press("v")                      # only what Ann (seat 0) saw
            text = text_of(app)
            assert "what Ann saw" in text and "3 cards" in text
            for s in range(1, 4):
                for c in g.hand(s):
                    assert f"{c}" not in text.split()   # no other seat's card
            await pilot.press("end")
            assert g.is_over and "Game over." in text_of(app)
            await pilot.press("c")
            assert scr.query_one("#chart").display
            await pilot.press("full_stop")
            assert scr.index == 1 and scr.rep.pos == 0 and "game 2 of 2" in text_of(app)
            await pilot.press("full_stop")
            assert scr.index == 1
            await pilot.click("#r-next")
            assert scr.rep.pos == 1
            await pilot.press("home")
            assert scr.rep.pos == 0
            await pilot.press("q")

    asyncio.run(main())


def test_replay_of_a_score_sheet_goes_hand_by_hand(tmp_path, text_of):
    sheet = ScoreSheet(Rules(3, hand_sizes=[1, 2]), ["Ann", "Bob", "Cat"])
    for v in (0, 0, 1, 1, 0, 0):
        sheet.enter(v)
    sheet.enter(1)
    path = tmp_path / "sheet.json"
    sheet.save(path)
    content = load_file(str(path))
    assert content == sheet

    async def main():
        app = ReplayApp(content, source=str(path))
        async with app.run_test(size=SIZE) as pilot:
            scr = app.screen
            assert isinstance(scr, SheetReplayScreen)
            assert "Score sheet · hand 1 of 2 (2 entered)" in text_of(app)
            await pilot.press("right")
            assert scr.hand == 1 and "hand 2 of 2" in text_of(app)
            await pilot.press("right")
            assert scr.hand == 1
            await pilot.press("home")
            assert scr.hand == 0

    asyncio.run(main())


def test_load_file_errors(tmp_path):
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(RecordError, match="holds no record"):
        load_file(str(tmp_path / "empty.jsonl"))
    (tmp_path / "bad.jsonl").write_text('{"format": "ohhell.record"}\n{oops\n')
    with pytest.raises(RecordError, match="line 2: bad JSON"):
        load_file(str(tmp_path / "bad.jsonl"))
    rec = played(Rules(3, hand_sizes=[1]), 4).record()
    rec["hands"][0]["scores"] = [99, 0, 0]
    with pytest.raises(RecordError, match="hand 1: scores are"):
        Replayer(rec)
