"""ohhell.files: telling a record from JSON Lines and a score sheet; the one saved game; appending lines."""

from __future__ import annotations

import json

import pytest

from ohhell import Game, RecordError, Rules, files, records, scoresheet
from ohhell.bots import make, play_game
from ohhell.scoresheet import ScoreSheet


def finished(seed: int) -> Game:
    rules = Rules(3, hand_sizes=[2, 1])
    return play_game(Game(rules, seed=seed), [make("random", seed=s) for s in range(3)])


def test_the_format_names_are_the_readers_own():
    assert files.RECORD_FORMAT == records.FORMAT and files.SCORESHEET_FORMAT == scoresheet.FORMAT
    assert scoresheet.atomic_write_text is files.atomic_write_text       # one home, re-exported


def test_read_file_tells_the_three_kinds_apart(tmp_path):
    a, b = finished(1), finished(2)
    one = tmp_path / "one.json"
    one.write_text(json.dumps(a.record(), indent=2))
    many = tmp_path / "many.jsonl"
    records.write_records(many, [a, b])
    sheet = ScoreSheet(Rules(3, hand_sizes=[1]), ["A", "B", "C"])
    sheet.save(tmp_path / "sheet.json")
    got = files.read_file(one)
    assert got.kind == files.RECORD and Game.from_record(got.records[0]).fingerprint() == a.fingerprint()
    got = files.read_file(many)
    assert got.kind == files.RECORDS and [Game.from_record(r).totals for r in got.records] == [a.totals, b.totals]
    got = files.read_file(tmp_path / "sheet.json")
    assert got.kind == files.SCORESHEET and got.sheet.to_dict() == sheet.to_dict()
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(RecordError, match="holds no record"):
        files.read_file(tmp_path / "empty.jsonl")
    (tmp_path / "latin1.json").write_bytes(b"{\"players\": \"\xe9\"}")
    with pytest.raises(RecordError, match="not UTF-8"):
        files.read_file(tmp_path / "latin1.json")


def test_read_game_reads_one_game_and_says_what_else_a_file_is(tmp_path):
    a = finished(3)
    rec = a.record()
    rec["seats"] = ["human", "random", "random"]
    (tmp_path / "game.json").write_text(json.dumps(rec))
    game, data = files.read_game(tmp_path / "game.json")
    assert game.fingerprint() == a.fingerprint() and data["seats"] == rec["seats"]
    records.write_records(tmp_path / "h.jsonl", [a, finished(4)])
    with pytest.raises(RecordError, match="holds 2 records"):
        files.read_game(tmp_path / "h.jsonl")
    ScoreSheet(Rules(3, hand_sizes=[1]), ["A", "B", "C"]).save(tmp_path / "s.json")
    with pytest.raises(RecordError, match="is a score sheet"):
        files.read_game(tmp_path / "s.json")
    (tmp_path / "bad.json").write_text("{oops")
    with pytest.raises(RecordError, match="is not JSON"):
        files.read_game(tmp_path / "bad.json")
    (tmp_path / "big.json").write_text("{\"x\": " + "9" * 5000 + "}")
    with pytest.raises(RecordError, match="is not JSON"):
        files.read_game(tmp_path / "big.json")


def test_append_line_adds_one_line_each_time(tmp_path):
    path = tmp_path / "deeper" / "history.jsonl"
    files.append_line(path, json.dumps({"a": 1}))
    files.append_line(path, json.dumps({"b": 2}) + "\n")
    assert path.read_text().splitlines() == ['{"a": 1}', '{"b": 2}']
    assert files.file_kind(path.read_text()) == files.RECORDS
