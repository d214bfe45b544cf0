"""A learned bid policy: the expert's bid, imitated by a small network (NumPy only).

An experiment, not yet measured: its first labels were all no-trump hands (a bug in the
deals, since fixed), so no weights ship and the learned level uses it only when asked
(``learned:bids=policy:policy_weights=FILE``).

:class:`BidPolicy` maps the bidder's inputs (:func:`ohhell.bots.learned.features`: its
hand, the turned card, the players, the hand size, its place in the bidding order and the
bids before it) to one logit per bid; the policy is the softmax over the legal bids.  It is
trained by ``scripts/train_bid_policy.py`` on the expert's bids in hands of the standard
game (standard scoring), each target mostly the expert's bid and partly the bids its search
valued nearly as high (:func:`train`).  So it knows the standard game's rules only:
:func:`BidPolicy.covers` says which rules it was trained for, and the learned level
(:class:`ohhell.bots.learnedbot.LearnedBot`) falls back to its trick model elsewhere.

Why a policy and not the best bid under a model of the tricks: a model conditioned on each
bid, asked for the best one, picks the bids it overrates (BENCHMARKS.md, "Where the expert's
and the learned level's points go"); the expert's bid is a label that has no such bias.  The
policy starts from the trick model's expected score of each bid and learns a correction
(:meth:`BidPolicy.logits`).  BENCHMARKS.md, "A bid policy that imitates the expert", says
where the experiment stands.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Sequence

from ..rules import Rules
from .learned import N_FEATURES, N_OUT

if TYPE_CHECKING:
    import numpy as np

__all__ = ["BidPolicy", "DEFAULT_POLICY_WEIGHTS", "shared_policy", "train", "soft_targets", "trick_values"]

#: Where shipped weights would be.  None ship: the policy is an experiment not yet measured
#: stronger than the trick model's bid (BENCHMARKS.md, "A bid policy that imitates the
#: expert"), to be trained with ``scripts/train_bid_policy.py`` and given as a file.
DEFAULT_POLICY_WEIGHTS = os.path.join(os.path.dirname(__file__), "weights", "bidpolicy.npz")


class BidPolicy:
    """The bid policy network: inputs -> one logit per bid (0 to 17)."""

    def __init__(self, params: "dict") -> None:
        import numpy as np
        self.params = {k: np.asarray(v, dtype=np.float32) for k, v in params.items()}
        self.depth = sum(1 for k in self.params if k.startswith("W") and k[1:].isdigit())

    @classmethod
    def load(cls, path: "str | None" = None) -> "BidPolicy":
        import numpy as np
        with np.load(path or DEFAULT_POLICY_WEIGHTS) as f:
            return cls({k: f[k] for k in f.files})

    @staticmethod
    def covers(rules: Rules) -> bool:
        """Whether the policy was trained for hands under ``rules``: those of the standard
        game (a missed bid scores nothing, a made bid 10 plus the bid; bids in turn, no hook,
        no obligation to trump), for any number of players and any hand size."""
        from .learnedbot import standard_game
        return standard_game(rules)

    def logits(self, X: "np.ndarray", EV: "np.ndarray") -> "np.ndarray":
        """``scale * EV + MLP(X)``: the trick model's expected score of each bid (``EV``,
        points, (N, 18)), corrected by the network."""
        import numpy as np
        p = self.params
        a = (np.asarray(X, dtype=np.float32) - p["mean"]) / p["std"]
        for i in range(self.depth):
            a = np.maximum(a @ p[f"W{i}"] + p[f"b{i}"], 0.0)
        return p["ev_scale"][0] * np.asarray(EV, dtype=np.float32) + a @ p["Wo"] + p["bo"]

    def probabilities(self, X: "np.ndarray", EV: "np.ndarray", legal: "np.ndarray") -> "np.ndarray":
        """The policy over the bids: each row softmaxed over its row of ``legal`` (an (N, 18)
        boolean mask); 0 for an illegal bid."""
        import numpy as np
        z = np.where(legal, self.logits(X, np.where(legal, EV, 0.0)), -np.inf)
        z = z - z.max(1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(1, keepdims=True)

    def policy(self, x: Sequence[float], values: "dict[int, float]") -> "dict[int, float]":
        """``{bid: probability}`` over the legal bids, the keys of ``values`` (each the trick
        model's expected score of that bid, :func:`trick_values`), for one bidder's inputs ``x``."""
        import numpy as np
        legal = np.zeros((1, N_OUT), dtype=bool)
        EV = np.zeros((1, N_OUT), dtype=np.float32)
        for b, v in values.items():
            legal[0, b] = True
            EV[0, b] = v
        P = self.probabilities(np.asarray(x, dtype=np.float32).reshape(1, N_FEATURES), EV, legal)[0]
        return {b: float(P[b]) for b in values}


_POLICIES: "dict[str, BidPolicy]" = {}


def shared_policy(path: "str | None" = None) -> BidPolicy:
    """The policy at ``path`` (default: the shipped weights), loaded once per process."""
    key = path or DEFAULT_POLICY_WEIGHTS
    if key not in _POLICIES:
        if not os.path.exists(key):
            if path is None:
                raise ValueError("no bid policy ships with the package (an experiment, not measured stronger than "
                                 "the trick model's bid): train one with scripts/train_bid_policy.py and give its "
                                 "file as policy_weights")
            raise ValueError(f"no bid policy weights at {path!r}")
        _POLICIES[key] = BidPolicy.load(key)
    return _POLICIES[key]


def trick_values(X: "np.ndarray", hand_sizes: "Sequence[int] | np.ndarray", rules: Rules, model=None) -> "np.ndarray":
    """The trick model's expected hand score of each bid 0..17 (an (N, 18) matrix; 0 past
    the hand size) for the bidders' inputs ``X``, under ``rules``' scoring: what the
    learned level's trick-model bid maximises, and the policy's starting point."""
    import numpy as np
    from ..scoring import hand_score
    from .learned import shared_model
    hs = np.asarray(hand_sizes, dtype=np.int64)
    P = (model or shared_model()).predict_batch(np.asarray(X, dtype=np.float32), hs)
    EV = np.zeros((len(hs), N_OUT), dtype=np.float32)
    for h in sorted(set(hs.tolist())):   # not np.unique: its first call imports numpy.ma (25 ms)
        S = np.array([[hand_score(b, k, h, rules) for k in range(h + 1)] for b in range(h + 1)], dtype=np.float32)
        rows = hs == h
        EV[rows, :h + 1] = P[rows, :h + 1] @ S.T
    return EV


def soft_targets(values: "np.ndarray", legal: "np.ndarray", made: "np.ndarray", hard_share: float,
                 temperature: float) -> "np.ndarray":
    """Training targets: ``hard_share`` on the bid made, the rest ``softmax(value /
    temperature)`` over the bids with a value (NaN: not searched), only legal bids."""
    import numpy as np
    n = len(made)
    T = np.zeros((n, N_OUT), dtype=np.float64)
    T[np.arange(n), made] = hard_share
    has = np.isfinite(values) & legal
    z = np.where(has, values / temperature, -np.inf)
    top = np.where(has.any(1), np.max(np.where(has, z, -np.inf), 1), 0.0)
    e = np.where(has, np.exp(np.where(has, z, 0.0) - top[:, None]), 0.0)
    tot = e.sum(1, keepdims=True)
    soft = np.where(tot > 0, e / np.where(tot > 0, tot, 1.0), 0.0)
    soft[tot[:, 0] == 0, :] = 0.0
    soft[tot[:, 0] == 0, made[tot[:, 0] == 0]] = 1.0
    T += (1.0 - hard_share) * soft
    return (T / T.sum(1, keepdims=True)).astype(np.float32)


def _stack(parts: "Sequence[dict]", hard_share: float, temperature: float):
    import numpy as np
    X = np.concatenate([p["X"] for p in parts]).astype(np.float32)
    h = np.concatenate([p["h"] for p in parts]).astype(np.int64)
    legal = np.concatenate([p["legal"] for p in parts])
    values = np.concatenate([p["values"] for p in parts]).astype(np.float64)
    made = np.concatenate([p["bid"] for p in parts]).astype(np.int64)
    keep = (h > 1) & (legal.sum(1) > 1)     # one-card hands are bid exactly; a forced bid teaches nothing
    T = soft_targets(values[keep], legal[keep], made[keep], hard_share, temperature)
    EV = trick_values(X[keep], h[keep], Rules.preset("standard")) if keep.any() else np.zeros((0, N_OUT), np.float32)
    return X[keep], np.where(legal[keep], EV, 0.0).astype(np.float32), legal[keep], T, made[keep]


def train(parts: "Sequence[dict]", held: "Sequence[dict]", *, hidden: int = 64, epochs: int = 30,
          batch: int = 128, lr: float = 1e-3, wd: float = 1e-4, hard_share: float = 0.5,
          temperature: float = 1.0, rng=None, log=print) -> "dict":
    """Fit the policy by Adam on the cross-entropy against :func:`soft_targets`.

    ``parts`` and ``held`` are lists of label arrays (``X``, ``h``, ``legal``, ``values``,
    ``bid``: what ``scripts/train_bid_policy.py`` caches); returns the parameters of the epoch
    with the best held-out log-loss (with ``mean`` and ``std``, the inputs' scaling)."""
    import numpy as np
    rng = rng if rng is not None else np.random.default_rng(0)
    if epochs < 1:
        raise ValueError(f"epochs must be 1 or more, not {epochs!r}")
    X, E, L, T, _ = _stack(parts, hard_share, temperature)
    Xv, Ev, Lv, Tv, yv = _stack(held, hard_share, temperature)
    if not len(X) or not len(Xv):
        raise ValueError("no bids to train on or to hold out (one-card and forced bids are left out)")
    base = np.where(Lv, Ev, -np.inf).argmax(1)
    log(f"{len(X)} bids to learn from, {len(Xv)} held out; the trick model's best bid equals the expert's in "
        f"{100 * float((base == yv).mean()):.1f}% of those held out")
    mean = X.mean(0).astype(np.float32)
    std = np.maximum(X.std(0), 0.05).astype(np.float32)
    sizes = [N_FEATURES, hidden, hidden]
    p: dict = {}
    for i in range(2):
        p[f"W{i}"] = (rng.standard_normal((sizes[i], sizes[i + 1])) * np.sqrt(2.0 / sizes[i])).astype(np.float32)
        p[f"b{i}"] = np.zeros(sizes[i + 1], dtype=np.float32)
    p["Wo"] = (rng.standard_normal((hidden, N_OUT)) * 0.1 * np.sqrt(1.0 / hidden)).astype(np.float32)
    p["bo"] = np.zeros(N_OUT, dtype=np.float32)
    p["mean"], p["std"] = mean, std
    p["ev_scale"] = np.ones(1, dtype=np.float32)
    net = BidPolicy(p)
    m1 = {k: np.zeros_like(v) for k, v in p.items()}
    m2 = {k: np.zeros_like(v) for k, v in p.items()}
    steps = epochs * ((len(X) + batch - 1) // batch)
    t = 0
    best, kept = np.inf, None
    for epoch in range(epochs):
        order = rng.permutation(len(X))
        tot = 0.0
        for s in range(0, len(X), batch):
            idx = order[s:s + batch]
            a0 = (X[idx] - mean) / std
            acts = [a0]
            a = a0
            for i in range(2):
                a = np.maximum(a @ p[f"W{i}"] + p[f"b{i}"], 0.0)
                acts.append(a)
            z = np.where(L[idx], p["ev_scale"][0] * E[idx] + a @ p["Wo"] + p["bo"], -1e9)
            z = z - z.max(1, keepdims=True)
            P = np.exp(z)
            P /= P.sum(1, keepdims=True)
            tot += float(-(T[idx] * np.log(np.maximum(P, 1e-12))).sum())
            d = (P - T[idx]) / len(idx)
            g = {"Wo": acts[2].T @ d + wd * p["Wo"], "bo": d.sum(0),
                 "ev_scale": np.array([(d * E[idx]).sum()], dtype=np.float32)}
            da = d @ p["Wo"].T
            for i in (1, 0):
                da = da * (acts[i + 1] > 0)
                g[f"W{i}"] = acts[i].T @ da + wd * p[f"W{i}"]
                g[f"b{i}"] = da.sum(0)
                if i:
                    da = da @ p[f"W{i}"].T
            t += 1
            rate = lr * 0.5 * (1 + np.cos(np.pi * t / steps))
            for k, gk in g.items():
                m1[k] = 0.9 * m1[k] + 0.1 * gk
                m2[k] = 0.999 * m2[k] + 0.001 * gk * gk
                p[k] -= (rate * (m1[k] / (1 - 0.9 ** t)) / (np.sqrt(m2[k] / (1 - 0.999 ** t)) + 1e-8)).astype(np.float32)
        Pv = net.probabilities(Xv, Ev, Lv)
        held_loss = float(-(Tv * np.log(np.maximum(Pv, 1e-12))).sum(1).mean())
        agree = float((Pv.argmax(1) == yv).mean())
        if held_loss < best:
            best, kept = held_loss, {k: v.copy() for k, v in p.items()}
        log(f"epoch {epoch + 1}: train log-loss {tot / len(X):.4f}, held-out {held_loss:.4f}, "
            f"held-out bids equal to the expert's {100 * agree:.1f}%{' (kept)' if best == held_loss else ''}")
    assert kept is not None             # at least one epoch ran
    return kept
