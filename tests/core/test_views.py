"""Golden views: what each seat and a spectator are sent at chosen moments of fixed games."""

import json
import os
import pathlib
import random

import pytest

from ohhell import Game, Rules

from .strategies import play_random

DATA = pathlib.Path(__file__).parent.parent / "data" / "views"

CASES = {
    # name: (rules, seed, steps taken before the views are written)
    "standard-mid-trick": (Rules(4, hand_sizes=[3, 4]), "views-1", 9),
    "simultaneous-mid-bidding": (Rules(5, hand_sizes=[2, 3], simultaneous_bidding=True), "views-2", 2),
    "must-trump-second-hand": (Rules.preset("la-podrida", players=3, hand_sizes=[2, 3]), "views-3", 12),
    "game-over": (Rules(3, hand_sizes=[1, 2], hook=True), "views-4", None),
}


def _views(name):
    rules, seed, steps = CASES[name]
    game = play_random(Game(rules, seed=seed, names=[f"P{s}" for s in range(rules.players)]),
                       random.Random(seed), steps)
    out = {f"seat {s}": game.view(s).to_dict() for s in range(rules.players)}
    out["spectator"] = game.spectator_view().to_dict()
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_views(name):
    path = DATA / f"{name}.json"
    got = _views(name)
    if os.environ.get("OHHELL_REGENERATE_GOLDEN"):
        DATA.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(got, indent=1) + "\n")
    assert got == json.loads(path.read_text())


def test_simultaneous_golden_view_hides_the_bids():
    views = json.loads((DATA / "simultaneous-mid-bidding.json").read_text())
    made = [s for s in range(5) if views[f"seat {s}"]["bids"][s] is not None]
    assert len(made) == 2
    for s in range(5):
        bids = views[f"seat {s}"]["bids"]
        assert [b is not None for b in bids] == [t == s and s in made for t in range(5)]
    assert views["spectator"]["hand"] == [] and views["spectator"]["bids"] == [None] * 5
