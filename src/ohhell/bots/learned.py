"""A learned bid model: the distribution of tricks a freshly dealt hand takes (issue 11).

:class:`TrickModel` predicts P(the seat takes k tricks), k = 0..hand size,
from what the seat sees at its turn to bid: its hand, the trump suit and the
turned card (or no trump), the number of players, the hand size, its position
in the bidding order (the dealer bids last), the earlier bids and the hook.
It is a small multilayer perceptron (two hidden layers of 128 tanh units, a
softmax over 0..17 tricks masked to 0..hand size) trained by self-play: the
heuristic bids (with noise, so the model sees varied bid contexts) and
:func:`ohhell.bots.policy.heuristic_playout` plays every hand out; the target
is the tricks the seat took.  Its weights ship as ``weights/bid.npz``
(float32, 150 kB compressed); inference is NumPy only.

This module needs NumPy (the ``env`` extra); the core ``ohhell`` modules do
not import it.

Features (:func:`features`), all from the seat's own information:

* the hand as 52 bits in a *canonical* suit order: the trump suit first, the
  other suits by length (longest first, ties by their cards).  Suits are
  symmetric apart from trump, so this folds the 24 suit permutations into one
  and the network learns "a long side suit" once instead of four times;
* the closed-form chance of each card taking a trick
  (:func:`ohhell.sampling.card_win_chances`) in the same 52 slots, its sum
  and the sure tricks, so the network learns a correction to the estimate
  the bots use today rather than card values from scratch;
* the turned card's rank (one-hot) and a no-trump flag, players (one-hot),
  hand size (one-hot and scaled), the share of unseen cards the opponents
  hold, the position in the bidding order (one-hot, and whether it is the
  dealer), the earlier bids (count, sum, sum against the hand size, the
  largest) and the hook (with the bid it forbids the dealer).

Trained with ``PYTHONPATH=src python scripts/train_bid_model.py`` (seed 11,
600 000 examples, 6 epochs, one BLAS thread): 172 s wall, 85 s of one core, on
the project's 2-core machine shared with other work (105 s of that is the
self-play).  Held-out log-loss 0.833 against 1.270 for the closed form
(``benchmarks/bid_model.py``, ``docs/bots.md``).

>>> m = TrickModel.load()
>>> from ohhell.cards import cards_to_mask
>>> p = m.predict(cards_to_mask(["AS", "KS", "2H"]), 3, 40, 4, 3, 0, [])
>>> len(p), round(float(p.sum()), 6)
(4, 1.0)
"""

from __future__ import annotations

import math
import os
import random as _random
from typing import TYPE_CHECKING, Sequence

from ..cards import SUIT_MASKS
from ..fast import HandState
from ..sampling import card_win_chances
from ..scoring import hand_score
from ..tricks import hook_bid
from .policy import heuristic_bid, heuristic_playout, sure_tricks

if TYPE_CHECKING:
    import numpy as np

__all__ = ["TrickModel", "LearnedBidEvidence", "features", "feature_matrix", "self_play_examples",
           "self_play_chunk", "MAX_TRICKS",
           "N_FEATURES", "DEFAULT_WEIGHTS"]

MAX_TRICKS = 17                     #: the most cards a hand can hold (3 players: 52 // 3)
N_OUT = MAX_TRICKS + 1
DEFAULT_WEIGHTS = os.path.join(os.path.dirname(__file__), "weights", "bid.npz")

# layout: hand bits 52, card chances 52, est, sure, trump rank 13, no trump, players 5,
# hand size one-hot 17 + scaled, opponents' share, position one-hot 7, dealer, position scaled,
# bids: count, sum/h, (sum - count*h/n)/h, max/h, hook, forbidden/h, forbidden is legal-range
N_FEATURES = 52 + 52 + 2 + 13 + 1 + 5 + 18 + 1 + 7 + 2 + 4 + 3


def _canonical_suits(hand: int, trump: int) -> list[int]:
    """The suits in canonical order: trump first, then by length, then by the cards held."""
    others = [s for s in range(4) if s != trump]
    others.sort(key=lambda s: (-((hand & SUIT_MASKS[s]).bit_count()), -(hand >> (13 * s) & 0x1FFF)))
    return ([trump] if trump >= 0 else []) + others


def features(hand_mask: int, trump: "int | None", trump_card: "int | None", players: int,
             hand_size: int, position: int, earlier_bids: Sequence[int], hook: bool = True) -> list[float]:
    """The model's input for one seat about to bid (a list of :data:`N_FEATURES` floats).

    ``trump`` / ``trump_card`` are ``None`` (or -1) for no trump; ``position``
    is the seat's place in the bidding order (0 = the dealer's left, players-1
    = the dealer); ``earlier_bids`` the bids made before it.  Only what the
    seat sees goes in.
    """
    t = -1 if trump is None else trump
    tc = -1 if trump_card is None else int(trump_card)
    n, h = players, hand_size
    order = _canonical_suits(hand_mask, t)
    slot = [0] * 4
    for i, s in enumerate(order):
        slot[s] = i
    x = [0.0] * N_FEATURES
    chances = card_win_chances(hand_mask, t, n, h, tc)
    est = 0.0
    for c, p in chances:
        j = slot[c // 13] * 13 + c % 13
        x[j] = 1.0
        x[52 + j] = p
        est += p
    k = 104
    x[k] = est / 4.0
    x[k + 1] = sure_tricks(hand_mask, t, tc) / 4.0
    k += 2
    if tc >= 0:
        x[k + tc % 13] = 1.0
    k += 13
    x[k] = 1.0 if t < 0 else 0.0
    k += 1
    x[k + n - 3] = 1.0
    k += 5
    x[k + h - 1] = 1.0
    x[k + 17] = h / MAX_TRICKS
    k += 18
    unseen = 52 - h - (1 if tc >= 0 else 0)
    x[k] = (n - 1) * h / unseen if unseen else 0.0
    k += 1
    x[k + position] = 1.0
    k += 7
    x[k] = 1.0 if position == n - 1 else 0.0
    x[k + 1] = position / (n - 1)
    k += 2
    cnt = len(earlier_bids)
    tot = sum(earlier_bids)
    x[k] = cnt / 6.0
    x[k + 1] = tot / h
    x[k + 2] = (tot - cnt * h / n) / h
    x[k + 3] = max(earlier_bids) / h if cnt else 0.0
    k += 4
    x[k] = 1.0 if hook else 0.0
    if hook and position == n - 1:
        f = hook_bid(h, tot)
        if f is not None:
            x[k + 1] = f / h
            x[k + 2] = 1.0
    return x


def feature_matrix(rows: Sequence[Sequence[float]]) -> "np.ndarray":
    """Stack :func:`features` rows into a float32 matrix."""
    import numpy as np
    return np.asarray(rows, dtype=np.float32).reshape(len(rows), N_FEATURES)


class TrickModel:
    """The learned trick distribution (an MLP; NumPy inference)."""

    def __init__(self, params: "dict[str, np.ndarray]") -> None:
        import numpy as np
        self.params = {k: np.asarray(v, dtype=np.float32) for k, v in params.items()}
        self.mean = self.params["mean"]
        self.std = self.params["std"]
        self.layers = [(self.params[f"W{i}"], self.params[f"b{i}"]) for i in range(3)]

    @classmethod
    def load(cls, path: "str | None" = None) -> "TrickModel":
        """The model saved at ``path`` (default: the weights shipped with the package)."""
        import numpy as np
        with np.load(path or DEFAULT_WEIGHTS) as f:
            return cls({k: f[k] for k in f.files})

    def logits(self, X: "np.ndarray") -> "np.ndarray":
        import numpy as np
        a = (np.asarray(X, dtype=np.float32) - self.mean) / self.std
        for i, (W, b) in enumerate(self.layers):
            a = a @ W + b
            if i < len(self.layers) - 1:
                a = np.tanh(a)
        return a

    def predict_batch(self, X: "np.ndarray", hand_sizes: "Sequence[int] | np.ndarray") -> "np.ndarray":
        """P(k tricks) for each row of ``X``: an (N, 18) matrix, zero beyond each hand size."""
        import numpy as np
        z = self.logits(X).astype(np.float64)
        hs = np.asarray(hand_sizes).reshape(-1, 1)
        z = np.where(np.arange(N_OUT)[None, :] <= hs, z, -np.inf)
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def predict(self, hand_mask: int, trump: "int | None", trump_card: "int | None", players: int,
                hand_size: int, position: int, earlier_bids: Sequence[int],
                hook: bool = True) -> "np.ndarray":
        """P(taking 0..hand_size tricks) for one seat about to bid (see :func:`features`)."""
        x = features(hand_mask, trump, trump_card, players, hand_size, position, earlier_bids, hook)
        return self.predict_batch(feature_matrix([x]), [hand_size])[0, :hand_size + 1]


class LearnedBidEvidence:
    """Bids as evidence about hidden hands, from the learned trick model (issue 11, item 2).

    An :class:`ohhell.sampling.BidEvidence`: for a sampled deal, each other
    seat that has bid is put back at its turn to bid (its hand as dealt: the
    sampled cards plus those it has played this hand; the bids made before it;
    its place in the order) and the model gives its trick distribution ``P(k)``.
    A bidder is taken to choose among its legal bids by their expected score
    under ``P`` (:func:`ohhell.scoring.hand_score`, so every scoring variant
    counts), softly: ``P(bid) = exp(beta * (EV(bid) - EV(best))) + floor``,
    up to a factor the same for every deal.  The deal's weight is the product
    over the bidders.  ``beta`` (per point) says how closely bidders are
    trusted to bid their best; ``floor`` keeps an odd bid from ruling a deal
    out.  Only the view's public facts and the sampled hands go in.

    Compared with the closed form (:func:`ohhell.sampling.bid_likelihood`, a
    Gaussian around :func:`~ohhell.sampling.estimate_tricks`) it reads the
    earlier bids, the seat's place and the scoring, as the model does;
    ``benchmarks/bid_evidence.py`` measures both on the expert's own bids.
    """

    def __init__(self, model: "TrickModel | None" = None, *, beta: float = 0.75,
                 floor: float = 0.02) -> None:
        if not beta >= 0:
            raise ValueError(f"beta must be 0 or more, not {beta!r}")
        if not floor >= 0:
            raise ValueError(f"floor must be 0 or more, not {floor!r}")
        self.model = model if model is not None else shared_model()
        self.beta = float(beta)
        self.floor = float(floor)

    def bidders(self, view) -> "list[tuple[int, int, int, tuple[int, ...], list[int]]]":
        """(seat, bid, place in the order, bids it saw, its legal bids) of each other seat that bid."""
        n, h = view.players, view.hand_size
        order = [(view.dealer + 1 + i) % n for i in range(n)]
        out = []
        for pos, s in enumerate(order):
            b = view.bids[s]
            if s == view.seat or b is None:
                continue
            # Bidding unseen, a bidder saw no earlier bid (and the hook never applies).
            simultaneous = view.rules.simultaneous_bidding
            earlier = () if simultaneous else tuple(view.bids[t] for t in order[:pos])
            legal = list(range(h + 1))
            if view.rules.hook and not simultaneous and pos == n - 1:
                f = hook_bid(h, sum(earlier))  # rule home: the hook's forbidden bid
                if f is not None and f in legal and len(legal) > 1:
                    legal.remove(f)
            out.append((s, b, pos, earlier, legal))
        return out

    def bid_probabilities(self, probs, legal: Sequence[int], hand_size: int, rules) -> "dict[int, float]":
        """The soft best-response bid distribution (unnormalised, best bid 1 + floor) for ``P(k)``."""
        evs = {b: sum(float(p) * hand_score(b, k, hand_size, rules) for k, p in enumerate(probs))
               for b in legal}
        best = max(evs.values())
        return {b: math.exp(self.beta * (ev - best)) + self.floor for b, ev in evs.items()}

    def __call__(self, view, deals) -> "list[float]":
        bidders = self.bidders(view)
        if not bidders or not deals:
            return [1.0] * len(deals)
        n, h = view.players, view.hand_size
        t = view.trump
        tc = view.trump_card
        played = view.played_by
        hook = view.rules.hook and not view.rules.simultaneous_bidding
        rows = [features(hands[s] | played[s], t, tc, n, h, pos, earlier, hook)
                for hands in deals for s, _, pos, earlier, _ in bidders]
        P = self.model.predict_batch(feature_matrix(rows), [h] * len(rows))
        out = []
        i = 0
        for _ in deals:
            w = 1.0
            for s, b, pos, earlier, legal in bidders:
                w *= self.bid_probabilities(P[i, :h + 1], legal, h, view.rules).get(b, self.floor)
                i += 1
            out.append(w)
        return out


_SHARED: "dict[str, TrickModel]" = {}


def shared_model(path: "str | None" = None) -> "TrickModel":
    """The model at ``path`` (default: the shipped weights), loaded once per process."""
    key = path or DEFAULT_WEIGHTS
    if key not in _SHARED:
        _SHARED[key] = TrickModel.load(key)
    return _SHARED[key]


def self_play_examples(count: int, seed: int, *, noise: float = 0.6,
                       no_trump_share: float = 0.15) -> "tuple[list[list[float]], list[int], list[int], list[tuple]]":
    """Examples of (features, tricks taken) from self-play, about ``count`` of them.

    Each deal: 3-7 players and a hand size 1..52 // players, both uniform; no
    trump when the deck is used up or, in ``no_trump_share`` of deals, as in
    the last hand of a game; the hook on in 3/4 of the deals.  Each seat bids
    :func:`~ohhell.bots.policy.heuristic_bid` with its estimate shifted by a
    normal of spread ``noise`` (half the seats), and the hand is played out by
    :func:`~ohhell.bots.policy.heuristic_playout`.  Every seat gives one
    example.  Returns ``(rows, tricks, hand_sizes, positions)``; a position
    is ``(hand, trump, trump_card, players, hand_size, order, earlier_bids, hook)``.
    """
    rng = _random.Random(seed)
    rows: list[list[float]] = []
    ys: list[int] = []
    hs: list[int] = []
    info: list[tuple] = []
    deck = list(range(52))
    while len(ys) < count:
        n = rng.randint(3, 7)
        h = rng.randint(1, 52 // n)
        dealt = n * h
        cards = rng.sample(deck, min(52, dealt + 1))
        hands = [0] * n                       # seat i = bidding order i; the dealer is n-1
        for i, c in enumerate(cards[:dealt]):
            hands[i % n] |= 1 << c
        if dealt < 52 and rng.random() >= no_trump_share:
            tc = cards[dealt]
            t = tc // 13
        else:
            tc, t = -1, -1
        hook = rng.random() < 0.75
        bids: list[int] = []
        feats = []
        for s in range(n):
            feats.append(features(hands[s], t, tc, n, h, s, bids, hook))
            legal = list(range(h + 1))
            if hook and s == n - 1:
                x = hook_bid(h, sum(bids))
                if x is not None:
                    legal.remove(x)
            bias = rng.gauss(0.0, noise) if rng.random() < 0.5 else 0.0
            b, _ = heuristic_bid(hands[s], t, n, h, tc, legal, bias=bias)
            bids.append(b)
        st = HandState(hands, None if t < 0 else t, 0, hand_size=h, bids=bids)
        won = heuristic_playout(st, 1 << tc if tc >= 0 else 0)
        for s in range(n):
            rows.append(feats[s])
            ys.append(won[s])
            hs.append(h)
            info.append((hands[s], t, tc, n, h, s, tuple(bids[:s]), hook))
    return rows, ys, hs, info


def self_play_chunk(task: tuple, on_decisions=None) -> tuple:
    """:func:`self_play_examples` as one task for an executor (``ProcessPool``, ``RayPool``):
    ``(count, seed)`` -> ``(X float32, tricks, hand sizes, positions)`` as arrays."""
    import numpy as np
    rows, ys, hs, info = self_play_examples(*task)
    return (np.asarray(rows, dtype=np.float32), np.asarray(ys, dtype=np.int64),
            np.asarray(hs, dtype=np.int64), info)


def closed_form(position: tuple) -> list[float]:
    """The closed-form trick distribution the bots use today for a position of
    :func:`self_play_examples` (Poisson-binomial over per-card chances)."""
    from .heuristic import trick_distribution
    hand, t, tc, n, h = position[:5]
    return trick_distribution([p for _, p in card_win_chances(hand, t, n, h, tc)])
