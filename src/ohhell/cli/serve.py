"""``ohhell serve``: play Oh Hell in the browser with friends and bots."""

from __future__ import annotations

import argparse
import sys
from ..i18n import N_, _, format_number

HELP = N_("serve Oh Hell in the browser: a lobby, tables with friends and bots, replays (http://127.0.0.1:8000)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1",
                   help=_("address to listen on (default 127.0.0.1; 0.0.0.0 to let others on your network in)"))
    p.add_argument("--port", type=_port, default=8000, help=_("port, 1 to 65535 (default 8000)"))
    p.add_argument("--db", default=None,
                   help=_("where tables are kept: an SQLite file (default: $OHHELL_DB or "
                        "~/.local/share/ohhell/server.sqlite3) or a postgresql://user@host/dbname URL"))
    p.add_argument("--bot-delay", type=float, default=0.7, metavar="SECONDS",
                   help=_("how long a bot waits before it acts, so people can follow (default 0.7)"))
    p.add_argument("--bot-pool", choices=("process", "thread"), default="process",
                   help=_("where bots think: worker processes (default) or threads"))
    p.add_argument("--bot-workers", type=int, default=None, metavar="N",
                   help=_("bot workers (default: CPUs - 1, at least 1)"))
    p.add_argument("--create-limit", type=float, default=30.0, metavar="N",
                   help=_("tables one address may create per minute (default 30; 0: no limit)"))
    p.add_argument("--max-open-tables", type=int, default=20, metavar="N",
                   help=_("tables one address may have where no game has started yet (default 20)"))
    p.add_argument("--unstarted-expiry", type=float, default=60.0, metavar="MINUTES",
                   help=_("a table where no game ever started is removed this long after its last "
                        "change, once nobody is connected (default 60)"))
    p.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS",
                   help=_("a reverse proxy whose X-Forwarded-For/-Proto headers are believed (repeat it, or "
                        "separate with commas; an address or a network such as 10.0.0.0/8). Without it "
                        "those headers are ignored, so a client cannot pick the address its limits count"))
    p.add_argument("--allowed-origin", action="append", default=[], metavar="ORIGIN",
                   help=_("a page origin (e.g. https://cards.example.org) whose websockets are accepted "
                        "besides the server's own host (repeatable)"))
    p.add_argument("--header-timeout", type=float, default=10.0, metavar="SECONDS",
                   help=_("close a connection that has not sent a whole request head in this time "
                        "(default 10)"))
    p.add_argument("--max-sockets-per-address", type=int, default=200, metavar="N",
                   help=_("open websockets one address may hold at once; more are refused (default 200, "
                          "0 for no limit; behind a proxy, name it with --trusted-proxy)"))
    p.add_argument("--bot-seconds", type=float, default=None, metavar="SECONDS",
                   help=_("how long a bot may think per move when the server is not busy (default: each "
                        "bot's own); under load it gets less"))
    p.add_argument("--analysis-samples", type=int, default=None, metavar="N",
                   help=_("sampled deals per decision of each finished game's analysis, shown on its replay "
                        "(default 48; more is slower and has smaller error bars; it runs in a worker of "
                        "its own that waits whenever the bots need the CPU)"))
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help=_("run the finished games' analyses on a Ray cluster (HOST:PORT of its head node; "
                          "no address: Ray started here) instead of a local process (docs/ray.md)"))
    p.add_argument("--redis", default=None, metavar="URL",
                   help=_("run as one node of a cluster: redis://HOST[:PORT][/DB] of the Redis the nodes share "
                          "(needs a postgresql:// --db; start any number of nodes behind one load balancer; "
                          "docs/deploy.md)"))
    p.add_argument("--log-level", default="info", choices=("critical", "error", "warning", "info", "debug"))
    p.add_argument("--access-log", action="store_true", help=_("log every HTTP request"))


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("a port is a whole number from 1 to 65535, not {text}").format(
            text=repr(text))) from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(_("a port is a whole number from 1 to 65535, not {text}").format(text=port))
    return port


def run(args: argparse.Namespace) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        print(_("ohhell serve needs the server extra: pip install 'ohhell[server]'"), file=sys.stderr)
        return 2
    if args.bot_delay < 0:
        print(_("ohhell serve: {flag} must be 0 or more").format(flag="--bot-delay"), file=sys.stderr)
        return 2
    if args.bot_workers is not None and args.bot_workers < 1:
        print(_("ohhell serve: {flag} must be at least {n}").format(flag="--bot-workers", n=1), file=sys.stderr)
        return 2
    for flag, value, least in (("--max-open-tables", args.max_open_tables, 1),
                               ("--unstarted-expiry", args.unstarted_expiry, 0.1),
                               ("--header-timeout", args.header_timeout, 0.1),
                               ("--bot-seconds", args.bot_seconds, 0.01),
                               ("--analysis-samples", args.analysis_samples, 1),
                               ("--max-sockets-per-address", args.max_sockets_per_address, 0)):
        if value is not None and not value >= least:
            print(_("ohhell serve: {flag} must be at least {n}").format(flag=flag, n=format_number(
                least, 0 if least >= 1 else len(f"{least:g}") - 2)), file=sys.stderr)
            return 2
    proxies = [p.strip() for arg in args.trusted_proxy for p in arg.split(",") if p.strip()]
    import logging

    from ..bots.distributed import RayPoolError
    from ..server import PortError, bind_socket, serve
    from ..server.cluster import ClusterError, check_redis_url
    from ..server.storage import StoreError, _redact, default_db_path

    if args.redis is not None:
        try:
            check_redis_url(args.redis)
        except ClusterError as e:
            print(f"ohhell serve: {e}", file=sys.stderr)
            return 2
        if not (args.db or "").startswith(("postgresql://", "postgres://")):
            print(_("ohhell serve: --redis runs one node of a cluster, and the nodes share a PostgreSQL "
                    "database: add --db postgresql://USER@HOST/DBNAME"), file=sys.stderr)
            return 2
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s: %(name)s: %(message)s")
    db = args.db or default_db_path()
    try:
        sock = bind_socket(args.host, args.port)   # a busy port is refused before anything is said or loaded
    except PortError as e:
        print("ohhell serve: " + _port_words(e), file=sys.stderr)
        return 1
    host = f"[{args.host}]" if ":" in args.host else args.host
    if args.redis is not None:
        print(_("Oh Hell is served at {url} as a node of the cluster on {db} and {redis} (Ctrl+C stops this "
                "node; its tables go to the other nodes)").format(
                    url=f"http://{host}:{args.port}", db=_redact(db), redis=_redact(args.redis)), flush=True)
    else:
        print(_("Oh Hell is served at {url}  (tables kept in {db}; Ctrl+C stops)").format(
            url=f"http://{host}:{args.port}", db=_redact(db)), flush=True)
    try:
        started = serve(args.host, args.port, db, sock=sock, bot_delay=args.bot_delay, bot_pool=args.bot_pool,
                        bot_workers=args.bot_workers, log_level=args.log_level, access_log=args.access_log,
                        create_limit=args.create_limit or None, trusted_proxies=proxies,
                        allowed_origins=args.allowed_origin, header_timeout=args.header_timeout,
                        max_open_per_creator=args.max_open_tables,
                        unstarted_ttl=args.unstarted_expiry * 60.0, bot_seconds=args.bot_seconds,
                        max_sockets_per_address=args.max_sockets_per_address or None,
                        **({"analysis_samples": args.analysis_samples} if args.analysis_samples else {}),
                        **({"analysis_ray": args.ray} if args.ray is not None else {}),
                        **({"redis": args.redis} if args.redis is not None else {}))
    except (StoreError, PortError, RayPoolError, ClusterError) as e:
        print(f"ohhell serve: {e}", file=sys.stderr)
        return 1
    finally:
        sock.close()
    return 0 if started else 1


def _port_words(error: Exception) -> str:
    """Why the address cannot be served on (a :class:`ohhell.server.PortError`), in words."""
    f = getattr(error, "facts", {})
    code = getattr(error, "code", None)
    if code == "busy":
        return _("port {port} on {host} is already in use (is another server running?)").format(**f)
    if code == "address":
        return _("cannot listen on {host!r}: unknown address ({reason})").format(**f)
    if code == "unusable" and "port" in f:
        return _("port {port} on {host} cannot be used: {reason}").format(**f)
    if code == "range":
        return _("a port is a whole number from 1 to 65535, not {text}").format(text=f["port"])
    return str(error)
