"""Expert vs OpenSpiel's ISMCTS on OpenSpiel's own oh_hell (the issue's head-to-head).

OpenSpiel's ``oh_hell`` with 4 players and 5 tricks; our side plays it under
the ``openspiel`` preset with ``Game.from_deal`` on OpenSpiel's deal (cards
mapped with ``ohhell.cards.from_openspiel``), both engines in lockstep and
their returns checked equal.  ISMCTS is ``pyspiel.ISMCTSBot`` with 1000
simulations, uct_c 3, the max-visit final policy and random rollouts
(``pyspiel.RandomRolloutEvaluator``).  Our expert sits in two seats
(0 and 2), ISMCTS in the other two; then the same deal is played again with
the seats swapped.  The margin of a deal is the expert seats' mean score
minus the ISMCTS seats' mean score over both plays.

    python benchmarks/bots_openspiel.py --deals 500 --jobs 2 --json results.json
    python benchmarks/bots_openspiel.py --reference --deals 200   # ISMCTS vs 3 random seats

Needs the ``bench`` extra (open-spiel).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import random
import statistics
import sys
import time

PLAYERS, TRICKS = 4, 5


def _setup():
    import pyspiel
    return pyspiel, pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": TRICKS})


def _deal(pyspiel_game, rng):
    from ohhell.cards import from_openspiel
    state = pyspiel_game.new_initial_state()
    state.apply_action(TRICKS)
    dealer = rng.randrange(PLAYERS)
    state.apply_action(dealer)
    hands = [[] for _ in range(PLAYERS)]
    for i in range(PLAYERS * TRICKS):
        card = rng.choice([a for a, _ in state.chance_outcomes()])
        hands[i % PLAYERS].append(str(from_openspiel(card)))
        state.apply_action(card)
    trump = rng.choice([a for a, _ in state.chance_outcomes()])
    state.apply_action(trump)
    return state, dealer, hands, str(from_openspiel(trump))


def _play(task):
    """One deal, both seatings.  Returns per-seating scores and bids made."""
    deal_no, seed, sims, expert_spec, reference = task
    pyspiel, game = _setup()
    from ohhell import Bid, Game, Rules
    from ohhell.actions import PLAYS
    from ohhell.bots.match import make_spec
    from ohhell.cards import from_openspiel, to_openspiel

    rng = random.Random(f"{seed}:{deal_no}")
    base_state, dealer, hands, trump = _deal(game, rng)
    rules = Rules.preset("openspiel", players=PLAYERS, tricks=TRICKS)
    out = []
    seatings = [(0, 2), (1, 3)] if not reference else [(0,), (1,), (2,), (3,)]
    times = []
    for k, ours_seats in enumerate(seatings):
        state = base_state.clone()
        ours = Game.from_deal(rules, dealer=dealer, deal=hands, trump_card=trump)
        bots = {}
        for p in range(PLAYERS):
            bseed = f"{seed}:{deal_no}:{k}:{p}"
            if (p in ours_seats) != reference:
                bots[p] = ("ours", make_spec(expert_spec, seed=bseed))
            elif reference:
                bots[p] = ("random", random.Random(bseed))
            else:
                ev = pyspiel.RandomRolloutEvaluator(1, rng.randrange(2**31))
                bots[p] = ("ismcts", pyspiel.ISMCTSBot(rng.randrange(2**31), ev, 3.0, sims, -1,
                                                       pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                                                       False, False))
        while not state.is_terminal():
            p = state.current_player()
            assert p == ours.to_act
            kind, bot = bots[p]
            if kind == "ours":
                t0 = time.perf_counter()
                action = bot.act(ours.view(p))
                times.append(time.perf_counter() - t0)
                a = 52 + action.tricks if isinstance(action, Bid) else to_openspiel(action.card)
            elif kind == "random":
                a = bot.choice(state.legal_actions())
                action = Bid(a - 52) if a >= 52 else PLAYS[from_openspiel(a)]
            else:
                a = bot.step(state)
                action = Bid(a - 52) if a >= 52 else PLAYS[from_openspiel(a)]
            state.apply_action(a)
            ours.apply(action)
        returns = [int(r) for r in state.returns()]
        assert returns == list(ours.totals), (returns, ours.totals)
        hr = ours.past_hands[-1]
        out.append({"ours": list(ours_seats), "scores": returns, "bids": list(hr.bids),
                    "won": list(hr.tricks_won), "dealer": dealer,
                    "made": [int(hr.bids[s] == hr.tricks_won[s]) for s in range(PLAYERS)]})
    return {"deal": deal_no, "plays": out, "times": times}


def _ci(xs):
    m = statistics.fmean(xs)
    return m, (1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("inf"))


def summarize(results, reference=False):
    margins, ours, theirs, made_o, made_t, times = [], [], [], [], [], []
    for r in results:
        o, t = [], []
        for play in r["plays"]:
            for s in range(PLAYERS):
                (o if s in play["ours"] else t).append(play["scores"][s])
                (made_o if s in play["ours"] else made_t).append(play["made"][s])
        ours.append(statistics.fmean(o))
        theirs.append(statistics.fmean(t))
        margins.append(ours[-1] - theirs[-1])
        times += r["times"]
    m, ci = _ci(margins)
    mo, cio = _ci(ours)
    mt, cit = _ci(theirs)
    times.sort()
    return {"deals": len(results), "ours_per_hand": mo, "ours_ci95": cio, "theirs_per_hand": mt,
            "theirs_ci95": cit, "margin_per_hand": m, "margin_ci95": ci,
            "ours_bid_accuracy": statistics.fmean(made_o), "theirs_bid_accuracy": statistics.fmean(made_t),
            "ours_decision_s_median": times[len(times) // 2] if times else None,
            "ours_decision_s_max": times[-1] if times else None,
            "reference": reference}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", default="os-bench")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sims", type=int, default=1000, help="ISMCTS simulations per decision")
    ap.add_argument("--expert", default="expert", help="our bot spec (e.g. expert:iterations=100)")
    ap.add_argument("--reference", action="store_true",
                    help="instead: ISMCTS in one seat against three random seats (each seat in turn)")
    ap.add_argument("--log", default=None, help="append each deal's result here (JSON lines)")
    ap.add_argument("--json", default=None, help="write the summary here")
    args = ap.parse_args(argv)
    tasks = [(i, args.seed, args.sims, args.expert, args.reference) for i in range(args.deals)]
    results = []
    start = time.perf_counter()
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    with mp.get_context("fork").Pool(args.jobs) as pool:
        for r in pool.imap_unordered(_play, tasks):
            results.append(r)
            if log:
                log.write(json.dumps(r) + "\n")
                log.flush()
            if len(results) % 10 == 0 or len(results) == len(tasks):
                s = summarize(results, args.reference)
                el = time.perf_counter() - start
                print(f"{len(results)}/{len(tasks)} deals, {el:.0f}s: ours {s['ours_per_hand']:.2f} "
                      f"theirs {s['theirs_per_hand']:.2f} margin {s['margin_per_hand']:+.2f} "
                      f"± {s['margin_ci95']:.2f}", file=sys.stderr, flush=True)
    s = summarize(results, args.reference)
    s.update({"seconds": time.perf_counter() - start, "sims": args.sims, "expert": args.expert,
              "seed": args.seed})
    print(json.dumps(s, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(s, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
