"""A player's page with many analysed games: what ``GET /api/players/NAME`` costs.

Builds a database (a fresh SQLite file, or ``--db postgresql://...``) through the store's own
API: one account that has played ``--games`` standard 4-player games (13 hands) against three
bots, every one of them analysed (``ohhell.coach``, the server's stored format), each tenth
game with a hint asked by the player. The games are ``--distinct`` different deals played
out by heuristic bots and analysed once each; each table replays one of them, so every
stored analysis has the size and the figures of a real one (about 150 kB of JSON).

Then, in this process, with the server's own :class:`~ohhell.server.players.PlayerPages`:

1. **cold**: a new server's first answer (every table's log replayed, every analysis's
   summary read: ``analysis_times`` and ``analysis_summaries``);
2. **warm**: the answers after it (the logs kept, one query for when each analysis was stored);
3. the analyses' part alone, cold and warm (``PlayerPages._analyses``);
4. for comparison, one query that reads every analysis whole and parses it in Python.

    python benchmarks/player_page.py                       # 500 games, SQLite
    python benchmarks/player_page.py --games 200 --db postgresql://user@/db?host=/tmp
    python benchmarks/player_page.py --keep page.sqlite3   # keep the database (to look at the page)

Nothing is sent over the network except to the database given.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from ohhell import Game, Rules  # noqa: E402
from ohhell.bots import make, play_game  # noqa: E402
from ohhell.coach import analyze_game  # noqa: E402
from ohhell.server.accounts import username_key  # noqa: E402
from ohhell.server.players import PlayerPages  # noqa: E402
from ohhell.server.storage import open_store  # noqa: E402

BOTS = ("heuristic", "intermediate", "random")


class _Request:
    def __init__(self, username: str) -> None:
        self.path_params = {"username": username}


def distinct_games(count: int, samples: int) -> list[tuple[str, list, dict]]:
    """``count`` games of the player (seat 0, a heuristic bot's play) and three bots: each its
    seed, its ``(seat, action)`` list and its analysis."""
    out = []
    for k in range(count):
        seed = f"page-bench-{k}"
        game = Game(Rules(4), seed=seed, names=["Mara", *BOTS])
        play_game(game, [make("heuristic")] + [make(b) for b in BOTS])
        out.append((seed, list(game.actions()), analyze_game(game, samples=samples, seed=0).to_dict()))
        print(f"  game {k + 1} of {count} played and analysed", file=sys.stderr)
    return out


async def build(db: str, games: int, played: list) -> None:
    store = open_store(db)
    await store.open()
    try:
        await store.create_user("u-mara", "Mara", username_key("Mara"), "not-a-real-hash", time.time())
        rules = Rules(4).to_dict()
        for i in range(games):
            seed, actions, analysis = played[i % len(played)]
            table = f"bench{i:05d}"
            helped = i % 10 == 0
            seq = 0

            async def add(kind: str, data: dict) -> None:
                nonlocal seq
                await store.append(table, seq, kind, data)
                seq += 1
            await add("create", {"title": "", "private": i % 7 == 0, "rules": rules, "admin": "x", "help": helped,
                                 "seats": [{"kind": "open"}] + [{"kind": "bot", "bot": b} for b in BOTS]})
            await add("join", {"seat": 0, "name": "Mara", "token": f"tok{i}", "account": "u-mara"})
            await store.add_user_seat("u-mara", table, 0, time.time())
            await add("start", {"game": 1, "seed": seed, "names": ["Mara", *BOTS]})
            for n, (seat, action) in enumerate(actions):
                if helped and n == 0:
                    await add("hint", {"game": 1, "seat": 0})
                await add("act", {"game": 1, "seat": seat, "action": action.to_json()})
            await store.put_analysis(table, 1, analysis)
            if (i + 1) % 50 == 0:
                print(f"  {i + 1} of {games} tables stored", file=sys.stderr)
    finally:
        await store.close()


async def measure(db: str, repeat: int) -> dict:
    store = open_store(db)
    await store.open()
    try:
        out: dict = {}
        pages = PlayerPages(store)
        t = time.perf_counter()
        answer = await pages.player(_Request("mara"))
        out["cold_ms"] = (time.perf_counter() - t) * 1000
        body = json.loads(answer.body)
        out["games"], out["analysed"] = body["games"], body["analysis"]["games"]
        out["answer_kb"] = len(answer.body) / 1024
        warm = []
        for _ in range(repeat):
            t = time.perf_counter()
            await pages.player(_Request("mara"))
            warm.append((time.perf_counter() - t) * 1000)
        out["warm_ms"] = warm
        cold_a, warm_a = [], []
        for _ in range(3):
            pages._figures.clear()
            t = time.perf_counter()
            await pages._analyses("u-mara")
            cold_a.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            await pages._analyses("u-mara")
            warm_a.append((time.perf_counter() - t) * 1000)
        out["analyses_cold_ms"], out["analyses_warm_ms"] = cold_a, warm_a
        whole = []
        for _ in range(2):
            t = time.perf_counter()
            rows = await store._fetch("SELECT table_id, game, data FROM ohhell_analysis WHERE table_id IN "
                                      "(SELECT table_id FROM ohhell_user_seats WHERE user_id=?)", ("u-mara",))
            parsed = [json.loads(r[2])["seats"] for r in rows]
            whole.append((time.perf_counter() - t) * 1000)
        out["whole_ms"] = whole
        out["whole_mb"] = sum(len(r[2]) for r in rows) / 1e6
        assert len(parsed) == out["analysed"]
        return out
    finally:
        await store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--distinct", type=int, default=10, help="different games played and analysed (default 10)")
    ap.add_argument("--samples", type=int, default=4, help="the analyses' samples (their size does not depend on it)")
    ap.add_argument("--db", help="a postgresql:// URL of an empty database (default: a new SQLite file)")
    ap.add_argument("--keep", help="build the SQLite database at this path and keep it")
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    tmp = None
    db = args.db or args.keep
    if db is None:
        tmp = tempfile.mkdtemp(prefix="ohhell-page-")
        db = os.path.join(tmp, "page.sqlite3")
    t = time.perf_counter()
    played = distinct_games(args.distinct, args.samples)
    asyncio.run(build(db, args.games, played))
    built = time.perf_counter() - t
    r = asyncio.run(measure(db, args.repeat))
    med = statistics.median
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}; database: {'PostgreSQL' if args.db else 'SQLite'}; "
          f"built in {built:.0f} s")
    print(f"player with {r['games']} games, {r['analysed']} analysed; the answer is {r['answer_kb']:.0f} kB")
    print(f"| a new server's first answer (logs replayed, analyses read) | {r['cold_ms']:.0f} ms |")
    print(f"| the answers after it, median (min-max) of {len(r['warm_ms'])} | {med(r['warm_ms']):.1f} ms "
          f"({min(r['warm_ms']):.1f}-{max(r['warm_ms']):.1f}) |")
    print(f"| the analyses' part, first read, median of 3 | {med(r['analyses_cold_ms']):.0f} ms "
          f"({min(r['analyses_cold_ms']):.0f}-{max(r['analyses_cold_ms']):.0f}) |")
    print(f"| the analyses' part, read before, median of 3 | {med(r['analyses_warm_ms']):.1f} ms "
          f"({min(r['analyses_warm_ms']):.1f}-{max(r['analyses_warm_ms']):.1f}) |")
    print(f"| for comparison: every analysis read whole ({r['whole_mb']:.0f} MB) and parsed | "
          f"{min(r['whole_ms']):.0f}-{max(r['whole_ms']):.0f} ms |")
    if tmp:
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
