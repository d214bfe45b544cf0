"""The bot API: what a token handshake costs, and how fast a program plays through it.

Starts the real ``ohhell serve`` (fresh SQLite file, ``--bot-delay 0``), makes a bot account
and an API token over HTTP, then measures:

1. handshake to first ``state``: a websocket with ``Authorization: Bearer`` (a token lookup
   in the database, and its last-use write) against a guest's (``--rounds`` each, in turn);
2. a whole game played by ``examples/bot_client.py``'s ``choose`` at one seat against three
   built-in bots (``--hands`` hands of 1..N cards up and down): the time from each ``act``
   sent to the ``state`` frame that shows it, and the game's wall time.

    python benchmarks/bot_api.py
    python benchmarks/bot_api.py --rounds 100 --hands 10

Every request goes to 127.0.0.1 only; every loop is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "server"))
sys.path.insert(0, str(ROOT / "examples"))
from serverkit import ProcessServer  # noqa: E402
from bot_client import MIN_GAP, choose  # noqa: E402


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


async def first_state(url: str, table: str, headers: dict) -> float:
    t0 = time.perf_counter()
    async with websockets.connect(url, additional_headers=headers, max_size=1 << 22) as ws:
        await ws.send(json.dumps({"v": 1, "type": "hello", "table": table}))
        while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "state":
            pass
        return time.perf_counter() - t0


async def game(url: str, table: str, token: str) -> tuple[list[float], float, int]:
    waits: list[float] = []
    t_start = time.perf_counter()
    async with websockets.connect(url, additional_headers={"Authorization": f"Bearer {token}"},
                                  max_size=1 << 22) as ws:
        await ws.send(json.dumps({"v": 1, "type": "hello", "table": table}))
        await ws.send(json.dumps({"v": 1, "type": "join", "seat": 0, "name": "bench"}))
        sent_at, sent_n, acted, pending, limited, last = None, -1, None, None, 0, 0.0
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if msg["type"] == "error" and msg["code"] == "rate_limited":   # as the example client does
                limited += 1
                await asyncio.sleep(1.1)
                await ws.send(json.dumps({"v": 1, "type": "act", "action": pending}))
                continue
            if msg["type"] != "state" or not msg["game"]:
                continue
            g = msg["game"]
            if sent_at is not None and g["n"] > sent_n:
                waits.append(time.perf_counter() - sent_at)
                sent_at = None
            view = g["view"]
            if view["phase"] == "over":
                return waits, time.perf_counter() - t_start, limited
            if view["legal"] and acted != g["n"]:
                await asyncio.sleep(max(0.0, last + MIN_GAP - time.monotonic()))   # the client's pacing
                last = time.monotonic()
                acted, sent_n, sent_at, pending = g["n"], g["n"], time.perf_counter(), choose(view)
                await ws.send(json.dumps({"v": 1, "type": "act", "action": pending}))
    raise TimeoutError("the game did not end in 300 s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=50, help="handshakes of each kind")
    ap.add_argument("--hands", type=int, default=7, help="the most cards in a hand (up and down: 2N-1 hands)")
    args = ap.parse_args()
    db = os.path.join(tempfile.mkdtemp(), "bench.sqlite3")
    srv = ProcessServer(db, "--bot-delay", "0").start()
    try:
        with httpx.Client(base_url=srv.base, headers={"origin": srv.base}, timeout=30) as c:
            csrf = c.get("/api/account").json()["csrf"]
            r = c.post("/api/account/signup", json={"username": "benchbot", "password": "a benchmark pass",
                                                    "bot": True}, headers={"x-csrf-token": csrf})
            csrf = r.json()["csrf"]
            token = c.post("/api/account/tokens", json={"name": "bench"}, headers={"x-csrf-token": csrf}).json()["token"]
        sizes = list(range(1, args.hands + 1)) + list(range(args.hands - 1, 0, -1))
        spect = httpx.post(srv.base + "/api/tables", json={"rules": {"players": 4, "hand_sizes": [1]},
                                                           "seats": [{"kind": "open"}] * 4}).json()["id"]
        table = httpx.post(srv.base + "/api/tables", json={
            "rules": {"players": 4, "hand_sizes": sizes},
            "seats": [{"kind": "open"}] + [{"kind": "bot", "bot": "intermediate"}] * 3}).json()["id"]

        async def run():
            tok, guest = [], []
            for _ in range(args.rounds):
                tok.append(await first_state(srv.ws_url, spect, {"Authorization": f"Bearer {token}"}))
                guest.append(await first_state(srv.ws_url, spect, {}))
            waits, wall, limited = await game(srv.ws_url, table, token)
            return tok, guest, waits, wall, limited
        tok, guest, waits, wall, limited = asyncio.run(run())
    finally:
        srv.stop()
    ms = 1000
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"handshake to first state, token ({len(tok)}): p50 {statistics.median(tok) * ms:.1f} ms, "
          f"p90 {pct(tok, 0.9) * ms:.1f} ms")
    print(f"handshake to first state, guest ({len(guest)}): p50 {statistics.median(guest) * ms:.1f} ms, "
          f"p90 {pct(guest, 0.9) * ms:.1f} ms")
    print(f"game of {len(sizes)} hands: {len(waits)} actions by the program, act to state p50 "
          f"{statistics.median(waits) * ms:.1f} ms, p90 {pct(waits, 0.9) * ms:.1f} ms; wall {wall:.1f} s; "
          f"{limited} rate_limited answers (resent after 1.1 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
