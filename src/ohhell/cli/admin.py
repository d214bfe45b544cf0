"""``ohhell admin``: look after a server's accounts (list them, reset a password).

The new password is read from a prompt (or, when standard input is not a terminal, from its
first line), never from the command line, where other users of the machine could see it.
"""

from __future__ import annotations

import argparse
import sys
import time

HELP = "look after a server's accounts: list-users, reset-password USER"


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="admin_command", metavar="ACTION")
    db_help = ("the server's database: an SQLite file (default: $OHHELL_DB or "
               "~/.local/share/ohhell/server.sqlite3) or a postgresql://user@host/dbname URL")
    lu = sub.add_parser("list-users", help="list the accounts (username, created, live sessions)",
                        description="List the accounts: username, when it was made, its live sessions.")
    lu.add_argument("--db", default=None, help=db_help)
    rp = sub.add_parser("reset-password", help="set a new password for USER and sign them out everywhere",
                        description="Set a new password for USER (read from a prompt, or from standard "
                                    "input's first line) and end every session of the account.")
    rp.add_argument("user", metavar="USER", help="the username (case does not matter)")
    rp.add_argument("--db", default=None, help=db_help)


def _read_password() -> str:
    import getpass
    if sys.stdin.isatty():
        first = getpass.getpass("New password: ")
        if getpass.getpass("Again: ") != first:
            raise ValueError("the two passwords differ; nothing was changed")
        return first
    line = sys.stdin.readline()
    return line[:-1] if line.endswith("\n") else line


def run(args: argparse.Namespace) -> int:
    if not getattr(args, "admin_command", None):
        print("ohhell admin: say what to do: list-users, or reset-password USER (ohhell admin --help)",
              file=sys.stderr)
        return 2
    try:
        import argon2  # noqa: F401
    except ImportError:
        print("ohhell admin needs the server extra: pip install 'ohhell[server]'", file=sys.stderr)
        return 2
    import asyncio

    from ..server.accounts import AccountError, check_password, username_key
    from ..server.storage import StoreError, _redact, default_db_path, open_store

    db = args.db or default_db_path()

    async def go() -> int:
        store = open_store(db)
        await store.open()
        try:
            if args.admin_command == "list-users":
                users = await store.list_users()
                if not users:
                    print(f"no accounts in {_redact(db)}")
                for u in users:
                    made = time.strftime("%Y-%m-%d %H:%M", time.gmtime(u["created"]))
                    print(f"{u['username']:<24}  created {made} UTC  sessions {u['sessions']}")
                return 0
            user = await store.user_by_key(username_key(args.user))
            if user is None:
                print(f"ohhell admin: no account {args.user!r} in {_redact(db)}", file=sys.stderr)
                return 1
            try:
                password = check_password(_read_password(), user["username"])
            except (AccountError, ValueError) as e:
                print(f"ohhell admin: {getattr(e, 'message', e)}; nothing was changed", file=sys.stderr)
                return 1
            from argon2 import PasswordHasher
            await store.set_password_hash(user["user_id"], PasswordHasher().hash(password))
            ended = await store.delete_user_sessions(user["user_id"])
            print(f"the password of {user['username']} is reset; {ended} session{'' if ended == 1 else 's'} "
                  f"ended")
            return 0
        finally:
            await store.close()

    try:
        return asyncio.run(go())
    except StoreError as e:
        print(f"ohhell admin: {e}", file=sys.stderr)
        return 1
