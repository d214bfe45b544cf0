"""Information-set Monte Carlo tree search for the play of a hand, with heuristic rollouts.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012) over the rest
of the current hand, for every seat (each seat chooses by UCB on its own
reward, so opponents are modelled as playing for their own scores):

* every iteration picks one sampled deal (drawn by the core sampler, in
  proportion to its bid-likelihood weight), descends the tree choosing among
  the cards legal *in that deal* (UCB1 with availability counts), expands
  one new card (the heuristic's choice first), finishes the hand with the
  heuristic policy (:func:`ohhell.bots.policy.heuristic_playout`; with
  ``rollout="v2"`` the ``v2`` policy, :mod:`ohhell.bots.policy_v2`, both
  for the first choice and the playout), and backs up each seat's score;
* the decision is the root card visited most.
"""

from __future__ import annotations

import bisect
import math
import random
import time
from typing import Callable, Sequence

from ..fast import HandState, random_playout
from .policy import choose_card, heuristic_playout, mixed_playout
from .policy_v2 import choose_card_v2, playout_v2
from .solver import finish

__all__ = ["search_play", "search_bid"]


class _Node:
    __slots__ = ("n", "w", "avail", "kids", "tried")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.avail = 1
        self.kids: dict[int, "_Node"] = {}
        self.tried = 0


def _simulate(node: _Node, st: HandState, path: list, c: float, gone0: int, scores_tricks: bool,
              rollout: str, rng: random.Random, only: int = -1, exact: int = 0,
              table=None, memo=None, prior: "dict[int, float] | None" = None,
              prior_weight: float = 0.0, voids: "Sequence[int] | None" = None,
              me: int = -1) -> tuple[list[int], int]:
    """One ISMCTS descent from ``node`` in deal ``st`` (consumed): select, expand one card,
    roll out.  Appends ``(node, seat)`` pairs to ``path``; returns tricks won and the first card.

    ``prior`` (card -> probability) guides the first choice of the descent: untried cards are
    expanded most probable first, and a tried card's UCB value gains
    ``prior_weight * prior[card] / (visits + 1)`` (a progressive bias that fades as it is visited).
    ``rollout``: ``"heuristic"``, ``"random"``, ``"v2"`` or ``"v2-self"`` (seat ``me`` plays ``v2``, the
    others the heuristic); ``voids`` (``v2`` only) the suits each seat had shown it lacks at the root."""
    log = math.log
    sqrt = math.sqrt
    first = -1
    while st.tricks_left:
        legal = st.legal_mask()
        p = st.to_act
        if only >= 0 and p != only:
            # another seat, modelled as playing at random: an observed edge, not a choice
            k = int(rng.random() * legal.bit_count())
            m = legal
            while k:
                m &= m - 1
                k -= 1
            card = (m & -m).bit_length() - 1
            child = node.kids.get(card)
            if child is None:
                child = node.kids[card] = _Node()
                node.tried |= 1 << card
            st.play(card)
            node = child
            continue
        untried = legal & ~node.tried
        if untried:
            if prior is not None and first < 0 and untried & (untried - 1):
                card = max(_bits(untried), key=lambda x: (prior.get(x, 0.0), -x))
            elif untried & (untried - 1):
                bids = st.bids
                won = st.won
                if st.trick:
                    wn = st.winner
                    wneed = bids[wn] - won[wn]
                    led = st.led
                else:
                    wneed = None
                    led = -1
                if rollout == "v2" or (rollout == "v2-self" and p == me):
                    card = choose_card_v2(st.hands[p], untried, p, len(st.trick), led, st.best, st.winner,
                                          st.n, st.trump, st.played | gone0, st.tricks_left, bids, won,
                                          voids, scores_tricks, st.must_trump and st.trump >= 0)
                else:
                    card = choose_card(st.hands[p], untried, len(st.trick), led, st.best, st.winner, st.n,
                                       st.trump, st.played | gone0, bids[p] - won[p], st.tricks_left, wneed,
                                       scores_tricks)
            else:
                card = untried.bit_length() - 1
            child = _Node()
            node.kids[card] = child
            node.tried |= 1 << card
            m = legal & node.tried & ~(1 << card)
            while m:
                low = m & -m
                node.kids[low.bit_length() - 1].avail += 1
                m ^= low
            if first < 0:
                first = card
            st.play(card)
            path.append((child, p))
            break
        best_v = -1.0
        best_c = -1
        m = legal
        kids = node.kids
        bias = prior if prior is not None and first < 0 else None
        while m:
            low = m & -m
            m ^= low
            cc = low.bit_length() - 1
            ch = kids[cc]
            ch.avail += 1
            v = ch.w / ch.n + c * sqrt(log(ch.avail) / ch.n)
            if bias is not None:
                v += prior_weight * bias.get(cc, 0.0) / (ch.n + 1)
            if v > best_v:
                best_v = v
                best_c = cc
        if first < 0:
            first = best_c
        node = kids[best_c]
        st.play(best_c)
        path.append((node, p))
    if not st.tricks_left:
        return st.won, first
    if only >= 0:
        return mixed_playout(st, only, gone0, scores_tricks, rng.random), first
    if rollout == "random":
        return random_playout(st, rng.random), first
    if exact:
        return finish(st, table, exact, gone0, scores_tricks, memo,
                      playout_v2 if rollout == "v2" else heuristic_playout), first
    if rollout == "v2":
        return playout_v2(st, gone0, scores_tricks, voids=voids), first
    if rollout == "v2-self":
        return playout_v2(st, gone0, scores_tricks, voids=voids, only=me), first
    return heuristic_playout(st, gone0, scores_tricks), first


def _bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def _picker(weights: Sequence[float], rng: random.Random):
    cum = []
    acc = 0.0
    for w in weights:
        acc += w
        cum.append(acc)
    last = len(cum) - 1

    def pick() -> int:
        k = bisect.bisect_right(cum, rng.random() * acc)
        return k if k <= last else last
    return pick


def search_play(base_states: Sequence[HandState], weights: Sequence[float], me: int,
                reward: Callable[[list[int]], list[float]], *, iterations: int, deadline: float,
                gone0: int, scores_tricks: bool, rng: random.Random, c: float = 0.75,
                my_score: "Callable[[list[int]], float] | None" = None,
                rollout: str = "heuristic", only: int = -1, exact: int = 0,
                table=None, prior: "dict[int, float] | None" = None,
                prior_weight: float = 0.0, voids: "Sequence[int] | None" = None) -> dict[int, tuple[int, float, float]]:
    """Search from ``me``'s turn; returns ``{card: (visits, mean reward, mean score)}`` at the root.

    ``base_states[i]`` is the hand in sampled deal ``i`` (not modified),
    ``weights[i]`` its weight; ``reward(won)`` maps tricks won to each seat's
    reward in [0, 1]; ``my_score(won)`` to this seat's points (for reporting);
    ``prior`` (card -> probability, e.g. a policy network's) biases the root's choices
    (see :func:`_simulate`); ``voids`` the suits each seat has shown it lacks (read by the
    ``v2`` rollout only).
    """
    root = _Node()
    memo: dict = {}
    root_score: dict[int, float] = {}
    pick = _picker(weights, rng)
    clock = time.perf_counter
    it = 0
    while it < iterations:
        it += 1
        if (it & 15) == 0 and clock() > deadline:
            break
        st = base_states[pick()].copy()
        path: list = []
        won, first = _simulate(root, st, path, c, gone0, scores_tricks, rollout, rng, only, exact, table, memo,
                               prior, prior_weight, voids, me)
        r = reward(won)
        for nd, p in path:
            nd.n += 1
            nd.w += r[p]
        if my_score is not None and first >= 0:
            root_score[first] = root_score.get(first, 0.0) + my_score(won)
    out = {}
    for card, ch in root.kids.items():
        if ch.n:
            out[card] = (ch.n, ch.w / ch.n, root_score.get(card, 0.0) / ch.n)
    return out


def search_bid(deals: Sequence, weights: Sequence[float], me: int, bids: Sequence[int],
               start: Callable[[int, int], HandState], reward: Callable[[list[int], list], list[float]],
               *, iterations: int, deadline: float, gone0: int, scores_tricks: bool,
               rng: random.Random, c: float = 0.75, rollout: str = "heuristic",
               my_score: "Callable[[list[int], list], float] | None" = None,
               only: int = -1, exact: int = 0, table_of=None, tree: str = "bids") -> dict[int, dict]:
    """ISMCTS from ``me``'s bid: the root chooses among ``bids``; ``start(deal, bid)`` gives the
    hand about to be played in sampled deal ``deal`` (the other seats' bids filled in);
    below it the tree of card play as in :func:`search_play`.

    ``tree`` says which sampled deals share a tree of card play under a candidate bid: ``"bids"``
    (default) those in which every seat's bid is the same, ``"total"`` those in which the bids add
    up to the same number (the tree mixes positions the bids tell apart, and grows deeper), and
    ``"shared"`` all of them.

    Returns ``{bid: {"visits", "value", "score", "tricks": [count of k tricks won]}}``.
    """
    if tree not in ("bids", "total", "shared"):
        raise ValueError(f"tree must be one of bids, total, shared, not {tree!r}")
    root = _Node()
    kids = {b: _Node() for b in bids}
    for ch in kids.values():
        ch.n = 0
    tricks = {b: [0] * 64 for b in bids}
    score = {b: 0.0 for b in bids}
    pick = _picker(weights, rng)
    clock = time.perf_counter
    order = list(bids)
    subtrees: dict[tuple, _Node] = {}
    tables: dict[tuple, tuple] = {}
    it = 0
    while it < iterations:
        it += 1
        if (it & 7) == 0 and clock() > deadline:
            break
        root.n += 1
        # every candidate bid gets the same number of searches (no early lock-in on a noisy start)
        b = order[(it - 1) % len(order)]
        node = kids[b]
        d = pick()
        st = start(d, b)
        bids_now = list(st.bids)
        path: list = [(node, me)]
        # The other seats' bids will be public before the first card: play under a subtree of
        # their own, so the tree never mixes up positions that the bids tell apart.
        key = (b, tuple(bids_now) if tree == "bids"
               else sum(x for x in bids_now if x is not None) if tree == "total" else 0)
        sub = subtrees.get(key)
        if sub is None:
            sub = subtrees[key] = _Node()
        table, memo = None, None
        if exact:   # the exact endgame's score table is per bids, whatever tree they share
            tkey = tuple(bids_now)
            if tkey not in tables:
                tables[tkey] = (table_of(bids_now), {})
            table, memo = tables[tkey]
        won, _ = _simulate(sub, st, path, c, gone0, scores_tricks, rollout, rng, only, exact, table, memo, me=me)
        r = reward(won, bids_now)
        for nd, p in path:
            nd.n += 1
            nd.w += r[p]
        tricks[b][won[me]] += 1
        if my_score is not None:
            score[b] += my_score(won, bids_now)
    out = {}
    for b in order:
        ch = kids[b]
        if ch.n:
            out[b] = {"visits": ch.n, "value": ch.w / ch.n, "score": score[b] / ch.n, "tricks": tricks[b]}
    return out
