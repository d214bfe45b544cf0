"""Arena throughput (games per second): locally in one process, and on Ray with 1 and 2 workers.

The same duplicate match (``ohhell.bots.match.run_match``, what ``ohhell arena`` runs) is
played side by side in one run: ``--jobs 1`` in this process, then on a local Ray instance
(``ray.init(num_cpus=CPUS)``) with at most 1 and then 2 games at once, in interleaved
rounds (a loaded machine's load drifts), reporting the median of each.  Ray's start-up is
timed apart and left out of the throughput; every run is checked to play the same games
(totals per game) as the local one.

    PYTHONPATH=src python benchmarks/ray_arena.py
    PYTHONPATH=src python benchmarks/ray_arena.py --bots heuristic,random --deals 40 --json ray_arena.json
    PYTHONPATH=src python benchmarks/ray_arena.py --address HEAD:6379 --workers 1,2,4,8

Ray runs its workers at a lower CPU priority (the raylet adds ``RAY_worker_niceness``, 15 by
default); on a machine shared with other work that alone slows them down, so the run prints
both priorities, and ``RAY_worker_niceness=0 python benchmarks/ray_arena.py`` measures the
workers at this process's priority.

Needs the ``ray`` extra (``pip install 'ohhell[ray]'``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

from ohhell.bots.distributed import RayPool
from ohhell.bots.match import ProcessPool, run_match
from ohhell.rules import Rules


def _niceness() -> int:
    return os.nice(0)


def _play(rules, bots, deals, seed, pool):
    t = time.perf_counter()
    m = run_match(rules, bots, deals=deals, seed=seed, pool=pool)
    return m, time.perf_counter() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", default="expert:iterations=20:seconds=60,heuristic",
                    help="bot specs (default: a searching bot held to an iteration budget, with a time cap it never reaches, so the games replay)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=4, help="deal sets (games: deal sets x rotations)")
    ap.add_argument("--seed", default="bench-ray")
    ap.add_argument("--workers", default="1,2", help="Ray workers to measure, comma-separated")
    ap.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray instance")
    ap.add_argument("--address", default=None, help="join this Ray cluster instead of starting one here")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds of the runs, interleaved so a change in the machine's load hits all alike")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    rules = Rules(args.players)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    load_before = os.getloadavg()[0]
    runs: dict[str, list[float]] = {}
    want = None
    games = 0
    t = time.perf_counter()
    with RayPool(args.address, num_cpus=None if args.address else args.cpus) as pool:
        startup = time.perf_counter() - t
        import ray
        niceness = {"this process": os.nice(0), "ray workers": ray.get(ray.remote(num_cpus=1)(_niceness).remote())}
        widths = [max(1, min(int(x), pool.cpus)) for x in args.workers.split(",")]
        print(f"niceness: {niceness['this process']} here, {niceness['ray workers']} in Ray's workers "
              "(Ray's raylet adds RAY_worker_niceness, 15 unless set, to its workers)", flush=True)
        print(f"Ray start-up {startup:.2f} s ({pool.cpus} CPUs); {args.rounds} rounds, each: local "
              f"--jobs 1, then Ray with {', '.join(map(str, widths))} workers", flush=True)
        for rnd in range(args.rounds):
            local, secs = _play(rules, bots, args.deals, args.seed, ProcessPool(1))
            games = local.games
            if want is None:
                want = [(r.deal, r.rotation, r.totals) for r in local.results]
                print(f"{games} games of {len(rules.hand_sizes)} hands ({' vs '.join(bots)}, "
                      f"{rules.players} players)", flush=True)
            runs.setdefault("local, --jobs 1", []).append(games / secs)
            print(f"  round {rnd + 1}: local, --jobs 1   {secs:7.2f} s  {games / secs:7.3f} games/s", flush=True)
            for w in widths:
                pool.workers = w
                m, secs = _play(rules, bots, args.deals, args.seed, pool)
                if [(r.deal, r.rotation, r.totals) for r in m.results] != want:
                    print("  the Ray run played other games than the local one", file=sys.stderr)
                    return 1
                label = f"Ray, {w} worker{'s' if w > 1 else ''}"
                runs.setdefault(label, []).append(games / secs)
                print(f"  round {rnd + 1}: {label:<17} {secs:7.2f} s  {games / secs:7.3f} games/s "
                      "(the local games)", flush=True)
    print("median games/s over the rounds:")
    rows = []
    for label, xs in runs.items():
        med = statistics.median(xs)
        rows.append({"run": label, "games_per_s": xs, "median": med})
        print(f"  {label:<17} {med:7.3f}   (rounds: {', '.join(f'{x:.3f}' for x in xs)})")
    print(f"load average (1 min): {load_before:.1f} before, {os.getloadavg()[0]:.1f} after; "
          f"{os.cpu_count()} cores")
    out = {"games": games, "hands_per_game": len(rules.hand_sizes), "bots": bots, "players": rules.players,
           "ray_startup_s": startup, "runs": rows, "niceness": niceness,
           "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                       "load_1min_before": load_before, "load_1min_after": os.getloadavg()[0]}}
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
