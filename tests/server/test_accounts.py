"""Accounts (``ohhell.server.accounts``), each property tried by attacking it, on SQLite and on
PostgreSQL: sign-up and sign-in, cookie flags, brute force slowed (429 + Retry-After), session
fixation, cross-origin requests, CSRF tokens, one account never acting at another's seat, guest
seats claimed, passwords never in the logs or the database, ``ohhell admin`` and the migration
of an older database."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import time
from http.cookies import SimpleCookie

import httpx
import pytest
import websockets

from ohhell.server.accounts import AccountError, check_password, clean_username, username_key
from ohhell.server.storage import SCHEMA_VERSION, open_store
from serverkit import ROOT, Client, ProcessServer, ThreadServer

RULES = {"players": 4, "hand_sizes": [1, 2]}
PASSWORD = "correct horse battery"


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    """A fresh database of each kind: an SQLite path or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "accounts.sqlite3")
    return request.getfixturevalue("pg_database")


# --- helpers ---------------------------------------------------------------------------------

def browser(srv, **headers) -> httpx.Client:
    """An HTTP client that keeps cookies, as a browser on the server's own page would."""
    return httpx.Client(base_url=srv.base, headers={"origin": srv.base, **headers}, timeout=20)


def csrf(c: httpx.Client) -> str:
    r = c.get("/api/account")
    assert r.status_code == 200, r.text
    return r.json()["csrf"]


def post(c: httpx.Client, path: str, body: dict, token: "str | None" = None, **headers) -> httpx.Response:
    if token is not None:
        headers["x-csrf-token"] = token
    return c.post(path, json=body, headers=headers)


def signup(c: httpx.Client, username: str, password: str = PASSWORD) -> dict:
    r = post(c, "/api/account/signup", {"username": username, "password": password}, csrf(c))
    assert r.status_code == 201, r.text
    return r.json()


def signin(c: httpx.Client, username: str, password: str = PASSWORD) -> httpx.Response:
    return post(c, "/api/account/signin", {"username": username, "password": password}, csrf(c))


def set_cookies(r: httpx.Response) -> dict[str, dict]:
    """The response's Set-Cookie headers: name -> {"value", and each attribute, lower-case}."""
    out = {}
    for header in r.headers.get_list("set-cookie"):
        jar = SimpleCookie()
        jar.load(header)
        for name, morsel in jar.items():
            attrs = {k.lower(): v for k, v in morsel.items() if v}
            flags = {part.strip().lower() for part in header.split(";")[1:]}
            attrs.update({f: True for f in ("httponly", "secure") if f in flags})
            out[name] = {"value": morsel.value, **attrs}
    return out


def who(c: httpx.Client) -> "str | None":
    user = c.get("/api/account").json()["user"]
    return user and user["username"]


class AccountClient(Client):
    """The kit's websocket client, sending a browser's cookies (and origin) with its handshake."""

    def __init__(self, srv, table: str, cookies: "httpx.Cookies | None" = None, token: "str | None" = None):
        super().__init__(srv.ws_url, table, token)
        self.cookie = "; ".join(f"{k}={v}" for k, v in (cookies or {}).items())
        self.origin = srv.base

    async def connect(self) -> dict:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        self.ws = await websockets.connect(self.url, max_size=1 << 22, origin=self.origin,
                                           additional_headers=headers)
        await self.send({"type": "hello", "table": self.table, "token": self.token, "admin": None})
        return await self.wait(lambda m: m["type"] == "state")


# --- rules of names and passwords ---------------------------------------------------------------

def test_username_and_password_rules():
    assert clean_username("  Ｍａｒｉｅ  ") == "Marie"          # NFKC, spaces trimmed
    assert clean_username("zoë.o-b_1") == "zoë.o-b_1"
    assert username_key("Straße") == username_key("STRASSE")     # full case folding
    assert username_key("ﬁsh") == username_key("FISH")            # the ligature folds too
    for bad in ("ab", "x" * 25, "a b", "_lead", "a\u202eb", "tab\tx", "émoji😀", "", None, 7, "Admin", "GUEST"):
        with pytest.raises(AccountError) as e:
            clean_username(bad)
        assert e.value.code == "bad_username"
    assert check_password("ｐａｓｓｗｏｒｄ１") == "password1"   # typed the same on any keyboard
    for bad, who_ in (("short", None), ("x" * 1025, None), ("MarieMarie", "mariemarie"), (None, None)):
        with pytest.raises(AccountError):
            check_password(bad, who_)


# --- the round trip ---------------------------------------------------------------------------------

def test_sign_up_in_and_out_with_cookie_flags(db):
    with ThreadServer(db) as srv, browser(srv) as c:
        assert c.get("/account").status_code == 200
        first = c.get("/api/account")
        assert first.json()["user"] is None and first.headers["cache-control"] == "no-store"
        anon = set_cookies(first)["ohhell_csrf"]
        assert anon["httponly"] and anon["samesite"].lower() == "lax" and not anon.get("secure")

        r = post(c, "/api/account/signup", {"username": "Alice", "password": PASSWORD}, first.json()["csrf"])
        assert r.status_code == 201, r.text
        cookie = set_cookies(r)["ohhell_session"]
        # HttpOnly (no script reads it), SameSite=Lax (no cross-site request carries it), the whole
        # site; Secure only over https (plain-http localhost would drop it: see the https test)
        assert cookie["httponly"] and cookie["samesite"].lower() == "lax" and cookie["path"] == "/"
        assert not cookie.get("secure") and int(cookie["max-age"]) == 30 * 86400
        assert len(cookie["value"]) >= 43                                   # 256 random bits
        assert who(c) == "Alice"

        # the same name in other cases or widths is taken
        with browser(srv) as other:
            for taken in ("alice", "ALICE", "Ａｌｉｃｅ"):
                r = post(other, "/api/account/signup", {"username": taken, "password": PASSWORD}, csrf(other))
                assert r.status_code == 409 and r.json()["error"] == "username_taken"
            r = signin(other, "aLiCe")                                     # sign-in ignores case
            assert r.status_code == 200 and r.json()["user"]["username"] == "Alice"

        session = cookie["value"]
        r = post(c, "/api/account/signout", {}, csrf(c))
        assert r.status_code == 200 and r.json()["user"] is None
        assert set_cookies(r)["ohhell_session"]["max-age"] == "0"
        assert who(c) is None
        # the id is ended on the server, not only forgotten by the browser
        with browser(srv) as replay:
            replay.cookies.set("ohhell_session", session)
            assert who(replay) is None


def test_cookies_are_secure_and_host_prefixed_over_https():
    """Behind a trusted proxy that says the page is https, the cookies are Secure and named
    ``__Host-`` (no subdomain can set or shadow them)."""
    with ThreadServer(uvicorn={"trusted_proxies": ["127.0.0.1"]}) as srv, \
            browser(srv, **{"x-forwarded-proto": "https", "origin": f"https://127.0.0.1:{srv.port}"}) as c:
        r = c.get("/api/account")
        assert set_cookies(r)["__Host-ohhell_csrf"]["secure"]
        # httpx keeps Secure cookies for https URLs only; the proxy speaks plain http to us
        c.cookies.set("__Host-ohhell_csrf", set_cookies(r)["__Host-ohhell_csrf"]["value"])
        r = post(c, "/api/account/signup", {"username": "Sam", "password": PASSWORD}, r.json()["csrf"])
        assert r.status_code == 201, r.text
        cookie = set_cookies(r)["__Host-ohhell_session"]
        assert cookie["secure"] and cookie["httponly"] and cookie["path"] == "/"
        assert "domain" not in cookie


# --- brute force ------------------------------------------------------------------------------------

def test_sign_in_brute_force_is_slowed():
    """Wrong passwords for one username, even from many addresses, soon answer 429 with a
    Retry-After, and then the right password is refused too (the guessing stops); one address
    trying many usernames is slowed as well."""
    with ThreadServer(uvicorn={"trusted_proxies": ["127.0.0.1"]}) as srv:
        with browser(srv) as c:
            signup(c, "victim")
        codes = []
        for i in range(8):   # a botnet: a fresh address per guess
            with browser(srv, **{"x-forwarded-for": f"10.0.{i}.1"}) as c:
                r = signin(c, "Victim", f"guess number {i}")
                codes.append(r.status_code)
                if r.status_code == 429:
                    assert 30 <= int(r.headers["retry-after"]) <= 60, r.headers
                    assert r.json()["error"] == "slow_down"
        assert codes == [401] * 5 + [429] * 3, codes
        with browser(srv, **{"x-forwarded-for": "10.9.9.9"}) as c:
            assert signin(c, "victim").status_code == 429          # the right one waits too
            assert who(c) is None

        # one address, many usernames: 10 attempts, then one every 12 s
        with browser(srv, **{"x-forwarded-for": "10.1.1.1"}) as c:
            codes = [signin(c, f"user{i}", "wrong password").status_code for i in range(12)]
            assert codes == [401] * 10 + [429] * 2, codes
            r = signin(c, "someone", "wrong password")
            assert r.status_code == 429 and 1 <= int(r.headers["retry-after"]) <= 12

        # an unknown name costs as long as a known one (no finding out who has an account)
        with browser(srv, **{"x-forwarded-for": "10.2.2.2"}) as c:
            signup(c, "known")
            times = {}
            for name in ("known", "nobody-here"):
                t0 = time.perf_counter()
                assert signin(c, name, "wrong password").status_code == 401
                times[name] = time.perf_counter() - t0
            assert times["nobody-here"] > times["known"] / 4, times


# --- sessions: fixation, other origins, CSRF ------------------------------------------------------

def test_session_fixation_is_impossible(db):
    with ThreadServer(db) as srv:
        with browser(srv) as attacker:
            signup(attacker, "mallory")
            mallory_session = attacker.cookies["ohhell_session"]
        with browser(srv) as c:
            signup(c, "victim2")
            post(c, "/api/account/signout", {}, csrf(c))
            for planted in ("chosen-by-the-attacker-0123456789abcdefghijklmnop", mallory_session):
                c.cookies.clear()
                c.cookies.set("ohhell_session", planted)
                r = signin(c, "victim2")
                assert r.status_code == 200
                issued = set_cookies(r)["ohhell_session"]["value"]
                assert issued != planted
                c.cookies.clear()   # the browser replaces the planted cookie with the issued one
                c.cookies.set("ohhell_session", issued)
                assert who(c) == "victim2"
                # the planted id is not the victim's session (and an attacker's real one was ended)
                with browser(srv) as replay:
                    replay.cookies.set("ohhell_session", planted)
                    assert who(replay) is None
                post(c, "/api/account/signout", {}, csrf(c))


def test_other_origins_are_refused(db):
    with ThreadServer(db) as srv, browser(srv) as c:
        signup(c, "carol")
        token = csrf(c)
        for headers in ({"origin": "https://evil.example"}, {"origin": "null"},
                        {"origin": "", "sec-fetch-site": "cross-site"}):
            for path, body in (("/api/account/signout", {}), ("/api/account/signin",
                                                             {"username": "carol", "password": PASSWORD})):
                r = post(c, path, body, token, **headers)
                assert r.status_code == 403 and r.json()["error"] == "bad_origin", (headers, r.text)
            r = c.post("/api/tables", json={"rules": RULES, "seats": [{"kind": "open"}] * 4}, headers=headers)
            assert r.status_code == 403 and r.json()["error"] == "bad_origin"
        assert who(c) == "carol"   # still signed in: nothing was done
        # no other origin may read the token (no CORS), nor open a websocket with the cookie
        r = c.get("/api/account", headers={"origin": "https://evil.example"})
        assert "access-control-allow-origin" not in r.headers
        t = srv.create(RULES, [{"kind": "open"}] * 4)

        async def hijack():
            with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
                await websockets.connect(srv.ws_url, origin="https://evil.example",
                                         additional_headers={"Cookie": f"ohhell_session={c.cookies['ohhell_session']}"})
            assert refused.value.response.status_code == 403
        asyncio.run(hijack())
        assert t["id"]


def test_state_changing_requests_need_the_csrf_token(db):
    with ThreadServer(db) as srv, browser(srv) as c, browser(srv) as other:
        signup(c, "dave")
        signup(other, "erin")
        others_token = csrf(other)
        for token in (None, "", "0" * 64, others_token):
            for path, body in (("/api/account/signout", {}), ("/api/account/password",
                                                             {"current": PASSWORD, "password": "x" * 12}),
                               ("/api/account/claim", {"seats": []})):
                r = post(c, path, body, token)
                assert r.status_code == 403 and r.json()["error"] == "csrf", (token, path, r.text)
        assert who(c) == "dave"
        assert signin(c, "dave").status_code == 200    # the password did not change
        # signing in and up need it too (no logging a victim in as the attacker)
        with browser(srv) as fresh:
            r = post(fresh, "/api/account/signin", {"username": "dave", "password": PASSWORD})
            assert r.status_code == 403 and r.json()["error"] == "csrf"
            r = post(fresh, "/api/account/signup", {"username": "newbie", "password": PASSWORD})
            assert r.status_code == 403
        # a form may carry it in a hidden field; it is sent back to the account page
        r = c.post("/api/account/signout", data={"csrf": csrf(c)})
        assert r.status_code == 303 and r.headers["location"] == "/account"
        assert who(c) is None


def test_a_browser_creates_a_table_only_with_its_pages_csrf_token(db):
    """``POST /api/tables``: a request that carries cookies (a browser's) needs its page's token,
    as every state-changing request does; a program, sending no cookie or its API token, none."""
    body = {"rules": RULES, "seats": [{"kind": "open"}] * 4}
    with ThreadServer(db) as srv, browser(srv) as guest, browser(srv) as member, browser(srv) as other:
        signup(member, "tabler")
        made = lambda: len(srv.manager.tables)   # noqa: E731
        guest_token, member_token, others_token = csrf(guest), csrf(member), csrf(other)
        for c in (guest, member):   # a guest's page has a token too (of its ohhell_csrf cookie)
            for token in (None, "", "0" * 64, others_token):
                r = post(c, "/api/tables", body, token)
                assert r.status_code == 403 and r.json()["error"] == "csrf", (token, r.text)
                assert "X-CSRF-Token" in r.json()["message"] and "reload the page" in r.json()["message"]
            # the cookies without an Origin (no browser sends that; a script given them might)
            with httpx.Client(base_url=srv.base, cookies=c.cookies) as bare:
                r = bare.post("/api/tables", json=body)
                assert r.status_code == 403 and r.json()["error"] == "csrf"
            # another site's page: refused for its origin, whatever it sends (a form's text/plain body too)
            for headers in ({"origin": "https://evil.example"}, {"origin": "null"},
                            {"origin": "", "sec-fetch-site": "cross-site"}):
                r = c.post("/api/tables", content=json.dumps(body).encode(),
                           headers={"content-type": "text/plain", "x-csrf-token": csrf(c), **headers})
                assert r.status_code == 403 and r.json()["error"] == "bad_origin", (headers, r.text)
        assert made() == 0   # nothing was made
        # with the page's token: made, for a guest and for a signed-in account alike
        for c, token in ((guest, guest_token), (member, member_token)):
            r = post(c, "/api/tables", body, token)
            assert r.status_code == 201 and r.json()["url"].startswith("/t/"), r.text
        assert made() == 2
        # a program: no cookie, or its API token (even beside a cookie), needs no CSRF token
        assert httpx.post(srv.base + "/api/tables", json=body).status_code == 201
        api_token = post(member, "/api/account/tokens", {"name": "tables"}, csrf(member)).json()["token"]
        r = httpx.post(srv.base + "/api/tables", json=body,
                       headers={"authorization": f"Bearer {api_token}", "cookie": "ohhell_csrf=anything"})
        assert r.status_code == 201, r.text
        r = httpx.post(srv.base + "/api/tables", json=body, headers={"authorization": "Bearer ohh_wrong"})
        assert r.status_code == 401 and r.json()["error"] == "bad_token"
        assert made() == 4


# --- seats --------------------------------------------------------------------------------------

def test_one_account_never_acts_at_another_accounts_seat(db):
    with ThreadServer(db) as srv, browser(srv) as a, browser(srv) as b, browser(srv) as guest:
        signup(a, "anna")
        signup(b, "bert")
        t = srv.create(RULES, [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "random"},
                               {"kind": "bot", "bot": "random"}])

        async def main():
            ca = AccountClient(srv, t["id"], a.cookies)
            cb = AccountClient(srv, t["id"], b.cookies)
            await ca.connect()
            await cb.connect()
            joined = await ca.join(0, "a name anyone could type")
            assert joined["type"] == "joined"
            assert (await cb.join(1, "bert"))["type"] == "joined"
            state = await ca.wait(lambda m: m["type"] == "state" and m["game"] is not None)
            assert state["table"]["seats"][0]["name"] == "anna"     # the account's name, not the typed one
            stolen = ca.token
            # bert shows anna's stolen token: he is still only at his own seat
            thief = AccountClient(srv, t["id"], b.cookies, token=stolen)
            st = await thief.connect()
            assert st["you"]["seat"] == 1
            # a guest (no session) with the stolen token holds nothing, and cannot act
            ghost = AccountClient(srv, t["id"], guest.cookies, token=stolen)
            st = await ghost.connect()
            assert st["you"]["seat"] is None
            await ghost.send({"type": "act", "action": 0})
            err = await ghost.wait(lambda m: m["type"] == "error")
            assert err["code"] == "no_seat"
            # nor can either of them take the seat's place by joining it
            await ghost.send({"type": "join", "seat": 0, "name": "x"})
            assert (await ghost.wait(lambda m: m["type"] == "error"))["code"] == "seat_taken"
            # anna, from another browser without the token, has her seat
            elsewhere = AccountClient(srv, t["id"], a.cookies)
            st = await elsewhere.connect()
            assert st["you"]["seat"] == 0
            # when it is anna's turn, bert (with her token) cannot play her card or bid
            table = srv.manager.tables[t["id"]]
            deadline = time.monotonic() + 20
            while not table.game.legal_actions(0):
                assert time.monotonic() < deadline
                legal1 = table.game.legal_actions(1)
                if legal1:
                    await cb.send({"type": "act", "action": legal1[0].to_json()})
                await asyncio.sleep(0.1)
            before = table.game.action_count
            legal0 = [a.to_json() for a in table.game.legal_actions(0)]
            await thief.send({"type": "act", "action": legal0[0]})
            err = await thief.wait(lambda m: m["type"] == "error")
            assert err["code"] == "not_your_turn"
            assert table.game.action_count == before
            await elsewhere.send({"type": "act", "action": legal0[0]})   # anna can, from anywhere
            while table.game.action_count == before:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.05)
            for cl in (ca, cb, thief, ghost, elsewhere):
                await cl.close()
        asyncio.run(main())


def test_a_guest_claims_their_seats_by_signing_up(db):
    with ThreadServer(db) as srv, browser(srv) as c, browser(srv) as other:
        t = srv.create(RULES, [{"kind": "open"}] * 4)
        u = srv.create(RULES, [{"kind": "open"}] * 4)

        async def as_guest(table_id: str, seat: int) -> str:
            g = AccountClient(srv, table_id, c.cookies)
            await g.connect()
            assert (await g.join(seat, "Guest Gus"))["type"] == "joined"
            await g.close()
            return g.token
        tokens = {t["id"]: asyncio.run(as_guest(t["id"], 2)), u["id"]: asyncio.run(as_guest(u["id"], 0))}

        signup(c, "gus")
        seats = [{"table": k, "token": v} for k, v in tokens.items()] + [
            {"table": "nosuchtable", "token": "x"}, {"table": t["id"], "token": "not-a-token"}]
        r = post(c, "/api/account/claim", {"seats": seats}, csrf(c))
        assert r.status_code == 200, r.text
        assert sorted((x["table"], x["seat"]) for x in r.json()["claimed"]) == sorted([(t["id"], 2), (u["id"], 0)])
        assert [x["error"] for x in r.json()["refused"]] == ["no_seat", "no_seat"]
        listed = c.get("/api/account/seats").json()["seats"]
        assert sorted((s["table"], s["seat"]) for s in listed) == sorted([(t["id"], 2), (u["id"], 0)])
        # the claim is in the table's log: it survives a reload
        assert any(e.kind == "claim" for e in asyncio.run(_load(srv, t["id"])))

        # another account cannot claim it away with the same token; a guest with it holds nothing
        signup(other, "thief")
        r = post(other, "/api/account/claim", {"seats": [{"table": t["id"], "token": tokens[t["id"]]}]}, csrf(other))
        assert r.json()["claimed"] == [] and r.json()["refused"][0]["error"] == "claimed"

        async def check():
            ghost = AccountClient(srv, t["id"], None, token=tokens[t["id"]])
            assert (await ghost.connect())["you"]["seat"] is None
            await ghost.close()
            mine = AccountClient(srv, t["id"], c.cookies)   # gus, anywhere, without the token
            assert (await mine.connect())["you"]["seat"] == 2
            await mine.close()
        asyncio.run(check())
        # claiming needs a session
        with browser(srv) as anon:
            r = post(anon, "/api/account/claim", {"seats": []}, csrf(anon))
            assert r.status_code == 401 and r.json()["error"] == "signed_out"


async def _load(srv, table_id):
    return await srv.app.state.store.load(table_id)


# --- secrets stay secret ----------------------------------------------------------------------------

def _dump_database(db: str) -> tuple[str, list[str]]:
    """Every value in every table of the database, as text; and the stored password hashes."""
    if db.startswith("postgresql://"):
        import psycopg
        with psycopg.connect(db) as conn:
            names = [r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname='public'")]
            text = "\n".join(repr(row) for n in names for row in conn.execute(f'SELECT * FROM "{n}"'))
            hashes = [r[0] for r in conn.execute("SELECT password_hash FROM ohhell_users")]
        return text, hashes
    con = sqlite3.connect(db)
    try:
        names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        text = "\n".join(repr(row) for n in names for row in con.execute(f'SELECT * FROM "{n}"'))
        hashes = [r[0] for r in con.execute("SELECT password_hash FROM ohhell_users")]
    finally:
        con.close()
    return text, hashes


def test_passwords_never_reach_the_logs_or_the_database(db):
    """The real ``ohhell serve``, logging everything (debug, access log): after sign-ups, failed
    and good sign-ins, a password change and a bad request, neither a password, nor its hash,
    nor a session id is in its output, and the database holds Argon2id hashes only."""
    first, second, wrong = "first secret phrase", "second secret phrase", "wrong secret phrase"
    srv = ProcessServer(db, "--log-level", "debug", "--access-log").start()
    sessions = []
    try:
        with browser(srv) as c:
            signup(c, "frank", first)
            sessions.append(c.cookies["ohhell_session"])
            assert signin(c, "frank", wrong).status_code == 401
            assert signin(c, "frank", first).status_code == 200
            sessions.append(c.cookies["ohhell_session"])
            r = post(c, "/api/account/password", {"current": first, "password": second}, csrf(c))
            assert r.status_code == 200, r.text
            sessions.append(c.cookies["ohhell_session"])
            r = c.post("/api/account/signin", content=f'{{"username": "frank", "password": "{wrong}"',
                       headers={"x-csrf-token": csrf(c), "content-type": "application/json"})
            assert r.status_code == 400                                  # broken JSON: no echo
            assert wrong not in r.text
            # a password in a URL is not a way in (and would be in access logs): refused
            assert c.get(f"/api/account/signin?password={wrong}").status_code == 405
    finally:
        srv.stop()
    output = srv.output()
    assert "POST /api/account/signin" in output                         # the log was captured
    text, hashes = _dump_database(db)
    assert len(hashes) == 1 and hashes[0].startswith("$argon2id$v=19$m=65536,t=3,p=4$"), hashes
    for secret in (first, second, wrong, *hashes, *sessions):
        assert secret not in output, secret
    for secret in (first, second, wrong, *sessions):
        assert secret not in text, secret


# --- ohhell admin -------------------------------------------------------------------------------------

def _admin(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "ohhell.cli", "admin", *args], input=stdin, capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=60)


def test_admin_lists_users_and_resets_a_password(db):
    with ThreadServer(db) as srv, browser(srv) as c:
        signup(c, "Grace")
        p = _admin("list-users", "--db", db)
        assert p.returncode == 0 and p.stdout.split()[0] == "Grace" and "sessions 1" in p.stdout
        p = _admin("reset-password", "GRACE", "--db", db, stdin="brand new password\n")
        assert p.returncode == 0, p.stderr
        assert "reset; 1 session ended" in p.stdout and "brand new password" not in p.stdout + p.stderr
        assert who(c) is None                                 # signed out everywhere
        assert signin(c, "grace").status_code == 401
        assert signin(c, "grace", "brand new password").status_code == 200
        # refusals say why and change nothing
        p = _admin("reset-password", "grace", "--db", db, stdin="short\n")
        assert p.returncode == 1 and "8 to 1024 characters and must not be the username; nothing was changed" in p.stderr
        p = _admin("reset-password", "nobody", "--db", db, stdin="whatever12\n")
        assert p.returncode == 1 and "no account 'nobody'" in p.stderr
        assert who(c) == "Grace"
    assert _admin().returncode == 2


# --- an older database ------------------------------------------------------------------------------

def test_an_older_database_gains_the_account_tables(tmp_path):
    path = str(tmp_path / "old.sqlite3")

    async def make_old():
        store = open_store(path)
        await store.open()
        await store.append("t1", 0, "create", {"title": "x"})
        await store.close()
    asyncio.run(make_old())
    con = sqlite3.connect(path)
    with con:   # what a version-3 server left: no account tables
        for name in ("ohhell_users", "ohhell_sessions", "ohhell_user_seats"):
            con.execute(f"DROP TABLE {name}")
        con.execute("UPDATE ohhell_meta SET value='3' WHERE key='schema'")
    con.close()
    with ThreadServer(path) as srv, browser(srv) as c:
        signup(c, "Heidi")
        assert who(c) == "Heidi"
    con = sqlite3.connect(path)
    try:
        assert con.execute("SELECT value FROM ohhell_meta WHERE key='schema'").fetchone()[0] == str(SCHEMA_VERSION)
        assert con.execute("SELECT count(*) FROM ohhell_events").fetchone()[0] == 1
        secret = con.execute("SELECT value FROM ohhell_meta WHERE key='secret_key'").fetchone()[0]
    finally:
        con.close()
    # the secret key is made once: a restarted server keeps it (and so the pages' tokens)
    with ThreadServer(path) as srv, browser(srv) as c:
        assert signin(c, "heidi").status_code == 200
    con = sqlite3.connect(path)
    assert con.execute("SELECT value FROM ohhell_meta WHERE key='secret_key'").fetchone()[0] == secret
    con.close()
    assert json  # noqa: the module is used by the kit's client


def test_signing_out_signs_out_the_open_websockets_too(db, monkeypatch):
    """A session ended through the server (sign-out, a password change) stops its open
    sockets' hold on the account's seat at once; one ended elsewhere (``ohhell admin``, in
    another process) at the socket's next message after ``RECHECK_SECONDS``."""
    from ohhell.server import accounts
    with ThreadServer(db) as srv, browser(srv) as c:
        signup(c, "ines")
        t = srv.create(RULES, [{"kind": "open"}] * 4)

        async def main():
            tab = AccountClient(srv, t["id"], c.cookies)
            await tab.connect()
            assert (await tab.join(0, "ines"))["type"] == "joined"
            tab.token = None        # (only the session binds it: as on another browser)
            other = AccountClient(srv, t["id"], c.cookies)
            assert (await other.connect())["you"]["seat"] == 0
            r = post(c, "/api/account/signout", {}, csrf(c))
            assert r.status_code == 200
            await other.send({"type": "leave"})
            assert (await other.wait(lambda m: m["type"] == "error"))["code"] == "no_seat"
            await other.close()

            # signed in again; the session is then ended behind the server's back
            assert signin(c, "ines").status_code == 200
            monkeypatch.setattr(accounts, "RECHECK_SECONDS", 0.0)
            third = AccountClient(srv, t["id"], c.cookies)
            assert (await third.connect())["you"]["seat"] == 0
            assert _admin("reset-password", "ines", "--db", db, stdin="another passphrase\n").returncode == 0
            await third.send({"type": "leave"})
            assert (await third.wait(lambda m: m["type"] == "error"))["code"] == "no_seat"
            await third.close()
            await tab.close()
        asyncio.run(main())


def test_guessing_the_current_password_is_slowed_too():
    """Someone at a signed-in browser who does not know its password cannot guess it through
    the password change either: those guesses count as failed sign-ins."""
    with ThreadServer() as srv, browser(srv) as c:
        signup(c, "judy")
        codes = [post(c, "/api/account/password", {"current": f"guess {i}", "password": "x" * 12},
                      csrf(c)).status_code for i in range(7)]
        assert codes == [401] * 5 + [429] * 2, codes
        r = post(c, "/api/account/password", {"current": PASSWORD, "password": "y" * 12}, csrf(c))
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 30


# --- the seat binding, as an invariant ---------------------------------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

_STEPS = st.lists(st.tuples(st.sampled_from(["join", "claim", "leave"]), st.integers(0, 3),
                            st.sampled_from([None, "u1", "u2"]), st.integers(0, 5)), max_size=25)


@settings(max_examples=200, deadline=None)
@given(_STEPS, st.integers(0, 5), st.sampled_from([None, "u1", "u2", "u3"]))
def test_a_seat_bound_to_an_account_is_held_by_that_account_alone(steps, token, account):
    """Whatever joins, claims and leaves happened, a connection showing any token while signed
    in to any account (or none) holds a seat only if no other account owns it."""
    from ohhell.server.tables import Table

    class Manager:
        bot_delay = 0.0

    table = Table("t", Manager())
    table._apply_event("create", {"title": "", "private": False, "rules": {"players": 4, "hand_sizes": [1]},
                                  "admin": "x", "seats": [{"kind": "open"}] * 4}, 0.0)
    for kind, seat, who_, tok in steps:
        s = table.seats[seat]
        if kind == "join" and s.kind == "open" and (who_ is None or table.seat_of(None, who_) is None):
            table._apply_event("join", {"seat": seat, "name": "n", "token": f"t{tok}",
                                        **({"account": who_} if who_ else {})}, 0.0)
        elif kind == "claim" and s.kind == "human" and s.account is None and who_ is not None:
            table._apply_event("claim", {"seat": seat, "account": who_}, 0.0)
        elif kind == "leave" and s.kind == "human":
            table._apply_event("leave", {"seat": seat}, 0.0)
    held = table.seat_of(f"t{token}", account)
    if held is not None:
        owner = table.seats[held].account
        assert owner is None or owner == account
        assert owner is not None or table.seats[held].token_hash == f"t{token}"
    if account is not None and any(s.kind == "human" and s.account == account for s in table.seats):
        assert held is not None and table.seats[held].account in (account, None)
