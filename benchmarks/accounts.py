"""Accounts: what a password hash costs, and whether a storm of sign-ins slows the tables.

Starts the real ``ohhell serve`` (fresh SQLite file, ``--trusted-proxy 127.0.0.1`` so each
simulated sign-in comes from its own address and no limit is hit), then measures:

1. Argon2id (the server's parameters) hash and verify times in this process;
2. sign-in latency, one at a time (request to answer, over loopback);
3. during ``--storm`` seconds of sign-ins from ``--clients`` concurrent clients: sign-ins
   answered per second and their latency, and the round trip of a websocket ``ping`` a
   spectator sends every 50 ms (the event loop's responsiveness), against the same pings
   with no sign-ins.

    python benchmarks/accounts.py
    python benchmarks/accounts.py --clients 16 --storm 20

Every request goes to 127.0.0.1 only; every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "server"))
from serverkit import ProcessServer  # noqa: E402

PASSWORD = "a benchmark passphrase"


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def hash_times(n: int) -> tuple[float, float]:
    from argon2 import PasswordHasher
    ph = PasswordHasher()
    t0 = time.perf_counter()
    hashes = [ph.hash(PASSWORD) for _ in range(n)]
    t1 = time.perf_counter()
    for h in hashes:
        ph.verify(h, PASSWORD)
    t2 = time.perf_counter()
    return (t1 - t0) / n * 1000, (t2 - t1) / n * 1000


async def sign_in(client: httpx.AsyncClient, address: str) -> float:
    headers = {"x-forwarded-for": address, "origin": str(client.base_url).rstrip("/")}
    r = await client.get("/api/account", headers=headers)
    token = r.json()["csrf"]
    t0 = time.perf_counter()
    r = await client.post("/api/account/signin", json={"username": "bench", "password": PASSWORD},
                          headers={**headers, "x-csrf-token": token})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    return (time.perf_counter() - t0) * 1000


async def pings(ws_url: str, table: str, seconds: float) -> list[float]:
    out = []
    async with websockets.connect(ws_url) as ws:
        await ws.send(json.dumps({"v": 1, "type": "hello", "table": table}))
        await ws.recv()
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t0 = time.perf_counter()
            await ws.send(json.dumps({"v": 1, "type": "ping"}))
            while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "pong":
                pass
            out.append((time.perf_counter() - t0) * 1000)
            await asyncio.sleep(0.15)   # under the 10 messages a second a client may send
    return out


async def storm(base: str, clients: int, seconds: float) -> list[float]:
    end = time.monotonic() + seconds
    lat: list[float] = []

    async def one(k: int) -> None:
        i = 0
        async with httpx.AsyncClient(base_url=base, timeout=60) as c:
            while time.monotonic() < end:
                lat.append(await sign_in(c, f"10.{k}.{i // 250}.{i % 250 + 1}"))
                i += 1
    await asyncio.gather(*(one(k) for k in range(clients)))
    return lat


async def main_async(args: argparse.Namespace, srv: ProcessServer) -> None:
    async with httpx.AsyncClient(base_url=srv.base, timeout=60) as c:
        r = await c.get("/api/account", headers={"origin": srv.base})
        r = await c.post("/api/account/signup", json={"username": "bench", "password": PASSWORD},
                         headers={"origin": srv.base, "x-csrf-token": r.json()["csrf"]})
        assert r.status_code == 201, r.text
        r = await c.post("/api/tables", json={"rules": {"players": 4}, "seats": [{"kind": "open"}] * 4},
                         headers={"origin": srv.base, "x-csrf-token": r.json()["csrf"]})   # it holds cookies
        assert r.status_code == 201, r.text
        table = r.json()["id"]
        c.cookies.clear()
        one_by_one = [await sign_in(c, f"10.200.0.{i + 1}") for i in range(args.n)]
    quiet = await pings(srv.ws_url, table, args.storm / 2)
    t0 = time.monotonic()
    stormed, loud = await asyncio.gather(storm(srv.base, args.clients, args.storm),
                                         pings(srv.ws_url, table, args.storm))
    elapsed = time.monotonic() - t0
    print(f"sign-in one at a time ({args.n}): p50 {pct(one_by_one, .5):.0f} ms, p90 {pct(one_by_one, .9):.0f} ms")
    print(f"storm of {args.clients} clients for {args.storm:g} s: {len(stormed)} sign-ins, "
          f"{len(stormed) / elapsed:.1f}/s, latency p50 {pct(stormed, .5):.0f} ms, p90 {pct(stormed, .9):.0f} ms, "
          f"max {max(stormed):.0f} ms")
    print(f"websocket ping, no sign-ins ({len(quiet)}): p50 {pct(quiet, .5):.1f} ms, p99 {pct(quiet, .99):.1f} ms, "
          f"max {max(quiet):.1f} ms")
    print(f"websocket ping, during the storm ({len(loud)}): p50 {pct(loud, .5):.1f} ms, "
          f"p99 {pct(loud, .99):.1f} ms, max {max(loud):.1f} ms")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--storm", type=float, default=10.0, help="seconds of sign-ins")
    p.add_argument("-n", type=int, default=20, help="hashes and one-at-a-time sign-ins")
    args = p.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    h, v = hash_times(args.n)
    print(f"argon2id hash {h:.0f} ms, verify {v:.0f} ms (mean of {args.n}, one thread)")
    with tempfile.TemporaryDirectory() as d:
        srv = ProcessServer(os.path.join(d, "bench.sqlite3"), "--trusted-proxy", "127.0.0.1").start()
        try:
            asyncio.run(main_async(args, srv))
        finally:
            srv.stop()
    _ = subprocess  # (the kit starts the server)


if __name__ == "__main__":
    main()
