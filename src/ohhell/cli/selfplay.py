"""``ohhell selfplay``: bots play whole games; records go to a JSON Lines file."""

from __future__ import annotations

import argparse
import secrets
import sys
import time

from .common import UsageError, add_rules_arguments, bot_list, name_list, rules_or_fail

HELP = "let bots play games against each other and write the records (JSON Lines)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bots", default=None,
                   help="comma-separated bot names, one per seat, or one name for every seat "
                        "(default: heuristic)")
    p.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    p.add_argument("--seed", default=None,
                   help="base seed: game i is dealt from seed 'SEED:i' (default: a random base seed, printed)")
    p.add_argument("--out", default=None, help="write the records here, one JSON object per line")
    p.add_argument("--names", default=None, help="comma-separated player names")
    p.add_argument("--quiet", action="store_true", help="print nothing but errors")
    add_rules_arguments(p)


def run(args: argparse.Namespace) -> int:
    from .. import bots as botlib
    from ..game import Game
    from ..records import dumps
    from ..text import score_table

    rules = rules_or_fail(args)
    n = rules.players
    default = "heuristic" if "heuristic" in botlib.names() else "random"
    names = bot_list(args.bots or default, n)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    player_names = name_list(args.names, n) if args.names else [f"{b}{s}" for s, b in enumerate(names)]
    base = args.seed if args.seed is not None else secrets.token_hex(6)
    if args.seed is None and not args.quiet:
        print(f"base seed: {base} (pass --seed {base} to replay these deals)", file=sys.stderr)
    out = open(args.out, "w", encoding="utf-8") if args.out else None
    totals = [0] * n
    started = time.perf_counter()
    try:
        for i in range(args.games):
            seats = [botlib.make(b, seed=f"{base}:{i}:{s}") for s, b in enumerate(names)]
            game = Game(rules, seed=f"{base}:{i}", names=player_names)
            botlib.play_game(game, seats)
            for s in range(n):
                totals[s] += game.totals[s]
            if out:
                out.write(dumps(game) + "\n")
                out.flush()
                if not args.quiet and sys.stderr.isatty():
                    print(f"\rgame {i + 1}/{args.games}", end="", file=sys.stderr, flush=True)
            elif not args.quiet:
                print(f"Game {i + 1} (seed {base}:{i}; {rules.describe()})")
                print(score_table(game))
                print()
    finally:
        if out:
            out.close()
    if not args.quiet and (out or args.games > 1):
        if out and sys.stderr.isatty():
            print(file=sys.stderr)
        secs = time.perf_counter() - started
        print(f"{args.games} game{'s' if args.games > 1 else ''} in {secs:.1f}s"
              + (f", records in {args.out}" if out else ""))
        for s in range(n):
            print(f"  seat {s} {player_names[s]:>12}: mean {totals[s] / args.games:8.2f} per game")
    return 0
