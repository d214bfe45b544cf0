"""``ohhell export`` and ``ohhell import``: the formats from the command line, and bad input
refused with a message and exit status 2, never a traceback."""

from __future__ import annotations

import json
import random

import pyspiel

from ohhell import Game, Rules
from ohhell.cli import main

from .helpers import play_random


def _record_file(tmp_path, games, name="games.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(g.record()) + "\n" for g in games))
    return path


def _games(rules, count=1):
    return [play_random(Game(rules, seed=f"cli-{i}"), random.Random(i)) for i in range(count)]


def test_pbn_export_then_import_gives_the_records_back(tmp_path, capsys):
    games = _games(Rules(5, hand_sizes=[1, 3, 2], must_trump=True), 2)
    src = _record_file(tmp_path, games)
    assert main(["export", str(src), "--format", "pbn", "-o", str(tmp_path / "g.pbn"),
                 "--event", "Club night", "--date", "2026.12.01"]) == 0
    text = (tmp_path / "g.pbn").read_text()
    assert text.startswith("% PBN 2.1\n") and text.count("% PBN 2.1") == 1
    assert text.count('[Event "Club night"]') == 6
    assert main(["import", str(tmp_path / "g.pbn"), "-o", str(tmp_path / "back.jsonl")]) == 0
    back = [json.loads(line) for line in (tmp_path / "back.jsonl").read_text().splitlines()]
    assert [{k: v for k, v in r.items() if k != "pbn"} for r in back] == [g.record() for g in games]
    assert back[0]["pbn"] == {"Event": "Club night", "Site": "?", "Date": "2026.12.01"}
    assert "2 games: written as JSON Lines" in capsys.readouterr().err
    # the event tags travel back out
    (tmp_path / "one.json").write_text(json.dumps(back[0]))
    assert main(["export", str(tmp_path / "one.json"), "--format", "pbn"]) == 0
    assert '[Event "Club night"]' in capsys.readouterr().out


def test_one_hand_to_pbn_is_imported_alone_with_a_note(tmp_path, capsys):
    src = _record_file(tmp_path, _games(Rules(4, hand_sizes=[1, 2, 3])), "g.json")
    assert main(["export", str(src), "--format", "pbn", "--hand", "2", "-o", str(tmp_path / "h.pbn")]) == 0
    assert main(["import", str(tmp_path / "h.pbn")]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["rules"]["hand_sizes"] == [2]
    assert "hand 2 (line 5) is imported alone" in err


def test_openspiel_export_is_what_pyspiel_reads(tmp_path, capsys):
    games = _games(Rules.preset("openspiel", players=4, tricks=3))
    src = _record_file(tmp_path, games, "g.json")
    assert main(["export", str(src), "--format", "openspiel", "-o", str(tmp_path / "h.txt")]) == 0
    _, state = pyspiel.deserialize_game_and_state((tmp_path / "h.txt").read_text())
    assert [int(r) for r in state.returns()] == list(games[0].totals)
    assert main(["import", str(tmp_path / "h.txt"), "-o", str(tmp_path / "back.json")]) == 0
    assert json.loads((tmp_path / "back.json").read_text())["hands"] == games[0].record()["hands"]


def test_openspiel_export_of_other_rules_needs_rescore(tmp_path, capsys):
    games = _games(Rules(4, hand_sizes=[2, 3], hook=True))
    src = _record_file(tmp_path, games, "g.json")
    assert main(["export", str(src), "--format", "openspiel", "--hand", "1"]) == 2
    err = capsys.readouterr().err
    assert "missed bids score 0" in err and "--rescore" in err and "Traceback" not in err
    assert main(["export", str(src), "--format", "openspiel"]) == 2
    assert "choose one" in capsys.readouterr().err
    assert main(["export", str(src), "--format", "openspiel", "--hand", "1", "--rescore"]) == 0
    out, err = capsys.readouterr()
    _, state = pyspiel.deserialize_game_and_state(out)
    assert state.is_terminal()
    assert main(["export", str(src), "--format", "openspiel", "--hand", "2", "--rescore"]) == 2
    assert "has no trump" in capsys.readouterr().err


def test_bad_input_is_a_message_and_status_2(tmp_path, capsys):
    bad_pbn = tmp_path / "bad.pbn"
    good = _games(Rules(3, hand_sizes=[2]))[0]
    from ohhell import pbn
    lines = pbn.dumps(good).splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith('[OhHellPlay "'))
    lines[i + 1] = "XX " + lines[i + 1].split(" ", 1)[1]
    bad_pbn.write_text("\n".join(lines))
    cases = [
        (["import", str(bad_pbn)], f"line {i + 2}: OhHellPlay: 'XX' is not a card"),
        (["import", str(tmp_path / "missing.pbn")], "cannot read"),
        (["export", str(tmp_path / "missing.json"), "--format", "pbn"], "cannot read"),
        (["export", str(_record_file(tmp_path, [good, good])), "--format", "openspiel"], "choose one with --game"),
        (["export", str(_record_file(tmp_path, [good], "one.json")), "--format", "pbn", "--game", "3"],
         "--game must be 1 to 1"),
        (["export", str(_record_file(tmp_path, [good], "one.json")), "--format", "pbn", "--hand", "4"],
         "no hand 4"),
    ]
    (tmp_path / "os.txt").write_text("[Game]\noh_hell(players=3)\n[State]\n1\n0\n0\n")
    cases.append((["import", str(tmp_path / "os.txt")], "stops during the deal"))
    (tmp_path / "junk.json").write_text("{not json")
    cases.append((["export", str(tmp_path / "junk.json"), "--format", "pbn"], "junk.json"))
    for argv, words in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err, (argv, err)


def test_help_lists_both_commands(capsys):
    import pytest
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "export" in out and "import" in out
