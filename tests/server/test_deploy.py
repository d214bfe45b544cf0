"""docs/deploy.md's recipe, run: its nginx configuration (taken from the page itself) in front of
three ``ohhell serve --redis`` nodes on a real PostgreSQL and Redis.  A page and the API work
through nginx, players land on different nodes, and when a node is killed during the game
the players reconnect through nginx and finish it."""

from __future__ import annotations

import asyncio
import os
import pwd
import re
import shutil
import subprocess
import time
from pathlib import Path

import httpx
import pytest

import ohhell
from serverkit import ROOT, Client, free_port, play_out
from test_cluster import check_log, nodes, play_until, stop

pytestmark = pytest.mark.timeout(300)


def nginx_block() -> str:
    text = (ROOT / "docs" / "deploy.md").read_text()
    blocks = re.findall(r"```nginx\n(.*?)```", text, re.S)
    assert len(blocks) == 1, "docs/deploy.md has one nginx block"
    return blocks[0]


@pytest.fixture
def nginx(tmp_path):
    """Runs nginx with docs/deploy.md's block, its ports replaced: yields (start(node ports) -> base URL)."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(binary):
        raise RuntimeError("nginx is needed for the deployment test (Debian: apt-get install nginx)")
    procs = []

    def start(ports: list[int]) -> str:
        block = nginx_block()
        assert block.count("server 127.0.0.1:80") == 3 and "listen 80;" in block
        for i, port in enumerate(ports):
            block = block.replace(f"server 127.0.0.1:{8001 + i} ", f"server 127.0.0.1:{port} ")
        front = free_port()   # (the nodes listen already: their ports are not free)
        block = block.replace("listen 80;", f"listen 127.0.0.1:{front};")
        for d in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (tmp_path / d).mkdir(exist_ok=True)
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name};" if os.geteuid() == 0 else ""
        (tmp_path / "nginx.conf").write_text(f"""
{user}
daemon off;
worker_processes 1;
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {tmp_path}/body;
    proxy_temp_path {tmp_path}/proxy;
    fastcgi_temp_path {tmp_path}/fastcgi;
    uwsgi_temp_path {tmp_path}/uwsgi;
    scgi_temp_path {tmp_path}/scgi;
{block}
}}
""")
        proc = subprocess.Popen([binary, "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        procs.append(proc)
        base = f"http://127.0.0.1:{front}"
        deadline = time.monotonic() + 20
        while True:
            try:
                if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                    return base
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"nginx did not start: {proc.stderr.read().decode() if proc.stderr else ''}")
            time.sleep(0.1)
    yield start
    for proc in procs:
        proc.terminate()
        proc.wait(10)


def test_the_deploy_recipe_three_nodes_behind_nginx(pg_database, redis_url, nginx):
    servers = nodes(pg_database, redis_url, 3, "--trusted-proxy", "127.0.0.1")
    try:
        base = nginx([s.port for s in servers])
        ws = base.replace("http", "ws") + "/ws"
        assert "<html" in httpx.get(base + "/", timeout=30).text
        r = httpx.post(base + "/api/tables", json={"rules": {"players": 3, "hand_sizes": [4, 3, 2, 1]},
                                                   "seats": [{"kind": "open"}] * 3}, timeout=30)
        assert r.status_code == 201, r.text
        tid = r.json()["id"]

        async def run() -> None:
            players = [Client(ws, tid) for _ in range(3)]
            for i, c in enumerate(players):
                await c.connect()
                assert (await c.join(i, f"P{i}"))["type"] == "joined"
            # Each node learns who is live at its lease's renewal (every 0.5 s, later on a busy
            # machine): wait until every node has seen the other two.
            deadline = time.monotonic() + 15
            while True:
                health = [httpx.get(s.base + "/healthz", timeout=30).json()["cluster"] for s in servers]
                if all(h["nodes_live"] == 3 for h in health) or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.2)
            assert all(h["nodes_live"] == 3 for h in health), health
            # nginx sent the players to different nodes: the owner serves some of them for others
            assert sum(h["remote_clients"] for h in health) >= 1
            # A few actions, then the node that owns the table dies.
            await asyncio.gather(*(play_until(c, 4) for c in players))
            owner = next(s for s, h in zip(servers, health) if h["tables_owned"] == 1)
            owner.kill9()
            again = []
            for c in players:   # each page reconnects through nginx (a socket at the dead node closed)
                await c.close()
                again.append(await Client(ws, tid, token=c.token).__aenter__())
            assert sorted(c.state["you"]["seat"] for c in again) == [0, 1, 2]
            assert all(c.state["game"]["n"] == 4 for c in again)   # the table as it was
            await play_out(again, lambda c, v: v["legal"][0], timeout=120)
            for c in again:
                await c.close()
        asyncio.run(run())
        live = next(s for s in servers if s.proc.poll() is None)
        rec = check_log(pg_database, tid, live)
        assert ohhell.Game.from_record(rec).is_over
    finally:
        stop(servers)
