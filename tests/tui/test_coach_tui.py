"""The coach in the terminal: ``ohhell replay`` of an annotated record, and "Analyse this game"
on the game-over screen of ``ohhell play`` (Textual pilot)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from ohhell import Game, Rules, bots
from ohhell.coach import analysis_of
from ohhell.tui.coach import AnalysingScreen, SummaryScreen, analysis_path, flat_decisions, mistake_text
from ohhell.tui.play import GameOverScreen, PlayApp, PlayOptions, default_settings
from ohhell.tui.replay import ReplayApp, ReplayScreen

from .conftest import screen_text, wait_until

SIZE = (130, 48)
GOLDEN = Path(__file__).resolve().parent.parent / "data" / "coach-golden-3.json"


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads(GOLDEN.read_text())


def replay_screen(app) -> ReplayScreen:
    scr = app.screen
    assert isinstance(scr, ReplayScreen)
    return scr


def coach_text(app) -> str:
    from .conftest import _render
    scr = replay_screen(app)
    return _render(scr.query_one("#hand-loss").content) + _render(scr.query_one("#coach").content)


def test_the_replay_shows_a_known_decisions_annotation(golden):
    # Hand 1, decision 2: Ann bid 1 where 0 was best (it cost 6.08 ± 1.96·1.393 points).
    d = golden["analysis"]["hands"][0]["decisions"][1]
    assert (d["seat"], d["action"], d["best"], d["mistake"]) == (0, 1, 0, True)

    async def main():
        app = ReplayApp([golden], position=2, source="golden")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            text = coach_text(app)
            assert "Coach: Ann (hand 1) bid 1" in text
            assert "Best: bid 0" in text
            assert f"lost {d['loss']:.2f} ± {1.96 * d['loss_se']:.2f} points" in text
            assert "MISTAKE" in text
            for v in d["values"]:                         # every legal bid, with its value
                assert re.search(rf"bid {v['action']}\b.*{v['mean']:.2f}", text), v
            assert "Hand 1 points lost so far:" in text
            # The annotation follows the replay: one step back, Cat's bid 0 was the best.
            await pilot.press("left")
            text = coach_text(app)
            assert "Coach: Cat (hand 1) bid 0" in text and "the best choice" in text
            assert "MISTAKE" not in text
            await pilot.press("q")

    asyncio.run(main())


def test_next_and_previous_mistake_keys(golden):
    a = analysis_of(golden)
    marks = [i + 1 for i, (_, d) in enumerate(flat_decisions(a)) if d["mistake"]]
    assert len(marks) >= 3

    async def main():
        app = ReplayApp([golden], source="golden")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            scr = replay_screen(app)
            seen = []
            for _ in marks:
                await pilot.press("m")
                seen.append(scr.rep.pos)
                assert "MISTAKE" in coach_text(app)
            assert seen == marks
            await pilot.press("m")                    # none after the last: it stays, and says so
            assert scr.rep.pos == marks[-1]
            await pilot.press("M")
            assert scr.rep.pos == marks[-2]
            # In one seat's view, only that seat's mistakes are visited.
            scr.seat = 1
            scr.rep.go(0)
            await pilot.press("m")
            bob = [p for p in marks if flat_decisions(a)[p - 1][1]["seat"] == 1]
            assert scr.rep.pos == bob[0]
            await pilot.press("q")

    asyncio.run(main())


def test_no_score_is_shown_before_the_replay_reaches_it(golden):
    a = analysis_of(golden)
    first_hand = [r["score"] for r in a.hands[0]["seats"]]
    totals = [s["score"] for s in a.seats]
    assert first_hand != totals

    def row_scores(text: str) -> list[str]:
        return [re.match(rf"{name}\s+(\S+)", line).group(1)
                for name in a.players for line in text.splitlines() if re.match(rf"{name}\s", line)]

    async def main():
        app = ReplayApp([golden], source="golden")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            scr = replay_screen(app)
            await pilot.press("a")
            assert isinstance(app.screen, SummaryScreen)
            text = screen_text(app)
            assert "replayed so far" in text
            assert row_scores(text) == ["–"] * 3           # no hand finished: no score at all
            await pilot.press("escape")
            await pilot.press("pagedown")                  # the start of hand 2
            assert len(scr.rep.game.past_hands) == 1
            await pilot.press("a")
            text = screen_text(app)
            assert row_scores(text) == [str(x) for x in first_hand]
            await pilot.press("escape")
            await pilot.press("end")
            await pilot.press("a")
            text = screen_text(app)
            assert "replayed so far" not in text
            assert row_scores(text) == [str(x) for x in totals]
            for h, d in a.mistakes(top=5):                # the top mistakes, in words
                assert mistake_text(h, d).plain in text
            assert "played Q♣, 2♠ was best" in text
            await pilot.press("escape")
            await pilot.press("q")

    asyncio.run(main())


def test_one_seats_view_does_not_annotate_the_others_decisions(golden):
    a = analysis_of(golden)
    flat = flat_decisions(a)
    # A card another seat played: its analysis would list that seat's legal cards.
    pos = next(i + 1 for i, (_, d) in enumerate(flat) if d["kind"] == "play" and d["seat"] != 0
               and len(d.get("values", [])) > 1)

    async def main():
        app = ReplayApp([golden], seat=0, position=pos, source="golden")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            text = coach_text(app)
            assert "would tell you their cards" in text
            assert "Expected score" not in text
            await pilot.press("q")

    asyncio.run(main())


def test_a_record_without_analysis_replays_as_before(tmp_path):
    g = Game(Rules(3, hand_sizes=[2]), seed=3, names=["Ann", "Bob", "Cat"])
    bots.play_game(g, [bots.make("random", seed=s) for s in range(3)])

    async def main():
        app = ReplayApp([g.record()], source="plain")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            scr = replay_screen(app)
            assert not scr.query_one("#coach-box").display
            await pilot.press("m")                      # says there is no analysis; nothing moves
            assert scr.rep.pos == 0
            await pilot.press("q")

    asyncio.run(main())


def test_a_mismatched_analysis_is_said_not_shown(golden):
    rec = json.loads(json.dumps(golden))
    rec["analysis"]["hands"] = rec["analysis"]["hands"][:1]

    async def main():
        app = ReplayApp([rec], source="bad")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "does not match its game" in coach_text(app)
            await pilot.press("q")

    asyncio.run(main())


def test_the_game_over_offer_analyses_saves_and_opens_the_replay(tmp_path):
    rules = Rules(3, hand_sizes=[1, 2], hook=True)
    seats = [None, "random", "random"]
    game = Game(rules, seed=5, names=["You", "Ada", "Bo"])
    bots.play_game(game, [bots.make("random", seed=s) for s in range(3)])
    save = tmp_path / "game.json"
    options = PlayOptions(delay=0.0, save_path=str(save), seed="test")
    app = PlayApp(default_settings(rules, ["You", "Ada", "Bo"], seats, dealer=0), options, setup=False,
                  resume=(game, seats))

    async def main():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            over = app.screen
            over.analysis_samples = 12
            assert "Analyse this game (a)" in screen_text(app)
            await pilot.press("a")
            await wait_until(pilot, lambda: isinstance(app.screen, (AnalysingScreen, ReplayScreen)))
            await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), timeout=60)
            scr = app.screen
            assert scr.analysis is not None and len(scr._decisions) == len(scr.rep.actions)
            await pilot.press("m")
            await pilot.press("end")
            assert "Coach:" in coach_text(app)
            await pilot.press("q")                     # back to the game-over screen, not out of the app
            assert app.screen is over
            assert "game.analysis.json" in screen_text(app)
            await pilot.press("a")                     # already analysed: opens at once
            assert isinstance(app.screen, ReplayScreen)
            await pilot.press("q")
            await pilot.press("q")

    asyncio.run(main())
    out = Path(analysis_path(str(save)))
    assert out.exists()
    rec = json.loads(out.read_text())
    assert Game.from_record(rec).totals == game.totals
    assert analysis_of(rec).settings["samples"] == 12


def test_cancelling_the_analysis_keeps_the_game_over_screen(tmp_path):
    rules = Rules(3, hand_sizes=[3, 3, 3])
    seats = [None, "random", "random"]
    game = Game(rules, seed=6, names=["You", "Ada", "Bo"])
    bots.play_game(game, [bots.make("random", seed=s) for s in range(3)])
    options = PlayOptions(delay=0.0, save_path=str(tmp_path / "g.json"), seed="test")
    app = PlayApp(default_settings(rules, ["You", "Ada", "Bo"], seats, dealer=0), options, setup=False,
                  resume=(game, seats))

    async def main():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            over = app.screen
            over.analysis_samples = 4000                # slow enough to cancel
            await pilot.press("a")
            await wait_until(pilot, lambda: isinstance(app.screen, AnalysingScreen))
            await pilot.pause(0.2)
            await pilot.press("escape")
            assert app.screen is over and over.annotated is None
            await pilot.pause(0.3)
            await pilot.press("q")

    asyncio.run(main())
    assert not Path(analysis_path(str(tmp_path / "g.json"))).exists()


def test_replay_analyze_annotates_saves_and_opens(tmp_path, monkeypatch, capsys):
    from ohhell.cli import main
    from ohhell.tui import replay as replay_mod

    g = Game(Rules(3, hand_sizes=[2]), seed=8, names=["Ann", "Bob", "Cat"])
    bots.play_game(g, [bots.make("random", seed=s) for s in range(3)])
    path = tmp_path / "g.json"
    path.write_text(json.dumps(g.record()))
    opened = []
    monkeypatch.setattr(replay_mod.ReplayApp, "run", lambda self: opened.append(self.content))
    assert main(["replay", str(path), "--analyze", "--samples", "8"]) == 0
    (rec,) = opened[0]
    assert analysis_of(rec).settings["samples"] == 8
    saved = json.loads((tmp_path / "g.analysis.json").read_text())
    assert saved == rec and Game.from_record(saved).totals == g.totals
    assert "g.analysis.json" in capsys.readouterr().err
    # Bad settings and score sheets are refused with a message, nothing written.
    with pytest.raises(SystemExit):
        main(["replay", str(path), "--analyze", "--samples", "0"])
    assert "at least 1" in capsys.readouterr().err
    sheet = tmp_path / "sheet.json"
    from ohhell.scoresheet import ScoreSheet
    ScoreSheet(Rules(3), ["A", "B", "C"]).save(str(sheet))
    assert main(["replay", str(sheet), "--analyze"]) == 2
    assert "score sheet" in capsys.readouterr().err


def test_no_annotation_shows_a_card_hidden_from_the_seat_shown(golden):
    """At every position and in every seat's view, the coach panel names only cards that seat
    may see: its own, and those already played."""
    from ohhell.tui.render import card_text

    async def main():
        app = ReplayApp([golden], source="golden")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            scr = replay_screen(app)
            n = scr.rep.game.players
            for seat in range(n):
                scr.seat = seat
                for pos in range(len(scr.rep.actions) + 1):
                    scr.rep.go(pos)
                    scr.refresh_replay()
                    g = scr.rep.game
                    if g.is_over:
                        continue
                    hidden = {card_text(c).plain for s in range(n) if s != seat for c in g.hand(s)}
                    words = set(coach_text(app).replace(",", " ").replace("(", " ").split())
                    assert not hidden & words, (seat, pos, hidden & words)
            await pilot.press("q")

    asyncio.run(main())


def test_the_summary_and_the_hand_losses_give_every_estimate_its_interval(golden):
    # Luck, skill and fall are estimates (docs/coach.md): each with its 95% interval, where it
    # was sampled; a seat that made no mistake has its luck exact, with no interval.
    a = analysis_of(golden)
    bob = a.seats[1]
    assert bob["luck_se"] > 0 and a.seats[0]["luck_se"] == 0

    def pm(x: float, se: float, sign: bool = False) -> str:
        text = (f"{x:+.1f}" if sign else f"{x:.1f}")
        return f"{text} ± {1.96 * se:.1f}"

    async def main():
        app = ReplayApp([golden], source="golden")
        async with app.run_test(size=(150, 48)) as pilot:
            await pilot.pause()
            await pilot.press("end")
            await pilot.press("a")
            text = screen_text(app)
            assert pm(bob["luck"], bob["luck_se"]) in text
            assert pm(bob["skill"], bob["skill_se"], sign=True) in text
            for s in a.seats:
                assert pm(s["fall"], s["fall_se"], sign=True) in text
                assert pm(s["cards"], s["cards_se"]) in text
            assert "± is a 95% interval (sampling)." in text
            await pilot.press("escape")
            await pilot.press("home")
            await pilot.press("right")
            await pilot.press("right")      # Ann's bid, hand 1: her points lost with their interval
            d = a.hands[0]["decisions"][1]
            assert f"Ann {d['loss']:.1f} ± {1.96 * d['loss_se']:.1f}" in coach_text(app)
            await pilot.press("q")

    asyncio.run(main())
