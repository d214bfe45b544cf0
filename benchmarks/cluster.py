"""Cluster load: several ``ohhell serve --redis`` nodes on one PostgreSQL and one Redis, driven
over loopback by scripted people, then one node killed with ``kill -9`` mid-run.

PostgreSQL and Redis are Debian's binaries (``/usr/lib/postgresql/*/bin``, ``redis-server``),
started under a temporary directory for the run (PostgreSQL's defaults: ``fsync`` and
``synchronous_commit`` on, unless ``--synchronous-commit off``).  For each load level a fresh
database gets ``--nodes`` nodes; 4-player tables (one bot seat each, a quarter of the players)
are created round-robin over the nodes, so each node owns a share; each table's three people
connect to three different nodes (so two of them are served by a node that does not own the
table, through Redis).  A person acts 0.4-1.6 s after its turn comes and asks for a rematch at
the end, and reconnects to the next node when its socket closes (as the page does).

Measured, after a warm-up, over a steady window:

* action-to-update latency (send an action -> the state frame showing it), p50/p90/p99/max;
* errors: error frames, failed connections, closed sockets;
* lost: actions acknowledged (seen applied) that are missing from the log at the end.

Then node 1 is killed (``kill -9``) and the run goes on for ``--after`` seconds:

* for each table node 1 owned: the time from the kill to its next logged event (its bots or
  people play again at another node), p50 and max, and how many never played again;
* at the end every table's log is replayed through the server's own code: each event in order
  (0..n-1, none missing, none twice), every action legal; each acknowledged action of each
  person is in the log exactly once, at the place it was acknowledged.

    python benchmarks/cluster.py                          # 3 nodes, 1000 players
    python benchmarks/cluster.py --players 1000,2000 --seconds 40 --after 20

Every request goes to 127.0.0.1 or a Unix socket; every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import glob
import json
import multiprocessing as mp
import os
import platform
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server import cpu_seconds, free_port  # noqa: E402  (benchmarks/server.py)

THINK = (0.4, 1.6)


# --- where the machine's CPU goes --------------------------------------------------------------

def tree_cpu(pids: "list[int]") -> float:
    """CPU seconds (user + system) of the processes ``pids`` and all their descendants (a node's
    bot workers, PostgreSQL's backends), read from /proc; a process that is gone counts 0."""
    parent: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    parent[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                pass
    todo, seen = list(pids), set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        todo.extend(c for c, pp in parent.items() if pp == p)
    total = 0.0
    for p in seen:
        try:
            total += cpu_seconds(p)
        except OSError:
            pass
    return total


def machine_busy() -> float:
    """CPU seconds the whole machine spent busy so far (every core, from /proc/stat)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + v[4]
    return (sum(v[:8]) - idle) / os.sysconf("SC_CLK_TCK")


# --- PostgreSQL and Redis under a temporary directory ----------------------------------------

def pg_bin(name: str) -> str:
    for path in sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True):
        return path
    found = shutil.which(name)
    if found:
        return found
    raise SystemExit(f"PostgreSQL's {name} is needed (Debian: apt-get install postgresql)")


class Postgres:
    def __init__(self, synchronous_commit: str = "on") -> None:
        self.base = tempfile.mkdtemp(prefix="ohhell-bench-pg-")
        self.data, self.sock = os.path.join(self.base, "data"), os.path.join(self.base, "sock")
        os.makedirs(self.sock)
        self.port = free_port()
        self.prefix: list[str] = []
        self.user = "postgres"
        if os.geteuid() == 0:
            shutil.chown(self.base, "postgres")
            shutil.chown(self.sock, "postgres")
            self.prefix = ["runuser", "-u", "postgres", "--"]
        else:
            import getpass
            self.user = getpass.getuser()
        subprocess.run(self.prefix + [pg_bin("initdb"), "-D", self.data, "-U", self.user, "--auth=trust", "-E",
                                      "UTF8"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        subprocess.run(self.prefix + [pg_bin("pg_ctl"), "-D", self.data, "-w", "-l",
                                      os.path.join(self.base, "log"), "-o",
                                      f"-k {self.sock} -p {self.port} -c listen_addresses='' "
                                      f"-c synchronous_commit={synchronous_commit} -c max_connections=200",
                                      "start"], check=True, stdout=subprocess.DEVNULL)
        self.url = f"postgresql://{self.user}@/postgres?host={self.sock}&port={self.port}"
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            self.pid = int(f.readline())

    def database(self, name: str) -> str:
        import psycopg
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url.replace("/postgres?", f"/{name}?")

    def stop(self) -> None:
        subprocess.run(self.prefix + [pg_bin("pg_ctl"), "-D", self.data, "-m", "fast", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(self.base, ignore_errors=True)


class Redis:
    def __init__(self) -> None:
        server = shutil.which("redis-server") or "/usr/bin/redis-server"
        if not os.path.exists(server):
            raise SystemExit("redis-server is needed (Debian: apt-get install redis-server)")
        self.base = tempfile.mkdtemp(prefix="ohhell-bench-redis-")
        self.port = free_port()
        self.proc = subprocess.Popen([server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no", "--dir", self.base, "--logfile",
                                      os.path.join(self.base, "log")], stdout=subprocess.DEVNULL)
        self.url = f"redis://127.0.0.1:{self.port}/0"
        import redis
        for _ in range(100):
            try:
                if redis.Redis(port=self.port).ping():
                    return
            except redis.RedisError:
                time.sleep(0.05)
        raise SystemExit("redis-server did not start")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)
        shutil.rmtree(self.base, ignore_errors=True)


# --- simulated people (in worker processes) --------------------------------------------------

async def person(urls: list[str], table: str, seat: int, start_at: float, measure_from: float, kill_at: float,
                 stop_at: float, out: dict, rng: random.Random) -> None:
    """One person at ``table``/``seat``, connected to ``urls[0]``, then the next node whenever its
    socket closes.  ``out["acks"]`` gets ``[game, n]`` of each action of its seen applied (``n``:
    the actions before it in the game)."""
    import websockets
    await asyncio.sleep(max(0.0, start_at - time.time()))
    token = None
    pending: "dict | None" = None
    node = 0
    connected_once = False
    while time.time() < stop_at + 5:
        try:
            ws = await websockets.connect(urls[node % len(urls)], max_size=1 << 22, open_timeout=30)
        except Exception as e:  # noqa: BLE001 - counted; try the next node
            out["connect_retries" if time.time() < measure_from else "errors" if time.time() < kill_at
                else "errors_after"].append(f"connect: {type(e).__name__}")
            node += 1
            await asyncio.sleep(rng.uniform(0.2, 1.0))
            continue
        if connected_once:
            out["reconnects"] += 1
        connected_once = True
        act_task: "asyncio.Task | None" = None
        state = None

        async def act_later(game: int, n: int, action, delay: float) -> None:
            nonlocal pending
            await asyncio.sleep(delay)
            if time.time() >= stop_at:
                return
            pending = {"game": game, "n": n, "t": time.perf_counter(), "wall": time.time(), "ws": ws}
            out["sent"] += 1
            await ws.send(json.dumps({"v": 1, "type": "act", "action": action}))

        try:
            await ws.send(json.dumps({"v": 1, "type": "hello", "table": table, "token": token}))
            if token is None:
                await ws.send(json.dumps({"v": 1, "type": "join", "seat": seat, "name": f"P{seat}"}))
            while True:
                left = stop_at + 5 - time.time()
                if left <= 0:
                    break
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=min(left, 1.0))
                except asyncio.TimeoutError:
                    g = state["game"] if state else None
                    if pending is not None and g is not None and time.perf_counter() - pending["t"] > 5.0 \
                            and (g["number"], g["n"]) == (pending["game"], pending["n"]) and g["view"]["legal"] \
                            and time.time() < stop_at:
                        # no answer for 5 s while the table still waits for us: it was lost with a
                        # node that died (a person would click again)
                        pending = None
                        out["resent"] += 1
                        act_task = asyncio.create_task(act_later(g["number"], g["n"],
                                                                 rng.choice(g["view"]["legal"]), 0.0))
                    if time.time() >= stop_at + 5:
                        break
                    continue
                msg = json.loads(text)
                if msg["type"] == "joined":
                    token = msg["token"]
                    continue
                if msg["type"] == "error":
                    out["errors" if time.time() < kill_at else "errors_after"].append(msg["code"])
                    pending = None
                    continue
                if msg["type"] != "state" or not msg["game"]:
                    continue
                state = msg
                g = msg["game"]
                if pending is not None and (g["number"], g["n"]) > (pending["game"], pending["n"]):
                    if pending["ws"] is ws:   # answered on the socket it was sent on
                        latency = time.perf_counter() - pending["t"]
                        if measure_from <= pending["wall"] < kill_at:
                            out["latencies"].append(latency)
                            # seat 0 connects to the table's owner first; 1 and 2 through other nodes
                            out["local" if seat == 0 else "remote"].append(latency)
                    out["acks"].append([pending["game"], pending["n"]])
                    pending = None
                v = g["view"]
                if time.time() >= stop_at and pending is None:
                    break
                if v["phase"] == "over":
                    if seat not in msg["table"]["votes"] and time.time() < stop_at - 5:
                        await ws.send(json.dumps({"v": 1, "type": "rematch"}))
                    continue
                if v["legal"] and msg["you"]["seat"] == seat and (act_task is None or act_task.done()):
                    if pending is not None and (g["number"], g["n"]) == (pending["game"], pending["n"]) and (
                            pending["ws"] is not ws or time.perf_counter() - pending["t"] > 3.0):
                        pending = None   # sent to a node that died before it was applied: act again
                        out["resent"] += 1
                    if pending is None:
                        action = rng.choice(v["legal"])
                        act_task = asyncio.create_task(act_later(g["number"], g["n"], action,
                                                                 rng.uniform(*THINK)))
            out["final_n"][f"{table}/{seat}"] = (state["game"]["number"], state["game"]["n"]) if state else None
            await ws.close()
            return
        except Exception as e:  # noqa: BLE001 - the node went away: reconnect to the next
            if time.time() < stop_at:
                out["dropped"].append(f"{type(e).__name__}")
            if act_task is not None:
                act_task.cancel()
            node += 1
            await asyncio.sleep(rng.uniform(0.2, 1.0))   # the page waits 0.3-0.5 s, then backs off
    out["final_n"].setdefault(f"{table}/{seat}", None)


def client_worker(assignments: list, start: float, measure_from: float, kill_at: float, stop_at: float, seed: int,
                  q, think: tuple = THINK) -> None:
    global THINK
    THINK = think
    out: dict = {"latencies": [], "local": [], "remote": [], "errors": [], "errors_after": [], "connect_retries": [], "dropped": [], "sent": 0, "resent": 0, "reconnects": 0,
                 "final_n": {}, "acks_by": {}}
    rng = random.Random(seed)

    async def one(i: int, urls: list[str], table: str, seat: int) -> None:
        acks: list = []   # this person's; every other count is the worker's
        await person(urls, table, seat, start + i * 0.004, measure_from, kill_at, stop_at, _View(out, acks),
                     random.Random(rng.random()))
        out["acks_by"][f"{table}/{seat}"] = acks

    async def main():
        await asyncio.gather(*(one(i, urls, table, seat) for i, (urls, table, seat) in enumerate(assignments)))
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass
    asyncio.run(main())
    q.put(out)


class _View(dict):
    """A person's view of the worker's shared results, with its own list of acknowledgements."""

    def __init__(self, shared: dict, acks: list) -> None:
        super().__init__()
        self.shared = shared
        self.acks = acks

    def __getitem__(self, key):
        return self.acks if key == "acks" else self.shared[key]

    def __setitem__(self, key, value):
        self.shared[key] = value


# --- checking every table's log ---------------------------------------------------------------

def check_logs(db: str, tables: list[str], acks_by: dict) -> dict:
    """Replay every table's log through the server's own code and check each acknowledged action
    is in it once, where it was acknowledged."""
    import psycopg

    from ohhell.server.storage import Event
    from ohhell.server.tables import Table
    manager = types.SimpleNamespace(bot_delay=0.7, bot_accounts=set(), events_revealed=set(), closing=True)
    bad, acts, missing, games = [], 0, 0, 0
    with psycopg.connect(db) as conn:
        for tid in tables:
            rows = conn.execute("SELECT seq, kind, data, ts FROM ohhell_events WHERE table_id=%s ORDER BY seq",
                                (tid,)).fetchall()
            events = [Event(seq, kind, json.loads(data), ts) for seq, kind, data, ts in rows]
            if [e.seq for e in events] != list(range(len(events))):
                bad.append(f"{tid}: the log skips or repeats an event")
                continue
            table = Table(tid, manager)   # type: ignore[arg-type]
            try:
                table.replay(events)     # every action checked by the rules as it is applied
            except Exception as e:  # noqa: BLE001
                bad.append(f"{tid}: does not replay: {e}")
                continue
            logged: dict[tuple, int] = {}
            n_in_game: dict[int, int] = {}
            for e in events:
                if e.kind == "act":
                    n = n_in_game.get(e.data["game"], 0)
                    logged[(e.data["game"], n)] = e.data["seat"]
                    n_in_game[e.data["game"]] = n + 1
                    acts += 1
            games += len(n_in_game)
            for seat in range(3):
                for game, n in acks_by.get(f"{tid}/{seat}", []):
                    if logged.get((game, n)) != seat:
                        missing += 1
    return {"bad_logs": bad, "acts_logged": acts, "games": games, "acks_missing": missing}


# --- one load level ---------------------------------------------------------------------------

def _pct(values: list, p: float) -> float:
    return values[min(len(values) - 1, int(p * len(values)))] * 1000 if values else float("nan")


def run_level(pg: Postgres, redis: "Redis", players: int, nodes: int, seconds: float, warmup: float,
              after: float, workers: int, bot: str, bot_delay: float, think: tuple, kill: bool) -> dict:
    import httpx
    import psycopg
    redis_url = redis.url
    db = pg.database(f"bench{players}")
    tables = players // 4
    ports: list[int] = []
    while len(set(ports)) < nodes:   # (one port twice would put two nodes on one address)
        ports = [free_port() for _ in range(nodes)]
    logs = [tempfile.NamedTemporaryFile("w+", prefix=f"ohhell-node{i}-", suffix=".log", delete=False)
            for i in range(nodes)]
    procs = [subprocess.Popen([sys.executable, "-m", "ohhell.cli", "serve", "--port", str(p), "--db", db,
                               "--redis", redis_url, "--bot-delay", str(bot_delay), "--create-limit", "0",
                               "--max-open-tables", "100000", "--max-sockets-per-address", "0",
                               "--log-level", "warning"], stdout=log, stderr=subprocess.STDOUT)
             for p, log in zip(ports, logs)]
    bases = [f"http://127.0.0.1:{p}" for p in ports]
    urls = [f"ws://127.0.0.1:{p}/ws" for p in ports]
    try:
        for base in bases:
            for _ in range(600):
                try:
                    if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            else:
                raise RuntimeError(f"a node did not start: {open(logs[bases.index(base)].name).read()[-2000:]}")
        ids = []
        clients = [httpx.Client(base_url=b, timeout=30) for b in bases]
        for i in range(tables):
            body = {"rules": {"players": 4}, "seats": [{"kind": "open"}] * 3 + [{"kind": "bot", "bot": bot}]}
            r = clients[i % nodes].post("/api/tables", json=body)
            r.raise_for_status()
            ids.append(r.json()["id"])
        node_ids = [c.get("/healthz").json()["cluster"]["node"] for c in clients]
        # each person starts at a node of its own among the table's three, then the next ones
        assignments = [([urls[(i + s) % nodes] for s in range(seat, seat + nodes)] if nodes > 1 else urls,
                        t, seat) for i, t in enumerate(ids) for seat in range(3)]
        ramp = len(assignments) * 0.004 / workers + 2.0
        start = time.time() + 1.0
        measure_from = start + ramp + warmup
        kill_at = measure_from + seconds
        stop_at = kill_at + (after if kill else 0.0)
        q = mp.get_context("spawn").Queue()
        workers_ = []
        for w in range(workers):
            mine = [a for a in assignments if ids.index(a[1]) % workers == w]
            p = mp.get_context("spawn").Process(target=client_worker, args=(mine, start, measure_from, kill_at,
                                                                            stop_at, w, q, think))
            p.start()
            workers_.append(p)
        while time.time() < measure_from:
            time.sleep(0.05)
        parts = {"nodes": [p.pid for p in procs], "clients": [p.pid for p in workers_],
                 "postgresql": [pg.pid], "redis": [redis.proc.pid]}
        cpu_start = [cpu_seconds(p.pid) for p in procs]
        parts_start = {k: tree_cpu(v) for k, v in parts.items()}
        busy_start = machine_busy()
        while time.time() < kill_at:
            time.sleep(0.05)
        cpu_used = [cpu_seconds(p.pid) - c for p, c in zip(procs, cpu_start)]
        parts_used = {k: tree_cpu(v) - parts_start[k] for k, v in parts.items()}
        busy = machine_busy() - busy_start
        recovery: dict = {}
        if kill:
            with psycopg.connect(db) as conn:
                owned = [r[0] for r in conn.execute("SELECT table_id FROM ohhell_owners WHERE node=%s",
                                                    (node_ids[0],)).fetchall()]
            killed = time.time()
            procs[0].send_signal(signal.SIGKILL)
            procs[0].wait(10)
            while time.time() < stop_at:
                time.sleep(0.05)
            with psycopg.connect(db) as conn:
                first = dict(conn.execute("SELECT table_id, min(ts) FROM ohhell_events WHERE table_id = ANY(%s) "
                                          "AND ts > %s GROUP BY table_id", (owned, killed)).fetchall())
                since = [r[0] - killed for r in conn.execute(
                    "SELECT since FROM ohhell_owners WHERE table_id = ANY(%s)", (owned,)).fetchall()]
            waits = sorted(first[t] - killed for t in owned if t in first)
            since.sort()
            recovery = {"owned": len(owned), "played_again": len(waits), "stalled": len(owned) - len(waits),
                        "p50_s": statistics.median(waits) if waits else float("nan"),
                        "max_s": waits[-1] if waits else float("nan"),
                        "owned_again_p50_s": statistics.median(since) if since else float("nan"),
                        "owned_again_max_s": since[-1] if since else float("nan"),
                        "taken_over": sum(c.get("/healthz").json()["cluster"]["takeovers"] for c in clients[1:])}
        results = [q.get(timeout=seconds + after + 180) for _ in workers_]
        for p in workers_:
            p.join(30)
        acks_by = {k: v for r in results for k, v in r["acks_by"].items()}
        check = check_logs(db, ids, acks_by)
        lat = sorted(x for r in results for x in r["latencies"])
        errors = [e for r in results for e in r["errors"]]
        pct = (lambda p: lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan"))
        return {
            "players": players, "nodes": nodes, "tables": tables, "people": len(assignments), "bots": tables,
            "window_s": seconds, "actions_measured": len(lat), "actions_per_s": len(lat) / seconds,
            "p50_ms": pct(0.5), "p90_ms": pct(0.9), "p99_ms": pct(0.99), "max_ms": lat[-1] * 1000 if lat else 0,
            "errors": len(errors), "error_kinds": sorted(set(errors))[:6],
            "errors_after_kill": collections.Counter(e for r in results for e in r["errors_after"]),
            "connect_retries_ramp": sum(len(r["connect_retries"]) for r in results),
            "dropped_sockets": sum(len(r["dropped"]) for r in results),
            "reconnects": sum(r["reconnects"] for r in results), "resent": sum(r["resent"] for r in results),
            "acks": sum(len(v) for v in acks_by.values()), **check,
            "node_cpu": [c / seconds for c in cpu_used], "recovery": recovery,
            # cores busy on average over the window, by part (trees: a node with its bot workers,
            # PostgreSQL with its backends), and the whole machine (other work included)
            "cores": {k: v / seconds for k, v in parts_used.items()}, "machine_cores": busy / seconds,
            "cpu_ms_per_action": 1000 * sum(parts_used.values()) / max(1, len(lat)),
            "p50_local_ms": _pct(sorted(x for r in results for x in r["local"]), 0.5),
            "p50_remote_ms": _pct(sorted(x for r in results for x in r["remote"]), 0.5),
            "p99_local_ms": _pct(sorted(x for r in results for x in r["local"]), 0.99),
            "p99_remote_ms": _pct(sorted(x for r in results for x in r["remote"]), 0.99),
        }
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
        for log in logs:
            log.close()
            if os.environ.get("OHHELL_KEEP_LOGS"):
                print(f"node log: {log.name}", file=sys.stderr)
            else:
                os.remove(log.name)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="1000", help="comma-separated load levels (multiples of 4)")
    ap.add_argument("--nodes", type=int, default=3, help="cluster nodes (default 3)")
    ap.add_argument("--seconds", type=float, default=40.0, help="steady measured window (default 40)")
    ap.add_argument("--warmup", type=float, default=8.0, help="seconds after the ramp before measuring")
    ap.add_argument("--after", type=float, default=20.0, help="seconds the run goes on after the kill (default 20)")
    ap.add_argument("--no-kill", action="store_true", help="do not kill a node")
    ap.add_argument("--workers", type=int, default=2, help="client processes (default 2)")
    ap.add_argument("--bot", default="heuristic", help="the bot in each table's fourth seat")
    ap.add_argument("--bot-delay", type=float, default=0.7, help="the nodes' bot delay (default 0.7 s)")
    ap.add_argument("--think", default="0.4,1.6", help="a person's think time range in seconds")
    ap.add_argument("--synchronous-commit", default="on", choices=("on", "off"),
                    help="PostgreSQL's synchronous_commit (default on, its own default)")
    ap.add_argument("--json", default=None, help="also write the results here")
    args = ap.parse_args()
    think = tuple(float(x) for x in args.think.split(","))
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
          f"{args.nodes} nodes, think {args.think} s, bot {args.bot} after {args.bot_delay} s, "
          f"{args.seconds:g} s windows, synchronous_commit={args.synchronous_commit}; load average "
          f"{os.getloadavg()[0]:.1f}", flush=True)
    pg, redis = Postgres(args.synchronous_commit), Redis()
    rows = []
    try:
        for players in (int(x) for x in args.players.split(",")):
            r = run_level(pg, redis, players, args.nodes, args.seconds, args.warmup, args.after, args.workers,
                          args.bot, args.bot_delay, think, not args.no_kill)
            rows.append(r)
            rec = r["recovery"]
            cores = r["cores"]
            print(f"      CPU over the window: {', '.join(f'{k} {v:.2f}' for k, v in cores.items())} cores "
                  f"({sum(cores.values()):.2f} in all; the machine {r['machine_cores']:.2f} of {os.cpu_count()}); "
                  f"{r['cpu_ms_per_action']:.1f} ms of CPU per action, so "
                  f"{r['cpu_ms_per_action'] * r['actions_per_s'] / r['players'] * 5000 / 1000:.1f} cores "
                  f"for 5,000 players at this pace", flush=True)
            print(f"{r['players']:>5} players on {r['nodes']} nodes ({r['tables']} tables, {r['bots']} bots): "
                  f"{r['actions_measured']} actions ({r['actions_per_s']:.0f}/s), p50 {r['p50_ms']:.1f} ms, "
                  f"p90 {r['p90_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, max {r['max_ms']:.0f} ms, "
                  f"errors {r['errors']} {r['error_kinds'] or ''} (connections retried during the ramp: "
                  f"{r['connect_retries_ramp']}); at the table's owner p50 {r['p50_local_ms']:.1f} ms, p99 "
                  f"{r['p99_local_ms']:.1f} ms, through another node p50 {r['p50_remote_ms']:.1f} ms, p99 "
                  f"{r['p99_remote_ms']:.1f} ms; node CPU "
                  f"{', '.join(f'{c * 100:.0f}%' for c in r['node_cpu'])}; load average {os.getloadavg()[0]:.1f}",
                  flush=True)
            if rec:
                print(f"      kill -9 of node 1: {rec['owned']} tables it owned, owned again by a live node "
                      f"p50 {rec['owned_again_p50_s']:.2f} s, max {rec['owned_again_max_s']:.2f} s after the kill; "
                      f"{rec['played_again']} played again (next event p50 {rec['p50_s']:.2f} s, max "
                      f"{rec['max_s']:.2f} s after the kill), {rec['stalled']} stalled; {rec['taken_over']} taken "
                      f"over; {r['reconnects']} reconnects, {r['resent']} actions sent again (never applied); "
                      f"errors after the kill: {dict(r['errors_after_kill']) or 0}", flush=True)
            print(f"      logs: {r['games']} games, {r['acts_logged']} actions, all replayed: "
                  f"{'yes' if not r['bad_logs'] else r['bad_logs'][:3]}; {r['acks']} acknowledged actions, "
                  f"{r['acks_missing']} missing or misplaced in the log", flush=True)
    finally:
        redis.stop()
        pg.stop()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
