"""Many server nodes, one site: ``ohhell serve --db postgresql://... --redis redis://...``.

Each node is a whole server (pages, API, websockets, bots); a load balancer may send any
client to any node.  Each table lives in the memory of one node, its **owner**, which holds
its lease (:mod:`ohhell.server.leases`): the owner alone runs the table (its lock, its bots,
its away timer) and writes its log, fenced by the database.

A client whose node does not own its table is served **through** that node, a *gateway* for
it: the gateway keeps the websocket (its rate limits, its protocol checks, its account), and
forwards its hello and messages over Redis pub/sub to the owner, where the client is one more
:class:`RemoteConnection` at the table, with its own seat and view.  Everything the table
sends that client (each state frame, each error with its reason, a hint) is built by the
owner exactly as for a client of its own, and published to the gateway, which puts it on the
websocket.  So a client sees the same frames, in the same order, on any node, and only its
own seat's view ever leaves the owner for it.

When a node dies (even ``kill -9``), the others see its Redis subscription vanish (``PUBSUB
NUMSUB``) and end its lease, or its lease runs out (a paused node, :data:`~ohhell.server.leases.NODE_TTL`);
each live node then takes a share of its tables (:meth:`Cluster._takeover`): it replays each
table's log, resumes its bots and timers, and announces the move, and the gateways attach
their clients to the new owner (the dead node's own clients reconnect to any node).

Messages between nodes go to a node's channel ``ohhell:<cluster>:n:<node>``, batched per
destination (one ``PUBLISH`` carries every item due to one node); the channel
``ohhell:<cluster>:all`` announces moves and revealed duplicate events to every node.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any, Awaitable, Callable

from .config import CHAT_RATE
from .leases import RENEW_EVERY, Leases, new_node_id
from .manager import TABLE_ID
from .protocol import ClientMessage
from .session import Connection, RateLimiter
from .storage import StoreError, _redact
from .tables import TableError, token_hash

__all__ = ["Cluster", "ClusterError", "RemoteTable", "RemoteConnection", "check_redis_url"]

log = logging.getLogger("ohhell.server")

#: Seconds a gateway waits for an owner's answer to a call (a table's info, a seat claim).
CALL_TIMEOUT = 5.0
#: Seconds a hello or a call waits for a table whose owner died to have a new one.
LOCATE_TIMEOUT = 10.0


class ClusterError(RuntimeError):
    """Redis cannot be used (a bad URL, unreachable, refused); the message says why."""


def check_redis_url(url: str) -> None:
    """Refuse anything but a ``redis://``, ``rediss://`` or ``unix://`` URL, with the reason.

    >>> check_redis_url("redis://127.0.0.1:6379/0")
    >>> check_redis_url("http://x")
    Traceback (most recent call last):
    ohhell.server.cluster.ClusterError: --redis takes a redis://HOST[:PORT][/DB], rediss://... or unix://PATH URL, not 'http://x'
    """
    if not isinstance(url, str) or not url.startswith(("redis://", "rediss://", "unix://")):
        raise ClusterError(f"--redis takes a redis://HOST[:PORT][/DB], rediss://... or unix://PATH URL, "
                           f"not {_redact(str(url))!r}")


async def connect_redis(url: str) -> Any:
    """A connected ``redis.asyncio`` client (``PING`` answered).

    :raises ClusterError: saying why not."""
    check_redis_url(url)
    try:
        import redis.asyncio as aioredis
        from redis.exceptions import RedisError
    except ImportError:  # pragma: no cover - depends on the installation
        raise ClusterError("--redis needs the redis package: pip install 'ohhell[server]'") from None
    try:
        client = aioredis.from_url(url, socket_connect_timeout=5, socket_timeout=10, health_check_interval=30)
    except (ValueError, RedisError) as e:
        raise ClusterError(f"cannot use the Redis URL {_redact(url)}: {e}") from None
    try:
        await client.ping()
    except (RedisError, OSError) as e:
        await client.aclose()
        raise ClusterError(f"cannot reach Redis at {_redact(url)}: {e}") from None
    return client


# --- the wire format ------------------------------------------------------------------------------
#
# One published message: the sender's node id and a newline, then items, each a header line
# "KIND CIDS SIZE\n" and SIZE bytes.  KIND (one letter):
#   gateway -> owner: A attach (JSON), M message (JSON, numbered), D detach (table id)
#   owner -> gateway: S state frame, F other frame (CIDS may list several connections, comma
#                     separated), K handled the connection's messages up to this number,
#                     I a connection's seat token hash, X close (the reason),
#                     G "the table is not here" (table id)
#   either way:       Q call (CIDS: the call's id; JSON), P its answer (JSON)

def _pack(sender: bytes, items: list) -> bytes:
    parts = [sender, b"\n"]
    for kind, cids, payload in items:
        parts.append(b"%s %s %d\n" % (kind, b",".join(b"%d" % c for c in cids), len(payload)))
        parts.append(payload)
    return b"".join(parts)


def _unpack(data: bytes):
    nl = data.index(b"\n")
    sender = data[:nl].decode()
    pos = nl + 1
    items = []
    while pos < len(data):
        nl = data.index(b"\n", pos)
        kind, cids, size = data[pos:nl].split(b" ")
        start = nl + 1
        end = start + int(size)
        items.append((kind, [int(c) for c in cids.split(b",")] if cids else [], data[start:end]))
        pos = end
    return sender, items


class RemoteConnection(Connection):
    """At the owner: a client whose websocket is on another node (its gateway).  The table
    treats it as any connection; what it is sent is published to the gateway."""

    def __init__(self, cluster: "Cluster", node: str, cid: int) -> None:
        super().__init__(_never)
        self.cluster = cluster
        self.node = node
        self.cid = cid
        self.since = time.monotonic()
        self.queue: "asyncio.Queue[tuple[str, Any]]" = asyncio.Queue()
        self.worker: "asyncio.Task | None" = None

    @property   # type: ignore[override]
    def token_hash(self) -> "str | None":
        return self._token_hash

    @token_hash.setter
    def token_hash(self, value: "str | None") -> None:
        old = getattr(self, "_token_hash", None)
        self._token_hash = value
        if value is not None and value != old and getattr(self, "cluster", None) is not None:
            self.cluster.push(self.node, b"I", [self.cid], value.encode())   # the gateway keeps it for a move

    def send(self, text: str, *, state: bool = False) -> None:
        if not self.closed:
            self.cluster.push_frame(self.node, self.cid, text, state)

    def close(self, reason: str) -> None:
        if not self.closed:
            self.cluster.push(self.node, b"X", [self.cid], reason.encode())
        self.closed = True


async def _never(text: str) -> None:  # pragma: no cover - a remote connection has no socket here
    raise RuntimeError("a remote connection is not sent to directly")


class RemoteTable:
    """At a gateway: a table another node owns, with this node's clients of it.  The app
    forwards their messages here instead of running them (:meth:`forward`)."""

    remote = True

    def __init__(self, cluster: "Cluster", table_id: str, owner: str) -> None:
        self.cluster = cluster
        self.id = table_id
        self.owner = owner
        self.conns: set[Connection] = set()
        self.admin_hash: dict[Connection, "str | None"] = {}
        #: each client's messages sent to the owner and not yet handled there, in order:
        #: ``[number, message, received]`` (``received``: whether anyone received its publish;
        #: ``None`` until it is published)
        self.inflight: dict[Connection, list[list]] = {}
        self._numbers = 0
        self.relocating: "asyncio.Task | None" = None
        self.since = time.monotonic()
        #: the duplicate event the table belongs to (``{"id", "table", ...}``), from its creation:
        #: the gateway refuses a hello its player may not send as the owner would
        #: (:meth:`ohhell.server.events.Events.watch_refusal`)
        self.event: "dict | None" = None

    def seat_of(self, thash: "str | None", account: "str | None") -> None:
        return None   # the owner knows; nothing at the gateway asks

    async def attach(self, conn: Connection, token: "str | None", admin: "str | None") -> None:
        conn.table = self
        if token is not None:
            conn.token_hash = token_hash(token)
        self.admin_hash[conn] = token_hash(admin) if admin is not None else None
        self.conns.add(conn)
        self.cluster.gateway[conn.id] = conn
        self._attach(conn)

    def _attach(self, conn: Connection) -> None:
        self.cluster.push(self.owner, b"A", [conn.id], _json({
            "t": self.id, "tok": conn.token_hash, "adm": self.admin_hash.get(conn), "acct": conn.account,
            "addr": conn.address}))

    async def forward(self, conn: Connection, msg: ClientMessage) -> None:
        self._send(conn, {"t": self.id, "type": msg.type, "f": msg.fields, "ref": msg.ref, "acct": conn.account})

    def _send(self, conn: Connection, data: dict) -> None:
        self._numbers += 1
        data["n"] = self._numbers
        record = [self._numbers, data, None]
        pending = self.inflight.setdefault(conn, [])
        pending.append(record)
        del pending[:-64]   # (the owner confirms each in milliseconds; a client sends 10 a second at most)
        self.cluster.push_message(self.owner, conn.id, _json(data), record)

    def handled(self, conn: Connection, number: int) -> None:
        """The owner handled ``conn``'s messages up to ``number``."""
        pending = self.inflight.get(conn)
        while pending and pending[0][0] <= number:
            pending.pop(0)

    def unhandled(self, conn: Connection) -> list[dict]:
        """What ``conn`` sent the old owner that it did not confirm, to send the new one: every
        message nobody received (never applied), and every action (one the old owner applied
        is refused by the rules at the new one: that seat's turn has passed; the refusal is not
        shown, ``"q"``).  A chat message, a hint or a vote the old owner received may have been
        applied, so it is not sent again."""
        out = []
        for _, data, received in self.inflight.pop(conn, []):
            if not received:   # nobody received it, or it is not even published yet
                out.append({**data, "q": 0})
            elif data["type"] == "act":
                out.append({**data, "q": 1})
        return out

    async def detach(self, conn: Connection) -> None:
        if conn in self.conns:
            self.conns.discard(conn)
            self.admin_hash.pop(conn, None)
            self.inflight.pop(conn, None)
            self.cluster.gateway.pop(conn.id, None)
            self.cluster.push(self.owner, b"D", [conn.id], self.id.encode())
        if not self.conns and self.cluster.remote_tables.get(self.id) is self:
            del self.cluster.remote_tables[self.id]

    def move_to(self, owner: str) -> None:
        """The table has a new owner: attach every client there (it sends each its state), then
        send it what they sent the old owner after it died (nobody received it: never applied)."""
        self.owner = owner
        self.since = time.monotonic()
        for conn in list(self.conns):
            again = self.unhandled(conn)
            self._attach(conn)
            for data in again:
                self._send(conn, data)


def _share(table_id: str, nodes: int) -> int:
    """Which of ``nodes`` live nodes (by rank) takes a dead node's table first."""
    import zlib
    return zlib.crc32(table_id.encode()) % max(1, nodes)


def _json(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


class Cluster:
    """This node's part in a cluster: its lease, its Redis channels, the tables it owns and the
    clients it serves for tables other nodes own (see the module's text).

    :param redis_url: the cluster's Redis.
    :param leases: this node's lease (:class:`~ohhell.server.leases.Leases`, on the same database as the store).
    :param manager: the node's :class:`~ohhell.server.manager.TableManager`.
    """

    def __init__(self, redis_url: str, leases: Leases, manager: Any) -> None:
        check_redis_url(redis_url)
        self.redis_url = redis_url
        self.leases = leases
        self.manager = manager
        self.store = manager.store
        #: runs one client message at the owner (the app's handler: same checks, same answers)
        self.handler: "Callable[[Connection, ClientMessage], Awaitable[None]] | None" = None
        #: called with an event id another node revealed (ohhell.server.events)
        self.on_revealed: "Callable[[str], None] | None" = None
        self.redis: Any = None
        self._pubsub: Any = None
        self.prefix = "ohhell:"
        #: (gateway node, connection id) -> the remote client at a table this node owns
        self.remotes: dict[tuple[str, int], RemoteConnection] = {}
        #: connection id -> this node's client of a table another node owns
        self.gateway: dict[int, Connection] = {}
        #: table id -> the tables other nodes own that this node's clients are at
        self.remote_tables: dict[str, RemoteTable] = {}
        self._out: dict[str, list] = {}
        #: per destination node: id(frame text) -> its item's index, and connection -> its last item's
        self._out_frames: dict[str, dict[int, int]] = {}
        self._out_last: dict[str, dict[int, int]] = {}
        self._kick = asyncio.Event()
        self._tasks: list[asyncio.Task] = []
        self._calls: dict[int, asyncio.Future] = {}
        self._call_ids = 0
        self._closing = False
        self._suspects: set[str] = set()
        #: held by each round of the keeper and by a lapse (which changes the node's id)
        self._round = asyncio.Lock()

        #: table id -> its duplicate event (or ``None``), for the tables this node serves for others
        self._table_events: dict[str, "dict | None"] = {}
        self.takeovers = 0        # tables this node took from a dead or lapsed node
        self._idle_rounds = 0
        self.lapses = 0           # times this node's own lease lapsed

    # --- start and stop ---------------------------------------------------------------------------

    @property
    def node(self) -> str:
        return self.leases.node

    def _channel(self, node: str) -> str:
        return f"{self.prefix}n:{node}"

    async def open(self) -> None:
        """Connect to Redis, claim a place on the database beside the other nodes, subscribe and
        register this node's lease.

        :raises ClusterError: Redis cannot be used; :raises StoreError: the database cannot."""
        self.redis = await connect_redis(self.redis_url)
        await self.leases.open()
        await self.store.claim()
        cluster_id = await self.store.add_meta("cluster_id", __import__("secrets").token_hex(6))
        self.prefix = f"ohhell:{cluster_id}:"
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self._channel(self.node), f"{self.prefix}all")   # before the lease:
        await self.leases.register(self._about())          # a live lease always has a listener

    def _about(self) -> str:
        return json.dumps({"pid": __import__("os").getpid()})

    def start(self) -> None:
        """Start the node's background work (after the tables it resumes are loaded)."""
        loop = asyncio.get_running_loop()
        self.store.on_lost = self._lost
        self.leases.pool = getattr(self.store, "_pool", None)
        self._tasks = [loop.create_task(self._reader(), name="cluster reader"),
                       loop.create_task(self._sender(), name="cluster sender"),
                       loop.create_task(self._renewer(), name="cluster lease"),
                       loop.create_task(self._keeper(), name="cluster takeovers")]

    async def close(self) -> None:
        """Leave the cluster: hand every table over at once (the lease row goes)."""
        self._closing = True
        for t in self._tasks:
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        try:
            await self._flush()
        except Exception:  # pragma: no cover - Redis gone at shutdown
            pass
        for rc in list(self.remotes.values()):
            if rc.worker is not None:
                rc.worker.cancel()
        try:
            await self.leases.leave()
        except StoreError as e:
            log.error("the node's lease could not be ended (other nodes take its tables when it runs out): %s", e)
        await self.leases.close()
        if self._pubsub is not None:
            try:
                await self._pubsub.aclose()
            except Exception:  # pragma: no cover
                pass
        if self.redis is not None:
            await self.redis.aclose()

    # --- sending ----------------------------------------------------------------------------------

    def push(self, node: str, kind: bytes, cids: list[int], payload: bytes) -> None:
        """Queue one item for ``node`` (sent with the others due to it, in order)."""
        items = self._out.setdefault(node, [])
        last = self._out_last.setdefault(node, {})
        for cid in cids:
            last[cid] = len(items)
        items.append((kind, cids, payload))
        self._kick.set()

    def push_message(self, node: str, cid: int, payload: bytes, record: list) -> None:
        """Queue a client's message for its table's owner; ``record[2]`` is set, once published,
        to whether anyone received it."""
        items = self._out.setdefault(node, [])
        self._out_last.setdefault(node, {})[cid] = len(items)
        items.append((b"M", [cid], payload, record))
        self._kick.set()

    def push_frame(self, node: str, cid: int, text: str, state: bool) -> None:
        """Queue a frame for a client at ``node``.  One frame for several of its clients (the same
        text: spectators, a seat open in two tabs) travels once, unless that would put it before
        something sent to the client earlier."""
        items = self._out.setdefault(node, [])
        seen = self._out_frames.setdefault(node, {})
        last = self._out_last.setdefault(node, {})
        at = seen.get(id(text))
        if at is not None and len(items[at]) == 4 and items[at][3] is text and last.get(cid, -1) < at:
            items[at][1].append(cid)
            last[cid] = at
            return
        seen[id(text)] = last[cid] = len(items)
        items.append((b"S" if state else b"F", [cid], text, text))
        self._kick.set()

    async def _sender(self) -> None:
        while True:
            await self._kick.wait()
            self._kick.clear()
            try:
                await self._flush()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # Redis away: what was queued is lost; clients resync on reconnect
                log.error("cluster: could not publish to Redis: %s", e)
                await asyncio.sleep(0.2)

    async def _flush(self) -> None:
        out, self._out, self._out_frames, self._out_last = self._out, {}, {}, {}
        if not out:
            return
        me = self.node.encode()
        nodes = list(out)
        async with self.redis.pipeline(transaction=False) as pipe:
            for node in nodes:
                items = [(i[0], i[1], i[2].encode() if isinstance(i[2], str) else i[2]) for i in out[node]]
                pipe.publish(self._channel(node), _pack(me, items))
            counts = await pipe.execute()
        for node, count in zip(nodes, counts):
            for item in out[node]:   # whether a client's message reached anyone (see RemoteTable.unhandled)
                if item[0] == b"M":
                    item[3][2] = count > 0
            if count == 0 and node != self.node:
                self._unreachable(node)

    def _unreachable(self, node: str) -> None:
        """Nobody listens on ``node``'s channel: it died (or lost Redis)."""
        if node not in self._suspects:
            self._suspects.add(node)
            log.warning("cluster: node %s does not listen any more; its tables go to the live nodes", node)

    # --- receiving --------------------------------------------------------------------------------

    async def _reader(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.error("cluster: lost the Redis subscription (%s); reconnecting", e)
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                channel = message["channel"].decode() if isinstance(message["channel"], bytes) else message["channel"]
                if channel.endswith(":all"):
                    await self._broadcast_message(json.loads(message["data"]))
                else:
                    self._received(message["data"])
                    # Let the sockets' pumps take what this message queued before the next one
                    # (queued together, two state frames would coalesce: a client of the owner
                    # gets both when they were published apart).
                    await asyncio.sleep(0)
            except asyncio.CancelledError:
                raise
            except Exception:  # pragma: no cover - a bad message must not stop the node
                log.exception("cluster: a message could not be handled")

    def _client(self, cid: int, sender: str) -> "Connection | None":
        """This node's client ``cid``, if the node that sent something for it owns its table now
        (an owner that lost the table, say after a pause, is not heard any more)."""
        conn = self.gateway.get(cid)
        if conn is None or getattr(conn.table, "owner", None) != sender:
            return None
        return conn

    def _received(self, data: bytes) -> None:
        sender, items = _unpack(data)
        self._suspects.discard(sender)
        for kind, cids, payload in items:
            if kind in (b"S", b"F"):
                text = payload.decode()
                for cid in cids:
                    conn = self._client(cid, sender)
                    if conn is not None:
                        conn.send(text, state=kind == b"S")
            elif kind == b"A":
                self._remote(sender, cids[0], "attach", json.loads(payload))
            elif kind == b"M":
                self._remote(sender, cids[0], "msg", json.loads(payload))
            elif kind == b"D":
                rc = self.remotes.get((sender, cids[0]))
                if rc is not None:
                    rc.queue.put_nowait(("detach", None))
            elif kind == b"I":
                conn = self._client(cids[0], sender)
                if conn is not None:
                    conn.token_hash = payload.decode()
            elif kind == b"X":
                conn = self._client(cids[0], sender)
                if conn is not None:
                    conn.close(payload.decode())
            elif kind == b"G":
                self._gone(payload.decode())
            elif kind == b"Q":
                asyncio.get_running_loop().create_task(self._answer(sender, cids[0], json.loads(payload)))
            elif kind == b"K":   # the owner handled a client's messages up to this number
                conn = self._client(cids[0], sender)
                if conn is not None and isinstance(conn.table, RemoteTable):
                    conn.table.handled(conn, int(payload))
            elif kind == b"P":
                fut = self._calls.pop(cids[0], None)
                if fut is not None and not fut.done():
                    fut.set_result(json.loads(payload))

    async def _broadcast_message(self, msg: dict) -> None:
        if "moved" in msg:
            remote = self.remote_tables.get(msg["moved"])
            if remote is not None and msg["node"] != self.node and remote.owner != msg["node"]:
                remote.move_to(msg["node"])
        elif "revealed" in msg and self.on_revealed is not None:
            self.on_revealed(msg["revealed"])

    def announce(self, **msg: Any) -> None:
        """Tell every node (a move, a revealed event)."""
        task = asyncio.get_running_loop().create_task(self.redis.publish(f"{self.prefix}all", json.dumps(msg)))

        def done(t: asyncio.Task) -> None:
            if not t.cancelled() and t.exception() is not None:
                log.error("cluster: could not announce %s: %s", msg, t.exception())
        task.add_done_callback(done)

    # --- at the owner: remote clients -------------------------------------------------------------

    def _remote(self, sender: str, cid: int, op: str, data: dict) -> None:
        key = (sender, cid)
        rc = self.remotes.get(key)
        if op == "attach":
            if rc is not None:   # attached again (the table moved back here): start afresh
                rc.queue.put_nowait(("detach", None))
            rc = RemoteConnection(self, sender, cid)
            rc.chat_limiter = RateLimiter(*CHAT_RATE)
            self.remotes[key] = rc
            rc.worker = asyncio.get_running_loop().create_task(self._work(rc), name=f"remote {sender}/{cid}")
        elif rc is None:
            self.push(sender, b"G", [cid], str(data.get("t", "")).encode())
            return
        rc.queue.put_nowait((op, data))

    async def _work(self, rc: RemoteConnection) -> None:
        """One remote client's requests, in the order its gateway sent them."""
        key = (rc.node, rc.cid)
        try:
            while True:
                op, data = await rc.queue.get()
                if op == "detach":
                    break
                if data.get("acct", False) is not False:
                    rc.account = data["acct"]
                if op == "attach":
                    rc.address = data.get("addr") or ""
                    table = await self.owned(data["t"])
                    if table is None:
                        self.push(rc.node, b"G", [rc.cid], data["t"].encode())
                        break
                    await table.attach_hashed(rc, data.get("tok"), data.get("adm"))
                    continue
                table = rc.table
                if table is None or self.manager.tables.get(table.id) is not table:
                    self.push(rc.node, b"G", [rc.cid], data["t"].encode())
                    break
                msg = ClientMessage(data["type"], data["f"], data.get("ref"))
                await self._run(rc, msg, quiet=bool(data.get("q")))
                if "n" in data:
                    self.push(rc.node, b"K", [rc.cid], b"%d" % data["n"])
        except asyncio.CancelledError:
            raise
        except Exception:  # pragma: no cover - logged; the client is dropped
            log.exception("cluster: a remote client failed")
        finally:
            if self.remotes.get(key) is rc:
                del self.remotes[key]
            rc.closed = True
            table = rc.table
            if table is not None and not getattr(table, "remote", False) and rc in table.conns:
                try:
                    await table.detach(rc)
                except Exception:  # pragma: no cover
                    log.exception("cluster: detaching a remote client failed")

    async def _run(self, conn: Connection, msg: ClientMessage, quiet: bool = False) -> None:
        """Handle one client message as the app does (``quiet``: an action the table's previous
        owner may have applied already: its refusal is not sent)."""
        assert self.handler is not None
        try:
            await self.handler(conn, msg)
        except TableError as e:
            if not quiet:
                conn.error(e.code, e.message, msg.ref, e.reason)
        except Exception:
            log.exception("error handling %s", msg.type)
            conn.error("internal", "the server failed to handle this message; nothing was changed", msg.ref)

    async def owned(self, table_id: str) -> Any:
        """The table, if this node owns it (waiting for it to finish loading); else ``None``."""
        table = self.manager.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.leases.tokens:
            try:
                return await self.manager.load(table_id)
            except TableError:
                return None
        return None

    # --- calls (a table's info, a seat claim) -------------------------------------------------------

    async def _answer(self, sender: str, call_id: int, data: dict) -> None:
        table = await self.owned(data["t"])
        if table is None:
            answer: dict = {"gone": True}
        else:
            try:
                answer = {"ok": await self._local_call(table, data["what"], data.get("args") or {})}
            except TableError as e:
                answer = {"error": [e.code, e.message]}
            except Exception:  # pragma: no cover - logged
                log.exception("cluster: a call failed")
                answer = {"error": ["internal", "the server failed to handle this; nothing was changed"]}
        self.push(sender, b"P", [call_id], _json(answer))

    async def _local_call(self, table: Any, what: str, args: dict) -> Any:
        if what == "info":
            return table.public_info()
        if what == "claim":
            return await table.claim(args["thash"], args["account"])
        raise TableError("bad_call", f"unknown call {what!r}")

    async def call(self, table_id: str, what: str, **args: Any) -> Any:
        """Run ``what`` at the table's owner (here, or over Redis): ``info`` (its
        :meth:`~ohhell.server.tables.Table.public_info`) or ``claim``.

        :raises TableError: the owner's refusal, ``no_table``, or ``unavailable`` when no owner
            answers in time."""
        if not isinstance(table_id, str) or not TABLE_ID.fullmatch(table_id):
            raise TableError("no_table", "there is no such table")
        deadline = time.monotonic() + LOCATE_TIMEOUT
        while True:
            target = await self.locate(table_id)
            if target is None:
                raise TableError("no_table", f"there is no table {table_id!r}")
            if not getattr(target, "remote", False):
                return await self._local_call(target, what, args)
            self._call_ids += 1
            call_id = self._call_ids
            fut: asyncio.Future = asyncio.get_running_loop().create_future()
            self._calls[call_id] = fut
            self.push(target.owner, b"Q", [call_id], _json({"t": table_id, "what": what, "args": args}))
            try:
                answer = await asyncio.wait_for(fut, CALL_TIMEOUT)
            except asyncio.TimeoutError:
                answer = {"gone": True}
            finally:
                self._calls.pop(call_id, None)
                if not target.conns and self.remote_tables.get(table_id) is target:
                    del self.remote_tables[table_id]
            if "ok" in answer:
                return answer["ok"]
            if "error" in answer:
                raise TableError(*answer["error"])
            if time.monotonic() > deadline:
                raise TableError("unavailable", "the server that runs this table does not answer; try again")
            await asyncio.sleep(0.2)

    # --- finding a table's owner --------------------------------------------------------------------

    async def get(self, table_id: str) -> Any:
        """For :meth:`TableManager.get`: the table if this node owns it or takes it now (nobody
        live owns it); else a read-only copy replayed from its log (``None``: no such table)."""
        target = await self.locate(table_id, wait=False)
        if target is None or not getattr(target, "remote", False):
            return target
        if not target.conns and self.remote_tables.get(table_id) is target:
            del self.remote_tables[table_id]
        return await self.manager.replica(table_id)

    async def locate(self, table_id: str, wait: bool = True) -> Any:
        """Where a table lives: the :class:`~ohhell.server.tables.Table` when this node owns it
        (taking it when nobody live does), a :class:`RemoteTable` when another live node does,
        ``None`` when there is no such table.  While its owner just died, waits (``wait``) up to
        :data:`LOCATE_TIMEOUT` seconds for it to have a new one.

        :raises TableError: ``damaged``; ``unavailable`` when no node takes it in time."""
        deadline = time.monotonic() + LOCATE_TIMEOUT
        while True:
            table = self.manager.tables.get(table_id)
            if table is not None:
                return table
            if table_id in self.leases.tokens:
                return await self.manager.load(table_id)
            known = self.remote_tables.get(table_id)
            if known is not None and known.owner in self.leases.live and known.owner not in self._suspects:
                return known   # (if it moved meanwhile, its old owner says so, and it is found again)
            try:
                owner = await self.leases.owner(table_id)
                if owner is None or not owner[1]:
                    if owner is None and not await self.store.exists(table_id):
                        return None
                    if await self.leases.acquire(table_id) is not None:
                        return await self._take(table_id, taken=owner is not None)
                    owner = await self.leases.owner(table_id)
            except StoreError as e:
                log.error("%s", e)
                raise TableError("storage", "the server could not reach the database; try again") from None
            if owner is not None and owner[1] and owner[0] != self.node and owner[0] not in self._suspects:
                remote = self.remote_tables.get(table_id)
                if remote is None:
                    remote = RemoteTable(self, table_id, owner[0])
                    remote.event = await self._event_of(table_id)
                    remote = self.remote_tables.setdefault(table_id, remote)
                elif remote.owner != owner[0]:
                    remote.move_to(owner[0])
                return remote
            if not wait or time.monotonic() > deadline:
                if not wait and owner is not None and owner[0] != self.node:
                    return RemoteTable(self, table_id, owner[0])
                raise TableError("unavailable", "the server that ran this table stopped and no other has taken "
                                                "it yet; try again in a few seconds")
            await asyncio.sleep(0.2)

    async def _event_of(self, table_id: str) -> "dict | None":
        """The duplicate event a table belongs to (it never changes), from its log's first event."""
        if table_id not in self._table_events:
            try:
                created = await self.store.created(table_id)
            except StoreError as e:
                log.error("%s", e)
                return None
            if len(self._table_events) > 20000:
                self._table_events.clear()
            self._table_events[table_id] = (created or {}).get("event")
        return self._table_events[table_id]

    async def _take(self, table_id: str, taken: bool = False) -> Any:
        """Load a table this node just acquired, announce it, and bring its clients here
        (``taken``: from a node that died or lapsed)."""
        try:
            table = await self.manager.load(table_id)
        except TableError:
            await self.leases.release(table_id)   # damaged: logged; no node should keep trying
            raise
        if table is None:
            await self.leases.release(table_id)
            return None
        if taken:
            self.takeovers += 1
        self.announce(moved=table_id, node=self.node)
        remote = self.remote_tables.pop(table_id, None)
        if remote is not None:   # this node's clients of it were served by its old owner
            for conn in list(remote.conns):
                again = remote.unhandled(conn)
                self.gateway.pop(conn.id, None)
                await table.attach_hashed(conn, conn.token_hash, remote.admin_hash.get(conn))
                for data in again:   # what it sent the old owner, unconfirmed: run here, in order
                    if conn.table is table:
                        await self._run(conn, ClientMessage(data["type"], data["f"], data.get("ref")),
                                        quiet=bool(data.get("q")))
        return table

    def _gone(self, table_id: str) -> None:
        """The owner we sent to does not have the table (it moved): find it again."""
        remote = self.remote_tables.get(table_id)
        if remote is not None:
            self._relocate(remote, reattach=True)

    def _relocate(self, remote: RemoteTable, reattach: bool = False) -> None:
        """Find a remote table's owner again, in the background (once at a time): its clients
        are attached to the new owner (or brought here, when this node takes it)."""
        if remote.relocating is None or remote.relocating.done():
            remote.relocating = asyncio.get_running_loop().create_task(self._relocated(remote, reattach))

    async def _relocated(self, remote: RemoteTable, reattach: bool) -> None:
        if self.remote_tables.get(remote.id) is not remote:
            return
        owner = remote.owner
        try:
            target = await self.locate(remote.id)
        except TableError as e:
            log.warning("cluster: table %s has no owner now (%s); its clients here reconnect", remote.id, e.message)
            target = None
        if target is None:
            for conn in list(remote.conns):
                conn.close("the table's server stopped; reconnecting")
            if self.remote_tables.get(remote.id) is remote:
                del self.remote_tables[remote.id]
        elif target is remote and remote.owner == owner and reattach:
            remote.move_to(owner)   # the same owner said "not here" while it was taking the table

    # --- the lease, liveness and takeovers ---------------------------------------------------------

    async def _renewer(self) -> None:
        """Every :data:`RENEW_EVERY` seconds, renew this node's lease (on a connection of its own,
        so that nothing else delays it); a lapsed one: give everything up and join again."""
        while True:
            started = time.monotonic()
            try:
                if not await self.leases.renew():
                    async with self._round:
                        await self._lapse()
            except asyncio.CancelledError:
                raise
            except Exception as e:   # the database away for a moment: try again
                log.error("cluster: the node's lease could not be renewed: %s", e)
            await asyncio.sleep(max(0.05, RENEW_EVERY - (time.monotonic() - started)))

    async def _keeper(self) -> None:
        """Every :data:`RENEW_EVERY` seconds: end the leases of nodes that stopped listening,
        drop remote clients of dead gateways, and take a share of the dead nodes' tables."""
        rounds = 0
        while True:
            started = time.monotonic()
            try:
                async with self._round:
                    await self._check_nodes()
                    await self._takeover()
                rounds += 1
                if rounds % 600 == 0:
                    await self.leases.purge()
            except asyncio.CancelledError:
                raise
            except Exception as e:   # the database or Redis away for a moment: try again
                log.error("cluster: %s", e)
            await asyncio.sleep(max(0.05, RENEW_EVERY - (time.monotonic() - started)))

    async def _check_nodes(self) -> None:
        others = sorted(self.leases.live - {self.node})
        if others:
            counts = await self.redis.pubsub_numsub(*(self._channel(n) for n in others))
            for node, (_, listeners) in zip(others, counts):
                if listeners == 0:
                    self._unreachable(node)
        dead = set()
        suspects = sorted(self._suspects)
        if suspects:   # confirmed: still nobody listening (a subscription that was reconnecting is back)
            listening = await self.redis.pubsub_numsub(*(self._channel(n) for n in suspects))
            for node, (_, listeners) in zip(suspects, listening):
                if listeners:
                    self._suspects.discard(node)
        for node in list(self._suspects):
            if node in self.leases.live and await self.leases.expire(node):
                log.warning("cluster: ended the lease of node %s (it stopped listening)", node)
            self._suspects.discard(node)
            self.leases.live.discard(node)
            dead.add(node)
        live = self.leases.live
        for (node, _), rc in list(self.remotes.items()):   # clients of gateways that died
            if node not in live and time.monotonic() - rc.since > 3 * RENEW_EVERY and rc.worker is not None:
                rc.queue.put_nowait(("detach", None))
        for remote in list(self.remote_tables.values()):   # tables whose owner died: find the new one
            if remote.owner in dead or remote.owner not in live and time.monotonic() - remote.since > 3 * RENEW_EVERY:
                self._relocate(remote)

    async def _takeover(self) -> None:
        """Take this node's share of the tables whose owner's lease ran out: the live nodes split
        them by a hash of the table id and their rank in the list of live nodes (so they take
        different ones; a table a node did not take is taken by any in a later round)."""
        tables = await self.leases.orphans(2000)
        if not tables:
            return
        live = sorted(self.leases.live)
        rank = live.index(self.node) if self.node in live else 0
        wanted = [t for t in tables if _share(t, len(live)) == rank]
        if self._idle_rounds >= 2:   # orphans nobody took for two rounds (the live nodes changed): any
            wanted = tables
        started = time.monotonic()
        mine = list(await self.leases.acquire_many([t for t in wanted if t not in self.manager.tables]))
        self._idle_rounds = 0 if mine else self._idle_rounds + 1
        if not mine:
            return
        logs = await self.store.load_many(mine)
        gate = asyncio.Semaphore(max(1, getattr(self.store, "pool_size", 4)))

        async def take(table_id: str) -> None:
            async with gate:
                try:
                    await self.manager.load(table_id, events=logs.get(table_id))
                    await self._take(table_id, taken=True)
                except TableError:
                    await self.leases.release(table_id)
        await asyncio.gather(*(take(t) for t in mine))
        log.warning("cluster: took over %d table%s of a stopped node in %.2f s", len(mine),
                    "" if len(mine) == 1 else "s", time.monotonic() - started)

    async def _lapse(self) -> None:
        """This node's lease ran out (it was paused or cut off): its writes are refused already.
        Give every table up, close every client (they reconnect, to any node), join again."""
        self.lapses += 1
        log.error("cluster: this node's lease lapsed (it was paused or cut off for over %g s); its tables "
                  "go to other nodes and its clients reconnect", self.leases.ttl)
        for table_id in list(self.manager.tables):
            self._give_up(table_id)
        for conn in list(self.gateway.values()):
            conn.close("this server restarted its part in the cluster; reconnecting")
        self.gateway.clear()
        self.remote_tables.clear()
        for rc in list(self.remotes.values()):
            if rc.worker is not None:
                rc.worker.cancel()
        self.remotes.clear()
        old = self._channel(self.node)
        self.leases.node = new_node_id()
        await self._pubsub.subscribe(self._channel(self.node))   # before the lease, as at start
        await self.leases.register(self._about())
        await self._pubsub.unsubscribe(old)
        log.warning("cluster: joined again as node %s", self.node)

    def _lost(self, table_id: str, token: int) -> None:
        """The database refused a write of a table object fenced by ``token``: another node owns
        the table now (this node's lease lapsed).  Give that object up; the renewal finds out
        whether the node itself lapsed."""
        table = self.manager.tables.get(table_id)
        if table is not None and getattr(table.store, "token", None) == token:
            log.warning("cluster: table %s belongs to another node now; this node gives it up", table_id)
            self._give_up(table_id)
        if self.leases.tokens.get(table_id) == token:
            del self.leases.tokens[table_id]

    def _give_up(self, table_id: str) -> None:
        """Forget a table this node no longer owns: its own clients reconnect (to any node);
        the gateways of its remote clients find the new owner."""
        table = self.manager.drop(table_id)
        if table is None:
            return
        gateways: set[str] = set()
        for c in list(table.conns):
            if isinstance(c, RemoteConnection):
                gateways.add(c.node)
                c.closed = True
                if c.worker is not None:
                    c.worker.cancel()
                self.remotes.pop((c.node, c.cid), None)
            else:
                c.close("the table moved to another server; reconnecting")
        for node in gateways:
            self.push(node, b"G", [0], table_id.encode())

    def stats(self) -> dict:
        """For ``/healthz``."""
        return {"node": self.node, "nodes_live": len(self.leases.live), "tables_owned": len(self.leases.tokens),
                "remote_clients": len(self.remotes), "gateway_clients": len(self.gateway),
                "takeovers": self.takeovers, "lapses": self.lapses}
