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

LINEUPS = (("intermediate", "beginner", "intermediate", "beginner"),
           ("beginner", "intermediate", "beginner", "intermediate"),
           ("intermediate", "intermediate", "beginner", "beginner"))


def make_game(i: int, players: int) -> Game:
    """Game ``i`` of the run: seeded deals, a seeded lineup of bots."""
    lineup = [LINEUPS[i % len(LINEUPS)][s % 4] for s in range(players)]
    g = Game(Rules(players), seed=f"quality:{i}")
    play_game(g, [make(name, seed=f"quality:{i}:{s}") for s, name in enumerate(lineup)])
    return g


def run_game(i: int, players: int, samples: int, deep: int, top: int, analysis_seed: int = 0) -> dict:
    g = make_game(i, players)
    rec = g.record()
    t = time.perf_counter()
    # analysis seed 0 is the historical one (the game's number), so older logs stay comparable
    a = analyze_game(rec, samples=samples, seed=i + 1_000_003 * analysis_seed)
    secs = time.perf_counter() - t
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
    return {"game": i, "players": players, "samples": samples, "deep": deep, "seconds": round(secs, 2),
            "analysis_seed": analysis_seed, "flagged": flagged, "seats": seats}


def luck_spread(games: int, players: int, samples: int) -> dict:
    """How much one luck replay depends on the analysis's own sampling: each seat's luck of
    each hand replayed with two seeds (the analysis bot's card choices are estimates, so a
    close card can go either way)."""
    from ohhell.coach.analysis import _at_hand, _hands_actions, _luck
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
                a = _luck(start, k, s, best, hr.bids, hr.order, ls, "seed-a")
                b = _luck(start, k, s, best, hr.bids, hr.order, ls, "seed-b")
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
    p.add_argument("--luck-spread", type=int, default=0, metavar="GAMES",
                   help="instead: replay each seat's luck with two seeds over this many games")
    args = p.parse_args(argv)
    if args.luck_spread:
        print(json.dumps(luck_spread(args.luck_spread, args.players, args.samples), indent=1))
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
            ln = run_game(i, args.players, args.samples, args.deep, args.top, args.analysis_seed)
            with open(args.log[0], "a") as f:
                f.write(json.dumps(ln) + "\n")
            lines.append(ln)
            r = report(lines)
            print(f"game {i}: {ln['seconds']:.1f} s, {sum(x['agree'] for x in ln['flagged'])}/{len(ln['flagged'])} "
                  f"agree; so far {r['agree']}/{r['flagged']} ({100 * (r['agreement'] or 0):.1f}%, "
                  f"95% {100 * r['ci95'][0]:.1f}-{100 * r['ci95'][1]:.1f}%)", flush=True)
    print(json.dumps(report(lines), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
