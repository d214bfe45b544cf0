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
    python benchmarks/bots_openspiel.py --deals 500 --log run.jsonl --resume   # go on with a run
    python benchmarks/bots_openspiel.py --reference --deals 200   # ISMCTS vs 3 random seats
    python benchmarks/bots_openspiel.py --deals 500 --ismcts view   # the C++ bot seated by its view
    python benchmarks/bots_openspiel.py --deals 500 --ismcts fair   # ISMCTS with a fair resampler

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


def _deal(pyspiel_game, rng, players: int = PLAYERS, tricks: int = TRICKS):
    """A random deal of OpenSpiel's game: its state after the chance events, the dealer, the
    hands (ohhell card names by seat) and the turned trump card."""
    from ohhell.cards import from_openspiel
    state = pyspiel_game.new_initial_state()
    state.apply_action(tricks)
    dealer = rng.randrange(players)
    state.apply_action(dealer)
    hands = [[] for _ in range(players)]
    for i in range(players * tricks):
        card = rng.choice([a for a, _ in state.chance_outcomes()])
        hands[i % players].append(str(from_openspiel(card)))
        state.apply_action(card)
    trump = rng.choice([a for a, _ in state.chance_outcomes()])
    state.apply_action(trump)
    return state, dealer, hands, str(from_openspiel(trump))


class _StockISMCTS:
    """``pyspiel.ISMCTSBot`` as the target names it (C++, OpenSpiel's own resampler)."""

    def __init__(self, pyspiel, rng, sims):
        ev = pyspiel.RandomRolloutEvaluator(1, rng.randrange(2**31))
        self.bot = pyspiel.ISMCTSBot(rng.randrange(2**31), ev, 3.0, sims, -1,
                                     pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)

    def step(self, state, view):
        return self.bot.step(state)


class _ViewISMCTS(_StockISMCTS):
    """``pyspiel.ISMCTSBot`` unchanged, but handed only what its seat may know, as it would be
    in any real game (a program that seats it at a table never has the others' cards): at each
    decision the others' unseen cards are drawn once by ``ohhell.sampling.HandSampler`` from the
    seat's view, and the bot is given that state.  Its own resampler then reshuffles those
    cards among the others, as it always does."""

    def __init__(self, pyspiel, rng, sims, game):
        super().__init__(pyspiel, rng, sims)
        self.game = game
        self.rng = random.Random(rng.randrange(2**31))

    def step(self, state, view):
        from ohhell.sampling import HandSampler
        st = _with_hands(self.game, state, view, HandSampler(view, self.rng).sample().hands)
        p = state.current_player()
        assert st.information_state_string(p) == state.information_state_string(p)  # same knowledge
        return self.bot.step(st)


def _with_hands(game, state, view, hands):
    """OpenSpiel's ``state`` with the unplayed cards dealt as ``hands`` (a sampled deal
    consistent with ``view``); everything public is as it was."""
    from ohhell.cards import to_openspiel
    n = view.players
    played = view.played_by
    history = state.history()
    st = game.new_initial_state()
    for a in history[:2]:
        st.apply_action(a)
    cards = [sorted(c for c in range(52) if (hands[s] | played[s]) >> c & 1) for s in range(n)]
    for i in range(n * TRICKS):
        st.apply_action(to_openspiel(cards[i % n][i // n]))
    st.apply_action(to_openspiel(view.trump_card))
    for a in history[2 + n * TRICKS + 1:]:
        st.apply_action(a)
    return st


def _ismcts(pyspiel, rng, sims, kind="stock", game=None):
    if kind == "fair":
        return _FairISMCTS(game, rng.randrange(2**31), sims)
    if kind == "view":
        return _ViewISMCTS(pyspiel, rng, sims, game)
    return _StockISMCTS(pyspiel, rng, sims)


class _FairISMCTS:
    """OpenSpiel's ISMCTS algorithm (its own Python implementation, the same settings) with a
    fair resampler: every simulation draws the hidden cards with ``ohhell.sampling.HandSampler``
    (uniform over the deals consistent with the seat's view), where OpenSpiel's ``oh_hell``
    resampler only reshuffles the opponents' true cards among them."""

    def __init__(self, game, seed: int, sims: int, fair: bool = True) -> None:
        import numpy as np
        self.fair = fair
        from open_spiel.python.algorithms import ismcts, mcts
        rs = np.random.RandomState(seed)
        self.game = game
        self.rng = random.Random(seed)
        self.bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 3.0, sims, random_state=rs,
                                    final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)

    def step(self, state, view):
        from ohhell.sampling import HandSampler
        if not self.fair:
            return int(self.bot.step(state))
        sampler = HandSampler(view, self.rng)
        game = self.game

        def resample(_state, _player):
            return _with_hands(game, state, view, sampler.sample().hands)

        self.bot.set_resampler(resample)
        return int(self.bot.step(state))


def _leak(bot, game) -> None:
    """Diagnostic only (``--leak``): let an expert draw its deals the way OpenSpiel's resampler
    does, by reshuffling the opponents' true unplayed cards among them (respecting shown voids),
    so that it knows what ISMCTS knows.  Never part of the bot."""
    from ohhell.sampling import bid_likelihood

    def deals(view):
        me = view.seat
        others = [s for s in range(view.players) if s != me]
        pool = [c for s in others for c in range(52) if game._hands[s] >> c & 1]
        need = [game._hands[s].bit_count() for s in others]
        weighted = bot.weighted and any(b is not None for s, b in enumerate(view.bids) if s != me)
        while True:
            for _ in range(100):
                bot.rng.shuffle(pool)
                hands = [0] * view.players
                pos = 0
                ok = True
                for s, k in zip(others, need):
                    m = 0
                    for c in pool[pos:pos + k]:
                        m |= 1 << c
                    pos += k
                    if any(view.voids[s] >> u & 1 and m >> (13 * u) & 0x1FFF for u in range(4)):
                        ok = False
                    hands[s] = m
                if ok:
                    break
            hands[me] = view.hand_mask
            yield tuple(hands), (bid_likelihood(view, hands) if weighted else 1.0)

    bot._deals = deals


def _play(task):
    """One deal, both seatings.  Returns per-seating scores and bids made.

    ``mode``: ``full`` (each side bids and plays), ``cards`` (every seat's bid
    is ISMCTS's, made once per deal and kept for both seatings: only the card
    play differs) or ``bids`` (each side bids, ISMCTS plays every card).
    """
    deal_no, seed, sims, expert_spec, reference, mode, ism_kind, leak = task
    pyspiel, game = _setup()
    from ohhell import Bid, Game, Rules
    from ohhell.actions import PLAYS
    from ohhell.bots.match import make_spec
    from ohhell.cards import from_openspiel, to_openspiel

    rng = random.Random(f"{seed}:{deal_no}")
    base_state, dealer, hands, trump = _deal(game, rng)
    rules = Rules.preset("openspiel", players=PLAYERS, tricks=TRICKS)
    fixed_bids = None

    def view_of(st):
        g = Game.from_deal(rules, dealer=dealer, deal=hands, trump_card=trump)
        for a in st.history()[2 + PLAYERS * TRICKS + 1:]:
            g.apply(Bid(a - 52) if a >= 52 else PLAYS[from_openspiel(a)])
        return g.view(st.current_player())

    if mode == "cards":
        st = base_state.clone()
        fixed_bids = []
        for _ in range(PLAYERS):
            a = _ismcts(pyspiel, rng, sims, ism_kind, game).step(st, view_of(st))
            fixed_bids.append(a)
            st.apply_action(a)
    out = []
    seatings = [(0, 2), (1, 3)] if not reference else [(0,), (1,), (2,), (3,)]
    times = []
    for k, ours_seats in enumerate(seatings):
        state = base_state.clone()
        preds = []
        ours = Game.from_deal(rules, dealer=dealer, deal=hands, trump_card=trump)
        bots = {}
        for p in range(PLAYERS):
            bseed = f"{seed}:{deal_no}:{k}:{p}"
            if (p in ours_seats) != reference and expert_spec in ("ismcts-fair", "ismcts-python"):
                bots[p] = ("ismcts", _FairISMCTS(game, rng.randrange(2**31), sims, expert_spec == "ismcts-fair"))
            elif (p in ours_seats) != reference:
                bots[p] = ("ours", make_spec(expert_spec, seed=bseed))
                if leak:
                    _leak(bots[p][1], ours)
            elif reference:
                bots[p] = ("random", random.Random(bseed))
            else:
                bots[p] = ("ismcts", _ismcts(pyspiel, rng, sims, ism_kind, game))
        players = ({p: ("ismcts", _ismcts(pyspiel, rng, sims, ism_kind, game)) for p in range(PLAYERS)}
                   if mode == "bids" else bots)
        nbid = 0
        actions = []
        while not state.is_terminal():
            p = state.current_player()
            assert p == ours.to_act
            bidding = ours.phase_name == "bid"
            if bidding and fixed_bids is not None:
                a = fixed_bids[nbid]
                nbid += 1
                state.apply_action(a)
                ours.apply(Bid(a - 52))
                actions.append(a - 52)
                continue
            kind, bot = bots[p] if bidding else players[p]
            if kind == "ours":
                t0 = time.perf_counter()
                d = bot.decide(ours.view(p))
                action = d.action
                times.append(time.perf_counter() - t0)
                if isinstance(action, Bid) and d.trick_probs is not None:
                    preds.append({"seat": p, "bid": action.tricks, "probs": [round(x, 4) for x in d.trick_probs],
                                  "values": {str(k.tricks): round(v, 3) for k, v in d.values.items()}})
                a = 52 + action.tricks if isinstance(action, Bid) else to_openspiel(action.card)
            elif kind == "random":
                a = bot.choice(state.legal_actions())
                action = Bid(a - 52) if a >= 52 else PLAYS[from_openspiel(a)]
            else:
                a = bot.step(state, ours.view(p))
                action = Bid(a - 52) if a >= 52 else PLAYS[from_openspiel(a)]
            state.apply_action(a)
            ours.apply(action)
            actions.append(str(action.card) if not isinstance(action, Bid) else action.tricks)
        returns = [int(r) for r in state.returns()]
        assert returns == list(ours.totals), (returns, ours.totals)
        hr = ours.past_hands[-1]
        out.append({"ours": list(ours_seats), "scores": returns, "bids": list(hr.bids),
                    "won": list(hr.tricks_won), "dealer": dealer,
                    "made": [int(hr.bids[s] == hr.tricks_won[s]) for s in range(PLAYERS)],
                    "predictions": preds, "actions": actions})
    return {"deal": deal_no, "hands": hands, "trump": trump, "plays": out, "times": times, "mode": mode}


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
    ap.add_argument("--expert", default="expert", help="our bot spec (e.g. expert:iterations=100); 'ismcts-fair' puts the "
                         "fair ISMCTS (see --ismcts) on our side, to measure what the stock resampler's leak is worth; "
                         "'ismcts-python' the same Python ISMCTS with OpenSpiel's resampler (a check that it "
                         "plays as well as the C++ bot)")
    ap.add_argument("--reference", action="store_true",
                    help="instead: ISMCTS in one seat against three random seats (each seat in turn)")
    ap.add_argument("--mode", choices=["full", "cards", "bids"], default="full",
                    help="full: each side bids and plays; cards: ISMCTS bids for every seat (the same in "
                         "both seatings), the sides play the cards; bids: the sides bid, ISMCTS plays every card")
    ap.add_argument("--ismcts", choices=["stock", "view", "fair"], default="stock",
                    help="stock: pyspiel.ISMCTSBot handed the true state, with OpenSpiel's oh_hell resampler "
                         "(the target; that resampler deals the opponents only their true cards, reshuffled "
                         "among them); view: the same C++ bot handed, at each decision, a state drawn from its "
                         "seat's view (as in any real game); fair: the same algorithm (OpenSpiel's Python "
                         "ISMCTS) drawing the hidden cards from ohhell's exact sampler at every simulation")
    ap.add_argument("--leak", action="store_true",
                    help="diagnostic: our expert draws its deals as OpenSpiel's resampler does (the "
                         "opponents' true cards reshuffled), to measure what that information is worth")
    ap.add_argument("--log", default=None, help="append each deal's result here (JSON lines)")
    ap.add_argument("--resume", action="store_true",
                    help="with --log: keep the deals already in the log (played with the same options), "
                         "play only the missing ones, and summarize all (so --deals 500 extends a run of 300)")
    ap.add_argument("--json", default=None, help="write the summary here")
    args = ap.parse_args(argv)
    config = {"seed": args.seed, "sims": args.sims, "expert": args.expert, "reference": args.reference,
              "mode": args.mode, "ismcts": args.ismcts, "leak": args.leak}
    results = []
    if args.resume:
        if not args.log:
            ap.error("--resume needs --log")
        try:
            with open(args.log, encoding="utf-8") as f:
                for line_no, line in enumerate(f, 1):
                    r = json.loads(line)
                    if r.get("config", config) != config:
                        ap.error(f"{args.log} line {line_no} was played with other options: {r['config']}")
                    if r["deal"] < args.deals:
                        results.append(r)
        except FileNotFoundError:
            pass
    done = {r["deal"] for r in results}
    tasks = [(i, args.seed, args.sims, args.expert, args.reference, args.mode, args.ismcts, args.leak)
             for i in range(args.deals) if i not in done]
    start = time.perf_counter()
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    with mp.get_context("fork").Pool(args.jobs) as pool:
        for r in pool.imap_unordered(_play, tasks):
            r["config"] = config
            results.append(r)
            if log:
                log.write(json.dumps(r) + "\n")
                log.flush()
            if len(results) % 10 == 0 or len(results) == args.deals:
                s = summarize(results, args.reference)
                el = time.perf_counter() - start
                print(f"{len(results)}/{args.deals} deals, {el:.0f}s: ours {s['ours_per_hand']:.2f} "
                      f"theirs {s['theirs_per_hand']:.2f} margin {s['margin_per_hand']:+.2f} "
                      f"± {s['margin_ci95']:.2f}", file=sys.stderr, flush=True)
    s = summarize(results, args.reference)
    s.update({"seconds": time.perf_counter() - start, **config})
    print(json.dumps(s, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(s, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
