"""Train the learned level's bid policy on the expert's own bids, NumPy only.

One command, deterministic for a seed (one BLAS thread); the labels come from the expert at
a fixed budget of sampled deals, so they do not depend on the machine's speed:

    PYTHONPATH=src nice -n 10 python scripts/train_bid_policy.py --jobs 2 --cache runs/bidlabels \
        --out bidpolicy.npz
    python benchmarks/bots_duel.py --a learned:bids=policy:policy_weights=bidpolicy.npz --b learned \
        --preset standard --players 4 --deals 300

No weights ship: the policy is an experiment not yet measured stronger than the trick model's
bid (BENCHMARKS.md, "A bid policy that imitates the expert").

1. **Labels** (:func:`ohhell.bots.playtrain.bid_label_chunk`): ``--deals`` one-hand deals
   of the standard game, 3 to 7 players (mostly 4 and 5), hand sizes as often as in a full
   game; every seat bids in turn by the expert (``--iterations`` sampled deals a decision),
   and each bid gives the bidder's inputs (:func:`ohhell.bots.learned.features`), its legal
   bids and the expert's expected score for each bid it searched.  With ``--cache DIR`` each
   task's rows are kept in ``DIR`` as they finish, so a stopped run resumes where it was.
2. **Training**: an MLP (two hidden layers of ``--hidden`` ReLU units) from those inputs to
   one logit per bid, softmax over the legal bids, trained with Adam on the cross-entropy
   against a soft target: ``--hard-share`` on the expert's bid, the rest spread as
   ``softmax(expected score / --temperature)`` over the bids the expert searched (so a bid
   worth nearly as much as the best is not taught as wrong).  The last ``--held-out`` of
   the tasks are held out; after every epoch it prints the held-out log-loss and how often
   the policy's bid is the expert's, and keeps the best epoch.

See docs/bots.md ("The learned level and the play networks") and BENCHMARKS.md ("A bid policy that
imitates the expert").
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from ohhell.bots.learned import N_FEATURES, N_OUT  # noqa: E402
from ohhell.bots.playtrain import bid_label_chunk  # noqa: E402



def tasks(args) -> list:
    return [(min(args.chunk, args.deals - i), f"{args.seed}:{i // args.chunk}", args.iterations)
            for i in range(0, args.deals, args.chunk)]


def chunk_path(args, task) -> "str | None":
    if not args.cache:
        return None
    deals, seed, iterations = task
    return os.path.join(args.cache, f"bids-{seed.replace(':', '-')}-{deals}-{iterations}.npz")


def rows_arrays(rows: list) -> dict:
    """One task's label rows as the arrays :func:`ohhell.bots.bidpolicy.train` takes."""
    X = np.asarray([r[0] for r in rows], dtype=np.float32).reshape(len(rows), N_FEATURES)
    h = np.asarray([r[1] for r in rows], dtype=np.int16)
    legal = np.zeros((len(rows), N_OUT), dtype=bool)
    values = np.full((len(rows), N_OUT), np.nan, dtype=np.float32)
    made = np.asarray([r[4] for r in rows], dtype=np.int16)
    for i, r in enumerate(rows):
        legal[i, r[2]] = True
        for b, v in r[3].items():
            values[i, b] = v
    return {"X": X, "h": h, "legal": legal, "values": values, "bid": made}


def save_rows(path: str, arrays: dict) -> None:
    tmp = path + ".part.npz"
    np.savez(tmp, **arrays)
    os.replace(tmp, path)       # a killed run leaves no half-written chunk behind


def load_rows(path: str) -> dict:
    with np.load(path) as f:
        return {k: f[k] for k in f.files}


def labels(args) -> "list[dict]":
    """Every task's rows (as arrays), played now or read from ``--cache``."""
    from ohhell.bots.match import ProcessPool
    todo = tasks(args)
    have: dict = {}
    if args.cache:
        os.makedirs(args.cache, exist_ok=True)
        for k, t in enumerate(todo):
            p = chunk_path(args, t)
            if os.path.exists(p):
                have[k] = load_rows(p)
    missing = [k for k in range(len(todo)) if k not in have]
    print(f"labels: {len(todo)} tasks of up to {args.chunk} deals, {len(have)} cached, {len(missing)} to play "
          f"({args.jobs} job{'s' if args.jobs > 1 else ''})", flush=True)
    t0 = time.time()
    bids = [0]

    def tick(k):
        bids[0] += k

    with ProcessPool(args.jobs) as pool:
        for done, (j, rows) in enumerate(pool.imap(bid_label_chunk, [todo[k] for k in missing], tick), 1):
            k = missing[j]
            have[k] = rows_arrays(rows)
            p = chunk_path(args, todo[k])
            if p:
                save_rows(p, have[k])
            el = time.time() - t0
            print(f"  task {done}/{len(missing)}: {bids[0]} bids in {el:.0f} s "
                  f"({el / max(1, bids[0]):.2f} s a bid)", flush=True)
    return [have[k] for k in range(len(todo))]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--deals", type=int, default=3000, help="one-hand deals whose bids the expert labels")
    ap.add_argument("--iterations", type=int, default=400, help="the expert's sampled deals a decision")
    ap.add_argument("--chunk", type=int, default=20, help="deals per task")
    ap.add_argument("--jobs", type=int, default=1, help="processes labelling (same data for any number)")
    ap.add_argument("--cache", default=None, metavar="DIR", help="keep each task's labels here (resumable)")
    ap.add_argument("--labels-only", action="store_true", help="stop after the labels")
    ap.add_argument("--held-out", type=float, default=0.1, help="share of the tasks held out")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--wd", type=float, default=1e-4)
    ap.add_argument("--hard-share", type=float, default=0.5, help="share of the target on the expert's bid")
    ap.add_argument("--temperature", type=float, default=1.0,
                    help="points: the rest of the target is softmax(expected score / this) over the searched bids")
    ap.add_argument("--out", default="bidpolicy.npz", help="the weights file to write (none ships: see below)")
    args = ap.parse_args(argv)
    for name in ("deals", "iterations", "chunk", "jobs", "hidden", "epochs", "batch"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be 1 or more")
    if not 0.0 <= args.hard_share <= 1.0:
        ap.error("--hard-share must be between 0 and 1")
    if not args.temperature > 0:
        ap.error("--temperature must be above 0")
    if not 0.0 < args.held_out < 1.0:
        ap.error("--held-out must be between 0 and 1")
    t0 = time.time()
    parts = labels(args)
    print(f"labels ready: {sum(len(p['bid']) for p in parts)} bids, {time.time() - t0:.0f} s", flush=True)
    if args.labels_only:
        return 0
    from ohhell.bots.bidpolicy import train
    rng = np.random.default_rng(args.seed)
    cut = max(1, int(round(len(parts) * (1 - args.held_out))))
    if cut >= len(parts):
        ap.error("too few tasks to hold any out: give more --deals or a smaller --chunk")
    params = train(parts[:cut], parts[cut:], hidden=args.hidden, epochs=args.epochs, batch=args.batch,
                   lr=args.lr, wd=args.wd, hard_share=args.hard_share, temperature=args.temperature, rng=rng)
    np.savez(args.out, **params)
    print(f"wrote {args.out}, {time.time() - t0:.0f} s in all", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
