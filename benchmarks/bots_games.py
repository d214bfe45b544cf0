"""Full games under the standard rules, duplicate: heuristic vs random, expert vs heuristic,
and the people's levels (beginner < intermediate < expert), at 4 and 5 players.

Each match is ``ohhell.bots.match.run_match`` (what ``ohhell arena`` runs): every deal set
is one game's deals replayed once per rotation of the seats, so luck cancels.

    python benchmarks/bots_games.py --json bots_games.json
    python benchmarks/bots_games.py --only expert --deals 40 --expert expert:iterations=40

Prints one table per match and the margins with their 95% intervals.
"""

from __future__ import annotations

import argparse
import json
import sys

from ohhell.bots.match import run_match
from ohhell.rules import Rules


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", default="4,5")
    ap.add_argument("--deals", type=int, default=40, help="deal sets for the expert matches")
    ap.add_argument("--fast-deals", type=int, default=300, help="deal sets for matches without search")
    ap.add_argument("--expert", default="expert", help="the expert's spec (e.g. expert:iterations=40)")
    ap.add_argument("--only", choices=["heuristic", "expert", "levels"], default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", default="bench-games")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    out = []
    matches = []
    if args.only in (None, "heuristic"):
        matches.append((["heuristic", "random"], args.fast_deals))
        matches.append((["intermediate", "beginner"], args.fast_deals))
    if args.only in (None, "expert", "levels"):
        matches.append(([args.expert, "heuristic"], args.deals))
    for n in [int(x) for x in args.players.split(",")]:
        for bots, deals in matches:
            m = run_match(Rules(n), bots, deals=deals, seed=f"{args.seed}:{n}", jobs=args.jobs)
            print(f"\n== {n} players: {' vs '.join(bots)}")
            print(m.table(), flush=True)
            s = m.summary()
            s["players"] = n
            s["match"] = bots
            out.append(s)
            if args.json:
                with open(args.json, "w", encoding="utf-8") as f:
                    json.dump(out, f, indent=2, default=lambda x: None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
