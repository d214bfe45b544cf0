"""Bid calibration: for each bid a bot makes, its predicted chance of making it against how
often it is made, over many hands of self-play (issue 11, item 2).

Every seat is the same bot (``--bot``, any spec ``ohhell.bots.make`` takes); each bid's
``Decision.trick_probs[bid]`` is the prediction, and the hand's result says whether it was made.
Games are dealt from ``--seed`` and numbered, so a run is reproducible and ``--log`` /
``--resume`` extends it game by game (a log made with other options is refused).

    python benchmarks/bots_calibration.py --bot expert:iterations=100 --games 400 --log cal.jsonl
    python benchmarks/bots_calibration.py --bot expert --rules standard --players 4 --games 20

Prints, per bid and per band of predicted chance: the bids, the mean prediction, the share
made with its 95% interval, and the Brier score overall.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

from ohhell import Game, Rules
from ohhell.bots import Budget, make, play_game
from ohhell.bots.base import Bot, Decision


class _Recording(Bot):
    """Wraps a bot and keeps, for each of its bids, the hand and what it predicted."""

    def __init__(self, inner: Bot, sink: list) -> None:
        self.inner = inner
        self.sink = sink
        self.name = inner.name

    def decide(self, view, budget=None) -> Decision:
        d = self.inner.decide(view, budget)
        if view.phase == "bid":
            probs = d.trick_probs
            b = d.action.tricks
            p = probs[b] if probs is not None and b < len(probs) else None
            self.sink.append((view.hand_index, view.seat, view.hand_size, b, p))
        return d


def rules_of(name: str, players: int) -> Rules:
    if name == "standard":
        return Rules(players)
    return Rules.preset(name, players=players)


def play(task: tuple) -> dict:
    """One self-play game: the bids with their predictions and results."""
    spec, rules_d, seed, index, budget = task
    rules = Rules.from_dict(rules_d)
    game = Game(rules, seed=f"{seed}:{index}")
    seen: list = []
    bots = [_Recording(make(spec, seed=f"{seed}:{index}:{s}"), seen) for s in range(rules.players)]
    play_game(game, bots, Budget(**budget) if budget else None)
    hands = game.past_hands
    bids = [{"size": h, "bid": b, "p": p, "made": hands[i].tricks_won[s] == b}
            for i, s, h, b, p in seen]
    return {"game": index, "bids": bids}


def interval(made: int, n: int) -> tuple[float, float]:
    """Wilson's 95% interval for a share."""
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    p = made / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (mid - half, mid + half)


def report(rows: list[dict]) -> str:
    bids = [b for r in rows for b in r["bids"] if b["p"] is not None]
    lines = [f"{len(rows)} games, {len(bids)} bids with a prediction"]
    if not bids:
        return lines[0]

    def table(title: str, groups: dict) -> None:
        lines.append("")
        lines.append(f"| {title} | bids | predicted | made | 95% interval | made - predicted |")
        lines.append("|---|---:|---:|---:|---|---:|")
        for key in sorted(groups):
            g = groups[key]
            n = len(g)
            pred = sum(b["p"] for b in g) / n
            made = sum(b["made"] for b in g)
            lo, hi = interval(made, n)
            lines.append(f"| {key} | {n} | {pred:.3f} | {made / n:.3f} | {lo:.3f}-{hi:.3f} | {made / n - pred:+.3f} |")

    by_bid: dict = {}
    for b in bids:
        by_bid.setdefault(b["bid"], []).append(b)
    table("bid", by_bid)
    by_band: dict = {}
    for b in bids:
        k = min(9, int(b["p"] * 10))
        by_band.setdefault(f"{k / 10:.1f}-{(k + 1) / 10:.1f}", []).append(b)
    table("predicted", by_band)
    brier = sum((b["p"] - b["made"]) ** 2 for b in bids) / len(bids)
    lines.append("")
    lines.append(f"Brier score {brier:.4f} (lower is better; always predicting the overall rate: "
                 f"{_base_brier(bids):.4f})")
    return "\n".join(lines)


def _base_brier(bids) -> float:
    rate = sum(b["made"] for b in bids) / len(bids)
    return sum((rate - b["made"]) ** 2 for b in bids) / len(bids)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bot", default="expert")
    ap.add_argument("--rules", default="openspiel", help="a preset (openspiel, standard, ...)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=None, help="a budget per decision (default: the bot's)")
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", default="calibration")
    ap.add_argument("--log", default=None, help="JSON Lines: one line per game (first line: the options)")
    ap.add_argument("--resume", action="store_true", help="extend --log instead of starting it again")
    args = ap.parse_args(argv)
    rules = rules_of(args.rules, args.players)
    budget = {k: v for k, v in (("seconds", args.seconds), ("iterations", args.iterations)) if v is not None}
    options = {"bot": args.bot, "rules": rules.to_dict(), "seed": args.seed, "budget": budget}
    rows: list[dict] = []
    if args.log and args.resume and os.path.exists(args.log):
        with open(args.log, encoding="utf-8") as f:
            head = json.loads(f.readline())
            if head != options:
                print(f"{args.log} was played with other options: {head}", file=sys.stderr)
                return 2
            rows = [json.loads(line) for line in f if line.strip()]
    elif args.log:
        with open(args.log, "w", encoding="utf-8") as f:
            f.write(json.dumps(options) + "\n")
    done = {r["game"] for r in rows}
    tasks = [(args.bot, rules.to_dict(), args.seed, i, budget) for i in range(args.games) if i not in done]
    start = time.perf_counter()

    def keep(row: dict) -> None:
        rows.append(row)
        if args.log:
            with open(args.log, "a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
        if sys.stderr.isatty() or len(rows) % 25 == 0 or len(rows) == args.games:
            end = "" if sys.stderr.isatty() else "\n"
            print(f"\r{len(rows)}/{args.games} games, {time.perf_counter() - start:.0f} s", end=end,
                  file=sys.stderr, flush=True)

    if args.jobs <= 1:
        for t in tasks:
            keep(play(t))
    else:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(args.jobs) as pool:
            for row in pool.imap_unordered(play, tasks):
                keep(row)
    print(file=sys.stderr)
    print(report(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
