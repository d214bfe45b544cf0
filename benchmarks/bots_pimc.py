"""A bot against the ``pimc`` reference, duplicate, 3 players, hand sizes 1 to 10, standard scoring.

Published work measures an Oh Hell self-play agent at +1.19 points per hand over a
50-determinization PIMC bot (3 players, hand sizes 1..10); this puts ours on that scale.
Each deal set is one game's deals replayed once per rotation of the seats
(``ohhell.bots.match``, what ``ohhell arena`` runs), so luck cancels; the margin is
A's mean total minus pimc's mean total per deal set, per hand, with its 95% interval.

    python benchmarks/bots_pimc.py --deals 20 --jobs 2 --log pimc.jsonl
    python benchmarks/bots_pimc.py --deals 40 --log pimc.jsonl --resume   # go on with a run
    python benchmarks/bots_pimc.py --bot expert:iterations=100 --pimc pimc:exact_tricks=5
    python benchmarks/bots_pimc.py --solver-times 8,9,10 --positions 5   # full max^n solve times
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing as mp
import statistics
import sys
import time

from ohhell.bots.match import GameResult, MatchResult, _mean_ci, lineup, make_spec, play_one, rotations
from ohhell.rules import Rules


def summarize(results: list[GameResult], rules: Rules, bot: str, pimc: str, seed: str) -> dict:
    m = MatchResult(rules, [bot, pimc], seed, results)
    per_deal = m.per_deal()
    hands = len(rules.hand_sizes)
    full = {r.deal for r in results}
    margins = [(a - b) / hands for a, b in zip(per_deal[bot], per_deal[pimc])]
    mean, ci = _mean_ci(margins)
    out = {"deal_sets": len(full), "games": len(results), "margin_per_hand": mean, "ci95": ci}
    for name in (bot, pimc):
        times = [t for r in results for t in r.times.get(name, [])]
        out[name] = {"per_hand": statistics.fmean(per_deal[name]) / hands if per_deal[name] else float("nan"),
                     "decision_ms_median": 1000 * statistics.median(times) if times else float("nan"),
                     "decision_ms_max": 1000 * max(times) if times else float("nan"),
                     "decisions": len(times)}
    return out


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
    seats = lineup([args.bot, args.pimc], 3)
    for spec in dict.fromkeys(seats):
        make_spec(spec, seed=0)           # fail early on an unknown bot or option
    rots = rotations(seats)
    config = {"seed": args.seed, "bot": args.bot, "pimc": args.pimc}
    results: list[GameResult] = []
    if args.resume:
        if not args.log:
            ap.error("--resume needs --log")
        try:
            with open(args.log, encoding="utf-8") as f:
                for line_no, line in enumerate(f, 1):
                    r = json.loads(line)
                    if r.pop("config", config) != config:
                        ap.error(f"{args.log} line {line_no} was played with other options")
                    if r["deal"] < args.deals:
                        results.append(GameResult(**r))
        except FileNotFoundError:
            pass
    done = {(r.deal, r.rotation) for r in results}
    tasks = [(rules.to_dict(), args.seed, d, ri, rot, None, False)
             for d in range(args.deals) for ri, rot in enumerate(rots) if (d, ri) not in done]
    start = time.perf_counter()
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    with mp.get_context("fork").Pool(max(1, args.jobs)) as pool:
        for res in pool.imap_unordered(play_one, tasks):
            results.append(res)
            if log:
                log.write(json.dumps({**dataclasses.asdict(res), "config": config}) + "\n")
                log.flush()
            complete = [r for r in results
                        if sum(1 for x in results if x.deal == r.deal) == len(rots)]
            if complete:
                s = summarize(complete, rules, args.bot, args.pimc, args.seed)
                print(f"{len(results)}/{args.deals * len(rots)} games, {time.perf_counter() - start:.0f}s: "
                      f"{args.bot} - {args.pimc} {s['margin_per_hand']:+.2f} ± {s['ci95']:.2f} per hand "
                      f"over {s['deal_sets']} deal sets", file=sys.stderr, flush=True)
    complete = [r for r in results if sum(1 for x in results if x.deal == r.deal) == len(rots)]
    s = summarize(complete, rules, args.bot, args.pimc, args.seed)
    s.update({"seconds": time.perf_counter() - start, **config})
    print(json.dumps(s, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(s, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
