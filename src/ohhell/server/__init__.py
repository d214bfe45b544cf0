"""Oh Hell in the browser: ``ohhell serve`` (see ``docs/server.md``).

An ASGI app (Starlette, served by uvicorn) with a lobby, table pages, replays
and one websocket per client speaking the protocol of ``docs/protocol.md``.
The server is authoritative: each table has one lock, every change is
appended to the table's log in the database (SQLite by default, PostgreSQL
with a URL) before anyone hears of it, and each client is sent only its
seat's view.  Needs the ``server`` extra: ``pip install 'ohhell[server]'``.
"""

from __future__ import annotations

import errno

__all__ = ["create_app", "serve", "uvicorn_config", "check_store", "HEADER_TIMEOUT", "KEEP_ALIVE",
           "MAX_HALF_OPEN"]

#: Seconds a client may take to send a request's headers (from connecting, or from the first
#: byte of a request on a kept-alive connection); then the connection is closed.
HEADER_TIMEOUT = 10.0
#: Seconds an idle kept-alive connection stays open.
KEEP_ALIVE = 5
#: Connections one address may have open at once that have not yet sent a whole request
#: head (a browser opens a handful); more are closed at once.  Trusted proxies are exempt.
MAX_HALF_OPEN = 32


def create_app(*args, **kwargs):
    """The ASGI app; see :func:`ohhell.server.app.create_app`."""
    from .app import create_app as _create
    return _create(*args, **kwargs)


def _guarded_protocol(header_timeout: float, max_half_open: int = MAX_HALF_OPEN, trusted=()):
    """uvicorn's HTTP protocol against slowloris: a connection that has not sent a whole
    request head ``header_timeout`` seconds after it opened (or after the first byte of its
    next request) is closed, and one address (other than the ``trusted`` proxies) may hold at
    most ``max_half_open`` such connections at once.  uvicorn's own keep-alive timeout covers
    idle connections between requests."""
    import ipaddress

    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    networks = []
    for p in trusted:
        try:
            networks.append(ipaddress.ip_network(p, strict=False))
        except ValueError:   # "*" or a name: trust as uvicorn does, and exempt nobody here
            pass

    def exempt(host: "str | None") -> bool:
        try:
            address = ipaddress.ip_address(host or "")
        except ValueError:
            return True   # a Unix socket: no address to count
        return any(address in n for n in networks)

    half_open: dict[str, int] = {}

    class HeaderTimeoutProtocol(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
        _head_timer = None
        _head_cycle = None
        _counted: "str | None" = None

        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            host = self.client[0] if self.client else None
            if not exempt(host):
                assert host is not None
                if half_open.get(host, 0) >= max_half_open:
                    transport.close()   # too many unfinished requests from this address
                    return
                self._counted = host
                half_open[host] = half_open.get(host, 0) + 1
            self._arm_head_timer()

        def _uncount(self) -> None:
            host, self._counted = self._counted, None
            if host is not None:
                half_open[host] -= 1
                if not half_open[host]:
                    del half_open[host]

        def _arm_head_timer(self) -> None:
            if self._head_timer is None:
                self._head_cycle = self.cycle
                self._head_timer = self.loop.call_later(header_timeout, self._head_timed_out)

        def _disarm_head_timer(self) -> None:
            self._uncount()
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def data_received(self, data: bytes) -> None:
            if self.cycle is None or self.cycle.response_complete:   # between requests
                self._arm_head_timer()
            super().data_received(data)
            # a new request's head arrived (or it was a websocket's, and the socket moved on)
            if self.cycle is not self._head_cycle or self.transport.get_protocol() is not self:
                self._disarm_head_timer()

        def _head_timed_out(self) -> None:
            self._head_timer = None
            self._uncount()
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:   # closed, or a websocket now
                return
            if self.cycle is self._head_cycle and (self.cycle is None or self.cycle.response_complete):
                transport.close()

        def connection_lost(self, exc) -> None:
            self._disarm_head_timer()
            super().connection_lost(exc)

    return HeaderTimeoutProtocol


def uvicorn_config(app, host: str = "127.0.0.1", port: int = 8000, *, trusted_proxies=(),
                   header_timeout: float = HEADER_TIMEOUT, keep_alive: int = KEEP_ALIVE,
                   max_half_open: int = MAX_HALF_OPEN, log_level: str = "info", access_log: bool = False):
    """The uvicorn settings ``ohhell serve`` runs ``app`` with.

    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed only from the addresses in
    ``trusted_proxies`` (``ohhell serve --trusted-proxy``); with none, never, so a client
    cannot choose the address its rate limits are counted under.
    """
    import uvicorn
    proxies = [p for p in trusted_proxies if p]
    return uvicorn.Config(app, host=host, port=port, ws_max_size=1 << 20, ws_per_message_deflate=True,
                          lifespan="on", log_level=log_level, access_log=access_log,
                          proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None,
                          timeout_keep_alive=keep_alive,
                          http=_guarded_protocol(header_timeout, max_half_open, proxies),
                          h11_max_incomplete_event_size=16 * 1024)


def check_store(db: "str | None", redis: "str | None" = None) -> None:
    """Open the database (and with ``redis``, the cluster's Redis) and read what the server
    reads at start, then close them, so a database or a Redis the server cannot use is
    reported clearly before the server starts.

    :raises StoreError: saying what is wrong with the database; :raises ClusterError: with Redis.
    """
    import asyncio

    from .storage import Store, StoreError, open_store

    async def check() -> None:
        store: Store
        if redis is not None:
            from .cluster import connect_redis
            from .leases import ClusterStore, Leases
            if not (db or "").startswith(("postgresql://", "postgres://")):
                raise StoreError("--redis needs a PostgreSQL database (--db postgresql://...): the nodes of a "
                                 "cluster share it")
            client = await connect_redis(redis)
            await client.aclose()
            store = ClusterStore(db, Leases(db))   # type: ignore[arg-type]
        else:
            store = open_store(db)
        await store.open()
        try:
            await store.claim()   # refused here, with the reason, while another server runs
            await store.get_meta("listing")
            await store.stale_unstarted(0.0)
        finally:
            await store.close()
    asyncio.run(check())


class PortError(OSError):
    """The address and port to serve on cannot be used (out of range, busy, not ours).

    ``code`` says which (``"range"``, ``"address"``, ``"busy"``, ``"unusable"``) and
    ``facts`` the host, port and system's reason, for ``ohhell serve`` to word."""

    def __init__(self, message: str, code: str = "unusable", **facts: object) -> None:
        super().__init__(message)
        self.code = code
        self.facts = facts


def bind_socket(host: str = "127.0.0.1", port: int = 8000):
    """A socket bound to ``host``:``port``, ready for :func:`serve` (``sock=``).

    Binding first lets ``ohhell serve`` say at once that a port is busy, before it
    announces the address or loads any table.

    :raises PortError: for a port outside 1-65535 or an address that cannot be bound,
        with the reason in words.
    """
    import socket

    if not 1 <= port <= 65535:
        raise PortError(f"port must be 1 to 65535, not {port}", "range", port=port)
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as e:
        raise PortError(f"cannot listen on {host!r}: unknown address ({e})", "address", host=host,
                        reason=str(e)) from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # as uvicorn does
    try:
        sock.bind(address)
    except OSError as e:
        sock.close()
        why = "is already in use (is another server running?)" if e.errno == errno.EADDRINUSE else (
            f"cannot be used: {e.strerror or e}")
        raise PortError(f"port {port} on {host} {why}", "busy" if e.errno == errno.EADDRINUSE else "unusable",
                        host=host, port=port, reason=e.strerror or str(e)) from None
    sock.set_inheritable(True)
    return sock


def serve(host: str = "127.0.0.1", port: int = 8000, db: "str | None" = None, *, trusted_proxies=(),
          header_timeout: float = HEADER_TIMEOUT, sock=None, **options) -> bool:
    """Run the server until interrupted (what ``ohhell serve`` does); ``False`` if it failed to start.

    ``sock``: a socket from :func:`bind_socket` (else one is bound here, before the
    database is opened).

    :raises StoreError: when the database cannot be used (checked before starting).
    :raises ClusterError: when ``redis=`` (a cluster node) names a Redis that cannot be used.
    :raises PortError: when the port cannot be used.
    """
    import uvicorn
    from .app import create_app as _create
    log_options = {k: options.pop(k) for k in ("log_level", "access_log") if k in options}
    if sock is None:
        sock = bind_socket(host, port)
    check_store(db, options.get("redis"))
    app = _create(db, **options)
    config = uvicorn_config(app, host, port, trusted_proxies=trusted_proxies, header_timeout=header_timeout,
                            log_level=log_options.get("log_level", "info"),
                            access_log=log_options.get("access_log", False))
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    return server.started
