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

import inspect
import math
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from ..game import Game
from ..rules import Rules
from ..actions import Action
from ..view import View
from .base import Bot, Budget

__all__ = ["parse_spec", "make_spec", "check_options", "option_help", "BotSpecError", "lineup", "rotations", "play_one", "run_match", "MatchResult",
           "GameResult", "ProgressBar", "ProcessPool", "t_quantile"]


class BotSpecError(ValueError):
    """A bot spec that names no bot or an option the bot does not take, or gives it a bad value."""


def _split_spec(spec: str) -> tuple[str, dict[str, str]]:
    name, *opts = spec.strip().split(":")
    options: dict[str, str] = {}
    for o in opts:
        key, eq, value = o.partition("=")
        if not eq or not key.strip():
            raise BotSpecError(f"bot option {o!r} in {spec!r} needs the form key=value")
        options[key.strip().replace("-", "_")] = value.strip()
    return name.strip(), options


def _guess(value: str) -> Any:
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    for conv in (int, float):
        try:
            return conv(value)
        except ValueError:
            continue
    return value


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"expert:iterations=40:seconds=2.5"`` -> ``("expert", {"iterations": 40, "seconds": 2.5})``.

    Values are read as booleans, whole numbers or numbers where they look like one; this is
    syntax only (:func:`check_options` checks them against the bot).

    :raises BotSpecError: for an option without ``=``.
    """
    name, raw = _split_spec(spec)
    return name, {k: _guess(v) for k, v in raw.items()}


_KINDS = {bool: "true or false", int: "a whole number", float: "a number", str: "a word"}

#: Smallest (and largest) values for options whose meaning demands them; every other number
#: must be at least 0.
_RANGES: dict[str, tuple[float, "float | None"]] = {
    "iterations": (1, None), "sims_per_iteration": (1, None), "mistakes": (0, 1),
}


def _parameters(name: str) -> "dict[str, inspect.Parameter] | None":
    """The options a bot's factory takes (every keyword but ``seed``), or ``None`` when it
    takes any keyword (``**options``) and says nothing more."""
    from . import factory
    try:
        sig = inspect.signature(factory(name))
    except (TypeError, ValueError):
        return None
    params = {}
    for p in sig.parameters.values():
        if p.kind is p.VAR_KEYWORD:
            return None
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name != "seed":
            params[p.name] = p
    return params


def _kind(p: "inspect.Parameter") -> "type | None":
    d = p.default
    return type(d) if type(d) in _KINDS else None


def option_help(name: str) -> str:
    """The options bot ``name`` takes, with the kind of value and the default, for messages.

    >>> option_help("random")
    'random takes no options'
    """
    params = _parameters(name)
    if params is None:
        return f"see the documentation of {name} for its options"
    if not params:
        return f"{name} takes no options"
    parts = []
    for key, p in params.items():
        kind = _kind(p)
        default = str(p.default).lower() if kind is bool else p.default
        parts.append(f"{key} ({_KINDS[kind]}, default {default})" if kind else key)
    return f"{name} takes " + ", ".join(parts)


def _convert(name: str, key: str, text: str, kind: "type | None") -> Any:
    bad = BotSpecError(f"bot option {key}={text} for {name}: {key} must be {_KINDS.get(kind or str)}")
    if kind is bool:
        low = text.lower()
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        raise bad
    if kind is int:
        try:
            value: Any = int(text)
        except ValueError:
            raise bad from None
    elif kind is float:
        try:
            value = float(text)
        except ValueError:
            raise bad from None
        if not math.isfinite(value):
            raise bad
    elif kind is str:
        return text
    else:
        return _guess(text)
    lo, hi = _RANGES.get(key, (0, None))
    if value < lo or (hi is not None and value > hi):
        allowed = f"at least {lo}" if hi is None else f"from {lo} to {hi}"
        raise BotSpecError(f"bot option {key}={text} for {name}: {key} must be {allowed}")
    return value


def check_options(name: str, options: "dict[str, str]") -> dict[str, Any]:
    """The options of a spec (as text) converted to what bot ``name`` takes.

    :raises BotSpecError: for an unknown bot or option, or a value of the wrong kind or out of
        range; the message names the option and what is allowed.

    >>> check_options("expert", {"iterations": "60"})
    {'iterations': 60}
    >>> check_options("expert", {"iterations": "-5"})
    Traceback (most recent call last):
    ...
    ohhell.bots.match.BotSpecError: bot option iterations=-5 for expert: iterations must be at least 1
    """
    from . import names
    if name not in names():
        raise BotSpecError(f"unknown bot {name!r}; choose one of {', '.join(names())}")
    params = _parameters(name)
    out: dict[str, Any] = {}
    for key, text in options.items():
        if params is not None and key not in params:
            raise BotSpecError(f"{name} has no option {key!r}; {option_help(name)}")
        out[key] = _convert(name, key, text, _kind(params[key]) if params is not None else None)
    return out


def make_spec(spec: str, seed: "int | str | None" = None):
    """Make the bot a spec names (see :func:`parse_spec`), its options checked (:func:`check_options`).

    :raises BotSpecError: for an unknown bot, option or a bad value; the message says which and
        what is allowed.
    """
    from . import make
    name, raw = _split_spec(spec)
    options = check_options(name, raw)
    try:
        return make(name, seed=seed, **options)
    except (TypeError, ValueError) as e:
        raise BotSpecError(f"bot {spec!r}: {e}") from None


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


class _Ticker:
    """Counts decisions and passes them on at most every ``every`` seconds (and on :meth:`flush`)."""

    def __init__(self, sink: "Callable[[int], None] | None", every: float = 0.25) -> None:
        self.sink = sink
        self.every = every
        self.count = 0
        self.last = time.perf_counter()

    def tick(self) -> None:
        self.count += 1
        if self.sink is not None and time.perf_counter() - self.last >= self.every:
            self.flush()

    def flush(self) -> None:
        if self.sink is not None and self.count:
            self.sink(self.count)
        self.count = 0
        self.last = time.perf_counter()


class _Timed(Bot):
    """Wraps a bot to time (and count) its decisions."""

    def __init__(self, bot: Bot, sink: list[float], ticker: "_Ticker | None" = None) -> None:
        self.bot = bot
        self.sink = sink
        self.ticker = ticker

    def act(self, view: View, budget: "Budget | None" = None) -> Action:
        t = time.perf_counter()
        a = self.bot.act(view, budget)
        self.sink.append(time.perf_counter() - t)
        if self.ticker is not None:
            self.ticker.tick()
        return a


def decisions_per_game(rules: Rules) -> int:
    """How many decisions one game takes: every seat bids and plays each card of each hand.

    >>> decisions_per_game(Rules(4, hand_sizes=[1, 2]))
    20
    """
    return rules.players * sum(1 + k for k in rules.hand_sizes)


#: In a worker process: where decision counts go (set by the pool's initializer).
_WORKER_SINK: "Callable[[int], None] | None" = None


def _init_worker(queue) -> None:
    global _WORKER_SINK
    _WORKER_SINK = queue.put


def play_one(task: tuple, on_decisions: "Callable[[int], None] | None" = None) -> GameResult:
    """Play one game of a match: ``(rules_dict, seed, deal, rotation, seats, budget, keep_record)``.

    ``on_decisions(k)`` hears, every quarter second or so, that ``k`` more decisions were made.
    """
    from . import play_game, table_names
    rules_d, seed, deal, rot, seats, budget, keep = task
    rules = Rules.from_dict(rules_d)
    game = Game(rules, seed=f"{seed}:{deal}", names=table_names(seats))
    times: dict[str, list[float]] = {b: [] for b in seats}
    ticker = _Ticker(on_decisions or _WORKER_SINK)
    bots = [_Timed(make_spec(b, seed=f"{seed}:{deal}:{rot}:{s}"), times[b], ticker)
            for s, b in enumerate(seats)]
    b = Budget(**budget) if budget else None
    play_game(game, bots, b)
    ticker.flush()
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
            ranks = [float(order.index(score[b]) + 1) for b in present]
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
            entry: dict[str, Any] = {
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


def _duration(seconds: float) -> str:
    """``75`` -> ``'1m15s'`` (for progress lines).

    >>> _duration(3.4), _duration(75), _duration(7322)
    ('3s', '1m15s', '2h02m')
    """
    s = int(round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


class ProgressBar:
    """A one-line progress bar with the time elapsed and an estimate of the time left.

    On a terminal it is drawn at once and redrawn twice a second from a background thread
    (so the clock moves even while the first slow decisions are made); elsewhere it prints
    nothing until :meth:`close`, which prints one summary line when ``always`` is set.
    ``update(k)`` counts ``k`` units of work (of ``total``); ``count(k)`` counts finished
    items (``items`` of them, e.g. games) when the work is measured in smaller units.
    """

    def __init__(self, total: int, label: str = "games", stream=None, always: bool = False,
                 items: "int | None" = None, refresh: float = 0.5) -> None:
        import threading
        self.total = total
        self.label = label
        self.items = items
        self.stream = stream if stream is not None else sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.always = always
        self.done = 0
        self.finished = 0
        self.start = time.perf_counter()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = None
        self._drawn = 0.0
        if self.tty:
            self._draw()
            if refresh > 0:
                self._thread = threading.Thread(target=self._refresh, args=(refresh,), daemon=True)
                self._thread.start()

    def _refresh(self, every: float) -> None:
        while not self._stop.wait(every):
            self._draw()

    def line(self) -> str:
        """The progress line as it is drawn now."""
        el = time.perf_counter() - self.start
        frac = min(1.0, self.done / self.total) if self.total else 1.0
        width = 30
        fill = int(width * frac)
        if self.items is not None:
            what = f"{self.finished}/{self.items} {self.label}"
        else:
            what = f"{self.done}/{self.total} {self.label}"
        if self.done and self.done < self.total:
            left = f"about {_duration(el / self.done * (self.total - self.done))} left"
        elif self.done >= self.total:
            left = "done"
        else:
            left = "estimating the time left"
        return f"[{'#' * fill}{'.' * (width - fill)}] {100 * frac:3.0f}% {what}, {_duration(el)} elapsed, {left}"

    def _draw(self) -> None:
        with self._lock:
            if self._stop.is_set():
                return
            self.stream.write("\r" + self.line() + "\x1b[K")
            self.stream.flush()
            self._drawn = time.perf_counter()

    def above(self, write: "Callable[[], None]") -> None:
        """Call ``write`` (which prints something) with the bar out of its way, then redraw it."""
        with self._lock:
            if self.tty:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
            write()
        if self.tty:
            self._draw()

    def update(self, k: int = 1) -> None:
        """Count ``k`` more units of work (the line is redrawn at most ten times a second)."""
        self.done += k
        if self.tty and time.perf_counter() - self._drawn >= 0.1:
            self._draw()

    def count(self, k: int = 1) -> None:
        """Count ``k`` more finished items."""
        self.finished += k

    def close(self) -> None:
        """Stop redrawing; on a terminal end the line, elsewhere print the summary if ``always``."""
        el = time.perf_counter() - self.start
        if self.tty:
            self._draw()
        with self._lock:
            self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.tty:
            self.stream.write("\n")
        elif self.always:
            n, total = (self.finished, self.items) if self.items is not None else (self.done, self.total)
            self.stream.write(f"{n}/{total} {self.label} in {_duration(el)}\n")
        self.stream.flush()


class ProcessPool:
    """Tasks spread over local worker processes: the ``--jobs`` executor.

    ``imap(fn, tasks, on_decisions)`` calls ``fn(task, sink)`` for every task and yields
    ``(index, result)`` as each finishes (in any order); ``sink(k)`` passes decision counts to
    ``on_decisions``, several times a second, from whichever process plays.  ``jobs`` of 1
    (or a single task) runs in this process.  The Ray executor,
    :class:`ohhell.bots.distributed.RayPool`, has the same interface, so a caller only
    chooses one; each task's seed comes from its own data, never from the worker.
    """

    def __init__(self, jobs: "int | None" = None) -> None:
        self.workers = max(1, jobs or os.cpu_count() or 1)

    def describe(self) -> str:
        """How the work is spread, for progress lines: ``'2 processes'``."""
        return f"{self.workers} process{'es' if self.workers > 1 else ''}"

    def close(self) -> None:
        """Nothing to release (the processes live only inside :meth:`imap`)."""

    def __enter__(self) -> "ProcessPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def imap(self, fn: Callable[..., Any], tasks: Sequence[Any],
             on_decisions: "Callable[[int], None] | None" = None) -> Iterator[tuple[int, Any]]:
        tasks = list(tasks)
        if self.workers <= 1 or len(tasks) <= 1:
            for i, t in enumerate(tasks):
                yield i, fn(t, on_decisions)
            return
        import multiprocessing as mp
        import queue as queues
        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        ticks = ctx.Queue() if on_decisions else None
        init = (_init_worker, (ticks,)) if ticks is not None else (None, ())
        reported = [0]

        def drain(wait: float = 0.0) -> None:
            while ticks is not None:
                try:
                    k = ticks.get(timeout=wait) if wait else ticks.get_nowait()
                except queues.Empty:
                    return
                reported[0] += k
                on_decisions(k)  # type: ignore[misc]
                if wait:
                    return

        sent = 0
        done = 0
        with ctx.Pool(min(self.workers, len(tasks)), initializer=init[0], initargs=init[1]) as pool:
            it = pool.imap_unordered(_call_in_worker, [(i, fn, t) for i, t in enumerate(tasks)])
            while done < len(tasks):
                try:
                    i, res, k = it.next(timeout=0.25)
                except mp.TimeoutError:
                    drain()
                    continue
                drain()
                sent += k
                done += 1
                yield i, res
        if ticks is not None:
            # A worker's counts travel through a pipe and may arrive after its task's result:
            # wait for the rest (each result says how many it sent), so every decision is
            # reported exactly once.
            while reported[0] < sent:
                before = reported[0]
                drain(wait=5.0)
                if reported[0] == before:       # lost (a worker died): report what is missing
                    on_decisions(sent - reported[0])  # type: ignore[misc]
                    break


def _call_in_worker(job: tuple) -> tuple[int, Any, int]:
    """In a :class:`ProcessPool` worker: ``(index, fn(task, sink), decisions sent)``."""
    i, fn, task = job
    sent = [0]
    sink = None
    if _WORKER_SINK is not None:
        def sink(k: int) -> None:
            sent[0] += k
            _WORKER_SINK(k)  # type: ignore[misc]
    return i, fn(task, sink), sent[0]


def run_match(rules: Rules, bots: Sequence[str], *, deals: int, seed: "int | str" = 1,
              jobs: "int | None" = None, budget: "Budget | None" = None, records: bool = False,
              progress: "Callable[[GameResult], None] | None" = None,
              on_decisions: "Callable[[int], None] | None" = None, pool: Any = None) -> MatchResult:
    """Play a duplicate match; returns its :class:`MatchResult`.

    ``bots`` are bot specs (:func:`parse_spec`), repeated around the table
    (:func:`lineup`); ``jobs`` worker processes (default: every core; 1 plays
    in this process), or ``pool``, an executor such as :class:`ProcessPool` or
    :class:`ohhell.bots.distributed.RayPool` (then ``jobs`` is unused).  Game ``i``'s deals
    and bots are seeded from ``seed`` and its deal set and rotation alone, so every executor
    plays the same games.  ``progress(result)`` is called after each game,
    ``on_decisions(k)`` several times a second while games run, with the number of
    decisions made since the last call (:func:`decisions_per_game` gives the total).

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
    if pool is None:
        pool = ProcessPool(jobs)
    start = time.perf_counter()
    results: list[GameResult] = []
    for _, res in pool.imap(play_one, tasks, on_decisions):
        results.append(res)
        if progress:
            progress(res)
    return MatchResult(rules, list(dict.fromkeys(seats)), str(seed), results, time.perf_counter() - start)
