"""The bot API (docs/bots-api.md), on SQLite and PostgreSQL: API tokens made, listed and revoked
(CSRF enforced, only hashes stored), a token-authenticated websocket (no Origin needed, a bad or
revoked token refused at once, an open socket closed when its token is revoked), cookie sessions
still refused without an Origin, bot accounts marked as bots in table frames, the lobby, the
player page and the leaderboard, ``ohhell admin`` for tokens and bot accounts, and
``examples/bot_client.py`` playing a whole game, and a duplicate event's table, through the
real ``ohhell serve``."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import httpx
import pytest
import websockets

from ohhell.server.accounts import api_token_hash, bearer_token, clean_token_name, AccountError
from ohhell.server.storage import open_store
from ohhell.server.tables import new_id
from serverkit import ROOT, Client, ProcessServer, ThreadServer, play_out
from test_accounts import PASSWORD, _admin, browser, csrf, post, signup

RULES = {"players": 4, "hand_sizes": [1, 2]}


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    """A fresh database of each kind: an SQLite path or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "bots.sqlite3")
    return request.getfixturevalue("pg_database")


def new_token(c: httpx.Client, name: str = "my bot") -> dict:
    r = post(c, "/api/account/tokens", {"name": name}, csrf(c))
    assert r.status_code == 201, r.text
    return r.json()


class TokenClient(Client):
    """The kit's websocket client, authenticating as a program does: a bearer token, no Origin."""

    def __init__(self, srv, table: str, api_token: str, **headers):
        super().__init__(srv.ws_url, table)
        self.headers = {"Authorization": f"Bearer {api_token}", **headers}

    async def connect(self) -> dict:
        self.ws = await websockets.connect(self.url, max_size=1 << 22, additional_headers=self.headers)
        await self.send({"type": "hello", "table": self.table})
        return await self.wait(lambda m: m["type"] == "state")


async def refused(url: str, **kwargs) -> tuple[int, dict]:
    """The HTTP status and JSON body of a refused websocket handshake."""
    with pytest.raises(websockets.InvalidStatus) as e:
        await websockets.connect(url, **kwargs)
    body = e.value.response.body or b""
    return e.value.response.status_code, (json.loads(body) if body.startswith(b"{") else {})


def stored_rows(db: str) -> str:
    async def go():
        store = open_store(db)
        await store.open()
        try:
            return await store._fetch("SELECT * FROM ohhell_api_tokens")
        finally:
            await store.close()
    return repr(asyncio.run(go()))


# --- small pieces --------------------------------------------------------------------------------

def test_token_names_and_headers():
    assert clean_token_name("  tournament   bot ") == "tournament bot"
    for bad in ("", "   ", "x" * 41, "tab\x07bell", 5, None):
        with pytest.raises(AccountError):
            clean_token_name(bad)
    assert bearer_token("bearer  ohh_x ") == "ohh_x"
    for header in ("Bearer", "Bearer xyz", "Token ohh_x", "Bearer ohh_" + "x" * 200, ""):
        assert bearer_token(header) is None


# --- tokens over HTTP ----------------------------------------------------------------------------

def test_tokens_are_made_listed_and_revoked_with_csrf(db):
    with ThreadServer(db) as srv, browser(srv) as c, browser(srv) as stranger:
        r = post(stranger, "/api/account/tokens", {"name": "x"}, csrf(stranger))
        assert r.status_code == 401 and r.json()["error"] == "signed_out"
        signup(c, "maker")
        # CSRF: no token, someone else's token, another site's page: refused, nothing made
        assert post(c, "/api/account/tokens", {"name": "x"}).json()["error"] == "csrf"
        assert post(c, "/api/account/tokens", {"name": "x"}, csrf(stranger)).status_code == 403
        r = c.post("/api/account/tokens", json={"name": "x"},
                   headers={"x-csrf-token": csrf(c), "origin": "https://evil.example"})
        assert r.status_code == 403 and r.json()["error"] == "bad_origin"
        assert c.get("/api/account/tokens").json()["tokens"] == []
        r = post(c, "/api/account/tokens", {"name": ""}, csrf(c))
        assert r.status_code == 400 and r.json()["error"] == "bad_name"

        made = new_token(c, "tournament bot")
        token = made["token"]
        assert token.startswith("ohh_") and len(token) == 47 and made["hint"] == token[:8]
        listed = c.get("/api/account/tokens").json()["tokens"]
        assert [(t["id"], t["name"], t["hint"], t["last_used"]) for t in listed] == \
            [(made["id"], "tournament bot", token[:8], None)]
        assert token not in json.dumps(listed)               # shown once, never again
        assert stranger.get("/api/account/tokens").status_code == 401

        second = new_token(c, "spare")
        r = post(c, "/api/account/tokens/revoke", {"id": second["id"]})
        assert r.status_code == 403 and r.json()["error"] == "csrf"
        r = post(c, "/api/account/tokens/revoke", {"id": second["id"]}, csrf(c))
        assert r.status_code == 200 and r.json() == {"revoked": second["id"]}
        r = post(c, "/api/account/tokens/revoke", {"id": second["id"]}, csrf(c))
        assert r.status_code == 404 and r.json()["error"] == "no_token"
        assert [t["id"] for t in c.get("/api/account/tokens").json()["tokens"]] == [made["id"]]
    rows = stored_rows(db)
    assert token not in rows and token[4:] not in rows and api_token_hash(token) in rows


def test_an_account_holds_at_most_twenty_tokens(db):
    with ThreadServer(db) as srv, browser(srv) as c:
        signup(c, "hoarder")
        for i in range(20):
            new_token(c, f"t{i}")
        r = post(c, "/api/account/tokens", {"name": "one more"}, csrf(c))
        assert r.status_code == 409 and r.json()["error"] == "too_many_tokens"


# --- the websocket -------------------------------------------------------------------------------

def test_a_token_socket_acts_as_its_account_and_revocation_closes_it(db):
    with ThreadServer(db) as srv, browser(srv) as c:
        signup(c, "robo")
        token = new_token(c)["token"]
        table = srv.create(RULES, [{"kind": "open"}] + [{"kind": "bot", "bot": "random"}] * 3)["id"]

        async def main():
            bot = TokenClient(srv, table, token)      # no Origin: a program, not a browser
            await bot.connect()
            assert bot.state["you"]["seat"] is None
            joined = await bot.join(0, "ignored")
            assert joined["type"] == "joined", joined
            state = await bot.wait(lambda m: m["type"] == "state" and m["table"]["seats"][0]["kind"] == "human")
            assert state["table"]["seats"][0]["name"] == "robo"   # sits as its account
            await bot.close()
            # a new connection with the token holds the account's seat: no seat token needed
            again = TokenClient(srv, table, token)
            await again.connect()
            assert again.state["you"]["seat"] == 0
            # last use is recorded
            assert c.get("/api/account/tokens").json()["tokens"][0]["last_used"] is not None
            # revoking the token closes the open socket at once, with a reason
            tid = c.get("/api/account/tokens").json()["tokens"][0]["id"]
            assert post(c, "/api/account/tokens/revoke", {"id": tid}, csrf(c)).status_code == 200
            msg = await again.wait(lambda m: m["type"] == "error")
            assert msg["code"] == "token_revoked"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await again.recv(5)
            assert closed.value.rcvd.code == 1008
            # and the token is refused at the next handshake
            status, body = await refused(srv.ws_url, additional_headers={"Authorization": f"Bearer {token}"})
            assert status == 401 and body["error"] == "bad_token"
        asyncio.run(main())


def test_a_token_revoked_by_another_process_closes_its_socket_at_the_next_check(db, monkeypatch):
    from ohhell.server import accounts
    monkeypatch.setattr(accounts, "RECHECK_SECONDS", 0.0)   # (a minute on a real server)
    with ThreadServer(db) as srv, browser(srv) as c:
        signup(c, "robo2")
        made = new_token(c)
        table = srv.create(RULES, [{"kind": "open"}] + [{"kind": "bot", "bot": "random"}] * 3)["id"]

        async def main():
            bot = TokenClient(srv, table, made["token"])
            await bot.connect()
            await bot.send({"type": "ping", "ref": 1})
            assert (await bot.wait(lambda m: m["type"] in ("pong", "error")))["type"] == "pong"
            p = await asyncio.to_thread(_admin, "revoke-token", "robo2", made["id"], "--db", db)
            assert p.returncode == 0, p.stderr
            await bot.send({"type": "join", "seat": 0, "name": "x"})
            msg = await bot.wait(lambda m: m["type"] in ("error", "joined"))
            assert msg["type"] == "error" and msg["code"] == "token_revoked"
            with pytest.raises(websockets.ConnectionClosed):
                await bot.wait(lambda m: False, 5)
        asyncio.run(main())
        assert srv.manager.tables[table].seats[0].kind == "open"   # it never sat


def test_bad_tokens_are_refused_and_rate_limited(db):
    with ThreadServer(db) as srv:
        async def main():
            for header in ("Bearer ohh_nonsense", "Bearer nonsense", "Basic dXNlcjpwYXNz"):
                status, body = await refused(srv.ws_url, additional_headers={"Authorization": header})
                assert status == 401 and body["error"] == "bad_token" and "revoked" in body["message"]
            for _ in range(20):
                status, body = await refused(srv.ws_url, additional_headers={"Authorization": "Bearer ohh_x"})
                if status == 429:
                    break
            assert status == 429 and body["error"] == "slow_down"
        asyncio.run(main())


def test_cookie_sessions_still_need_an_origin(db):
    with ThreadServer(db) as srv, browser(srv) as c:
        signup(c, "person")
        cookie = "; ".join(f"{k}={v}" for k, v in c.cookies.items())
        table = srv.create(RULES, [{"kind": "open"}] * 2 + [{"kind": "bot", "bot": "random"}] * 2)["id"]

        async def main():
            # a program showing a browser's cookie without an Origin is a guest: the cookie is ignored
            plain = Client(srv.ws_url, table)
            plain.ws = await websockets.connect(srv.ws_url, additional_headers={"Cookie": cookie})
            await plain.send({"type": "hello", "table": table})
            await plain.wait(lambda m: m["type"] == "state")
            await plain.join(1, "Guest name")
            state = await plain.wait(lambda m: m["type"] == "state" and m["table"]["seats"][1]["kind"] == "human")
            assert state["table"]["seats"][1]["name"] == "Guest name"
            await plain.close()
            # another site's page with the cookie: refused before the handshake completes
            status, _ = await refused(srv.ws_url, origin="https://evil.example", additional_headers={"Cookie": cookie})
            assert status == 403
            # the server's own page: signed in
            own = Client(srv.ws_url, table)
            own.ws = await websockets.connect(srv.ws_url, origin=srv.base, additional_headers={"Cookie": cookie})
            await own.send({"type": "hello", "table": table})
            await own.wait(lambda m: m["type"] == "state")
            await own.join(0, "whatever")
            state = await own.wait(lambda m: m["type"] == "state" and m["table"]["seats"][0]["kind"] == "human")
            assert state["table"]["seats"][0]["name"] == "person"
            await own.close()
        asyncio.run(main())


# --- bot accounts --------------------------------------------------------------------------------

def test_a_bot_account_is_marked_in_frames_the_lobby_and_its_page(db):
    with ThreadServer(db) as srv, browser(srv) as c, browser(srv) as h:
        r = post(c, "/api/account/signup", {"username": "Botty", "password": PASSWORD, "bot": True}, csrf(c))
        assert r.status_code == 201 and r.json()["user"]["bot"] is True
        assert c.get("/api/account").json()["user"]["bot"] is True
        signup(h, "human")
        assert h.get("/api/account").json()["user"]["bot"] is False
        token = new_token(c)["token"]
        table = srv.create(RULES, [{"kind": "open"}] * 2 + [{"kind": "bot", "bot": "random"}] * 2)["id"]

        async def main():
            bot = TokenClient(srv, table, token)
            await bot.connect()
            await bot.join(0, "x")
            state = await bot.wait(lambda m: m["type"] == "state" and m["table"]["seats"][0]["kind"] == "human")
            seats = state["table"]["seats"]
            assert seats[0]["account_bot"] is True
            assert [s["account_bot"] for s in seats[1:]] == [False] * 3
        asyncio.run(main())
        row = next(t for t in httpx.get(srv.base + "/api/tables").json()["tables"] if t["id"] == table)
        assert row["account_bots"] == [0] and row["names"][0] == "Botty"
        assert httpx.get(srv.base + "/api/players/botty").json()["bot"] is True
        assert httpx.get(srv.base + "/api/players/human").json()["bot"] is False


def test_admin_marks_bots_and_makes_lists_and_revokes_tokens(db):
    with ThreadServer(db) as srv, browser(srv) as c:
        signup(c, "Henry")
        p = _admin("create-token", "henry", "--name", "ci bot", "--db", db)
        assert p.returncode == 0, p.stderr
        token = p.stdout.strip()
        assert token.startswith("ohh_") and "shown only this once" in p.stderr and token not in p.stderr
        listed = c.get("/api/account/tokens").json()["tokens"]
        assert [t["name"] for t in listed] == ["ci bot"]
        p = _admin("set-bot", "HENRY", "--db", db)
        assert p.returncode == 0 and "bot account" in p.stdout
        p = _admin("list-users", "--db", db)
        assert "tokens 1  bot" in p.stdout
        table = srv.create(RULES, [{"kind": "open"}] + [{"kind": "bot", "bot": "random"}] * 3)["id"]

        async def main():   # the running server learns of the mark when the account connects
            bot = TokenClient(srv, table, token)
            await bot.connect()
            await bot.join(0, "x")
            state = await bot.wait(lambda m: m["type"] == "state" and m["table"]["seats"][0]["kind"] == "human")
            assert state["table"]["seats"][0]["account_bot"] is True
            await bot.close()
        asyncio.run(main())
        p = _admin("list-tokens", "henry", "--db", db)
        assert p.returncode == 0 and "ci bot" in p.stdout and token[:8] in p.stdout and token not in p.stdout
        tid = p.stdout.split()[0]
        p = _admin("revoke-token", "henry", "nope", "--db", db)
        assert p.returncode == 1 and "no token 'nope'" in p.stderr
        p = _admin("revoke-token", "henry", tid, "--db", db)
        assert p.returncode == 0 and "1 token of Henry revoked" in p.stdout
        assert c.get("/api/account/tokens").json()["tokens"] == []
        p = _admin("create-token", "nobody", "--name", "x", "--db", db)
        assert p.returncode == 1 and "no account 'nobody'" in p.stderr
        p = _admin("create-token", "henry", "--name", " ", "--db", db)
        assert p.returncode == 1 and "no token was made" in p.stderr
        p = _admin("set-bot", "henry", "--off", "--db", db)
        assert p.returncode == 0 and "a person" in p.stdout


def test_public_ids_never_start_with_a_dash_so_a_command_line_takes_them():
    """A table id like "-x9..." after --table was read as an option, and the example client
    refused it (one table in 64 had such an id: this test's flaky failure in CI)."""
    ids = [new_id() for _ in range(2000)] + [new_id(12) for _ in range(500)]
    assert not any(i.startswith("-") for i in ids)
    assert {len(new_id()), len(new_id(12))} == {12, 16} and len(set(ids)) == len(ids)
    assert any(i.startswith("_") for i in ids)     # still the whole URL-safe alphabet otherwise


# --- the example client through the real server ----------------------------------------------------

def test_the_example_client_plays_a_whole_game_against_built_in_bots(db):
    srv = ProcessServer(db, "--bot-delay", "0.05").start()
    try:
        with browser(srv) as c:
            r = post(c, "/api/account/signup", {"username": "example", "password": PASSWORD, "bot": True}, csrf(c))
            assert r.status_code == 201, r.text
            token = new_token(c, "example client")["token"]
            table = httpx.post(srv.base + "/api/tables", json={
                "rules": RULES, "seats": [{"kind": "bot", "bot": "heuristic"}, {"kind": "open"},
                                          {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "beginner"}]})
            assert table.status_code == 201, table.text
            table_id = table.json()["id"]
            env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "OHHELL_TOKEN": token}
            p = subprocess.run([sys.executable, "examples/bot_client.py", "--server", srv.ws_url,
                                "--table", f"{srv.base}/t/{table_id}"], capture_output=True, text=True, env=env,
                               cwd=ROOT, timeout=120)
            assert p.returncode == 0, p.stdout + p.stderr
            assert "sitting at seat 1" in p.stdout and "game 1 over" in p.stdout, p.stdout
            record = httpx.get(f"{srv.base}/api/tables/{table_id}/games/1/record").json()
            assert record["players"][1] == "example"
            assert [sum(len(t["cards"]) for t in h["tricks"]) for h in record["hands"]] == [4, 8]   # every card
            assert all(None not in h["bids"] for h in record["hands"])
            page = httpx.get(srv.base + "/api/players/example").json()
            assert page["bot"] is True and page["games"] == 1
            # its recent game marks every bot: its own seat a program's, the others the server's
            assert page["recent"][0]["account_bots"] == [1]
            assert page["recent"][0]["bots"] == ["heuristic", None, "random", "beginner"]
            board = httpx.get(srv.base + "/api/leaderboard?min_games=1").json()["rows"]
            assert [(r["username"], r["bot"]) for r in board] == [("example", True)]
            # a wrong token: the client says why and exits 1
            p = subprocess.run([sys.executable, "examples/bot_client.py", "--server", srv.ws_url,
                                "--table", table_id, "--token", "ohh_wrong"], capture_output=True, text=True,
                               env=env, cwd=ROOT, timeout=60)
            assert p.returncode == 1 and "refused the connection (401)" in p.stderr and "Traceback" not in p.stderr
    finally:
        srv.stop()


def test_the_example_client_enters_a_duplicate_event_and_plays_its_table(db):
    """``bot_client.py --event``: it takes a seat over HTTP before the start, waits, plays its
    table's game through the real server; run again, it finds its seat (``you.seat``)."""
    import time
    srv = ProcessServer(db, "--bot-delay", "0.05").start()
    client = None
    try:
        with browser(srv) as org, browser(srv) as c:
            signup(org, "organiser")
            r = post(c, "/api/account/signup", {"username": "eventbot", "password": PASSWORD, "bot": True}, csrf(c))
            assert r.status_code == 201, r.text
            token = new_token(c, "event client")["token"]
            r = post(org, "/api/events", {"title": "Bot night", "tables": 2, "rules": {"players": 4},
                                          "hand_sizes": [1, 2], "bot": "random", "away": None}, csrf(org))
            assert r.status_code == 201, r.text
            eid = r.json()["id"]
            env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "OHHELL_TOKEN": token}
            command = [sys.executable, "examples/bot_client.py", "--server", srv.ws_url]
            client = subprocess.Popen(command + ["--event", f"{srv.base}/events/{eid}", "--event-table", "1"],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
            deadline = time.monotonic() + 60   # it enters before the start: the first open seat of table 2
            while org.get(f"/api/events/{eid}").json()["seats"][1][0]["kind"] == "open":
                assert client.poll() is None, client.communicate()
                assert time.monotonic() < deadline, "the client did not enter the event"
                time.sleep(0.2)
            seats = org.get(f"/api/events/{eid}").json()["seats"]
            assert seats[1][0] == {"name": "eventbot", "kind": "bot_account", "bot": True}
            assert [e["kind"] for row in seats for e in row].count("open") == 7
            assert post(org, f"/api/events/{eid}/start", {}, csrf(org)).status_code == 200
            out, err = client.communicate(timeout=120)
            assert client.returncode == 0, out + err
            assert "entered event" in out and "table 1, seat 0" in out and "waiting for the organiser" in out, out
            assert "game 1 over" in out, out
            deadline = time.monotonic() + 60
            while not (ev := org.get(f"/api/events/{eid}").json())["revealed"]:
                assert time.monotonic() < deadline, "the event did not end"
                time.sleep(0.2)
            table = ev["live"][1]["id"]
            record = httpx.get(f"{srv.base}/api/tables/{table}/games/1/record").json()
            assert record["players"][0] == "eventbot" and record["account_bots"] == [0]
            assert [sum(len(t["cards"]) for t in h["tricks"]) for h in record["hands"]] == [4, 8]   # every card
            assert all(None not in h["bids"] for h in record["hands"])
            ranked = {(e["table"], e["seat"]): e for e in ev["results"]["ranking"]}
            assert ranked[(1, 0)]["name"] == "eventbot" and ranked[(1, 0)]["kind"] == "bot_account"
            # asked with the token, the event says where the account sits
            r = httpx.get(f"{srv.base}/api/events/{eid}", headers={"authorization": f"Bearer {token}"})
            assert r.json()["you"]["seat"] == [1, 0]
            # run again: it finds its seat at its table, whose game is over, and is done
            p = subprocess.run(command + ["--event", eid], capture_output=True, text=True, env=env, cwd=ROOT,
                               timeout=60)
            assert p.returncode == 0 and "game 1 over" in p.stdout and "entered" not in p.stdout, p.stdout + p.stderr
            # refused: an event that does not exist; a started one it did not enter; a bad token
            p = subprocess.run(command + ["--event", "nope"], capture_output=True, text=True, env=env, cwd=ROOT,
                               timeout=60)
            assert p.returncode == 1 and "no_event" in p.stderr and "Traceback" not in p.stderr, p.stderr
            r = post(c, "/api/account/signup", {"username": "latebot", "password": PASSWORD, "bot": True}, csrf(c))
            late = {**env, "OHHELL_TOKEN": new_token(c, "late")["token"]}
            p = subprocess.run(command + ["--event", eid], capture_output=True, text=True, env=late, cwd=ROOT,
                               timeout=60)
            assert p.returncode == 1 and "seats are taken before it starts" in p.stderr, p.stderr
            p = subprocess.run(command + ["--event", eid, "--token", "ohh_wrong"], capture_output=True, text=True,
                               env=env, cwd=ROOT, timeout=60)
            assert p.returncode == 1 and "bad_token" in p.stderr and "Traceback" not in p.stderr, p.stderr
    finally:
        if client is not None and client.poll() is None:
            client.kill()
            client.communicate()
        srv.stop()


# --- the pages, in a real browser ----------------------------------------------------------------

def test_the_account_page_makes_and_revokes_tokens_and_pages_mark_the_bot(browser, tmp_path):
    import concurrent.futures

    from playwright.sync_api import expect
    srv = ProcessServer(str(tmp_path / "ui.sqlite3"), "--bot-delay", "0.05").start()
    context = browser.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("dialog", lambda d: d.accept())
        page.goto(srv.base + "/account")
        page.fill("#signup-username", "Clanky")
        page.fill("#signup-password", PASSWORD)
        page.fill("#signup-again", PASSWORD)
        page.check("#signup-bot")
        page.click("#signup-button")
        expect(page.locator("#bot-note")).to_be_visible()
        expect(page.locator("#token-table tbody")).to_contain_text("No tokens yet.")
        page.fill("#token-name", "arena bot")
        page.click("#token-button")
        expect(page.locator("#token-new")).to_be_visible()
        token = page.locator("#token-value").inner_text()
        assert token.startswith("ohh_") and len(token) == 47
        row = page.locator("#token-table tbody tr")
        expect(row).to_have_count(1)
        expect(row).to_contain_text("arena bot")
        expect(row).to_contain_text(token[:8] + "…")
        expect(row).to_contain_text("never")

        # the token plays: the lobby, the table page and the player page show a bot
        table = httpx.post(srv.base + "/api/tables", json={
            "rules": RULES, "seats": [{"kind": "open"}] * 2 + [{"kind": "bot", "bot": "random"}] * 2}).json()["id"]

        async def sit() -> None:
            bot = TokenClient(srv, table, token)
            await bot.connect()
            assert (await bot.join(0, "x"))["type"] == "joined"
            await bot.close()
        with concurrent.futures.ThreadPoolExecutor(1) as pool:   # Playwright's loop owns this thread
            pool.submit(asyncio.run, sit()).result(30)
        page.goto(srv.base + "/")
        expect(page.locator(f'li[data-table="{table}"]')).to_contain_text("Clanky (bot)")
        page.goto(f"{srv.base}/t/{table}")
        expect(page.get_by_text("bot account").first).to_be_visible()
        # marked in the bid table and on its seat at the felt, as a program
        expect(page.locator("#bidtable tr[data-seat='0'] .pill.bot-account")).to_have_text("bot account")
        plate = page.locator("#seats .seat[data-seat='0'] .seat-tag.account")
        expect(plate).to_have_text("bot account")
        expect(plate).to_have_attribute("title", "a program playing through the bot API")
        expect(page.locator("#seats .seat-tag.account")).to_have_count(1)
        page.goto(srv.base + "/players/Clanky")
        expect(page.locator("#name")).to_contain_text("bot account")

        # a whole game the program plays: its replay marks the program's seat (the record's account_bots)
        played = httpx.post(srv.base + "/api/tables", json={
            "rules": RULES, "seats": [{"kind": "bot", "bot": "random"}, {"kind": "open"},
                                      {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}).json()["id"]

        async def play() -> None:
            bot = TokenClient(srv, played, token)
            await bot.connect()
            assert (await bot.join(1, "x"))["type"] == "joined"
            await play_out([bot], lambda c, v: v["legal"][0], timeout=60)
            await bot.close()
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, play()).result(90)
        assert httpx.get(f"{srv.base}/api/tables/{played}/games/1/record").json()["account_bots"] == [1]
        # the table's game-over standings mark the program's line, and only its line
        page.goto(f"{srv.base}/t/{played}")
        expect(page.locator("#standings .pill.bot-account")).to_have_count(1)
        expect(page.locator("#standings li", has=page.locator(".pill.bot-account"))).to_contain_text("Clanky")
        expect(page.locator("#seats .seat[data-seat='1'] .seat-tag.account")).to_be_visible()
        page.goto(f"{srv.base}/t/{played}/replay/1")
        # the replay draws its seats with the table's code, so the mark is the table's
        mark = page.locator("#seats .seat[data-seat='1'] .seat-tag.account")
        expect(mark).to_have_text("bot account")
        expect(mark).to_have_attribute("title", "a program playing through the bot API")
        expect(page.locator("#seats .seat-tag.account")).to_have_count(1)   # the server's own bots are not accounts
        expect(page.locator("#desc")).to_contain_text("Clanky (bot)")
        page.keyboard.press("End")   # and so at every step
        expect(page.locator("#seats .seat[data-seat='1'] .seat-tag.account")).to_be_visible()
        # its player page's recent game marks the bots as the table's seat panel does
        page.goto(srv.base + "/players/Clanky")
        game = page.locator("#recent li", has=page.locator(f"a[href='/t/{played}/replay/1']"))
        mark = game.locator(".pill.bot-account")
        expect(mark).to_have_text("bot account")
        expect(mark).to_have_attribute("title", "a program playing through the bot API")
        expect(game.locator(".pill.bot")).to_have_text(["bot: random"] * 3)
        expect(game.locator("a").first).to_contain_text("Clanky")

        # revoking it on the account page: listed no more, refused at once
        page.goto(srv.base + "/account")
        expect(page.locator("#token-table tbody tr")).not_to_contain_text("never")   # last use recorded
        page.click(".token-revoke")
        expect(page.locator("#status")).to_contain_text('The token "arena bot" is revoked.')
        expect(page.locator("#token-table tbody")).to_contain_text("No tokens yet.")

        async def refused_now() -> int:
            return (await refused(srv.ws_url, additional_headers={"Authorization": f"Bearer {token}"}))[0]
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            assert pool.submit(asyncio.run, refused_now()).result(30) == 401
        assert not errors, errors
    finally:
        context.close()
        srv.stop()
