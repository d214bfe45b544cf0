"""The learned bid model against the closed-form trick distribution (issue 11).

    PYTHONPATH=src python benchmarks/bid_model.py --examples 20000

Deals ``--examples`` held-out positions by self-play
(:func:`ohhell.bots.learned.self_play_examples`, seed ``--seed``, not one the
training script uses), and for each scores two predictions of the tricks
the seat then took: the shipped :class:`~ohhell.bots.learned.TrickModel`
and the Poisson-binomial over :func:`ohhell.sampling.card_win_chances` the
bots use today.  Prints the log-loss (overall and by players), the mean
absolute error of the expected tricks, a calibration table (every predicted
P(k tricks) binned, mean prediction against the observed frequency) with its
expected calibration error, and the inference time per prediction, single
and batched.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from ohhell.bots.learned import (N_OUT, TrickModel, closed_form, feature_matrix,  # noqa: E402
                                 features, self_play_examples)

BINS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001)


def _ll(P: np.ndarray, y: np.ndarray) -> float:
    return float(-np.mean(np.log(np.maximum(P[np.arange(len(y)), y], 1e-12))))


def _calibration(P: np.ndarray, y: np.ndarray, hs: np.ndarray):
    """Rows (bin, count, mean predicted, observed) over every (position, k <= hand size) pair."""
    onehot = np.zeros_like(P)
    onehot[np.arange(len(y)), y] = 1.0
    valid = np.arange(N_OUT)[None, :] <= hs[:, None]
    p, o = P[valid], onehot[valid]
    rows, ece = [], 0.0
    for lo, hi in zip(BINS[:-1], BINS[1:]):
        sel = (p >= lo) & (p < hi)
        if sel.any():
            mp, mo = float(p[sel].mean()), float(o[sel].mean())
            rows.append((f"{lo:.2f}-{min(hi, 1.0):.2f}", int(sel.sum()), mp, mo))
            ece += sel.sum() * abs(mp - mo)
    return rows, ece / len(p)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--weights", default=None)
    args = ap.parse_args(argv)
    model = TrickModel.load(args.weights)
    rows, ys, hs_l, info = self_play_examples(args.examples, args.seed)
    X = feature_matrix(rows)
    y = np.asarray(ys)
    hs = np.asarray(hs_l)
    Pm = model.predict_batch(X, hs)
    Pc = np.zeros_like(Pm)
    for i, pos in enumerate(info):
        d = closed_form(pos)
        Pc[i, :len(d)] = d
    n = np.asarray([pos[3] for pos in info])
    print(f"{len(y)} held-out positions (seed {args.seed})\n")
    print("| players | positions | log-loss, learned | log-loss, closed form |")
    print("|---|---|---|---|")
    for k in range(3, 8):
        s = n == k
        print(f"| {k} | {int(s.sum())} | {_ll(Pm[s], y[s]):.3f} | {_ll(Pc[s], y[s]):.3f} |")
    print(f"| all | {len(y)} | {_ll(Pm, y):.3f} | {_ll(Pc, y):.3f} |\n")
    ks = np.arange(N_OUT)
    for name, P in (("learned", Pm), ("closed form", Pc)):
        mae = float(np.mean(np.abs(P @ ks - y)))
        mode_hit = float(np.mean(P.argmax(1) == y))
        print(f"{name}: mean |E[tricks] - tricks| {mae:.3f}, most likely count right {mode_hit:.1%}")
    print()
    cal = {name: _calibration(P, y, hs) for name, P in (("learned", Pm), ("closed form", Pc))}
    print("| predicted P(k tricks) | pairs | learned: mean predicted / observed | "
          "closed form: pairs | mean predicted / observed |")
    print("|---|---|---|---|---|")
    lrows = {r[0]: r for r in cal["learned"][0]}
    crows = {r[0]: r for r in cal["closed form"][0]}
    for b in sorted(set(lrows) | set(crows)):
        lr, cr = lrows.get(b), crows.get(b)
        ls = f"{lr[1]} | {lr[2]:.3f} / {lr[3]:.3f}" if lr else "0 | -"
        cs = f"{cr[1]} | {cr[2]:.3f} / {cr[3]:.3f}" if cr else "0 | -"
        print(f"| {b} | {ls} | {cs} |")
    print(f"\nexpected calibration error: learned {cal['learned'][1]:.4f}, "
          f"closed form {cal['closed form'][1]:.4f}\n")
    # inference time
    sample = info[:2000]
    t = time.perf_counter()
    for pos in sample:
        hand, tr, tc, pl, h, s, bids, hook = pos
        model.predict(hand, tr, tc, pl, h, s, list(bids), hook)
    single = (time.perf_counter() - t) / len(sample)
    t = time.perf_counter()
    for pos in sample:
        features(pos[0], pos[1], pos[2], pos[3], pos[4], pos[5], list(pos[6]), pos[7])
    feat = (time.perf_counter() - t) / len(sample)
    Xb = X[:1000]
    hb = hs[:1000]
    model.predict_batch(Xb, hb)
    t = time.perf_counter()
    reps = 20
    for _ in range(reps):
        model.predict_batch(Xb, hb)
    batched = (time.perf_counter() - t) / (reps * len(Xb))
    t = time.perf_counter()
    for pos in sample:
        closed_form(pos)
    cft = (time.perf_counter() - t) / len(sample)
    print(f"inference: single predict (features included) {single * 1e6:.0f} µs, features alone "
          f"{feat * 1e6:.0f} µs, network batched by 1000 {batched * 1e6:.2f} µs per prediction; "
          f"closed form {cft * 1e6:.0f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
