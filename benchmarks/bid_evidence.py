"""Bids as evidence (issue 11, item 2): which bid model explains a bot's real bids best?

    PYTHONPATH=src python benchmarks/bid_evidence.py --deals 200 --log ev.jsonl --resume
    PYTHONPATH=src python benchmarks/bid_evidence.py --bot heuristic --deals 2000

The expert weighs each sampled deal by how well it explains the bids already made: the
closed form (``ohhell.sampling.bid_likelihood``, a Gaussian around each hand's estimated
tricks) or the learned model (``ohhell.bots.learned.LearnedBidEvidence``: the learned trick
distribution and a soft best bid under the scoring, sharpness ``beta`` per point).  Only the
ratio between hands matters to the sampler, so the fair test is the one a posterior needs:
for each real bid, P(that bid | the bidder's hand and what it saw), normalised over its legal
bids, from each model.  Deals are dealt from ``--seed`` and numbered (``--players``, a hand
size uniform in 1..``--max-size``, a trump card turned, standard scoring, ``--hook``); every seat is ``--bot``
and bids in order, and each bid is logged with the bidder's view, so ``--log`` /
``--resume`` extends a run deal by deal (a log made with other options is refused).

Prints, per model: the mean log-likelihood per bid (nats, higher is better) with its 95%
interval, the share of bids that are the model's most likely bid, and the paired difference
learned - closed.  ``beta`` is chosen on the even deals and reported on the odd ones.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from ohhell import Game, Rules  # noqa: E402
from ohhell.bots import make  # noqa: E402
from ohhell.sampling import _bid_weight, estimate_tricks  # noqa: E402
from ohhell.tricks import hook_bid  # noqa: E402

BETAS = (0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0)


def deal_bids(bot: str, rules: Rules, seed: int, index: int, size: int) -> list[dict]:
    """One deal: every seat bids in turn; the facts each bidder saw, and its bid."""
    r = Rules.from_dict({**rules.to_dict(), "hand_sizes": [size], "schedule": "custom", "no_trump": "never"})
    g = Game(r, seed=f"{seed}:{index}")
    bots = [make(bot, seed=f"{seed}:{index}:{s}") for s in range(r.players)]
    out = []
    pos = 0
    while g.phase == "bid":
        s = g.to_act
        v = g.view(s)
        d = bots[s].decide(v)
        earlier = [b for b in (v.bids[(v.dealer + 1 + i) % v.players] for i in range(pos))]
        out.append({"deal": index, "seat": s, "pos": pos, "hand": v.hand_mask, "size": size,
                    "trump": v.trump, "trump_card": v.trump_card, "earlier": earlier,
                    "forbidden": g.forbidden_bid(s), "bid": d.action.tricks})
        g.apply(d.action)
        pos += 1
    return out


def closed_probs(row: dict, players: int) -> dict[int, float]:
    h = row["size"]
    trump = -1 if row["trump"] is None else row["trump"]
    tc = -1 if row["trump_card"] is None else row["trump_card"]
    est = estimate_tricks(row["hand"], trump, players, h, tc)
    f = row["forbidden"]
    w = {b: _bid_weight(b, est, -1 if f is None else f) for b in range(h + 1) if b != f}
    z = sum(w.values())
    return {b: x / z for b, x in w.items()}


def learned_probs(rows: list[dict], players: int, rules: Rules, betas) -> list[dict[float, dict[int, float]]]:
    from ohhell.bots.learned import LearnedBidEvidence, feature_matrix, features
    ev = LearnedBidEvidence()
    X = feature_matrix([features(r["hand"], r["trump"], r["trump_card"], players, r["size"], r["pos"],
                                 r["earlier"], rules.hook) for r in rows])
    P = ev.model.predict_batch(X, [r["size"] for r in rows])
    out = []
    for i, r in enumerate(rows):
        legal = [b for b in range(r["size"] + 1) if b != r["forbidden"]]
        per = {}
        for beta in betas:
            ev.beta = beta
            w = ev.bid_probabilities(P[i, :r["size"] + 1], legal, r["size"], rules)
            z = sum(w.values())
            per[beta] = {b: x / z for b, x in w.items()}
        out.append(per)
    return out


def bidder_probs(rows: list[dict], players: int, rules: Rules, betas) -> list[dict[float, dict[int, float]]]:
    """P(bid) under :class:`ohhell.bots.learnedbot.LearnedBidderEvidence` (the learned level's
    own bid: its weighed bids soft by ``beta``, the floor elsewhere), normalised over the legal bids."""
    import numpy as np

    from ohhell.bots.learned import features
    from ohhell.bots.learnedbot import LearnedBidderEvidence, window_dists
    from ohhell.scoring import hand_score
    ev = LearnedBidderEvidence()
    legal = [[b for b in range(r["size"] + 1) if b != r["forbidden"]] for r in rows]
    dists = window_dists([features(r["hand"], r["trump"], r["trump_card"], players, r["size"], r["pos"],
                                   r["earlier"], rules.hook) for r in rows],
                         [r["size"] for r in rows], legal, rules)
    out = []
    for r, lg, d in zip(rows, legal, dists):
        h = r["size"]
        S = np.array([[hand_score(b, k, h, rules) for k in range(h + 1)] for b in range(h + 1)])
        per = {}
        for beta in betas:
            ev.beta = beta
            w = ev.bid_weights(d, lg, S)
            z = sum(w.values())
            per[beta] = {b: x / z for b, x in w.items()}
        out.append(per)
    return out


def summary(lls: list[float]) -> tuple[float, float]:
    n = len(lls)
    m = sum(lls) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in lls) / max(1, n - 1))
    return m, 1.96 * sd / math.sqrt(n)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="expert")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--max-size", type=int, default=10)
    ap.add_argument("--hook", action="store_true")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--log", default=None, help="JSON Lines log of every bid (resumable)")
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args(argv)
    rules = Rules(args.players, hook=args.hook)
    header = {"bot": args.bot, "players": args.players, "max_size": args.max_size, "hook": args.hook,
              "seed": args.seed}
    rows: list[dict] = []
    done = 0
    if args.log and args.resume and os.path.exists(args.log):
        with open(args.log, encoding="utf-8") as f:
            first = json.loads(f.readline())
            if first != header:
                print(f"{args.log} was made with other options: {first}", file=sys.stderr)
                return 2
            for line in f:
                rows.append(json.loads(line))
        done = 1 + max((r["deal"] for r in rows), default=-1)
    elif args.log:
        with open(args.log, "w", encoding="utf-8") as f:
            f.write(json.dumps(header) + "\n")
    import random
    sizes = random.Random(args.seed)
    plan = [sizes.randint(1, args.max_size) for _ in range(args.deals)]
    t0 = time.perf_counter()
    for i in range(done, args.deals):
        new = deal_bids(args.bot, rules, args.seed, i, plan[i])
        rows.extend(new)
        if args.log:
            with open(args.log, "a", encoding="utf-8") as f:
                for r in new:
                    f.write(json.dumps(r) + "\n")
        if (i + 1) % 10 == 0:
            print(f"  {i + 1}/{args.deals} deals, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    rows = [r for r in rows if r["deal"] < args.deals and r["size"] > 1]  # one card: bid exactly
    if len(rows) < 20:
        print("too few bids to compare", file=sys.stderr)
        return 1
    lp = learned_probs(rows, args.players, rules, BETAS)
    fit = [i for i, r in enumerate(rows) if r["deal"] % 2 == 0]
    test = [i for i, r in enumerate(rows) if r["deal"] % 2 == 1]

    def ll(i, probs):
        return math.log(max(probs.get(rows[i]["bid"], 0.0), 1e-12))

    best_beta = max(BETAS, key=lambda b: sum(ll(i, lp[i][b]) for i in fit))
    bp = bidder_probs(rows, args.players, rules, BETAS)
    bidder_beta = max(BETAS, key=lambda b: sum(ll(i, bp[i][b]) for i in fit))
    print(f"{args.bot}: {len(rows)} bids of 2+ cards from {args.deals} deals, {args.players} players, "
          f"sizes 1-{args.max_size}{', hook' if args.hook else ''}")
    print(f"beta chosen on the even deals ({len(fit)} bids): {best_beta} (learned), {bidder_beta} (bidder)")
    print(f"on the odd deals ({len(test)} bids):")
    closed = [ll(i, closed_probs(rows[i], args.players)) for i in test]
    learned = [ll(i, lp[i][best_beta]) for i in test]
    for name, xs, probs in (("closed form", closed, [closed_probs(rows[i], args.players) for i in test]),
                            (f"learned, beta={best_beta}", learned, [lp[i][best_beta] for i in test]),
                            (f"bidder, beta={bidder_beta}", [ll(i, bp[i][bidder_beta]) for i in test],
                             [bp[i][bidder_beta] for i in test])):
        m, hw = summary(xs)
        top = sum(1 for i, p in zip(test, probs) if max(p, key=p.get) == rows[i]["bid"]) / len(test)
        print(f"  {name:22s} log-likelihood {m:+.3f} ± {hw:.3f} nats per bid; most likely bid = the bid "
              f"{100 * top:.1f}%")
    m, hw = summary([a - b for a, b in zip(learned, closed)])
    print(f"  learned - closed      {m:+.3f} ± {hw:.3f} nats per bid (paired)")
    m, hw = summary([ll(i, bp[i][bidder_beta]) - c for i, c in zip(test, closed)])
    print(f"  bidder - closed       {m:+.3f} ± {hw:.3f} nats per bid (paired)")
    for beta in BETAS:
        m, hw = summary([ll(i, lp[i][beta]) for i in test])
        mb, hwb = summary([ll(i, bp[i][beta]) for i in test])
        print(f"    beta {beta:<5} learned {m:+.3f} ± {hw:.3f}   bidder {mb:+.3f} ± {hwb:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
