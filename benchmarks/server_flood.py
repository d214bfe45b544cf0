"""Bot flood: does one creator's crowd of all-bot tables slow another table's bots?

Starts the real ``ohhell serve`` (fresh SQLite file, process bot pool, default bot delay),
then measures, for one "victim" table (one scripted person who acts at once, three bots),
how long each bot move takes from the state frame that makes it the bot's turn to the state
frame that shows its move: first alone, then while a second creator (another address)
keeps ``--tables`` all-bot tables of the same bot playing.  The two creators are told apart
by ``X-Forwarded-For`` from a configured proxy (``--trusted-proxy 127.0.0.1``) where the
server has that option; an older server, which has neither creators nor the option,
shares its bots first come, first served.

    python benchmarks/server_flood.py                       # expert bots, 30 flood tables
    python benchmarks/server_flood.py --bot heuristic --tables 60 --seconds 30

Every request goes to 127.0.0.1 only; every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def victim(url: str, table: str, seconds: float) -> list[float]:
    """Play seat 0 of ``table`` (first legal action, at once) for ``seconds``; returns the bot
    move times (seconds, the server's bot delay included)."""
    import websockets
    times: list[float] = []
    deadline = time.monotonic() + seconds
    async with websockets.connect(url, max_size=1 << 22) as ws:
        await ws.send(json.dumps({"v": 1, "type": "hello", "table": table}))
        await ws.send(json.dumps({"v": 1, "type": "join", "seat": 0, "name": "Victim"}))
        bot_turn_since = None
        last_n = -1
        while time.monotonic() < deadline:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic())))
            except asyncio.TimeoutError:
                break
            if msg["type"] != "state" or not msg["game"]:
                continue
            g, now = msg["game"], time.monotonic()
            v = g["view"]
            if g["n"] != last_n:
                if bot_turn_since is not None and g["n"] == last_n + 1:
                    times.append(now - bot_turn_since)
                last_n = g["n"]
                bot_turn_since = now if (not v["legal"] and v["phase"] != "over") else None
            if v["phase"] == "over":
                await ws.send(json.dumps({"v": 1, "type": "rematch"}))
            elif v["legal"]:
                await ws.send(json.dumps({"v": 1, "type": "act", "action": v["legal"][0]}))
    return times


def run(bot: str, flood_tables: int, seconds: float) -> dict:
    import httpx
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    db = tempfile.mktemp(suffix=".sqlite3", prefix="ohhell-flood-")
    help_text = subprocess.run([sys.executable, "-m", "ohhell.cli", "serve", "--help"], capture_output=True,
                               text=True).stdout
    extra = ["--trusted-proxy", "127.0.0.1", "--max-open-tables", "1000"] if "--trusted-proxy" in help_text else []
    server = subprocess.Popen([sys.executable, "-m", "ohhell.cli", "serve", "--port", str(port), "--db", db,
                               "--create-limit", "0", "--log-level", "warning", *extra],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise RuntimeError("the server did not start")
        rules = {"players": 4, "hand_sizes": [5, 4, 3, 2, 1]}

        def create(ip: str, seats: list) -> str:
            r = httpx.post(base + "/api/tables", json={"rules": rules, "seats": seats},
                           headers={"x-forwarded-for": ip})
            r.raise_for_status()
            return r.json()["id"]
        bots = [{"kind": "bot", "bot": bot}]
        alone = create("10.0.0.2", [{"kind": "open"}] + bots * 3)
        quiet = asyncio.run(victim(f"ws://127.0.0.1:{port}/ws", alone, seconds))
        for _ in range(flood_tables):          # all-bot tables: they start at once and rematch
            create("10.0.0.1", bots * 4)       # never, so keep the flood going below
        crowded = create("10.0.0.2", [{"kind": "open"}] + bots * 3)
        stop = time.monotonic() + seconds

        async def keep_flooding():
            while time.monotonic() < stop:
                await asyncio.sleep(2.0)
                h = httpx.get(base + "/healthz").json()
                while h["games_in_progress"] < flood_tables and time.monotonic() < stop:
                    await asyncio.to_thread(create, "10.0.0.1", bots * 4)
                    h["games_in_progress"] += 1

        async def both():
            flood = asyncio.create_task(keep_flooding())
            times = await victim(f"ws://127.0.0.1:{port}/ws", crowded, seconds)
            flood.cancel()
            return times
        loaded = asyncio.run(both())
        health = httpx.get(base + "/healthz").json()
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)

    def summary(xs: list[float]) -> dict:
        xs = sorted(xs)
        return {"moves": len(xs), "p50_s": round(statistics.median(xs), 2) if xs else None,
                "p90_s": round(xs[int(0.9 * len(xs))], 2) if xs else None,
                "max_s": round(xs[-1], 2) if xs else None}
    return {"bot": bot, "flood_tables": flood_tables, "alone": summary(quiet), "flooded": summary(loaded),
            "creators": bool(extra),
            "degraded": f"{health.get('bot_decisions_degraded', '-')} of {health.get('bot_decisions', '-')}"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="expert")
    ap.add_argument("--tables", type=int, default=30, help="the flooding creator's all-bot tables (default 30)")
    ap.add_argument("--seconds", type=float, default=40.0, help="each measured window (default 40)")
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}", flush=True)
    r = run(args.bot, args.tables, args.seconds)
    print(json.dumps(r))
    a, f = r["alone"], r["flooded"]
    print(f"| {r['bot']} | {r['flood_tables']} | {a['moves']} | {a['p50_s']} | {a['p90_s']} | {f['moves']} | "
          f"{f['p50_s']} | {f['p90_s']} | {f['max_s']} | {r['degraded']} |")


if __name__ == "__main__":
    main()
