"""How long a friendly table's hint takes: the hint bot (``expert``) deciding from one seat's
view with the server's budget (``tables.HINT_SECONDS``), over positions of random games.

    PYTHONPATH=src python benchmarks/hint_time.py --positions 12

Prints the median and the slowest wall time per hint, bids and cards apart.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ohhell import Game, Rules
from ohhell.bots.hints import hint_bot_name, hint_for
from ohhell.server.tables import HINT_SECONDS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    times: dict[str, list[float]] = {"bid": [], "play": []}
    name = hint_bot_name()
    for k in range(args.positions):
        game = Game(Rules(4, hand_sizes=[7, 5, 3]), seed=args.seed * 1000 + k)
        for _ in range(rng.randrange(0, 40)):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        if game.is_over:
            continue
        view = game.view(game.seats_to_act[0])
        t0 = time.perf_counter()
        h = hint_for(name, view, HINT_SECONDS)
        times[h["kind"]].append(time.perf_counter() - t0)
    for kind, ts in times.items():
        if ts:
            print(f"{kind}: {len(ts)} hints by {name}, median {statistics.median(ts):.2f} s, "
                  f"slowest {max(ts):.2f} s (budget {HINT_SECONDS} s)")


if __name__ == "__main__":
    main()
