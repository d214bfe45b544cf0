"""A bot against the ``pimc`` reference, duplicate, 3 players, hand sizes 1 to 10, standard scoring.

Published work measures an Oh Hell self-play agent at +1.19 points per hand over a
50-determinization PIMC bot (3 players, hand sizes 1..10); this puts ours on that scale.
Each deal set is one game's deals replayed once per rotation of the seats
(``ohhell.bots.match``, what ``ohhell arena`` runs), so luck cancels; the margin is
A's mean total minus pimc's mean total per deal set, per hand, with its 95% interval.
The resumable duplicate loop is ``benchmarks/bots_duel.py``'s.

    python benchmarks/bots_pimc.py --deals 20 --jobs 2 --log pimc.jsonl
    python benchmarks/bots_pimc.py --deals 40 --log pimc.jsonl --resume   # go on with a run
    python benchmarks/bots_pimc.py --bot expert:iterations=100 --pimc pimc:exact_tricks=5
    python benchmarks/bots_pimc.py --solver-times 8,9,10 --positions 5   # full max^n solve times
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from bots_duel import run_duel
from ohhell.rules import Rules


def solver_times(sizes: list[int], positions: int, plain_up_to: int = 8) -> None:
    """Time full max^n solves of random 3-player deals (standard scoring, random bids, a trump):
    :func:`solve_cards` (equivalent cards merged) and, up to ``plain_up_to`` cards, :func:`solve`."""
    import random

    from ohhell.bots.solver import solve, solve_cards
    from ohhell.fast import HandState
    from ohhell.scoring import hand_score
    rules = Rules(3)
    for k in sizes:
        merged, plain = [], []
        for i in range(positions):
            rng = random.Random(f"solve:{k}:{i}")
            cards = rng.sample(range(52), 3 * k + 1)
            hands = [0, 0, 0]
            for j, c in enumerate(cards[:3 * k]):
                hands[j % 3] |= 1 << c
            bids = [rng.randrange(k + 1) for _ in range(3)]
            st = HandState(hands, cards[-1] // 13, rng.randrange(3), hand_size=k, bids=bids)
            score = [[hand_score(bids[s], t, k, rules) for t in range(k + 1)] for s in range(3)]
            t = time.perf_counter()
            solve_cards(st, score, root=False)
            merged.append(time.perf_counter() - t)
            if k <= plain_up_to:
                t = time.perf_counter()
                solve(st, score)
                plain.append(time.perf_counter() - t)
        line = (f"{k} cards, {positions} deals: solve_cards median {statistics.median(merged):.3f}s "
                f"worst {max(merged):.3f}s")
        if plain:
            line += f"; solve median {statistics.median(plain):.3f}s worst {max(plain):.3f}s"
        print(line, flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bot", default="expert", help="bot A's spec (default expert)")
    ap.add_argument("--pimc", default="pimc", help="the reference's spec (default pimc)")
    ap.add_argument("--deals", type=int, default=20, help="deal sets (each played once per rotation)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", default="bench-pimc")
    ap.add_argument("--log", default=None, help="append each game's result here (JSON lines)")
    ap.add_argument("--resume", action="store_true",
                    help="with --log: keep the games already in the log (played with the same options) "
                         "and play only the missing ones")
    ap.add_argument("--json", default=None, help="write the summary here")
    ap.add_argument("--solver-times", default=None,
                    help="instead of a match: time full solves of random 3-player deals of these sizes (e.g. 8,9,10)")
    ap.add_argument("--positions", type=int, default=5, help="with --solver-times: deals per size")
    args = ap.parse_args(argv)
    if args.solver_times:
        solver_times([int(x) for x in args.solver_times.split(",")], args.positions)
        return 0
    rules = Rules(3, hand_sizes=list(range(1, 11)))
    config = {"seed": args.seed, "bot": args.bot, "pimc": args.pimc}   # the logs' key since 2026-11
    try:
        s = run_duel(args.bot, args.pimc, rules, args.deals, seed=args.seed, jobs=args.jobs, log=args.log,
                     resume=args.resume, config=config)
    except ValueError as e:
        ap.error(str(e))
    print(json.dumps(s, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(s, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
