"""Duplicate matches between bots: the engine behind ``ohhell arena`` and the benchmarks.

A match plays ``deals`` deal sets.  Each deal set is one game's worth of deals
(drawn from ``SEED:i``) replayed once for every distinct rotation of the
lineup around the table, so every bot sits in every seat on the same cards
and the luck of the deal cancels.  Games run in parallel worker processes.

The unit of comparison is the deal set: for each bot, its mean total per seat
over the rotations.  Means, 95% intervals and the pairwise margins are taken
over deal sets, which are independent.

>>> from ohhell.rules import Rules
>>> m = run_match(Rules(4, hand_sizes=[1, 2]), ["heuristic", "random"], deals=3, seed=1, jobs=1)
>>> sorted(m.summary()["bots"])
['heuristic', 'random']
>>> m.games
6
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..game import Game
from ..rules import Rules
from .base import Budget

__all__ = ["parse_spec", "make_spec", "lineup", "rotations", "play_one", "run_match", "MatchResult",
           "GameResult", "ProgressBar", "t_quantile"]


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"expert:iterations=40:seconds=2"`` -> ``("expert", {"iterations": 40, "seconds": 2.0})``.

    :raises ValueError: for an option without ``=``.
    """
    name, *opts = spec.strip().split(":")
    options: dict[str, Any] = {}
    for o in opts:
        key, eq, value = o.partition("=")
        if not eq:
            raise ValueError(f"bot option {o!r} in {spec!r} needs the form key=value")
        v: Any = value
        for conv in (int, float):
            try:
                v = conv(value)
                break
            except ValueError:
                continue
        if value.lower() in ("true", "false"):
            v = value.lower() == "true"
        options[key.replace("-", "_")] = v
    return name, options


def make_spec(spec: str, seed: "int | str | None" = None):
    """Make the bot a spec names (see :func:`parse_spec`)."""
    from . import make
    name, options = parse_spec(spec)
    return make(name, seed=seed, **options)


def lineup(bots: Sequence[str], players: int) -> list[str]:
    """One bot spec per seat: the given specs repeated around the table.

    :raises ValueError: when more bots than seats are given.
    """
    bots = list(bots)
    if not bots:
        raise ValueError("name at least one bot")
    if len(bots) > players:
        raise ValueError(f"{len(bots)} bots for {players} seats")
    return [bots[s % len(bots)] for s in range(players)]


def rotations(seats: Sequence[str]) -> list[list[str]]:
    """The distinct rotations of a lineup (``A,B,A,B`` has two; ``A,B,A,B,A`` five)."""
    out: list[list[str]] = []
    n = len(seats)
    for r in range(n):
        rot = [seats[(s + r) % n] for s in range(n)]
        if rot not in out:
            out.append(rot)
    return out


@dataclass
class GameResult:
    """One finished game of a match."""

    deal: int
    rotation: int
    seats: list[str]
    totals: list[int]
    winners: list[int]
    hands: int
    made: list[int]                    # hands in which each seat made its bid exactly
    times: dict[str, list[float]] = field(default_factory=dict)  # decision seconds per bot spec
    record: "dict | None" = None


class _Timed:
    """Wraps a bot to time its decisions."""

    def __init__(self, bot, sink: list[float]) -> None:
        self.bot = bot
        self.sink = sink

    def act(self, view, budget=None):
        t = time.perf_counter()
        a = self.bot.act(view, budget)
        self.sink.append(time.perf_counter() - t)
        return a


def play_one(task: tuple) -> GameResult:
    """Play one game of a match: ``(rules_dict, seed, deal, rotation, seats, budget, keep_record)``."""
    from . import play_game
    rules_d, seed, deal, rot, seats, budget, keep = task
    rules = Rules.from_dict(rules_d)
    game = Game(rules, seed=f"{seed}:{deal}", names=[f"{b}#{s}" for s, b in enumerate(seats)])
    times: dict[str, list[float]] = {b: [] for b in seats}
    bots = [_Timed(make_spec(b, seed=f"{seed}:{deal}:{rot}:{s}"), times[b]) for s, b in enumerate(seats)]
    b = Budget(**budget) if budget else None
    play_game(game, bots, b)
    n = rules.players
    made = [sum(1 for h in game.past_hands if h.bids[s] == h.tricks_won[s]) for s in range(n)]
    return GameResult(deal, rot, list(seats), list(game.totals), list(game.winners),
                      len(game.past_hands), made, times, game.record() if keep else None)


def t_quantile(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom."""
    table = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
             9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 25: 2.060, 30: 2.042,
             40: 2.021, 60: 2.000, 120: 1.980}
    if df <= 0:
        return float("inf")
    for k in sorted(table):
        if df <= k:
            return table[k]
    return 1.96


def _mean_ci(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% interval."""
    if not xs:
        return float("nan"), float("nan")
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, float("inf")
    return m, t_quantile(len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))


class MatchResult:
    """The games of a match and their statistics (:meth:`summary`)."""

    def __init__(self, rules: Rules, bots: Sequence[str], seed: str, results: Sequence[GameResult],
                 seconds: float = 0.0) -> None:
        self.rules = rules
        self.bots = list(dict.fromkeys(bots))
        self.seed = seed
        self.results = sorted(results, key=lambda r: (r.deal, r.rotation))
        self.seconds = seconds

    @property
    def games(self) -> int:
        """The number of games played."""
        return len(self.results)

    def per_deal(self) -> dict[str, list[float]]:
        """For each bot, its mean total per seat in each deal set, in deal order."""
        acc: dict[int, dict[str, list[int]]] = {}
        for r in self.results:
            d = acc.setdefault(r.deal, {})
            for s, b in enumerate(r.seats):
                d.setdefault(b, []).append(r.totals[s])
        return {b: [statistics.fmean(acc[k][b]) for k in sorted(acc) if b in acc[k]] for b in self.bots}

    def ratings(self) -> dict[str, dict[str, float]]:
        """OpenSkill (Plackett-Luce) ratings: each game is a match among the distinct bots,
        ranked by their seats' mean total.  ``{}`` when openskill is not installed."""
        try:
            from openskill.models import PlackettLuce
        except ImportError:  # pragma: no cover - openskill is in the bots extra
            return {}
        model = PlackettLuce()
        rating = {b: model.rating(name=b) for b in self.bots}
        for r in self.results:
            present = [b for b in self.bots if b in r.seats]
            if len(present) < 2:
                continue
            score = {b: statistics.fmean(r.totals[s] for s, x in enumerate(r.seats) if x == b) for b in present}
            order = sorted(set(score.values()), reverse=True)
            ranks = [order.index(score[b]) + 1 for b in present]
            new = model.rate([[rating[b]] for b in present], ranks=ranks)
            for b, team in zip(present, new):
                rating[b] = team[0]
        return {b: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for b, r in rating.items()}

    def summary(self) -> dict[str, Any]:
        """Everything the arena reports, as JSON-ready data."""
        n = self.rules.players
        per_deal = self.per_deal()
        hands = self.results[0].hands if self.results else 0
        games = len(self.results)
        ratings = self.ratings()
        out: dict[str, Any] = {
            "rules": self.rules.to_dict(), "seed": self.seed, "deals": len(per_deal[self.bots[0]]) if self.bots else 0,
            "games": games, "hands_per_game": hands, "seconds": round(self.seconds, 2), "bots": {},
            "margins": [],
        }
        for b in self.bots:
            xs = per_deal[b]
            m, ci = _mean_ci(xs)
            seats = sum(r.seats.count(b) for r in self.results)
            wins = sum(sum(1 for w in r.winners if r.seats[w] == b) / len(r.winners) for r in self.results)
            made = sum(r.made[s] for r in self.results for s, x in enumerate(r.seats) if x == b)
            times = [t for r in self.results for t in r.times.get(b, [])]
            entry = {
                "seats": seats,
                "mean_per_game": m, "ci95_per_game": ci,
                "mean_per_hand": m / hands if hands else float("nan"),
                "ci95_per_hand": ci / hands if hands else float("nan"),
                "win_share": wins / games if games else float("nan"),
                "seat_share": seats / (games * n) if games else float("nan"),
                "bid_accuracy": made / (seats * hands) if seats and hands else float("nan"),
                "decisions": len(times),
                "decision_ms_median": 1000 * statistics.median(times) if times else float("nan"),
                "decision_ms_max": 1000 * max(times) if times else float("nan"),
            }
            if b in ratings:
                entry["rating"] = ratings[b]
            out["bots"][b] = entry
        for i, a in enumerate(self.bots):
            for b in self.bots[i + 1:]:
                diffs = [x - y for x, y in zip(per_deal[a], per_deal[b])]
                m, ci = _mean_ci(diffs)
                out["margins"].append({"a": a, "b": b, "per_game": m, "ci95_per_game": ci,
                                       "per_hand": m / hands if hands else float("nan"),
                                       "ci95_per_hand": ci / hands if hands else float("nan")})
        return out

    def table(self) -> str:
        """The summary as a text table."""
        s = self.summary()
        lines = [f"{s['games']} games ({s['deals']} deal sets x rotations), {s['hands_per_game']} hands "
                 f"each; {self.rules.describe()}; {s['seconds']:.1f}s"]
        head = (f"{'bot':<24} {'per game':>17} {'per hand':>15} {'wins':>6} {'seats':>6} "
                f"{'bids made':>9} {'rating':>7} {'ms med/max':>12}")
        lines += [head, "-" * len(head)]
        ranked = sorted(self.bots, key=lambda b: -s["bots"][b]["mean_per_game"])
        for b in ranked:
            e = s["bots"][b]
            rating = f"{e['rating']['ordinal']:7.2f}" if "rating" in e else f"{'-':>7}"
            lines.append(
                f"{b:<24} {e['mean_per_game']:8.2f} ±{e['ci95_per_game']:7.2f} "
                f"{e['mean_per_hand']:6.2f} ±{e['ci95_per_hand']:6.2f} {100 * e['win_share']:5.1f}% "
                f"{100 * e['seat_share']:5.1f}% {100 * e['bid_accuracy']:8.1f}% {rating} "
                f"{e['decision_ms_median']:5.1f}/{e['decision_ms_max']:<6.0f}")
        if s["margins"]:
            lines.append("")
            lines.append("margins (duplicate, per deal set; 95% interval):")
            for mg in s["margins"]:
                lo = mg["per_game"] - mg["ci95_per_game"]
                hi = mg["per_game"] + mg["ci95_per_game"]
                verdict = ("ahead" if lo > 0 else "behind" if hi < 0 else "not separated")
                lines.append(f"  {mg['a']} - {mg['b']}: {mg['per_game']:+.2f} ± {mg['ci95_per_game']:.2f} per game, "
                             f"{mg['per_hand']:+.3f} ± {mg['ci95_per_hand']:.3f} per hand ({mg['a']} {verdict})")
        return "\n".join(lines)

    def plot(self, path: str) -> None:
        """Save a picture of the match: score per hand with 95% intervals, win and seat shares,
        bid accuracy.  Needs matplotlib (the ``bots`` extra)."""
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        s = self.summary()
        bots = sorted(self.bots, key=lambda b: -s["bots"][b]["mean_per_game"])
        fig, axes = plt.subplots(1, 3, figsize=(13, 4.2))
        x = range(len(bots))
        e = [s["bots"][b] for b in bots]
        axes[0].bar(x, [v["mean_per_hand"] for v in e], yerr=[v["ci95_per_hand"] for v in e], capsize=6,
                    color="#4c72b0")
        axes[0].set_title("mean score per hand (95% interval)")
        axes[1].bar([i - 0.2 for i in x], [100 * v["win_share"] for v in e], width=0.4, label="win share",
                    color="#55a868")
        axes[1].bar([i + 0.2 for i in x], [100 * v["seat_share"] for v in e], width=0.4, label="seat share",
                    color="#c8c8c8")
        axes[1].set_title("games won (%)")
        axes[1].legend()
        axes[2].bar(x, [100 * v["bid_accuracy"] for v in e], color="#dd8452")
        axes[2].set_title("bids made exactly (%)")
        for ax in axes:
            ax.set_xticks(list(x))
            ax.set_xticklabels(bots, rotation=15)
        fig.suptitle(f"ohhell arena: {s['games']} games, {self.rules.describe()}", fontsize=10)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)


class ProgressBar:
    """A one-line progress bar with rate and time left, on a terminal (else silent
    until :meth:`close`, which prints one line when ``always`` is set)."""

    def __init__(self, total: int, label: str = "games", stream=None, always: bool = False) -> None:
        self.total = total
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.always = always
        self.done = 0
        self.start = time.perf_counter()

    def update(self, k: int = 1) -> None:
        self.done += k
        if not self.tty:
            return
        el = time.perf_counter() - self.start
        frac = self.done / self.total if self.total else 1.0
        width = 30
        fill = int(width * frac)
        eta = el / self.done * (self.total - self.done) if self.done else 0.0
        self.stream.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total} {self.label} "
                          f"{el:6.1f}s elapsed, {eta:6.1f}s left ")
        self.stream.flush()

    def close(self) -> None:
        el = time.perf_counter() - self.start
        if self.tty:
            self.stream.write("\n")
        elif self.always:
            self.stream.write(f"{self.done}/{self.total} {self.label} in {el:.1f}s\n")
        self.stream.flush()


def run_match(rules: Rules, bots: Sequence[str], *, deals: int, seed: "int | str" = 1,
              jobs: "int | None" = None, budget: "Budget | None" = None, records: bool = False,
              progress: "Callable[[GameResult], None] | None" = None) -> MatchResult:
    """Play a duplicate match; returns its :class:`MatchResult`.

    ``bots`` are bot specs (:func:`parse_spec`), repeated around the table
    (:func:`lineup`); ``jobs`` worker processes (default: every core; 1 plays
    in this process).

    :raises ValueError: for an unknown bot, a bad option, or too many bots.
    """
    seats = lineup(bots, rules.players)
    for spec in dict.fromkeys(seats):
        make_spec(spec, seed=0)           # fail early on an unknown bot or option
    if deals < 1:
        raise ValueError("deals must be at least 1")
    rots = rotations(seats)
    bud = None
    if budget is not None:
        bud = {"seconds": budget.seconds, "iterations": budget.iterations}
    tasks = [(rules.to_dict(), str(seed), d, r, rot, bud, records)
             for d in range(deals) for r, rot in enumerate(rots)]
    jobs = jobs or os.cpu_count() or 1
    start = time.perf_counter()
    results: list[GameResult] = []
    if jobs <= 1 or len(tasks) == 1:
        for t in tasks:
            res = play_one(t)
            results.append(res)
            if progress:
                progress(res)
    else:
        import multiprocessing as mp
        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        with ctx.Pool(min(jobs, len(tasks))) as pool:
            for res in pool.imap_unordered(play_one, tasks):
                results.append(res)
                if progress:
                    progress(res)
    return MatchResult(rules, list(dict.fromkeys(seats)), str(seed), results, time.perf_counter() - start)
