"""Bots for server seats, thinking off the event loop.

A bot decision runs in a worker process (default) or thread, never on the
event loop, so a slow bot delays nobody else.  Each decision uses a fresh bot
seeded from the game's secret seed, the seat and the number of actions so far
(:func:`bot_seed`), so a table replayed after a restart makes exactly the
decisions it would have made without one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
from typing import Any

from ..view import View

__all__ = ["BotPool", "bot_seed", "decide", "bot_names", "default_bot"]


def bot_seed(game_seed: str, seat: int, action_count: int) -> str:
    """The seed of the bot that acts for ``seat`` after ``action_count`` actions of a game."""
    return f"{game_seed}/bot/{seat}/{action_count}"


def bot_names() -> list[str]:
    """The bot names (and levels) a seat can be given."""
    from .. import bots
    return bots.names()


def default_bot() -> str:
    """The bot a seat gets when none is named: ``heuristic`` when it exists."""
    names = bot_names()
    return "heuristic" if "heuristic" in names else names[0]


def decide(name: str, seed: str, view: View) -> "int | str":
    """One decision: the action (as JSON: a bid or a card name) bot ``name`` takes in ``view``."""
    from .. import bots
    action = bots.make(name, seed=seed).act(view)
    return action.to_json()


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
    """Runs bot decisions in a pool of processes (``kind="process"``) or threads.

    :param workers: pool size (default: one less than the CPUs, at least 1).
    """

    def __init__(self, kind: str = "process", workers: "int | None" = None) -> None:
        if kind not in ("process", "thread"):
            raise ValueError(f"bot pool kind is 'process' or 'thread', not {kind!r}")
        self.kind = kind
        self.workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self._executor: "concurrent.futures.Executor | None" = None

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

    async def decide(self, name: str, seed: str, view: View) -> Any:
        """The action bot ``name`` takes in ``view`` (see :func:`decide`)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), decide, name, seed, view)

    def close(self) -> None:
        """Stop the workers (pending decisions are dropped; tables resume them on restart)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
