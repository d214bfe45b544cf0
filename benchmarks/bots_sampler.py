"""Hidden-hand samplers: how often does a sample give a seat a card of a suit it has shown void in?

Random play of OpenSpiel's ``oh_hell`` (4 players, 5 tricks by default) mirrored in our engine
(the ``openspiel`` preset, ``Game.from_deal``).  At random decision points of the play phase
where some seat has shown a void, both samplers draw the hidden hands for the seat to act:
OpenSpiel's ``State.resample_from_infostate`` and our ``ohhell.sampling.HandSampler``.  A sample
is *broken* when it gives some seat a card of a suit that seat has shown void in.  Also reports
the time per sample, and how often a sample gives the other seats, together, exactly the cards
they really hold (``true_cards``): OpenSpiel's resampler does so every time, since it only
reshuffles the others' real cards among them and never deals them a card from the stock, so a
bot searching on its samples knows which cards are in play (with 4 players and 5 tricks the
others hold 15 of the 32 cards the seat cannot see).  A fair sampler draws from all 32.

    python benchmarks/bots_sampler.py --positions 2000

Needs the ``bench`` extra (open-spiel).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

_SUIT = [0x1FFF << (13 * s) for s in range(4)]


def _union(hands, seats) -> int:
    m = 0
    for s in seats:
        m |= hands[s]
    return m


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--tricks", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    import pyspiel

    from ohhell import Bid, Game, Rules
    from ohhell.actions import PLAYS
    from ohhell.cards import from_openspiel
    from ohhell.sampling import HandSampler
    from bots_openspiel import _deal

    n, h = args.players, args.tricks
    game = pyspiel.load_game("oh_hell", {"players": n, "num_tricks_fixed": h})
    rng = random.Random(args.seed)
    sampler_rng = random.Random(args.seed + 1)
    prob = random.Random(args.seed + 2).random
    stats = {"openspiel": [0, 0, 0.0, 0], "ohhell": [0, 0, 0.0, 0]}   # samples, broken, seconds, true cards
    positions = 0
    while positions < args.positions:
        state, dealer, hands, trump = _deal(game, rng, n, h)
        ours = Game.from_deal(Rules.preset("openspiel", players=n, tricks=h), dealer=dealer, deal=hands,
                              trump_card=trump)
        while not state.is_terminal():
            p = state.current_player()
            if ours.phase_name == "play" and rng.random() < 0.3:
                v = ours.view(p)
                if any(v.voids[s] for s in range(n) if s != p):
                    positions += 1
                    t = time.perf_counter()
                    theirs = state.resample_from_infostate(p, prob)
                    stats["openspiel"][2] += time.perf_counter() - t
                    hist = theirs.history()[2:2 + n * h]
                    masks = [0] * n
                    for i, a in enumerate(hist):
                        masks[i % n] |= 1 << from_openspiel(a)
                    # cards still held = dealt minus played (the same plays in both worlds)
                    for s in range(n):
                        masks[s] &= ~v.played_mask
                    others = [s for s in range(n) if s != p]
                    true = 0
                    for s in others:
                        true |= ours.hand_mask(s)
                    stats["openspiel"][3] += _union(masks, others) == true
                    stats["openspiel"][0] += 1
                    stats["openspiel"][1] += any(v.voids[s] >> u & 1 and masks[s] & _SUIT[u]
                                                 for s in range(n) if s != p for u in range(4))
                    t = time.perf_counter()
                    d = HandSampler(v, sampler_rng).sample()
                    stats["ohhell"][2] += time.perf_counter() - t
                    stats["ohhell"][0] += 1
                    stats["ohhell"][3] += _union(d.hands, others) == true
                    stats["ohhell"][1] += any(v.voids[s] >> u & 1 and d.hands[s] & _SUIT[u]
                                              for s in range(n) if s != p for u in range(4))
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
            ours.apply(Bid(a - 52) if a >= 52 else PLAYS[from_openspiel(a)])
    out = {k: {"samples": v[0], "broken": v[1], "broken_share": v[1] / v[0], "us_per_sample": 1e6 * v[2] / v[0],
               "true_cards": v[3], "true_cards_share": v[3] / v[0]}
           for k, v in stats.items()}
    out.update({"players": n, "tricks": h, "positions": positions})
    print(json.dumps(out, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
