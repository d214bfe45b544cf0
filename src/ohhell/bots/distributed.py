"""Work spread over a Ray cluster: the executor behind ``--ray [ADDRESS]``.

:class:`RayPool` has the interface of the local executor,
:class:`ohhell.bots.match.ProcessPool`: ``imap(fn, tasks, on_decisions)`` runs
``fn(task, sink)`` for each task and yields ``(index, result)`` as tasks finish.  A caller
(``ohhell arena``, ``ohhell selfplay``, ``scripts/train_bid_model.py``) only chooses one.
Every task carries its own seed (derived from the run's seed and the task's index, never
from the worker that runs it), and callers put results back in index order, so a run on
Ray gives exactly what the same run gives locally.

- No address: a Ray instance is started in this process (``ray.init()``, every core of
  this machine) and stopped at :meth:`RayPool.close`.  A program already connected to Ray
  (``ray.is_initialized()``) keeps its connection and the pool leaves it open.
- An address (``HOST:PORT`` of a head node, ``auto``, or ``ray://...``): joins that cluster
  (``ray.init(address=...)``).  Every node needs the same ohhell installed as the driver.
- ``workers``: at most that many tasks at once (default: the cluster's CPUs), each task
  asking Ray for one CPU.
- A worker that dies (its process killed, its node lost) has its task run again, up to
  ``retries`` times; then the run stops with a :class:`RayPoolError` that says so.  An
  error raised by the task itself (bad input) is raised again here, as it would be locally.

Needs the ``ray`` extra (``pip install 'ohhell[ray]'``).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from typing import Any, Callable, Iterator, Sequence

__all__ = ["RayPool", "RayPoolError", "RayUnavailable", "RayJobs", "INSTALL_HINT"]

#: What to run when Ray is missing.
INSTALL_HINT = "pip install 'ohhell[ray]'"


class RayPoolError(RuntimeError):
    """Work on the Ray cluster failed: a worker or node died more often than retried."""


class RayUnavailable(RayPoolError):
    """Ray is not installed, or the cluster at the given address cannot be joined."""


def _import_ray():
    try:
        import ray
    except ImportError:
        raise RayUnavailable(f"Ray is not installed; install it with: {INSTALL_HINT}") from None
    return ray


def _host_port(address: str) -> "tuple[str, int] | None":
    """``'10.0.0.5:6379'`` -> ``('10.0.0.5', 6379)``; ``None`` for addresses Ray resolves
    itself (``auto``, ``local``, ``ray://...``).

    >>> _host_port("10.0.0.5:6379"), _host_port("[::1]:6379"), _host_port("auto")
    (('10.0.0.5', 6379), ('::1', 6379), None)
    >>> _host_port("head")
    Traceback (most recent call last):
    ...
    ohhell.bots.distributed.RayUnavailable: bad Ray address 'head': give HOST:PORT of the head node (ray start --head prints it; the port is 6379 unless changed), 'auto', or ray://HOST:PORT
    """
    if address in ("auto", "local") or address.startswith("ray://"):
        return None
    host, sep, port = address.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise RayUnavailable(f"bad Ray address {address!r}: give HOST:PORT of the head node (ray start --head "
                             "prints it; the port is 6379 unless changed), 'auto', or ray://HOST:PORT")
    return host, int(port)


def _check_reachable(address: str, timeout: float) -> None:
    """Fail at once when nothing listens at ``address`` (Ray itself would wait for minutes)."""
    hp = _host_port(address)
    if hp is None:
        return
    try:
        with socket.create_connection(hp, timeout=timeout):
            pass
    except OSError as e:
        why = e.strerror or str(e) or type(e).__name__
        raise RayUnavailable(f"no Ray cluster answers at {address} ({why}); start one with "
                             "`ray start --head` and pass the address it prints") from None


def _same_address(a: str, b: str) -> bool:
    """Whether two ``HOST:PORT`` addresses name the same port of the same machine."""
    try:
        ha, hb = _host_port(a), _host_port(b)
        if ha is None or hb is None or ha[1] != hb[1]:
            return False
        return socket.gethostbyname(ha[0]) == socket.gethostbyname(hb[0])
    except (RayUnavailable, OSError):
        return False


class _Ticks:
    """A Ray actor that adds up decision counts from the workers for the progress bar."""

    def __init__(self) -> None:
        self.count = 0

    def add(self, k: int) -> None:
        self.count += k

    def take(self) -> int:
        k, self.count = self.count, 0
        return k


def _run_task(fn: Callable[..., Any], task: Any, ticks: Any) -> Any:
    """On a Ray worker: ``fn(task, sink)``, the sink sending decision counts to ``ticks``.
    The task returns only once ``ticks`` has counted them all: calls from two callers to one
    actor are not ordered, so otherwise the driver's last look could come before a finished
    task's counts (the progress bar stopped short of the end)."""
    if ticks is None:
        return fn(task, None)
    sent: list[Any] = []

    def sink(k: int) -> None:
        sent.append(ticks.add.remote(k))

    result = fn(task, sink)
    if sent:
        import ray
        ray.get(sent)
    return result


class RayPool:
    """Tasks spread over a Ray cluster (see the module's text).

    :param address: a cluster to join; ``None`` starts one in this process.
    :param workers: tasks at once (default: every CPU of the cluster).
    :param retries: runs of a task again after its worker died.
    :param num_cpus: CPUs of a Ray instance started here (default: every core).
    :param connect_timeout: seconds to wait for the head node to answer.
    :raises RayUnavailable: when Ray is not installed or the cluster cannot be joined.
    """

    def __init__(self, address: "str | None" = None, *, workers: "int | None" = None, retries: int = 2,
                 num_cpus: "int | None" = None, connect_timeout: float = 5.0) -> None:
        ray = _import_ray()
        self._ray = ray
        self.address = address
        self.retries = retries
        self._owned = False
        if address is not None:
            _host_port(address)                 # a malformed address is refused before anything
        if ray.is_initialized():
            current = ray.get_runtime_context().gcs_address
            if address and address not in ("auto", current) and not _same_address(address, current):
                raise RayUnavailable(f"this program is connected to the Ray cluster at {current} already "
                                     f"and cannot join {address} too")
        else:
            quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING}
            if address is None:
                try:
                    ray.init(num_cpus=num_cpus, include_dashboard=False, **quiet)
                except Exception as e:      # Ray raises many kinds here; none should be a traceback
                    raise RayUnavailable(f"could not start a local Ray instance: {e}") from None
            else:
                _check_reachable(address, connect_timeout)
                try:
                    ray.init(address=address, **quiet)
                except Exception as e:
                    raise RayUnavailable(f"could not join the Ray cluster at {address}: {e}") from None
            self._owned = True
        cpus = int(ray.cluster_resources().get("CPU", 0))
        if cpus < 1:
            self.close()
            raise RayUnavailable("the Ray cluster has no CPUs to run games on")
        self.cpus = cpus
        self.workers = max(1, min(workers, cpus) if workers else cpus)
        self._remote = ray.remote(num_cpus=1, max_retries=retries)(_run_task)
        self._ticks_cls = ray.remote(num_cpus=0)(_Ticks)

    def describe(self) -> str:
        """How the work is spread, for progress lines."""
        where = f"the Ray cluster at {self.address}" if self.address else "a local Ray instance"
        return f"{self.workers} Ray worker{'s' if self.workers > 1 else ''} on {where} ({self.cpus} CPUs)"

    def close(self) -> None:
        """Disconnect from the cluster (and stop it, when it was started here)."""
        if self._owned and self._ray.is_initialized():
            self._ray.shutdown()
        self._owned = False

    def __enter__(self) -> "RayPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def imap(self, fn: Callable[..., Any], tasks: Sequence[Any],
             on_decisions: "Callable[[int], None] | None" = None) -> Iterator[tuple[int, Any]]:
        """``(index, fn(task, sink))`` for each task, in the order they finish.

        :raises RayPoolError: when a task's worker died more than ``retries`` times.
        """
        ray = self._ray
        tasks = list(tasks)
        ticks = self._ticks_cls.remote() if on_decisions is not None else None
        fn_ref = ray.put(fn)
        pending: dict[Any, int] = {}
        nxt = 0
        last_poll = time.perf_counter()

        def poll() -> None:
            if ticks is not None:
                k = ray.get(ticks.take.remote())
                if k:
                    on_decisions(k)  # type: ignore[misc]

        try:
            while nxt < len(tasks) or pending:
                while nxt < len(tasks) and len(pending) < self.workers:
                    pending[self._remote.remote(fn_ref, tasks[nxt], ticks)] = nxt
                    nxt += 1
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.25)
                if ticks is not None and (ready or time.perf_counter() - last_poll >= 0.25):
                    poll()
                    last_poll = time.perf_counter()
                for ref in ready:
                    i = pending.pop(ref)
                    yield i, self._result(ref, i)
            poll()
        finally:
            for ref in pending:
                try:
                    ray.cancel(ref, force=True)
                except Exception:  # pragma: no cover - already finished or gone
                    pass
            if ticks is not None:
                try:
                    ray.kill(ticks)
                except Exception:  # pragma: no cover
                    pass

    def _result(self, ref: Any, index: int) -> Any:
        ray = self._ray
        try:
            return ray.get(ref)
        except ray.exceptions.RayTaskError as e:
            cause = getattr(e, "cause", None)
            if isinstance(cause, ValueError):
                raise cause from None       # bad input: the same error as a local run gives
            what = f"{type(cause).__name__}: {cause}" if cause is not None else str(e).splitlines()[0]
            raise RayPoolError(f"task {index} failed on the Ray cluster: {what}") from None
        except ray.exceptions.RayError as e:
            raise RayPoolError(
                f"a Ray worker died running task {index}, and {self.retries} "
                f"retr{'y' if self.retries == 1 else 'ies'} died too ({type(e).__name__}); "
                "a node may have left or run out of memory (see `ray status`)") from None


# --- one long job at a time, with shared progress and pause/stop flags (the server's analyses) -----

class _Flags:
    """A Ray actor holding a job's flags (``go``, ``stop``, set by the server) and progress
    (set by the worker)."""

    def __init__(self, go: bool = True, stop: bool = False) -> None:
        self.go, self.stop, self.progress = go, stop, 0.0

    def set(self, go: bool, stop: bool) -> None:
        self.go, self.stop = go, stop

    def state(self) -> tuple[bool, bool]:
        return self.go, self.stop

    def report(self, value: float) -> None:
        self.progress = value

    def read(self) -> float:
        return self.progress


class _RemoteFlag:
    """On the worker: one flag of a :class:`_Flags` actor, read like a ``threading.Event``."""

    def __init__(self, flags: Any, which: int) -> None:
        self.flags, self.which = flags, which

    def is_set(self) -> bool:
        import ray
        return bool(ray.get(self.flags.state.remote())[self.which])

    def wait(self, timeout: float) -> bool:
        if self.is_set():
            return True
        time.sleep(timeout)
        return self.is_set()


class _RemoteProgress:
    """On the worker: ``progress.value = x`` reports to the :class:`_Flags` actor."""

    def __init__(self, flags: Any) -> None:
        self.flags = flags
        self._value = 0.0

    @property
    def value(self) -> float:
        return self._value

    @value.setter
    def value(self, x: float) -> None:
        self._value = x
        self.flags.report.remote(x)


def script_pool(ray: "str | None", jobs: int) -> Any:
    """The executor for a training script's ``--ray [ADDRESS]`` and ``--jobs N``: a
    :class:`RayPool` with ``--ray`` (an empty address starts Ray here; ``--jobs`` over 1 caps its
    workers, else every CPU of the cluster), local processes for ``--jobs`` over 1, and ``None``
    (work in this process) otherwise. The same seed gives the same data from each.

    :raises RayPoolError: when Ray is missing or the cluster cannot be joined.
    """
    if ray is not None:
        return RayPool(ray or None, workers=jobs if jobs > 1 else None)
    if jobs > 1:
        from .match import ProcessPool
        return ProcessPool(jobs)
    return None


def _run_with_flags(fn: Callable[..., Any], args: tuple, flags: Any) -> Any:
    """On a Ray worker: ``fn(*args, shared)``, ``shared`` being ``progress``, ``go`` and ``stop``
    backed by the job's :class:`_Flags` actor."""
    shared = {"progress": _RemoteProgress(flags), "go": _RemoteFlag(flags, 0), "stop": _RemoteFlag(flags, 1)}
    return fn(*args, shared)


class RayJobs:
    """Long jobs run one at a time on Ray, for a server's background work (the replays'
    analyses, :mod:`ohhell.server.analysis_jobs`).

    :meth:`run` calls ``fn(*args, shared)`` on a Ray worker, where ``shared`` holds
    ``progress`` (``.value``), ``go`` and ``stop`` (``.is_set()``, ``.wait(timeout)``) like the
    local thread worker's; the caller's own ``progress``, ``go`` and ``stop`` are mirrored to
    and from the worker a few times a second.

    :raises RayUnavailable: as :class:`RayPool`.
    """

    def __init__(self, address: "str | None" = None, *, num_cpus: "int | None" = None,
                 retries: int = 1) -> None:
        self.pool = RayPool(address, workers=1, retries=retries, num_cpus=num_cpus)
        ray = self.pool._ray
        self._ray = ray
        self._remote = ray.remote(num_cpus=1, max_retries=retries)(_run_with_flags)
        self._flags_cls = ray.remote(num_cpus=0)(_Flags)

    def describe(self) -> str:
        return self.pool.describe().replace("1 Ray worker", "Ray")

    def close(self) -> None:
        self.pool.close()

    async def run(self, fn: Callable[..., Any], *args: Any, progress: Any, go: Any, stop: Any,
                  every: float = 0.25) -> Any:
        """``fn(*args, shared)`` on the cluster; its result, or the exception it raised.

        :raises RayPoolError: when its worker died more often than retried.
        """
        ray = self._ray
        # created with the flags as they are now: a first ``set`` call could reach the actor after
        # the worker's first read (Ray orders calls per caller only), and a job queued while the
        # server had paused its analyses would then run unpaused (CI caught one finishing)
        flags = self._flags_cls.remote(go.is_set(), stop.is_set())
        ref = self._remote.remote(fn, args, flags)
        work = asyncio.wrap_future(ref.future())
        try:
            while True:
                done, _ = await asyncio.wait({work}, timeout=every)
                if done:
                    break
                flags.set.remote(go.is_set(), stop.is_set())
                progress.value = await asyncio.wrap_future(flags.read.remote().future())
            try:
                return work.result()
            except ray.exceptions.RayTaskError as e:
                cause = getattr(e, "cause", None)
                if isinstance(cause, Exception):
                    raise cause from None
                raise RayPoolError(f"the job failed on the Ray cluster: {str(e).splitlines()[0]}") from None
            except ray.exceptions.RayError as e:
                raise RayPoolError(f"the Ray worker running the job died ({type(e).__name__})") from None
        except asyncio.CancelledError:
            try:
                ray.cancel(ref, force=True)
            except Exception:  # pragma: no cover - already finished
                pass
            raise
        finally:
            try:
                ray.kill(flags)
            except Exception:  # pragma: no cover
                pass
