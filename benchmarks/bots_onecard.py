"""One-card hands: how often does a bot's bid equal the exact equilibrium bid?

Random one-card positions: 3 to 7 players, a random dealer and deal, trumps (or, in a
quarter of them, the no-trump last hand), the hook in half, a random scoring variant, and a
random number of earlier bids made by one of ``--earlier`` (default: the exact equilibrium
itself, the heuristic, the random bot, in turn).  At each position every bot in ``--bots``
bids, and its bid is compared with :func:`ohhell.bots.onecard.one_card_bid`.  Also reports
the exact computation's CPU time per decision (its memo cleared before each position, so the
time includes building every earlier seat's strategy; CPU time, as the machine may be shared).

    python benchmarks/bots_onecard.py --positions 600 --bots "expert,expert:one_card=false:iterations=40"
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from ohhell import Game, Rules
from ohhell.actions import BIDS
from ohhell.bots.match import make_spec
from ohhell.bots.onecard import clear_caches, one_card_bid


def _position(rng: random.Random, earlier_bots: dict) -> tuple[Game, int, str]:
    n = rng.randint(3, 7)
    variant = rng.choice(["", "missed", "zero"])
    rules = Rules(n, hand_sizes=[1], no_trump="last" if rng.random() < 0.25 else "never",
                  hook=rng.random() < 0.5, missed_bid_scores_tricks=variant == "missed",
                  zero_bid_scores_hand_size=variant == "zero")
    g = Game(rules, seed=rng.randrange(1 << 30), dealer=rng.randrange(n))
    kind = rng.choice(sorted(earlier_bots))
    for _ in range(rng.randrange(n)):
        seat = g.to_act
        assert seat is not None
        v = g.view(seat)
        bot = earlier_bots[kind]
        g.apply(BIDS[one_card_bid(v)[0]] if bot is None else bot.act(v))
    assert g.to_act is not None
    return g, g.to_act, kind


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=600)
    ap.add_argument("--bots", default="expert,expert:one_card=false:iterations=40")
    ap.add_argument("--earlier", default="exact,heuristic,random")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    rng = random.Random(a.seed)
    earlier_bots = {k: (None if k == "exact" else make_spec(k, seed=a.seed)) for k in a.earlier.split(",")}
    specs = a.bots.split(",")
    bots = [make_spec(s, seed=a.seed) for s in specs]
    agree = [0] * len(bots)
    agree_by = [{k: [0, 0] for k in earlier_bots} for _ in bots]
    secs = [0.0] * len(bots)
    exact_times = []
    forced = 0
    close = 0
    agree_close = [0] * len(bots)
    for _ in range(a.positions):
        g, seat, kind = _position(rng, earlier_bots)
        v = g.view(seat)
        clear_caches()
        t = time.process_time()
        want, _, values = one_card_bid(v)
        forced += len(v.legal) == 1
        near = len(values) == 2 and abs(values[0] - values[1]) < 1  # bids within a point
        close += near
        exact_times.append((time.process_time() - t, g.players))
        for i, bot in enumerate(bots):
            t = time.perf_counter()
            got = bot.act(v).tricks
            secs[i] += time.perf_counter() - t
            ok = got == want
            agree[i] += ok
            agree_close[i] += ok and near
            agree_by[i][kind][0] += ok
            agree_by[i][kind][1] += 1
    print(f"{a.positions} one-card positions (seed {a.seed}; {forced} with one legal bid); "
          f"earlier bids by {a.earlier}")
    print("| bot | bids equal to the exact bid | by who made the earlier bids | "
          f"close positions ({close}: the two bids' expected scores within 1 point) | wall time per bid |")
    print("|---|---|---|---|---|")
    for i, s in enumerate(specs):
        by = ", ".join(f"{k} {100 * x / max(1, m):.0f}% of {m}" for k, (x, m) in agree_by[i].items())
        print(f"| `{s}` | {agree[i]} ({100 * agree[i] / a.positions:.1f}%) | {by} | "
              f"{agree_close[i]} ({100 * agree_close[i] / max(1, close):.0f}%) | {1000 * secs[i] / a.positions:.1f} ms |")
    times = sorted(t for t, _ in exact_times)
    worst7 = max((t for t, n in exact_times if n == 7), default=0.0)
    print(f"exact one_card_bid, memo cleared, CPU time: median {1000 * times[len(times) // 2]:.1f} ms, "
          f"worst {1000 * times[-1]:.1f} ms, worst at 7 players {1000 * worst7:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
