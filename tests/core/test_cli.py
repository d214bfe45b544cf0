import json
import subprocess
import sys

import pytest

import ohhell
from ohhell.cli import main


def test_selfplay_writes_verified_records_with_every_rules_flag(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    status = main(["selfplay", "--players", "5", "--bots", "random", "--games", "3", "--seed", "1",
                   "--out", str(out), "--hand-sizes", "3,1,2", "--no-trump", "largest", "--hook",
                   "--must-trump", "--missed-bid-scores-tricks", "--zero-bid-scores-hand-size", "--quiet"])
    assert status == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 3
    for i, rec in enumerate(records):
        assert rec["rules"] == {"players": 5, "schedule": "custom", "hand_sizes": [3, 1, 2],
                                "no_trump": "largest", "hook": True, "simultaneous_bidding": False,
                                "must_trump": True, "missed_bid_scores_tricks": True,
                                "zero_bid_scores_hand_size": True}
        assert rec["seed"] == f"1:{i}"
        assert ohhell.Game.from_record(rec).is_over
    # The same seed gives the same games.
    again = tmp_path / "again.jsonl"
    main(["selfplay", "--players", "5", "--bots", "random", "--games", "3", "--seed", "1", "--out", str(again),
          "--hand-sizes", "3,1,2", "--no-trump", "largest", "--hook", "--must-trump",
          "--missed-bid-scores-tricks", "--zero-bid-scores-hand-size", "--quiet"])
    assert again.read_text() == out.read_text()
    assert main(["verify", str(out)]) == 0
    assert "3 records OK" in capsys.readouterr().out


def test_selfplay_schedules_presets_and_simultaneous(tmp_path):
    out = tmp_path / "g.jsonl"
    assert main(["selfplay", "--preset", "openspiel", "--players", "3", "--bots", "random", "--seed", "x",
                 "--out", str(out), "--quiet"]) == 0
    rec = json.loads(out.read_text())
    assert rec["rules"]["hand_sizes"] == [5] and rec["rules"]["hook"] is True
    assert main(["selfplay", "--players", "6", "--schedule", "down-up", "--simultaneous-bidding",
                 "--bots", "random", "--seed", "2", "--out", str(out), "--quiet"]) == 0
    rec = json.loads(out.read_text())
    assert rec["rules"]["schedule"] == "down-up" and rec["rules"]["simultaneous_bidding"] is True
    assert main(["selfplay", "--preset", "openspiel", "--no-hook", "--bots", "random", "--seed", "2",
                 "--out", str(out), "--quiet"]) == 0
    assert json.loads(out.read_text())["rules"]["hook"] is False


def test_selfplay_prints_a_score_table_without_out(capsys):
    assert main(["selfplay", "--players", "3", "--hand-sizes", "1,2", "--bots", "random", "--seed", "3",
                 "--names", "Ann,Bob,Cat"]) == 0
    text = capsys.readouterr().out
    assert "Ann" in text and "Winner" in text and "hand  cards  trump" in text


@pytest.mark.parametrize("argv,message", [
    (["selfplay", "--players", "8"], "players must be 3 to 7, not 8"),
    (["selfplay", "--hook", "--simultaneous-bidding"], "no last bidder"),
    (["selfplay", "--players", "4", "--hand-sizes", "14"], "the deck has 52"),
    (["selfplay", "--bots", "random,random"], "names 2 bots for 4 players"),
    (["selfplay", "--bots", "grandmaster"], "unknown bot 'grandmaster'"),
])
def test_selfplay_bad_input(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_verify_reports_the_hand_and_trick(tmp_path, capsys):
    g = ohhell.Game(ohhell.Rules(3, hand_sizes=[2]), seed=1)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    rec = g.record()
    rec["hands"][0]["scores"][0] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec))
    assert main(["verify", str(bad)]) == 1
    assert "hand 1: scores are" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "missing.json")]) == 1


def test_the_console_script_runs():
    r = subprocess.run([sys.executable, "-m", "ohhell.cli", "selfplay", "--players", "3", "--hand-sizes",
                        "1", "--bots", "random", "--seed", "1"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "Winner" in r.stdout
