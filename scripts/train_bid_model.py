"""Train the learned bid model (ohhell.bots.learned.TrickModel) by self-play, NumPy only.

One command, deterministic for a seed (one BLAS thread):

    PYTHONPATH=src python scripts/train_bid_model.py            # seed 11, writes the shipped weights

Generates ``--examples`` training examples and ``--held-out`` held-out ones
(a different seed) with :func:`ohhell.bots.learned.self_play_examples`,
trains an MLP (two hidden layers of 128 tanh units, softmax masked to
0..hand size) with Adam on the cross-entropy of the tricks taken, and writes
the weights as an .npz (float32).  Prints the held-out log-loss of the model
and of the closed-form distribution the bots use today after every epoch.
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

from ohhell.bots.learned import (DEFAULT_WEIGHTS, N_FEATURES, N_OUT, TrickModel,  # noqa: E402
                                 closed_form, self_play_chunk)

HIDDEN = 128


def generate(count: int, seed: int, chunk: int = 20000, pool=None):
    """(X float32, y int, hand sizes int, positions) for about ``count`` examples.

    Chunk ``i`` is :func:`self_play_examples` of ``min(chunk, count - done)`` examples from seed
    ``seed * 1000 + i``, ``done`` being what the chunks before it gave.  With ``pool`` (an
    executor: ``ProcessPool``, ``RayPool``) the leading chunks that certainly ask for a full
    ``chunk`` run in parallel and the rest one by one, so the data are the same either way.
    """
    xs, ys, hs, infos = [], [], [], []
    done = 0
    i = 0
    if pool is not None and count >= chunk:
        # A chunk gives at most 6 examples more than it asks (its last deal has up to 7 seats),
        # so chunk i, with at most i * (chunk + 6) done before it, asks for a full chunk while
        # i * (chunk + 6) <= count - chunk.
        sure = (count - chunk) // (chunk + 6) + 1
        parts = dict(pool.imap(self_play_chunk, [(chunk, seed * 1000 + k) for k in range(sure)]))
        for k in range(sure):
            X, y, h, info = parts.pop(k)
            xs.append(X)
            ys.append(y)
            hs.append(h)
            infos.extend(info)
            done += len(y)
        i = sure
    while done < count:
        X, y, h, info = self_play_chunk((min(chunk, count - done), seed * 1000 + i))
        xs.append(X)
        ys.append(y)
        hs.append(h)
        infos.extend(info)
        done += len(y)
        i += 1
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(hs), infos


def log_loss(P: np.ndarray, y: np.ndarray) -> float:
    return float(-np.mean(np.log(np.maximum(P[np.arange(len(y)), y], 1e-12))))


def closed_form_matrix(infos) -> np.ndarray:
    P = np.zeros((len(infos), N_OUT))
    for i, pos in enumerate(infos):
        d = closed_form(pos)
        P[i, :len(d)] = d
    return P


def init(rng: np.random.Generator, sizes) -> dict:
    p = {}
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        p[f"W{i}"] = (rng.standard_normal((a, b)) * np.sqrt(1.0 / a)).astype(np.float64)
        p[f"b{i}"] = np.zeros(b)
    return p


def forward_backward(p: dict, X: np.ndarray, y: np.ndarray, mask: np.ndarray, wd: float):
    """Mean cross-entropy and its gradients."""
    a0 = X
    z0 = a0 @ p["W0"] + p["b0"]
    a1 = np.tanh(z0)
    z1 = a1 @ p["W1"] + p["b1"]
    a2 = np.tanh(z1)
    z2 = a2 @ p["W2"] + p["b2"]
    z2 = np.where(mask, z2, -1e9)
    z2 -= z2.max(axis=1, keepdims=True)
    e = np.exp(z2) * mask
    P = e / e.sum(axis=1, keepdims=True)
    m = len(y)
    loss = -np.mean(np.log(np.maximum(P[np.arange(m), y], 1e-12)))
    d2 = P
    d2[np.arange(m), y] -= 1.0
    d2 /= m
    g = {"W2": a2.T @ d2 + wd * p["W2"], "b2": d2.sum(0)}
    d1 = (d2 @ p["W2"].T) * (1 - a2 * a2)
    g["W1"] = a1.T @ d1 + wd * p["W1"]
    g["b1"] = d1.sum(0)
    d0 = (d1 @ p["W1"].T) * (1 - a1 * a1)
    g["W0"] = a0.T @ d0 + wd * p["W0"]
    g["b0"] = d0.sum(0)
    return loss, g


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--examples", type=int, default=600000)
    ap.add_argument("--held-out", type=int, default=20000)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--wd", type=float, default=1e-5)
    ap.add_argument("--out", default=DEFAULT_WEIGHTS)
    ap.add_argument("--jobs", type=int, default=1,
                    help="processes generating the data (the same data for any number; default 1)")
    ap.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                    help="generate the data on a Ray cluster (no address: start Ray here); the same "
                         "data as a local run")
    args = ap.parse_args(argv)
    t0 = time.time()
    from ohhell.bots.distributed import RayPoolError, script_pool
    pool = None
    try:
        pool = script_pool(args.ray, args.jobs)
        X, y, hs, _ = generate(args.examples, args.seed, pool=pool)
        Xv, yv, hv, infov = generate(args.held_out, args.seed + 1_000_003, pool=pool)
    except RayPoolError as e:       # Ray missing, a bad address, workers lost
        print(f"train_bid_model: {e}", file=sys.stderr)
        return 1
    finally:
        if pool is not None:
            pool.close()
    print(f"data: {len(y)} train, {len(yv)} held-out, {time.time() - t0:.1f} s", flush=True)
    cf = log_loss(closed_form_matrix(infov), yv)
    mean = X.mean(0)
    std = X.std(0) + 1e-3
    Xn = ((X - mean) / std).astype(np.float32)
    del X
    rng = np.random.default_rng(args.seed)
    p = init(rng, [N_FEATURES, HIDDEN, HIDDEN, N_OUT])
    mom = {k: np.zeros_like(v) for k, v in p.items()}
    vel = {k: np.zeros_like(v) for k, v in p.items()}
    ar = np.arange(N_OUT)[None, :]
    step = 0
    steps_total = args.epochs * ((len(y) + args.batch - 1) // args.batch)
    b1, b2 = 0.9, 0.999
    model = None
    for epoch in range(args.epochs):
        order = rng.permutation(len(y))
        tot = 0.0
        for i in range(0, len(y), args.batch):
            idx = order[i:i + args.batch]
            mask = ar <= hs[idx, None]
            loss, g = forward_backward(p, Xn[idx].astype(np.float64), y[idx], mask, args.wd)
            tot += loss * len(idx)
            step += 1
            lr = args.lr * 0.5 * (1 + np.cos(np.pi * step / steps_total))   # cosine decay
            for k in p:
                mom[k] = b1 * mom[k] + (1 - b1) * g[k]
                vel[k] = b2 * vel[k] + (1 - b2) * g[k] * g[k]
                mh = mom[k] / (1 - b1 ** step)
                vh = vel[k] / (1 - b2 ** step)
                p[k] -= lr * mh / (np.sqrt(vh) + 1e-8)
        params = {k: v.astype(np.float32) for k, v in p.items()}
        params["mean"] = mean.astype(np.float32)
        params["std"] = std.astype(np.float32)
        model = TrickModel(params)
        held = log_loss(model.predict_batch(Xv, hv), yv)
        print(f"epoch {epoch + 1}: train log-loss {tot / len(y):.4f}, held-out {held:.4f} "
              f"(closed form {cf:.4f}), {time.time() - t0:.1f} s", flush=True)
    assert model is not None
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    np.savez_compressed(args.out, **model.params)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes), {time.time() - t0:.1f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
