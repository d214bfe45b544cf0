"""How long ``ohhell analyze`` takes: whole games, one core, the default settings.

Games of the standard schedule (hand sizes 1 to 13 for 4 players, 1 to 10 for 5), played by
``intermediate`` and ``beginner`` seats, are analysed with ``ohhell.coach.analyze_game``
(default samples, luck included, ``jobs=1``); the wall time and CPU time of each (with
``jobs=1`` the CPU time is the time on one core, whatever else the machine runs) and the
machine are printed as JSON.  Targets: a 4-player game in 30 s, a 5-player game in 45 s.

    nice -n 10 python benchmarks/analysis_speed.py --games 3 --players 4 5
    python benchmarks/analysis_speed.py --games 1 --players 4 --jobs 2     # with processes
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

from ohhell import Game, Rules
from ohhell.bots import make, play_game
from ohhell.coach import DEFAULT_SAMPLES, analyze_game


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--players", type=int, nargs="+", default=[4, 5])
    p.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args(argv)
    out = {"machine": {"python": platform.python_version(), "cpu": platform.processor() or platform.machine(),
                       "cores": os.cpu_count(), "load_before": os.getloadavg()},
           "samples": args.samples, "jobs": args.jobs, "results": {}}
    for n in args.players:
        times, cpu, decisions = [], [], []
        for i in range(args.games):
            g = Game(Rules(n), seed=f"speed:{n}:{i}")
            play_game(g, [make("intermediate" if s % 2 == 0 else "beginner", seed=f"speed:{i}:{s}")
                          for s in range(n)])
            t, c = time.perf_counter(), time.process_time()
            a = analyze_game(g, samples=args.samples, seed=i, jobs=args.jobs)
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            decisions.append(sum(len(h["decisions"]) for h in a.hands))
            print(f"{n} players, game {i}: {times[-1]:.1f} s ({cpu[-1]:.1f} s CPU) for {decisions[-1]} decisions",
                  file=sys.stderr,
                  flush=True)
        out["results"][str(n)] = {"hands": len(Rules(n).hand_sizes), "decisions": decisions,
                                  "seconds": [round(x, 2) for x in times],
                                  "mean_s": round(statistics.fmean(times), 2), "max_s": round(max(times), 2),
                                  "cpu_seconds": [round(x, 2) for x in cpu],
                                  "cpu_mean_s": round(statistics.fmean(cpu), 2), "cpu_max_s": round(max(cpu), 2)}
    out["machine"]["load_after"] = os.getloadavg()
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
