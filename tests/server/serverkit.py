"""Test kit for the server tests: servers in a thread or a subprocess, a websocket client."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import websockets

from ohhell.server import create_app, uvicorn_config

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_ports(n: int) -> list[int]:
    """``n`` different free ports (each socket stays bound until all are chosen: two
    :func:`free_port` calls in a row may return the same one)."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


class ThreadServer:
    """The app under uvicorn on a free port, in a background thread."""

    def __init__(self, db: str = ":memory:", uvicorn: "dict | None" = None, **options) -> None:
        """``options`` go to :func:`create_app`, ``uvicorn`` to :func:`uvicorn_config`."""
        options.setdefault("bot_pool", "thread")
        options.setdefault("bot_delay", 0.0)
        options.setdefault("rate_limit", (500.0, 500.0))  # scripted players act faster than people
        options.setdefault("create_limit", None)          # tests create many tables at once
        self.app = create_app(db, **options)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        config = uvicorn_config(self.app, "127.0.0.1", self.port, log_level="warning", **(uvicorn or {}))
        import uvicorn as _uvicorn
        self.server = _uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "ThreadServer":
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    @property
    def manager(self):
        return self.app.state.manager

    def create(self, rules: dict, seats: list, **extra) -> dict:
        r = httpx.post(self.base + "/api/tables", json={"rules": rules, "seats": seats, **extra})
        assert r.status_code == 201, r.text
        return r.json()

    def record(self, table_id: str, game: int = 1) -> dict:
        r = httpx.get(f"{self.base}/api/tables/{table_id}/games/{game}/record")
        assert r.status_code == 200, r.text
        return r.json()


class ProcessServer:
    """``ohhell serve`` in a subprocess (the real command, process bot pool)."""

    def __init__(self, db: str, *extra: str, port: "int | None" = None) -> None:
        self.db = db
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self.extra = extra
        self.proc: "subprocess.Popen | None" = None
        self.log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)

    def start(self) -> "ProcessServer":
        return self.launch().ready()

    def launch(self) -> "ProcessServer":
        """Start the process (:meth:`ready` waits until it answers: several start side by side)."""
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ohhell.cli", "serve", "--port", str(self.port), "--db", self.db,
             "--log-level", "warning", *self.extra],
            stdout=self.log, stderr=subprocess.STDOUT, cwd=ROOT)
        return self

    def ready(self) -> "ProcessServer":
        assert self.proc is not None
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"ohhell serve exited with {self.proc.returncode}: {self.output()}")
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"ohhell serve did not start: {self.output()}")
            time.sleep(0.1)

    def output(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text()[-3000:]

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


class Client:
    """A websocket client that keeps every frame it receives (for audits)."""

    def __init__(self, url: str, table: str, token: "str | None" = None, admin: "str | None" = None):
        self.url = url
        self.table = table
        self.token = token
        self.admin = admin
        self.frames: list[str] = []
        self.state: "dict | None" = None
        self.errors: list[dict] = []
        self.ws = None

    async def __aenter__(self) -> "Client":
        await self.connect()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def connect(self) -> dict:
        self.ws = await websockets.connect(self.url, max_size=1 << 22)
        await self.send({"type": "hello", "table": self.table, "token": self.token, "admin": self.admin})
        return await self.wait(lambda m: m["type"] == "state")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    async def send(self, message: dict) -> None:
        await self.ws.send(json.dumps({"v": 1, **message}))

    async def send_raw(self, data) -> None:
        await self.ws.send(data)

    async def recv(self, timeout: float = 10.0) -> dict:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        self.frames.append(text)
        msg = json.loads(text)
        if msg["type"] == "state":
            self.state = msg
        elif msg["type"] == "error":
            self.errors.append(msg)
        elif msg["type"] == "joined":
            self.token = msg["token"]
        return msg

    async def wait(self, predicate, timeout: float = 20.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching frame; last state: {self.state and self.state['game']}")
            msg = await self.recv(left)
            if predicate(msg):
                return msg

    async def until_seq(self, seq: int, timeout: float = 20.0) -> dict:
        """Read frames until this client has seen the table at event ``seq`` (or later)."""
        if self.state is not None and self.state["seq"] >= seq:
            return self.state
        return await self.wait(lambda m: m["type"] == "state" and m["seq"] >= seq, timeout)

    async def join(self, seat: int, name: str, code: "str | None" = None) -> dict:
        await self.send({"type": "join", "seat": seat, "name": name, "code": code})
        return await self.wait(lambda m: m["type"] in ("joined", "error"))

    @property
    def view(self) -> "dict | None":
        return self.state["game"]["view"] if self.state and self.state["game"] else None


async def play_out(clients: list[Client], choose, *, timeout: float = 60.0) -> None:
    """Let scripted players act whenever their view says they may, until every client sees the end."""
    async def run(c: Client) -> None:
        deadline = time.monotonic() + timeout
        while True:
            v = c.view
            if v is not None and v["phase"] == "over":
                return
            if v is not None and v["legal"] and c.state["you"]["seat"] is not None:
                await c.send({"type": "act", "action": choose(c, v)})
                # wait for the state that shows our action (or an error)
                n = c.state["game"]["n"]
                await c.wait(lambda m: m["type"] == "error" or (m["type"] == "state" and m["game"]
                                                                and m["game"]["n"] > n),
                             timeout=max(1.0, deadline - time.monotonic()))
            else:
                await c.recv(max(0.5, deadline - time.monotonic()))
    await asyncio.gather(*(run(c) for c in clients))


async def play_in_step(table, clients: list[Client], until: int, pick=lambda legal: legal[0]) -> None:
    """In-process servers only: the clients act one at a time, in step with the table, until the
    game has ``until`` actions and no bot is about to move."""
    while table.game.action_count < until:
        seq = table.seq
        for c in clients:
            await c.until_seq(seq)
        mover = next((c for c in clients if c.view["legal"]), None)
        if mover is None:  # a bot's turn
            await clients[0].until_seq(seq + 1)
            continue
        await mover.send({"type": "act", "action": pick(mover.view["legal"])})
        await mover.until_seq(seq + 1)
    while table.bot_tasks:
        await asyncio.sleep(0.01)
    for c in clients:
        await c.until_seq(table.seq)


def logged(db: str, table_id: str) -> list[dict]:
    """A table's log as the SQLite file holds it now: ``[{"seq", "ts", "kind", "data"}, ...]``
    (read through a connection of its own, so a running server is not disturbed)."""
    import sqlite3
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT seq, ts, kind, data FROM ohhell_events WHERE table_id=? ORDER BY seq",
                           (table_id,)).fetchall()
    finally:
        con.close()
    return [{"seq": q, "ts": ts, "kind": k, "data": json.loads(d)} for q, ts, k, d in rows]


# --- the frame audit -----------------------------------------------------------------------------

import re  # noqa: E402

CARD_RE = re.compile(r"^[2-9TJQKA][CDHS]$")


def strings_in(obj):
    """Every string anywhere in a JSON value (keys included)."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from strings_in(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from strings_in(v)


def entitled(record: dict, n_actions: int, seat: "int | None") -> tuple[set, "list | None", bool]:
    """From the finished record alone: the cards ``seat`` (None: a spectator) may have seen
    after ``n_actions`` actions, the hand it should hold then (None for a spectator), and
    whether every bid of the current hand is public yet."""
    players = record["rules"]["players"]
    seen: set[str] = set()
    left = n_actions
    hands = record["hands"]
    for k, h in enumerate(hands):
        if h["trump_card"]:
            seen.add(h["trump_card"])
        plays = [c for t in h["tricks"] for c in t["cards"]]
        in_hand = players + len(plays)
        if left >= in_hand and k < len(hands) - 1:
            seen.update(plays)
            left -= in_hand
            continue
        if left >= in_hand:  # the game is over
            seen.update(plays)
            return seen, ([] if seat is not None else None), True
        bids_done = min(left, players)
        played = plays[:max(0, left - players)]
        seen.update(played)
        own = None
        if seat is not None:
            mine = set(h["deal"][seat])
            order = [(t["leader"] + i) % players for t in h["tricks"] for i in range(len(t["cards"]))]
            for c, who in zip(played, order):
                if who == seat:
                    mine.discard(c)
            own = sorted(mine)
            seen.update(mine)
        public = bids_done == players or not record["rules"]["simultaneous_bidding"]
        return seen, own, public
    raise AssertionError("more actions than the record holds")


def audit_frames(frames: list[str], seat: "int | None", records: dict[int, dict], secrets_: list[str]) -> int:
    """Check every frame one client received; returns how many state frames were checked.

    A frame may show only cards its receiver is entitled to at that moment (own hand, the
    trump card, cards played), its own hand exactly, no other seat's hidden bid, and none of
    ``secrets_`` (other players' tokens; the seed while the game runs)."""
    checked = 0
    for text in frames:
        msg = json.loads(text)
        for s in secrets_:
            if s in text and not (msg["type"] == "state" and msg["game"] and msg["game"].get("seed") == s):
                raise AssertionError(f"a secret reached seat {seat}: {text[:200]}")
        if msg["type"] != "state":
            continue
        cards = {x for x in strings_in(msg) if CARD_RE.match(x)}
        g = msg["game"]
        if g is None:
            assert not cards, f"cards before the deal: {cards}"
            continue
        rec = records[g["number"]]
        if "seed" in g:
            total = sum(rec["rules"]["players"] + sum(len(t["cards"]) for t in h["tricks"]) for h in rec["hands"])
            assert g["view"]["phase"] == "over" and g["n"] == total, "the seed was revealed before the end"
        allowed, own, public = entitled(rec, g["n"], seat)
        leaked = cards - allowed
        assert not leaked, f"seat {seat} saw {sorted(leaked)} after {g['n']} actions of game {g['number']}"
        v = g["view"]
        if own is not None:
            assert sorted(v["hand"]) == own, f"seat {seat}'s hand is wrong after {g['n']} actions"
        else:
            assert v["hand"] == []
        if not public:
            for s2, b in enumerate(v["bids"]):
                assert b is None or s2 == seat, f"seat {seat} saw seat {s2}'s hidden bid"
        checked += 1
    return checked


# --- pages in real browsers (lobby, replay, chat: tests/server/test_pages_ui.py) ------------------
# Shared by the browser tests: Debian's chromium under Playwright (never `playwright install`),
# the check that a page never scrolls sideways, and the axe-core scan (axe-playwright-python
# bundles axe.min.js; it is injected by the test, never shipped with the pages).

import contextlib  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
#: The widths every page is checked at (px): a small phone, a phone, a tablet, a laptop, a desktop,
#: a large screen.
WIDTHS = (320, 390, 768, 1280, 1920, 2560)


@contextlib.contextmanager
def chromium():
    """Debian's chromium, headless, for a module-scoped ``browser`` fixture."""
    from playwright.sync_api import sync_playwright
    if not Path(CHROMIUM).exists():
        raise RuntimeError("Debian's chromium is needed: apt-get install chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            yield b
        finally:
            b.close()


def sideways_overflow(page) -> list[str]:
    """Why the page scrolls sideways, if it does: the document wider than the window, and the
    elements that reach past its right edge (empty when it does not)."""
    return page.evaluate("""() => {
        const doc = document.documentElement, width = doc.clientWidth, out = [];
        if (doc.scrollWidth > width) out.push(`the page is ${doc.scrollWidth}px wide in a ${width}px window`);
        for (const e of document.body.querySelectorAll("*")) {
            const r = e.getBoundingClientRect();
            if (r.width && r.right > width + 0.5 && getComputedStyle(e).position !== "fixed"
                && !e.closest(".scores-wrap, .sr-only, .skip-link"))
                out.push(`${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}.${e.className} ends at ${Math.round(r.right)}px`);
        }
        return out.slice(0, 10);
    }""")


#: For each selector: focus the element, then report whether it shows :focus-visible, its outline
#: (style, width, colour) and the worst contrast of that outline against every colour behind it.
FOCUS_CONTRAST = """(selectors) => {
  const parse = (s) => { const m = /rgba?\\(([^)]+)\\)/.exec(s); if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
  const behind = (el, own) => {
    const layers = [];
    for (let n = own ? el : el.parentElement; n; n = n.parentElement) {
      const cs = getComputedStyle(n);
      const img = (cs.backgroundImage || "none").match(/rgba?\\([^)]+\\)/g);
      if (img) { const cols = img.map(parse); layers.push(cols); if (cols.every((c) => c[3] === 1)) break; }
      const c = parse(cs.backgroundColor);
      if (c && c[3] > 0) { layers.push([c]); if (c[3] === 1) break; }
    }
    let under = [[255, 255, 255]];
    for (const cols of layers.reverse()) under = cols.flatMap((c) => under.map((u) => over(c, u)));
    return under;
  };
  return selectors.map((sel) => {
    const el = document.querySelector(sel);
    if (!el) return { sel, missing: true };
    el.focus();
    const cs = getComputedStyle(el);
    const colour = parse(cs.outlineColor);
    const worst = Math.min(...behind(el, parseFloat(cs.outlineOffset) < 0).map((b) => ratio(colour, b)));
    return { sel, visible: el.matches(":focus-visible"), style: cs.outlineStyle, width: parseFloat(cs.outlineWidth),
             colour: cs.outlineColor, ratio: Math.round(worst * 100) / 100 };
  });
}"""


def axe_problems(page, context=None, impacts=("serious", "critical")) -> list[str]:
    """axe-core's violations of the given impacts on the page (or ``context``, a selector or an
    axe context object): ``"rule (impact): selectors"`` each, empty when there are none."""
    from axe_playwright_python.sync_playwright import Axe
    result = Axe().run(page, context=context)
    return [f"{v['id']} ({v['impact']}): {v['help']}: {[n['target'] for n in v['nodes']][:4]}"
            for v in result.response["violations"] if v["impact"] in impacts]
