"""Research environment throughput, side by side with OpenSpiel's C++ loop in one run.

    python benchmarks/env.py                 # the full run (about two minutes on 2 cores)
    python benchmarks/env.py --quick         # a smoke run
    python benchmarks/env.py --json out.json --plot env.png

What is measured (decisions = bids + card plays, random legal choices):

* ``openspiel C++``: ``pyspiel.evaluate_bots`` with ``pyspiel.make_uniform_random_bot``
  on OpenSpiel's ``oh_hell`` (4 players, ``num_tricks_fixed=5``): OpenSpiel's
  native loop, all in C++.
* ``ohhell kernel``: :func:`ohhell.env.batch.simulate` on the same game (the
  ``openspiel`` preset: 4 players, one hand of 5 tricks, hook, a trump always
  turned, missed bids score their tricks), on one thread and on every core,
  and on the whole standard game (4 players, 13 hands).
* the Python-level environments: :class:`ohhell.env.OhHellEnv` (PettingZoo
  AEC, with observations), :class:`ohhell.env.OhHellGymEnv` (random bots as
  opponents) and :class:`ohhell.env.batch.BatchedGames` stepped with masks and
  observations (the training path).

Each configuration runs ``--rounds`` times, interleaved, and the table shows
the median; the ratios divide medians of the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from ohhell import Rules  # noqa: E402
from ohhell.env import OhHellEnv, OhHellGymEnv  # noqa: E402
from ohhell.env.batch import HAVE_NUMBA, BatchedGames, simulate  # noqa: E402

OS_PARAMS = {"players": 4, "num_tricks_fixed": 5}
OS_RULES = Rules.preset("openspiel", players=4, tricks=5)
DECISIONS_PER_OS_GAME = 4 + 4 * 5


def bench_openspiel(games: int) -> float:
    import pyspiel
    game = pyspiel.load_game("oh_hell", OS_PARAMS)
    bots = [pyspiel.make_uniform_random_bot(p, 100 + p) for p in range(4)]
    t = time.perf_counter()
    for i in range(games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, i)
    return games * DECISIONS_PER_OS_GAME / (time.perf_counter() - t)


def bench_kernel(rules: Rules, games: int, threads: int, seed: int) -> float:
    r = simulate(rules, num_games=games, seed=seed, threads=threads)
    return r.decisions_per_second


def bench_aec(games: int) -> float:
    env = OhHellEnv(players=4, hand_sizes=[5], hook=True, no_trump="never", missed_bid_scores_tricks=True)
    rng = np.random.default_rng(0)
    steps = 0
    t = time.perf_counter()
    for i in range(games):
        env.reset(seed=i)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - t)


def bench_gym(games: int) -> float:
    env = OhHellGymEnv(OS_RULES, opponents="random")
    rng = np.random.default_rng(0)
    decisions = 0
    t = time.perf_counter()
    for i in range(games):
        obs, _ = env.reset(seed=i)
        done = False
        while not done:
            obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        decisions += env.game.action_count
    return decisions / (time.perf_counter() - t)


def bench_batched_steps(num_games: int, steps: int) -> float:
    b = BatchedGames(OS_RULES, num_games=num_games, seed=0, autoreset=True)
    decisions = 0
    t = time.perf_counter()
    for _ in range(steps):
        b.legal_mask()
        b.observe()
        b.step(b.random_actions())
        decisions += num_games
    return decisions / (time.perf_counter() - t)


def machine() -> dict:
    import numba
    info = {"python": platform.python_version(), "machine": platform.machine(),
            "cpus": os.cpu_count(), "numba": numba.__version__ if HAVE_NUMBA else None,
            "numpy": np.__version__}
    try:
        import pyspiel  # noqa: F401
        from importlib.metadata import version
        info["open_spiel"] = version("open_spiel")
    except Exception:  # pragma: no cover - open-spiel is optional
        info["open_spiel"] = None
    try:
        with open("/proc/cpuinfo") as f:
            info["cpu"] = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        info["cpu"] = platform.processor()
    return info


def main(argv: "list[str] | None" = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="interleaved repetitions (median reported)")
    ap.add_argument("--quick", action="store_true", help="small sizes, 2 rounds (a smoke test)")
    ap.add_argument("--json", help="write the results as JSON to this file")
    ap.add_argument("--plot", help="write a bar chart (PNG) to this file (needs matplotlib)")
    args = ap.parse_args(argv)
    if not HAVE_NUMBA:
        print("numba is not installed (pip install 'ohhell[fast]'): the kernel runs as plain Python",
              file=sys.stderr)
    scale = 0.05 if args.quick else 1.0
    rounds = 2 if args.quick else args.rounds
    try:
        import pyspiel  # noqa: F401
        have_os = True
    except ImportError:
        have_os = False
        print("open-spiel is not installed (pip install 'ohhell[bench]'): no OpenSpiel column", file=sys.stderr)
    simulate(OS_RULES, num_games=10, seed=0)            # compile (or load the cached kernels)
    simulate(OS_RULES, num_games=10, seed=0, threads=0)
    BatchedGames(OS_RULES, num_games=4, seed=0).observe()
    n = lambda x: max(1, int(x * scale))  # noqa: E731
    configs = []
    if have_os:
        configs.append(("openspiel C++ evaluate_bots, 4p 5 tricks", lambda r: bench_openspiel(n(20000))))
    configs += [
        ("ohhell kernel, 4p 5 tricks, 1 thread", lambda r: bench_kernel(OS_RULES, n(400000), 1, r)),
        ("ohhell kernel, 4p 5 tricks, all cores", lambda r: bench_kernel(OS_RULES, n(400000), 0, r)),
        ("ohhell kernel, 4p standard game, 1 thread", lambda r: bench_kernel(Rules(4), n(40000), 1, r)),
        ("ohhell kernel, 4p standard game, all cores", lambda r: bench_kernel(Rules(4), n(40000), 0, r)),
        ("BatchedGames step+mask+observe, 4096 games", lambda r: bench_batched_steps(4096, n(300))),
        ("OhHellEnv (PettingZoo AEC), 4p 5 tricks", lambda r: bench_aec(n(1000))),
        ("OhHellGymEnv (random bots), 4p 5 tricks", lambda r: bench_gym(n(2000))),
    ]
    results: dict[str, list[float]] = {name: [] for name, _ in configs}
    for r in range(rounds):
        for name, fn in configs:
            results[name].append(fn(r))
        print(f"round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
    med = {name: statistics.median(v) for name, v in results.items()}
    base = med.get("openspiel C++ evaluate_bots, 4p 5 tricks")
    print(f"\nmachine: {json.dumps(machine())}")
    print(f"command: python benchmarks/env.py {' '.join(argv if argv is not None else sys.argv[1:])}".rstrip())
    print(f"\n| configuration | decisions/s (median of {rounds}) | min..max | vs OpenSpiel C++ |")
    print("|---|---:|---:|---:|")
    for name, _ in configs:
        v = results[name]
        ratio = f"{med[name] / base:.3g}x" if base else "-"
        print(f"| {name} | {med[name] / 1e6:.3g}M | {min(v) / 1e6:.3g}M..{max(v) / 1e6:.3g}M | {ratio} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": machine(), "rounds": rounds, "results": results, "median": med}, f, indent=2)
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        names = [name for name, _ in configs]
        fig, ax = plt.subplots(figsize=(9, 0.5 * len(names) + 1.5))
        ax.barh(range(len(names)), [med[x] / 1e6 for x in names],
                color=["#888" if x.startswith("openspiel") else "#2a7" for x in names])
        ax.set_yticks(range(len(names)), names)
        ax.invert_yaxis()
        ax.set_xscale("log")
        ax.set_xlabel("random decisions per second, millions (log scale; median)")
        ax.set_title("ohhell research environment throughput vs OpenSpiel's C++ loop", fontsize=10)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)
        print(f"plot: {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
