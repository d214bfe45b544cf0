"""Decision time of each bot at every player count (3 to 7), standard rules.

Plays whole games (every seat the measured bot, so positions are natural) and
times every decision the bot makes: bids and cards, from the first hand (1
card) to the largest.  Reports the median, the 99th percentile and the worst.

    python benchmarks/bots_time.py --bots heuristic,expert --games 1 --json bots_time.json

``--clock cpu`` times each decision by the process's CPU time instead of the wall clock, for a
machine that other work shares (a bot on a wall-clock budget still stops by the wall clock).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from ohhell.bots import make, play_game
from ohhell.game import Game
from ohhell.rules import Rules


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


class _Timed:
    def __init__(self, bot, sink, clock=time.perf_counter):
        self.bot = bot
        self.sink = sink
        self.clock = clock

    def act(self, view, budget=None):
        t = self.clock()
        a = self.bot.act(view, budget)
        self.sink.append((self.clock() - t, view.phase, view.hand_size))
        return a


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", default="heuristic,expert")
    ap.add_argument("--players", default="3,4,5,6,7")
    ap.add_argument("--games", type=int, default=1, help="games per bot and player count")
    ap.add_argument("--seed", default="bench-time")
    ap.add_argument("--json", default=None)
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                    help="wall (default) or cpu: the process's CPU time, for a shared machine")
    args = ap.parse_args(argv)
    rows = []
    print(f"{'bot':<12} {'players':>7} {'decisions':>9} {'median ms':>10} {'p99 ms':>9} {'worst ms':>9} "
          f"{'worst at':>14}")
    for name in args.bots.split(","):
        for n in [int(x) for x in args.players.split(",")]:
            times = []
            for g in range(args.games):
                sink = []
                bots = [_Timed(make(name, seed=f"{args.seed}:{g}:{s}"), sink, CLOCKS[args.clock]) for s in range(n)]
                play_game(Game(Rules(n), seed=f"{args.seed}:{n}:{g}"), bots)
                times += sink
            ts = sorted(t for t, _, _ in times)
            worst = max(times)
            row = {"bot": name, "players": n, "clock": args.clock, "decisions": len(ts),
                   "median_ms": 1000 * statistics.median(ts), "p99_ms": 1000 * ts[int(0.99 * (len(ts) - 1))],
                   "worst_ms": 1000 * worst[0], "worst_at": f"{worst[1]} ({worst[2]} cards)"}
            rows.append(row)
            print(f"{name:<12} {n:>7} {row['decisions']:>9} {row['median_ms']:>10.3f} {row['p99_ms']:>9.2f} "
                  f"{row['worst_ms']:>9.1f} {row['worst_at']:>14}", flush=True)
            if args.json:
                with open(args.json, "w", encoding="utf-8") as f:
                    json.dump(rows, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
