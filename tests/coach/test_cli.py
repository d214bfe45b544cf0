"""``ohhell analyze``: the files it reads and writes, and clear errors for bad input."""

from __future__ import annotations

import json

import pytest

import ohhell
from ohhell import Game, Rules
from ohhell.bots import make, play_game
from ohhell.cli import main
from ohhell.coach import analysis_of


def _game(seed: int = 1) -> Game:
    g = Game(Rules(3, hand_sizes=[1, 2]), seed=seed, names=["Ann", "Bob", "Cat"])
    return play_game(g, [make("intermediate", seed=s) for s in range(3)])


def test_analyze_a_record_writes_the_annotated_record_and_the_page(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_game().record()))
    page = tmp_path / "page.html"
    assert main(["analyze", str(path), "--samples", "10", "--html", str(page), "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert "lost bidding" in out and "Ann" in out and "luck" in out
    annotated = json.loads((tmp_path / "game.analysis.json").read_text())
    assert Game.from_record(annotated).record() == _game().record()
    a = analysis_of(annotated)
    assert a is not None and a.settings["samples"] == 10
    assert page.read_text().startswith("<!DOCTYPE html>")
    assert "game.analysis.json" in err and "page.html" in err
    # Other readers of records take the annotated record as it is.
    assert main(["verify", str(tmp_path / "game.analysis.json")]) == 0


def test_the_same_file_and_seed_give_the_same_annotations(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_game().record()))
    outs = []
    for name in ("a.json", "b.json"):
        assert main(["analyze", str(path), "--samples", "8", "--seed", "7", "-o", str(tmp_path / name),
                     "--quiet"]) == 0
        outs.append((tmp_path / name).read_text())
    assert outs[0] == outs[1]


def test_json_lines_and_a_web_download(tmp_path, capsys):
    games = [_game(1), _game(2)]
    path = tmp_path / "games.jsonl"
    ohhell.write_records(path, games)
    assert main(["analyze", str(path), "--samples", "6", "--no-luck", "--brief", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "=== Game 1 ===" in out and "=== Game 2 ===" in out
    lines = (tmp_path / "games.analysis.jsonl").read_text().splitlines()
    assert [Game.from_record(json.loads(x)).record() for x in lines] == [g.record() for g in games]
    assert main(["analyze", str(path), "--game", "2", "--samples", "6", "-o", "-", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["seed"] == 2
    # The server's download: the record, indented, with the fair-shuffle commitments.
    web = tmp_path / "ohhell-T1-game1.json"
    rec = games[0].record()
    rec["commitments"] = [ohhell.dealing.commitment(ohhell.dealing.hand_key(1, k)) for k in range(2)]
    web.write_text(json.dumps(rec, indent=1) + "\n")
    assert main(["analyze", str(web), "--samples", "6", "--no-save", "--quiet"]) == 0


@pytest.mark.parametrize("content, message", [
    (None, "cannot read"),
    ("not json at all", "bad JSON"),
    ('{"format": "ohhell.record", "version": 9}', "version 9"),
])
def test_bad_files_are_clear_errors(tmp_path, capsys, content, message):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    assert main(["analyze", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ohhell analyze: ") and message in err and "Traceback" not in err
    assert not (tmp_path / "bad.analysis.json").exists()


def test_a_bad_game_number_or_sheet_is_refused(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    ohhell.write_records(path, [_game(1)])
    assert main(["analyze", str(path), "--game", "3", "--quiet"]) == 2
    assert "--game must be 1 to 1" in capsys.readouterr().err
    from ohhell.scoresheet import ScoreSheet
    sheet = tmp_path / "sheet.json"
    s = ScoreSheet(Rules(3, hand_sizes=[1]), ["A", "B", "C"])
    sheet.write_text(json.dumps(s.to_dict()))
    assert main(["analyze", str(sheet), "--quiet"]) == 2
    assert "score sheet" in capsys.readouterr().err


def test_an_unwritable_output_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_game().record()))
    assert main(["analyze", str(path), "--samples", "4", "-o", str(tmp_path),
                 "--quiet"]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_no_luck_leaves_luck_out(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_game().record()))
    assert main(["analyze", str(path), "--samples", "6", "-o", "-", "--quiet"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["analysis"]["settings"]["luck"] == "anchored"
    assert all("luck" in s and "skill" in s for s in rec["analysis"]["seats"])
    assert main(["analyze", str(path), "--samples", "6", "--no-luck", "-o", "-", "--quiet"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert "luck" not in rec["analysis"]["settings"]
    assert all("luck" not in s for s in rec["analysis"]["seats"])
