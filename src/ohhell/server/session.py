"""One client's connection: its outgoing queue, its rate limit and who it is."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import deque
from typing import Any, Awaitable, Callable

from .protocol import error_message

__all__ = ["Connection", "RateLimiter", "OUTBOX_LIMIT"]

#: Frames that may wait for a slow client before it is disconnected.
OUTBOX_LIMIT = 200
_ids = itertools.count(1)


class RateLimiter:
    """A token bucket: ``burst`` messages at once, ``rate`` per second after that."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float = 10.0, burst: float = 30.0) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        """Take one token; ``False`` when the bucket is empty."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Connection:
    """A websocket client as the tables see it.

    Frames go through :meth:`send` into an outbox drained by :meth:`pump`, so
    a slow client never holds up a table.  Consecutive ``state`` frames
    coalesce (each is a full snapshot), so a slow client skips straight to
    the latest state instead of falling behind.
    """

    def __init__(self, send_text: Callable[[str], Awaitable[None]]) -> None:
        self.id = next(_ids)
        self._send_text = send_text
        self.table: Any = None       # the Table after hello
        self.token_hash: "str | None" = None  # the hash of the seat token it showed, if any
        #: the signed-in account (``{"user_id", "username"}``) whose session cookie (a browser's
        #: handshake) or API token (a program's, docs/bots-api.md) opened the socket, if any
        #: (ohhell.server.accounts); a seat bound to an account is this one's only
        self.account: "dict | None" = None
        self.admin = False
        #: who connects, as the server remembers it: a short hash of the peer's address (for
        #: the per-address chat limit and a spectator's chat name), "" when unknown
        self.address = ""
        self.limiter = RateLimiter()
        #: the chat's own token bucket (set by the app from ``config.CHAT_RATE``)
        self.chat_limiter = RateLimiter(0.5, 5.0)
        self.dropped = 0
        self.last_limit_error = 0.0
        self.closed = False
        self.close_reason: "str | None" = None
        self._items: deque[tuple[str, bool]] = deque()
        self._wake = asyncio.Event()
        self._drained = asyncio.Event()
        self._drained.set()

    @property
    def seat(self) -> "int | None":
        """The seat this client holds: the one whose token it showed (unless an account
        other than this client's holds it), else the one its signed-in account holds; looked
        up afresh each time, so it can never disagree with the table's seats."""
        if self.table is None:
            return None
        return self.table.seat_of(self.token_hash, self.account["user_id"] if self.account else None)

    def send(self, text: str, *, state: bool = False) -> None:
        """Queue a frame (``state=True``: it replaces a queued, unsent state frame)."""
        if self.closed:
            return
        if state and self._items and self._items[-1][1]:
            self._items[-1] = (text, True)
        else:
            self._items.append((text, state))
            if len(self._items) > OUTBOX_LIMIT:
                self._items.clear()
                self.close("too slow: frames piled up unread")
                return
        self._wake.set()

    def error(self, code: str, message: str, ref: "int | str | None" = None,
              reason: "dict | None" = None) -> None:
        """Queue an ``error`` frame for this client alone."""
        self.send(error_message(code, message, ref, reason))

    def close(self, reason: str) -> None:
        """Close after the queued frames; :meth:`pump` returns and the socket is closed with ``reason``."""
        self.closed = True
        self.close_reason = reason
        self._wake.set()
        self._drained.set()

    async def backpressure(self, limit: int = 32) -> None:
        """Wait while more than ``limit`` frames are queued for this client (stop reading
        from a client that does not read its replies, rather than queueing without end)."""
        while len(self._items) > limit and not self.closed:
            self._drained.clear()
            await self._drained.wait()

    def finish(self) -> None:
        """The socket is gone: let :meth:`pump` return."""
        self._items.clear()
        self.closed = True
        self._wake.set()
        self._drained.set()

    async def pump(self) -> None:
        """Send queued frames until the connection closes."""
        while True:
            while self._items:
                text, _ = self._items.popleft()
                await self._send_text(text)
                if len(self._items) <= 8:
                    self._drained.set()
            self._drained.set()
            if self.closed:
                return
            self._wake.clear()
            await self._wake.wait()
