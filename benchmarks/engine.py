"""Engine speed, side by side with OpenSpiel's oh_hell in one run.

Random playouts of 4-player hands of 5 tricks (the ``openspiel`` preset);
decisions are bids plus card plays (chance events are not counted, dealing is).

* ``ohhell API``: ``g.apply(rng.choice(g.legal_actions()))`` until the hand is
  over, a new seeded ``Game`` per hand (dealing included);
* ``OpenSpiel from Python``: ``state.apply_action(rng.choice(...))`` with the
  chance outcomes (the deal) drawn uniformly with ``random.choice`` too: the
  fastest way to drive it from Python, and the baseline the targets use here;
* ``OpenSpiel example loop``: the loop of OpenSpiel's ``example.py`` (chance
  outcomes drawn by probability with numpy), for reference only;
* ``ohhell fast path``: :func:`ohhell.fast.random_hands` (deal, bids and
  play on bitmasks, no action objects), pure CPython;
* ``OpenSpiel C++``: ``pyspiel.evaluate_bots`` with uniform random bots, the
  whole hand in C++;
* ``ohhell API, full game``: a standard 13-hand game for 4, for scale.

The paths run in interleaved rounds so machine noise hits them alike; each
figure is the median over the rounds.  Usage::

    python benchmarks/engine.py [--rounds 5] [--seconds 2] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time

import ohhell
from ohhell.fast import random_hands

PLAYERS, TRICKS = 4, 5


def ohhell_api(seconds: float) -> float:
    rules = ohhell.Rules.preset("openspiel", players=PLAYERS, tricks=TRICKS)
    rng = random.Random(1)
    choice = rng.choice
    decisions = 0
    hand = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        for _ in range(200):
            g = ohhell.Game(rules, seed=hand)
            hand += 1
            while not g.is_over:
                g.apply(choice(g.legal_actions()))
                decisions += 1
    return decisions / (time.perf_counter() - start)


def ohhell_api_full_game(seconds: float) -> float:
    rules = ohhell.Rules(PLAYERS)
    rng = random.Random(2)
    choice = rng.choice
    decisions = 0
    n = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        g = ohhell.Game(rules, seed=n)
        n += 1
        while not g.is_over:
            g.apply(choice(g.legal_actions()))
            decisions += 1
    return decisions / (time.perf_counter() - start)


def ohhell_fast(seconds: float) -> float:
    decisions = 0
    start = time.perf_counter()
    end = start + seconds
    seed = 0
    while time.perf_counter() < end:
        d, _ = random_hands(PLAYERS, TRICKS, 2000, seed=seed)
        seed += 1
        decisions += d
    return decisions / (time.perf_counter() - start)


def openspiel_python(seconds: float) -> float:
    import pyspiel
    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": TRICKS})
    rng = random.Random(3)
    choice = rng.choice
    decisions = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        for _ in range(100):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
                    decisions += 1
    return decisions / (time.perf_counter() - start)


def openspiel_python_example(seconds: float) -> float:
    """The loop of OpenSpiel's own example.py: chance outcomes drawn with numpy by probability."""
    import numpy as np
    import pyspiel
    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": TRICKS})
    rng = random.Random(4)
    nrng = np.random.default_rng(4)
    decisions = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        for _ in range(20):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes())
                    state.apply_action(int(nrng.choice(actions, p=probs)))
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    decisions += 1
    return decisions / (time.perf_counter() - start)


def openspiel_cpp(seconds: float) -> float:
    import pyspiel
    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": TRICKS})
    bots = [pyspiel.make_uniform_random_bot(p, 100 + p) for p in range(PLAYERS)]
    per_hand = PLAYERS + PLAYERS * TRICKS
    hands = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        for _ in range(500):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, hands)
            hands += 1
    return hands * per_hand / (time.perf_counter() - start)


PATHS = {
    "ohhell API": ohhell_api,
    "OpenSpiel from Python": openspiel_python,
    "OpenSpiel example loop": openspiel_python_example,
    "ohhell fast path": ohhell_fast,
    "OpenSpiel C++": openspiel_cpp,
    "ohhell API, full game": ohhell_api_full_game,
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=2.0, help="per path per round")
    ap.add_argument("--json", default=None, help="also write the figures here")
    args = ap.parse_args(argv)
    results: dict[str, list[float]] = {k: [] for k in PATHS}
    for r in range(args.rounds):
        for name, fn in PATHS.items():
            results[name].append(fn(args.seconds))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    med = {k: statistics.median(v) for k, v in results.items()}
    print(f"machine: {platform.machine()}, {platform.processor() or '?'}; Python {platform.python_version()}; "
          f"ohhell {ohhell.__version__}")
    print(f"random playouts, {PLAYERS} players, {TRICKS} tricks; decisions/second, median of "
          f"{args.rounds} rounds x {args.seconds:g} s")
    for k, v in med.items():
        spread = f"{min(results[k]) / 1e3:,.0f}-{max(results[k]) / 1e3:,.0f}k"
        print(f"  {k:<24} {v / 1e3:>9,.0f}k   ({spread})")
    api = med["ohhell API"] / med["OpenSpiel from Python"]
    fast = med["ohhell fast path"] / med["OpenSpiel C++"]
    print(f"ratio ohhell API / OpenSpiel from Python: {api:.2f}x (target >= 2.0x)")
    print(f"ratio ohhell API / OpenSpiel example loop: {med['ohhell API'] / med['OpenSpiel example loop']:.2f}x")
    print(f"ratio ohhell fast path / OpenSpiel C++:   {fast:.2f}x (target >= 0.7x)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"median": med, "rounds": results, "api_ratio": api, "fast_ratio": fast}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
