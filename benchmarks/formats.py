"""Export and import speed of the open formats (PBN, OpenSpiel's oh_hell history).

    PYTHONPATH=src python benchmarks/formats.py --games 50 --hands 500

Plays ``--games`` standard 4-player games (13 hands each) with random legal
actions and times :func:`ohhell.pbn.dumps` and :func:`ohhell.pbn.loads` on
each (the import replays and checks every action and derived tag); then
``--hands`` OpenSpiel-preset hands of 10 cards for 4 players through
:func:`ohhell.openspiel_format.to_openspiel` and ``from_openspiel``.  Every
round trip is checked.  Prints the best of ``--repeat`` runs per item.
"""

from __future__ import annotations

import argparse
import random
import time

from ohhell import Game, Rules, pbn
from ohhell.openspiel_format import from_openspiel, to_openspiel
from ohhell.state import BID


def _play(game: Game, rng: random.Random) -> Game:
    while not game.is_over:
        if game.phase == BID and game.rules.simultaneous_bidding:
            seat = rng.choice(game.seats_to_act)
            game.apply(rng.choice(game.legal_actions(seat)), seat=seat)
        else:
            game.apply(rng.choice(game.legal_actions()))
    return game


def _best(fn, items, repeat):
    best = float("inf")
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = [fn(x) for x in items]
        best = min(best, time.perf_counter() - t)
    return best / len(items), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    games = [_play(Game(Rules(4), seed=i), random.Random(i)) for i in range(args.games)]
    per_export, texts = _best(pbn.dumps, games, args.repeat)
    per_import, back = _best(pbn.loads, texts, args.repeat)
    assert all(a.fingerprint() == b.fingerprint() for a, b in zip(games, back))
    size = sum(map(len, texts)) / len(texts) / 1024
    print(f"PBN, {args.games} standard 4-player games of 13 hands: export {1000 * per_export:.1f} ms/game, "
          f"import {1000 * per_import:.1f} ms/game, {size:.1f} KiB/game")

    hands = [_play(Game(Rules.preset("openspiel", players=4, tricks=10), seed=i), random.Random(i))
             for i in range(args.hands)]
    per_export, exported = _best(lambda g: to_openspiel(g).text(), hands, args.repeat)
    per_import, back = _best(from_openspiel, exported, args.repeat)
    assert all(a.record()["hands"] == b.record()["hands"] for a, b in zip(hands, back))
    print(f"OpenSpiel, {args.hands} hands of 10 cards for 4 players: export {1e6 * per_export:.0f} us/hand, "
          f"import {1e6 * per_import:.0f} us/hand")


if __name__ == "__main__":
    main()
