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
fell.  **Luck** is the other view, from the real deal: what the analysis bot
would have scored in the seat, anchored on the real game.  In each finished
hand, up to the seat's first flagged mistake the seat did what the analysis
would have done (or close enough that the analysis cannot tell), so luck
follows the real game; at that mistake the best action is taken instead and the
rest of the hand played out on the real cards as the evaluation plays it out
(every seat on the heuristic policy, the other seats keeping their real bids:
:func:`ohhell.coach.evaluate.outcomes`), and each later card of the seat adds
the analysis's expected gain of its best card over the heuristic's (the
analysis bot would have played it).  A hand without a mistake has
``luck = score``; ``skill = score - luck``.

With ``lost`` the seat's points lost, ``score = luck - lost + chance`` holds
exactly, hand by hand, where ``chance`` is what the analysis expected of the
seat's decisions from the first mistake on minus what they did on the real
cards (each card after it against the heuristic's card, whose values telescope
along the hand), plus what the other seats' play after it did where it was not
the heuristic's, plus the (small, not flagged) losses before it
(tests/coach/test_luck.py checks this against the game engine; BENCHMARKS.md,
"Luck plus skill", measures how large each part is).

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
from .evaluate import Z95, Evaluation, evaluate, evaluate_bid, outcomes

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

#: How luck is worked out (the ``luck`` of an analysis's settings; older analyses have none,
#: and their luck is a fresh replay of each hand: ``luck_samples`` and ``luck_replays``).
LUCK_METHOD = "anchored"

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


def analyze_hand(record: dict, k: int, *, samples: int = DEFAULT_SAMPLES, seed: "int | str" = 0,
                 luck: bool = True, min_loss: float = MIN_LOSS, trace: bool = False,
                 progress: "Callable[[], None] | None" = None) -> dict:
    """The analysis of hand ``k`` (0-based) of ``record`` as a dict (see :class:`GameAnalysis`).

    Each hand is independent given the record, which is what ``jobs`` uses.  With ``trace``
    every decision of a finished hand also carries ``real``: what each legal action would
    have scored on the real cards (:func:`ohhell.coach.evaluate.outcomes`), for the
    benchmarks; it is not part of the annotation format.
    """
    game = Game.from_record(record)
    actions = _hands_actions(game)
    g = _at_hand(game, k, actions)
    n = game.players
    finished = len(game.past_hands) > k
    hr = game.past_hands[k] if finished else None
    decisions = []
    cards: dict[int, tuple[float, float]] = {}
    # Luck (module notes): where each seat's first flagged mistake of the hand was, what the
    # best action would have scored there on the real cards, and the analysis's expected gain
    # of its best card over the playouts' card at each of the seat's later cards.
    anchor: dict[int, tuple[int, float]] = {}
    gains = [0.0] * n
    # The sampling errors: of those gains (each paired over its decision's deals, independent
    # between decisions), and of the taken bid's value (cards - lost_bid), which with the play
    # losses is what the fall's estimate is made of.
    gains_var = [0.0] * n
    taken_bid_se: dict[int, float] = {}
    for i, (seat, action) in enumerate(actions[k]):
        view = g.view(seat)
        rng = random.Random(f"{seed}/{k}/{i}")
        ev = evaluate(view, samples, rng)
        if ev.kind == "bid":
            if ev.exact:       # a forced bid: sampled only for what the cards are worth
                ev2 = evaluate_bid(view, samples, rng, sample_forced=True)
                cards[seat] = (ev2.mean[0], ev2.se[0])
                taken_bid_se[seat] = ev2.se[0]
            else:
                cards[seat] = (ev.mean[ev.best], ev.se[ev.best])
                taken_bid_se[seat] = ev.se[ev.index(action)]
        d = _decision(view, ev, action, i, min_loss)
        if hr is not None and not ev.exact and (luck or trace):
            if seat in anchor:
                if "loss_policy" in d:
                    gains[seat] += d["loss"] - d["loss_policy"]
                    gains_var[seat] += _gain_se(ev, action, d["policy"]) ** 2
            if trace or (seat not in anchor and d["mistake"]):
                # The hand is over, so its cards are known: what each legal action scores on
                # the real deal, the rest of the hand played out as the evaluation plays it
                # out, the other seats keeping their real bids.
                real = outcomes(view, [g.hand_mask(s) for s in range(n)], hr.bids)
                if seat not in anchor and d["mistake"]:
                    anchor[seat] = (i, real[ev.best])
                if trace:
                    d["real"] = [_r(x) for x in real]
        decisions.append(d)
        g.apply(action, seat)
        if progress is not None:
            progress()
    seats = []
    for s in range(n):
        mine = [d for d in decisions if d["seat"] == s]
        row: dict[str, Any] = {"seat": s}
        for kind in ("bid", "play"):
            ds = [d for d in mine if d["kind"] == kind]
            row[f"lost_{kind}"] = _r(sum(d["loss"] for d in ds))
            row[f"lost_{kind}_se"] = _r(math.sqrt(sum(d["loss_se"] ** 2 for d in ds)))
        row["lost_se"] = _r(math.sqrt(sum(d["loss_se"] ** 2 for d in mine)))
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
                row["fall_se"] = _r(math.sqrt(taken_bid_se.get(s, 0.0) ** 2
                                              + sum(d["loss_se"] ** 2 for d in plays)))
            if luck:
                if s in anchor:
                    row["luck_from"] = anchor[s][0]
                    row["luck"] = _r(anchor[s][1] + gains[s])
                else:
                    row["luck"] = row["score"]
                row["luck_se"] = _r(math.sqrt(gains_var[s]))
                row["skill"] = _r(row["score"] - row["luck"])
                row["skill_se"] = row["luck_se"]
        seats.append(row)
    out: dict[str, Any] = {"hand": k, "hand_size": g.past_hands[k].hand_size if finished else game.hand_size,
                           "finished": finished, "decisions": decisions, "seats": seats}
    return out


def _gain_se(ev: Evaluation, action: Action, policy: "int | str") -> float:
    """The standard error of a card's ``loss - loss_policy`` (the analysis's expected gain of
    its best card over the policy's), from the per-deal differences of the two, which are
    paired over the same deals."""
    taken = ev.index(action)
    pi = next(i for i, a in enumerate(ev.actions) if _label(a) == policy)
    lost = ev.crossfit_diffs(taken) if ev.kind == "play" else [r[ev.best] - r[taken] for r in ev.returns]
    if pi == taken:
        return ev.paired_se(lost)
    return ev.paired_se([x - (r[pi] - r[taken]) for x, r in zip(lost, ev.returns)])


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
      ``score``, ``fall``, ``luck``, ``skill`` and ``luck_from`` (the index of the seat's first
      mistake of the hand, where its luck leaves the real game; absent without one), with the
      standard errors ``lost_se``, ``fall_se``, ``luck_se`` and ``skill_se`` (every estimated
      number has one; older analyses lack these four));
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
            if all("fall_se" in r for r in done):
                out["fall_se"] = _r(math.sqrt(sum(r["fall_se"] ** 2 for r in done)))
        if done and all("luck" in r for r in done):
            out["luck"] = _r(sum(r["luck"] for r in done))
            out["skill"] = _r(out["score"] - out["luck"])
            if all("luck_se" in r for r in done):
                out["luck_se"] = _r(math.sqrt(sum(r["luck_se"] ** 2 for r in done)))
                out["skill_se"] = out["luck_se"]
        ms = [(h, d) for h in hands for d in h["decisions"] if d["seat"] == s and d["mistake"]]
        ms.sort(key=lambda hd: (-hd[1]["loss"], hd[0]["hand"], hd[1]["index"]))
        out["top"] = [{"hand": h["hand"], "index": d["index"], "text": describe_mistake(h, d)}
                      for h, d in ms[:top]]
        seats.append(out)
    return seats


def analyze_game(source: "dict | str | bytes | Game", *, samples: int = DEFAULT_SAMPLES,
                 seed: "int | str" = 0, jobs: int = 1, progress: "Progress | None" = None,
                 luck: bool = True, min_loss: float = MIN_LOSS, top: int = 5,
                 trace: bool = False) -> GameAnalysis:
    """Analyse every decision of a game (a record as a dict or JSON text, or a :class:`~ohhell.Game`).

    :param samples: sampled deals per decision (more: smaller errors, slower).
    :param seed: the analysis's seed: the same record, samples and seed give the same result.
    :param jobs: processes to analyse hands in parallel (each hand is independent).
    :param progress: called as ``progress(done, total)`` in decisions, as the work advances.
    :param luck: work out each seat's luck and skill for every finished hand (one playout of
        the real deal per legal action of each decision: about 1% more time).
    :param min_loss: the smallest loss, in points, flagged as a mistake (it must also be
        significant: its 95% interval above zero).
    :param top: how many mistakes per seat to put in words.
    :param trace: also give every decision of a finished hand its ``real`` outcomes (what
        each legal action scores on the real cards), for the benchmarks.
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
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        raise ValueError(f"seed must be a number or text, not {seed!r}")
    rec, game = _load(source)
    actions = _hands_actions(game)
    total = sum(len(a) for a in actions)
    kw = dict(samples=samples, seed=seed, luck=luck, min_loss=min_loss, trace=trace)
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
    settings: dict[str, Any] = {"method": METHOD, "samples": samples, "seed": seed}
    if luck:
        settings["luck"] = LUCK_METHOD
    settings.update({"min_loss": min_loss, "confidence": 0.95})
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
