"""The real commands: ``ohhell play`` in a real terminal (tmux), and the commands' argument checks."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from ohhell import Game, Rules
from ohhell.actions import Bid, Play
from ohhell.cli import main
from ohhell.scoresheet import ScoreSheet
from ohhell.tui.render import rank_text


def pretty(card: int) -> str:
    return rank_text(card) + "♣♦♥♠"[card // 13]


class Tmux:
    """A private tmux server (its own socket) running one command in a 120 x 40 terminal."""

    def __init__(self, tmp_path, command: list[str], env: dict) -> None:
        exe = shutil.which("tmux")
        if exe is None:
            pytest.fail("tmux is needed for this test: apt-get install tmux")
        self.exe = exe
        self.socket = f"ohhell-test-{os.getpid()}-{time.monotonic_ns()}"
        self.env = env
        shell = " ".join(_quote(x) for x in command)
        self.run("new-session", "-d", "-s", "t", "-x", "120", "-y", "40", shell)
        self.run("set-option", "-t", "t", "remain-on-exit", "on")

    def run(self, *args: str) -> str:
        out = subprocess.run([self.exe, "-L", self.socket, *args], capture_output=True, text=True,
                             env=self.env, timeout=20)
        return out.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "t")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "t", *keys)

    def wait_for(self, *texts: str, timeout: float = 30.0) -> str:
        end = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if any(t in screen for t in texts):
                return screen
            if time.monotonic() > end:
                raise AssertionError(f"none of {texts} appeared; the screen shows:\n{screen}")
            time.sleep(0.1)

    def dead(self) -> bool:
        return self.run("display-message", "-p", "-t", "t", "#{pane_dead}").strip() == "1"

    def close(self) -> None:
        subprocess.run([self.exe, "-L", self.socket, "kill-server"], capture_output=True, env=self.env)


def _quote(x: str) -> str:
    import shlex
    return shlex.quote(x)


def test_real_ohhell_play_in_tmux_a_whole_game(tmp_path):
    save = tmp_path / "game.json"
    env = dict(os.environ, OHHELL_HOME=str(tmp_path), TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
    cmd = [sys.executable, "-m", "ohhell.cli", "play", "--start", "--players", "3", "--hand-sizes", "1,2",
           "--bots", "random", "--delay", "0", "--seed", "smoke", "--dealer", "3", "--save", str(save)]
    rc = tmp_path / "rc"
    tmux = Tmux(tmp_path, ["sh", "-c", " ".join(_quote(x) for x in cmd) + f"; echo $? > {_quote(str(rc))}"], env)
    try:
        screen = tmux.wait_for("Your bid")
        assert "Hand 1 of 2" in screen and "Bids" in screen and "Scores" in screen
        for _ in range(40):
            end = time.monotonic() + 30
            while True:  # the screen and the saved game must agree that it is your turn
                screen = tmux.screen()
                game = Game.from_record(json.loads(save.read_text()))
                if "Game over" in screen or "Continue (Enter)" in screen:
                    break
                if ("Your bid" in screen or "Your turn" in screen) and game.legal_actions(0):
                    break
                assert time.monotonic() < end, screen
                time.sleep(0.05)
            if "Game over" in screen:
                break
            if "Continue (Enter)" in screen:
                tmux.keys("Enter")
                # Wait for the box to close: the table under it already says "Hand 2 of 2", and a
                # second Enter on the table would press the focused bid button.
                end = time.monotonic() + 20
                while "Continue (Enter)" in tmux.screen():
                    assert time.monotonic() < end, tmux.screen()
                    time.sleep(0.05)
                continue
            hidden = {pretty(c) for s in (1, 2) for c in game.hand(s)}
            assert not hidden & set(screen.split()), "another seat's card is on the screen"
            count = game.action_count
            legal = game.legal_actions(0)
            assert legal, "the screen says it is your turn, and the game agrees"
            action = legal[0]
            if isinstance(action, Bid):
                tmux.keys(str(action.tricks))
            else:
                assert isinstance(action, Play)
                rank = "t" if action.card % 13 == 8 else rank_text(action.card).lower()
                tmux.keys(rank, "cdhs"[action.card // 13])
            end = time.monotonic() + 20
            while Game.from_record(json.loads(save.read_text())).action_count <= count:
                assert time.monotonic() < end, tmux.screen()
                time.sleep(0.05)
        screen = tmux.wait_for("Final standings")
        assert "Scores over the hands" in screen
        final = Game.from_record(json.loads(save.read_text()))
        assert final.is_over
        tmux.keys("q")
        end = time.monotonic() + 20
        while not tmux.dead():
            assert time.monotonic() < end, "ohhell play did not exit on q"
            time.sleep(0.1)
        after = tmux.run("capture-pane", "-p", "-J", "-S", "-", "-t", "t")
        assert f"Game saved in {save}" in after
        assert (tmp_path / "rc").read_text().strip() == "0"      # the exit status
    finally:
        tmux.close()


def test_play_arguments_are_checked_before_the_screen_opens(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("OHHELL_HOME", str(tmp_path))
    assert main(["play", "--list-bots"]) == 0
    assert "random" in capsys.readouterr().out.split()
    assert main(["play", "--players", "9"]) == 2
    assert "bad rules: players must be 3 to 7, not 9" in capsys.readouterr().err
    assert main(["play", "--bots", "random,random"]) == 2
    assert "--bots names 2 bots for the 3 other seats" in capsys.readouterr().err
    assert main(["play", "--bots", "nobody"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    assert main(["play", "--names", "a,b"]) == 2
    assert "--names gives 2 names for 4 players" in capsys.readouterr().err
    assert main(["play", "--dealer", "5"]) == 2
    assert "--dealer must be a seat from 1 to 4" in capsys.readouterr().err
    assert main(["play", "--delay", "-1"]) == 2
    assert main(["play", "--resume", str(tmp_path / "none.json")]) == 2
    assert "no saved game at" in capsys.readouterr().err
    sheet = ScoreSheet(Rules(3, hand_sizes=[1]), ["A", "B", "C"])
    sheet.save(tmp_path / "s.json")
    assert main(["play", "--resume", str(tmp_path / "s.json")]) == 2
    assert "is a score sheet (ohhell score), not a game" in capsys.readouterr().err


def test_score_print_and_refusing_files_that_are_not_sheets(capsys, tmp_path):
    sheet = ScoreSheet(Rules(3, hand_sizes=[1, 2]), ["Ann", "Bob", "Cat"])
    for v in (0, 1, 0, 0, 1, 0):
        sheet.enter(v)
    path = tmp_path / "s.json"
    sheet.save(path)
    assert main(["score", str(path), "--print"]) == 0
    out = capsys.readouterr().out
    assert "Ann" in out and "0/0*   10" in out and "1/1*   11" in out and "Leading: Cat" in out
    record = tmp_path / "game.json"
    record.write_text(json.dumps(Game(Rules(3, hand_sizes=[1]), seed=1).record()))
    before = record.read_text()
    assert main(["score", str(record)]) == 2
    err = capsys.readouterr().err
    assert "is not a score sheet this version can read" in err and "open it with `ohhell replay`" in err
    assert record.read_text() == before                     # left untouched
    assert main(["score", str(tmp_path / "none.json"), "--print"]) == 2
    assert main(["score", str(tmp_path / "x.json"), "--start"]) == 2
    assert "--start needs --names" in capsys.readouterr().err
    assert main(["score", str(tmp_path / "x.json"), "--names", "a,b,c", "--players", "4"]) == 2


def test_replay_arguments(capsys, tmp_path):
    assert main(["replay", str(tmp_path / "none.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    rec = Game(Rules(3, hand_sizes=[1]), seed=1).record()
    rec["hands"][0]["bids"] = [5, None, None]
    bad.write_text(json.dumps(rec))
    assert main(["replay", str(bad)]) == 2
    assert "hand 1" in capsys.readouterr().err
    good = tmp_path / "good.json"
    good.write_text(json.dumps(Game(Rules(3, hand_sizes=[1]), seed=1).record()))
    assert main(["replay", str(good), "--game", "2"]) == 2
    assert "--game must be 1 to 1" in capsys.readouterr().err
    assert main(["replay", str(good), "--seat", "4"]) == 2
    assert "--seat must be 1 to 3" in capsys.readouterr().err
