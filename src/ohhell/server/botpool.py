"""Bots for server seats, thinking off the event loop, fairly shared.

A bot decision runs in a worker process (default) or thread, never on the
event loop.  Each decision uses a fresh bot seeded from the game's secret
seed, the seat and the number of actions so far (:func:`bot_seed`), so a table
replayed after a restart makes exactly the decisions it would have made
without one.

The workers are shared fairly (:class:`BotPool`): decisions wait in one queue
per creator (the address that created the table) and, inside it, one per
table; a free worker takes the next decision round-robin over creators, then
over that creator's tables.  One creator never holds more than ``per_creator``
workers at once (plus one decision handed over early, so a worker never idles
between decisions), so whoever else is waiting gets one of the next free ones.  Under
load, bots think less instead of making others wait: a decision's time budget
shrinks with its creator's backlog and with the number of creators sharing the
pool (:meth:`BotPool.budget_for`).
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import functools
import multiprocessing
import os
from typing import Any, Callable

from ..bots.base import Budget
from ..view import View

__all__ = ["BotPool", "bot_seed", "decide", "bot_names", "default_bot"]


def bot_seed(game_seed: str, seat: int, action_count: int) -> str:
    """The seed of the bot that acts for ``seat`` after ``action_count`` actions of a game."""
    return f"{game_seed}/bot/{seat}/{action_count}"


def bot_names() -> list[str]:
    """The bot names (and levels) a seat can be given: every registered bot but those
    for measuring only (:data:`ohhell.bots.MEASURING_ONLY`, which may think for a minute)
    and those whose package is not installed here (:func:`ohhell.bots.available`)."""
    from .. import bots
    return [n for n in bots.names() if n not in bots.MEASURING_ONLY and bots.available(n)]


def default_bot() -> str:
    """The bot a seat gets when none is named: :func:`ohhell.bots.default_bot`, the one default
    of every front end (``intermediate``)."""
    from .. import bots
    return bots.default_bot()


def decide(name: str, seed: str, view: View, budget: "Budget | None" = None) -> "int | str":
    """One decision: the action (as JSON: a bid or a card name) bot ``name`` takes in ``view``
    (within ``budget``, or the bot's own default without one)."""
    from .. import bots
    action = bots.make(name, seed=seed).act(view, budget)
    return action.to_json()


class _Job:
    __slots__ = ("name", "seed", "view", "creator", "table", "future")

    def __init__(self, name: str, seed: str, view: View, creator: str, table: str,
                 future: asyncio.Future) -> None:
        self.name, self.seed, self.view = name, seed, view
        self.creator, self.table, self.future = creator, table, future


def _watch_parent(parent: int) -> None:
    """Worker initializer: exit when the server is gone (even after a kill -9), so no worker
    outlives it."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)
    threading.Thread(target=watch, daemon=True, name="ohhell-parent-watch").start()


class BotPool:
    """Runs bot decisions in a pool of processes (``kind="process"``) or threads, shared
    fairly between creators and tables (see the module's text).

    :param workers: pool size (default: one less than the CPUs, at least 1).
    :param per_creator: the most workers one creator's tables use at once (default: half
        the workers, at least 1).
    :param full_seconds: the thinking time a decision gets when the pool is not loaded
        (``None``: the bot's own default); under load it shrinks (see :meth:`budget_for`).
    :param min_seconds: the least thinking time a decision is given under load.
    """

    def __init__(self, kind: str = "process", workers: "int | None" = None, *,
                 per_creator: "int | None" = None, full_seconds: "float | None" = None,
                 min_seconds: float = 0.05) -> None:
        if kind not in ("process", "thread"):
            raise ValueError(f"bot pool kind is 'process' or 'thread', not {kind!r}")
        self.kind = kind
        self.workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self.per_creator = per_creator or max(1, self.workers // 2)
        self.full_seconds = full_seconds
        self.min_seconds = min_seconds
        self._executor: "concurrent.futures.Executor | None" = None
        #: creator -> table -> decisions waiting (both in round-robin order)
        self._queues: "collections.OrderedDict[str, collections.OrderedDict[str, collections.deque[_Job]]]" = \
            collections.OrderedDict()
        self._waiting: dict[str, int] = {}   # creator -> decisions queued
        self._running: dict[str, int] = {}   # creator -> decisions being thought about
        self._busy = 0
        #: decisions started, and how many of them with a reduced budget (for ``/healthz``)
        self.started = 0
        self.degraded = 0
        #: called as ``on_load(saturated)`` when :meth:`saturated` changes (the replay
        #: analyses pause while the pool is saturated: :mod:`ohhell.server.analysis_jobs`)
        self.on_load: "Callable[[bool], None] | None" = None
        self._saturated = False

    def _pool(self) -> concurrent.futures.Executor:
        if self._executor is None:
            if self.kind == "process":
                ctx = multiprocessing.get_context("spawn")
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    self.workers, mp_context=ctx, initializer=_watch_parent, initargs=(os.getpid(),))
            else:
                self._executor = concurrent.futures.ThreadPoolExecutor(self.workers,
                                                                       thread_name_prefix="ohhell-bot")
        return self._executor

    async def decide(self, name: str, seed: str, view: View, *, creator: str = "",
                     table: str = "") -> Any:
        """The action bot ``name`` takes in ``view`` (see :func:`decide`), once a worker is free
        for this ``creator`` and ``table``; cancelling the caller drops a queued decision."""
        loop = asyncio.get_running_loop()
        job = _Job(name, seed, view, creator, table, loop.create_future())
        tables = self._queues.get(creator)
        if tables is None:   # a creator (or table) with nothing waiting goes first: it is owed a turn
            tables = self._queues[creator] = collections.OrderedDict()
            self._queues.move_to_end(creator, last=False)
        if table not in tables:
            tables[table] = collections.deque()
            tables.move_to_end(table, last=False)
        tables[table].append(job)
        self._waiting[creator] = self._waiting.get(creator, 0) + 1
        self._dispatch()
        try:
            return await job.future
        except asyncio.CancelledError:
            job.future.cancel()
            raise

    def budget_for(self, creator: str) -> "Budget | None":
        """The thinking budget of a decision of ``creator`` started now: the full one while the
        pool keeps up, else ``full / load`` seconds (at least ``min_seconds``).  The load is the
        larger of the creator's own backlog per worker it may use and the number of creators
        with bot work per worker (each one's fair share).  So a creator who floods the pool gets
        fast, weak bots, the others keep most of their budget, and when many creators share
        the pool everyone thinks a little less rather than waiting longer."""
        active = len(self._waiting.keys() | self._running.keys() | {creator})
        load = max(self._waiting.get(creator, 0) / self.per_creator, active / self.workers)
        if load <= 1.0:
            return None if self.full_seconds is None else Budget(seconds=self.full_seconds)
        full = self.full_seconds if self.full_seconds is not None else 1.0
        return Budget(seconds=max(self.min_seconds, full / load))

    def queued(self) -> int:
        """Decisions waiting for a worker."""
        return sum(self._waiting.values())

    def saturated(self) -> bool:
        """Whether bots want more than the pool has: decisions waiting, or every worker busy."""
        return self._busy >= self.workers or bool(self._waiting)

    def _load_changed(self) -> None:
        now = self.saturated()
        if now != self._saturated:
            self._saturated = now
            if self.on_load is not None:
                self.on_load(now)

    def _next(self) -> "_Job | None":
        """The next decision to start: round-robin over creators (skipping those at their cap:
        ``per_creator`` workers, plus the one decision handed over early), then over the
        creator's tables."""
        for _ in range(len(self._queues)):
            creator, tables = next(iter(self._queues.items()))
            self._queues.move_to_end(creator)
            if self._running.get(creator, 0) >= self.per_creator + 1:   # (+1: the one handed over early)
                continue
            table, jobs = next(iter(tables.items()))
            job = jobs.popleft()
            if jobs:
                tables.move_to_end(table)
            else:
                del tables[table]
            if not tables:
                del self._queues[creator]
            self._waiting[creator] -= 1
            if not self._waiting[creator]:
                del self._waiting[creator]
            return job
        return None

    def _dispatch(self) -> None:
        # One decision more than the workers is handed over, so a worker that finishes finds
        # the next one waiting instead of idling while the loop hears of the last (the
        # executor's own pipelining).
        try:
            self._dispatch_some()
        finally:
            self._load_changed()

    def _dispatch_some(self) -> None:
        while self._busy < self.workers + 1:
            job = self._next()
            if job is None:
                return
            if job.future.done():   # its table stopped waiting
                continue
            budget = self.budget_for(job.creator)
            self.started += 1
            if budget is not None and (self.full_seconds is None or budget.seconds != self.full_seconds):
                self.degraded += 1
            self._busy += 1
            self._running[job.creator] = self._running.get(job.creator, 0) + 1
            loop = asyncio.get_running_loop()
            try:
                work = loop.run_in_executor(self._pool(), decide, job.name, job.seed, job.view, budget)
            except Exception as e:  # the pool is shut down
                self._finished(job, None, e)
                continue
            work.add_done_callback(functools.partial(self._work_done, job))

    def _work_done(self, job: _Job, work: "asyncio.Future") -> None:
        self._finished(job, work, None)

    def _finished(self, job: _Job, work: "asyncio.Future | None", error: "BaseException | None") -> None:
        self._busy -= 1
        self._running[job.creator] -= 1
        if not self._running[job.creator]:
            del self._running[job.creator]
        if not job.future.done():
            if error is None and work is not None:
                error = work.exception() if not work.cancelled() else asyncio.CancelledError()
            if error is not None:
                job.future.set_exception(error)
            else:
                job.future.set_result(work.result())  # type: ignore[union-attr]
        elif work is not None and not work.cancelled():
            work.exception()  # retrieved: nobody waits for it any more
        self._dispatch()

    async def hint(self, view: View, seconds: float) -> dict:
        """A hint for the seat of ``view`` (:func:`ohhell.bots.hints.hint_for`, the hint bot
        thinking at most ``seconds``), in a worker: from that seat's own view only, never on the
        event loop.  Hints are not queued behind the tables' bot decisions (a connection asks for
        at most one at a time, and rarely: the table rate-limits them)."""
        from ..bots.hints import hint_bot_name, hint_for
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), hint_for, hint_bot_name(), view, seconds)

    def close(self) -> None:
        """Stop the workers (pending decisions are dropped; tables resume them on restart)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
