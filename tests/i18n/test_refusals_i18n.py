"""The refusals a player of the terminal meets, in each language: every reason the score
sheet gives (its ``code`` and facts, worded by :func:`ohhell.text.entry_words`, whose English
is the exception's own message), the rules' refusals, argparse's own messages on the command
line, the bots' descriptions of ``--list-bots``, and the largest mistakes of ``ohhell
analyze`` worded from the analysis's data."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from ohhell import Rules
from ohhell.cli import main
from ohhell.errors import RulesError
from ohhell.i18n import LANGUAGES, translator, use_language
from ohhell.scoresheet import EntryError, ScoreSheet, parse_count
from ohhell.text import entry_words, rules_words

ROOT = Path(__file__).resolve().parents[2]
OTHERS = [lang for lang in LANGUAGES if lang != "en"]
NAMES = ["Ann", "Bob", "Cat"]


def refused(action) -> EntryError:
    with pytest.raises(EntryError) as e:
        action()
    return e.value


def play_hand(sheet: ScoreSheet, bids, won) -> None:
    for s in sheet.order():
        sheet.enter_bid(bids[s])
    for s in sheet.order():
        sheet.enter_tricks(won[s])


def scenarios() -> dict[str, EntryError]:
    """One refusal of each kind the sheet gives, by a name that says what was tried."""
    out: dict[str, EntryError] = {}
    sheet = ScoreSheet(Rules(3, hand_sizes=[2, 2], hook=True), NAMES, first_dealer=0)
    out["a word for a bid"] = refused(lambda: sheet.enter("x"))
    out["nothing typed"] = refused(lambda: parse_count("", "number of tricks", 2))
    out["a bid too high"] = refused(lambda: sheet.enter("5"))
    out["no such hand"] = refused(lambda: sheet.plan(7))
    out["tricks before the bids"] = refused(lambda: sheet.enter_tricks(0))
    out["nothing to undo"] = refused(sheet.undo)
    out["no card"] = refused(lambda: sheet.set_trump_card("zz"))
    sheet.enter_bid(1)          # Bob
    sheet.enter_bid(0)          # Cat
    out["the hook"] = refused(lambda: sheet.enter_bid(1))   # Ann deals: 1 would make the bids total 2
    sheet.enter_bid(0)
    out["a bid when the tricks are asked"] = refused(lambda: sheet.check_bid(0))
    sheet.enter_tricks(1)       # Bob
    out["too many tricks"] = refused(lambda: sheet.enter_tricks(2))
    sheet.enter_tricks(0)       # Cat
    out["tricks that do not add up"] = refused(lambda: sheet.enter_tricks(0))
    sheet.enter_tricks(1)       # Ann: hand 1 scored
    out["a bid not entered yet"] = refused(lambda: sheet.correct_bid(1, 1, 1))
    out["too few values"] = refused(lambda: sheet.correct_hand(0, bids=[0, 0]))
    out["a value left out"] = refused(lambda: sheet.correct_hand(0, tricks_won=[None, 1, 0]))
    out["a bad value in a correction"] = refused(lambda: sheet.correct_bid(0, 2, "x"))
    out["a correction against the hook"] = refused(lambda: sheet.correct_bid(0, 2, 1))
    out["tricks that add up wrong"] = refused(lambda: sheet.correct_tricks(0, 2, 1))
    out["a hand not begun"] = refused(lambda: sheet.correct_bid(5, 0, 0))
    out["no such seat"] = refused(lambda: sheet.correct_bid(0, 7, 0))
    out["no name"] = refused(lambda: sheet.rename(0, " "))
    out["a name too long"] = refused(lambda: sheet.rename(0, "x" * 30))
    out["two players of one name"] = refused(lambda: sheet.rename(0, "bob"))
    out["a rule fixed by the game"] = refused(lambda: sheet.change_rules(players=4))
    out["a rule neither on nor off"] = refused(lambda: sheet.change_rules(hook="yes"))
    sheet.enter_bid(1)          # hand 2: Cat bids first (Bob deals)
    out["a dealer against the entries"] = refused(lambda: sheet.change_first_dealer(2))
    whole = ScoreSheet(Rules(4, hand_sizes=[1, 13]), NAMES + ["Dan"])
    play_hand(whole, [0, 0, 0, 0], [1, 0, 0, 0])
    out["a trump card where none is turned"] = refused(lambda: whole.set_trump_card("2C"))
    over = ScoreSheet(Rules(3, hand_sizes=[1]), NAMES)
    play_hand(over, [0, 0, 0], [1, 0, 0])
    out["an entry after the game"] = refused(lambda: over.enter("0"))
    return out


SCENARIOS = scenarios()


def test_every_reason_of_the_sheet_has_a_code_and_one_wording():
    """Each refusal has a code of its own, its English message is entry_words' English
    (one home for the sentence), and every code entry_words knows is met above (but the
    one the sheet guards against before it can happen)."""
    import inspect

    from ohhell import text
    for what, e in SCENARIOS.items():
        assert e.code != "entry", what
        assert entry_words(e, lang="en") == str(e), what
    known = set(re.findall(r'code == "([a-z_]+)"', inspect.getsource(text.entry_words)))
    met = {e.code for e in SCENARIOS.values()}
    assert known - met == {"bids_before_tricks"}


@pytest.mark.parametrize("lang", OTHERS)
def test_every_refusal_of_the_sheet_is_worded_in_each_language(lang):
    for what, e in SCENARIOS.items():
        english, said = str(e), entry_words(e, lang=lang)
        assert said and said != english, (lang, what, said)
        for value in re.findall(r"\b(?:Ann|Bob|Cat|Dan)\b|\d+", english):   # names and numbers kept
            assert value in said, (lang, what, value, said)


@pytest.mark.parametrize("lang", OTHERS)
def test_the_rules_refusals_in_each_language(lang):
    """The rules' refusals a player meets (the setup screen, --hand-sizes) have a code, and
    are worded in the language, numbers kept."""
    cases = [(dict(players=4, hand_sizes=[20]), "hand_size_too_large"),
             (dict(players=4, hand_sizes=[0]), "hand_size_too_small"),
             (dict(players=4, hand_sizes=[]), "no_hand_sizes"),
             (dict(players=9), "players"),
             (dict(players=4, hook=True, simultaneous_bidding=True), "hook_simultaneous")]
    for fields, code in cases:
        with pytest.raises(RulesError) as e:
            Rules(**fields)
        assert e.value.code == code
        with use_language("en"):
            english = rules_words(e.value)
        with use_language(lang):
            said = rules_words(e.value)
        assert said and said != english, (lang, code)
        for value in e.value.facts.values():     # the facts behind it are all said
            assert str(value) in said, (lang, code, said)
    with use_language("en"):                  # English readers get the core's own message
        with pytest.raises(RulesError) as e:
            Rules(players=4, hand_sizes=[20])
        assert rules_words(e.value) == str(e.value) == ("hand size 20 with 4 players needs 80 cards; the deck has 52 "
                                                        "(at most 13 cards each)")


# --- argparse's own messages ---------------------------------------------------------------------

#: argparse's messages only a programmer can meet (a parser built wrongly), left out on purpose
PROGRAMMERS_ONLY = {
    ".__call__() not defined", "conflicting subparser: %s", "conflicting subparser alias: %s",
    'argument "-" with mode %r', "cannot merge actions - two groups are named %r",
    "'required' is an invalid argument for positionals",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "dest= is required for options like %r", "invalid conflict_resolution value: %r",
    ("conflicting option string: %s", "conflicting option strings: %s"),
    "mutually exclusive arguments must be optional", "cannot have multiple subparser arguments",
    "%r is not callable",
}


def test_every_message_of_this_pythons_argparse_a_user_can_meet_is_in_the_catalog():
    from babel.messages.extract import DEFAULT_KEYWORDS, extract

    from ohhell.cli import argwords
    with open(argparse.__file__, "rb") as f:
        found = {m if isinstance(m, str) else tuple(m) for _l, m, _c, _ctx in extract("python", f,
                                                                                     keywords=DEFAULT_KEYWORDS)}
    listed = set(argwords.MESSAGES) | {("expected %s argument", "expected %s arguments")}
    assert found - PROGRAMMERS_ONLY - listed == set()
    for lang in OTHERS:                          # ... and each is translated
        t = translator(lang)
        for m in argwords.MESSAGES:
            # ("%(heading)s:" has no word; Cebuano keeps "default" as its help texts do)
            assert t.gettext(m) != m or m == "%(heading)s:" or (lang, m) == ("ceb", " (default: %(default)s)"), (lang, m)
        with use_language(lang):
            assert argwords.expected_arguments(2) != "expected %s arguments"


@pytest.fixture
def no_locale(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_argparse_refuses_in_the_language(lang, capsys, no_locale):
    t = translator(lang)
    before = (argparse._, argparse.ngettext)  # type: ignore[attr-defined]
    with pytest.raises(SystemExit) as e:
        main(["--lang", lang, "no-such-command"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert t.gettext("%(prog)s: error: %(message)s\n").split("%")[0] == "" and \
        (t.gettext("%(prog)s: error: %(message)s\n") % {"prog": "ohhell", "message": ""}).strip() in err
    assert (t.gettext("invalid choice: %(value)r (choose from %(choices)s)").split("%")[0]) in err
    with pytest.raises(SystemExit):
        main(["--lang", lang, "analyze"])
    err = capsys.readouterr().err
    assert t.gettext("the following arguments are required: %s") % "FILE" in err
    with pytest.raises(SystemExit):
        main(["--lang", lang, "analyze", "x.json", "--top", "zero"])
    err = capsys.readouterr().err
    assert t.gettext("expected a whole number, not {text!r}").format(text="zero") in err
    if lang != "en":
        for english in ("invalid choice", "error:", "the following arguments are required", "argument --top"):
            assert english not in err and english not in capsys.readouterr().err
    assert (argparse._, argparse.ngettext) == before  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["eu", "mr"])
def test_the_nested_admin_commands_help_is_worded(lang, capsys, no_locale):
    t = translator(lang)
    with pytest.raises(SystemExit):
        main(["--lang", lang, "admin", "list-users", "--help"])
    out = capsys.readouterr().out
    assert out.startswith(t.gettext("usage: "))
    assert t.gettext("show this help message and exit") in out and t.gettext("options") in out
    assert "show this help message" not in out and "the server's database" not in out


# --- the bots of --list-bots ----------------------------------------------------------------------

def test_every_bots_description_is_translated():
    from ohhell import bots
    for lang in OTHERS:
        t = translator(lang)
        for info in bots.catalog():
            assert t.gettext(info.description) != info.description, (lang, info.name, info.description)


def test_list_bots_in_marathi(capsys, no_locale):
    from ohhell import bots
    assert main(["--lang", "mr", "play", "--list-bots"]) == 0
    out = capsys.readouterr().out
    t = translator("mr")
    assert t.gettext("level {n} of {count}").format(n=1, count=len(bots.LEVELS)) in out
    assert "level 1 of" not in out and "Levels run" not in out


# --- ohhell analyze: the largest mistakes ---------------------------------------------------------

GOLDEN = ROOT / "tests" / "data" / "coach-golden-3.json"


@pytest.mark.parametrize("lang", OTHERS)
def test_the_largest_mistakes_are_worded_in_the_language(lang):
    from ohhell.coach import analysis_of
    from ohhell.coach.report import html_report, mistake_words, text_report
    record = json.loads(GOLDEN.read_text())
    a = analysis_of(record)
    assert a is not None
    tops = [(a.hands[m["hand"]], m) for s in a.seats for m in s["top"]]
    assert tops, "the golden game has a mistake to word"
    with use_language(lang):
        text, page = text_report(a), html_report(a)
        said = [mistake_words(h, next(d for d in h["decisions"] if d["index"] == m["index"])) for h, m in tops]
    for (h, m), words in zip(tops, said):
        assert words in text and words in page.replace("&#x27;", "'")
        assert m["text"] not in text and m["text"] not in page     # the record's English, for programs
        assert words != m["text"]
    assert record["analysis"]["seats"][0]["top"][0]["text"].startswith("hand 1: bid 1, 0 was best")


def test_the_report_writes_numbers_as_the_language_does():
    from ohhell.coach import analysis_of
    from ohhell.coach.report import text_report
    a = analysis_of(json.loads(GOLDEN.read_text()))
    assert a is not None
    with use_language("eu"):
        text = text_report(a)
    assert re.search(r"\d,\d ± \d,\d", text) and not re.search(r"\d\.\d ± \d\.\d", text)


def test_score_print_in_a_language(tmp_path, capsys, no_locale):
    sheet = ScoreSheet(Rules(3, hand_sizes=[1, 2]), ["Ann", "Bob", "Cat"], first_dealer=0)
    play_hand(sheet, [0, 1, 0], [0, 1, 0])
    path = tmp_path / "sheet.json"
    sheet.save(str(path))
    assert main(["--lang", "sq", "score", str(path), "--print"]) == 0
    out = capsys.readouterr().out
    t = translator("sq")
    assert out.startswith(t.pgettext("column", "hand"))
    assert t.gettext("Leading: {names}").format(names="Bob") in out
    assert "Leading" not in out and "each cell" not in out
