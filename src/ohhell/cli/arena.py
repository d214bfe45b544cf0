"""``ohhell arena``: bots play duplicate matches; a table, JSON and a plot of how they did."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

from .common import CommandFailed, UsageError, add_ray_argument, add_rules_arguments, bot_listing, open_pool, rules_or_fail
from ..i18n import _, N_

HELP = N_("play bots against each other in duplicate (same deals, seats rotated) and rate them")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bots", default="expert,heuristic",
                   help=_("comma-separated bot specs, repeated around the table; a spec is a name with "
                        "optional options, e.g. expert:iterations=60 (default: expert,heuristic); "
                        "see --list-bots"))
    p.add_argument("--deals", type=int, default=20,
                   help=_("deal sets: each is one game's deals, replayed once per rotation of the seats "
                        "(default 20)"))
    p.add_argument("--seed", default="arena", help=_("base seed: deal set i is dealt from 'SEED:i'"))
    p.add_argument("--jobs", type=int, default=0,
                   help=_("worker processes (default: every core); with --ray, games at once on the cluster "
                          "(default: its CPUs)"))
    add_ray_argument(p)
    p.add_argument("--seconds", type=float, default=None, help=_("time budget per decision for every bot"))
    p.add_argument("--iterations", type=int, default=None,
                   help=_("iteration budget per decision for every bot (search bots: sampled deals)"))
    p.add_argument("--json", nargs="?", const="-", default=None, metavar="FILE",
                   help=_("write the results as JSON to FILE (or '-': standard output, instead of the table)"))
    p.add_argument("--plot", default=None, metavar="FILE.png", help=_("save a chart of the results"))
    p.add_argument("--out", default=None, metavar="FILE.jsonl", help=_("also write every game's record"))
    p.add_argument("--quiet", action="store_true", help=_("no progress bar"))
    p.add_argument("--list-bots", action="store_true", help=_("list the bots (with their levels) and exit"))
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
    from ..bots.distributed import RayPoolError
    from ..bots.match import ProgressBar, decisions_per_game, lineup, make_spec, rotations, run_match

    if args.list_bots:
        print(bot_listing())
        return 0
    rules = rules_or_fail(args)
    specs = [x.strip() for x in args.bots.split(",") if x.strip()]
    if args.deals < 1:
        raise UsageError(_("{flag} must be at least {n}").format(flag="--deals", n=1))
    if args.jobs < 0:
        raise UsageError(_("--jobs must be 0 (every core) or more"))
    if args.iterations is not None and args.iterations < 1:
        raise UsageError(_("{flag} must be at least {n}").format(flag="--iterations", n=1))
    if args.seconds is not None and not (math.isfinite(args.seconds) and args.seconds > 0):
        raise UsageError(_("--seconds must be a number of seconds above 0"))
    try:
        seats = lineup(specs, rules.players)
        for spec in dict.fromkeys(seats):
            make_spec(spec, seed=0)           # every option checked before anything runs
    except ValueError as e:
        raise UsageError(str(e)) from None
    budget = None
    if args.seconds is not None or args.iterations is not None:
        budget = Budget(seconds=args.seconds, iterations=args.iterations)
    games = args.deals * len(rotations(seats))
    pool = open_pool(args, jobs=min(args.jobs or os.cpu_count() or 1, games))
    bar = None
    try:
        if not args.quiet:
            print("ohhell arena: " + _("{games} games ({deals} deal sets x {rotations} rotations) of {hands} hands, "
                                       "{pool}").format(games=games, deals=args.deals, rotations=games // args.deals,
                                                        hands=len(rules.hand_sizes), pool=pool.describe()),
                  file=sys.stderr, flush=True)
            bar = ProgressBar(games * decisions_per_game(rules), label="games", stream=sys.stderr,
                              items=games, always=True)
        match = run_match(rules, specs, deals=args.deals, seed=args.seed, pool=pool,
                          budget=budget, records=bool(args.out),
                          progress=(lambda r: bar.count()) if bar else None,
                          on_decisions=bar.update if bar else None)
        if bar:
            bar.update(max(0, bar.total - bar.done))
    except ValueError as e:
        raise UsageError(str(e)) from None
    except RayPoolError as e:
        raise CommandFailed(str(e)) from None
    finally:
        if bar:
            bar.close()
        pool.close()
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
            print(_("chart saved to {path}").format(path=args.plot))
    return 0
