"""Two bots, duplicate, any rules, with a log a long run can resume: A's margin over B per hand.

Each deal set is one game's deals replayed once per rotation of the seats
(``ohhell.bots.match``, what ``ohhell arena`` runs), so luck cancels; the margin is A's
mean total minus B's mean total per deal set, per hand, with its 95% interval.  Every
finished game is appended to ``--log`` as it ends, so a run stopped at any point goes on
with ``--resume`` (a log played with other options is refused).  ``benchmarks/bots_pimc.py``
is this with the rules and the reference of the published PIMC comparison.

    python benchmarks/bots_duel.py --a expert --b expert-2026.11 --players 4 --deals 20 --log d4.jsonl
    python benchmarks/bots_duel.py --a expert --b expert-2026.11 --players 4 --deals 40 --log d4.jsonl --resume
    python benchmarks/bots_duel.py --a expert:bid_evidence=learned --b expert --players 5 --preset standard
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing as mp
import statistics
import sys
import time

from ohhell.bots.match import GameResult, MatchResult, _mean_ci, lineup, make_spec, play_one, rotations
from ohhell.rules import FLAGS, Rules, RulesError


def summarize(results: list[GameResult], rules: Rules, a: str, b: str, seed: str) -> dict:
    """A - B per hand over the complete deal sets of ``results``, and each side's decision times."""
    m = MatchResult(rules, [a, b], seed, results)
    per_deal = m.per_deal()
    hands = len(rules.hand_sizes)
    full = {r.deal for r in results}
    margins = [(x - y) / hands for x, y in zip(per_deal[a], per_deal[b])]
    mean, ci = _mean_ci(margins)
    out = {"deal_sets": len(full), "games": len(results), "margin_per_hand": mean, "ci95": ci}
    for name in (a, b):
        times = [t for r in results for t in r.times.get(name, [])]
        out[name] = {"per_hand": statistics.fmean(per_deal[name]) / hands if per_deal[name] else float("nan"),
                     "decision_ms_median": 1000 * statistics.median(times) if times else float("nan"),
                     "decision_ms_max": 1000 * max(times) if times else float("nan"),
                     "decisions": len(times)}
    return out


def run_duel(a: str, b: str, rules: Rules, deals: int, *, seed: str, jobs: int = 2,
             log: "str | None" = None, resume: bool = False, config: "dict | None" = None) -> dict:
    """Play (or go on with) the duel; progress on stderr; the summary of the complete deal sets.

    :raises ValueError: for a log played with other options, or ``resume`` without ``log``.
    """
    seats = lineup([a, b], rules.players)
    for spec in dict.fromkeys(seats):
        make_spec(spec, seed=0)           # fail early on an unknown bot or option
    rots = rotations(seats)
    config = config or {"seed": seed, "a": a, "b": b, "rules": rules.to_dict()}
    results: list[GameResult] = []
    if resume:
        if not log:
            raise ValueError("--resume needs --log")
        try:
            with open(log, encoding="utf-8") as f:
                for line_no, line in enumerate(f, 1):
                    r = json.loads(line)
                    if r.pop("config", config) != config:
                        raise ValueError(f"{log} line {line_no} was played with other options")
                    if r["deal"] < deals:
                        results.append(GameResult(**r))
        except FileNotFoundError:
            pass
    done = {(r.deal, r.rotation) for r in results}
    tasks = [(rules.to_dict(), seed, d, ri, rot, None, False)
             for d in range(deals) for ri, rot in enumerate(rots) if (d, ri) not in done]
    start = time.perf_counter()

    def complete() -> list[GameResult]:
        count: dict[int, int] = {}
        for r in results:
            count[r.deal] = count.get(r.deal, 0) + 1
        return [r for r in results if count[r.deal] == len(rots)]

    out = open(log, "a", encoding="utf-8") if log else None
    try:
        with mp.get_context("fork").Pool(max(1, jobs)) as pool:
            for res in pool.imap_unordered(play_one, tasks):
                results.append(res)
                if out:
                    out.write(json.dumps({**dataclasses.asdict(res), "config": config}) + "\n")
                    out.flush()
                full = complete()
                if full:
                    s = summarize(full, rules, a, b, seed)
                    print(f"{len(results)}/{deals * len(rots)} games, {time.perf_counter() - start:.0f}s: "
                          f"{a} - {b} {s['margin_per_hand']:+.2f} ± {s['ci95']:.2f} per hand "
                          f"over {s['deal_sets']} deal sets", file=sys.stderr, flush=True)
    finally:
        if out:
            out.close()
    s = summarize(complete(), rules, a, b, seed)
    s.update({"seconds": time.perf_counter() - start, **config})
    return s


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", default="expert", help="bot A's spec (default expert)")
    ap.add_argument("--b", default="expert-2026.11", help="bot B's spec (default expert-2026.11)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--preset", default="standard", help="standard, la-podrida or openspiel")
    ap.add_argument("--flag", action="append", default=[], choices=FLAGS, metavar="FLAG",
                    help=f"switch a rule on over the preset (repeatable): {', '.join(FLAGS)}")
    ap.add_argument("--deals", type=int, default=20, help="deal sets (each played once per rotation)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", default="bench-duel")
    ap.add_argument("--log", default=None, help="append each game's result here (JSON lines)")
    ap.add_argument("--resume", action="store_true", help="go on with the games already in --log")
    ap.add_argument("--json", default=None, help="write the summary here")
    args = ap.parse_args(argv)
    try:
        rules = Rules.preset(args.preset, players=args.players, **{f: True for f in args.flag})
    except RulesError as e:
        ap.error(str(e))
    try:
        s = run_duel(args.a, args.b, rules, args.deals, seed=args.seed, jobs=args.jobs, log=args.log,
                     resume=args.resume)
    except ValueError as e:
        ap.error(str(e))
    print(json.dumps(s, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(s, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
