"""``ohhell arena``: bots play duplicate matches; a table, JSON and a plot of how they did."""

from __future__ import annotations

import argparse
import json
import math
import sys

from .common import add_rules_arguments, rules_from_args

HELP = "play bots against each other in duplicate (same deals, seats rotated) and rate them"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bots", default="expert,heuristic",
                   help="comma-separated bot specs, repeated around the table; a spec is a name with "
                        "optional options, e.g. expert:iterations=60 (default: expert,heuristic)")
    p.add_argument("--deals", type=int, default=20,
                   help="deal sets: each is one game's deals, replayed once per rotation of the seats "
                        "(default 20)")
    p.add_argument("--seed", default="arena", help="base seed: deal set i is dealt from 'SEED:i'")
    p.add_argument("--jobs", type=int, default=0, help="worker processes (default: every core)")
    p.add_argument("--seconds", type=float, default=None, help="time budget per decision for every bot")
    p.add_argument("--iterations", type=int, default=None,
                   help="iteration budget per decision for every bot (search bots: sampled deals)")
    p.add_argument("--json", nargs="?", const="-", default=None, metavar="FILE",
                   help="write the results as JSON to FILE (or '-': standard output, instead of the table)")
    p.add_argument("--plot", default=None, metavar="FILE.png", help="save a chart of the results")
    p.add_argument("--out", default=None, metavar="FILE.jsonl", help="also write every game's record")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_rules_arguments(p)


def _clean(x):
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_clean(v) for v in x]
    return x


def run(args: argparse.Namespace) -> int:
    from ..bots.base import Budget
    from ..bots.match import ProgressBar, lineup, rotations, run_match
    from ..errors import RulesError

    try:
        rules = rules_from_args(args)
    except RulesError as e:
        print(f"ohhell arena: bad rules: {e}", file=sys.stderr)
        return 2
    specs = [x.strip() for x in args.bots.split(",") if x.strip()]
    if args.deals < 1:
        print("ohhell arena: --deals must be at least 1", file=sys.stderr)
        return 2
    try:
        seats = lineup(specs, rules.players)
    except ValueError as e:
        print(f"ohhell arena: {e}", file=sys.stderr)
        return 2
    budget = None
    if args.seconds is not None or args.iterations is not None:
        budget = Budget(seconds=args.seconds, iterations=args.iterations)
    total = args.deals * len(rotations(seats))
    bar = ProgressBar(total, stream=sys.stderr) if not args.quiet else None
    try:
        match = run_match(rules, specs, deals=args.deals, seed=args.seed, jobs=args.jobs or None,
                          budget=budget, records=bool(args.out),
                          progress=(lambda r: bar.update()) if bar else None)
    except ValueError as e:
        if bar:
            bar.close()
        print(f"ohhell arena: {e}", file=sys.stderr)
        return 2
    if bar:
        bar.close()
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            for r in match.results:
                f.write(json.dumps(r.record, separators=(",", ":")) + "\n")
    summary = _clean(match.summary())
    if args.json == "-":
        json.dump(summary, sys.stdout, indent=2)
        print()
    else:
        print(match.table())
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(summary, f, indent=2)
    if args.plot:
        match.plot(args.plot)
        if args.json != "-":
            print(f"chart saved to {args.plot}")
    return 0
