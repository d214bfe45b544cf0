"""A newcomer's first hour (issue 17): bot options, progress, bot names, replay labels, messages."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

from ohhell import Game, Rules, bots
from ohhell.bots.match import (BotSpecError, ProgressBar, check_options, decisions_per_game, make_spec,
                               option_help, run_match)
from ohhell.cli import main
from ohhell.tui.replay import score_column_width, short_labels


class Tty(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


# --- bot options ---------------------------------------------------------------------------------

@pytest.mark.parametrize("spec,words", [
    ("expert:foo=1", ["no option 'foo'", "iterations (a whole number, default 400)"]),
    ("expert:iterations=abc", ["iterations=abc", "iterations must be a whole number"]),
    ("expert:iterations=-5", ["iterations=-5", "iterations must be at least 1"]),
    ("expert:iterations=0", ["iterations must be at least 1"]),
    ("expert:seconds=-1", ["seconds must be at least 0"]),
    ("expert:seconds=nan", ["seconds must be a number"]),
    ("expert:weighted=maybe", ["weighted must be true or false"]),
    ("expert:search=deep", ["search must be one of ismcts, flat, not 'deep'"]),
    ("beginner:mistakes=2", ["mistakes must be from 0 to 1"]),
    ("random:depth=3", ["random has no option 'depth'", "random takes no options"]),
    ("expert:iterations", ["needs the form key=value"]),
    ("grandmaster", ["unknown bot 'grandmaster'", "expert"]),
])
def test_arena_option_errors_name_the_option_and_what_is_allowed(spec, words, capsys):
    assert main(["arena", "--bots", f"{spec},random", "--deals", "1", "--hand-sizes", "1", "--jobs", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("ohhell arena: ") and "Traceback" not in captured.err
    for w in words:
        assert w in captured.err
    assert captured.out == ""


def test_a_bad_option_is_refused_by_the_real_command_without_a_traceback():
    p = subprocess.run([sys.executable, "-m", "ohhell.cli", "arena", "--bots", "expert:iterations=-5,heuristic"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert p.stderr.strip() == "ohhell arena: bot option iterations=-5 for expert: iterations must be at least 1"


@pytest.mark.parametrize("argv,message", [
    (["--iterations", "-5"], "--iterations must be at least 1"),
    (["--seconds", "0"], "--seconds must be a number of seconds above 0"),
    (["--jobs", "-1"], "--jobs must be 0"),
    (["--deals", "0"], "--deals must be at least 1"),
])
def test_arena_budget_flags_are_checked(argv, message, capsys):
    assert main(["arena", "--bots", "random", *argv]) == 2
    assert message in capsys.readouterr().err


def test_good_options_are_converted_to_the_kinds_the_bot_takes():
    assert check_options("expert", {"iterations": "60", "seconds": "2", "weighted": "false", "search": "flat"}) == {
        "iterations": 60, "seconds": 2.0, "weighted": False, "search": "flat"}
    assert isinstance(check_options("expert", {"seconds": "2"})["seconds"], float)
    bot = make_spec("expert:iterations=7:late-hands=0", seed=1)
    assert bot.iterations == 7 and bot.late_hands == 0
    with pytest.raises(BotSpecError):
        check_options("expert", {"iterations": "1.5"})
    assert issubclass(BotSpecError, ValueError)


def test_every_registered_bot_describes_its_options_and_refuses_unknown_ones():
    for name in bots.names():
        assert option_help(name).startswith(name)
        with pytest.raises(BotSpecError, match="no_such_option"):
            check_options(name, {"no_such_option": "1"})
        make_spec(name, seed=0)


# --- progress ------------------------------------------------------------------------------------

def test_progress_is_drawn_at_once_and_then_estimates_the_time_left():
    stream = Tty()
    bar = ProgressBar(100, label="games", stream=stream, items=4, refresh=0)
    assert "0/4 games" in stream.getvalue() and "estimating the time left" in stream.getvalue()
    bar.update(50)
    bar.update(1)            # redrawn at most ten times a second
    bar._draw()
    assert "51%" in stream.getvalue() and "left" in bar.line()
    bar.count()
    bar.close()
    assert "1/4 games" in stream.getvalue() and stream.getvalue().endswith("\n")
    quiet = io.StringIO()    # not a terminal: nothing until close, and then only when asked
    bar = ProgressBar(10, stream=quiet)
    bar.update(10)
    bar.close()
    assert quiet.getvalue() == ""


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_match_reports_every_decision(jobs):
    rules = Rules(3, hand_sizes=[1, 3])
    seen: list[int] = []
    m = run_match(rules, ["heuristic", "random"], deals=2, seed="p", jobs=jobs, on_decisions=seen.append)
    assert sum(seen) == m.games * decisions_per_game(rules) == 6 * 3 * 6
    assert sum(len(t) for r in m.results for t in r.times.values()) == sum(seen)


def test_selfplay_progress_goes_to_standard_error_only(tmp_path, capsys, monkeypatch):
    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    out = tmp_path / "g.jsonl"
    assert main(["selfplay", "--players", "3", "--hand-sizes", "1,2", "--games", "3", "--seed", "1",
                 "--out", str(out)]) == 0
    assert "3/3 games" in err.getvalue() and "100%" in err.getvalue()
    stdout = capsys.readouterr().out
    assert "[" not in stdout and stdout.startswith("3 games in")
    assert [json.loads(x)["seed"] for x in out.read_text().splitlines()] == ["1:0", "1:1", "1:2"]
    # without --out the score tables go to standard output, the bar stays out of them
    assert main(["selfplay", "--players", "3", "--hand-sizes", "1", "--games", "2", "--seed", "1"]) == 0
    stdout = capsys.readouterr().out
    assert "Game 1" in stdout and "Game 2" in stdout and "games," not in stdout and "\r" not in stdout


# --- bot names -----------------------------------------------------------------------------------

def test_list_bots_gives_each_name_a_level_and_a_line(capsys):
    for command in (["play", "--list-bots"], ["arena", "--list-bots"], ["selfplay", "--list-bots"]):
        assert main(command) == 0
        text = capsys.readouterr().out
        lines = {line.split()[0]: line for line in text.splitlines() if line.strip()}
        for name in bots.names():
            assert name in lines
        assert "another name for intermediate" in lines["heuristic"]
        for k, level in enumerate(bots.LEVELS, 1):
            assert f"level {k} of {len(bots.LEVELS)}" in lines[level]
        assert "not a level" in lines["random"]
        assert all(len(lines[n]) > len(n) + 20 for n in bots.names() if n != "heuristic")


def test_the_catalog_lists_each_name_once_and_aliases_name_the_same_bot():
    infos = bots.catalog()
    assert sorted(i.name for i in infos) == sorted(bots.names())
    for i in infos:
        assert i.description
        if i.alias_of:
            assert bots.factory(i.alias_of) is bots.factory(i.name)
            assert next(x for x in infos if x.name == i.alias_of).alias_of is None
    assert {i.name: i.alias_of for i in infos}["heuristic"] == "intermediate"


@given(st.lists(st.sampled_from(["expert", "heuristic", "random", "expert 1", "Ann"]), min_size=3, max_size=7))
def test_seats_at_one_table_get_distinct_names(names):
    shown = bots.table_names(names)
    assert len(set(shown)) == len(shown)
    for name, label in zip(names, shown):
        assert label == name or label.startswith(name + " ")


def test_selfplay_names_repeated_bots_apart(tmp_path):
    out = tmp_path / "g.jsonl"
    assert main(["selfplay", "--bots", "expert,heuristic,heuristic,random", "--hand-sizes", "1", "--seed", "1",
                 "--out", str(out), "--quiet"]) == 0
    assert json.loads(out.read_text())["players"] == ["expert", "heuristic 1", "heuristic 2", "random"]


# --- replay labels -------------------------------------------------------------------------------

@given(st.lists(st.text(alphabet="abcdehu 12", min_size=1, max_size=14), min_size=3, max_size=7, unique=True),
       st.integers(2, 16))
def test_short_labels_fit_and_stay_distinct(names, width):
    labels = short_labels(names, width)
    assert len(set(labels)) == len(labels)
    for name, label in zip(names, labels):
        assert len(label) <= width
        if all(len(x) <= width for x in names):
            assert label == name


def test_replay_score_columns_tell_heuristic1_from_heuristic2():
    from rich.console import Console

    from ohhell.tui.render import score_rows_from_view, score_table
    for n in (3, 4, 7):
        names = [f"heuristic{s + 1}" for s in range(n)]
        game = bots.play_game(Game(Rules(n, hand_sizes=[1, 2]), seed=1, names=names),
                              [bots.make("heuristic", seed=s) for s in range(n)])
        for pane in range(28 + 3 * n, 130, 7):
            compact = pane < 14 + 9 * n
            labels = short_labels(names, score_column_width(pane, n, compact))
            console = Console(width=pane, record=True, file=io.StringIO())
            console.print(score_table(labels, score_rows_from_view(game.view(0)), compact=compact))
            head = console.export_text().splitlines()[2]
            at = 0
            for label in labels:       # each label is shown whole, in seat order
                at = head.index(label, at) + len(label)
            assert len(set(labels)) == n


# --- messages ------------------------------------------------------------------------------------

def test_rules_messages_say_options_in_words_or_as_flags(capsys):
    assert main(["selfplay", "--hook", "--simultaneous-bidding"]) == 2
    err = capsys.readouterr().err
    assert "simultaneous bidding" in err and "simultaneous_bidding" not in err
    assert main(["selfplay", "--schedule", "custom"]) == 2
    err = capsys.readouterr().err
    assert "--hand-sizes" in err and "hand_sizes" not in err


def test_arena_records_name_repeated_bots_apart(tmp_path):
    out = tmp_path / "a.jsonl"
    assert main(["arena", "--bots", "heuristic,random", "--deals", "1", "--hand-sizes", "1", "--jobs", "1",
                 "--quiet", "--out", str(out)]) == 0
    players = [json.loads(x)["players"] for x in out.read_text().splitlines()]
    assert players == [["heuristic 1", "random 1", "heuristic 2", "random 2"],
                       ["random 1", "heuristic 1", "random 2", "heuristic 2"]]


# --- ohhell serve's port -------------------------------------------------------------------------

@pytest.mark.parametrize("port", ["99999", "0", "-1", "http"])
def test_serve_refuses_a_port_outside_1_to_65535(port, capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["serve", "--port", port, "--db", str(tmp_path / "t.sqlite3")])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "1 to 65535" in err and "Traceback" not in err
    assert not (tmp_path / "t.sqlite3").exists()


def test_serve_on_a_busy_port_says_so_before_announcing_or_loading_anything(capsys, tmp_path):
    import socket
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    try:
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", str(tmp_path / "t.sqlite3")]) == 1
    finally:
        busy.close()
    out, err = capsys.readouterr()
    assert f"port {port} on 127.0.0.1 is already in use" in err
    assert "served at" not in out and "Traceback" not in err
    assert not (tmp_path / "t.sqlite3").exists()       # no database was opened, no table loaded
