"""Train the learned play and bid networks (ohhell.bots.playnet), NumPy only, on one core.

One command, deterministic for a seed (one BLAS thread; the expert teacher runs on an
iteration budget with no clock, so the data do not depend on the machine's speed):

    PYTHONPATH=src nice -n 10 python scripts/train_play_model.py --jobs 2    # writes the shipped weights

Steps (ohhell.bots.playtrain makes the data):

1. teacher hands: one-hand games under random rules; every seat bids by the learned trick
   model and plays the expert's card (``--teacher-iterations`` sampled deals a decision);
1b. with ``--dagger-hands N``: hands the play network of ``--dagger-from`` (default: the
   weights in ``--out`` before the run) plays, each decision labelled by the expert all the
   same (DAgger), added to the teacher's decisions;
2. the play network (policy: the expert's visit shares; value: the tricks the seat took);
3. self-play hands: every seat plays the play network's card;
4. the bid model conditioned on the bid (the trick model's inputs plus the bid; the tricks
   taken in the self-play hands, where four bids in ten explore, so that the model learns
   what each bid leads to when the play network plays it out).

``--cache FILE`` keeps the generated data (an .npz): a second run with the same options
trains from it instead of playing the hands again.  ``--bids-only`` runs steps 3 and 4
alone, on the play network already in ``--out``, and writes the same bid model a whole run
would (its data and its training have seeds of their own):

    PYTHONPATH=src nice -n 10 python scripts/train_play_model.py --jobs 2 --bids-only

``--selfplay-rules standard`` plays the self-play hands under the standard game's rules only
(3 to 7 players, mostly 4 and 5, hand sizes as often as in a full game: the issue's full-game
matches) instead of random variants; ``standard-one`` lets one seat a hand explore its bid
while the others bid the trick model's best; ``standard-learned`` while the others bid as the
learned level with the weights in ``--out`` does.  ``--selfplay-extra CACHE`` adds the bids
of another seed's ``--selfplay-cache`` made on the same network and rules.

``--bid-data teacher`` trains the bid model on the teacher's hands instead (the tricks the
expert's own play took after each bid; no self-play), for the expert's ``bid_net`` option.
``--explore-hands N`` adds N hands in which the expert plays out deliberately varied bids
(``--explore-share`` of them any legal bid within two of the trick model's best), so that
the bid model sees what each bid leads to, not only the usual one.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from ohhell.bots.playnet import (DEFAULT_PLAY_WEIGHTS, N_BID_FEATURES, N_OUT, N_PLAY_FEATURES,  # noqa: E402
                                 BidNet, PlayNet, bid_inputs)
from ohhell.bots.playtrain import SELFPLAY_RULES, dagger_chunk, selfplay_chunk, teacher_chunk  # noqa: E402


def run_chunks(fn, tasks, pool):
    """Every task's ``(bids, plays)``, in task order (the same with or without a pool)."""
    if pool is None:
        parts = {i: fn(t) for i, t in enumerate(tasks)}
    else:
        parts = dict(pool.imap(fn, tasks))
    bids, plays = [], []
    for i in range(len(tasks)):
        b, p = parts.pop(i)
        bids += b
        plays += p
    return bids, plays


def selfplay_bid_arrays(tasks, pool):
    """The self-play tasks' bid examples as arrays, in task order, each task's packed as it
    comes in (a million bids as Python lists would not fit in memory)."""
    fn = selfplay_chunk
    it = ((i, fn(t)) for i, t in enumerate(tasks)) if pool is None else pool.imap(fn, tasks)
    parts, waiting = [], {}
    for i, (bids, _) in it:
        waiting[i] = bid_arrays(bids)
        while len(parts) in waiting:
            parts.append(waiting.pop(len(parts)))
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(3))


def bid_arrays(bids):
    X = np.zeros((len(bids), N_BID_FEATURES), dtype=np.float32)
    y = np.zeros(len(bids), dtype=np.int64)
    h = np.zeros(len(bids), dtype=np.int64)
    for i, (x, b, won, hs) in enumerate(bids):
        X[i] = bid_inputs(x, [b], hs)[0]
        y[i] = won
        h[i] = hs
    return X, y, h


def play_arrays(plays):
    m = len(plays)
    X = np.zeros((m, N_PLAY_FEATURES), dtype=np.float32)
    T = np.zeros((m, 52), dtype=np.float32)
    L = np.zeros((m, 52), dtype=bool)
    V = np.zeros((m, N_OUT), dtype=bool)
    y = np.zeros(m, dtype=np.int64)
    for i, (x, tgt, legal, won0, left, won, h, _) in enumerate(plays):
        X[i] = x
        for k, p in tgt.items():
            T[i, k] = p
        L[i, legal] = True
        V[i, won0:won0 + left + 1] = True
        y[i] = won
    return X, T, L, V, y


def init(rng, sizes, prefix, names):
    p = {}
    for (a, b), name in zip(zip(sizes[:-1], sizes[1:]), names):
        p[f"{prefix}W{name}"] = (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
        p[f"{prefix}b{name}"] = np.zeros(b, dtype=np.float32)
    return p


def softmax_ce(z, mask, target):
    """Masked softmax cross-entropy against soft targets: (loss per row, dL/dz)."""
    z = np.where(mask, z, -1e9)
    # Floored at -80: exp(-80) is still a normal float32, while the subnormals of smaller
    # values (a confident model's unlikeliest classes) made every matmul of the backward pass
    # about 30 times slower (epochs slowed from 15 s to over 250 s); a probability below 1e-34
    # changes nothing a float32 weight can hold.
    z = np.maximum(z - z.max(axis=1, keepdims=True), -80.0)
    e = np.exp(z) * mask
    P = e / e.sum(axis=1, keepdims=True)
    loss = -(target * np.log(np.maximum(P, 1e-12))).sum(axis=1)
    return loss, P - target


TINY = np.finfo(np.float32).tiny


def dead_units(acts):
    """How many hidden units of each trunk layer no held-out example opens."""
    return [int((~(a > 0).any(0)).sum()) for a in acts[1:]]


class Adam:
    def __init__(self, params, lr):
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0
        self.lr = lr

    def step(self, p, g, lr):
        self.t += 1
        b1, b2 = 0.9, 0.999
        for k in g:
            self.m[k] = b1 * self.m[k] + (1 - b1) * g[k]
            self.v[k] = b2 * self.v[k] + (1 - b2) * g[k] * g[k]
            mh = self.m[k] / (1 - b1 ** self.t)
            vh = self.v[k] / (1 - b2 ** self.t)
            p[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
            # A dead ReLU's weights get only the weight decay, and they, with their moments, shrink
            # into float32 subnormals, which make every matmul that touches them about 30 times
            # slower (bid epochs grew from 50 s to 500 s); flushed to zero they cost nothing.
            for a in (p[k], self.m[k], self.v[k]):
                a[np.abs(a) < TINY] = 0.0


def trunk(p, prefix, X):
    acts = [X]
    a = X
    for i in range(2):
        a = np.maximum(a @ p[f"{prefix}W{i}"] + p[f"{prefix}b{i}"], 0.0)
        acts.append(a)
    return acts


def trunk_back(p, prefix, acts, da, g, wd):
    for i in (1, 0):
        da = da * (acts[i + 1] > 0)
        g[f"{prefix}W{i}"] = acts[i].T @ da + wd * p[f"{prefix}W{i}"]
        g[f"{prefix}b{i}"] = da.sum(0)
        if i:
            da = da @ p[f"{prefix}W{i}"].T


def normalise(X):
    mean = X.mean(0)
    std = np.maximum(X.std(0), 0.05)
    return mean.astype(np.float32), std.astype(np.float32)


def hard_mix(T, share):
    """``share`` of the target on the teacher's most visited card, the rest its visit shares."""
    H = np.zeros_like(T)
    H[np.arange(len(T)), T.argmax(1)] = 1.0
    return (share * H + (1.0 - share) * T).astype(np.float32)


def train_play(X, T, L, V, y, Xv, Tv, Lv, Vv, yv, args, rng):
    """The play network; the epoch with the best held-out loss is kept."""
    T = hard_mix(T, args.hard_share)
    Tv = hard_mix(Tv, args.hard_share)
    mean, std = normalise(X)
    Xn = (X - mean) / std
    Xvn = (Xv - mean) / std
    H = args.hidden
    p = init(rng, [N_PLAY_FEATURES, H, H], "p_", ["0", "1"])
    p.update(init(rng, [H, 52], "p_", ["p"]))
    p.update(init(rng, [H, N_OUT], "p_", ["v"]))
    opt = Adam(p, args.lr)
    n = len(y)
    steps = args.epochs * ((n + args.batch - 1) // args.batch)
    eye = np.eye(N_OUT, dtype=np.float32)
    t0 = time.time()
    best, kept = np.inf, dict(p)
    for epoch in range(args.epochs):
        order = rng.permutation(n)
        tot_p = tot_v = 0.0
        for i in range(0, n, args.batch):
            idx = order[i:i + args.batch]
            m = len(idx)
            acts = trunk(p, "p_", Xn[idx])
            a = acts[-1]
            lp, dp = softmax_ce(a @ p["p_Wp"] + p["p_bp"], L[idx], T[idx])
            lv, dv = softmax_ce(a @ p["p_Wv"] + p["p_bv"], V[idx], eye[y[idx]])
            tot_p += lp.sum()
            tot_v += lv.sum()
            dp /= m
            dv *= args.value_weight / m
            g = {"p_Wp": a.T @ dp + args.wd * p["p_Wp"], "p_bp": dp.sum(0),
                 "p_Wv": a.T @ dv + args.wd * p["p_Wv"], "p_bv": dv.sum(0)}
            da = dp @ p["p_Wp"].T + dv @ p["p_Wv"].T
            trunk_back(p, "p_", acts, da, g, args.wd)
            lr = args.lr * 0.5 * (1 + np.cos(np.pi * opt.t / steps))
            opt.step(p, g, lr)
        acts = trunk(p, "p_", Xvn)
        zp = acts[-1] @ p["p_Wp"] + p["p_bp"]
        lp, _ = softmax_ce(zp, Lv, Tv)
        lv, _ = softmax_ce(acts[-1] @ p["p_Wv"] + p["p_bv"], Vv, eye[yv])
        agree = float(np.mean(np.argmax(np.where(Lv, zp, -1e9), 1) == np.argmax(Tv, 1)))
        held = float(lp.mean() + args.value_weight * lv.mean())
        if held < best:
            best, kept = held, {k: v.copy() for k, v in p.items()}
        print(f"play epoch {epoch + 1}: train policy {tot_p / n:.4f} value {tot_v / n:.4f}; held-out policy "
              f"{lp.mean():.4f} value {lv.mean():.4f}, top card = expert's {100 * agree:.1f}%"
              f"{' (kept)' if best == held else ''}, dead units {dead_units(acts)}, "
              f"{time.time() - t0:.0f} s", flush=True)
    kept["p_mean"] = mean
    kept["p_std"] = std
    return kept


def train_bid(X, y, h, Xv, yv, hv, args, rng):
    mean, std = normalise(X)
    Xn = (X - mean) / std
    Xvn = (Xv - mean) / std
    H = args.bid_hidden
    p = init(rng, [N_BID_FEATURES, H, H], "b_", ["0", "1"])
    p.update(init(rng, [H, N_OUT], "b_", ["o"]))
    opt = Adam(p, args.lr)
    n = len(y)
    steps = args.bid_epochs * ((n + args.batch - 1) // args.batch)
    eye = np.eye(N_OUT, dtype=np.float32)
    ar = np.arange(N_OUT)[None, :]
    t0 = time.time()
    best, kept = np.inf, dict(p)
    for epoch in range(args.bid_epochs):
        order = rng.permutation(n)
        tot = 0.0
        for i in range(0, n, args.batch):
            idx = order[i:i + args.batch]
            m = len(idx)
            acts = trunk(p, "b_", Xn[idx])
            a = acts[-1]
            lo, do = softmax_ce(a @ p["b_Wo"] + p["b_bo"], ar <= h[idx, None], eye[y[idx]])
            tot += lo.sum()
            do /= m
            g = {"b_Wo": a.T @ do + args.wd * p["b_Wo"], "b_bo": do.sum(0)}
            trunk_back(p, "b_", acts, do @ p["b_Wo"].T, g, args.wd)
            lr = args.lr * 0.5 * (1 + np.cos(np.pi * opt.t / steps))
            opt.step(p, g, lr)
        acts = trunk(p, "b_", Xvn)
        lo, _ = softmax_ce(acts[-1] @ p["b_Wo"] + p["b_bo"], ar <= hv[:, None], eye[yv])
        held = float(lo.mean())
        if held < best:
            best, kept = held, {k: v.copy() for k, v in p.items()}
        print(f"bid epoch {epoch + 1}: train log-loss {tot / n:.4f}, held-out {held:.4f}"
              f"{' (kept)' if best == held else ''}, dead units {dead_units(acts)}, "
              f"{time.time() - t0:.0f} s", flush=True)
    kept["b_mean"] = mean
    kept["b_std"] = std
    return kept


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--teacher-hands", type=int, default=8000, help="hands the expert plays (step 1)")
    ap.add_argument("--teacher-iterations", type=int, default=40, help="the expert's sampled deals a decision")
    ap.add_argument("--selfplay-hands", type=int, default=12000, help="hands the play network plays (step 3)")
    ap.add_argument("--selfplay-rules", choices=SELFPLAY_RULES, default="random",
                    help="the self-play hands' rules: random variants (default) or the standard game's "
                         "(3 to 7 players, mostly 4 and 5; sizes as often as in a full game); standard-one: "
                         "the standard game where one seat a hand explores its bid and the others bid the "
                         "trick model's best; standard-learned: the same, the others bidding as the learned "
                         "level with the weights in --out does")
    ap.add_argument("--chunk", type=int, default=50, help="hands per task")
    ap.add_argument("--held-out", type=float, default=0.025, help="share of the hands held out for the scores")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--bid-hidden", type=int, default=128)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--bid-epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--wd", type=float, default=1e-4)
    ap.add_argument("--value-weight", type=float, default=0.25)
    ap.add_argument("--hard-share", type=float, default=0.5,
                    help="share of the policy target on the expert's chosen card (the rest: its visit shares)")
    ap.add_argument("--dagger-hands", type=int, default=0,
                    help="after the teacher's hands, this many hands where the play network of --dagger-from "
                         "plays and the expert labels every decision (DAgger); 0: none")
    ap.add_argument("--dagger-beta", type=float, default=0.5,
                    help="share of the DAgger hands' cards the expert plays (the rest: the network's)")
    ap.add_argument("--dagger-from", action="append", default=None, metavar="WEIGHTS",
                    help="the play network that plays the DAgger hands (default: the weights in --out "
                         "before this run); given again, one more round of --dagger-hands hands per network, "
                         "all of them kept (aggregated DAgger: the first round's hands are the same as a "
                         "one-round run's); WEIGHTS@N: that round's decisions labelled by the expert at N "
                         "sampled deals (a stronger teacher) instead of --teacher-iterations")
    ap.add_argument("--out", default=DEFAULT_PLAY_WEIGHTS)
    ap.add_argument("--cache", default=None,
                    help="keep the teacher's hands' data here (.npz; each DAgger round's beside it, in "
                         "FILE.daggerN.npz) and reuse it")
    ap.add_argument("--jobs", type=int, default=1, help="processes playing the hands (same data for any number)")
    ap.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                    help="play the hands on a Ray cluster (no address: start Ray here); the same data as a "
                         "local run (--jobs: at most this many Ray workers)")
    ap.add_argument("--selfplay-cache", default=None,
                    help="keep the self-play bids here (.npz) and reuse them while the play network is the same")
    ap.add_argument("--selfplay-extra", action="append", default=[], metavar="CACHE",
                    help="a --selfplay-cache of another --seed's hands on the same play network and rules, "
                         "its bids added to this run's (training and held out alike); may be given again")
    ap.add_argument("--bid-data", choices=("selfplay", "teacher"), default="selfplay",
                    help="what the bid-conditioned model learns from: the play network's self-play hands "
                         "(steps 3 and 4, default) or the teacher's hands (the expert's play after each bid; "
                         "no self-play)")
    ap.add_argument("--explore-hands", type=int, default=0,
                    help="with --bid-data teacher: this many more hands played by the expert in which "
                         "--explore-share of the bids are any legal bid within two of the trick model's best "
                         "(what each bid leads to under the expert's play), for the bid model only")
    ap.add_argument("--explore-share", type=float, default=0.4, help="see --explore-hands")
    ap.add_argument("--bids-only", action="store_true",
                    help="train only the bid model (from --bid-data), on the play network already in --out")
    args = ap.parse_args(argv)
    if args.explore_hands and args.bid_data != "teacher":
        ap.error("--explore-hands feeds the bid model's teacher data: give --bid-data teacher")
    if not 0.0 <= args.explore_share <= 1.0:
        ap.error(f"--explore-share must be between 0 and 1, not {args.explore_share}")
    t0 = time.time()
    rng = np.random.default_rng(args.seed)
    from ohhell.bots.distributed import RayPoolError, script_pool
    pool = None
    try:
        pool = script_pool(args.ray, args.jobs)
        return train(args, ap, rng, pool, t0)
    except RayPoolError as e:       # Ray missing, a bad address, workers lost
        print(f"train_play_model: {e}", file=sys.stderr)
        return 1
    finally:
        if pool is not None:
            pool.close()


def train(args, ap, rng, pool, t0) -> int:
    """Both networks (or the bid model alone, ``--bids-only``), written to ``args.out``."""
    bidder: dict = {}
    if args.bids_only:
        if not os.path.exists(args.out):
            ap.error(f"--bids-only needs the play network in {args.out}; train it first (without --bids-only)")
        with np.load(args.out) as f:
            params = {k: f[k] for k in f.files if k.startswith("p_")}
            bidder = {k: f[k] for k in f.files if k.startswith("b_")}
        PlayNet(params)
        data = None
        if args.selfplay_rules == "standard-learned":
            if not bidder:
                ap.error(f"--selfplay-rules standard-learned needs a bid model in {args.out} for the others' bids")
            BidNet(bidder)
    elif args.selfplay_rules == "standard-learned":
        ap.error("--selfplay-rules standard-learned needs --bids-only (the others bid by the bid model in --out)")
    else:
        params, data = train_teacher_and_play(args, rng, pool, t0, ap)
    if args.bid_data == "teacher":
        # the teacher's hands: the tricks the expert's own play took after each bid
        if data is None:
            data = teacher_data(args, pool, t0, ap)
        B = [data[k] for k in ("BX", "By", "Bh", "BXv", "Byv", "Bhv")]
        if args.explore_hands:
            extra = explore_bids(args, pool, t0, ap)
            B = [np.concatenate([a, b]) for a, b in zip(B, extra)]
        bid_params = train_bid(*B, args, np.random.default_rng([args.seed, 4]))
    else:
        tmp = args.out + ".play.npz"
        # the networks the self-play hands are played (and, standard-learned, bid) by
        np.savez(tmp, **params, **(bidder if args.selfplay_rules == "standard-learned" else {}))
        try:
            bid_params = train_bid_selfplay(args, tmp, pool, t0)
        finally:
            os.remove(tmp)
    params.update(bid_params)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    np.savez_compressed(args.out, **params)
    PlayNet(params)
    BidNet(params)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes), {time.time() - t0:.0f} s in all")
    return 0


def train_bid_selfplay(args, weights, pool, t0):
    """Steps 3 and 4: self-play hands by the play network at ``weights``, the first
    ``--held-out`` share of them held out, then the bid-conditioned model on the rest."""
    if args.selfplay_hands <= args.chunk * 4:
        raise SystemExit(f"--selfplay-hands must be more than {args.chunk * 4} (hands are held out "
                         f"{args.chunk * 4} at a time)")
    with open(weights, "rb") as f:
        blob = f.read()          # the network travels with each task (a Ray node has no such file)
    tasks = [(min(args.chunk * 4, args.selfplay_hands - i), f"{args.seed}:{i}", blob, args.selfplay_rules)
             for i in range(0, args.selfplay_hands, args.chunk * 4)]
    cut = min(len(tasks) - 1, max(1, int(round(len(tasks) * args.held_out))))
    key = None
    names = ["BX", "By", "Bh", "BXv", "Byv", "Bhv"]
    with np.load(weights) as f:
        digest = hashlib.sha256(b"".join(f[k].tobytes() for k in sorted(f.files))).hexdigest()
    if args.selfplay_cache:
        key = np.array([f"{args.seed}:{args.selfplay_hands}:{args.chunk}:{args.held_out}"
                        + selfplay_source(digest, args.selfplay_rules)])
        cached = read_cached(args.selfplay_cache, key, names)
    else:
        cached = None
    if cached is None:
        BX, By, Bh = selfplay_bid_arrays(tasks[cut:], pool)
        BXv, Byv, Bhv = selfplay_bid_arrays(tasks[:cut], pool)
        cached = dict(BX=BX, By=By, Bh=Bh, BXv=BXv, Byv=Byv, Bhv=Bhv)
        if key is not None:
            np.savez(args.selfplay_cache, key=key, **cached)
    else:
        print(f"self-play bids from {args.selfplay_cache}", flush=True)
    parts = [cached] + [extra_selfplay(path, digest, args.selfplay_rules) for path in args.selfplay_extra]
    data = {k: np.concatenate([p[k] for p in parts]) for k in names}
    print(f"self-play: {len(data['By'])} bids ({len(data['Byv'])} held out), {time.time() - t0:.0f} s", flush=True)
    return train_bid(*(data[k] for k in names), args, np.random.default_rng([args.seed, 4]))


def extra_selfplay(path, digest, rules):
    """The bids of another seed's ``--selfplay-cache`` (``--selfplay-extra``), refused unless
    it was made on the same play network (``digest``) and the same self-play rules."""
    if not os.path.exists(path):
        raise SystemExit(f"--selfplay-extra {path}: no such file")
    with np.load(path) as f:
        if not str(f["key"].tolist()[0]).endswith(selfplay_source(digest, rules)):
            raise SystemExit(f"--selfplay-extra {path}: made on another play network or other rules, "
                             f"not this run's ({rules})")
        return {k: f[k] for k in ("BX", "By", "Bh", "BXv", "Byv", "Bhv")}


def selfplay_source(digest, rules):
    """The end of a self-play cache's key that says what played the hands (the networks'
    ``digest``) and under which ``rules``: the part two seeds' caches must share to be
    trained on together."""
    return f":{digest}" + ("" if rules == "random" else f":{rules}")


def train_teacher_and_play(args, rng, pool, t0, ap):
    """Steps 1 and 2: the teacher's hands (or the cache) and the play network; returns the
    network's parameters and the data."""
    data = teacher_data(args, pool, t0, ap)
    if args.dagger_hands > 0:
        data = add_dagger(data, args, pool, t0, ap)
    return train_play(data["X"], data["T"], data["L"], data["V"], data["y"],
                      data["Xv"], data["Tv"], data["Lv"], data["Vv"], data["yv"], args, rng), data


def teacher_data(args, pool, t0, ap):
    """Step 1's data: the teacher's hands, played now or read from ``--cache`` (kept there
    when it is given)."""
    key = np.array([args.seed, args.teacher_hands, args.teacher_iterations, args.chunk, args.held_out])
    cached = read_cached(args.cache, key)
    if cached is None:
        tasks = [(min(args.chunk, args.teacher_hands - i), f"{args.seed}:{i // args.chunk}", args.teacher_iterations)
                 for i in range(0, args.teacher_hands, args.chunk)]
        if len(tasks) < 2:
            ap.error("--teacher-hands must be more than --chunk (hands are held out a task at a time)")
        cut = min(len(tasks) - 1, max(1, int(round(len(tasks) * args.held_out))))
        bids, plays = run_chunks(teacher_chunk, tasks[cut:], pool)
        bids_v, plays_v = run_chunks(teacher_chunk, tasks[:cut], pool)
        data = dict(zip(["X", "T", "L", "V", "y"], play_arrays(plays)))
        data.update(zip(["Xv", "Tv", "Lv", "Vv", "yv"], play_arrays(plays_v)))
        data.update(zip(["BX", "By", "Bh"], bid_arrays(bids)))
        data.update(zip(["BXv", "Byv", "Bhv"], bid_arrays(bids_v)))
        if args.cache:
            np.savez_compressed(args.cache, key=key, **data)
    else:
        data = cached
    print(f"teacher data: {len(data['y'])} card decisions, {len(data['By'])} bids "
          f"({len(data['yv'])} and {len(data['Byv'])} held out), {time.time() - t0:.0f} s", flush=True)
    return data


def beside_cache(args, part):
    """Where ``--cache FILE`` keeps one more part of the data (``FILE.part.npz``), or None."""
    if not args.cache:
        return None
    return f"{args.cache[:-4] if args.cache.endswith('.npz') else args.cache}.{part}.npz"


def read_cached(path, key, names=None):
    """The arrays ``names`` (default: all) from ``path`` if it holds data made under ``key``,
    else None: every cache the script keeps is read through here."""
    if path and os.path.exists(path):
        with np.load(path) as f:
            if f["key"].tolist() == key.tolist():
                return {k: f[k] for k in (f.files if names is None else names)}
    return None


def explore_bids(args, pool, t0, ap):
    """``--explore-hands``: the bids of hands the expert plays out after exploring bids
    (``BX, By, Bh, BXv, Byv, Bhv``), played now or read from ``--cache``'s ``FILE.explore.npz``."""
    key = np.array([f"{args.seed}:x:{args.explore_hands}:{args.explore_share}:{args.teacher_iterations}:"
                    f"{args.chunk}:{args.held_out}"])
    path = beside_cache(args, "explore")
    names = ["BX", "By", "Bh", "BXv", "Byv", "Bhv"]
    cached = read_cached(path, key, names)
    if cached is not None:
        got = [cached[k] for k in names]
        print(f"exploring bids from {path}: {len(got[1])} ({len(got[4])} held out)", flush=True)
        return got
    tasks = [(min(args.chunk, args.explore_hands - i), f"{args.seed}:x:{i // args.chunk}", args.teacher_iterations,
              args.explore_share) for i in range(0, args.explore_hands, args.chunk)]
    if len(tasks) < 2:
        ap.error("--explore-hands must be more than --chunk (hands are held out a task at a time)")
    cut = min(len(tasks) - 1, max(1, int(round(len(tasks) * args.held_out))))
    bids, _ = run_chunks(teacher_chunk, tasks[cut:], pool)
    bids_v, _ = run_chunks(teacher_chunk, tasks[:cut], pool)
    got = [*bid_arrays(bids), *bid_arrays(bids_v)]
    if path:
        np.savez_compressed(path, key=key, **dict(zip(names, got)))
    print(f"exploring bids: {len(got[1])} ({len(got[4])} held out), {time.time() - t0:.0f} s", flush=True)
    return got


def dagger_source(spec, iterations, ap):
    """``WEIGHTS`` or ``WEIGHTS@N`` (a ``--dagger-from``): the network's file and the expert's
    sampled deals a decision labelling that round (``N``, else ``--teacher-iterations``)."""
    path, at, n = spec.rpartition("@")
    if not at or not n.isdigit():
        return spec, iterations
    if int(n) < 1:
        ap.error(f"--dagger-from {spec}: the expert needs at least 1 sampled deal a decision")
    return path, int(n)


def add_dagger(data, args, pool, t0, ap):
    """Step 1b (``--dagger-hands``): hands the play network of ``--dagger-from`` plays (the
    expert a ``--dagger-beta`` share of the cards), every decision labelled by the expert at
    ``--teacher-iterations`` (or the round's own ``N`` of ``WEIGHTS@N``); their card decisions
    join the teacher's, held out in the same share (the bids are the trick model's, as the
    teacher's).  One round per ``--dagger-from``, each on deals of its own (round 0's seeds are
    those of a one-round run), all kept."""
    sources = [dagger_source(s, args.teacher_iterations, ap) for s in (args.dagger_from or [args.out])]
    for source, _ in sources:
        if not os.path.exists(source):
            ap.error(f"--dagger-hands needs a play network to play them: {source} does not exist")
        PlayNet.load(source)       # a clear error now, not in every worker
    out = dict(data)
    for r, (source, iterations) in enumerate(sources):
        with open(source, "rb") as f:
            blob = f.read()        # the network travels with each task (a Ray node has no such file)
        tag = f"{args.seed}" if r == 0 else f"{args.seed}:r{r}"
        names = ["X", "T", "L", "V", "y", "Xv", "Tv", "Lv", "Vv", "yv"]
        # --cache keeps each round's data beside the teacher's, keyed by everything it depends on
        key = np.array([f"{tag}:{args.dagger_hands}:{iterations}:{args.dagger_beta}:{args.chunk}:"
                        f"{args.held_out}:{hashlib.sha256(blob).hexdigest()}"])
        path = beside_cache(args, f"dagger{r + 1}")
        got = read_cached(path, key, names)
        if got is None:
            tasks = [(min(args.chunk, args.dagger_hands - i), f"{tag}:{i // args.chunk}", iterations,
                      blob, args.dagger_beta) for i in range(0, args.dagger_hands, args.chunk)]
            cut = min(len(tasks) - 1, max(0, int(round(len(tasks) * args.held_out))))
            _, plays = run_chunks(dagger_chunk, tasks[cut:], pool)
            _, plays_v = run_chunks(dagger_chunk, tasks[:cut], pool)
            got = {}
            for part, rows in ((names[:5], plays), (names[5:], plays_v)):
                got.update(zip(part, play_arrays(rows)))
            if path:
                np.savez_compressed(path, key=key, **got)
        for k in names:
            if len(got[k]):
                out[k] = np.concatenate([out[k], got[k]])
        strength = "" if iterations == args.teacher_iterations else f", the expert at {iterations} deals"
        print(f"DAgger round {r + 1} ({source}, beta {args.dagger_beta}{strength}): {len(got['y'])} card decisions "
              f"({len(got['yv'])} held out), {time.time() - t0:.0f} s", flush=True)
    return out


if __name__ == "__main__":
    sys.exit(main())
