"""Batched simulation: many games of Oh Hell stepped at once in compiled kernels.

Two entry points:

* :func:`simulate`: whole games with uniformly random decisions, as fast as
  the machine goes (the throughput benchmark, rollouts, baselines);
* :class:`BatchedGames`: a vector of games stepped together for training and
  evaluation: legal-action masks, the ``observation`` encoding of the seat to
  act, ``step(actions)``, hand scores as rewards.

The kernels are compiled with numba (``pip install 'ohhell[fast]'``); without
it they run as plain Python (the same results, much slower).  Their rules are
exactly :class:`ohhell.Game`'s for every variant (see :mod:`._kernels`); with
``seeds=`` the games are dealt exactly as ``ohhell.Game(rules, seed=s)`` deals
them, so results can be compared with, or replayed by, the core.

>>> from ohhell import Rules
>>> from ohhell.env.batch import BatchedGames, simulate
>>> r = simulate(Rules(players=4), num_games=100, seed=1)
>>> r.decisions == 100 * (4 * 13 + 4 * 91), r.totals.shape
(True, (100, 4))
>>> b = BatchedGames(Rules(players=3, hand_sizes=[2]), num_games=8, seed=2)
>>> while not b.done.all():
...     scores, done = b.step(b.random_actions())
>>> bool((b.totals >= 0).all())
True
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .. import dealing
from ..errors import IllegalActionError, RulesError
from ..rules import Rules
from . import _kernels as K
from .aec import make_rules
from .encoding import Encoder, max_total

__all__ = ["BatchedGames", "simulate", "SimulationResult", "core_deals", "rules_vector", "HAVE_NUMBA"]

HAVE_NUMBA = K.HAVE_NUMBA


def rules_vector(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernels' view of a :class:`Rules`: ``(R, hand_sizes, trump_flags)``."""
    R = np.zeros(K.R_WIDTH, dtype=np.int64)
    R[K.R_N] = rules.players
    R[K.R_K] = len(rules.hand_sizes)
    R[K.R_HOOK] = rules.hook
    R[K.R_SIMUL] = rules.simultaneous_bidding
    R[K.R_MUST] = rules.must_trump
    R[K.R_MISSED] = rules.missed_bid_scores_tricks
    R[K.R_ZERO] = rules.zero_bid_scores_hand_size
    R[K.R_MAXH] = max(rules.hand_sizes)
    sizes = np.array(rules.hand_sizes, dtype=np.int64)
    trumps = np.array([rules.has_trump(k) for k in range(len(rules.hand_sizes))], dtype=np.int64)
    return R, sizes, trumps


def core_deals(rules: Rules, seeds: Sequence["int | str"],
               dealer: "int | None" = None) -> tuple[np.ndarray, np.ndarray]:
    """Every hand's deal of the games ``ohhell.Game(rules, seed=s, dealer=dealer)`` for each seed.

    Returns ``(D, first)``: ``D[g, k, s]`` is seat ``s``'s hand mask in hand
    ``k`` of game ``g`` and ``D[g, k, n]`` its trump card (-1: none);
    ``first[g]`` is the first dealer.
    """
    n = rules.players
    sizes = rules.hand_sizes
    D = np.zeros((len(seeds), len(sizes), n + 1), dtype=np.int64)
    first = np.zeros(len(seeds), dtype=np.int64)
    for g, seed in enumerate(seeds):
        d = dealing.first_dealer(seed, n) if dealer is None else dealer
        first[g] = d
        for k, h in enumerate(sizes):
            hands, trump = dealing.deal_from_key(dealing.hand_key(seed, k), n, h, (d + k) % n,
                                                 rules.has_trump(k))
            D[g, k, :n] = hands
            D[g, k, n] = trump
    return D, first


def _rng_states(seed: "int | None", count: int) -> np.ndarray:
    ss = np.random.SeedSequence(seed)
    return ss.generate_state(count, dtype=np.uint64)


@dataclass
class SimulationResult:
    """What :func:`simulate` returns."""

    decisions: int            #: bids and card plays made, all games together
    seconds: float            #: wall-clock time of the kernel (excluding compilation)
    totals: np.ndarray        #: final totals, shape (games, players)
    actions: "np.ndarray | None" = None  #: action ids per game (with ``record=True``), -1 padded

    @property
    def decisions_per_second(self) -> float:
        """Throughput."""
        return self.decisions / self.seconds if self.seconds > 0 else float("inf")


def max_decisions(rules: Rules) -> int:
    """The number of decisions in one game (bids plus card plays)."""
    return rules.players * (len(rules.hand_sizes) + sum(rules.hand_sizes))


def simulate(rules: "Rules | None" = None, num_games: int = 10_000, *, seed: "int | None" = None,
             seeds: "Sequence[int | str] | None" = None, dealer: "int | None" = None,
             uniforms: "np.ndarray | None" = None, record: bool = False, threads: int = 1,
             **fields: Any) -> SimulationResult:
    """Play ``num_games`` whole games with uniformly random legal decisions.

    :param seed: seeds the kernel's per-game random streams (deals and choices).
    :param seeds: deal game ``g`` exactly as ``ohhell.Game(rules, seed=seeds[g])``
        (overrides ``num_games``).
    :param uniforms: ``uniforms[g, i]`` in [0, 1) picks game ``g``'s ``i``-th
        decision: the ``floor(u * count)``-th legal action in ascending id
        order (for replaying the same choices through the core).
    :param record: return every game's action ids.
    :param threads: numba threads to spread the games over (default 1: one
        core, as in the benchmark against OpenSpiel's single-threaded loop;
        0: all cores).  The results do not depend on it.
    """
    rules = make_rules(rules, None, **fields)
    R, sizes, trumps = rules_vector(rules)
    n = rules.players
    if seeds is not None:
        D, first = core_deals(rules, list(seeds), dealer)
        num_games = len(seeds)
        mode = K.DEAL_GIVEN
    else:
        D = np.zeros((1, 1, 1), dtype=np.int64)
        first = np.full(num_games, -1 if dealer is None else dealer, dtype=np.int64)
        mode = K.DEAL_KERNEL
    if num_games < 1:
        raise ValueError("num_games must be at least 1")
    totals = np.zeros((num_games, 7), dtype=np.int64)
    scores = np.zeros((num_games, 7), dtype=np.int64)
    rng = _rng_states(seed, num_games)
    md = max_decisions(rules)
    U = np.zeros((num_games, 0)) if uniforms is None else np.ascontiguousarray(uniforms, dtype=np.float64)
    if uniforms is not None and U.shape != (num_games, md):
        raise ValueError(f"uniforms must have shape ({num_games}, {md})")
    rec = np.full((num_games, md if record else 0), -1, dtype=np.int64)
    with _threads(threads):
        t0 = time.perf_counter()
        decisions = K.k_playouts(R, sizes, trumps, D, rng, mode, scores, U, rec, first, totals)
        seconds = time.perf_counter() - t0
    return SimulationResult(int(decisions), seconds, totals[:, :n].copy(),
                            rec if record else None)


@contextmanager
def _threads(count: int):
    """Run numba's parallel kernels on ``count`` threads (0: all) inside the block."""
    if not HAVE_NUMBA:
        yield
        return
    import numba
    before = numba.get_num_threads()
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS if count == 0 else
                          max(1, min(count, numba.config.NUMBA_NUM_THREADS)))
    try:
        yield
    finally:
        numba.set_num_threads(before)


def warm_up() -> None:
    """Compile every kernel once (numba caches them on disk afterwards)."""
    simulate(Rules(3, hand_sizes=[1]), num_games=2, seed=0)
    b = BatchedGames(Rules(3, hand_sizes=[1]), num_games=2, seed=0)
    b.observe()
    b.step(b.random_actions())


class BatchedGames:
    """``num_games`` games under one rules, stepped together.

    Every game has its own seat to act (:attr:`to_act`); :meth:`step` takes
    one action id per game for that seat (ids as :func:`ohhell.action_from_id`;
    ignored for a finished game).  During simultaneous bidding the seats bid in
    the core's order and :meth:`observe` hides the others' bids until the reveal.

    :param rules: the rules (or ``preset`` and/or rules fields as keywords).
    :param seed: seeds the per-game random streams (deals, first dealers and
        :meth:`random_actions`).
    :param seeds: instead, deal game ``g`` exactly as ``ohhell.Game(rules, seed=seeds[g])``.
    :param dealer: the first dealer of every game (default: drawn).
    :param autoreset: start a finished game again (new deals) inside :meth:`step`
        (not with ``seeds``); the step's ``done`` still reports it.
    :param threads: numba threads per call (default 1; 0: all cores).  One
        step of a few thousand games takes well under a millisecond, so more
        threads help only with very large batches on an otherwise idle
        machine; on a busy one, waking threads costs more than they save.
        Results never depend on it.
    """

    def __init__(self, rules: "Rules | None" = None, num_games: int = 1024, *,
                 seed: "int | None" = None, seeds: "Sequence[int | str] | None" = None,
                 dealer: "int | None" = None, autoreset: bool = False, threads: int = 1,
                 preset: "str | None" = None, **fields: Any) -> None:
        self.rules = make_rules(rules, preset, **fields)
        self.threads = threads
        n = self.rules.players
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)
                                   or not 0 <= dealer < n):
            raise RulesError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        if seeds is not None and autoreset:
            raise ValueError("autoreset needs kernel deals; it cannot be combined with seeds")
        self._R, self._sizes, self._trumps = rules_vector(self.rules)
        self.num_games = len(seeds) if seeds is not None else int(num_games)
        if self.num_games < 1:
            raise ValueError("num_games must be at least 1")
        self.dealer = dealer
        self.autoreset = autoreset
        self.num_actions = 52 + max(self.rules.hand_sizes) + 1
        self.encoder = Encoder(self.rules, "observation")
        self._off = np.array([s.start for s in self.encoder.layout], dtype=np.int64)
        self._scale = float(max_total(self.rules))
        G = self.num_games
        self.S = np.zeros((G, K.WIDTH), dtype=np.int64)
        self._deck = np.zeros((G, 52), dtype=np.int64)
        self._scores = np.zeros((G, 7), dtype=np.int64)
        self.reset(seed=seed, seeds=seeds)

    def reset(self, seed: "int | None" = None, seeds: "Sequence[int | str] | None" = None) -> None:
        """Start every game again with new deals (from ``seed``, or exactly those of ``seeds``)."""
        G = self.num_games
        if seeds is not None:
            if len(seeds) != G:
                raise ValueError(f"{len(seeds)} seeds for {G} games")
            self._D, self._first = core_deals(self.rules, list(seeds), self.dealer)
            self._mode = K.DEAL_GIVEN
        else:
            self._D = np.zeros((1, 1, 1), dtype=np.int64)
            self._first = np.full(G, -1 if self.dealer is None else self.dealer, dtype=np.int64)
            self._mode = K.DEAL_KERNEL
        self._rng = _rng_states(seed, G)
        with _threads(self.threads):
            K.k_start(self.S, self._first, self._R, self._sizes, self._trumps, self._D, self._rng,
                      self._mode, self._deck, np.arange(G, dtype=np.int64))

    # --- reading ---------------------------------------------------------------------------------

    @property
    def to_act(self) -> np.ndarray:
        """The seat to act in each game (-1 for a finished game)."""
        return self.S[:, K.F_TOACT].copy()

    @property
    def done(self) -> np.ndarray:
        """Whether each game is over."""
        return self.S[:, K.F_PHASE] == K.OVER

    @property
    def phase(self) -> np.ndarray:
        """0 bidding, 1 playing, 2 over."""
        return self.S[:, K.F_PHASE].copy()

    @property
    def hand_index(self) -> np.ndarray:
        """The current hand of each game (0-based)."""
        return self.S[:, K.F_K].copy()

    @property
    def totals(self) -> np.ndarray:
        """Total scores, shape (games, players)."""
        return self.S[:, K.O_TOT:K.O_TOT + self.rules.players].copy()

    @property
    def decisions(self) -> int:
        """Decisions made so far in the current games."""
        return int(self.S[:, K.F_DECISIONS].sum())

    def legal_mask(self) -> np.ndarray:
        """``mask[g, a]`` = 1 when action id ``a`` is legal for game ``g``'s seat to act (int8)."""
        out = np.empty((self.num_games, self.num_actions), dtype=np.int8)
        with _threads(self.threads):
            K.k_legal_mask(self.S, self._R, out)
        return out

    def observe(self, seats: "np.ndarray | None" = None) -> np.ndarray:
        """The ``observation`` encoding of each game for ``seats[g]`` (default: the seat to act).

        Identical to ``Encoder(rules).encode(game.view(seat))`` of the same state.
        """
        if seats is None:
            seats = np.where(self.S[:, K.F_PHASE] == K.OVER, 0, self.S[:, K.F_TOACT])
        seats = np.asarray(seats, dtype=np.int64)
        out = np.empty((self.num_games, self.encoder.size), dtype=np.float32)
        with _threads(self.threads):
            K.k_observe(self.S, self._R, seats, self._off, int(self._R[K.R_MAXH]), self._scale, out)
        return out

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action id per game (-1 for a finished game)."""
        out = np.empty(self.num_games, dtype=np.int64)
        with _threads(self.threads):
            K.k_random_actions(self.S, self._R, self._rng, out)
        return out

    # --- acting ----------------------------------------------------------------------------------

    def step(self, actions: "np.ndarray | Sequence[int]") -> tuple[np.ndarray, np.ndarray]:
        """Apply one action id per game for its seat to act.

        Returns ``(scores, done)``: ``scores[g, s]`` is what seat ``s`` scored in
        a hand of game ``g`` that ended with this step (0 otherwise) and
        ``done[g]`` whether game ``g`` ended (with ``autoreset`` it has already
        been dealt again).

        :raises IllegalActionError: naming the first game whose action is
            illegal; then no game changes.
        """
        a = np.asarray(actions, dtype=np.int64)
        if a.shape != (self.num_games,):
            raise ValueError(f"step needs {self.num_games} actions, got shape {a.shape}")
        live = self.S[:, K.F_PHASE] != K.OVER
        checked = np.where(live, a, 0)
        g = K.k_check(self.S, self._R, checked)
        if g >= 0:
            raise IllegalActionError(f"illegal action id {int(a[g])} in game {g} for seat "
                                     f"{int(self.S[g, K.F_TOACT])}; nothing was applied",
                                     seat=int(self.S[g, K.F_TOACT]), action=int(a[g]))
        with _threads(self.threads):
            K.k_step(self.S, self._R, checked, self._sizes, self._trumps, self._D, self._rng, self._mode,
                     self._deck, self._scores)
        n = self.rules.players
        scores = self._scores[:, :n].copy()
        done = (self.S[:, K.F_PHASE] == K.OVER) & live
        if self.autoreset and done.any():
            rows = np.flatnonzero(done).astype(np.int64)
            with _threads(self.threads):
                K.k_start(self.S, self._first, self._R, self._sizes, self._trumps, self._D, self._rng,
                          self._mode, self._deck, rows)
        return scores, done

    def __repr__(self) -> str:
        return (f"<BatchedGames {self.num_games} games, {self.rules.describe()}, "
                f"{int(self.done.sum())} over>")
