"""Count files for move generation (as chess engines' perft): the number of action
sequences of each length from fixed positions.  Any change in which bids or cards
are legal changes a count."""

import json
import os
import pathlib

import pytest

from ohhell import Game, Rules

DATA = pathlib.Path(__file__).parent.parent / "data" / "perft.json"

POSITIONS = {
    "4p-3c-hook": (Rules(4, hand_sizes=[3], hook=True, no_trump="never"), "perft-1", 9),
    "3p-4c-must-trump": (Rules(3, hand_sizes=[4], must_trump=True, no_trump="never"), "perft-2", 9),
    "5p-2c-no-trump": (Rules(5, hand_sizes=[2]), "perft-3", 10),
    "4p-13c-whole-deck": (Rules(4, hand_sizes=[13], hook=True), "perft-4", 6),
}


def perft(game: Game, depth: int) -> int:
    if depth == 0 or game.is_over:
        return 1
    total = 0
    for a in game.legal_actions():
        game.apply(a)
        total += perft(game, depth - 1)
        assert game.undo() is a
    return total


def _counts(name):
    rules, seed, depth = POSITIONS[name]
    game = Game(rules, seed=seed, dealer=0)
    before = game.fingerprint()
    counts = [perft(game, d) for d in range(1, depth + 1)]
    assert game.fingerprint() == before
    return counts


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_perft_counts(name):
    got = _counts(name)
    data = json.loads(DATA.read_text()) if DATA.exists() else {}
    if os.environ.get("OHHELL_REGENERATE_GOLDEN"):
        data[name] = got
        DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    assert got == data[name]
