"""``ohhell selfplay``: bots play whole games; records go to a JSON Lines file."""

from __future__ import annotations

import argparse
import secrets
import sys
import time

from .common import (CommandFailed, UsageError, add_ray_argument, add_rules_arguments, bot_list, bot_listing,
                     name_list, open_pool, rules_or_fail)
from ..i18n import _, N_

HELP = N_("let bots play games against each other and write the records (JSON Lines)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bots", default=None,
                   help=_("comma-separated bot names, one per seat, or one name for every seat "
                        "(default: heuristic); see --list-bots"))
    p.add_argument("--games", type=int, default=1, help=_("how many games (default 1)"))
    p.add_argument("--seed", default=None,
                   help=_("base seed: game i is dealt from seed 'SEED:i' (default: a random base seed, printed)"))
    p.add_argument("--out", default=None, help=_("write the records here, one JSON object per line"))
    p.add_argument("--names", default=None, help=_("comma-separated player names"))
    p.add_argument("--quiet", action="store_true", help=_("print nothing but errors (and no progress bar)"))
    p.add_argument("--list-bots", action="store_true", help=_("list the bots (with their levels) and exit"))
    add_ray_argument(p)
    add_rules_arguments(p)


def play_task(task: tuple, on_decisions=None) -> tuple[list[int], str]:
    """Play self-play game ``i`` of ``(rules_dict, base, i, bots, names)``: its totals and its
    record (JSON text).  Game ``i`` is dealt from ``'BASE:i'`` and seat ``s``'s bot seeded
    ``'BASE:i:s'``, wherever it runs (this process or a Ray worker)."""
    from .. import bots as botlib
    from ..bots.match import _Ticker
    from ..game import Game
    from ..records import dumps
    from ..rules import Rules
    rules_d, base, i, names, player_names = task
    ticker = _Ticker(on_decisions)
    rules = Rules.from_dict(rules_d)
    seats = [botlib.make(b, seed=f"{base}:{i}:{s}") for s, b in enumerate(names)]
    game = Game(rules, seed=f"{base}:{i}", names=player_names)
    botlib.play_game(game, seats, on_action=(lambda *_: ticker.tick()) if on_decisions else None)
    ticker.flush()
    return list(game.totals), dumps(game)


def run(args: argparse.Namespace) -> int:
    from .. import bots as botlib
    from ..bots.distributed import RayPoolError
    from ..bots.match import ProgressBar, decisions_per_game
    from ..game import Game
    from ..text import score_table

    if args.list_bots:
        print(bot_listing())
        return 0
    rules = rules_or_fail(args)
    n = rules.players
    default = "heuristic" if "heuristic" in botlib.names() else "random"
    names = bot_list(args.bots or default, n)
    if args.games < 1:
        raise UsageError(_("{flag} must be at least {n}").format(flag="--games", n=1))
    player_names = name_list(args.names, n) if args.names else botlib.table_names(names)
    base = args.seed if args.seed is not None else secrets.token_hex(6)
    if args.seed is None and not args.quiet:
        print(_("base seed: {seed} (pass --seed {seed} to replay these deals)").format(seed=base), file=sys.stderr)
    pool = open_pool(args)
    out = open(args.out, "w", encoding="utf-8") if args.out else None
    totals = [0] * n
    started = time.perf_counter()
    # The bar goes to standard error (and only to a terminal): standard output keeps only the
    # score tables and the summary, the records file only records.
    bar = None if args.quiet else ProgressBar(args.games * decisions_per_game(rules), label="games",
                                              stream=sys.stderr, items=args.games)
    tasks = [(rules.to_dict(), base, i, names, player_names) for i in range(args.games)]
    waiting: dict[int, tuple[list[int], str]] = {}
    written = 0
    try:
        for i, res in pool.imap(play_task, tasks, bar.update if bar else None):
            if bar:
                bar.count()
            waiting[i] = res
            while written in waiting:          # in game order, whatever order they finish in
                game_totals, record = waiting.pop(written)
                for s in range(n):
                    totals[s] += game_totals[s]
                if out:
                    out.write(record + "\n")
                    out.flush()
                elif not args.quiet:
                    text = (f"Game {written + 1} (seed {base}:{written}; {rules.describe()})\n"
                            f"{score_table(Game.from_record(record))}\n")
                    if bar:
                        bar.above(lambda: print(text, flush=True))
                    else:
                        print(text)
                written += 1
    except RayPoolError as e:
        raise CommandFailed(str(e)) from None
    finally:
        if bar:
            bar.close()
        if out:
            out.close()
        pool.close()
    if not args.quiet and (out or args.games > 1):
        secs = time.perf_counter() - started
        print(f"{args.games} game{'s' if args.games > 1 else ''} in {secs:.1f}s"
              + (f", records in {args.out}" if out else ""))
        for s in range(n):
            print(f"  seat {s} {player_names[s]:>12}: mean {totals[s] / args.games:8.2f} per game")
    return 0
