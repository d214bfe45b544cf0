"""Two play policies, duplicate, on the fast path: A's margin over B per hand, and their speed.

Each random deal (the hand size drawn from the rules' schedule, a trump turned as the rules
say) is bid by every seat as the expert models a bidder (:func:`ohhell.bots.expert.model_bid`,
the hook respected), then played once per rotation of the lineup ``A,B,A,B,...`` (as
``benchmarks/bots_duel.py`` seats two bots), every seat on its policy's card. The margin is
A's mean score minus B's mean score per hand, averaged over the rotations, with its 95%
interval over deals. The bids do not depend on the play policy, so only the play differs.

    python benchmarks/rollout_duel.py --a v2 --b heuristic --players 4 --preset openspiel --deals 20000
    python benchmarks/rollout_duel.py --a v2 --b heuristic --players 5 --preset standard --deals 20000 --jobs 2

It also times each policy's playout (µs per hand played out by every seat on it).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import random
import statistics
import sys
import time

from ohhell.bots.expert import model_bid
from ohhell.bots.policy import PLAYOUTS, choose_card
from ohhell.bots.policy_v2 import choose_card_v2
from ohhell.cards import SUIT_MASKS
from ohhell.fast import HandState
from ohhell.rules import Rules
from ohhell.scoring import hand_score
from ohhell.tricks import hook_bid


def deal(rng: random.Random, rules: Rules, i: int):
    """One random hand: hands, trump (-1 none), turned card (-1 none), size, leader, bids."""
    n = rules.players
    k = rng.randrange(len(rules.hand_sizes))
    h = rules.hand_sizes[k]
    cards = rng.sample(range(52), 52)
    hands = [0] * n
    for s in range(n):
        for c in cards[s * h:(s + 1) * h]:
            hands[s] |= 1 << c
    trump, tc = -1, -1
    if rules.has_trump(k) and n * h < 52:
        tc = cards[n * h]
        trump = tc // 13
    dealer = i % n
    order = [(dealer + 1 + j) % n for j in range(n)]
    bids: list = [None] * n
    every = list(range(h + 1))
    for s in order:
        opts = every
        if rules.hook and s == dealer:
            forbid = hook_bid(h, sum(b for b in bids if b is not None))
            opts = [x for x in every if x != forbid]
        bids[s] = model_bid(hands[s], trump, n, h, tc, opts, rules)
    return hands, trump, tc, h, order[0], bids


def play(st: HandState, seats: list, gone0: int, scores_tricks: bool) -> list[int]:
    """Play the hand out with ``seats[s]`` (``"heuristic"`` or ``"v2"``) choosing seat ``s``'s cards."""
    n = st.n
    trump = st.trump
    tmask = SUIT_MASKS[trump] if trump >= 0 else 0
    must = st.must_trump and trump >= 0
    bids, won, hands = st.bids, st.won, st.hands
    voids = [0] * n
    while st.tricks_left:
        p = st.to_act
        legal = st.legal_mask()
        tl = len(st.trick)
        led = st.led if tl else -1
        if not legal & (legal - 1):
            c = legal.bit_length() - 1
        elif seats[p] == "v2":
            c = choose_card_v2(hands[p], legal, p, tl, led, st.best, st.winner, n, trump, st.played | gone0,
                               st.tricks_left, bids, won, voids, scores_tricks, must)
        else:
            wn = st.winner
            c = choose_card(hands[p], legal, tl, led, st.best, wn, n, trump, st.played | gone0,
                            bids[p] - won[p], st.tricks_left, bids[wn] - won[wn] if tl else None, scores_tricks)
        if tl and c // 13 != led:
            voids[p] |= 1 << led
            if must and c // 13 != trump:
                voids[p] |= 1 << trump
        st.play(c)
    return won


def one_deal(args) -> tuple[float, float, float]:
    """(A − B per hand, bids made by A seats, by B seats) over the rotations of one deal."""
    rules_d, a, b, seed, i = args
    rules = Rules.from_dict(rules_d)
    rng = random.Random(f"{seed}-{i}")
    hands, trump, tc, h, leader, bids = deal(rng, rules, i)
    n = rules.players
    gone0 = 1 << tc if tc >= 0 else 0
    base = [a if s % 2 == 0 else b for s in range(n)]
    rots = []
    for r in range(n):
        rot = [base[(s + r) % n] for s in range(n)]
        if rot not in rots:
            rots.append(rot)
    margin = made_a = made_b = 0.0
    for rot in rots:
        st = HandState(hands, None if trump < 0 else trump, leader, hand_size=h, bids=bids,
                       must_trump=rules.must_trump)
        won = play(st, rot, gone0, rules.missed_bid_scores_tricks)
        sa = [hand_score(bids[s], won[s], h, rules) for s in range(n) if rot[s] == a]
        sb = [hand_score(bids[s], won[s], h, rules) for s in range(n) if rot[s] == b]
        margin += statistics.fmean(sa) - statistics.fmean(sb)
        made_a += statistics.fmean([bids[s] == won[s] for s in range(n) if rot[s] == a])
        made_b += statistics.fmean([bids[s] == won[s] for s in range(n) if rot[s] == b])
    k = len(rots)
    return margin / k, made_a / k, made_b / k


def speed(policy: str, rules: Rules, count: int = 2000, seed: int = 5) -> float:
    """µs per hand played out by every seat on ``policy`` (``PLAYOUTS[policy]``)."""
    rng = random.Random(seed)
    states = []
    for i in range(count):
        hands, trump, tc, h, leader, bids = deal(rng, rules, i)
        states.append((HandState(hands, None if trump < 0 else trump, leader, hand_size=h, bids=bids,
                                 must_trump=rules.must_trump), 1 << tc if tc >= 0 else 0))
    fn = PLAYOUTS[policy]
    st_flag = rules.missed_bid_scores_tricks
    best = math.inf
    for _ in range(3):
        t = time.process_time()
        for s, g in states:
            fn(s.copy(), g, st_flag)
        best = min(best, time.process_time() - t)
    return 1e6 * best / count


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", default="v2")
    ap.add_argument("--b", default="heuristic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--preset", default="openspiel", help="standard, la-podrida or openspiel")
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", default="rollout-duel")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--no-speed", action="store_true", help="skip the timing")
    args = ap.parse_args(argv)
    for p in (args.a, args.b):
        if p not in PLAYOUTS:
            ap.error(f"unknown policy {p!r}; choose from {', '.join(PLAYOUTS)}")
    rules = Rules(args.players) if args.preset == "standard" else Rules.preset(args.preset, players=args.players)
    tasks = [(rules.to_dict(), args.a, args.b, args.seed, i) for i in range(args.deals)]
    t0 = time.perf_counter()
    if args.jobs > 1:
        with mp.get_context("fork").Pool(args.jobs) as pool:
            res = pool.map(one_deal, tasks, chunksize=200)
    else:
        res = [one_deal(t) for t in tasks]
    m = [r[0] for r in res]
    mean = statistics.fmean(m)
    ci = 1.96 * statistics.stdev(m) / math.sqrt(len(m))
    print(f"{args.preset}, {args.players} players, {len(m)} deals: {args.a} - {args.b} "
          f"{mean:+.3f} ± {ci:.3f} per hand; bids made {args.a} {statistics.fmean(r[1] for r in res):.1%}, "
          f"{args.b} {statistics.fmean(r[2] for r in res):.1%} ({time.perf_counter() - t0:.0f} s)")
    if not args.no_speed:
        for p in dict.fromkeys((args.a, args.b)):
            print(f"  {p}: {speed(p, rules):.1f} µs CPU per hand played out", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
