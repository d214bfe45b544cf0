"""Replay analysis: each finished game analysed by the coach (:mod:`ohhell.coach`) in the
background, stored, and served to its replay page.

When a game ends its analysis is queued (charged to the table's creator); a finished game
with no stored analysis (one that ended before this server, or whose analysis was lost to a
restart while queued) is queued on the first request for it (charged to the requester's
address).  One job runs at a time, in **a worker of its own** (a single process at the
lowest CPU priority, ``nice`` 19, or a thread with a thread bot pool, or a Ray worker with
``ohhell serve --ray``: :class:`ohhell.bots.distributed.RayJobs`), never in the bot
pool's workers, and it **yields to the bots**: whenever the bot pool has decisions waiting or
every bot worker busy (:meth:`~ohhell.server.botpool.BotPool.saturated`), the analysis pauses
before its next decision until the pool has room again.  A live table's bot therefore never
waits for an analysis; an analysis waits for them.

Requested jobs (someone has the replay open) go before the ones queued at a game's end;
otherwise first come, first served.  Each creator (or address) may have
:data:`MAX_QUEUED_PER_CREATOR` analyses waiting, and the queue holds at most
:data:`MAX_QUEUED`; more are refused (``too_many_analyses``) and can be asked for again later.

The result, :meth:`ohhell.coach.GameAnalysis.to_dict`, is stored keyed by table and game
(``ohhell_analysis``, schema 5), so it survives restarts and is computed once.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import threading
from dataclasses import dataclass, field
from typing import Any

from ..bots.distributed import RayPoolError
from .botpool import BotPool, _watch_parent
from .config import TableError
from .storage import Store, StoreError

__all__ = ["AnalysisJobs", "DEFAULT_ANALYSIS_SAMPLES", "MAX_QUEUED_PER_CREATOR", "MAX_QUEUED"]

log = logging.getLogger("ohhell.server")

#: Sampled deals per decision of the server's analyses (``ohhell serve --analysis-samples``);
#: fewer than ``ohhell analyze``'s default, so a game is ready minutes, not tens of minutes,
#: after it ends on a small server.  The page shows each loss with its interval.
DEFAULT_ANALYSIS_SAMPLES = 48
#: Analyses one creator (or address) may have waiting at once.
MAX_QUEUED_PER_CREATOR = 5
#: Analyses waiting on the whole server at once.
MAX_QUEUED = 500


class _Stopped(Exception):
    """The server is stopping: the running analysis gives up."""


# --- the worker (a process of its own, or a thread) ---------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(parent: int, progress: Any, go: Any, stop: Any) -> None:
    """A worker process's start: the lowest CPU priority, and the shared progress and flags."""
    try:
        os.nice(19)
    except OSError:  # pragma: no cover - not permitted here
        pass
    _WORKER.update(progress=progress, go=go, stop=stop)
    _watch_parent(parent)


def _analyse(record: dict, samples: int, seed: str, shared: "dict | None" = None) -> dict:
    """Analyse one game (in the worker), pausing before each decision while ``go`` is clear."""
    from ..coach import analyze_game
    s = shared if shared is not None else _WORKER
    progress, go, stop = s["progress"], s["go"], s["stop"]

    def tick(done: int, total: int) -> None:
        while not go.wait(0.5):     # the bots need the CPU: wait for them
            if stop.is_set():
                raise _Stopped()
        if stop.is_set():
            raise _Stopped()
        progress.value = done / total if total else 1.0

    progress.value = 0.0
    return analyze_game(record, samples=samples, seed=seed, progress=tick).to_dict()


class _Progress:
    """A thread worker's progress (a process worker's is a shared ``multiprocessing.Value``)."""

    def __init__(self) -> None:
        self.value = 0.0


@dataclass
class _Job:
    table: str
    game: int
    creator: str
    record: dict
    wanted: bool = False                # someone asked for it (their replay page is open)
    error: "str | None" = None
    done: asyncio.Event = field(default_factory=asyncio.Event)


class AnalysisJobs:
    """The background analyses of one server (see the module's text).

    :param store: where results are kept.
    :param pool: the bot pool the analyses yield to.
    :param kind: ``process`` (a worker process of its own), ``thread``, or ``ray`` (a worker of
        the Ray cluster at ``ray_address``, or of a Ray instance started here when it is
        ``None``; :class:`ohhell.bots.distributed.RayJobs`).
    :param samples: sampled deals per decision.
    :param per_creator: analyses one creator or address may have waiting.
    :param max_queued: analyses waiting on the whole server.
    """

    def __init__(self, store: Store, pool: BotPool, *, kind: str = "process",
                 samples: int = DEFAULT_ANALYSIS_SAMPLES, per_creator: int = MAX_QUEUED_PER_CREATOR,
                 max_queued: int = MAX_QUEUED, ray_address: "str | None" = None) -> None:
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ValueError(f"analysis samples must be a whole number of at least 1, not {samples!r}")
        self.store = store
        self.pool = pool
        self.kind = kind
        self.samples = samples
        self.per_creator = per_creator
        self.max_queued = max_queued
        self._queue: "collections.OrderedDict[tuple[str, int], _Job]" = collections.OrderedDict()
        self._running: "_Job | None" = None
        self._failed: dict[tuple[str, int], str] = {}
        self._wake: "asyncio.Event | None" = None
        self._task: "asyncio.Task | None" = None
        self._executor: "concurrent.futures.Executor | None" = None
        self._ray: Any = None
        if kind == "ray":
            from ..bots.distributed import RayJobs
            self._ray = RayJobs(ray_address)    # RayUnavailable: Ray missing, a bad address
        if kind == "process":
            ctx = multiprocessing.get_context("spawn")
            self._ctx: Any = ctx
            self._progress: Any = ctx.Value("d", 0.0, lock=False)
            self._go: Any = ctx.Event()
            self._stop: Any = ctx.Event()
        else:
            self._ctx = None
            self._progress = _Progress()
            self._go = threading.Event()
            self._stop = threading.Event()
        self._go.set()
        #: analyses finished, and how often one paused for the bots (for ``/healthz`` and tests)
        self.completed = 0
        self.pauses = 0
        pool.on_load = self._pool_load

    # --- yielding to the bots -----------------------------------------------------------------

    def _pool_load(self, saturated: bool) -> None:
        """The bot pool's load changed: pause the analysis while it is saturated."""
        if saturated:
            if self._go.is_set():
                self._go.clear()
                if self._running is not None:
                    self.pauses += 1
        elif not self._go.is_set():
            self._go.set()

    @property
    def paused(self) -> bool:
        """Whether the analysis is waiting for the bots."""
        return not self._go.is_set()

    # --- the queue ------------------------------------------------------------------------------

    def start(self) -> None:
        self._wake = asyncio.Event()
        self._task = asyncio.create_task(self._run(), name="ohhell analyses")

    async def stop(self) -> None:
        self._stop.set()
        self._go.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        if self._ray is not None:
            self._ray.close()
            self._ray = None

    def queued_by(self, creator: str) -> int:
        return sum(1 for j in self._queue.values() if j.creator == creator)

    def game_over(self, table: Any, game: int, record: dict) -> None:
        """A game ended at ``table``: queue its analysis for the table's creator (quietly
        skipped when the creator or the server is at its limit; a request queues it later)."""
        try:
            self.enqueue(table.id, game, record, table.creator or table.id, wanted=False)
        except TableError as e:
            log.info("table %s game %d: analysis not queued now (%s)", table.id, game, e.message)

    def enqueue(self, table_id: str, game: int, record: dict, creator: str, *, wanted: bool) -> None:
        """Queue a game's analysis (a requested one goes ahead of those queued at games' ends).

        :raises TableError: ``too_many_analyses`` over the creator's or the server's limit.
        """
        key = (table_id, game)
        if self._running is not None and (self._running.table, self._running.game) == key:
            return
        job = self._queue.get(key)
        if job is not None:
            if wanted and not job.wanted:
                job.wanted = True
            return
        if self.queued_by(creator) >= self.per_creator:
            raise TableError("too_many_analyses", f"{self.per_creator} analyses asked for from here are "
                                                  "waiting already; try again when one is ready")
        if len(self._queue) >= self.max_queued:
            raise TableError("too_many_analyses", "the server has many analyses waiting; try again later")
        self._queue[key] = _Job(table_id, game, creator, record, wanted)
        if self._wake is not None:
            self._wake.set()

    def status(self, table_id: str, game: int) -> "dict | None":
        """``queued``/``running`` with its progress, ``failed``, or ``None`` (not queued)."""
        key = (table_id, game)
        run = self._running
        if run is not None and (run.table, run.game) == key:
            return {"status": "running", "progress": round(min(1.0, max(0.0, self._progress.value)), 3),
                    "paused": self.paused}
        if key in self._queue:
            job = self._queue[key]
            keys = list(self._queue)
            before = keys[:keys.index(key)]
            # the wanted ones before it, and a job nobody asked for waits for every wanted one too
            ahead = sum(1 for k in (before if job.wanted else keys) if self._queue[k].wanted)
            if not job.wanted:
                ahead += sum(1 for k in before if not self._queue[k].wanted)
            return {"status": "queued", "progress": 0.0, "ahead": ahead + (run is not None)}
        if key in self._failed:
            return {"status": "failed", "message": self._failed[key]}
        return None

    def _next(self) -> "_Job | None":
        for key, job in self._queue.items():
            if job.wanted:
                return self._queue.pop(key)
        if self._queue:
            return self._queue.popitem(last=False)[1]
        return None

    def _pool(self) -> concurrent.futures.Executor:
        if self._executor is None:
            if self.kind == "process":
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    1, mp_context=self._ctx, initializer=_init_worker,
                    initargs=(os.getpid(), self._progress, self._go, self._stop))
            else:
                self._executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ohhell-analysis")
        return self._executor

    async def _run(self) -> None:
        assert self._wake is not None
        loop = asyncio.get_running_loop()
        while True:
            job = self._next()
            if job is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            self._running = job
            self._progress.value = 0.0
            seed = f"{job.table}/{job.game}"
            try:
                if self._ray is not None:
                    work = self._ray.run(_analyse, job.record, self.samples, seed, progress=self._progress,
                                         go=self._go, stop=self._stop)
                elif self.kind == "process":
                    work = loop.run_in_executor(self._pool(), _analyse, job.record, self.samples, seed)
                else:
                    shared = {"progress": self._progress, "go": self._go, "stop": self._stop}
                    work = loop.run_in_executor(self._pool(), _analyse, job.record, self.samples, seed, shared)
                result = await work
                await self.store.put_analysis(job.table, job.game, result)
                self.completed += 1
            except asyncio.CancelledError:
                raise
            except concurrent.futures.process.BrokenProcessPool:
                self._executor = None
                self._failed[(job.table, job.game)] = "the analysis worker stopped; reload to try again"
                log.error("table %s game %d: the analysis worker stopped", job.table, job.game)
            except RayPoolError:
                self._failed[(job.table, job.game)] = "the analysis worker stopped; reload to try again"
                log.error("table %s game %d: the Ray worker of the analysis stopped", job.table, job.game)
            except StoreError as e:
                self._failed[(job.table, job.game)] = "the analysis could not be saved; reload to try again"
                log.error("table %s game %d: %s", job.table, job.game, e)
            except Exception as e:  # a record the coach cannot read: said once, not retried
                self._failed[(job.table, job.game)] = f"this game could not be analysed: {e}"
                log.exception("table %s game %d: analysis failed", job.table, job.game)
            finally:
                self._running = None

    def retry(self, table_id: str, game: int) -> None:
        """Forget a failure (a reload may queue it again)."""
        self._failed.pop((table_id, game), None)

    def stats(self) -> dict:
        return {"analyses_queued": len(self._queue), "analyses_running": int(self._running is not None),
                "analyses_done": self.completed}

