"""Accounts: sign-up and sign-in with a password, server-side sessions, CSRF and sign-in limits.

* **Passwords** are hashed with Argon2id (``argon2-cffi``'s :class:`~argon2.PasswordHasher`
  with its RFC 9106 defaults), in a worker thread and at most :data:`HASH_CONCURRENCY` at a
  time (each takes 64 MiB); a hash made with weaker parameters is replaced at the next
  sign-in (``check_needs_rehash``).  Only the hash is stored; the password is never logged.
* **Sessions** are random ids (``secrets.token_urlsafe(32)``) in an ``HttpOnly``,
  ``SameSite=Lax`` cookie (``Secure`` and named ``__Host-ohhell_session`` when the page is
  served over https, directly or behind ``--trusted-proxy``); the database holds only each
  id's SHA-256 and its expiry, so a session can be revoked and a stolen database holds no
  usable one.  Signing in always issues a new id and ends the one the browser showed
  (no session fixation).
* **CSRF**: every state-changing request needs the token ``GET /api/account`` hands out, in
  the ``X-CSRF-Token`` header (or a ``csrf`` form field), and a browser's ``Origin`` (or
  ``Sec-Fetch-Site``) must be this server's own.  The token is an HMAC, under the server's
  secret key, of the session id (signed in) or of a random ``ohhell_csrf`` cookie (not yet).
* **Limits**: sign-in attempts per address and failed sign-ins per username are token
  buckets (:data:`SIGNIN_PER_ADDRESS`, :data:`SIGNIN_FAILURES_PER_USER`); over them the
  answer is 429 with ``Retry-After``.  Sign-ups per address likewise.
* **API tokens** let a program (anyone's bot) act as an account over the websocket:
  ``ohh_`` and 43 random characters (256 bits), shown once when made; the database holds only
  the token's SHA-256 (high entropy makes a slow hash pointless), its name, its first eight
  characters (to recognise it) and when it was last used.  A token is sent as
  ``Authorization: Bearer ohh_...`` with the websocket handshake; such a connection needs no
  ``Origin`` (a program is not a browser) and cookies are never read from it.  Revoking a
  token closes its open sockets at once.  See ``docs/bots-api.md``.
* **Bot accounts**: an account marked as a program's (at sign-up, or ``ohhell admin set-bot``)
  is shown as a bot wherever its seats and name appear.

>>> clean_username(" Ｍａｒｉｅ_1 ")   # NFKC: full-width letters become plain ones
'Marie_1'
>>> username_key("Marie_1") == username_key("MARIE_1")
True
>>> clean_username("a b")
Traceback (most recent call last):
ohhell.server.accounts.AccountError: bad_username: a username is 3 to 24 letters, digits, '_', '-' or '.', starting with a letter or digit
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import math
import secrets
import time
import unicodedata
from typing import TYPE_CHECKING, Any, Awaitable, Callable
from urllib.parse import parse_qs, urlsplit

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from .session import RateLimiter
from .storage import Store, StoreError, Taken

if TYPE_CHECKING:
    from .manager import TableManager

__all__ = ["AccountError", "Accounts", "clean_username", "username_key", "check_password", "USERNAME_LENGTH",
           "PASSWORD_LENGTH", "SESSION_DAYS", "SIGNIN_PER_ADDRESS", "SIGNIN_FAILURES_PER_USER",
           "SIGNUP_PER_ADDRESS", "MAX_CLAIMS", "HASH_CONCURRENCY", "TOKEN_PREFIX", "MAX_TOKENS",
           "TOKEN_FAILURES_PER_ADDRESS", "new_api_token", "api_token_hash", "clean_token_name", "issue_token", "bearer_token"]

log = logging.getLogger("ohhell.server")

#: A username's length in characters (after NFKC normalisation).
USERNAME_LENGTH = (3, 24)
#: A password's length in characters (after NFKC normalisation).
PASSWORD_LENGTH = (8, 1024)
#: How long a session lasts (days); signing out or a password reset ends it sooner.
SESSION_DAYS = 30
#: Sign-in attempts one address may make: ``(per second, burst)`` - 10 at once, then 5 a minute.
SIGNIN_PER_ADDRESS = (5 / 60, 10.0)
#: Failed sign-ins one username may have, from anywhere: 5 at once, then 1 a minute.
SIGNIN_FAILURES_PER_USER = (1 / 60, 5.0)
#: Accounts one address may create: 5 at once, then 5 an hour.
SIGNUP_PER_ADDRESS = (5 / 3600, 5.0)
#: Guest seats one request may claim.
MAX_CLAIMS = 200
#: Password hashes computed at once (each takes 64 MiB and tens of milliseconds of a core).
HASH_CONCURRENCY = 2
#: Names nobody may sign up as (they would read as the server speaking).
RESERVED = frozenset({"admin", "administrator", "root", "system", "ohhell", "guest", "moderator", "server"})
#: The largest account request body.
MAX_BODY = 4096
#: Seconds after which an open websocket's session is looked up again (a password reset by
#: ``ohhell admin``, in another process, reaches open sockets within this time; a sign-out or
#: password change through this server reaches them at once).
RECHECK_SECONDS = 60.0

#: What every API token starts with (so it is recognisable, to people and to secret scanners).
TOKEN_PREFIX = "ohh_"
#: API tokens one account may hold at once.
MAX_TOKENS = 20
#: A token's name, in characters.
TOKEN_NAME_LENGTH = (1, 40)
#: Websocket handshakes with an unknown token one address may make: 10 at once, then 1 a second.
TOKEN_FAILURES_PER_ADDRESS = (1.0, 10.0)
#: What an open token socket's entry in ``Accounts._sockets`` starts with.
_TOKEN_KEY = "token:"

COOKIE, SECURE_COOKIE = "ohhell_session", "__Host-ohhell_session"
CSRF_COOKIE, SECURE_CSRF_COOKIE = "ohhell_csrf", "__Host-ohhell_csrf"
CSRF_HEADER = "x-csrf-token"


class AccountError(ValueError):
    """An account request that cannot be done: ``code`` is stable, the text is for people."""

    def __init__(self, code: str, message: str, status: int = 400, retry_after: "float | None" = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after

    def response(self) -> JSONResponse:
        headers = {"cache-control": "no-store"}
        if self.retry_after is not None:
            headers["retry-after"] = str(max(1, math.ceil(self.retry_after)))
        return JSONResponse({"error": self.code, "message": self.message}, status_code=self.status,
                            headers=headers)


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def clean_username(raw: Any) -> str:
    """A username as it is shown: NFKC-normalised, without surrounding spaces.

    :raises AccountError: ``bad_username`` unless it is 3 to 24 letters, digits, ``_``, ``-``
        or ``.``, starting with a letter or digit (or it is reserved).
    """
    lo, hi = USERNAME_LENGTH
    rule = (f"a username is {lo} to {hi} letters, digits, '_', '-' or '.', starting with a letter or digit")
    if not isinstance(raw, str) or len(raw) > 4 * hi:
        raise AccountError("bad_username", rule)
    name = _nfkc(raw).strip()
    if not lo <= len(name) <= hi or not (name[0].isalpha() or name[0].isdigit()):
        raise AccountError("bad_username", rule)
    for ch in name:
        cat = unicodedata.category(ch)
        if not (cat.startswith("L") or cat == "Nd" or ch in "_-."):
            raise AccountError("bad_username", rule)
    if username_key(name) in RESERVED:
        raise AccountError("bad_username", f"the username {name!r} is reserved; choose another")
    return name


def username_key(name: str) -> str:
    """What makes two usernames the same: NFKC, case-folded, NFKC again (``Marie`` is ``MARIE``)."""
    return _nfkc(_nfkc(name).casefold())


def check_password(raw: Any, username: "str | None" = None) -> str:
    """A new password, NFKC-normalised (so it types the same on every keyboard).

    :raises AccountError: ``bad_password`` when it is under 8 or over 1024 characters, or is
        the username.
    """
    lo, hi = PASSWORD_LENGTH
    if not isinstance(raw, str):
        raise AccountError("bad_password", "send the password as a string")
    password = _nfkc(raw)
    if len(password) < lo:
        raise AccountError("bad_password", f"a password has at least {lo} characters")
    if len(password) > hi:
        raise AccountError("bad_password", f"a password has at most {hi} characters")
    if username is not None and username_key(password) == username_key(username):
        raise AccountError("bad_password", "the password must not be the username")
    return password


class _Buckets:
    """Token buckets by key (an address, a username), bounded in number: when there are too
    many, the full ones (which remember nothing) are dropped first."""

    def __init__(self, rate: float, burst: float, most: int = 20000) -> None:
        self.rate, self.burst, self.most = rate, burst, most
        self.buckets: dict[str, RateLimiter] = {}

    def _get(self, key: str) -> RateLimiter:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.most:
                self._prune()
            bucket = self.buckets[key] = RateLimiter(self.rate, self.burst)
        return bucket

    def _prune(self) -> None:
        now = time.monotonic()
        for key, b in list(self.buckets.items()):
            if b.tokens + (now - b.stamp) * b.rate >= b.burst:
                del self.buckets[key]
        while len(self.buckets) >= self.most:   # all busy: forget the oldest
            self.buckets.pop(next(iter(self.buckets)))

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may try again (0: now), without taking a token."""
        b = self.buckets.get(key)
        if b is None:
            return 0.0
        tokens = min(b.burst, b.tokens + (time.monotonic() - b.stamp) * b.rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / b.rate

    def take(self, key: str) -> float:
        """Take a token for ``key``: 0 when allowed, else the seconds to wait."""
        bucket = self._get(key)
        if bucket.allow():
            return 0.0
        return self.wait(key)


def _hash_id(session_id: str) -> str:
    return hashlib.sha256(f"ohhell-session/{session_id}".encode()).hexdigest()


def new_api_token() -> str:
    """A fresh API token: :data:`TOKEN_PREFIX` and 256 random bits.

    >>> t = new_api_token(); t.startswith("ohh_") and len(t) == 47
    True
    """
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def api_token_hash(token: str) -> str:
    """What the database keeps of an API token."""
    return hashlib.sha256(f"ohhell-api-token/{token}".encode()).hexdigest()


def clean_token_name(raw: Any) -> str:
    """A token's name (what it is for: ``"tournament bot"``), 1 to 40 printable characters.

    :raises AccountError: ``bad_name`` otherwise.
    """
    lo, hi = TOKEN_NAME_LENGTH
    rule = f"a token's name is {lo} to {hi} characters (say what it is for: \"my bot\")"
    if not isinstance(raw, str) or len(raw) > 4 * hi:
        raise AccountError("bad_name", rule)
    name = " ".join(_nfkc(raw).split())
    if not lo <= len(name) <= hi or any(not ch.isprintable() for ch in name):
        raise AccountError("bad_name", rule)
    return name


async def issue_token(store: Store, user_id: str, name: str) -> tuple[str, dict]:
    """Make an API token for account ``user_id`` (``name`` already cleaned):
    ``(the token, its listing)``.  Only its hash is stored: the token cannot be shown again.

    :raises AccountError: ``too_many_tokens`` when the account has :data:`MAX_TOKENS`."""
    if len(await store.list_tokens(user_id)) >= MAX_TOKENS:
        raise AccountError("too_many_tokens", f"an account holds at most {MAX_TOKENS} tokens; revoke one first",
                           409)
    token, token_id, now = new_api_token(), secrets.token_hex(6), time.time()
    await store.add_token(token_id, api_token_hash(token), user_id, name, token[:8], now)
    log.info("account %s made API token %s", user_id, token_id)
    return token, {"id": token_id, "name": name, "hint": token[:8], "created": now, "last_used": None}


def bearer_token(header: "str | None") -> "str | None":
    """The token of an ``Authorization: Bearer ohh_...`` header (``None``: not one).

    >>> bearer_token("Bearer ohh_abc"), bearer_token("Basic xyz"), bearer_token(None)
    ('ohh_abc', None, None)
    """
    if not header:
        return None
    scheme, _, value = header.strip().partition(" ")
    value = value.strip()
    if scheme.lower() != "bearer" or not value.startswith(TOKEN_PREFIX) or len(value) > 128:
        return None
    return value


class Accounts:
    """The accounts of one server: its routes (:meth:`routes`), the session of a request or a
    websocket (:meth:`current`), and the CSRF check (:meth:`check_csrf`)."""

    def __init__(self, store: Store, manager: "TableManager", *, allowed_origins: "tuple[str, ...]" = (),
                 signin_limit: "tuple[float, float]" = SIGNIN_PER_ADDRESS,
                 signin_user_limit: "tuple[float, float]" = SIGNIN_FAILURES_PER_USER,
                 signup_limit: "tuple[float, float]" = SIGNUP_PER_ADDRESS,
                 hasher: Any = None) -> None:
        from argon2 import PasswordHasher
        self.store = store
        self.manager = manager
        self.origins = tuple(allowed_origins)
        self.hasher = hasher or PasswordHasher()
        self.signin_by_address = _Buckets(*signin_limit)
        self.signin_by_user = _Buckets(*signin_user_limit)
        self.signup_by_address = _Buckets(*signup_limit)
        self.token_failures = _Buckets(*TOKEN_FAILURES_PER_ADDRESS)
        #: the user ids of the bot accounts; the tables read it (``manager.bot_accounts``) to
        #: mark those accounts' seats
        self.bots: set[str] = set()
        manager.bot_accounts = self.bots
        #: open websockets signed in: connection -> [its session's hash, when it was last checked]
        self._sockets: "dict[Any, list]" = {}
        self._secret: "bytes | None" = None
        self._purged = 0.0
        self._hashing = asyncio.Semaphore(HASH_CONCURRENCY)
        self._dummy: "str | None" = None

    async def open(self) -> None:
        """Load (or make, once, and store) the secret key the CSRF tokens are signed with; forget
        expired sessions."""
        value = await self.store.add_meta("secret_key", secrets.token_hex(32))
        self._secret = bytes.fromhex(value)
        self._purged = time.time()
        await self.store.purge_sessions(self._purged)
        self.bots.clear()
        self.bots.update(await self.store.bot_accounts())

    # --- passwords ----------------------------------------------------------------------------

    async def _run_hash(self, fn: Callable[..., Any], *args: Any) -> Any:
        async with self._hashing:
            return await asyncio.to_thread(fn, *args)

    async def hash_password(self, password: str) -> str:
        """The Argon2id hash of a (checked) password."""
        return await self._run_hash(self.hasher.hash, password)

    async def verify_password(self, stored: "str | None", password: str) -> bool:
        """Whether ``password`` matches the hash ``stored`` (``None``: an unknown user, checked
        against a dummy hash so the answer takes as long)."""
        from argon2.exceptions import InvalidHashError, VerificationError
        if stored is None:
            if self._dummy is None:
                self._dummy = await self.hash_password(secrets.token_urlsafe(16))
            stored = self._dummy
        try:
            return bool(await self._run_hash(self.hasher.verify, stored, password))
        except (VerificationError, InvalidHashError):
            return False

    # --- sessions and CSRF --------------------------------------------------------------------

    @staticmethod
    def secure(conn: HTTPConnection) -> bool:
        """Whether the page was served over https (uvicorn believes a proxy's
        ``X-Forwarded-Proto`` only from a ``--trusted-proxy``)."""
        return conn.url.scheme in ("https", "wss")

    def _cookie_names(self, conn: HTTPConnection) -> tuple[str, str]:
        return (SECURE_COOKIE, SECURE_CSRF_COOKIE) if self.secure(conn) else (COOKIE, CSRF_COOKIE)

    def _mac(self, purpose: str, value: str) -> str:
        assert self._secret is not None, "Accounts.open() first"
        return hmac.new(self._secret, f"{purpose}/{value}".encode(), hashlib.sha256).hexdigest()

    async def current(self, conn: HTTPConnection) -> "dict | None":
        """The signed-in account of a request or websocket (``user_id``, ``username``,
        ``expires``), or ``None``."""
        session_id = conn.cookies.get(self._cookie_names(conn)[0])
        if not session_id or len(session_id) > 128:
            return None
        try:
            return await self.store.session_user(_hash_id(session_id), time.time())
        except StoreError as e:
            log.error("sessions could not be read: %s", e)
            return None

    async def attach_socket(self, ws: HTTPConnection, conn: Any) -> None:
        """Sign a websocket connection in with the session cookie of its handshake (if any).

        Only a browser's handshake is signed in: one without an ``Origin`` header (which every
        browser sends, and the app has checked) is a program, and its cookies are ignored - a
        program authenticates with an API token (:meth:`token_socket`)."""
        if not ws.headers.get("origin"):
            return
        session_id = ws.cookies.get(self._cookie_names(ws)[0])
        user = await self.current(ws)
        if user is None or not session_id:
            return
        conn.account = {"user_id": user["user_id"], "username": user["username"]}
        self._sockets[conn] = [_hash_id(session_id), time.monotonic()]

    async def check_token(self, ws: HTTPConnection) -> "dict | None | AccountError":
        """The account of a websocket handshake's ``Authorization: Bearer`` token: ``None`` when
        it sends no token, an :class:`AccountError` when the token is not (or no longer) valid or
        the address tried too many bad ones, else the account (``user_id``, ``username``,
        ``token_hash``)."""
        header = ws.headers.get("authorization")
        if header is None:
            return None
        address = ws.client.host if ws.client else "?"
        wait = self.token_failures.wait(address)
        if wait:
            return AccountError("slow_down", "too many unknown tokens from here", 429, wait)
        token = bearer_token(header)
        user = None
        if token is not None:
            thash = api_token_hash(token)
            try:
                user = await self.store.token_user(thash)
                if user is not None:
                    await self.store.touch_token(user["token_id"], time.time())
                    # an account marked a bot by ``ohhell admin set-bot`` since this server started
                    if user["user_id"] not in self.bots and user["user_id"] in await self.store.bot_accounts():
                        self.bots.add(user["user_id"])
            except StoreError as e:
                log.error("API tokens could not be read: %s", e)
                return AccountError("storage", "the server could not check the token; try again", 503)
        if user is None:
            self.token_failures.take(address)
            return AccountError("bad_token", "the API token is not valid (revoked, mistyped, or not "
                                             "\"Authorization: Bearer ohh_...\")", 401)
        return {"user_id": user["user_id"], "username": user["username"], "token_hash": thash}

    def token_socket(self, conn: Any, user: dict) -> None:
        """Sign a websocket in as the account whose token (checked by :meth:`check_token`) its
        handshake showed."""
        conn.account = {"user_id": user["user_id"], "username": user["username"]}
        self._sockets[conn] = [_TOKEN_KEY + user["token_hash"], time.monotonic()]

    def detach_socket(self, conn: Any) -> None:
        """A websocket closed."""
        self._sockets.pop(conn, None)

    async def recheck_socket(self, conn: Any) -> None:
        """Before a signed-in socket's message: every :data:`RECHECK_SECONDS`, make sure its
        session still lives (else it goes on as a guest, and holds no account's seat)."""
        entry = self._sockets.get(conn)
        if entry is None or time.monotonic() - entry[1] < RECHECK_SECONDS:
            return
        entry[1] = time.monotonic()
        try:
            if entry[0].startswith(_TOKEN_KEY):
                alive = await self.store.token_user(entry[0][len(_TOKEN_KEY):])
            else:
                alive = await self.store.session_user(entry[0], time.time())
        except StoreError as e:
            log.error("sessions could not be read: %s", e)
            return
        if alive is None:
            self._revoke(lambda h, c: h == entry[0])

    def _revoke(self, which: Callable[[str, Any], bool]) -> None:
        """Sign out the open websockets ``which(session hash, connection)`` names (a socket
        opened with an API token is closed: a program has no sign-in page to go back to)."""
        for conn, (h, _) in list(self._sockets.items()):
            if which(h, conn):
                conn.account = None
                del self._sockets[conn]
                if h.startswith(_TOKEN_KEY):
                    conn.error("token_revoked", "this connection's API token was revoked")
                    conn.close("API token revoked")

    def csrf_token(self, conn: HTTPConnection, session_id: "str | None", anon: "str | None") -> str:
        """The token a page must send back with each state-changing request."""
        if session_id:
            return self._mac("csrf-session", session_id)
        assert anon is not None
        return self._mac("csrf-anon", anon)

    def origin_ok(self, conn: HTTPConnection) -> bool:
        """Whether a browser says the request comes from this server's own pages (or an
        ``--allowed-origin``); a client that is not a browser sends neither header."""
        origin = conn.headers.get("origin")
        if origin:
            if origin.rstrip("/").lower() in {a.rstrip("/").lower() for a in self.origins if a != "*"}:
                return True
            try:
                netloc = urlsplit(origin).netloc
            except ValueError:
                return False
            return bool(netloc) and netloc.lower() == conn.headers.get("host", "").lower()
        return conn.headers.get("sec-fetch-site", "same-origin") in ("same-origin", "none")

    def check_csrf(self, request: Request, sent: "str | None") -> None:
        """Refuse a state-changing request from another origin or without this browser's token.

        :raises AccountError: 403 ``bad_origin`` or ``csrf``.
        """
        if not self.origin_ok(request):
            raise AccountError("bad_origin", "this request came from a page of another site; it was refused",
                               403)
        session_name, anon_name = self._cookie_names(request)
        expected = []
        if request.cookies.get(session_name):
            expected.append(self._mac("csrf-session", request.cookies[session_name]))
        if request.cookies.get(anon_name):
            expected.append(self._mac("csrf-anon", request.cookies[anon_name]))
        if not sent or not any(hmac.compare_digest(sent.encode(), e.encode()) for e in expected):
            raise AccountError("csrf", "the request lacks this page's security token (X-CSRF-Token); "
                                       "reload the page and try again", 403)

    def _set_cookie(self, response: Response, conn: HTTPConnection, name: str, value: str, max_age: int) -> None:
        response.set_cookie(name, value, max_age=max_age, path="/", secure=self.secure(conn), httponly=True,
                            samesite="lax")

    def _clear_cookie(self, response: Response, conn: HTTPConnection, name: str) -> None:
        response.delete_cookie(name, path="/", secure=self.secure(conn), httponly=True, samesite="lax")

    async def _start_session(self, request: Request, response: Response, user: dict) -> str:
        """A new session for ``user``: the one the browser showed (if any) is ended first, so
        an id planted before sign-in is never the one that is signed in."""
        session_name, anon_name = self._cookie_names(request)
        old = request.cookies.get(session_name)
        if old and len(old) <= 128:
            await self.store.delete_session(_hash_id(old))
            self._revoke(lambda h, c: h == _hash_id(old))
        session_id = secrets.token_urlsafe(32)
        now = time.time()
        if now - self._purged > 3600:   # expired sessions are forgotten hourly (at a sign-in)
            self._purged = now
            await self.store.purge_sessions(now)
        await self.store.add_session(_hash_id(session_id), user["user_id"], now, now + SESSION_DAYS * 86400)
        self._set_cookie(response, request, session_name, session_id, SESSION_DAYS * 86400)
        return session_id

    # --- requests -----------------------------------------------------------------------------

    @staticmethod
    def _address(request: Request) -> str:
        return request.client.host if request.client else "?"

    async def _read(self, request: Request) -> dict:
        """The body of an account request: a JSON object, or a form (``csrf`` field included)."""
        from .app import _BodyError, read_body
        try:
            body = await read_body(request, MAX_BODY)
        except _BodyError as e:
            status = e.response.status_code
            raise AccountError("too_large" if status == 413 else "too_slow", "the request is too large or too slow",
                               status) from None
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind == "application/x-www-form-urlencoded":
            try:
                form = parse_qs(body.decode("utf-8"), max_num_fields=20, strict_parsing=False)
            except (UnicodeDecodeError, ValueError):
                raise AccountError("bad_form", "the form could not be read") from None
            return {k: v[0] for k, v in form.items()}
        try:
            data = json.loads(body) if body else {}
        except (ValueError, RecursionError):
            raise AccountError("bad_json", "send a JSON object") from None
        if not isinstance(data, dict):
            raise AccountError("bad_json", "send a JSON object")
        return data

    def _done(self, request: Request, data: dict, payload: dict, status: int = 200) -> Response:
        """The answer: JSON for the page's script; a form (no script) is sent back to the page."""
        if request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
            return RedirectResponse("/account", status_code=303)
        return JSONResponse(payload, status_code=status, headers={"cache-control": "no-store"})

    async def _guarded(self, request: Request, handler: Callable[[Request, dict], Awaitable[Response]]) -> Response:
        try:
            data = await self._read(request)
            self.check_csrf(request, request.headers.get(CSRF_HEADER) or
                            (data.get("csrf") if isinstance(data.get("csrf"), str) else None))
            return await handler(request, data)
        except AccountError as e:
            return e.response()
        except StoreError as e:
            log.error("account request failed: %s", e)
            return AccountError("storage", "the server could not save this; nothing was changed, try again",
                                503).response()

    def _me(self, user: "dict | None") -> "dict | None":
        return None if user is None else {"id": user["user_id"], "username": user["username"],
                                          "bot": user["user_id"] in self.bots}

    async def whoami(self, request: Request) -> Response:
        """``GET /api/account``: who is signed in here, and this page's CSRF token."""
        session_name, anon_name = self._cookie_names(request)
        user = await self.current(request)
        response = JSONResponse({}, headers={"cache-control": "no-store"})
        anon = request.cookies.get(anon_name)
        if not anon or len(anon) > 128:
            anon = secrets.token_urlsafe(32)
            self._set_cookie(response, request, anon_name, anon, SESSION_DAYS * 86400)
        if user is None and request.cookies.get(session_name):
            self._clear_cookie(response, request, session_name)   # expired or revoked
        token = self.csrf_token(request, request.cookies.get(session_name) if user else None, anon)
        response.body = response.render({"user": self._me(user), "csrf": token,
                                         "limits": {"username": list(USERNAME_LENGTH),
                                                    "password": list(PASSWORD_LENGTH)}})
        response.headers["content-length"] = str(len(response.body))
        return response

    async def _signup(self, request: Request, data: dict) -> Response:
        username = clean_username(data.get("username"))
        password = check_password(data.get("password"), username)
        wait = self.signup_by_address.take(self._address(request))
        if wait:
            raise AccountError("slow_down", "too many accounts made from here; try again later", 429, wait)
        key = username_key(username)
        if await self.store.user_by_key(key) is not None:
            raise AccountError("username_taken", f"the username {username!r} is taken; choose another", 409)
        bot = data.get("bot") in (True, "on", "true", "1")   # "this account is a program"
        user = {"user_id": secrets.token_hex(8), "username": username}
        try:
            await self.store.create_user(user["user_id"], username, key, await self.hash_password(password),
                                         time.time())
        except Taken:
            raise AccountError("username_taken", f"the username {username!r} is taken; choose another",
                               409) from None
        if bot:
            await self.store.set_bot_account(user["user_id"], True)
            self.bots.add(user["user_id"])
        log.info("account %s created", user["user_id"])
        response = self._done(request, data, {"user": self._me(user)}, 201)
        session_id = await self._start_session(request, response, user)
        _set_body(response, {"user": self._me(user), "csrf": self._mac("csrf-session", session_id)})
        return response

    async def _signin(self, request: Request, data: dict) -> Response:
        raw_name, password = data.get("username"), data.get("password")
        if not isinstance(raw_name, str) or not isinstance(password, str) or len(password) > 4 * PASSWORD_LENGTH[1]:
            raise AccountError("bad_request", "send a username and a password")
        key = username_key(raw_name.strip()[:200])
        wait = max(self.signin_by_address.take(self._address(request)), self.signin_by_user.wait(key))
        if wait:
            raise AccountError("slow_down", "too many sign-in attempts; wait before trying again", 429, wait)
        user = await self.store.user_by_key(key)
        password = _nfkc(password)
        ok = await self.verify_password(user["password_hash"] if user else None, password)
        if not ok or user is None:
            self.signin_by_user.take(key)
            raise AccountError("bad_credentials", "that username and password do not match an account", 401)
        if self.hasher.check_needs_rehash(user["password_hash"]):
            await self.store.set_password_hash(user["user_id"], await self.hash_password(password))
        response = self._done(request, data, {})
        session_id = await self._start_session(request, response, user)
        _set_body(response, {"user": self._me(user), "csrf": self._mac("csrf-session", session_id)})
        return response

    async def _signout(self, request: Request, data: dict) -> Response:
        session_name, anon_name = self._cookie_names(request)
        old = request.cookies.get(session_name)
        if old and len(old) <= 128:
            await self.store.delete_session(_hash_id(old))
            self._revoke(lambda h, c: h == _hash_id(old))
        response = self._done(request, data, {})
        self._clear_cookie(response, request, session_name)
        anon = request.cookies.get(anon_name) or secrets.token_urlsafe(32)
        if anon != request.cookies.get(anon_name):
            self._set_cookie(response, request, anon_name, anon, SESSION_DAYS * 86400)
        _set_body(response, {"user": None, "csrf": self._mac("csrf-anon", anon)})
        return response

    async def _password(self, request: Request, data: dict) -> Response:
        user = await self._require(request)
        wait = self.signin_by_user.wait(user["username_key"])   # guesses here count as failed sign-ins
        if wait:
            raise AccountError("slow_down", "too many wrong passwords; wait before trying again", 429, wait)
        if not await self.verify_password(user["password_hash"], _nfkc(str(data.get("current", ""))[:4096])):
            self.signin_by_user.take(user["username_key"])
            raise AccountError("bad_credentials", "the current password is not right", 401)
        password = check_password(data.get("password"), user["username"])
        await self.store.set_password_hash(user["user_id"], await self.hash_password(password))
        await self.store.delete_user_sessions(user["user_id"])   # every other browser is signed out
        self._revoke(lambda h, c: not h.startswith(_TOKEN_KEY) and c.account is not None and
                     c.account["user_id"] == user["user_id"])
        response = self._done(request, data, {})
        session_id = await self._start_session(request, response, user)
        _set_body(response, {"user": self._me(user), "csrf": self._mac("csrf-session", session_id)})
        return response

    async def _claim(self, request: Request, data: dict) -> Response:
        """Bind the guest seats whose tokens this browser holds to the signed-in account."""
        from .tables import TableError, token_hash
        user = await self._require(request)
        seats = data.get("seats")
        if not isinstance(seats, list) or len(seats) > MAX_CLAIMS:
            raise AccountError("bad_request", f"send \"seats\": a list of at most {MAX_CLAIMS} "
                                              f"{{\"table\": ID, \"token\": TOKEN}}")
        claimed, refused = [], []
        for item in seats:
            if not isinstance(item, dict) or not isinstance(item.get("table"), str) or \
                    not isinstance(item.get("token"), str) or len(item["token"]) > 128:
                raise AccountError("bad_request", "each seat is {\"table\": ID, \"token\": TOKEN}")
            try:
                seat = await self.manager.claim(item["table"], token_hash(item["token"]), user["user_id"])
            except TableError as e:
                refused.append({"table": item["table"], "error": e.code, "message": e.message})
                continue
            if seat is None:
                refused.append({"table": item["table"], "error": "no_seat",
                                "message": "that token holds no seat at this table (any more)"})
            else:
                claimed.append({"table": item["table"], "seat": seat})
        if claimed:
            log.info("account %s claimed %d guest seat%s", user["user_id"], len(claimed),
                     "" if len(claimed) == 1 else "s")
        return JSONResponse({"claimed": claimed, "refused": refused}, headers={"cache-control": "no-store"})

    # --- API tokens -----------------------------------------------------------------------------

    async def _tokens(self, request: Request) -> Response:
        """``GET /api/account/tokens``: the signed-in account's API tokens (never a secret)."""
        user = await self.current(request)
        if user is None:
            return AccountError("signed_out", "sign in first", 401).response()
        return JSONResponse({"tokens": await self.store.list_tokens(user["user_id"]), "max": MAX_TOKENS},
                            headers={"cache-control": "no-store"})

    async def _new_token(self, request: Request, data: dict) -> Response:
        """``POST /api/account/tokens`` ``{"name": ...}``: a new token, shown this once."""
        user = await self._require(request)
        token, listing = await issue_token(self.store, user["user_id"], clean_token_name(data.get("name")))
        return JSONResponse({"token": token, **listing}, status_code=201, headers={"cache-control": "no-store"})

    async def _revoke_token(self, request: Request, data: dict) -> Response:
        """``POST /api/account/tokens/revoke`` ``{"id": ...}``: revoke a token (its sockets close)."""
        user = await self._require(request)
        token_id = data.get("id")
        if not isinstance(token_id, str) or len(token_id) > 64:
            raise AccountError("bad_request", "send the token's \"id\"")
        thash = await self.store.delete_token(user["user_id"], token_id)
        if thash is None:
            raise AccountError("no_token", "this account has no such token (revoked already?)", 404)
        self._revoke(lambda h, c: h == _TOKEN_KEY + thash)
        log.info("account %s revoked API token %s", user["user_id"], token_id)
        return self._done(request, data, {"revoked": token_id})

    async def _require(self, request: Request) -> dict:
        user = await self.current(request)
        if user is None:
            raise AccountError("signed_out", "sign in first", 401)
        return user

    async def _seats(self, request: Request) -> Response:
        """``GET /api/account/seats``: the seats the signed-in account holds or held."""
        user = await self.current(request)
        if user is None:
            return AccountError("signed_out", "sign in first", 401).response()
        rows = await self.store.user_seats(user["user_id"])
        return JSONResponse({"seats": [{"table": t, "seat": s, "since": since, "url": f"/t/{t}"}
                                       for t, s, since in rows[:500]]}, headers={"cache-control": "no-store"})

    def routes(self, page: Callable[[str], Any]) -> list[Route]:
        """The account page and API, to add to the app's routes."""
        def post(handler: Callable[[Request, dict], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
            async def endpoint(request: Request) -> Response:
                return await self._guarded(request, handler)
            return endpoint
        return [Route("/account", page("account.html")),
                Route("/api/account", self.whoami, methods=["GET"]),
                Route("/api/account/seats", self._seats, methods=["GET"]),
                Route("/api/account/signup", post(self._signup), methods=["POST"]),
                Route("/api/account/signin", post(self._signin), methods=["POST"]),
                Route("/api/account/signout", post(self._signout), methods=["POST"]),
                Route("/api/account/password", post(self._password), methods=["POST"]),
                Route("/api/account/claim", post(self._claim), methods=["POST"]),
                Route("/api/account/tokens", self._tokens, methods=["GET"]),
                Route("/api/account/tokens", post(self._new_token), methods=["POST"]),
                Route("/api/account/tokens/revoke", post(self._revoke_token), methods=["POST"])]


def _set_body(response: Response, payload: dict) -> None:
    """Replace a JSON response's body (a redirect keeps its empty one)."""
    if isinstance(response, JSONResponse):
        response.body = response.render(payload)
        response.headers["content-length"] = str(len(response.body))
