"""Fixtures for the server tests: a real PostgreSQL started under a temporary directory.

The helpers (servers, the websocket client) live in ``serverkit.py`` beside this file; the
browser for the Playwright tests (Debian's chromium, one per test module) is here.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from serverkit import free_port  # noqa: E402


# --- PostgreSQL -----------------------------------------------------------------------------

def _pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    for path in sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True):
        return path
    raise RuntimeError(f"PostgreSQL's {name} is not installed (Debian: apt-get install postgresql)")


@pytest.fixture(scope="session")
def postgres_url():
    """A real PostgreSQL server under a temporary directory (run as the postgres user when root)."""
    initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
    base = tempfile.mkdtemp(prefix="ohhell-pg-")
    data, sock = os.path.join(base, "data"), os.path.join(base, "sock")
    os.makedirs(sock)
    port = free_port()
    prefix: list[str] = []
    user = "postgres"
    if os.geteuid() == 0:
        shutil.chown(base, "postgres")
        shutil.chown(sock, "postgres")
        prefix = ["runuser", "-u", "postgres", "--"]
    else:
        import getpass
        user = getpass.getuser()
    subprocess.run(prefix + [initdb, "-D", data, "-U", user, "--auth=trust", "-E", "UTF8"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    subprocess.run(prefix + [pg_ctl, "-D", data, "-w", "-l", os.path.join(base, "log"), "-o",
                             f"-k {sock} -p {port} -c listen_addresses='' -c fsync=off", "start"],
                   check=True, stdout=subprocess.DEVNULL)
    try:
        yield f"postgresql://{user}@/postgres?host={sock}&port={port}"
    finally:
        subprocess.run(prefix + [pg_ctl, "-D", data, "-m", "immediate", "stop"], stdout=subprocess.DEVNULL)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def pg_database(postgres_url):
    """A fresh database on the test PostgreSQL; yields its URL."""
    import psycopg
    name = f"t{os.getpid()}_{int(time.monotonic() * 1e6)}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield postgres_url.replace("/postgres?", f"/{name}?")


# --- Redis (the cluster tests) -------------------------------------------------------------------

@pytest.fixture(scope="session")
def redis_url():
    """A real redis-server (Debian's) under a temporary directory, on a free loopback port."""
    server = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not os.path.exists(server):
        raise RuntimeError("redis-server is not installed (Debian: apt-get install redis-server)")
    base = tempfile.mkdtemp(prefix="ohhell-redis-")
    port = free_port()
    proc = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", base, "--logfile", os.path.join(base, "log")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import socket
    deadline = time.monotonic() + 10
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("redis-server did not start")
        time.sleep(0.05)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(base, ignore_errors=True)


# --- a real browser ----------------------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium under Playwright (never ``playwright install``), one per module."""
    from pathlib import Path

    from playwright.sync_api import sync_playwright
    if not Path(CHROMIUM).exists():
        raise RuntimeError("Debian's chromium is needed: apt-get install chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        yield b
        b.close()
