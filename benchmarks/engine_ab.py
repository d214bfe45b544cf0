"""Engine speed of two source trees, A/B, on CPU time: did a change slow the public API?

Runs the public-API loop of ``benchmarks/engine.py`` (``Game(rules, seed=hand)`` then
``g.apply(rng.choice(g.legal_actions()))`` until over; 4 players, 5 tricks) and a loop of whole
standard games, in alternating subprocesses, one per tree, and reports decisions per second of
*CPU* time (``time.process_time``).  A machine loaded by other jobs swings wall-clock figures
by tens of percent between rounds; CPU time moves far less, and alternating the trees lets
what noise remains hit both alike.  Each tree is a directory holding the ``ohhell`` package
(e.g. ``src`` of a checkout, or of ``git archive <commit> src | tar -x -C /tmp/old``).
Usage::

    python benchmarks/engine_ab.py OLD_SRC NEW_SRC [--runs 10] [--hands 15000] [--games 150]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

CODE = r'''
import random, sys, time
import ohhell
hands, games = int(sys.argv[1]), int(sys.argv[2])
rules = ohhell.Rules.preset("openspiel", players=4, tricks=5)
choice = random.Random(1).choice
d = 0
t = time.process_time()
for hand in range(hands):
    g = ohhell.Game(rules, seed=hand)
    while not g.is_over:
        g.apply(choice(g.legal_actions()))
        d += 1
per_hand = d / (time.process_time() - t)
rules = ohhell.Rules(4)
choice = random.Random(2).choice
d = 0
t = time.process_time()
for n in range(games):
    g = ohhell.Game(rules, seed=n)
    while not g.is_over:
        g.apply(choice(g.legal_actions()))
        d += 1
print(per_hand, d / (time.process_time() - t))
'''


def run(src: str, hands: int, games: int) -> tuple[float, float]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    out = subprocess.run([sys.executable, "-c", CODE, str(hands), str(games)], env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), float(out[1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old", help="directory holding the old ohhell package")
    ap.add_argument("new", help="directory holding the new ohhell package")
    ap.add_argument("--runs", type=int, default=10, help="runs per tree, alternating")
    ap.add_argument("--hands", type=int, default=15000, help="hands of the per-hand API loop per run")
    ap.add_argument("--games", type=int, default=150, help="whole standard games per run")
    args = ap.parse_args(argv)
    res: dict[str, list[tuple[float, float]]] = {"old": [], "new": []}
    for i in range(args.runs):
        order = [("old", args.old), ("new", args.new)]
        for name, src in (order if i % 2 == 0 else order[::-1]):
            res[name].append(run(src, args.hands, args.games))
        print(f"run {i + 1}/{args.runs} done", file=sys.stderr)
    for name, rows in res.items():
        a = [r[0] for r in rows]
        b = [r[1] for r in rows]
        print(f"{name}: API per hand {statistics.median(a) / 1e3:.0f}k ({min(a) / 1e3:.0f}-{max(a) / 1e3:.0f}k), "
              f"whole games {statistics.median(b) / 1e3:.0f}k ({min(b) / 1e3:.0f}-{max(b) / 1e3:.0f}k) "
              f"decisions per CPU second")
    for j, what in ((0, "API per hand"), (1, "whole games")):
        ratios = [n[j] / o[j] for n, o in zip(res["new"], res["old"])]
        print(f"new/old, {what}: median of paired ratios {statistics.median(ratios):.3f} "
              f"({' '.join(f'{r:.3f}' for r in ratios)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
