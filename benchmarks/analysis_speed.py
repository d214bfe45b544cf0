"""How long ``ohhell analyze`` takes: whole games, one core, the default settings.

Games of the standard schedule (hand sizes 1 to 13 for 4 players, 1 to 10 for 5), played by
``intermediate`` and ``beginner`` seats, are analysed with ``ohhell.coach.analyze_game``
(default samples, luck included, ``jobs=1``); the wall time and CPU time of each (with
``jobs=1`` the CPU time is the time on one core, whatever else the machine runs) and the
machine are printed as JSON.  Targets: a 4-player game in 30 s, a 5-player game in 45 s.

    nice -n 10 python benchmarks/analysis_speed.py --games 3 --players 4 5
    python benchmarks/analysis_speed.py --games 1 --players 4 --jobs 2     # with processes

``--compare-src DIR`` measures another version of the code side by side with this one, on
the same games and machine: each game is analysed by both, one after the other in fresh
processes (this ``src`` and ``DIR``, e.g. ``git archive main src | tar -x -C /tmp/main``
then ``--compare-src /tmp/main/src``), alternating which goes first, so that both see the
same load:

    nice -n 15 python benchmarks/analysis_speed.py --games 3 --players 4 5 --compare-src /tmp/main/src
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

from ohhell import Game, Rules
from ohhell.bots import make, play_game
from ohhell.coach import DEFAULT_SAMPLES, analyze_game

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")


def one_game(n: int, i: int, samples: int, jobs: int) -> dict:
    """Analyse game ``i`` of ``n`` players; its wall and CPU seconds and its decisions."""
    g = Game(Rules(n), seed=f"speed:{n}:{i}")
    play_game(g, [make("intermediate" if s % 2 == 0 else "beginner", seed=f"speed:{i}:{s}") for s in range(n)])
    t, c = time.perf_counter(), time.process_time()
    a = analyze_game(g, samples=samples, seed=i, jobs=jobs)
    return {"seconds": time.perf_counter() - t, "cpu": time.process_time() - c,
            "decisions": sum(len(h["decisions"]) for h in a.hands)}


def _in_process(src: str, n: int, i: int, samples: int, jobs: int) -> dict:
    env = dict(os.environ, PYTHONPATH=src + (os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else ""))
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", f"{n}:{i}", "--samples", str(samples),
                          "--jobs", str(jobs)], env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def _summary(runs: list[dict], n: int) -> dict:
    times = [r["seconds"] for r in runs]
    cpu = [r["cpu"] for r in runs]
    return {"hands": len(Rules(n).hand_sizes), "decisions": [r["decisions"] for r in runs],
            "seconds": [round(x, 2) for x in times], "mean_s": round(statistics.fmean(times), 2),
            "max_s": round(max(times), 2), "cpu_seconds": [round(x, 2) for x in cpu],
            "cpu_mean_s": round(statistics.fmean(cpu), 2), "cpu_max_s": round(max(cpu), 2)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--players", type=int, nargs="+", default=[4, 5])
    p.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--compare-src", default=None, metavar="DIR",
                   help="also time the code under DIR (a src directory), game by game, side by side")
    p.add_argument("--one", default=None, help=argparse.SUPPRESS)   # N:I, one game, JSON out (a child)
    args = p.parse_args(argv)
    if args.one:
        n, i = (int(x) for x in args.one.split(":"))
        print(json.dumps(one_game(n, i, args.samples, args.jobs)))
        return 0
    out = {"machine": {"python": platform.python_version(), "cpu": platform.processor() or platform.machine(),
                       "cores": os.cpu_count(), "load_before": os.getloadavg()},
           "samples": args.samples, "jobs": args.jobs, "results": {}}
    if args.compare_src:
        out["compare_src"] = args.compare_src
        out["results_compared"] = {}
    for n in args.players:
        runs, other = [], []
        for i in range(args.games):
            if args.compare_src:
                pair = [("this", SRC), ("compared", args.compare_src)]
                if i % 2:
                    pair.reverse()
                got = {name: _in_process(src, n, i, args.samples, args.jobs) for name, src in pair}
                runs.append(got["this"])
                other.append(got["compared"])
                print(f"{n} players, game {i}: this {got['this']['cpu']:.1f} s CPU, compared "
                      f"{got['compared']['cpu']:.1f} s CPU (load {os.getloadavg()[0]:.1f})", file=sys.stderr, flush=True)
            else:
                r = one_game(n, i, args.samples, args.jobs)
                runs.append(r)
                print(f"{n} players, game {i}: {r['seconds']:.1f} s ({r['cpu']:.1f} s CPU) for {r['decisions']} decisions",
                      file=sys.stderr, flush=True)
        out["results"][str(n)] = _summary(runs, n)
        if other:
            out["results_compared"][str(n)] = _summary(other, n)
    out["machine"]["load_after"] = os.getloadavg()
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
