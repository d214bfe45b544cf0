"""``ohhell arena`` and the duplicate-match engine behind it."""

import json

import pytest

from ohhell.bots.match import lineup, parse_spec, rotations, run_match
from ohhell.cli import main
from ohhell.rules import Rules


def test_lineups_and_rotations_seat_every_bot_everywhere():
    assert lineup(["a", "b"], 4) == ["a", "b", "a", "b"]
    assert len(rotations(lineup(["a", "b"], 4))) == 2
    rots = rotations(lineup(["a", "b"], 5))
    assert len(rots) == 5
    for seat in range(5):
        assert {r[seat] for r in rots} == {"a", "b"}
    with pytest.raises(ValueError):
        lineup(["a", "b", "c", "d"], 3)


def test_bot_specs_carry_options():
    assert parse_spec("expert:iterations=40:seconds=1.5:weighted=false") == (
        "expert", {"iterations": 40, "seconds": 1.5, "weighted": False})
    with pytest.raises(ValueError):
        parse_spec("expert:iterations")


def test_duplicate_match_statistics_are_consistent():
    m = run_match(Rules(4, hand_sizes=[1, 2, 3]), ["heuristic", "random"], deals=12, seed="t", jobs=2)
    s = m.summary()
    assert m.games == 24 and s["deals"] == 12
    h, r = s["bots"]["heuristic"], s["bots"]["random"]
    assert abs(h["win_share"] + r["win_share"] - 1) < 1e-9
    assert h["seats"] == r["seats"] == 48
    assert 0 <= h["bid_accuracy"] <= 1
    (mg,) = s["margins"]
    assert abs(mg["per_game"] - (h["mean_per_game"] - r["mean_per_game"])) < 1e-9
    assert mg["per_game"] - mg["ci95_per_game"] > 0         # the heuristic beats random, clearly
    assert h["rating"]["mu"] > r["rating"]["mu"]
    # the same seed replays the same games, in parallel or not
    again = run_match(Rules(4, hand_sizes=[1, 2, 3]), ["heuristic", "random"], deals=12, seed="t", jobs=1)
    assert [x.totals for x in again.results] == [x.totals for x in m.results]


def test_arena_command_table_json_plot_and_records(tmp_path, capsys):
    png = tmp_path / "arena.png"
    recs = tmp_path / "games.jsonl"
    rc = main(["arena", "--bots", "heuristic,random", "--deals", "3", "--hand-sizes", "1,2",
               "--jobs", "1", "--quiet", "--json", "-", "--plot", str(png), "--out", str(recs)])
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["bots"]) == {"heuristic", "random"}
    for key in ("mean_per_game", "ci95_per_game", "mean_per_hand", "win_share", "bid_accuracy", "rating"):
        assert key in data["bots"]["heuristic"]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    lines = recs.read_text().splitlines()
    assert len(lines) == 6
    from ohhell import Game
    Game.from_record(lines[0])
    rc = main(["arena", "--bots", "heuristic,random", "--deals", "2", "--hand-sizes", "1", "--jobs", "1",
               "--quiet"])
    out = capsys.readouterr().out
    assert rc == 0 and "margins" in out and "heuristic - random" in out


def test_arena_rejects_bad_input(capsys):
    assert main(["arena", "--bots", "nobody", "--deals", "1", "--quiet"]) == 2
    assert "unknown bot" in capsys.readouterr().err
    assert main(["arena", "--deals", "0"]) == 2
    assert main(["arena", "--bots", "a,b,c,d", "--players", "3"]) == 2
