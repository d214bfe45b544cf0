"""Server load: simulated players on loopback against the real ``ohhell serve``.

For each load level (default 100, 500 and 1,000 concurrent players) a fresh server is
started on a fresh SQLite file; 4-player tables are created with one bot seat each (a
quarter of the seats are bots) and three simulated people, each on its own websocket.  A
person acts after a think time (0.4-1.6 s, mean 1 s) whenever its view says it may, and asks
for a rematch when a game ends.  Measured, after a warm-up, for a bounded window:

* action-to-update latency: from sending an action to receiving the state frame that
  shows it (p50, p90, p99, max);
* errors: error frames, failed connections and closed sockets;
* lost actions: actions sent that never showed up in an update, or acknowledged actions
  missing from the server's tables at the end.

    python benchmarks/server.py                   # 100, 500, 1000 players, 40 s windows
    python benchmarks/server.py --players 1000 --seconds 60

Every request goes to 127.0.0.1 only; every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time

THINK = (0.4, 1.6)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- simulated people (run in worker processes) ---------------------------------------------

async def person(url: str, table: str, seat: int, start_at: float, measure_from: float, stop_at: float,
                 out: dict, rng: random.Random) -> None:
    import websockets
    await asyncio.sleep(max(0.0, start_at - time.time()))
    try:
        ws = await websockets.connect(url, max_size=1 << 22, open_timeout=30)
    except Exception as e:  # noqa: BLE001 - counted, the run goes on
        out["errors"].append(f"connect: {type(e).__name__}")
        return
    pending: "dict | None" = None   # {"n": count when sent, "t": send time}
    act_task: "asyncio.Task | None" = None
    state = None

    async def act_later(game: int, n: int, action, delay: float) -> None:
        nonlocal pending
        await asyncio.sleep(delay)
        if time.time() >= stop_at:
            return
        pending = {"game": game, "n": n, "t": time.perf_counter(), "wall": time.time()}
        out["sent"] += 1
        await ws.send(json.dumps({"v": 1, "type": "act", "action": action}))

    try:
        await ws.send(json.dumps({"v": 1, "type": "hello", "table": table}))
        await ws.send(json.dumps({"v": 1, "type": "join", "seat": seat, "name": f"P{seat}"}))
        while True:
            left = stop_at + 10 - time.time()
            if left <= 0:
                break
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=left)
            except asyncio.TimeoutError:
                break
            msg = json.loads(text)
            if msg["type"] == "error":
                out["errors"].append(msg["code"])
                pending = None
                continue
            if msg["type"] != "state" or not msg["game"]:
                continue
            state = msg
            g = msg["game"]
            if pending is not None and (g["number"], g["n"]) > (pending["game"], pending["n"]):
                latency = time.perf_counter() - pending["t"]
                if pending["wall"] >= measure_from:
                    out["latencies"].append(latency)
                out["acked"] += 1
                pending = None
            v = g["view"]
            if time.time() >= stop_at and pending is None:
                break
            if v["phase"] == "over":
                if seat in msg["table"]["votes"]:
                    continue
                if time.time() < stop_at - 5:
                    await ws.send(json.dumps({"v": 1, "type": "rematch"}))
                continue
            if v["legal"] and pending is None and (act_task is None or act_task.done()):
                action = rng.choice(v["legal"])
                act_task = asyncio.create_task(act_later(g["number"], g["n"], action, rng.uniform(*THINK)))
        if pending is not None:
            out["lost"] += 1
        out["final_n"][f"{table}/{seat}"] = (state["game"]["number"], state["game"]["n"]) if state else None
    except Exception as e:  # noqa: BLE001
        out["errors"].append(f"socket: {type(e).__name__}: {e}")
    finally:
        await ws.close()


def client_worker(url: str, seats: list, start: float, measure_from: float, stop_at: float, seed: int, q,
                  think: tuple = THINK) -> None:
    global THINK
    THINK = think
    out = {"latencies": [], "errors": [], "sent": 0, "acked": 0, "lost": 0, "final_n": {}}
    rng = random.Random(seed)

    async def main():
        tasks = [person(url, table, seat, start + i * 0.004, measure_from, stop_at, out, random.Random(rng.random()))
                 for i, (table, seat) in enumerate(seats)]
        await asyncio.gather(*tasks)
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass
    asyncio.run(main())
    q.put(out)


# --- one load level -----------------------------------------------------------------------

def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_level(players: int, seconds: float, warmup: float, workers: int, bot: str, bot_delay: float,
              think: tuple = THINK) -> dict:
    import httpx
    tables = players // 4
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    db = tempfile.mktemp(suffix=".sqlite3", prefix="ohhell-bench-")
    server = subprocess.Popen([sys.executable, "-m", "ohhell.cli", "serve", "--port", str(port), "--db", db,
                               "--bot-delay", str(bot_delay), "--create-limit", "0", "--max-open-tables", "100000", "--max-sockets-per-address", "0",
                               "--log-level", "warning"],
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
        ids = []
        with httpx.Client(base_url=base) as http:
            for _ in range(tables):
                body = {"rules": {"players": 4}, "seats": [{"kind": "open"}] * 3 + [{"kind": "bot", "bot": bot}]}
                r = http.post("/api/tables", json=body)
                r.raise_for_status()
                ids.append(r.json()["id"])
        seats = [(t, s) for t in ids for s in range(3)]
        ramp = len(seats) * 0.004 / workers + 2.0
        start = time.time() + 1.0
        measure_from = start + ramp + warmup
        stop_at = measure_from + seconds
        q = mp.get_context("spawn").Queue()
        procs = []
        for w in range(workers):
            # all seats of a table in one process keeps a table's people on one event loop
            mine = [x for x in seats if ids.index(x[0]) % workers == w]
            p = mp.get_context("spawn").Process(target=client_worker, args=(f"ws://127.0.0.1:{port}/ws", mine, start,
                                                                              measure_from, stop_at, w, q, think))
            p.start()
            procs.append(p)
        cpu0 = cpu_seconds(server.pid)
        while time.time() < measure_from:
            time.sleep(0.05)
        cpu_start = cpu_seconds(server.pid)
        while time.time() < stop_at:
            time.sleep(0.05)
        cpu_used = cpu_seconds(server.pid) - cpu_start
        results = [q.get(timeout=seconds + 120) for _ in procs]
        for p in procs:
            p.join(30)
        # Acknowledged actions must all be in the server's tables.
        missing = 0
        with httpx.Client(base_url=base) as http:
            for t in ids:
                info = http.get(f"/api/tables/{t}").json()
                seen = [v for k, v in ((k, v) for r in results for k, v in r["final_n"].items()) if k.startswith(t + "/") and v]
                best = max(seen, default=(0, 0))
                if (info["game"], info["actions"]) < tuple(best):
                    missing += 1
        lat = sorted(x for r in results for x in r["latencies"])
        errors = [e for r in results for e in r["errors"]]
        q99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))] if lat else float("nan")
        return {
            "players": players, "tables": tables, "people": len(seats), "bots": tables,
            "window_s": seconds, "actions_measured": len(lat),
            "actions_per_s": len(lat) / seconds,
            "p50_ms": statistics.median(lat) * 1000 if lat else float("nan"),
            "p90_ms": lat[int(0.9 * len(lat))] * 1000 if lat else float("nan"),
            "p99_ms": q99 * 1000, "max_ms": lat[-1] * 1000 if lat else float("nan"),
            "errors": len(errors), "error_kinds": sorted(set(errors))[:5],
            "lost": sum(r["lost"] for r in results) + missing,
            "sent": sum(r["sent"] for r in results), "acked": sum(r["acked"] for r in results),
            "server_cpu": cpu_used / seconds, "setup_cpu_s": cpu_start - cpu0,
        }
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="100,500,1000", help="comma-separated load levels (multiples of 4)")
    ap.add_argument("--seconds", type=float, default=40.0, help="measured window per level (default 40)")
    ap.add_argument("--warmup", type=float, default=8.0, help="seconds after the ramp before measuring")
    ap.add_argument("--workers", type=int, default=2, help="client processes (default 2)")
    ap.add_argument("--bot", default="heuristic", help="the bot in each table's fourth seat")
    ap.add_argument("--bot-delay", type=float, default=0.7, help="the server's bot delay (default 0.7 s)")
    ap.add_argument("--think", default="0.4,1.6", help="a person's think time range in seconds (default 0.4,1.6)")
    ap.add_argument("--json", default=None, help="also write the results here")
    args = ap.parse_args()
    rows = []
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
          f"think {args.think} s, bot {args.bot} after {args.bot_delay} s, {args.seconds:g} s windows", flush=True)
    for players in (int(x) for x in args.players.split(",")):
        think = tuple(float(x) for x in args.think.split(","))
        r = run_level(players, args.seconds, args.warmup, args.workers, args.bot, args.bot_delay, think)
        rows.append(r)
        print(f"{r['players']:>5} players ({r['tables']} tables, {r['bots']} bots): "
              f"{r['actions_measured']} actions ({r['actions_per_s']:.0f}/s), p50 {r['p50_ms']:.1f} ms, "
              f"p90 {r['p90_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, max {r['max_ms']:.0f} ms, "
              f"errors {r['errors']} {r['error_kinds'] or ''}, lost {r['lost']}, "
              f"server CPU {r['server_cpu'] * 100:.0f}%", flush=True)
    print("\n| players | tables (bots) | actions measured | actions/s | p50 ms | p90 ms | p99 ms | max ms | errors | lost | server CPU |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['players']} | {r['tables']} ({r['bots']}) | {r['actions_measured']} | {r['actions_per_s']:.0f} | "
              f"{r['p50_ms']:.1f} | {r['p90_ms']:.1f} | {r['p99_ms']:.1f} | {r['max_ms']:.0f} | {r['errors']} | "
              f"{r['lost']} | {r['server_cpu'] * 100:.0f}% |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
