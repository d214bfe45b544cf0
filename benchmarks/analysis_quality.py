"""How far to trust the coach: its flagged mistakes against a deeper look, and luck + skill.

For each game (bots of mixed strength play it: ``intermediate`` and ``beginner``
seats, so there are mistakes to find), ``ohhell.coach.analyze_game`` runs with
its default settings.  Then:

1. **Agreement.** The game's five largest flagged mistakes (over all seats) are
   evaluated again from the same view with ``--deep`` times the samples and
   another seed.  The deep evaluation *agrees* when it also rates the action the
   analysis called best above the action taken.  Reported: agreements / flagged
   decisions, with a Wilson 95% interval.
2. **Luck + skill.** For every seat of every game: its score against the table's
   average, against its luck (what the analysis bot scored with its cards in a replay of
   the deal) or its cards (the expected score of its best bids, from its own information)
   and its points lost, each against the table's average.  Reported: the least-squares fit
   ``score - avg = a * (luck - avg) - b * (lost - avg)`` (and the same with cards), its
   R^2 and residual spread, the correlations, and how much ``luck - lost`` with a = b = 1
   explains.  ``--top 0`` runs only this part (no deep evaluations).

The log is JSON Lines, one line per game, and a run resumes where it stopped:

    nice -n 10 python benchmarks/analysis_quality.py --games 45 --log /tmp/coach-quality.jsonl
    python benchmarks/analysis_quality.py --games 60 --log /tmp/coach-quality.jsonl   # go on
    python benchmarks/analysis_quality.py --first 100 --games 130 --log /tmp/coach-quality-b.jsonl  # alongside
    python benchmarks/analysis_quality.py --log /tmp/coach-quality.jsonl --log /tmp/coach-quality-b.jsonl --report
    python benchmarks/analysis_quality.py --log unused --luck-spread 8      # luck's own sampling noise

3. **Past the noise.** The same games analysed twice with different ``--analysis-seed``
   measure each seat's cards and points lost twice, independently; ``--reliability`` fits
   the score by instrumental variables (one run's measurements instrumented by the
   other's), which undoes the attenuation that the analysis's own sampling noise causes
   in a plain least-squares fit:

    nice -n 19 python benchmarks/analysis_quality.py --top 0 --games 30 --log /tmp/rel-0.jsonl
    nice -n 19 python benchmarks/analysis_quality.py --top 0 --games 30 --analysis-seed 1 --log /tmp/rel-1.jsonl
    python benchmarks/analysis_quality.py --top 0 --reliability --log /tmp/rel-0.jsonl --log /tmp/rel-1.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time

from ohhell import Bid, Game, Rules
from ohhell.bots import make, play_game
from ohhell.coach import DEFAULT_SAMPLES, analyze_game, decision_view, evaluate
from ohhell.coach.analysis import LUCK_METHOD

LINEUPS = (("intermediate", "beginner", "intermediate", "beginner"),
           ("beginner", "intermediate", "beginner", "intermediate"),
           ("intermediate", "intermediate", "beginner", "beginner"))


def make_game(i: int, players: int) -> Game:
    """Game ``i`` of the run: seeded deals, a seeded lineup of bots."""
    lineup = [LINEUPS[i % len(LINEUPS)][s % 4] for s in range(players)]
    g = Game(Rules(players), seed=f"quality:{i}")
    play_game(g, [make(name, seed=f"quality:{i}:{s}") for s, name in enumerate(lineup)])
    return g


def run_game(i: int, players: int, samples: int, deep: int, top: int, analysis_seed: int = 0,
             replay: bool = True) -> dict:
    g = make_game(i, players)
    rec = g.record()
    t = time.perf_counter()
    c = time.process_time()
    # analysis seed 0 is the historical one (the game's number), so older logs stay comparable
    seed = i + 1_000_003 * analysis_seed
    a = analyze_game(rec, samples=samples, seed=seed, trace=True)
    secs = time.perf_counter() - t
    cpu = time.process_time() - c
    flagged = []
    for h, d in a.mistakes()[:top]:
        view, taken = decision_view(rec, h["hand"], d["index"])
        ev = evaluate(view, samples * deep, random.Random(f"deep:{i}:{h['hand']}:{d['index']}"))
        labels = [int(x.tricks) if isinstance(x, Bid) else str(x.card) for x in ev.actions]  # type: ignore[attr-defined]
        bi = labels.index(d["best"])
        ti = ev.index(taken)
        loss, se = ev.loss(ti, bi)
        flagged.append({"hand": h["hand"], "index": d["index"], "kind": d["kind"], "seat": d["seat"],
                        "action": d["action"], "best": d["best"], "loss": d["loss"], "loss_se": d["loss_se"],
                        "deep_loss": round(loss, 3), "deep_se": round(se, 3),
                        "deep_best": labels[ev.best], "agree": loss > 0})
    seats = [{"score": s["score"], "luck": s.get("luck"), "cards": s.get("cards"), "fall": s.get("fall"),
              "lost": s["lost"], "lost_bid": s["lost_bid"], "lost_play": s["lost_play"],
              "lost_play_policy": s.get("lost_play_policy")} for s in a.seats]
    line = {"game": i, "players": players, "samples": samples, "deep": deep, "seconds": round(secs, 2),
            "cpu_seconds": round(cpu, 2), "analysis_seed": analysis_seed, "luck_method": LUCK_METHOD,
            "flagged": flagged, "seats": seats, "trace": _trace(a)}
    line["model"] = model_outcomes(g)
    if replay:
        t = time.process_time()
        line["replay_luck"] = replay_lucks(g, a, samples, seed)
        line["replay_cpu_seconds"] = round(time.process_time() - t, 2)
        for s, row in enumerate(seats):
            row["luck_replay"] = sum(hand[s] for hand in line["replay_luck"])
    return line


def _trace(a) -> list[dict]:
    """Each finished hand's decisions, compactly: what the luck variants are computed from.
    ``d``: [index, seat, kind (0 bid, 1 card), taken, best, policy (-1: none), loss, loss_se,
    loss_policy, loss_policy_se, real outcome of each legal action, expected score of each]; forced decisions are left out (they cost
    nothing in any variant)."""
    out = []
    for h in a.hands:
        if not h["finished"]:
            continue
        ds = []
        for d in h["decisions"]:
            if d.get("forced"):
                continue
            labels = [v["action"] for v in d["values"]]
            ds.append([d["index"], d["seat"], 0 if d["kind"] == "bid" else 1, labels.index(d["action"]),
                       labels.index(d["best"]), labels.index(d["policy"]) if "policy" in d else -1,
                       d["loss"], d["loss_se"], d.get("loss_policy", 0.0), d.get("loss_policy_se", 0.0),
                       d["real"], [v["mean"] for v in d["values"]]])
        out.append({"hand": h["hand"], "scores": [r["score"] for r in h["seats"]], "d": ds})
    return out


def continuation_lucks(line: dict, replays: int, samples: int) -> list[float]:
    """Each seat's luck by the anchored replay that the analysis's luck approximates: per hand,
    the real game up to the seat's first flagged mistake; there the analysis's best action;
    then the rest of the hand played with the analysis bot in the seat (each card the best of
    ``samples`` sampled deals, from its own view) and the heuristic's cards (the other seats'
    real bids, the nearest legal) for the others; the mean of ``replays`` such continuations
    (they differ by the analysis bot's sampling).  The score where the seat made no mistake."""
    from ohhell.bots.heuristic import HeuristicBot
    from ohhell.coach import evaluate_play
    from ohhell.coach.analysis import _at_hand, _hands_actions
    g = make_game(line["game"], line["players"])
    actions = _hands_actions(g)
    n = g.players
    total = [0.0] * n
    others = HeuristicBot()
    for hi, hand in enumerate(line["trace"]):
        k = hand["hand"]
        hr = g.past_hands[k]
        first: dict = {}
        taken_of: dict = {}
        for idx, seat, kind, taken, best, policy, loss, se, lp, lps, real, _m in hand["d"]:
            if seat not in first and taken != best and loss - Z95 * se > 0 and loss >= 0.5:
                first[seat] = (idx, best)
                taken_of[seat] = taken
        for s in range(n):
            if s not in first:
                total[s] += hand["scores"][s]
                continue
            idx, best = first[s]
            start = _at_hand(g, k, actions)
            for seat, act in actions[k][:idx]:
                start.apply(act, seat)
            outs = []
            seat_at, act_at = actions[k][idx]
            assert seat_at == s and start.legal_actions(s)[taken_of[s]] == act_at, "legal actions out of order"
            for r in range(replays):
                cur = start.copy()
                cur.apply(cur.legal_actions(s)[best], s)
                rng = random.Random(f"continuation/{line['game']}/{k}/{s}/{r}")
                while cur.hand_index == k and not cur.is_over:
                    p = cur.to_act
                    assert p is not None
                    if cur.phase_name == "bid":
                        act = _nearest_bid(cur, p, hr.bids[p])
                    elif p == s:
                        ev = evaluate_play(cur.view(p), samples, rng)
                        act = ev.actions[ev.best]
                    else:
                        act = others.decide(cur.view(p)).action
                    cur.apply(act, p)
                outs.append(cur.past_hands[k].scores[s])
            total[s] += sum(outs) / len(outs)
    return total


def model_outcomes(g: Game) -> list[list[list[int]]]:
    """For every finished hand and every point of it (before each action, and at its end):
    every seat's score if the rest of the hand were played out on the real cards by the
    heuristic policy (the analysis's model of play), with the bids as they were made.  At the
    end this is the real score; between two actions, the change is what that action did to
    each seat's outcome in the model (for the deciding seat, ``real[taken]`` of its decision)."""
    from ohhell.bots.policy import heuristic_playout
    from ohhell.coach.analysis import _at_hand, _hands_actions
    from ohhell.fast import HandState
    from ohhell.scoring import hand_scores
    actions = _hands_actions(g)
    out = []
    for k, hr in enumerate(g.past_hands):
        cur = _at_hand(g, k, actions)
        n, h = g.players, hr.hand_size
        gone0 = 1 << int(hr.trump_card) if hr.trump_card is not None else 0
        rows = []
        for step in range(len(actions[k]) + 1):
            if step == len(actions[k]):
                rows.append(list(hr.scores))
                break
            hands = [cur.hand_mask(s) for s in range(n)]
            if cur.phase_name == "bid":
                st = HandState(hands, hr.trump, (hr.dealer + 1) % n, hand_size=h, bids=list(hr.bids),
                               must_trump=g.rules.must_trump)
            else:
                st = HandState.from_view(cur.view(cur.to_act), hands)
            won = heuristic_playout(st, gone0, g.rules.missed_bid_scores_tricks)
            rows.append(list(hand_scores(hr.bids, won, h, g.rules)))
            seat, act = actions[k][step]
            cur.apply(act, seat)
        out.append(rows)
    return out


# --- the luck of the earlier analyses: a fresh replay of each hand (for comparison) -------------

def _nearest_bid(g: Game, seat: int, want: int):
    legal = [x for x in g.legal_actions(seat) if isinstance(x, Bid)]
    return min(legal, key=lambda x: (abs(x.tricks - want), x.tricks))


def replay_luck(start: Game, k: int, seat: int, best_bid: int, bids, order, samples: int,
                seed: "int | str", replay: int = 0) -> int:
    """The luck of the analyses before 2026-12 (``luck_replays`` 1): the score the analysis
    bot makes in ``seat`` in a fresh replay of hand ``k``'s real deal.  It bids ``best_bid``
    (the analysis's best bid), every other seat keeps its bid (the nearest legal one, should
    the hook now forbid it), and it plays each card as the analysis rates best from its own
    view (``samples`` deals a card), while the other seats play the heuristic's cards."""
    from ohhell.bots.heuristic import HeuristicBot
    from ohhell.coach import evaluate_play
    g = start.copy()
    for s in order:
        g.apply(_nearest_bid(g, s, best_bid if s == seat else bids[s]), s)
    others = HeuristicBot()
    rng = random.Random(f"{seed}/{k}/luck/{seat}" + (f"/{replay}" if replay else ""))
    while g.hand_index == k and not g.is_over:
        p = g.to_act
        assert p is not None
        v = g.view(p)
        if p == seat:
            ev = evaluate_play(v, samples, rng)
            act = ev.actions[ev.best]
        else:
            act = others.decide(v).action
        g.apply(act, p)
    return int(g.past_hands[k].scores[seat])


def replay_lucks(g: Game, a, samples: int, seed: "int | str") -> list[list[int]]:
    """Every finished hand's replay luck of every seat, as the earlier analyses worked it out
    (``samples // 3`` deals a card, at least 16)."""
    from ohhell.coach.analysis import _at_hand, _hands_actions
    actions = _hands_actions(g)
    out = []
    for k, hr in enumerate(g.past_hands):
        start = _at_hand(g, k, actions)
        bids = {d["seat"]: int(d["best"]) for d in a.hands[k]["decisions"] if d["kind"] == "bid"}
        out.append([replay_luck(start, k, s, bids[s], hr.bids, hr.order, max(16, samples // 3), seed)
                    for s in range(g.players)])
    return out


def luck_spread(games: int, players: int, samples: int) -> dict:
    """How much one luck replay depends on the analysis's own sampling: each seat's luck of
    each hand replayed with two seeds (the analysis bot's card choices are estimates, so a
    close card can go either way)."""
    from ohhell.coach.analysis import _at_hand, _hands_actions
    diffs = []
    per_game: dict = {}
    for i in range(games):
        g = make_game(i, players)
        actions = _hands_actions(g)
        for k, hr in enumerate(g.past_hands):
            start = _at_hand(g, k, actions)
            for s in range(players):
                j = next(j for j, (seat, a) in enumerate(actions[k]) if seat == s)
                view, _ = decision_view(g, k, j)
                ev = evaluate(view, samples, random.Random(f"{i}/{k}/{j}"))
                best = int(ev.actions[ev.best].tricks)  # type: ignore[attr-defined]
                ls = max(16, samples // 3)
                a = replay_luck(start, k, s, best, hr.bids, hr.order, ls, "seed-a")
                b = replay_luck(start, k, s, best, hr.bids, hr.order, ls, "seed-b")
                diffs.append(a - b)
                per_game[(i, s)] = per_game.get((i, s), 0) + a - b
        print(f"luck spread, game {i}: {len(diffs)} seat-hands so far", file=sys.stderr, flush=True)
    return {"seat_hands": len(diffs), "differ": sum(1 for d in diffs if d),
            "mean_abs_per_hand": statistics.fmean(abs(d) for d in diffs),
            "sd_per_hand_one_replay": statistics.pstdev(diffs) / math.sqrt(2),
            "sd_per_game_one_replay": statistics.pstdev(per_game.values()) / math.sqrt(2),
            "seat_games": len(per_game)}


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return float("nan"), float("nan")
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def _fit(rows: list[tuple[float, float, float]]) -> dict:
    """Least squares y = a*x1 + b*x2 (no intercept: every variable is centred per table), its R^2,
    and the R^2 of x1 alone (fitted) and of x1 + x2 with a = b = 1."""
    sxx = sum(x1 * x1 for _, x1, _ in rows)
    syy2 = sum(x2 * x2 for _, _, x2 in rows)
    sx12 = sum(x1 * x2 for _, x1, x2 in rows)
    sy1 = sum(y * x1 for y, x1, _ in rows)
    sy2 = sum(y * x2 for y, _, x2 in rows)
    det = sxx * syy2 - sx12 * sx12
    a = (sy1 * syy2 - sy2 * sx12) / det
    b = (sy2 * sxx - sy1 * sx12) / det
    sst = sum(y * y for y, _, _ in rows)
    res = [y - a * x1 - b * x2 for y, x1, x2 in rows]
    sse = sum(r * r for r in res)

    def r2(pred):
        return 1 - sum((y - p) ** 2 for (y, _, _), p in zip(rows, pred)) / sst

    def corr(i):
        xs = [r[i] for r in rows]
        return sum(r[0] * x for r, x in zip(rows, xs)) / math.sqrt(sst * sum(x * x for x in xs))

    return {"a": a, "b": b, "r2": 1 - sse / sst, "residual_sd": math.sqrt(sse / max(1, len(rows) - 2)),
            "score_sd": math.sqrt(sst / len(rows)), "corr_first": corr(1), "corr_second": corr(2),
            "r2_first_only": r2([x1 * sy1 / sxx for _, x1, _ in rows]),
            "r2_sum": r2([x1 + x2 for _, x1, x2 in rows])}


def report(lines: list[dict]) -> dict:
    flagged = [f for ln in lines for f in ln["flagged"]]
    k = sum(f["agree"] for f in flagged)
    lo, hi = wilson(k, len(flagged))
    same_best = sum(f["deep_best"] == f["best"] for f in flagged)
    def centred(key: str) -> list[list[float]]:
        out = []
        for ln in lines:
            vals = [float(s[key]) for s in ln["seats"]]
            m = sum(vals) / len(vals)
            out.append([v - m for v in vals])
        return out

    have_cards = all(s.get("cards") is not None for ln in lines for s in ln["seats"])
    score, luck, lost = centred("score"), centred("luck"), centred("lost")
    cards = centred("cards") if have_cards else None
    rows = [(y, x, -o) for ys, xs, os_ in zip(score, luck, lost) for y, x, o in zip(ys, xs, os_)]
    out = {"games": len(lines), "flagged": len(flagged), "agree": k, "agreement": k / len(flagged) if flagged else None,
           "ci95": [lo, hi], "deep_best_same": same_best,
           "by_kind": {kind: [sum(f["agree"] for f in flagged if f["kind"] == kind),
                              sum(1 for f in flagged if f["kind"] == kind)] for kind in ("bid", "play")},
           "analysis_seconds_mean": statistics.fmean(ln["seconds"] for ln in lines) if lines else None}
    if len(rows) > 3:
        # score - avg = a * (luck - avg) + b * (-(lost - avg)); a = b = 1 would be an exact split
        out["luck_and_lost"] = _fit(rows)
        if cards is not None:
            out["cards_and_lost"] = _fit([(y, x, -o) for ys, xs, os_ in zip(score, cards, lost)
                                          for y, x, o in zip(ys, xs, os_)])
        out["seat_games"] = len(rows)
        if have_cards and all(s.get("lost_play_policy") is not None for ln in lines for s in ln["seats"]):
            out["policy_split"] = policy_split(lines)
        if sum(1 for ln in lines if "trace" in ln) >= 3:
            out["luck_fits"] = luck_fits(lines)
            out["calibration"] = calibration(lines)
    return out


def policy_split(lines: list[dict], boot: int = 2000, seed: int = 5) -> dict:
    """score - avg fitted on cards, bidding losses and play losses measured against the
    playouts' own card (``lost_play_policy``): an exact split has coefficients 1, -1, -1.
    Also the same fit with the play losses against the best card (``lost_play``), and the
    R^2 of the exact split.  95% intervals by bootstrap over games."""
    import numpy as np
    out = {}
    for label, play_key in (("against the policy's card", "lost_play_policy"), ("against the best card", "lost_play")):
        keys = ("score", "cards", "lost_bid", play_key)
        c = _centred_seats(lines, keys)
        ks = sorted(c)
        M = np.array([c[k] for k in ks])
        games = np.array([k[0] for k in ks])
        uniq = np.unique(games)
        by_game = {g: np.flatnonzero(games == g) for g in uniq}

        def fit(idx):
            return np.linalg.lstsq(M[idx, 1:], M[idx, 0], rcond=None)[0]

        est = fit(np.arange(len(ks)))
        rng = np.random.default_rng(seed)
        bs = np.array([fit(np.concatenate([by_game[g] for g in rng.choice(uniq, len(uniq))])) for _ in range(boot)])
        lo, hi = np.percentile(bs, 2.5, axis=0), np.percentile(bs, 97.5, axis=0)
        y = M[:, 0]
        pred = M[:, 1] - M[:, 2] - M[:, 3]
        resid = y - M[:, 1:] @ est
        out[label] = {"coef": {n: [round(float(est[j]), 3), round(float(lo[j]), 3), round(float(hi[j]), 3)]
                               for j, n in enumerate(("cards", "lost_bid", "lost_play"))},
                      "r2_fit": round(1 - float((resid ** 2).sum() / (y ** 2).sum()), 3),
                      "r2_exact_split": round(1 - float(((y - pred) ** 2).sum() / (y ** 2).sum()), 3),
                      "mean_lost_play": round(float(np.mean([ln_s[play_key] for ln in lines for ln_s in ln["seats"]])), 2)}
    out["seat_games"] = len(ks)
    return out


def _centred_seats(lines: list[dict], keys: "tuple[str, ...]") -> dict:
    """(game, seat) -> [each key's value minus its table's average]."""
    out = {}
    for ln in lines:
        for key in keys:
            vals = [float(x[key]) for x in ln["seats"]]
            m = sum(vals) / len(vals)
            for seat, v in enumerate(vals):
                out.setdefault((ln["game"], seat), []).append(v - m)
    return out


# --- luck plus skill: every definition of luck, on the same games ------------------------------------

Z95 = 1.959964


def luck_variants(line: dict, min_loss: float = 0.5) -> list[dict]:
    """Each seat's luck by every definition compared, and its points lost both ways, from a
    game's trace (``run_game``).  ``cost(ref) = real[ref] - real[taken]`` is what a reference
    action would have scored on the real cards against the action taken (the rest of the hand
    played out by the heuristic policy), ``gain = loss - loss_policy`` the analysis's
    expected gain of its best card over the policy's card.  Per hand:

    * ``first_best`` (the analysis's luck since 2026-12, ``+gain``): the real game up to the
      seat's first decision that differed from the analysis's best; there ``real[best]``
      (the score where none differed); with ``+gain`` plus the gains of the seat's later cards;
      ``_significant``: the first decision whose loss is significant (95% interval above 0);
    * ``first_policy``: the same with the policy's card as the cards' reference (the best bid
      for the bid): then every later step telescopes exactly; paired with the losses against
      the policy's card (``lost_policy``), or with ``+gain`` (all of the hand's cards) with the
      points lost, the same split;
    * ``chain_best`` / ``chain_policy``: the score plus ``cost`` of every decision of the seat
      against the reference (re-anchored at each one; against the best card they count the
      same gain over and over along a hand);
    * ``replay`` (the analyses' luck before 2026-12): a fresh replay of each hand.

    Also each seat's ``chance`` under ``first_policy`` split into ``own`` (expected minus real
    effect of its decisions from the first divergence) and ``others`` (the other seats' play
    after it, where it differed from the policy's).
    """
    n = len(line["seats"])
    out = []
    for s in range(n):
        row = line["seats"][s]
        o = {"score": float(row["score"]), "lost": row["lost"],
             "lost_policy": row["lost_bid"] + (row["lost_play_policy"] or 0.0), "cards": row.get("cards"),
             "replay": row.get("luck_replay"), "continuation": row.get("luck_continuation")}
        for key in ("chain_best", "chain_best_significant", "chain_policy", "chain_policy+gain", "first_best",
                    "first_best+gain", "first_best_significant+gain", "first_best_significant",
                    "first_best_flagged+gain", "first_policy", "first_policy+gain", "chance_before", "chance_at",
                    "chance_after", "chance_others"):
            o[key] = 0.0
        out.append(o)
    for hi, hand in enumerate(line["trace"]):
        model = line["model"][hi] if "model" in line else None
        by_seat: dict = {s: [] for s in range(n)}
        for d in hand["d"]:
            by_seat[d[1]].append(d)
        for s in range(n):
            o = out[s]
            score = hand["scores"][s]
            ds = by_seat[s]
            gains = [0.0 if d[2] == 0 else d[6] - d[8] for d in ds]
            tb = tp = tsig = tflag = None
            for j, (idx, _seat, kind, taken, best, policy, loss, se, lp, lps, real, _m) in enumerate(ds):
                if model is not None:
                    assert abs(real[taken] - model[idx + 1][s]) < 1e-6, (line["game"], hi, idx)
                ref = best if kind == 0 else policy
                o["chain_best"] += real[best] - real[taken]
                if loss - Z95 * se > 0:
                    o["chain_best_significant"] += real[best] - real[taken]
                o["chain_policy"] += real[ref] - real[taken]
                o["chain_policy+gain"] += real[ref] - real[taken] + gains[j]
                if tb is None and taken != best:
                    tb = j
                if tsig is None and taken != best and loss - Z95 * se > 0:
                    tsig = j
                if tflag is None and taken != best and loss - Z95 * se > 0 and loss >= min_loss:
                    tflag = j
                if tp is None and taken != ref:
                    tp = j
            def first(t, use_policy):
                if t is None:
                    return float(score)
                d = ds[t]
                return d[10][d[4] if d[2] == 0 or not use_policy else d[5]]
            o["first_best"] += first(tb, False)
            o["first_best+gain"] += first(tb, False) + (sum(gains[tb + 1:]) if tb is not None else 0.0)
            o["first_best_significant+gain"] += first(tsig, False) + (sum(gains[tsig + 1:]) if tsig is not None else 0.0)
            o["first_best_significant"] += first(tsig, False)
            o["first_best_flagged+gain"] += first(tflag, False) + (sum(gains[tflag + 1:]) if tflag is not None else 0.0)
            o["first_policy"] += first(tp, True)
            o["first_policy+gain"] += first(tp, True) + sum(gains)
            # The exact split of the analysis's luck (first flagged mistake, + later gains):
            # score - luck + lost = before + at + after + others
            if tflag is None:
                o["chance_before"] += sum(d[6] for d in ds)
            else:
                d = ds[tflag]
                real, taken, best = d[10], d[3], d[4]
                o["chance_before"] += sum(x[6] for x in ds[:tflag])
                o["chance_at"] += d[6] - (real[best] - real[taken])
                later_cost = 0.0
                for x in ds[tflag + 1:]:
                    rl, tk, pol = x[10], x[3], x[5]
                    o["chance_after"] += x[8] - (rl[pol] - rl[tk])
                    later_cost += rl[pol] - rl[tk]
                o["chance_others"] += score - real[taken] + later_cost
    for o in out:
        o["chain_best"] += o["score"]
        o["chain_best_significant"] += o["score"]
        o["chain_policy"] += o["score"]
        o["chain_policy+gain"] += o["score"]
    return out


#: (label, luck, points lost) compared in the luck-plus-skill report.
LUCK_PAIRS = (("replay luck (before), points lost", "replay", "lost"),
              ("anchored replay, the analysis bot after the first mistake; points lost", "continuation", "lost"),
              ("first divergence from the best, + later gains; points lost", "first_best+gain", "lost"),
              ("first significant divergence, + later gains; points lost", "first_best_significant+gain", "lost"),
              ("first flagged mistake, + later gains; points lost", "first_best_flagged+gain", "lost"),
              ("first significant divergence; points lost", "first_best_significant", "lost"),
              ("first divergence from the best; points lost", "first_best", "lost"),
              ("first divergence from the policy; losses against the policy", "first_policy", "lost_policy"),
              ("first divergence from the policy, + gains; points lost", "first_policy+gain", "lost"),
              ("every decision against the policy; losses against the policy", "chain_policy", "lost_policy"),
              ("every decision against the policy, + gains; points lost", "chain_policy+gain", "lost"),
              ("every decision against the best; points lost", "chain_best", "lost"),
              ("every significant loss against the best; points lost", "chain_best_significant", "lost"),
              ("cards, points lost", "cards", "lost"))


def calibration(lines: list[dict], boot: int = 2000, seed: int = 5) -> dict:
    """Points lost against what they cost on the real cards, decision by decision: for every
    decision where the action taken was not the analysis's best, its ``loss`` (expected, from
    the seat's information) and ``real[best] - real[taken]`` (on the real deal, the rest of
    the hand played out by the heuristic); by kind, and for the flagged mistakes.  Calibrated
    losses have equal means.  95% intervals by bootstrap over games."""
    import numpy as np
    groups = {("bid", False): [], ("bid", True): [], ("play", False): [], ("play", True): [],
              ("play against the policy", False): []}
    per_game = []
    for ln in lines:
        if "trace" not in ln:
            continue
        rows: dict = {k: [] for k in groups}
        for hand in ln["trace"]:
            for idx, seat, kind, taken, best, policy, loss, se, lp, lps, real, _m in hand["d"]:
                name = "bid" if kind == 0 else "play"
                if taken != best:
                    rows[(name, False)].append((loss, real[best] - real[taken]))
                    if loss >= 0.5 and loss - Z95 * se > 0:
                        rows[(name, True)].append((loss, real[best] - real[taken]))
                if kind == 1 and taken != policy:
                    rows[("play against the policy", False)].append((lp, real[policy] - real[taken]))
        per_game.append(rows)
    out = {}
    rng = np.random.default_rng(seed)
    picks = [rng.integers(0, len(per_game), len(per_game)) for _ in range(boot)]
    for key in groups:
        def means(idx):
            xs = [x for i in idx for x in per_game[i][key]]
            a = np.array(xs) if xs else np.zeros((0, 2))
            return np.array([a[:, 0].mean(), a[:, 1].mean()]) if len(a) else np.array([np.nan, np.nan])
        est = means(range(len(per_game)))
        bs = np.array([means(p) for p in picks])
        lo, hi = np.nanpercentile(bs, 2.5, axis=0), np.nanpercentile(bs, 97.5, axis=0)
        label = key[0] + (", flagged mistakes" if key[1] else "")
        out[label] = {"decisions": sum(len(g[key]) for g in per_game),
                      "expected": [round(float(est[0]), 2), round(float(lo[0]), 2), round(float(hi[0]), 2)],
                      "real": [round(float(est[1]), 2), round(float(lo[1]), 2), round(float(hi[1]), 2)]}
    return out


def luck_fits(lines: list[dict], boot: int = 2000, seed: int = 5) -> dict:
    """For every (luck, lost) pair of :data:`LUCK_PAIRS`: the least-squares fit
    ``score - avg = a (luck - avg) - b (lost - avg)`` (each against its table's average), its
    R^2 and residual spread, the spread of the scores, and the exact split (a = b = 1): its R^2,
    the spread of what it leaves (``chance = score - luck + lost``, centred) and that chance's
    mean.  95% intervals by bootstrap over games."""
    import numpy as np
    lines = [ln for ln in lines if "trace" in ln]
    per_game = [luck_variants(ln) for ln in lines]
    out: dict = {"games": len(lines), "seat_games": sum(len(v) for v in per_game)}
    rng = np.random.default_rng(seed)
    picks = [rng.integers(0, len(lines), len(lines)) for _ in range(boot)]
    for label, lk, lo_key in LUCK_PAIRS:
        if any(o[lk] is None for v in per_game for o in v):
            continue
        rows = []      # per game: array (seats, 3): score, luck, lost, centred; and raw chance
        raw = []
        for v in per_game:
            m = np.array([[o["score"], o[lk], o[lo_key]] for o in v], dtype=float)
            raw.append(m[:, 0] - m[:, 1] + m[:, 2])
            rows.append(m - m.mean(axis=0))

        def stats(idx):
            M = np.concatenate([rows[i] for i in idx])
            y, x1, x2 = M[:, 0], M[:, 1], -M[:, 2]
            X = np.stack([x1, x2], axis=1)
            coef = np.linalg.lstsq(X, y, rcond=None)[0]
            res = y - X @ coef
            sst = float((y ** 2).sum())
            exact = y - x1 - x2
            ch = np.concatenate([raw[i] for i in idx])
            return np.array([coef[0], coef[1], 1 - float((res ** 2).sum()) / sst,
                             float(np.sqrt((res ** 2).sum() / max(1, len(y) - 2))), float(np.sqrt(sst / len(y))),
                             1 - float((exact ** 2).sum()) / sst, float(np.sqrt((exact ** 2).mean())),
                             float(ch.mean()), float(np.corrcoef(y, x1)[0, 1])])

        est = stats(list(range(len(lines))))
        bs = np.array([stats(p) for p in picks])
        lo, hi = np.percentile(bs, 2.5, axis=0), np.percentile(bs, 97.5, axis=0)
        names = ("a", "b", "r2", "residual_sd", "score_sd", "r2_exact", "chance_sd", "chance_mean", "corr_luck")
        out[label] = {k: [round(float(est[j]), 3), round(float(lo[j]), 3), round(float(hi[j]), 3)]
                      for j, k in enumerate(names)}
    # What the exact split of the analysis's luck leaves, by where it comes from (centred per
    # table; the four add up to score - luck + lost)
    parts = {}
    for key in ("chance_before", "chance_at", "chance_after", "chance_others"):
        xs = []
        for v in per_game:
            vals = [o[key] for o in v]
            m = sum(vals) / len(vals)
            xs += [x - m for x in vals]
        parts[key + "_sd"] = round(float(np.sqrt(np.mean(np.square(xs)))), 2)
        parts[key + "_mean"] = round(float(np.mean([o[key] for v in per_game for o in v])), 2)
    # skill = score - luck against the points lost: a slope of -1 is a point of skill per point lost
    for label, lk, lo_key in LUCK_PAIRS:
        if label not in out:
            continue
        cols = []
        for v in per_game:
            m = np.array([[o["score"] - o[lk], o[lo_key]] for o in v], dtype=float)
            cols.append(m - m.mean(axis=0))

        def slope(idx):
            M = np.concatenate([cols[i] for i in idx])
            c = float((M[:, 0] * M[:, 1]).sum() / (M[:, 1] ** 2).sum())
            r2 = 1 - float(((M[:, 0] - c * M[:, 1]) ** 2).sum() / (M[:, 0] ** 2).sum())
            return np.array([c, r2])
        est = slope(list(range(len(lines))))
        bs = np.array([slope(p) for p in picks])
        lo, hi = np.percentile(bs, 2.5, axis=0), np.percentile(bs, 97.5, axis=0)
        out[label]["skill_on_lost"] = [round(float(est[0]), 3), round(float(lo[0]), 3), round(float(hi[0]), 3)]
        out[label]["skill_on_lost_r2"] = [round(float(est[1]), 3), round(float(lo[1]), 3), round(float(hi[1]), 3)]
    out["chance_parts"] = parts
    return out


def print_luck_table(fits: dict) -> None:
    """The luck-plus-skill comparison as a Markdown table (BENCHMARKS.md's form)."""
    def f(v, d=2):
        return f"{v[0]:.{d}f} ({v[1]:.{d}f} to {v[2]:.{d}f})"
    print(f"{fits['games']} games, {fits['seat_games']} seat-games; 95% intervals by bootstrap over games\n")
    print("| luck, points lost | a | b | R² | residual spread | score spread | R² with a = b = 1 | "
          "spread of score − luck + lost | its mean | correlation of luck with the score | "
          "skill on points lost: slope |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for label, *_ in LUCK_PAIRS:
        r = fits.get(label)
        if r is None:
            continue
        print(f"| {label} | {f(r['a'])} | {f(r['b'])} | {f(r['r2'])} | {f(r['residual_sd'], 1)} | "
              f"{f(r['score_sd'], 1)} | {f(r['r2_exact'])} | {f(r['chance_sd'], 1)} | {f(r['chance_mean'], 1)} | "
              f"{f(r['corr_luck'])} | {f(r['skill_on_lost'])} |")
    parts = fits.get("chance_parts")
    if parts:
        print("\nWhat score − luck + lost is made of (the analysis's luck), per seat-game: mean and spread")
        for key, words in (("chance_before", "losses before the first mistake"),
                           ("chance_at", "the first mistake: expected minus real cost"),
                           ("chance_after", "later cards: expected minus real cost, against the heuristic's card"),
                           ("chance_others", "the other seats' play after the mistake")):
            print(f"- {words}: {parts[key + '_mean']:+.1f}, spread {parts[key + '_sd']:.1f}")


def reliability(lines_a: list[dict], lines_b: list[dict], boot: int = 2000, seed: int = 5) -> dict:
    """Luck plus skill, measured past the analysis's own noise.

    The same games analysed twice with different analysis seeds give two independent
    measurements of each seat's cards and points lost.  Their agreement (the test-retest
    correlation) says how much of each measurement is noise; a least-squares fit on a noisy
    predictor is pulled towards zero by exactly that share (attenuation).  So the score is
    fitted by instrumental variables: run A's measurements as the predictors, run B's as the
    instruments (and the other way round, averaged), which is consistent under independent
    measurement noise.  Intervals: 95%, bootstrap over games."""
    import numpy as np
    keys = ("score", "cards", "lost_bid", "lost_play")
    ca, cb = _centred_seats(lines_a, keys), _centred_seats(lines_b, keys)
    common = sorted(set(ca) & set(cb))
    for k in common:
        if abs(ca[k][0] - cb[k][0]) > 1e-9:
            raise SystemExit(f"the two logs disagree on game {k[0]}'s scores: not the same games")
    A = np.array([ca[k] for k in common])
    B = np.array([cb[k] for k in common])
    games = np.array([k[0] for k in common])

    def fit(idx):
        y = A[idx, 0]
        xa, xb = A[idx, 1:], B[idx, 1:]
        ols = np.linalg.lstsq((xa + xb) / 2, y, rcond=None)[0]
        iv_ab = np.linalg.solve(xb.T @ xa, xb.T @ y)
        iv_ba = np.linalg.solve(xa.T @ xb, xa.T @ y)
        iv = (iv_ab + iv_ba) / 2
        rel = [float(np.corrcoef(xa[:, j], xb[:, j])[0, 1]) for j in range(xa.shape[1])]
        pred = ((xa + xb) / 2) @ np.array([1.0, -1.0, -1.0])
        r2_sum = 1 - float(((y - pred) ** 2).sum() / (y ** 2).sum())
        return ols, iv, rel, r2_sum

    every = np.arange(len(common))
    ols, iv, rel, r2_sum = fit(every)
    rng = np.random.default_rng(seed)
    uniq = np.unique(games)
    by_game = {g: np.flatnonzero(games == g) for g in uniq}
    samples = []
    for _ in range(boot):
        pick = rng.choice(uniq, size=len(uniq), replace=True)
        idx = np.concatenate([by_game[g] for g in pick])
        try:
            samples.append(np.concatenate([fit(idx)[1], fit(idx)[0]]))
        except np.linalg.LinAlgError:
            continue
    samples = np.array(samples)
    lo, hi = np.percentile(samples, 2.5, axis=0), np.percentile(samples, 97.5, axis=0)
    names = ("cards", "lost_bid", "lost_play")
    # the fit is score = c*cards + b*lost_bid + p*lost_play: an exact split has c = 1, b = p = -1
    return {"seat_games": len(common), "games": int(len(uniq)),
            "test_retest": dict(zip(names, (round(r, 3) for r in rel))),
            "iv": {n: [round(float(iv[j]), 3), round(float(lo[j]), 3), round(float(hi[j]), 3)]
                   for j, n in enumerate(names)},
            "ols_on_the_mean": {n: [round(float(ols[j]), 3), round(float(lo[3 + j]), 3), round(float(hi[3 + j]), 3)]
                                for j, n in enumerate(names)},
            "r2_exact_split": round(r2_sum, 3)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=45, help="games in the whole run (a resumed run goes on to this)")
    p.add_argument("--first", type=int, default=0, help="the run's first game number (another process can "
                                                         "take another range, with its own log)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="the analysis's samples per decision")
    p.add_argument("--deep", type=int, default=20, help="the deep evaluation has this many times the samples")
    p.add_argument("--top", type=int, default=5, help="flagged mistakes per game to check")
    p.add_argument("--log", required=True, action="append",
                   help="JSON Lines log, one line per game (resumed when it exists); --report may name several")
    p.add_argument("--report", action="store_true", help="summarise the log and stop")
    p.add_argument("--analysis-seed", type=int, default=0, metavar="K",
                   help="analyse with another seed (0: the historical one); two logs of the same games "
                        "with different K feed --reliability")
    p.add_argument("--reliability", action="store_true",
                   help="with two --log files of the same games analysed with different --analysis-seed: "
                        "luck plus skill fitted past the analysis's own noise, and stop")
    p.add_argument("--no-replay", action="store_true",
                   help="skip the earlier analyses' replay luck (about a tenth of the time), kept for comparison")
    p.add_argument("--luck-table", action="store_true",
                   help="after the summary, the luck-plus-skill comparison as a Markdown table")
    p.add_argument("--continuations", type=int, default=0, metavar="K",
                   help="instead: for the games of the first --log, each seat's luck by K anchored replays with the "
                        "analysis bot in the seat after its first mistake (written to the second --log, resumed)")
    p.add_argument("--continuation-log", default=None, metavar="PATH",
                   help="with --report: also compare the luck of --continuations' log")
    p.add_argument("--luck-spread", type=int, default=0, metavar="GAMES",
                   help="instead: replay each seat's luck with two seeds over this many games")
    args = p.parse_args(argv)
    if args.luck_spread:
        print(json.dumps(luck_spread(args.luck_spread, args.players, args.samples), indent=1))
        return 0
    if args.continuations:
        if len(args.log) != 2:
            print("--continuations needs two --log files: the games, and where the continuations go", file=sys.stderr)
            return 2
        with open(args.log[0]) as f:
            games = [json.loads(x) for x in f if x.strip()]
        done = set()
        if os.path.exists(args.log[1]):
            with open(args.log[1]) as f:
                done = {json.loads(x)["game"] for x in f if x.strip()}
        for ln in games:
            if ln["game"] in done or "trace" not in ln:
                continue
            t = time.process_time()
            lucks = continuation_lucks(ln, args.continuations, max(16, ln["samples"] // 3))
            with open(args.log[1], "a") as f:
                f.write(json.dumps({"game": ln["game"], "replays": args.continuations, "luck": lucks,
                                    "cpu_seconds": round(time.process_time() - t, 2)}) + "\n")
            print(f"game {ln['game']}: continuations {time.process_time() - t:.1f} s CPU", flush=True)
        return 0
    if args.reliability:
        if len(args.log) != 2:
            print("--reliability needs exactly two --log files", file=sys.stderr)
            return 2
        loaded = []
        for log in args.log:
            with open(log) as f:
                loaded.append([json.loads(x) for x in f if x.strip()])
        print(json.dumps(reliability(*loaded), indent=1))
        return 0
    lines = []
    for log in args.log:
        if not os.path.exists(log):
            continue
        with open(log) as f:
            mine = [json.loads(x) for x in f if x.strip()]
        for ln in mine:
            if (ln["players"], ln["samples"], ln["deep"], ln.get("analysis_seed", 0)) != (
                    args.players, args.samples, args.deep, args.analysis_seed):
                print(f"{log} was run with other options (players {ln['players']}, samples "
                      f"{ln['samples']}, deep {ln['deep']}, analysis seed {ln.get('analysis_seed', 0)}): "
                      "use another log", file=sys.stderr)
                return 2
        lines += mine
    if not args.report:
        done = {ln["game"] for ln in lines}
        for i in range(args.first, args.games):
            if i in done:
                continue
            ln = run_game(i, args.players, args.samples, args.deep, args.top, args.analysis_seed,
                          replay=not args.no_replay)
            with open(args.log[0], "a") as f:
                f.write(json.dumps(ln) + "\n")
            lines.append(ln)
            r = report(lines)
            print(f"game {i}: {ln['seconds']:.1f} s, {sum(x['agree'] for x in ln['flagged'])}/{len(ln['flagged'])} "
                  f"agree; so far {r['agree']}/{r['flagged']} ({100 * (r['agreement'] or 0):.1f}%, "
                  f"95% {100 * r['ci95'][0]:.1f}-{100 * r['ci95'][1]:.1f}%)", flush=True)
    if args.continuation_log:
        with open(args.continuation_log) as f:
            cont = {c["game"]: c for c in (json.loads(x) for x in f if x.strip())}
        for ln in lines:
            c = cont.get(ln["game"])
            if c is not None:
                for row, v in zip(ln["seats"], c["luck"]):
                    row["luck_continuation"] = v
        lines = [ln for ln in lines if ln["game"] in cont]
    r = report(lines)
    print(json.dumps(r, indent=1))
    if args.luck_table and "luck_fits" in r:
        print()
        print_luck_table(r["luck_fits"])
        print("\n| decisions not the best | count | points lost (expected) | cost on the real cards |")
        print("|---|---|---|---|")
        for label, c in r["calibration"].items():
            e, x = c["expected"], c["real"]
            print(f"| {label} | {c['decisions']} | {e[0]:.2f} ({e[1]:.2f} to {e[2]:.2f}) | "
                  f"{x[0]:.2f} ({x[1]:.2f} to {x[2]:.2f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
