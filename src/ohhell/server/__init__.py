"""Oh Hell in the browser: ``ohhell serve`` (see ``docs/server.md``).

An ASGI app (Starlette, served by uvicorn) with a lobby, table pages, replays
and one websocket per client speaking the protocol of ``docs/protocol.md``.
The server is authoritative: each table has one lock, every change is
appended to the table's log in the database (SQLite by default, PostgreSQL
with a URL) before anyone hears of it, and each client is sent only its
seat's view.  Needs the ``server`` extra: ``pip install 'ohhell[server]'``.
"""

from __future__ import annotations

__all__ = ["create_app", "serve"]


def create_app(*args, **kwargs):
    """The ASGI app; see :func:`ohhell.server.app.create_app`."""
    from .app import create_app as _create
    return _create(*args, **kwargs)


def serve(host: str = "127.0.0.1", port: int = 8000, db: "str | None" = None, **options) -> bool:
    """Run the server until interrupted (what ``ohhell serve`` does); ``False`` if it failed to start."""
    import uvicorn
    from .app import create_app as _create
    ws_options = {k: options.pop(k) for k in ("log_level", "access_log") if k in options}
    app = _create(db, **options)
    config = uvicorn.Config(app, host=host, port=port, ws_max_size=1 << 20, ws_per_message_deflate=True,
                            lifespan="on", log_level=ws_options.get("log_level", "info"),
                            access_log=ws_options.get("access_log", False))
    server = uvicorn.Server(config)
    server.run()
    return server.started
