"""How much of the expert's bid search is noise: the same bid positions decided with two seeds.

Random bid positions of a preset (``--preset``, default ``openspiel``): a deal from a numbered
seed, then 0 to ``players - 1`` earlier bids by the heuristic. The bot (``--bot``, any spec)
decides each position's bid twice, with seeds 1 and 2; where the two bids differ, a third run
(seed 3) says how far apart their expected scores are. A bot whose bids rarely change with the
seed gains nothing from more searches: what its bids lack is in its model, not its sampling.

    python benchmarks/bid_noise.py --positions 150
    python benchmarks/bid_noise.py --positions 100 --bot expert:iterations=100
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from ohhell import Game, Rules
from ohhell.bots import make
from ohhell.bots.match import make_spec


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=150)
    ap.add_argument("--bot", default="expert:seconds=30:bidder=search", help="the bot's spec (default: "
                    "the expert's bid search, its 400 sampled deals a decision whatever the machine's load; "
                    "the expert's default bid, the learned level's, does not depend on a seed)")
    ap.add_argument("--preset", default="openspiel")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    rules = Rules.preset(args.preset)
    rng = random.Random(args.seed)
    heuristic = make("heuristic")
    differ, gaps = 0, []
    t0 = time.time()
    for i in range(args.positions):
        g = Game(rules, seed=f"noise{i}")
        for _ in range(rng.randrange(rules.players)):
            g.apply(heuristic.act(g.view(g.to_act)))
        view = g.view(g.to_act)
        first = make_spec(args.bot, seed=1).decide(view)
        second = make_spec(args.bot, seed=2).decide(view)
        if first.action != second.action:
            differ += 1
            third = make_spec(args.bot, seed=3).decide(view)
            gaps.append(abs(third.values.get(first.action, 0.0) - third.values.get(second.action, 0.0)))
    n = args.positions
    print(f"{n} positions ({args.preset}, {args.bot}): the two seeds bid differently in {differ} "
          f"({100 * differ / n:.1f}%); those bids' expected scores apart by a third run: "
          f"{', '.join(f'{x:.2f}' for x in sorted(gaps)) or 'none'}; {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
