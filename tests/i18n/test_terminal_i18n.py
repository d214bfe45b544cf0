"""The terminal and the command line in each language: the play and score apps driven by
Textual's pilot, ``ohhell --help`` by ``--lang`` and by ``LANG``, the reasons an action is
refused, ``ohhell rules``, the widths of the labels, the core's lazy Babel, and the recipe for
adding a language (docs/languages.md)."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ohhell import Game, Rules, i18n
from ohhell.actions import Play
from ohhell.cli import main
from ohhell.i18n import LANGUAGES, catalogs, translator, use_language
from ohhell.text import explain_illegal, suit_name

ROOT = Path(__file__).resolve().parents[2]
OTHERS = [lang for lang in LANGUAGES if lang != "en"]

_spec = importlib.util.spec_from_file_location("tui_helpers", ROOT / "tests" / "tui" / "conftest.py")
assert _spec and _spec.loader
_helpers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_helpers)
screen_text, wait_until = _helpers.screen_text, _helpers.wait_until


def words(lang: str, message: str, context: "str | None" = None) -> str:
    t = translator(lang)
    return t.pgettext(context, message) if context else t.gettext(message)


def check_screen(text: str, lang: str, messages: "list[str]") -> None:
    """Each message is on screen in ``lang``; in another language, its English is not
    (unless the translation keeps the English word, as a loanword)."""
    for message in messages:
        said = words(lang, message)
        assert said in text, f"{lang}: {said!r} (for {message!r}) is not on the screen:\n{text}"
        if lang != "en" and said != message and message not in said:
            assert message not in text, f"{lang}: the English {message!r} is still on the screen:\n{text}"


# --- the terminal game and the scorekeeper, in each language ----------------------------------

PLAY_SETUP = ["Players", "Your name", "First dealer", "Preset", "Schedule", "No trump", "Start", "Quit",
              "New game against bots"]
PLAY_TABLE = ["Your bid:", "Bids", "Scores", "player", "total", "Bidding",
              "bid/won (green: made) and the running total", "Press ? for the keys, h for a hint."]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_terminal_game_in_each_language(lang, tmp_path):
    from ohhell.tui.play import PlayApp, PlayOptions, default_settings
    from ohhell.tui.setup import SetupScreen
    from ohhell.tui.table import PlayScreen

    async def game() -> None:
        settings = default_settings(Rules(4, hand_sizes=[3, 2]), None, [None, "random", "random", "random"],
                                    dealer=3)
        app = PlayApp(settings, PlayOptions(delay=0, save_path=str(tmp_path / "game.json"), seed=5), setup=True)
        async with app.run_test(size=(140, 48)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
            await pilot.pause()
            setup = screen_text(app)
            check_screen(setup, lang, PLAY_SETUP)
            from textual.widgets import Input
            assert app.screen.query_one("#name-0", Input).value == words(lang, "You")   # the person's default name
            await pilot.click("#start")
            await wait_until(pilot, lambda: isinstance(app.screen, PlayScreen) and app.screen.human_may_act)
            await pilot.pause()
            table = screen_text(app)
            check_screen(table, lang, PLAY_TABLE)
            hand = translator(lang).gettext("Hand {n} of {count}").format(n=1, count=2)
            assert hand in table
            each = translator(lang).ngettext("{n} card each", "{n} cards each", 3).format(n=3)
            assert each in table
            # a bid out of range is refused in the language
            await pilot.press("9")
            await pilot.pause()
            refused = translator(lang).ngettext("Bids are 0 to {n}: this hand has {n} trick.",
                                                "Bids are 0 to {n}: this hand has {n} tricks.", 3).format(n=3)
            assert refused in screen_text(app)
            # the keys' help, and the footer's labels
            await pilot.press("?")
            await pilot.pause()
            assert words(lang, "Close (Enter)") in screen_text(app)
            await pilot.press("escape")
            labels = {a.binding.description for a in app.screen.active_bindings.values() if a.binding.show}
            assert words(lang, "Hint") in labels and words(lang, "Take back") in labels
            await pilot.press("ctrl+q")

    with use_language(lang):
        asyncio.run(game())


SCORE_SHEET = ["player", "Scores", "No hand scored yet.", "bid/won (green: made) and the running total"]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_scorekeeper_in_each_language(lang, tmp_path):
    from textual.widgets import Input

    from ohhell.tui.score import ScoreApp, SheetScreen, settings_for
    from ohhell.tui.setup import SetupScreen

    rules = Rules(3, hand_sizes=[2, 3], hook=True)
    t = translator(lang)

    async def session() -> None:
        app = ScoreApp(str(tmp_path / "sheet.json"), settings_for(rules, ["Ann", "Bob", "Cat"], 0), setup=True)
        async with app.run_test(size=(130, 46)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
            await pilot.pause()
            check_screen(screen_text(app), lang, ["Players", "First dealer", "New score sheet", "Start"])
            await pilot.click("#start")
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            await pilot.pause()
            text = screen_text(app)
            check_screen(text, lang, SCORE_SHEET)
            assert t.gettext("Bid of {name}").format(name="Bob") in text
            assert t.gettext("the dealer turns the next card for trump") in text
            entry = app.screen.query_one("#entry", Input)
            assert entry.placeholder == t.gettext("a number, or ? for commands")

            async def enter(typed: str) -> str:
                entry.focus()
                entry.value = typed
                await pilot.press("enter")
                await pilot.pause()
                return screen_text(app)
            assert t.gettext("{text!r} is not a bid: type a whole number from 0 to {n} (or ? for the commands).").format(
                text="x", n=2) in await enter("x")
            # the sheet's own refusal (the core's English message), worded again
            assert t.gettext("a bid is 0 to {n} in this hand, not {value}").format(n=2, value=5) in await enter("5")
            text = await enter("1")
            assert t.gettext("{name} bids {n}.").format(name="Bob", n=1) in text
            if lang != "en":
                assert "Bob bids 1." not in text and "Bid of Cat" not in text
            await pilot.press("ctrl+q")

    with use_language(lang):
        asyncio.run(session())


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_scorekeepers_rarer_refusals_in_each_language(lang, tmp_path):
    """A correction of an earlier hand whose tricks do not add up, a trump card that is no
    card, and one noted where the hand turns none: each refusal is the sheet's own reason
    (EntryError's code), worded in the language, and nothing changes."""
    from textual.widgets import Input, Static

    from ohhell.scoresheet import ScoreSheet
    from ohhell.text import entry_words
    from ohhell.tui.score import EditHandScreen, ScoreApp, SheetScreen, settings_for

    rules = Rules(4, hand_sizes=[1, 13])
    names = ["Ann", "Bob", "Cat", "Dan"]
    model = ScoreSheet(rules, names, 0)          # the same entries, to word the same refusals

    def reason(action) -> str:
        try:
            action()
        except Exception as e:   # EntryError
            with use_language(lang):
                return entry_words(e)  # type: ignore[arg-type]
        raise AssertionError("not refused")

    async def session() -> None:
        app = ScoreApp(str(tmp_path / "sheet.json"), settings_for(rules, names, 0), setup=False)
        async with app.run_test(size=(130, 46)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            entry = app.screen.query_one("#entry", Input)

            async def enter(typed: str) -> str:
                entry.focus()
                entry.value = typed
                await pilot.press("enter")
                await pilot.pause()
                return screen_text(app)
            for value in ("0", "0", "1", "0", "0", "0", "1", "0"):   # hand 1: bids, then tricks (Dan won it)
                await enter(value)
            for value in ("0", "0", "1", "0", "0", "0", "1", "0"):
                model.enter(value)
            sheet = app.screen.sheet
            before = sheet.to_dict()
            text = await enter("t zz")
            assert reason(lambda: model.set_trump_card("zz")) in text
            text = await enter("t 2C")                             # hand 2 deals the whole deck
            said = reason(lambda: model.set_trump_card("2C"))
            assert said in text
            await enter("e 1")
            await wait_until(pilot, lambda: isinstance(app.screen, EditHandScreen))
            app.screen.query_one("#edit-won-0", Input).value = "1"     # Ann too: two tricks in a hand of one
            await pilot.press("ctrl+s")
            await pilot.pause()
            shown = str(app.screen.query_one("#edit-error", Static).render())
            assert shown == reason(lambda: model.correct_tricks(0, 0, 1))
            if lang != "en":
                assert "add up" not in shown and "turns no card" not in text and "not a card" not in text
            await pilot.press("escape")
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            assert sheet.to_dict() == before
            await pilot.press("ctrl+q")

    with use_language(lang):
        asyncio.run(session())


@pytest.mark.parametrize("lang", ["ms", "mr"])
def test_the_setup_screen_says_why_the_hand_sizes_are_refused(lang, tmp_path):
    from textual.widgets import Input, Select, Static

    from ohhell.text import rules_words
    from ohhell.tui.play import PlayApp, PlayOptions, default_settings
    from ohhell.tui.setup import SetupScreen

    async def setup() -> None:
        settings = default_settings(Rules(4), None, [None, "random", "random", "random"], dealer=0)
        app = PlayApp(settings, PlayOptions(delay=0, save_path=str(tmp_path / "g.json"), seed=1), setup=True)
        async with app.run_test(size=(140, 48)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
            app.screen.query_one("#schedule", Select).value = "custom"
            await pilot.pause()
            app.screen.query_one("#hand-sizes", Input).value = "1,20"
            await pilot.pause()
            await pilot.pause()
            shown = str(app.screen.query_one("#setup-error", Static).render())
            try:
                Rules(4, hand_sizes=[1, 20])
            except Exception as e:
                want = rules_words(e)  # type: ignore[arg-type]
            assert shown == want and "too large" not in shown
            await pilot.press("ctrl+q")

    with use_language(lang):
        asyncio.run(setup())


# --- the command line -------------------------------------------------------------------------

@pytest.fixture
def no_locale(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)


def test_help_is_translated_by_lang(capsys, no_locale):
    with pytest.raises(SystemExit):
        main(["--lang", "eu", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("erabilera: ohhell")
    assert words("eu", "Oh Hell: play, keep score, run bots and study the game.") in out
    assert words("eu", "show the rules of Oh Hell (in the language of --lang)") in out
    assert "keep score for a game" not in out and "usage:" not in out
    assert i18n.get_language() == "en"          # main restores the language it set


def test_help_is_translated_by_the_environment():
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(LANG="mr_IN.UTF-8", PYTHONPATH=str(ROOT / "src"))
    run = subprocess.run([sys.executable, "-m", "ohhell.cli", "--help"], capture_output=True, text=True,
                         env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("वापर: ohhell")
    assert words("mr", "show this help message and exit") in run.stdout
    assert "show this help message" not in run.stdout


def test_a_subcommands_help_and_lang_after_it(capsys, no_locale):
    with pytest.raises(SystemExit):
        main(["play", "--lang", "sq", "--help"])
    out = capsys.readouterr().out
    assert words("sq", "your name (default: You)") in out
    assert words("sq", "rules (every field of a record's rules; see README)") in out


def test_an_unknown_language_is_refused_clearly(capsys, no_locale):
    assert main(["--lang", "xx", "play"]) == 2
    err = capsys.readouterr().err
    assert "unknown language 'xx'" in err
    for code, name in LANGUAGES.items():
        assert code in err and name in err
    assert "Traceback" not in err


@pytest.mark.parametrize("lang", ["ms", "MS", "ms_MY.UTF-8", "ms-MY"])
def test_lang_takes_locale_names(lang, capsys, no_locale):
    with pytest.raises(SystemExit):
        main(["--lang", lang, "--help"])
    assert capsys.readouterr().out.startswith(words("ms", "usage: "))


@pytest.fixture
def rules_texts(tmp_path, monkeypatch):
    from ohhell.i18n import rules as rules_module
    (tmp_path / "en.md").write_text("# The rules\n\nTrump beats every other suit.\n", encoding="utf-8")
    (tmp_path / "sq.md").write_text("# Rregullat\n\nAtuja mund çdo ngjyrë tjetër.\n", encoding="utf-8")
    monkeypatch.setattr(rules_module, "RULES_DIR", tmp_path)
    return tmp_path


def test_rules_prints_the_text_of_the_language(rules_texts, capsys, no_locale):
    assert main(["rules", "--lang", "sq"]) == 0
    assert capsys.readouterr().out == "# Rregullat\n\nAtuja mund çdo ngjyrë tjetër.\n"
    assert main(["--lang", "eu", "rules", "--plain"]) == 0           # no Basque text yet: the English
    assert "Trump beats every other suit." in capsys.readouterr().out


def test_rules_without_any_text_is_a_clear_error(rules_texts, capsys, no_locale):
    (rules_texts / "en.md").unlink()
    assert main(["rules", "--lang", "eu"]) == 2
    err = capsys.readouterr().err
    assert words("eu", "ohhell rules: the rules text is missing from this installation ({path})").format(
        path=rules_texts) in err


# --- what the core says -----------------------------------------------------------------------

def _must_follow_position():
    """A position where the seat to play holds the led suit and another suit."""
    for seed in range(200):
        game = Game(Rules(4, hand_sizes=[5]), seed=seed)
        while game.phase_name == "bid":
            game.apply(game.legal_actions()[0])
        game.apply(game.legal_actions()[0])                 # the lead
        view = game.view(game.to_act)
        led = view.trick.cards[0] // 13
        other = [c for c in view.hand if c // 13 != led]
        if other and any(c // 13 == led for c in view.hand):
            return view, Play(other[0]), led
    raise AssertionError("no position found")


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_refused_card_is_explained_naming_the_suit(lang):
    view, action, led = _must_follow_position()
    error = view.rejection(action)
    assert error is not None and error.code == "must_follow"
    with use_language(lang):
        said = explain_illegal(error, view.names)
        suit = suit_name(led)
    assert suit in said and "♣♦♥♠"[led] in said
    english = ("clubs", "diamonds", "hearts", "spades")[led]
    if lang == "en":
        assert said == f"You must follow suit: you hold {english} {'♣♦♥♠'[led]}."
    else:
        assert english not in said and suit != english


def test_suit_names_are_the_languages_own():
    assert [translator("mr").pgettext("suit", s) for s in ("clubs", "diamonds", "hearts", "spades")] == \
        ["किलवर", "चौकट", "बदाम", "इस्पिक"]
    assert translator("eu").pgettext("suit", "hearts") == "bihotzak"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_labels_fit_their_columns(lang):
    """The hand's suit labels fit the label column (Devanagari included: cell widths, not
    string lengths), and the setup screen's labels fit theirs."""
    from rich.cells import cell_len

    from ohhell.tui.setup import SETUP_CSS
    from ohhell.tui.widgets import LABEL_WIDTH
    setup_width = int(SETUP_CSS.split(".setup-label { width: ", 1)[1].split(";", 1)[0])
    t = translator(lang)
    for s in range(4):
        assert cell_len("♣ " + t.pgettext("suit", ("clubs", "diamonds", "hearts", "spades")[s])) <= LABEL_WIDTH
    assert cell_len("♣ " + t.gettext("trump")) <= LABEL_WIDTH
    for label in ("Players", "Your name", "First dealer", "Preset", "Schedule", "No trump"):
        assert cell_len(t.gettext(label)) < setup_width, label


def test_numbers_are_written_per_language_on_screen():
    from ohhell.tui.modals import percent
    from ohhell.tui.render import signed
    with use_language("eu"):
        assert percent(0.5) == "% 50" and signed(-1234) == "-1.234"
    with use_language("en"):
        assert percent(0.5) == "50%" and signed(12) == "+12" and signed(0) == "+0"


def test_the_core_needs_no_babel():
    """ohhell.text (the core) words its text through ohhell.i18n, which imports only the
    standard library: without Babel everything is English."""
    code = ("import sys; sys.modules['babel'] = None\n"
            "import ohhell, ohhell.text, ohhell.i18n\n"
            "from ohhell.errors import IllegalActionError\n"
            "ohhell.i18n.set_language('mr')\n"
            "e = IllegalActionError('x', code='must_follow', facts={'led': 2})\n"
            "print(ohhell.text.explain_illegal(e))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "You must follow suit: you hold hearts ♥."
    code = "import sys, ohhell, ohhell.text, ohhell.cli; print(sorted(m for m in sys.modules if m.startswith('babel')))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert run.stdout.strip() == "[]", run.stdout


def test_english_is_unchanged():
    from ohhell.text import describe_rules
    for rules in (Rules(4), Rules(5, hook=True, must_trump=True), Rules.preset("openspiel", players=3)):
        assert describe_rules(rules) == rules.describe()


# --- the recipe: adding a language (docs/languages.md, "Adding a language") -------------------

def test_adding_a_language_by_the_recipe(tmp_path, monkeypatch):
    import shutil
    shutil.copytree(i18n.LOCALE_DIR, tmp_path / "locale")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
    monkeypatch.setattr(catalogs, "LOCALE_DIR", tmp_path / "locale")
    monkeypatch.setitem(i18n.LANGUAGES, "de", "Deutsch")           # 1. the LANGUAGES entry
    i18n.translations.cache_clear()
    try:
        written = catalogs.init("de", ("ohhell",))                  # 2. scripts/i18n.py init de
        assert written == [tmp_path / "locale" / "de" / "LC_MESSAGES" / "ohhell.po"]
        found = [p for p in catalogs.problems(("ohhell",)) if p.startswith("de/")]   # 3. check
        assert found and all("is not translated" in p or "plural form" in p for p in found)
        from babel.messages.pofile import read_po, write_po
        path = written[0]
        with path.open("rb") as f:
            cat = read_po(f, locale="de")
        for m in cat:                                               # 4. translate (here: a stand-in)
            if m.id:
                m.string = ("Beenden" if m.id == "Quit" else
                            tuple(m.id) if not isinstance(m.id, str) else m.id)
        with path.open("wb") as f:
            write_po(f, cat, width=100)
        assert not [p for p in catalogs.problems(("ohhell",)) if p.startswith("de/")]
        with use_language("de"):                                     # 5. it speaks
            assert i18n._("Quit") == "Beenden"
    finally:
        i18n.translations.cache_clear()


def test_the_script_refuses_a_language_not_yet_listed():
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "i18n.py"), "init", "de"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "add 'de' to LANGUAGES" in run.stderr


# --- the coach: the replay's annotations and ohhell analyze's table --------------------------

GOLDEN = ROOT / "tests" / "data" / "coach-golden-3.json"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_replay_and_its_coach_in_each_language(lang):
    import json

    from ohhell.tui.coach import SummaryScreen
    from ohhell.tui.replay import ReplayApp

    record = json.loads(GOLDEN.read_text())
    d = record["analysis"]["hands"][0]["decisions"][1]         # Ann bid 1 where 0 was best: a mistake
    t = translator(lang)

    async def main() -> None:
        app = ReplayApp([record], position=2, source="golden")
        async with app.run_test(size=(130, 48)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            count = len(app.screen.rep.actions)
            for message in ("Coach:", "Best:", "MISTAKE", "Hand {n} points lost so far:", "Action {n} of {count}",
                            "showing everyone's cards", "Bids — hand {n}"):
                english = message.format(n=2 if message.startswith("Action") else 1, count=count)
                said = t.gettext(message).format(n=2 if message.startswith("Action") else 1, count=count)
                assert said in text, (message, said)
                if lang != "en" and said != english:
                    assert english not in text, english
            loss = t.gettext("lost {loss} ± {error} points").format(
                loss=t.number(d["loss"], 2), error=t.number(1.96 * d["loss_se"], 2))
            assert loss in text
            await pilot.press("a")
            await wait_until(pilot, lambda: isinstance(app.screen, SummaryScreen))
            await pilot.pause()
            summary = screen_text(app)
            assert t.gettext("Largest mistakes") in summary and t.gettext("luck") in summary
            await pilot.press("escape")
            await pilot.press("q")

    with use_language(lang):
        asyncio.run(main())


@pytest.mark.parametrize("lang", ["eu", "mr"])
def test_analyze_words_its_table(lang):
    import json

    from ohhell.coach import analysis_of
    from ohhell.coach.report import text_report
    a = analysis_of(json.loads(GOLDEN.read_text()))
    assert a is not None
    with use_language(lang):
        text = text_report(a)
    t = translator(lang)
    for message in ("lost bidding", "luck", "skill", "(each seat: bid/won score (luck) -points lost)"):
        assert t.gettext(message) in text
    assert "lost bidding" not in text and "each seat: bid/won" not in text


def test_marathi_in_a_real_terminal(tmp_path):
    """``ohhell --lang mr play`` in tmux: the Devanagari labels reach a real terminal and the
    game quits cleanly.  (Columns are not checked: tmux gives Devanagari's spacing vowel signs
    a cell each, rich none, so lines with them are pushed right; docs/languages.md says so.)"""
    spec = importlib.util.spec_from_file_location("tui_cli_tests", ROOT / "tests" / "tui" / "test_cli.py")
    assert spec and spec.loader
    cli_tests = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cli_tests)
    save = tmp_path / "game.json"
    env = dict(os.environ, OHHELL_HOME=str(tmp_path), TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8",
               PYTHONPATH=str(ROOT / "src"))
    cmd = [sys.executable, "-m", "ohhell.cli", "--lang", "mr", "play", "--start", "--players", "3",
           "--hand-sizes", "1,2", "--bots", "random", "--delay", "0", "--seed", "smoke", "--dealer", "3",
           "--save", str(save)]
    rc = tmp_path / "rc"
    q = cli_tests._quote
    tmux = cli_tests.Tmux(tmp_path, ["sh", "-c", " ".join(q(x) for x in cmd) + f"; echo $? > {q(str(rc))}"], env)
    t = translator("mr")
    try:
        screen = tmux.wait_for(t.gettext("Your bid:"))
        assert t.gettext("Hand {n} of {count}").format(n=1, count=2) in screen
        assert t.gettext("Bids — hand {n}").format(n=1) in screen and t.gettext("Scores") in screen
        assert "Your bid" not in screen and "Scores" not in screen
        tmux.keys("C-q")
        end = time.monotonic() + 30
        while not rc.exists():
            assert time.monotonic() < end, tmux.screen()
            time.sleep(0.1)
        assert rc.read_text().strip() == "0"
    finally:
        tmux.run("kill-server")


def test_the_html_report_in_a_language():
    import json

    from ohhell.coach import analysis_of
    from ohhell.coach.report import html_report
    a = analysis_of(json.loads(GOLDEN.read_text()))
    assert a is not None
    with use_language("sq"):
        page = html_report(a)
    t = translator("sq")
    assert '<html lang="sq">' in page
    for message in ("Game analysis", "Where the points went", "Every decision", "Largest mistakes"):
        assert t.gettext(message) in page
    assert "Where the points went" not in page and "Every decision" not in page
    with use_language("en"):
        assert '<html lang="en">' in html_report(a) and "Where the points went" in html_report(a)
