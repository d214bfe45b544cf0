"""Two bidders compared where they disagree: each such bid is played out both ways.

A duplicate match between two bots that differ only in a few bids measures mostly the
noise of all the hands where they agree.  This screens a bid change directly: it deals
single hands (``--players``, hand sizes from ``--hand-sizes``, the standard rules unless
``--preset`` says otherwise, a card always turned for trump), lets every seat bid in turn as bidder B would, and at each
bid where bidder A would bid otherwise it plays the hand out twice from there, once after
A's bid and once after B's, with every later action (the other seats' bids, every card)
by ``--play``, seeded the same in both (common random numbers).  The figure is the
bidder's hand score after A's bid minus after B's, per bid where they differ, with its
95% interval; times the share of bids that differ, it is A's gain per bid made.  The
others' scores are reported too (what a duplicate margin also counts).

Every position is appended to ``--log`` as it ends, so a stopped run goes on with
``--resume``; the positions come from ``--seed`` alone, so a run asked for more goes on
where it stopped.

    python benchmarks/bid_fork.py --a expert:bid_lift=0.15 --b expert --positions 1500 --log fork.jsonl
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import statistics
import sys
import time

from ohhell import Game
from ohhell.actions import BIDS
from ohhell.bots import play_game
from ohhell.bots.match import BotSpecError, _mean_ci, make_spec
from ohhell.rules import Rules, RulesError


def _deal(rules: Rules, seed: str, index: int) -> "tuple[int, int]":
    rng = random.Random(f"{seed}/{index}")
    return rng.choice(rules.hand_sizes), rng.randrange(2 ** 62)


def _hand_positions(args) -> "tuple[list[dict], int]":
    """The bids of one dealt hand where A and B disagree (B bidding for every seat), and how
    many bids were looked at."""
    a, b, rules_dict, seed, index = args
    rules = Rules.from_dict(rules_dict)
    h, deal = _deal(rules, seed, index)
    game = Game(rules.replace(hand_sizes=(h,)), seed=deal)
    # seeded by the hand, so the positions do not depend on which worker looks at which hand
    bot_a, bot_b = make_spec(a, seed=f"{seed}/{index}/a"), make_spec(b, seed=f"{seed}/{index}/b")
    made: list[int] = []
    out: list[dict] = []
    while game.phase == "bid":
        seat = game.seats_to_act[0]
        v = game.view(seat)
        want_b = bot_b.decide(v).action.tricks
        want_a = bot_a.decide(v).action.tricks
        if want_a != want_b:
            out.append({"hand": index, "h": h, "deal": deal, "before": list(made),
                        "seat": seat, "a_bid": want_a, "b_bid": want_b})
        made.append(want_b)
        game.apply(BIDS[want_b])
    return out, len(made)


def positions(a: str, b: str, rules: Rules, seed: str, want: int, pool=None,
              batch: int = 16) -> "tuple[list[dict], int]":
    """The first ``want`` bids where A and B disagree (B bidding for every seat before), and
    how many bids were looked at to find them (hand by hand, in the order of the deals; with
    ``pool``, ``batch`` hands at a time)."""
    out: list[dict] = []
    looked = 0
    index = 0
    step = 1 if pool is None else max(1, batch)
    while len(out) < want:
        args = [(a, b, rules.to_dict(), seed, i) for i in range(index, index + step)]
        found = pool.map(_hand_positions, args) if pool is not None else map(_hand_positions, args)
        for hand, n in found:
            if len(out) >= want:
                break
            take = hand[:want - len(out)]
            # a hand cut short counts the bids up to its last position taken
            looked += n if len(take) == len(hand) else len(take[-1]["before"]) + 1
            out.extend(take)
        index += step
        if pool is not None:
            print(f"looking: {len(out)}/{want} differing bids in {index} hands", file=sys.stderr, flush=True)
    for i, p in enumerate(out):
        p["i"] = i
    return out, looked


def _play_out(rules_dict: dict, pos: dict, bid: int, play: str) -> list[int]:
    rules = Rules.from_dict(rules_dict).replace(hand_sizes=(pos["h"],))
    game = Game(rules, seed=pos["deal"])
    for b in pos["before"]:
        game.apply(BIDS[b])
    game.apply(BIDS[bid])
    bots = [make_spec(play, seed=f"{pos['deal']}/{pos['seat']}/{s}") for s in range(rules.players)]
    play_game(game, bots)
    return list(game.totals)


def _task(args) -> dict:
    rules_dict, pos, play = args
    return {**pos, "a_scores": _play_out(rules_dict, pos, pos["a_bid"], play),
            "b_scores": _play_out(rules_dict, pos, pos["b_bid"], play)}


def summarize(rows: "list[dict]", looked: int, wanted: int) -> dict:
    """A's gain per bid where the bidders differ (the bidder's own score and the others'),
    by hand size, and per bid made (scaled by the share of bids that differ)."""
    own = [r["a_scores"][r["seat"]] - r["b_scores"][r["seat"]] for r in rows]
    others = [statistics.fmean(x - y for s, (x, y) in enumerate(zip(r["a_scores"], r["b_scores"]))
                               if s != r["seat"]) for r in rows]
    share = wanted / looked if looked else float("nan")
    m, ci = _mean_ci(own)
    mo, cio = _mean_ci(others)
    md, cid = _mean_ci([x - y for x, y in zip(own, others)])
    by_h: dict = {}
    for r, d in zip(rows, own):
        by_h.setdefault(r["h"], []).append(d)
    return {"positions": len(rows), "share_of_bids_differing": share,
            "own_gain": m, "own_ci95": ci, "others_gain": mo, "others_ci95": cio,
            "own_minus_others": md, "own_minus_others_ci95": cid,
            "own_gain_per_bid": m * share, "own_gain_per_bid_ci95": ci * share,
            "by_hand_size": {h: {"positions": len(v), "own_gain": _mean_ci(v)[0], "ci95": _mean_ci(v)[1]}
                             for h, v in sorted(by_h.items())},
            "higher_bids": sum(r["a_bid"] > r["b_bid"] for r in rows)}


def run(a: str, b: str, play: str, rules: Rules, want: int, *, seed: str, jobs: int = 2,
        log: "str | None" = None, resume: bool = False) -> dict:
    config = {"a": a, "b": b, "play": play, "rules": rules.to_dict(), "seed": seed}
    for spec in (a, b, play):
        make_spec(spec, seed=0)
    done: dict[int, dict] = {}
    if resume:
        if not log:
            raise ValueError("--resume needs --log")
        try:
            with open(log, encoding="utf-8") as f:
                for line_no, line in enumerate(f, 1):
                    r = json.loads(line)
                    if r.pop("config", None) != config:
                        raise ValueError(f"{log} line {line_no} was played with other options")
                    done[r["i"]] = r
        except FileNotFoundError:
            pass
    start = time.perf_counter()
    out = open(log, "a", encoding="utf-8") if log else None
    try:
        with mp.get_context("fork").Pool(max(1, jobs)) as pool:
            pos, looked = positions(a, b, rules, seed, want, pool, batch=8 * max(1, jobs))
            print(f"{len(pos)} bids differ in {looked} looked at ({time.perf_counter() - start:.0f}s); "
                  f"{sum(p['i'] not in done for p in pos)} to play out", file=sys.stderr, flush=True)
            tasks = [(rules.to_dict(), p, play) for p in pos if p["i"] not in done]
            rows = [done[p["i"]] for p in pos if p["i"] in done]
            for k, r in enumerate(pool.imap_unordered(_task, tasks), 1):
                rows.append(r)
                if out:
                    out.write(json.dumps({**r, "config": config}) + "\n")
                    out.flush()
                if k % 50 == 0 or k == len(tasks):
                    s = summarize(rows, looked, len(pos))
                    print(f"{len(rows)}/{len(pos)}, {time.perf_counter() - start:.0f}s: own gain "
                          f"{s['own_gain']:+.2f} ± {s['own_ci95']:.2f} per differing bid",
                          file=sys.stderr, flush=True)
    finally:
        if out:
            out.close()
    s = summarize(rows, looked, len(pos))
    s.update({"seconds": time.perf_counter() - start, **config})
    return s


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="bidder A's spec (e.g. expert:bid_lift=0.15)")
    ap.add_argument("--b", default="expert", help="bidder B's spec, who bids for every seat before (default expert)")
    ap.add_argument("--play", default="expert", help="the bot that plays every action after the bid (default expert)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--hand-sizes", default="2-10", help="the hand sizes dealt, e.g. 2-10 or 5,8 (default 2-10)")
    ap.add_argument("--positions", type=int, default=500, help="bids where A and B differ to play out")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", default="bench-bid-fork")
    ap.add_argument("--log", default=None)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--json", default=None, help="write the summary here")
    args = ap.parse_args(argv)
    try:
        if "-" in args.hand_sizes:
            lo, hi = (int(x) for x in args.hand_sizes.split("-"))
            sizes = tuple(range(lo, hi + 1))
        else:
            sizes = tuple(int(x) for x in args.hand_sizes.split(","))
        # every hand dealt with a card turned for trump, as all but a game's last hand are
        # (a one-hand game's only hand is its last, which "no_trump: last" leaves without one)
        rules = Rules.preset(args.preset, players=args.players, hand_sizes=sizes, no_trump="never")
    except (ValueError, RulesError) as e:
        ap.error(f"--hand-sizes/--preset/--players: {e}")
    if args.positions < 1:
        ap.error("--positions must be 1 or more")
    try:
        s = run(args.a, args.b, args.play, rules, args.positions, seed=args.seed, jobs=args.jobs,
                log=args.log, resume=args.resume)
    except (ValueError, BotSpecError) as e:
        ap.error(str(e))
    print(json.dumps(s, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(s, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
