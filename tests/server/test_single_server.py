"""One database, one server: a second ``ohhell serve`` on a database another server uses is
refused at start with the reason (SQLite and PostgreSQL); a stopped or killed server's claim
goes with it, so the next one starts."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from ohhell.server.storage import StoreError, open_store
from serverkit import ROOT, ProcessServer, free_port


def second_serve(db: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ohhell.cli", "serve", "--port", str(free_port()), "--db", db],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "tables.sqlite3")
    return request.getfixturevalue("pg_database")


def test_a_second_server_on_one_database_is_refused(db):
    first = ProcessServer(db).start()
    try:
        r = second_serve(db)
        assert r.returncode == 1
        assert "another ohhell server" in r.stderr and "is using the database" in r.stderr
        if not db.startswith("postgresql"):
            assert f"pid {first.proc.pid}" in r.stderr
        assert "Traceback" not in r.stderr + r.stdout
        assert first.proc.poll() is None   # the first one plays on
    finally:
        first.stop()


def test_a_killed_servers_claim_dies_with_it(db):
    first = ProcessServer(db).start()
    first.kill9()
    again = ProcessServer(db).start()   # starts at once: nothing to wait out
    again.stop()


def test_claims_in_one_process(tmp_path):
    path = str(tmp_path / "t.sqlite3")

    async def run():
        a, b = open_store(path), open_store(path)
        await a.open()
        await b.open()
        await a.claim()
        await a.claim()   # claiming twice is harmless
        with pytest.raises(StoreError, match="another ohhell server"):
            await b.claim()
        await a.close()
        await b.claim()   # released by close
        await b.close()
        mem = open_store(":memory:")
        await mem.open()
        await mem.claim()
        await mem.close()
    asyncio.run(run())
