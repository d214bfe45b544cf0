"""Learned play: a policy and value network over one seat's view, and a trick model
conditioned on the seat's own bid (issue 11, item 3).

Two small multilayer perceptrons, NumPy inference only, weights shipped as
``weights/play.npz``:

* :class:`PlayNet`: given what a seat sees when it is to play a card
  (:func:`play_features`, built from a :class:`~ohhell.view.View` alone), a
  *policy* (a distribution over its legal cards) and a *value* (the
  distribution of the tricks the seat will have taken when the hand ends,
  so its expected hand score under any scoring rules follows);
* :class:`BidNet`: P(the seat takes k tricks | its hand, the public facts
  of :func:`ohhell.bots.learned.features` and *the bid it makes*), so a
  bidder can weigh each legal bid by the tricks its own play will then take.

Both are trained by ``scripts/train_play_model.py``: the policy imitates the
expert's searched card choices (its ISMCTS visit shares) on generated hands,
the value and the conditioned bid model learn from the tricks actually taken,
the bid model also from self-play hands in which every seat plays by the
trained policy.  ``docs/bots.md`` ("The learned level") says how well it plays.

This module needs NumPy (the ``env`` extra); the core does not import it.

>>> import ohhell
>>> net = PlayNet.load()
>>> g = ohhell.Game.from_deal(ohhell.Rules(3, hand_sizes=[2], no_trump="never"), dealer=2,
...     deal=[["AS", "2H"], ["KS", "3H"], ["QD", "4C"]], trump_card="5S")
>>> for b in (1, 0, 0): g.apply(ohhell.Bid(b))
>>> v = g.view(0)
>>> probs, tricks = net.evaluate(v)
>>> sorted(str(c) for c in probs), round(sum(probs.values()), 6), len(tricks)
(['2H', 'AS'], 1.0, 3)
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Sequence

from ..cards import SUIT_MASKS
from ..scoring import hand_score
from ..tricks import trick_state
from .heuristic import view_card_inputs
from .learned import MAX_TRICKS, N_FEATURES
from .policy import _beating, choose_card

if TYPE_CHECKING:
    import numpy as np

    from ..view import View

__all__ = ["PlayNet", "BidNet", "play_features", "play_feature_matrix", "canonical_order",
           "N_PLAY_FEATURES", "N_BID_FEATURES", "DEFAULT_PLAY_WEIGHTS", "shared_nets", "bid_inputs"]

N_OUT = MAX_TRICKS + 1
DEFAULT_PLAY_WEIGHTS = os.path.join(os.path.dirname(__file__), "weights", "play.npz")

#: The card planes of :func:`play_features`, 52 slots each in the canonical suit order.
CARD_PLANES = ("hand", "legal", "unseen", "trick", "winning", "heuristic", "beats", "masters")
SEATS = 7
SEAT_FEATURES = 15
N_GLOBAL = 5 + 3 + 7 + 1 + 5 + 1 + 13 + 3 + 3 + 2
N_PLAY_FEATURES = 52 * len(CARD_PLANES) + SEATS * SEAT_FEATURES + N_GLOBAL
#: The bid model's input: :func:`ohhell.bots.learned.features`, the bid one-hot, bid / hand
#: size and the bid less the closed-form estimate, over the hand size.
N_BID_FEATURES = N_FEATURES + N_OUT + 2

_LOW13 = 0x1FFF
# _ABOVE[c]: the cards of c's suit ranked above c
_ABOVE = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52))


def canonical_order(hand: int, unseen: int, trump: int) -> list[int]:
    """The suits in canonical order: trump first, then the side suits by the seat's
    length in them, its cards, and the unseen cards (ties: the lower suit).

    Suits are symmetric but for trump, so every position is read in this
    order and the network learns "my longest side suit" once, not four times.
    """
    others = [s for s in range(4) if s != trump]
    others.sort(key=lambda s: (-((hand >> (13 * s)) & _LOW13).bit_count(), -((hand >> (13 * s)) & _LOW13),
                               -((unseen >> (13 * s)) & _LOW13)))
    return ([trump] if trump >= 0 else []) + others


def _permute(mask: int, slot: Sequence[int]) -> int:
    out = 0
    for s in range(4):
        x = (mask >> (13 * s)) & _LOW13
        if x:
            out |= x << (13 * slot[s])
    return out


def play_features(view: "View") -> "np.ndarray":
    """The play network's input for ``view`` (a seat to play a card): :data:`N_PLAY_FEATURES`
    float32 values, and the suit slot of each real suit.

    Only the view goes in: the seat's hand, the cards played this hand (and who
    played them), the turned card, the bids and tricks won, the voids shown,
    the rules.  Card planes (52 slots each, suits in :func:`canonical_order`):
    the hand, the legal cards, the unseen cards, the current trick's cards,
    the card winning it, the heuristic's card (:func:`ohhell.bots.policy.choose_card`),
    the legal cards that would win the trick now, and the seat's masters (no
    unseen card of the suit above them).  Per seat, relative to this one (up
    to 7): present, bid, tricks won, still needed, made, over, the voids
    shown, played to this trick, winning it, cards left.  Then the players,
    hand size, tricks left, place in the trick, the suit led, the trump card,
    the scoring rules and how the bids total against the tricks.
    """
    import numpy as np
    x, _ = _features(view)
    return np.asarray(x, dtype=np.float32)


def _features(view: "View") -> "tuple[list[float], list[int]]":
    import numpy as np
    if view.seat is None or view.phase != "play":
        raise ValueError("play features need a seat's view in the play phase")
    me = view.seat
    n = view.players
    h = view.hand_size
    trump = -1 if view.trump is None else view.trump
    tc = -1 if view.trump_card is None else int(view.trump_card)
    hand = view.hand_mask
    unseen = view.unseen_mask
    legal = 0
    for a in view.legal:
        legal |= a.bit
    trick = view.trick
    cards = [int(c) for c in trick.cards]
    led, best, winner = trick_state(cards, trick.leader, view.trump, n)
    order = canonical_order(hand, unseen, trump)
    slot = [0] * 4
    for i, s in enumerate(order):
        slot[s] = i
    trick_mask = 0
    for c in cards:
        trick_mask |= 1 << c
    winning = (1 << cards[(winner - trick.leader) % n]) if cards else 0
    args = view_card_inputs(view)
    heur = 1 << choose_card(**args) if legal else 0
    beats = _beating(legal, best, led, trump) if cards else 0
    masters = 0
    m = hand
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        if not unseen & _ABOVE[c]:
            masters |= low
    shifts = np.arange(52, dtype=np.uint64)
    planes = np.array([_permute(x, slot) for x in (hand, legal, unseen, trick_mask, winning, heur, beats,
                                                   masters)], dtype=np.uint64)
    bits = ((planes[:, None] >> shifts[None, :]) & np.uint64(1)).astype(np.float32).ravel()
    x = [0.0] * (N_PLAY_FEATURES - 52 * len(CARD_PLANES))
    # per seat, relative to this one
    bids = view.bids
    won = view.tricks_won
    voids = view.voids
    tricks_left = h - len(view.tricks)
    in_trick = {(trick.leader + i) % n for i in range(len(cards))}
    for r in range(n):
        s = (me + r) % n
        k = r * SEAT_FEATURES
        b = bids[s]
        x[k] = 1.0
        if b is not None:
            need = b - won[s]
            x[k + 1] = b / h
            x[k + 3] = max(-1.0, min(1.0, need / max(1, tricks_left)))
            x[k + 4] = 1.0 if need > 0 else 0.0
            x[k + 5] = 1.0 if need == 0 else 0.0
            x[k + 6] = 1.0 if need < 0 else 0.0
            x[k + 7] = 1.0 if need > tricks_left else 0.0
        x[k + 2] = won[s] / h
        v = voids[s]
        for u in range(4):
            if v >> u & 1:
                x[k + 8 + slot[u]] = 1.0
        x[k + 12] = 1.0 if s in in_trick else 0.0
        x[k + 13] = 1.0 if cards and s == winner else 0.0
        x[k + 14] = view.cards_left(s) / h
    k = SEATS * SEAT_FEATURES
    x[k + n - 3] = 1.0
    k += 5
    x[k] = h / MAX_TRICKS
    x[k + 1] = tricks_left / MAX_TRICKS
    x[k + 2] = tricks_left / h
    k += 3
    x[k + len(cards)] = 1.0
    k += 7
    x[k] = len(cards) / (n - 1)
    k += 1
    x[k + (slot[led] if led >= 0 else 4)] = 1.0
    k += 5
    x[k] = 1.0 if trump < 0 else 0.0
    k += 1
    if tc >= 0:
        x[k + tc % 13] = 1.0
    k += 13
    rules = view.rules
    x[k] = float(rules.must_trump)
    x[k + 1] = float(rules.missed_bid_scores_tricks)
    x[k + 2] = float(rules.zero_bid_scores_hand_size)
    k += 3
    total = sum(b for b in bids if b is not None)
    x[k] = (total - h) / h
    x[k + 1] = 1.0 if total > h else 0.0
    x[k + 2] = 1.0 if total < h else 0.0
    k += 3
    mb = bids[me]
    need = (mb if mb is not None else 0) - won[me]
    x[k] = max(-1.0, min(1.0, need / max(1, tricks_left)))
    x[k + 1] = 1.0 if need == tricks_left else 0.0
    out = bits.tolist() + x
    return out, slot


def play_feature_matrix(views: "Sequence[View]") -> "np.ndarray":
    """:func:`play_features` of several views, stacked."""
    import numpy as np
    return np.stack([play_features(v) for v in views]) if views else np.zeros((0, N_PLAY_FEATURES), np.float32)


def bid_inputs(base: "Sequence[float]", bids: Sequence[int], hand_size: int) -> "np.ndarray":
    """The bid model's rows for one bidder (``base``: :func:`ohhell.bots.learned.features`)
    and each candidate bid of ``bids``."""
    import numpy as np
    est = base[104] * 4.0
    X = np.zeros((len(bids), N_BID_FEATURES), dtype=np.float32)
    X[:, :N_FEATURES] = np.asarray(base, dtype=np.float32)
    for i, b in enumerate(bids):
        X[i, N_FEATURES + b] = 1.0
        X[i, N_FEATURES + N_OUT] = b / hand_size
        X[i, N_FEATURES + N_OUT + 1] = (b - est) / hand_size
    return X


def _mlp(params: "dict[str, np.ndarray]", prefix: str, X: "np.ndarray", depth: int) -> "np.ndarray":
    """The trunk: (x - mean) / std, then ``depth`` ReLU layers."""
    import numpy as np
    a = (np.asarray(X, dtype=np.float32) - params[prefix + "mean"]) / params[prefix + "std"]
    for i in range(depth):
        a = np.maximum(a @ params[f"{prefix}W{i}"] + params[f"{prefix}b{i}"], 0.0)
    return a


def _masked_softmax(z: "np.ndarray", mask: "np.ndarray") -> "np.ndarray":
    import numpy as np
    z = np.where(mask, z.astype(np.float64), -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class PlayNet:
    """The play network: a policy over the legal cards and the distribution of the tricks
    the seat ends the hand with.  ``params`` as :meth:`load` reads them (prefix ``p_``)."""

    depth = 2

    def __init__(self, params: "dict[str, np.ndarray]") -> None:
        import numpy as np
        self.params = {k: np.asarray(v, dtype=np.float32) for k, v in params.items() if k.startswith("p_")}

    @classmethod
    def load(cls, path: "str | None" = None) -> "PlayNet":
        """The network saved at ``path`` (default: the weights shipped with the package)."""
        return shared_nets(path)[0]

    def forward(self, X: "np.ndarray") -> "tuple[np.ndarray, np.ndarray]":
        """Policy logits (N, 52 canonical slots) and trick logits (N, 18) for rows of features."""
        p = self.params
        a = _mlp(p, "p_", X, self.depth)
        return a @ p["p_Wp"] + p["p_bp"], a @ p["p_Wv"] + p["p_bv"]

    def evaluate_batch(self, views: "Sequence[View]") -> "list[tuple[dict, np.ndarray]]":
        """:meth:`evaluate` for several views at once (one pass of the network)."""
        import numpy as np
        rows, slots = [], []
        for v in views:
            x, slot = _features(v)
            rows.append(x)
            slots.append(slot)
        if not rows:
            return []
        X = np.asarray(rows, dtype=np.float32)
        zp, zv = self.forward(X)
        out = []
        for i, v in enumerate(views):
            slot = slots[i]
            legal = [int(a.card) for a in v.legal]
            idx = [slot[c // 13] * 13 + c % 13 for c in legal]
            z = zp[i, idx].astype(np.float64)
            z -= z.max()
            e = np.exp(z)
            e /= e.sum()
            probs = {a: float(q) for a, q in zip(v.legal, e)}
            me = v.seat
            assert me is not None
            lo = v.tricks_won[me]
            hi = lo + v.hand_size - len(v.tricks)
            mask = np.zeros((1, N_OUT), dtype=bool)
            mask[0, lo:hi + 1] = True
            tr = _masked_softmax(zv[i:i + 1], mask)[0, :v.hand_size + 1]
            out.append((probs, tr))
        return out

    def evaluate(self, view: "View") -> "tuple[dict, np.ndarray]":
        """``(policy, tricks)``: the probability of each legal card (a dict by action) and
        P(the seat ends the hand with k tricks), k = 0..hand size."""
        return self.evaluate_batch([view])[0]

    @staticmethod
    def best_card(legal, policy: dict):
        """The legal card the policy likes most (a tie goes to the lower card): the learned
        level's card, and the card the training hands are played with."""
        return max(legal, key=lambda a: (policy[a], -a.card))

    def value(self, view: "View", tricks: "np.ndarray | None" = None) -> float:
        """The seat's expected score for the hand, under the table's scoring."""
        if tricks is None:
            tricks = self.evaluate(view)[1]
        assert view.seat is not None
        b = view.bids[view.seat]
        h = view.hand_size
        return float(sum(float(p) * hand_score(b, k, h, view.rules) for k, p in enumerate(tricks)))


class BidNet:
    """P(k tricks | the bidder's view and its own bid): the trick model conditioned on the bid."""

    depth = 2

    def __init__(self, params: "dict[str, np.ndarray]") -> None:
        import numpy as np
        self.params = {k: np.asarray(v, dtype=np.float32) for k, v in params.items() if k.startswith("b_")}

    @classmethod
    def load(cls, path: "str | None" = None) -> "BidNet":
        """The network saved at ``path`` (default: the weights shipped with the package)."""
        return shared_nets(path)[1]

    def logits(self, X: "np.ndarray") -> "np.ndarray":
        p = self.params
        return _mlp(p, "b_", X, self.depth) @ p["b_Wo"] + p["b_bo"]

    def predict_batch(self, X: "np.ndarray", hand_sizes: "Sequence[int] | np.ndarray") -> "np.ndarray":
        """P(k tricks) for each row of ``X`` (:data:`N_BID_FEATURES` wide): an (N, 18) matrix."""
        import numpy as np
        hs = np.asarray(hand_sizes).reshape(-1, 1)
        return _masked_softmax(self.logits(X), np.arange(N_OUT)[None, :] <= hs)

    def by_bid(self, base: "Sequence[float]", bids: Sequence[int], hand_size: int) -> "dict[int, np.ndarray]":
        """P(0..hand size tricks) for each candidate bid (``base``: the bidder's
        :func:`ohhell.bots.learned.features`)."""
        P = self.predict_batch(bid_inputs(base, bids, hand_size), [hand_size] * len(bids))
        return {b: P[i, :hand_size + 1] for i, b in enumerate(bids)}


_NETS: "dict[str, tuple[PlayNet, BidNet]]" = {}


def shared_nets(path: "str | bytes | None" = None) -> "tuple[PlayNet, BidNet]":
    """The networks at ``path`` (default: the shipped weights), loaded once per process.
    ``path`` may also be the weights file's bytes, which travel with a task to a worker on
    another machine (a Ray node) where no such file exists."""
    import numpy as np
    if isinstance(path, bytes):
        import hashlib
        import io
        key = "sha256:" + hashlib.sha256(path).hexdigest()
        source: "str | io.BytesIO" = io.BytesIO(path)
    else:
        key = path or DEFAULT_PLAY_WEIGHTS
        source = key
    if key not in _NETS:
        with np.load(source) as f:
            params = {k: f[k] for k in f.files}
        _NETS[key] = (PlayNet(params), BidNet(params))
    return _NETS[key]


