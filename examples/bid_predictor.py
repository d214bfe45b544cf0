"""Train a small bid predictor from self-play records and compare it with the heuristic's bids.

    python examples/bid_predictor.py                      # about two minutes on one CPU core
    python examples/bid_predictor.py --train-games 500 --eval-games 200   # a quick look
    python examples/bid_predictor.py --plot bids.png      # also draw the comparison

1. Self-play records: the ``heuristic`` bot plays every seat of ``--train-games``
   standard 4-player games (the same as ``ohhell selfplay --bots heuristic``).
2. A dataset: every bid of those records, replayed through the core
   (:func:`ohhell.env.dataset.decisions`), as features of the bidder's view and
   the number of tricks that seat went on to win.
3. A model: a one-hidden-layer network (numpy only) giving the probability of
   winning 0, 1, ... tricks; the bot bids the legal bid with the highest
   expected score under it, and plays its cards like the heuristic.
4. Evaluation on fresh deals, duplicate style: every deal is played twice, once
   with the heuristic in the test seat and once with the predictor there (the
   other three seats are heuristic bots both times); the test seat rotates.
   "Bid accuracy" is the share of hands in which the test seat made its bid
   exactly; the script also reports points per hand with a 95% interval of
   the paired difference.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

import ohhell  # noqa: E402
from ohhell.bots import Bot, Decision, make, play_game  # noqa: E402
from ohhell.env.dataset import decisions  # noqa: E402
from ohhell.scoring import hand_score  # noqa: E402


# --- features ----------------------------------------------------------------------------------

def bid_features(view: ohhell.View) -> np.ndarray:
    """What the bidder sees, made trump-relative so a small model generalises across suits.

    The hand as a 4x13 grid with the trump suit first and the other suits by
    length; the turned card's rank; no-trump; the hand size; the bidding
    position; the bids so far (their sum relative to the hand size and how
    many); the suit lengths.
    """
    h = view.hand_size
    H = max(view.rules.hand_sizes)
    n = view.players
    hand = view.hand_mask
    suits = [(hand >> (13 * s)) & 0x1FFF for s in range(4)]
    lengths = [m.bit_count() for m in suits]
    trump = view.trump
    order = sorted(range(4), key=lambda s: (s != trump, -lengths[s], s))
    f = np.zeros(52 + 13 + 1 + H + n + 2 + 4 + 1, dtype=np.float32)
    for i, s in enumerate(order):
        m = suits[s]
        for r in range(13):
            if m >> r & 1:
                f[i * 13 + r] = 1
    at = 52
    if view.trump_card is not None:
        f[at + view.trump_card % 13] = 1
    at += 13
    f[at] = trump is None
    at += 1
    f[at + h - 1] = 1
    at += H
    f[at + (view.seat - view.dealer - 1) % n] = 1
    at += n
    made = [b for b in view.bids if b is not None]
    f[at] = sum(made) / h
    f[at + 1] = len(made) / n
    at += 2
    for i, s in enumerate(order):
        f[at + i] = lengths[s] / h
    f[at + 4] = h / H
    return f


# --- a small network in numpy ------------------------------------------------------------------

class TrickModel:
    """Features -> probabilities of winning 0..max tricks (one ReLU hidden layer, softmax)."""

    def __init__(self, inputs: int, outputs: int, hidden: int = 64, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.W1 = rng.normal(0, math.sqrt(2 / inputs), (inputs, hidden)).astype(np.float32)
        self.b1 = np.zeros(hidden, np.float32)
        self.W2 = rng.normal(0, math.sqrt(1 / hidden), (hidden, outputs)).astype(np.float32)
        self.b2 = np.zeros(outputs, np.float32)

    def probs(self, X: np.ndarray) -> np.ndarray:
        z = np.maximum(X @ self.W1 + self.b1, 0)
        logits = z @ self.W2 + self.b2
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True)

    def fit(self, X, y, epochs=30, batch=256, lr=2e-3, l2=1e-5, seed=0, log=print):
        """Adam on the cross-entropy; returns the final training loss."""
        rng = np.random.default_rng(seed)
        params = [self.W1, self.b1, self.W2, self.b2]
        m = [np.zeros_like(p) for p in params]
        v = [np.zeros_like(p) for p in params]
        t = 0
        for epoch in range(epochs):
            order = rng.permutation(len(X))
            loss = 0.0
            for i in range(0, len(X), batch):
                idx = order[i:i + batch]
                xb, yb = X[idx], y[idx]
                h = xb @ self.W1 + self.b1
                z = np.maximum(h, 0)
                logits = z @ self.W2 + self.b2
                logits -= logits.max(axis=1, keepdims=True)
                e = np.exp(logits)
                p = e / e.sum(axis=1, keepdims=True)
                loss -= np.log(p[np.arange(len(yb)), yb] + 1e-12).sum()
                g = p
                g[np.arange(len(yb)), yb] -= 1
                g /= len(yb)
                gW2 = z.T @ g + l2 * self.W2
                gb2 = g.sum(0)
                gz = (g @ self.W2.T) * (h > 0)
                gW1 = xb.T @ gz + l2 * self.W1
                gb1 = gz.sum(0)
                t += 1
                for j, (param, grad) in enumerate(zip(params, (gW1, gb1, gW2, gb2))):
                    m[j] = 0.9 * m[j] + 0.1 * grad
                    v[j] = 0.999 * v[j] + 0.001 * grad * grad
                    param -= lr * (m[j] / (1 - 0.9 ** t)) / (np.sqrt(v[j] / (1 - 0.999 ** t)) + 1e-8)
            log(f"  epoch {epoch + 1:>2}/{epochs}: loss {loss / len(X):.4f}")
        return loss / len(X)


class PredictorBot(Bot):
    """Bids with a :class:`TrickModel` (the legal bid of highest expected score); plays like the heuristic."""

    name = "bid-predictor"

    def __init__(self, model: TrickModel, seed=None) -> None:
        self.model = model
        self.player = make("heuristic", seed=seed)

    def decide(self, view, budget=None):
        if view.phase != "bid":
            return self.player.decide(view, budget)
        p = self.model.probs(bid_features(view)[None, :])[0]
        h = view.hand_size
        rules = view.rules
        values = {}
        for action in view.legal:
            b = action.tricks
            values[action] = sum(p[t] * hand_score(b, t, h, rules) for t in range(min(len(p), h + 1)))
        best = max(values, key=values.get)
        return Decision(best, values, trick_probs=[float(x) for x in p[:h + 1]], note="learned bid")


# --- the experiment ------------------------------------------------------------------------------

def progress(label: str, i: int, total: int, started: float) -> None:
    width = 30
    done = int(width * i / total)
    rate = i / max(time.perf_counter() - started, 1e-9)
    print(f"\r{label} [{'#' * done}{'.' * (width - done)}] {i}/{total} ({rate:.0f}/s)",
          end="" if i < total else "\n", file=sys.stderr, flush=True)


def self_play_records(rules, games: int, seed: str) -> list[dict]:
    records = []
    started = time.perf_counter()
    for i in range(games):
        g = ohhell.Game(rules, seed=f"{seed}:{i}")
        play_game(g, [make("heuristic", seed=f"{seed}:{i}:{s}") for s in range(rules.players)])
        records.append(g.record())
        if (i + 1) % 50 == 0 or i + 1 == games:
            progress("self-play", i + 1, games, started)
    return records


def dataset(records) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    X, won, bids = [], [], []
    started = time.perf_counter()
    for i, rec in enumerate(records):
        for step in decisions(rec):
            if step.is_bid:
                X.append(bid_features(step.view))
                won.append(step.tricks_won)
                bids.append(step.action.tricks)
        if (i + 1) % 100 == 0 or i + 1 == len(records):
            progress("dataset  ", i + 1, len(records), started)
    return np.stack(X), np.array(won), np.array(bids)


def evaluate(rules, model, games: int, seed: str):
    """Duplicate evaluation of the test seat; returns per-hand arrays for heuristic and predictor."""
    out = {"heuristic": ([], []), "predictor": ([], [])}
    started = time.perf_counter()
    for i in range(games):
        test = i % rules.players
        for who in ("heuristic", "predictor"):
            bots = [make("heuristic", seed=f"{seed}:{i}:{s}") for s in range(rules.players)]
            if who == "predictor":
                bots[test] = PredictorBot(model, seed=f"{seed}:{i}:{test}")
            g = play_game(ohhell.Game(rules, seed=f"{seed}:{i}"), bots)
            made, points = out[who]
            for hr in g.past_hands:
                made.append(hr.bids[test] == hr.tricks_won[test])
                points.append(hr.scores[test])
        if (i + 1) % 20 == 0 or i + 1 == games:
            progress("evaluate ", i + 1, games, started)
    return {k: (np.array(a, float), np.array(b, float)) for k, (a, b) in out.items()}


def interval(diff: np.ndarray) -> tuple[float, float]:
    m = diff.mean()
    half = 1.96 * diff.std(ddof=1) / math.sqrt(len(diff))
    return m - half, m + half


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--train-games", type=int, default=3000)
    ap.add_argument("--eval-games", type=int, default=1000)
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--records", help="also write the self-play records here (JSON Lines)")
    ap.add_argument("--plot", help="draw bid accuracy and points per hand to this PNG (needs matplotlib)")
    args = ap.parse_args(argv)
    rules = ohhell.Rules(args.players)
    t0 = time.perf_counter()
    records = self_play_records(rules, args.train_games, "train")
    if args.records:
        ohhell.write_records(args.records, records)
    X, won, bids = dataset(records)
    print(f"{len(X)} bids from {len(records)} games; the heuristic made {np.mean(bids == won):.1%} "
          f"of them in self-play")
    cut = int(0.9 * len(X))
    model = TrickModel(X.shape[1], max(rules.hand_sizes) + 1)
    model.fit(X[:cut], won[:cut], epochs=args.epochs,
              log=lambda s: print(s, file=sys.stderr))
    p = model.probs(X[cut:])
    held_out = float(np.mean(p.argmax(1) == won[cut:]))
    nll = float(-np.log(p[np.arange(len(p)), won[cut:]] + 1e-12).mean())
    print(f"held-out bids: the model's most likely trick count is right {held_out:.1%} of the time "
          f"(log loss {nll:.3f}); the heuristic's bid equalled the tricks won {np.mean(bids[cut:] == won[cut:]):.1%}")
    result = evaluate(rules, model, args.eval_games, "eval")
    (hm, hp), (pm, pp) = result["heuristic"], result["predictor"]
    lo, hi = interval(pm - hm)
    plo, phi = interval(pp - hp)
    print(f"\nfresh deals, {args.eval_games} games ({len(hm)} hands in the test seat), duplicate:")
    print("| bidder in the test seat | bid accuracy | points per hand |")
    print("|---|---:|---:|")
    print(f"| heuristic | {hm.mean():.1%} | {hp.mean():.2f} |")
    print(f"| learned bid predictor | {pm.mean():.1%} | {pp.mean():.2f} |")
    print(f"accuracy difference {pm.mean() - hm.mean():+.1%} (95% interval {lo:+.1%} .. {hi:+.1%}); "
          f"points per hand {pp.mean() - hp.mean():+.2f} ({plo:+.2f} .. {phi:+.2f})")
    print(f"total time {time.perf_counter() - t0:.0f} s")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(1, 2, figsize=(8, 3.2))
        names = ["heuristic", "learned"]
        for ax, (h, p, half, label) in zip(axes, [(hm.mean() * 100, pm.mean() * 100, (hi - lo) / 2 * 100,
                                                    "bids made exactly (%)"),
                                                   (hp.mean(), pp.mean(), (phi - plo) / 2, "points per hand")]):
            ax.bar(names[0], h, color="#888")
            ax.bar(names[1], p, color="#2a7", yerr=half, capsize=4)
            ax.set_ylabel(label)
        fig.suptitle(f"Test seat on {args.eval_games} duplicate games (error bar: 95% interval of the difference)",
                     fontsize=9)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)
        print(f"plot: {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
