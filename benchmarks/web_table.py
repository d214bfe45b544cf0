"""The web table page in Debian's chromium: page weight, load time and the main thread during play.

Starts the real ``ohhell serve`` on loopback (fresh SQLite file), seats one person through
the page at a 4-player table with three random bots, and measures:

* load: ``navigationStart`` to ``loadEventEnd`` and the bytes transferred (navigation +
  every resource, by the Resource Timing API), over ``--loads`` cold loads (a fresh
  browser context each);
* the main thread during play, from the first bid to the game-over screen while the
  person plays with the keyboard and the animations run at the normal speed:
  - every long task (over 50 ms of wall-clock time, the browser's Long Tasks API): the
    target;
  - every task of the page's renderer main thread from a Chrome trace (CDP ``Tracing``,
    category ``toplevel``): its wall time and its **thread CPU time** (``tdur``).  On a
    loaded machine a task's wall time stretches while the thread waits for a core; its CPU
    time does not, so it says what the page itself costs;
  - the time the page takes to handle each state frame (``window.ohhell.renderTimes``)
    and the longest gap between animation frames.

``--baseline REF`` runs the same games on the table page of git revision REF too (its
``src/ohhell/server/static`` over a copy of this checkout's package, so only the page
differs), alternating the two pages game by game so that both share the machine's load:

    python benchmarks/web_table.py                          # 5 loads, one game of 8,7,6 cards
    python benchmarks/web_table.py --baseline main --games 3 --loads 0

The targets (issue 13): the table page loads in under 1 s on loopback and transfers under
300 kB; no long task over 50 ms during a trick.  Every request goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter

import httpx
from playwright.sync_api import sync_playwright

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "src", "ohhell")
CHROMIUM = "/usr/bin/chromium"
LONG_MS = 50.0
OBSERVE = """() => {
  window.__long = [];
  window.__gap = 0;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) {
    const s = window.ohhell && window.ohhell.state;
    const v = s && s.game ? s.game.view : null;
    window.__long.push({ms: e.duration, phase: v ? v.phase : "none", trick: v ? v.trick.cards.length : 0});
  } })
    .observe({ type: "longtask", buffered: true });
  let last = performance.now();
  const tick = (t) => { window.__gap = Math.max(window.__gap, t - last); last = t; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
}"""
# what the driver needs to know each turn (the whole state would cost the page a serialisation)
TURN = """() => { const g = window.ohhell.state.game;
  return g ? {phase: g.view.phase, legal: g.view.legal, n: g.n} : null; }"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: str, port: int, pythonpath: str | None = None) -> subprocess.Popen:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.Popen([sys.executable, "-m", "ohhell.cli", "serve", "--port", str(port), "--db", db,
                             "--log-level", "warning", "--bot-delay", "0.3"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("ohhell serve did not start")


def baseline_package(ref: str, tmp: str) -> str:
    """A copy of this checkout's package with REF's table page (static files); its parent."""
    out = os.path.join(tmp, "baseline")
    shutil.copytree(PACKAGE, os.path.join(out, "ohhell"), ignore=shutil.ignore_patterns("__pycache__"))
    static = os.path.join(out, "ohhell", "server", "static")
    shutil.rmtree(static)
    tar = subprocess.run(["git", "-C", ROOT, "archive", ref, "src/ohhell/server/static"],
                         check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(os.path.join(tmp, "archive"), filter="data")
    shutil.copytree(os.path.join(tmp, "archive", "src", "ohhell", "server", "static"), static)
    return out


def new_table(base: str, hands: list[int]) -> str:
    r = httpx.post(base + "/api/tables", json={"rules": {"players": 4, "hand_sizes": hands, "hook": True},
                                               "seats": [{"kind": "open"}] + [{"kind": "bot", "bot": "random"}] * 3})
    r.raise_for_status()
    return base + r.json()["url"]


def measure_load(browser, url: str) -> dict:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_function("() => window.ohhell && window.ohhell.state")
    page.wait_for_load_state("load")
    got = page.evaluate("""() => {
        const nav = performance.getEntriesByType("navigation")[0];
        const res = performance.getEntriesByType("resource");
        const bytes = nav.transferSize + res.reduce((a, r) => a + (r.transferSize || 0), 0);
        return {load: nav.loadEventEnd, bytes, files: res.length + 1};
    }""")
    ctx.close()
    return got


def renderer_tasks(events: list[dict]) -> list[tuple[float, float]]:
    """(wall ms, thread CPU ms) of every top-level task of the page's renderer main thread."""
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    tasks: dict[tuple, list[tuple[float, float]]] = {}
    for e in events:
        key = (e.get("pid"), e.get("tid"))
        if e.get("ph") == "X" and e.get("name") == "ThreadControllerImpl::RunTask" and names.get(key) == "CrRendererMain":
            tasks.setdefault(key, []).append((e["dur"] / 1000, e.get("tdur", 0) / 1000))
    if not tasks:
        return []
    # the page's renderer is the one that worked most
    return max(tasks.values(), key=lambda ts: sum(c for _, c in ts))


def trace(cdp, page, action) -> list[dict]:
    """The trace events (category ``toplevel``) recorded while ``action()`` runs."""
    events: list[dict] = []
    done: list[bool] = []

    def collect(e: dict) -> None:
        events.extend(e["value"])

    def complete(e: dict) -> None:
        done.append(True)
    cdp.on("Tracing.dataCollected", collect)
    cdp.on("Tracing.tracingComplete", complete)
    cdp.send("Tracing.start", {"traceConfig": {"includedCategories": ["toplevel"]}, "transferMode": "ReportEvents"})
    try:
        action()
    finally:
        cdp.send("Tracing.end")
        while not done:
            page.wait_for_timeout(100)
        cdp.remove_listener("Tracing.dataCollected", collect)
        cdp.remove_listener("Tracing.tracingComplete", complete)
    return events


def drive(page) -> dict:
    """Play the person's seat with the keyboard until the game-over screen; the page's figures."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        turn = page.evaluate(TURN)
        if turn["phase"] == "over":
            break
        if turn["legal"]:
            if turn["phase"] == "bid":
                page.keyboard.press(str(turn["legal"][0]))
            else:
                page.keyboard.press("ArrowRight")
                page.keyboard.press("Enter")
            page.wait_for_function(f"() => window.ohhell.state.game.n > {turn['n']}", timeout=20000)
        else:
            time.sleep(0.05)
    page.wait_for_selector("#standings li")
    page.wait_for_timeout(500)
    out = page.evaluate("() => ({long: window.__long, gap: window.__gap, renders: window.ohhell.renderTimes})")
    out["actions"] = page.evaluate("() => window.ohhell.state.game.n")
    return out


IDLE_S = 3.0


def play_game(browser, url: str) -> dict:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    page.goto(url)
    page.fill("#name", "Bench")
    page.click("button.join[data-seat='0']")
    page.wait_for_function("() => window.ohhell.state && window.ohhell.state.game")
    # the page while it waits for the person's first bid (the deal's motion over): only what
    # the page itself keeps running (the turn ring) uses the main thread
    page.wait_for_function("() => window.ohhell.state.game.view.legal.length > 0")
    page.wait_for_timeout(1500)
    idle = renderer_tasks(trace(cdp, page, lambda: time.sleep(IDLE_S)))
    page.evaluate(OBSERVE)
    page.evaluate("() => { window.__long = []; window.__gap = 0; }")  # from the first bid on
    game: dict = {}
    events = trace(cdp, page, lambda: game.update(drive(page)))
    out = game
    out["tasks"] = renderer_tasks(events)
    out["idle_cpu_per_s"] = sum(c for _, c in idle) / IDLE_S
    ctx.close()
    return out


def load_average() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def summary(games: list[dict]) -> dict:
    long = [x["ms"] for g in games for x in g["long"]]
    tasks = [t for g in games for t in g["tasks"]]
    cpu = sorted(c for _, c in tasks)
    renders = sorted(r for g in games for r in g["renders"])
    long_trace = [t for t in tasks if t[0] > LONG_MS]
    return {
        "games": len(games), "actions": sum(g["actions"] for g in games),
        "long": len(long), "long_per_game": [len(g["long"]) for g in games], "longest": max(long, default=0),
        "long_play": sum(1 for g in games for x in g["long"] if x["phase"] == "play"),
        "long_phases": dict(sorted(Counter(x["phase"] for g in games for x in g["long"]).items())),
        "idle": max(g["idle_cpu_per_s"] for g in games),
        "tasks": len(tasks), "cpu_max": cpu[-1] if cpu else 0, "cpu_p99": cpu[int(len(cpu) * .99)] if cpu else 0,
        "cpu_over": sum(1 for c in cpu if c > LONG_MS),
        "cpu_over_25": sum(1 for c in cpu if c > 25),
        "cpu_total": sum(cpu),
        "long_trace": len(long_trace), "long_trace_cpu": sorted((round(c, 1) for _, c in long_trace), reverse=True),
        "render_median": statistics.median(renders) if renders else 0,
        "render_p90": renders[int(len(renders) * .9)] if renders else 0, "render_max": renders[-1] if renders else 0,
        "gap": max(g["gap"] for g in games),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--loads", type=int, default=5, help="cold loads of the (new) page")
    ap.add_argument("--hands", default="8,7,6")
    ap.add_argument("--games", type=int, default=1, help="games per page")
    ap.add_argument("--baseline", metavar="REF", help="also play on the table page of this git revision")
    ap.add_argument("--json", metavar="FILE", help="write every game's figures here")
    args = ap.parse_args()
    hands = [int(x) for x in args.hands.split(",")]
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs; chromium headless at 1280x900; "
          f"load average at the start {load_average()}")
    results: dict[str, list[dict]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        pages = {"this checkout": None}
        if args.baseline:
            pages = {f"baseline {args.baseline}": baseline_package(args.baseline, tmp), **pages}
        servers = {}
        try:
            for label, path in pages.items():
                port = free_port()
                servers[label] = (f"http://127.0.0.1:{port}",
                                  start_server(os.path.join(tmp, f"{len(servers)}.sqlite3"), port, path))
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
                base = servers["this checkout"][0]
                loads = [measure_load(browser, new_table(base, hands)) for _ in range(args.loads)]
                for k in range(args.games):
                    for label in (pages if k % 2 == 0 else reversed(list(pages))):
                        results.setdefault(label, []).append(play_game(browser, new_table(servers[label][0], hands)))
                        print(f"  game {k + 1} on {label}: done (load average {load_average()})", flush=True)
                browser.close()
        finally:
            for _, proc in servers.values():
                proc.terminate()
                proc.wait(10)
    print(f"load average at the end {load_average()}")
    if loads:
        load_ms = [x["load"] for x in loads]
        print(f"load event: median {statistics.median(load_ms):.0f} ms, max {max(load_ms):.0f} ms over {len(loads)} cold loads")
        print(f"transferred: {max(x['bytes'] for x in loads) / 1000:.1f} kB in {loads[0]['files']} files")
    rows = [
        ("games (actions)", lambda s: f"{s['games']} ({s['actions']})"),
        ("long tasks over 50 ms, wall (Long Tasks API)", lambda s: f"{s['long']} {s['long_per_game']}, longest {s['longest']:.0f} ms"),
        ("  by phase (play: during a trick)", lambda s: ", ".join(f"{k} {v}" for k, v in s["long_phases"].items()) or "none"),
        ("renderer main-thread tasks (trace)", lambda s: f"{s['tasks']}, {s['cpu_total'] / 1000:.1f} s CPU"),
        ("  over 50 ms wall: their CPU ms", lambda s: f"{s['long_trace']}: {s['long_trace_cpu'][:12]}"),
        ("  CPU per task: max / p99", lambda s: f"{s['cpu_max']:.1f} / {s['cpu_p99']:.1f} ms"),
        ("  tasks over 50 ms CPU / over 25 ms CPU", lambda s: f"{s['cpu_over']} / {s['cpu_over_25']}"),
        ("state frame handled: median / p90 / max", lambda s: f"{s['render_median']:.1f} / {s['render_p90']:.1f} / {s['render_max']:.1f} ms"),
        ("longest gap between animation frames", lambda s: f"{s['gap']:.0f} ms"),
        ("waiting for your bid: main-thread CPU", lambda s: f"{s['idle']:.1f} ms a second (the most of any game)"),
    ]
    sums = {label: summary(games) for label, games in results.items()}
    width = max(len(r[0]) for r in rows)
    print(f"\n{'':{width}}  " + "  |  ".join(sums))
    for name, fn in rows:
        print(f"{name:{width}}  " + "  |  ".join(fn(s) for s in sums.values()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"hands": hands, "loads": loads, "games": results, "summary": sums}, f)


if __name__ == "__main__":
    main()
