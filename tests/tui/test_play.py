"""``ohhell play`` driven by Textual's pilot: whole games, bad input, hints, take-backs, resuming."""

from __future__ import annotations

import asyncio
import json

import pytest

import ohhell
from ohhell import Bid, Game, Play, Rules
from ohhell.cards import CARDS
from ohhell.tui.play import (GameOverScreen, HintScreen, MessageScreen, PlayApp, PlayOptions, PlayScreen,
                             default_settings, load_saved_game, seats_of_record)
from ohhell.tui.render import rank_text
from ohhell.tui.setup import SetupScreen
from ohhell.tui.widgets import ChartView

SIZE = (120, 42)


def pretty(card: int) -> str:
    return rank_text(card) + "♣♦♥♠"[card // 13]


def hidden_cards(game: Game, human: int) -> set[str]:
    """The cards other seats hold now: none may ever be on the person's screen."""
    out = set()
    for s in range(game.players):
        if s != human:
            out |= {pretty(c) for c in game.hand(s)}
    return out


def make_app(tmp_path, rules, seats, *, delay=0.0, pause=False, game=None, hint_bot=None, names=None):
    names = names or ["You", "Ada", "Bo", "Cy", "Di", "Ed", "Flo"][:rules.players]
    options = PlayOptions(delay=delay, save_path=str(tmp_path / "game.json"), pause_after_hand=pause,
                          seed="test", hint_bot=hint_bot)
    settings = default_settings(rules, names, seats, dealer=0)
    resume = (game, seats) if game is not None else None
    return PlayApp(settings, options, setup=False, resume=resume)


async def human_turn(pilot, app, until):
    """Wait until the person may act (or the game is over / a box is open)."""
    scr = app.table
    await until(pilot, lambda: not scr.busy or not isinstance(app.screen, PlayScreen))
    await pilot.pause()


def test_a_whole_game_by_keyboard_and_mouse_hidden_cards_never_shown(tmp_path, until, text_of):
    rules = Rules(3, hand_sizes=[1, 2, 3], hook=True)

    async def main():
        app = make_app(tmp_path, rules, [None, "random", "random"], pause=True)
        async with app.run_test(size=SIZE) as pilot:
            scr = app.table
            results_seen = []
            typed = False
            for _ in range(300):
                await human_turn(pilot, app, until)
                if isinstance(app.screen, GameOverScreen):
                    break
                if isinstance(app.screen, MessageScreen):
                    text = text_of(app)
                    results_seen.append(text)
                    assert "Last trick:" in text
                    await pilot.press("enter")
                    continue
                g = scr.game
                assert not hidden_cards(g, 0) & set(text_of(app).replace("(", " ").split()), \
                    "another seat's card is on the screen"
                if not scr.human_may_act:
                    await pilot.pause(0.01)
                    continue
                v = scr.view
                if v.phase == "bid":
                    bid = v.legal_actions()[-1].tricks
                    await pilot.press(str(bid))
                    await until(pilot, lambda: g.bids[0] is not None or g.hand_index != v.hand_index)
                else:
                    card = v.legal_actions()[0].card
                    before = g.action_count
                    if typed:
                        r = "t" if card % 13 == 8 else rank_text(card).lower()
                        await pilot.press(r, "cdhs"[card // 13])
                    else:
                        assert await pilot.click(f"#card-{card}")
                    typed = not typed
                    await until(pilot, lambda: g.action_count > before)
            assert isinstance(app.screen, GameOverScreen)
            text = text_of(app)
            assert "Final standings" in text and "Scores over the hands" in text
            for name in ("You", "Ada", "Bo"):
                assert name in text
            chart = app.screen.query_one(ChartView)
            assert [len(s) for s in chart.series] == [4, 4, 4]          # the start and three hands
            assert [s[-1] for s in chart.series] == list(scr.game.totals)
            assert [("Hand %d of 3" % k) in t for k, t in enumerate(results_seen, 1)] == [True] * 3
            rec = json.loads((tmp_path / "game.json").read_text())
            assert rec["seats"] == ["human", "random", "random"]
            again = Game.from_record(rec)
            assert again.is_over and again.totals == scr.game.totals
            assert "game.json" in text
            history = (tmp_path / "history.jsonl").read_text().splitlines()
            assert len(history) == 1 and Game.from_record(history[0]).totals == scr.game.totals
            await pilot.press("q")

    asyncio.run(main())


def _deal_game(rules, dealer, deal, trump):
    return Game.from_deal(rules, dealer=dealer, deal=deal, trump_card=trump, names=["You", "Ada", "Bo"])


def test_bad_input_is_explained_and_changes_nothing(tmp_path, test_bots, until, text_of):
    rules = Rules(3, hand_sizes=[2], no_trump="never")
    # Ada (seat 1) leads the 2 of clubs; you hold a club and must follow.
    game = _deal_game(rules, 0, [["4C", "AS"], ["2C", "3C"], ["5C", "6C"]], "2D")

    async def main():
        app = make_app(tmp_path, rules, [None, "first", "first"], game=game)
        async with app.run_test(size=SIZE) as pilot:
            scr = app.table
            g = scr.game
            await human_turn(pilot, app, until)
            assert scr.human_may_act and scr.view.phase == "bid"
            snapshot = g.fingerprint()
            await pilot.press("x")
            assert "'x' is not a bid: type a whole number from 0 to 2" in text_of(app)
            await pilot.press("7")
            assert "Bids are 0 to 2: this hand has 2 tricks." in text_of(app)
            assert g.fingerprint() == snapshot
            await pilot.press("1")
            await human_turn(pilot, app, until)
            assert g.bids == (1, 0, 0) and scr.view.phase == "play" and scr.human_may_act
            assert [str(c) for c in g.current_trick.cards] == ["2C", "5C"]
            snapshot = g.fingerprint()
            await pilot.press("a", "s")
            assert "You must follow suit: you hold clubs ♣." in text_of(app)
            assert await pilot.click("#card-AS")
            assert "You must follow suit" in text_of(app)
            await pilot.press("k", "h")
            assert "You do not hold K♥." in text_of(app)
            await pilot.press("z")
            assert "type a card as its rank then its suit" in text_of(app)
            await pilot.press("q", "x")
            assert "After the rank, type the suit" in text_of(app)
            assert g.fingerprint() == snapshot
            assert "illegal" in app.screen.query_one("#card-AS").classes
            assert "legal" in app.screen.query_one("#card-4C").classes
            await pilot.press("4", "c")
            await human_turn(pilot, app, until)
            assert g.tricks[0].winner == 2 and [str(c) for c in g.current_trick.cards] == ["6C"]
            await pilot.press("a", "s")       # now the ace may go: no club is left
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            assert g.totals == (0, 10, 0)

    asyncio.run(main())


def test_must_trump_and_the_hook_are_explained(tmp_path, test_bots, until, text_of):
    rules = Rules(3, hand_sizes=[2], no_trump="never", must_trump=True, hook=True)
    # You deal (seat 0) and bid last: Ada and Bo bid 0, so the hook forbids 2.
    game = _deal_game(rules, 0, [["2D", "AS"], ["2C", "3C"], ["5C", "6C"]], "3D")

    async def main():
        app = make_app(tmp_path, rules, [None, "first", "first"], game=game)
        async with app.run_test(size=SIZE) as pilot:
            scr = app.table
            g = scr.game
            await human_turn(pilot, app, until)
            assert g.bids == (None, 0, 0)
            text = text_of(app)
            assert "not 2: the hook (the bids may not total 2)" in text
            assert app.screen.query_one("#bid-2").disabled and not app.screen.query_one("#bid-1").disabled
            snapshot = g.fingerprint()
            await pilot.press("2")
            assert ("You deal and, with the hook, may not bid 2: the bids would total 2, the number of tricks."
                    in text_of(app))
            assert g.fingerprint() == snapshot
            assert await pilot.click("#bid-1")
            await human_turn(pilot, app, until)
            assert g.bids == (1, 0, 0)
            snapshot = g.fingerprint()
            await pilot.press("a", "s")
            assert "under must trump you must play a trump (diamonds ♦)" in text_of(app)
            assert g.fingerprint() == snapshot
            await pilot.press("2", "d")
            await until(pilot, lambda: len(g.tricks) == 1 or g.is_over)
            first = g.tricks[0] if g.tricks else g.past_hands[0].tricks[0]
            assert [str(c) for c in first.cards] == ["2C", "5C", "2D"] and first.winner == 0  # trumped

    asyncio.run(main())


def test_hint_shows_the_bots_numbers_and_enter_follows_it(tmp_path, test_bots, until, text_of):
    rules = Rules(3, hand_sizes=[2, 3])

    async def main():
        app = make_app(tmp_path, rules, [None, "first", "first"], hint_bot="oracle")
        async with app.run_test(size=SIZE) as pilot:
            scr = app.table
            g = scr.game
            await human_turn(pilot, app, until)
            assert scr.human_may_act and scr.view.phase == "bid"
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, HintScreen))
            text = text_of(app)
            assert "The oracle bot suggests: bid 2" in text
            assert "Expected score of each choice" in text and "2.00" in text and "1.50" in text
            assert "Chance of winning exactly k tricks" in text and "33%" in text
            assert "oracle reasoning" in text and "samples: 123" in text
            await pilot.press("enter")
            await until(pilot, lambda: g.bids[0] is not None)
            assert g.bids[0] == 2
            await human_turn(pilot, app, until)
            # a hint for a card, closed without following it
            if scr.human_may_act and scr.view.phase == "play":
                before = g.action_count
                await pilot.press("h")
                await until(pilot, lambda: isinstance(app.screen, HintScreen))
                assert "Estimated value of each card" in text_of(app)
                await pilot.press("escape")
                await pilot.pause()
                assert g.action_count == before and isinstance(app.screen, PlayScreen)

    asyncio.run(main())


def test_take_back_last_trick_and_not_your_turn(tmp_path, test_bots, until, text_of):
    rules = Rules(3, hand_sizes=[2, 3])

    async def main():
        app = make_app(tmp_path, rules, [None, "first", "first"])
        async with app.run_test(size=SIZE) as pilot:
            scr = app.table
            g = scr.game
            await human_turn(pilot, app, until)
            await pilot.press("u")
            assert "You have nothing to take back yet." in text_of(app)
            start = g.fingerprint()
            await pilot.press("1")
            await human_turn(pilot, app, until)
            assert g.bids[0] == 1 and g.action_count > 1
            await pilot.press("u")
            await human_turn(pilot, app, until)
            assert g.bids[0] is None and g.to_act == 0
            assert g.fingerprint() == start
            assert "You took back your last move." in text_of(app)
            rec = json.loads((tmp_path / "game.json").read_text())
            assert rec["hands"][0]["bids"][0] is None       # the save follows the take-back
            await pilot.press("l")
            assert "Last trick: none yet this hand." in text_of(app)
            await pilot.press("l")
            await pilot.press("question_mark")
            assert "hint: what the expert would do" in text_of(app)
            await pilot.press("escape")

    asyncio.run(main())

    async def slow():
        app = make_app(tmp_path, rules, [None, "first", "first"], delay=30)
        app.settings.dealer = 0
        async with app.run_test(size=SIZE) as pilot:
            scr = app.table
            await pilot.pause(0.05)
            assert scr.game.to_act == 1 and scr.busy        # Ada "thinks" for 30 seconds
            before = scr.game.fingerprint()
            await pilot.press("0")
            assert "Wait for your turn to bid." in text_of(app)
            assert "Ada is thinking" in text_of(app)
            assert scr.game.fingerprint() == before
            await pilot.press("ctrl+q")

    asyncio.run(slow())


def test_simultaneous_bids_stay_hidden_until_all_are_in(tmp_path, test_bots, until, text_of):
    rules = Rules(4, hand_sizes=[3], simultaneous_bidding=True, no_trump="never")

    async def main():
        app = make_app(tmp_path, rules, [None, "oracle", "oracle", "oracle"])
        async with app.run_test(size=SIZE) as pilot:
            scr = app.table
            g = scr.game
            await human_turn(pilot, app, until)
            assert [b is not None for b in g.bids] == [False, True, True, True]
            text = text_of(app)
            assert text.count("bid hidden") == 3
            assert "Ada bids (hidden until all are in)" in text
            assert scr.view.bids == (None, None, None, None)
            await pilot.press("0")
            await until(pilot, lambda: g.phase_name == "play")
            assert "Bids revealed: You 0, Ada 3, Bo 3, Cy 3" in text_of(app)

    asyncio.run(main())


def test_resume_a_saved_game_and_finish_it(tmp_path, test_bots, until, text_of):
    rules = Rules(3, hand_sizes=[1, 2])

    async def first_half():
        app = make_app(tmp_path, rules, [None, "first", "random"])
        async with app.run_test(size=SIZE) as pilot:
            scr = app.table
            await human_turn(pilot, app, until)
            await pilot.press("0")
            await human_turn(pilot, app, until)
            await pilot.press("ctrl+q")
        return scr.game

    part = asyncio.run(first_half())
    path = tmp_path / "game.json"
    game, seats = load_saved_game(str(path))
    assert seats == [None, "first", "random"]
    assert game.fingerprint()[3:] == part.fingerprint()[3:]
    saved_actions = list(game.actions())

    async def second_half():
        app = make_app(tmp_path, rules, seats, game=game)
        async with app.run_test(size=SIZE) as pilot:
            scr = app.table
            assert scr.game is game
            for _ in range(50):
                await human_turn(pilot, app, until)
                if isinstance(app.screen, GameOverScreen):
                    break
                if scr.human_may_act:
                    await scr.choose(scr.view.legal_actions()[0])
            assert isinstance(app.screen, GameOverScreen)
        return scr.game

    done = asyncio.run(second_half())
    assert list(done.actions())[:len(saved_actions)] == saved_actions
    assert Game.from_record(json.loads(path.read_text())).is_over


def test_a_new_game_keeps_an_unfinished_saved_one(tmp_path, test_bots, until):
    rules = Rules(3, hand_sizes=[1, 2])
    unfinished = Game(rules, seed=9, names=["You", "Ada", "Bo"])
    unfinished.apply(unfinished.legal_actions()[0])
    (tmp_path / "game.json").write_text(json.dumps(unfinished.record()))

    async def main():
        app = make_app(tmp_path, rules, [None, "first", "first"])
        async with app.run_test(size=SIZE) as pilot:
            await human_turn(pilot, app, until)
            await pilot.press("ctrl+q")

    asyncio.run(main())
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("game-")]
    assert len(kept) == 1
    assert Game.from_record(json.loads(kept[0].read_text())).fingerprint() == unfinished.fingerprint()
    assert Game.from_record(json.loads((tmp_path / "game.json").read_text())).seed == "test"


def test_saved_games_name_their_seats_and_sheets_are_refused(tmp_path):
    rec = Game(Rules(3, hand_sizes=[1]), seed=2).record()
    assert seats_of_record(rec, 3)[0] is None                 # a plain record: you take seat 1
    rec["seats"] = ["random", "human", "random"]
    assert seats_of_record(rec, 3) == ["random", None, "random"]
    rec["seats"] = ["human", "human", "random"]               # nonsense: fall back
    assert seats_of_record(rec, 3)[0] is None and seats_of_record(rec, 3).count(None) == 1
    from ohhell.scoresheet import ScoreSheet
    sheet = ScoreSheet(Rules(3, hand_sizes=[1]), ["A", "B", "C"])
    sheet.save(tmp_path / "s.json")
    with pytest.raises(ohhell.RecordError, match="is a score sheet"):
        load_saved_game(str(tmp_path / "s.json"))
    (tmp_path / "bad.json").write_text("{oops")
    with pytest.raises(ohhell.RecordError, match="is not JSON"):
        load_saved_game(str(tmp_path / "bad.json"))


def test_setup_screen_sets_every_variant_and_refuses_nonsense(tmp_path, test_bots, until, text_of):
    from textual.widgets import Checkbox as Switch, Input, Select

    async def main():
        options = PlayOptions(delay=0, save_path=str(tmp_path / "g.json"), pause_after_hand=False)
        app = PlayApp(default_settings(Rules(4)), options, setup=True)
        async with app.run_test(size=(120, 60)) as pilot:
            scr = app.screen
            assert isinstance(scr, SetupScreen)
            scr.query_one("#players", Select).value = 5
            await pilot.pause()
            assert scr.query_one("#seat-row-4").display and not scr.query_one("#seat-row-5").display
            scr.query_one("#preset", Select).value = "la-podrida"
            await pilot.pause()
            await pilot.pause()
            assert scr.query_one("#flag-must_trump", Switch).value is True
            scr.query_one("#flag-hook", Switch).value = True
            scr.query_one("#flag-simultaneous_bidding", Switch).value = True
            await pilot.pause()
            assert "hook cannot be combined with simultaneous bidding" in text_of(app)
            await pilot.click("#start")
            assert isinstance(app.screen, SetupScreen)
            scr.query_one("#flag-simultaneous_bidding", Switch).value = False
            scr.query_one("#schedule", Select).value = "custom"
            await pilot.pause()
            scr.query_one("#hand-sizes", Input).value = "1,x"
            await pilot.pause()
            assert "hand sizes must be whole numbers" in text_of(app)
            scr.query_one("#hand-sizes", Input).value = "1,2"
            scr.query_one("#name-2", Input).value = "Ada"
            await pilot.pause()
            await pilot.press("ctrl+s")
            assert isinstance(app.screen, SetupScreen)
            assert "two players are called 'Ada'" in text_of(app)
            scr.query_one("#name-2", Input).value = "Zed"
            for s in range(1, 5):
                scr.query_one(f"#bot-{s}", Select).value = "first"
            scr.query_one("#dealer", Select).value = 3
            await pilot.pause()
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, PlayScreen))
            g = app.table.game
            assert g.rules == Rules(5, hand_sizes=[1, 2], must_trump=True, hook=True)
            assert g.names[2] == "Zed" and g.dealer == 3
            assert app.table.seat_bots == [None, "first", "first", "first", "first"]

    asyncio.run(main())


def test_explain_illegal_covers_every_case():
    from ohhell.tui.render import explain_illegal
    g = Game.from_deal(Rules(3, hand_sizes=[1], no_trump="never", hook=True), dealer=2,
                       deal=[["AS"], ["2C"], ["3C"]], trump_card="4D")
    assert "Bids are 0 to 1" in explain_illegal(g.view(0), Bid(4))
    assert "Bid first" in explain_illegal(g.view(0), Play("AS"))
    assert "not your turn" in explain_illegal(g.view(1), Bid(0))
    g.apply(Bid(0)); g.apply(Bid(0))
    assert "with the hook, may not bid 1" in explain_illegal(g.view(2), Bid(1))
    g.apply(Bid(0))
    assert "The bidding is over" in explain_illegal(g.view(0), Bid(0))
    assert "You do not hold 2♣" in explain_illegal(g.view(0), Play(CARDS[0]))
    g.apply(Play("AS")); g.apply(Play("2C")); g.apply(Play("3C"))
    assert explain_illegal(g.view(0), Play("AS")) == "The game is over."
