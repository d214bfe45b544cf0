"""Game analysis: every decision of every seat, the points it lost, and what the cards were worth.

:func:`analyze_game` replays a record decision by decision.  Each bid and
each card is evaluated from the deciding seat's view only
(:mod:`ohhell.coach.evaluate`): the expected score of every legal action,
the best of them, and the **expected points lost** by the action taken (the
best action's expected score minus the taken one's, with its standard error).
Per hand and per game it adds up each seat's points lost in bidding and in
play, and splits its score exactly as ``score = cards - lost + fall``: **cards**
is what the hand was worth as dealt (the expected score of the best bid, from
the seat's own information), **fall** how the unseen cards and the others' play
fell.  **Luck** is the other view, from the real deal: the score the analysis
bot makes in that seat (bidding the analysis's best bid, then playing each card
by the analysis, the other seats keeping their bids and playing the heuristic's
cards), with ``skill = score - luck``.

The result is plain data (:class:`GameAnalysis`, ``to_dict`` is JSON), and
:func:`annotate` adds it to the record as its ``analysis`` field, which
:meth:`ohhell.Game.from_record` ignores (docs/interfaces.md, "Analysis").

Everything is seeded: the same record, ``samples`` and ``seed`` give the same
analysis, with any number of ``jobs``.
"""

from __future__ import annotations

import copy
import math
import random
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from ..actions import Action, Bid, Play
from ..game import Game
from ..records import parse_record
from ..state import OVER
from ..bots.heuristic import HeuristicBot
from .evaluate import Z95, Evaluation, evaluate, evaluate_bid, evaluate_play

__all__ = ["GameAnalysis", "analyze_game", "annotate", "ANALYSIS_FORMAT", "ANALYSIS_VERSION",
           "DEFAULT_SAMPLES", "MIN_LOSS", "describe_mistake", "analysis_of", "decision_view"]

ANALYSIS_FORMAT = "ohhell.analysis"
ANALYSIS_VERSION = 1
#: Sampled deals per decision by default (the speed benchmark's setting).
DEFAULT_SAMPLES = 160
#: A loss is flagged as a mistake only when it is at least this many points ...
MIN_LOSS = 0.5
#: ... and its 95% interval lies above zero.

METHOD = ("flat Monte Carlo over the deciding seat's information set: deals of the hidden cards "
          "from the exact sampler, weighted by the bids seen; every legal action played out in "
          "every deal with the heuristic policy for every seat; a card's loss cross-fitted "
          "(best chosen on half the deals, loss measured on the other half)")

Progress = Callable[[int, int], None]


# --- replaying a record ---------------------------------------------------------------------------

def _load(source: "dict | str | bytes | Game") -> tuple[dict, Game]:
    """The record (a dict without any old analysis) and the replayed game."""
    if isinstance(source, Game):
        rec = source.record()
        return rec, source
    rec = dict(parse_record(source))
    rec.pop("analysis", None)
    return rec, Game.from_record(rec)


def _hands_actions(game: Game) -> list[list[tuple[int, Action]]]:
    """Every hand's ``(seat, action)`` list, in the order they were applied."""
    n = game.players
    sizes = [hr.hand_size for hr in game.past_hands]
    if game.phase != OVER:
        sizes.append(game.hand_size)
    out: list[list[tuple[int, Action]]] = [[] for _ in sizes]
    it = iter(game.actions())
    for k, h in enumerate(sizes):
        for _ in range(n + n * h):
            try:
                out[k].append(next(it))
            except StopIteration:
                return out
    return out


def _fresh(game: Game) -> Game:
    """A new game dealt as ``game`` was, before its first action."""
    deals: dict[int, tuple[Any, Any]] = {hr.index: (hr.deal, hr.trump_card) for hr in game.past_hands}
    if game.phase != OVER:
        deals[game.hand_index] = (game.deal, game.turned_card)
    first = game.past_hands[0].dealer if game.past_hands else game.dealer
    return Game.from_deals(game.rules, deals, seed=game.seed, dealer=first, names=game.names)


def _at_hand(game: Game, k: int, actions: list[list[tuple[int, Action]]]) -> Game:
    g = _fresh(game)
    for hand in actions[:k]:
        for seat, a in hand:
            g.apply(a, seat)
    return g


def decision_view(source: "dict | str | bytes | Game", hand: int, index: int):
    """The deciding seat's view at decision ``index`` (0-based, in play order) of hand ``hand``
    (0-based): what an analysis of that decision sees.  Returns ``(view, action taken)``.

    :raises RecordError: for a record that does not replay.
    :raises IndexError: for a decision the game does not have.
    """
    _, game = _load(source)
    actions = _hands_actions(game)
    if not 0 <= hand < len(actions) or not 0 <= index < len(actions[hand]):
        raise IndexError(f"the game has no decision {index} in hand {hand}")
    g = _at_hand(game, hand, actions)
    for seat, a in actions[hand][:index]:
        g.apply(a, seat)
    seat, a = actions[hand][index]
    return g.view(seat), a


# --- one hand ---------------------------------------------------------------------------------------

def _label(a: Action) -> "int | str":
    """A bid as its number of tricks, a card as its name (``"QS"``)."""
    if isinstance(a, Bid):
        return int(a.tricks)
    assert isinstance(a, Play)
    return str(a.card)


def _r(x: float, d: int = 3) -> float:
    v = round(float(x), d)
    return 0.0 if v == 0 else v


def _decision(view, ev: Evaluation, action: Action, index: int, min_loss: float) -> dict:
    taken = ev.index(action)
    best = ev.best
    # A card's loss is cross-fitted (best chosen on half the deals, measured on the other):
    # against the best-looking card of the same deals, play losses came out about 3 times
    # what they cost (BENCHMARKS.md, "Game analysis").  A bid's keeps the paired estimate,
    # which matched its cost one for one.
    loss, se = ev.crossfit_loss(taken) if ev.kind == "play" else ev.loss(taken, best)
    d: dict[str, Any] = {
        "index": index,
        "seat": view.seat,
        "kind": ev.kind,
        "action": _label(action),
        "best": _label(ev.actions[best]),
        "loss": _r(loss),
        "loss_se": _r(se),
        "mistake": bool(loss >= min_loss and loss - Z95 * se > 0),
    }
    if ev.kind == "play":
        d["trick"] = len(view.tricks) + 1
        if not ev.exact:
            # Against the card the playouts' own policy would play here (fixed before any
            # sampling, so no winner's curse): these telescope along the hand, since each
            # card's value assumes that policy from the next decision on, and so they add
            # up to the score with the cards (BENCHMARKS.md, "Luck plus skill").
            pi = ev.index(HeuristicBot().decide(view).action)
            lp, lps = ev.loss(taken, pi)
            d["policy"] = _label(ev.actions[pi])
            d["loss_policy"] = _r(lp)
            d["loss_policy_se"] = _r(lps)
    if ev.exact:
        d["forced"] = True
        return d
    d["deals"] = ev.deals
    d["values"] = [{"action": _label(a), "mean": _r(m), "se": _r(s)}
                   for a, m, s in zip(ev.actions, ev.mean, ev.se)]
    if ev.tricks is not None:
        d["tricks"] = {str(_label(a)): [_r(p, 4) for p in tr] for a, tr in zip(ev.actions, ev.tricks)}
    return d


def _nearest_bid(g: Game, seat: int, want: int) -> Action:
    legal = [a for a in g.legal_actions(seat) if isinstance(a, Bid)]
    return min(legal, key=lambda a: (abs(a.tricks - want), a.tricks))


def _luck(start: Game, k: int, seat: int, best_bid: int, bids: "tuple[int, ...]", order, samples: int,
          seed: "int | str", replay: int = 0) -> int:
    """The score the analysis bot makes in ``seat`` from hand ``k``'s real deal: it bids
    ``best_bid`` (the analysis's best bid), every other seat keeps its bid (the nearest legal
    one, should the hook now forbid it), and it plays each card as the analysis rates best,
    from its own view, while the other seats play the heuristic's cards."""
    g = start.copy()
    for s in order:
        g.apply(_nearest_bid(g, s, best_bid if s == seat else bids[s]), s)
    others = HeuristicBot()
    rng = random.Random(f"{seed}/{k}/luck/{seat}" + (f"/{replay}" if replay else ""))
    while g.hand_index == k and g.phase != OVER:
        p = g.to_act
        assert p is not None
        v = g.view(p)
        if p == seat:
            ev = evaluate_play(v, samples, rng)
            a = ev.actions[ev.best]
        else:
            a = others.decide(v).action
        g.apply(a, p)
    return int(g.past_hands[k].scores[seat])


def analyze_hand(record: dict, k: int, *, samples: int = DEFAULT_SAMPLES, seed: "int | str" = 0,
                 luck_samples: "int | None" = None, min_loss: float = MIN_LOSS, luck_replays: int = 1,
                 progress: "Callable[[], None] | None" = None) -> dict:
    """The analysis of hand ``k`` (0-based) of ``record`` as a dict (see :class:`GameAnalysis`).

    Each hand is independent given the record, which is what ``jobs`` uses.
    """
    game = Game.from_record(record)
    actions = _hands_actions(game)
    g = _at_hand(game, k, actions)
    start = g.copy()
    n = game.players
    decisions = []
    cards: dict[int, tuple[float, float]] = {}
    for i, (seat, action) in enumerate(actions[k]):
        view = g.view(seat)
        rng = random.Random(f"{seed}/{k}/{i}")
        ev = evaluate(view, samples, rng)
        if ev.kind == "bid":
            if ev.exact:       # a forced bid: sampled only for what the cards are worth
                ev2 = evaluate_bid(view, samples, rng, sample_forced=True)
                cards[seat] = (ev2.mean[0], ev2.se[0])
            else:
                cards[seat] = (ev.mean[ev.best], ev.se[ev.best])
        decisions.append(_decision(view, ev, action, i, min_loss))
        g.apply(action, seat)
        if progress is not None:
            progress()
    finished = len(game.past_hands) > k
    hr = game.past_hands[k] if finished else None
    seats = []
    for s in range(n):
        mine = [d for d in decisions if d["seat"] == s]
        row: dict[str, Any] = {"seat": s}
        for kind in ("bid", "play"):
            ds = [d for d in mine if d["kind"] == kind]
            row[f"lost_{kind}"] = _r(sum(d["loss"] for d in ds))
            row[f"lost_{kind}_se"] = _r(math.sqrt(sum(d["loss_se"] ** 2 for d in ds)))
        plays = [d for d in mine if d["kind"] == "play"]
        row["lost_play_policy"] = _r(sum(d.get("loss_policy", 0.0) for d in plays))
        row["lost_play_policy_se"] = _r(math.sqrt(sum(d.get("loss_policy_se", 0.0) ** 2 for d in plays)))
        row["mistakes"] = sum(1 for d in mine if d["mistake"])
        if s in cards:
            row["cards"] = _r(cards[s][0])
            row["cards_se"] = _r(cards[s][1])
        if hr is not None:
            row["bid"] = hr.bids[s]
            row["won"] = hr.tricks_won[s]
            row["score"] = hr.scores[s]
            if "cards" in row:
                row["fall"] = _r(row["score"] - row["cards"] + row["lost_bid"] + row["lost_play"])
            if luck_samples is None or luck_samples > 0:
                bid_d = next(d for d in mine if d["kind"] == "bid")
                ls = luck_samples if luck_samples is not None else max(16, samples // 3)
                lucks = [_luck(start, k, s, int(bid_d["best"]), hr.bids, hr.order, ls, seed, r)
                         for r in range(luck_replays)]
                if luck_replays == 1:
                    row["luck"] = lucks[0]
                    row["skill"] = row["score"] - row["luck"]
                else:
                    m = sum(lucks) / luck_replays
                    var = sum((x - m) ** 2 for x in lucks) / (luck_replays - 1)
                    row["luck"] = _r(m)
                    row["luck_se"] = _r(math.sqrt(var / luck_replays))
                    row["skill"] = _r(row["score"] - m)
        seats.append(row)
    out: dict[str, Any] = {"hand": k, "hand_size": g.past_hands[k].hand_size if finished else game.hand_size,
                           "finished": finished, "decisions": decisions, "seats": seats}
    return out


# --- the whole game ----------------------------------------------------------------------------------

def describe_mistake(hand: dict, d: dict) -> str:
    """A mistake in words: ``hand 6: bid 3, 1 was best; it cost 4.2 points (± 1.1)``."""
    where = f"hand {hand['hand'] + 1}"
    if d["kind"] == "bid":
        what = f"bid {d['action']}, {d['best']} was best"
    else:
        where += f", trick {d['trick']}"
        what = f"played {d['action']}, {d['best']} was best"
    return f"{where}: {what}; it cost {d['loss']:.1f} points (± {Z95 * d['loss_se']:.1f})"


@dataclass
class GameAnalysis:
    """The analysis of one game: plain, JSON-serialisable data.

    * ``players``: the seats' names; ``settings``: how it was made (samples, seed, method);
    * ``hands[k]``: ``decisions`` (one per action in play order: ``seat``, ``kind`` ``"bid"``
      or ``"play"``, ``trick``, ``action``, ``best``, ``loss`` and ``loss_se``, ``mistake``;
      ``values``, each legal action's ``mean`` and ``se``; for a bid ``tricks``, by bid, the
      probability of each number of tricks; ``forced`` for a single legal action) and
      ``seats`` (``lost_bid``, ``lost_play`` with their ``_se``, ``mistakes``, and for a
      seat that bid ``cards`` and ``cards_se``, and for a finished hand ``bid``, ``won``,
      ``score``, ``fall``, ``luck``, ``skill``);
    * ``seats[s]``: the game's totals of the same, and ``top``: the largest mistakes, in words.
    """

    players: list[str]
    settings: dict[str, Any]
    hands: list[dict]
    seats: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        """The analysis as a JSON object (the record's ``analysis`` field)."""
        return {"format": ANALYSIS_FORMAT, "version": ANALYSIS_VERSION, "settings": self.settings,
                "players": list(self.players), "seats": self.seats, "hands": self.hands}

    @classmethod
    def from_dict(cls, data: dict) -> "GameAnalysis":
        """An analysis read back from :meth:`to_dict`'s JSON.

        :raises ValueError: for data that is not an analysis of this version.
        """
        if not isinstance(data, dict) or data.get("format") != ANALYSIS_FORMAT:
            raise ValueError("not an ohhell analysis (its format must be 'ohhell.analysis')")
        if data.get("version") != ANALYSIS_VERSION:
            raise ValueError(f"analysis version {data.get('version')!r} is not supported "
                             f"(this reader knows version {ANALYSIS_VERSION})")
        return cls(list(data["players"]), dict(data["settings"]), list(data["hands"]), list(data["seats"]))

    def decisions(self, seat: "int | None" = None) -> Iterator[tuple[dict, dict]]:
        """Every ``(hand, decision)``, of one seat or of all."""
        for h in self.hands:
            for d in h["decisions"]:
                if seat is None or d["seat"] == seat:
                    yield h, d

    def mistakes(self, seat: "int | None" = None, top: "int | None" = None) -> list[tuple[dict, dict]]:
        """The flagged mistakes (largest loss first), of one seat or of all."""
        ms = [(h, d) for h, d in self.decisions(seat) if d["mistake"]]
        ms.sort(key=lambda hd: (-hd[1]["loss"], hd[0]["hand"], hd[1]["index"]))
        return ms[:top] if top is not None else ms


def _summarise(hands: list[dict], n: int, top: int) -> list[dict]:
    seats = []
    for s in range(n):
        rows = [h["seats"][s] for h in hands]
        done = [r for r in rows if "score" in r]
        out: dict[str, Any] = {"seat": s}
        for kind in ("bid", "play"):
            out[f"lost_{kind}"] = _r(sum(r[f"lost_{kind}"] for r in rows))
            out[f"lost_{kind}_se"] = _r(math.sqrt(sum(r[f"lost_{kind}_se"] ** 2 for r in rows)))
        out["lost"] = _r(out["lost_bid"] + out["lost_play"])
        out["lost_se"] = _r(math.hypot(out["lost_bid_se"], out["lost_play_se"]))
        out["lost_play_policy"] = _r(sum(r.get("lost_play_policy", 0.0) for r in rows))
        out["lost_play_policy_se"] = _r(math.sqrt(sum(r.get("lost_play_policy_se", 0.0) ** 2 for r in rows)))
        out["mistakes"] = sum(r["mistakes"] for r in rows)
        out["decisions"] = sum(1 for h in hands for d in h["decisions"] if d["seat"] == s)
        out["score"] = sum(r["score"] for r in done)
        if done and all("cards" in r for r in done):
            out["cards"] = _r(sum(r["cards"] for r in done))
            out["cards_se"] = _r(math.sqrt(sum(r["cards_se"] ** 2 for r in done)))
            out["fall"] = _r(sum(r["fall"] for r in done))
        if done and all("luck" in r for r in done):
            out["luck"] = _r(sum(r["luck"] for r in done)) if any("luck_se" in r for r in done) \
                else sum(r["luck"] for r in done)
            out["skill"] = out["score"] - out["luck"]
            if all("luck_se" in r for r in done):
                out["skill"] = _r(out["skill"])
                out["luck_se"] = _r(math.sqrt(sum(r["luck_se"] ** 2 for r in done)))
        ms = [(h, d) for h in hands for d in h["decisions"] if d["seat"] == s and d["mistake"]]
        ms.sort(key=lambda hd: (-hd[1]["loss"], hd[0]["hand"], hd[1]["index"]))
        out["top"] = [{"hand": h["hand"], "index": d["index"], "text": describe_mistake(h, d)}
                      for h, d in ms[:top]]
        seats.append(out)
    return seats


def analyze_game(source: "dict | str | bytes | Game", *, samples: int = DEFAULT_SAMPLES,
                 seed: "int | str" = 0, jobs: int = 1, progress: "Progress | None" = None,
                 luck: bool = True, luck_samples: "int | None" = None, min_loss: float = MIN_LOSS,
                 top: int = 5, luck_replays: int = 1) -> GameAnalysis:
    """Analyse every decision of a game (a record as a dict or JSON text, or a :class:`~ohhell.Game`).

    :param samples: sampled deals per decision (more: smaller errors, slower).
    :param seed: the analysis's seed: the same record, samples and seed give the same result.
    :param jobs: processes to analyse hands in parallel (each hand is independent).
    :param progress: called as ``progress(done, total)`` in decisions, as the work advances.
    :param luck: work out each seat's luck (the replays cost about a tenth more).
    :param luck_samples: sampled deals per card of the luck replays (default ``samples // 3``).
    :param luck_replays: replays per seat and hand, averaged; with 2 or more each luck has a
        standard error (``luck_se``).  One replay's own sampling moves a game's luck by about
        13 points (standard deviation, BENCHMARKS.md), so one replay is a rough figure.
    :param min_loss: the smallest loss, in points, flagged as a mistake (it must also be
        significant: its 95% interval above zero).
    :param top: how many mistakes per seat to put in words.
    :raises RecordError: for a record that does not replay (the message says where).
    :raises ValueError: for a bad setting.

    >>> import ohhell
    >>> g = ohhell.Game(ohhell.Rules(3, hand_sizes=[2]), seed=4)
    >>> while not g.is_over: g.apply(g.legal_actions()[0])
    >>> a = analyze_game(g, samples=20)
    >>> [len(h["decisions"]) for h in a.hands], a.seats[0]["lost"] >= 0
    ([9], True)
    """
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be a whole number of at least 1, not {samples!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a whole number of at least 1, not {jobs!r}")
    if isinstance(luck_replays, bool) or not isinstance(luck_replays, int) or luck_replays < 1:
        raise ValueError(f"luck_replays must be a whole number of at least 1, not {luck_replays!r}")
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        raise ValueError(f"seed must be a number or text, not {seed!r}")
    rec, game = _load(source)
    actions = _hands_actions(game)
    total = sum(len(a) for a in actions)
    ls = 0 if not luck else luck_samples
    kw = dict(samples=samples, seed=seed, luck_samples=ls, min_loss=min_loss, luck_replays=luck_replays)
    hands: list["dict | None"] = [None] * len(actions)
    done = 0
    if progress is not None:
        progress(0, total)
    if jobs == 1 or len(actions) == 1:
        def tick() -> None:
            nonlocal done
            done += 1
            if progress is not None:
                progress(done, total)
        for k in range(len(actions)):
            hands[k] = analyze_hand(rec, k, progress=tick, **kw)  # type: ignore[arg-type]
    else:
        order = sorted(range(len(actions)), key=lambda k: -len(actions[k]))
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(analyze_hand, rec, k, **kw): k for k in order}  # type: ignore[arg-type]
            for f in as_completed(futures):
                k = futures[f]
                hands[k] = f.result()
                done += len(actions[k])
                if progress is not None:
                    progress(done, total)
    hs = [h for h in hands if h is not None]
    settings = {"method": METHOD, "samples": samples, "seed": seed,
                "luck_samples": (ls if ls is not None else max(16, samples // 3)) if luck else 0,
                "luck_replays": luck_replays if luck else 0, "min_loss": min_loss, "confidence": 0.95}
    return GameAnalysis(list(game.names), settings, hs, _summarise(hs, game.players, top))


def annotate(record: "dict | Game", analysis: GameAnalysis) -> dict:
    """The record with the analysis as its ``analysis`` field (a copy; the record is unchanged).

    :meth:`ohhell.Game.from_record` reads the result as it reads the record.
    """
    rec = record.record() if isinstance(record, Game) else copy.deepcopy(dict(record))
    rec["analysis"] = analysis.to_dict()
    return rec


def analysis_of(record: dict) -> "GameAnalysis | None":
    """The analysis an annotated record carries, or ``None``.

    :raises ValueError: for an ``analysis`` field that is not one.
    """
    data = record.get("analysis")
    return None if data is None else GameAnalysis.from_dict(data)
