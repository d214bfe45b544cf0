"""``ohhell admin``: look after a server's accounts (list them, reset a password, mark a bot
account, make, list and revoke API tokens for programs: ``docs/bots-api.md``).

The new password is read from a prompt (or, when standard input is not a terminal, from its
first line), never from the command line, where other users of the machine could see it.
"""

from __future__ import annotations

import argparse
import sys
import time
from ..i18n import _

HELP = ("look after a server's accounts: list-users, reset-password USER, set-bot USER, "
        "create-token USER --name NAME, list-tokens USER, revoke-token USER ID")
ACTIONS = "list-users, reset-password USER, set-bot USER, create-token USER --name NAME, list-tokens USER, " \
          "revoke-token USER ID"


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="admin_command", metavar="ACTION")
    db_help = ("the server's database: an SQLite file (default: $OHHELL_DB or "
               "~/.local/share/ohhell/server.sqlite3) or a postgresql://user@host/dbname URL")
    lu = sub.add_parser("list-users", help=_("list the accounts (username, created, live sessions)"),
                        description=_("List the accounts: username, when it was made, its live sessions."))
    lu.add_argument("--db", default=None, help=db_help)
    rp = sub.add_parser("reset-password", help=_("set a new password for USER and sign them out everywhere"),
                        description=_("Set a new password for USER (read from a prompt, or from standard "
                                    "input's first line) and end every session of the account."))
    rp.add_argument("user", metavar="USER", help=_("the username (case does not matter)"))
    rp.add_argument("--db", default=None, help=db_help)
    sb = sub.add_parser("set-bot", help=_("mark USER as a bot account (a program), or --off: a person's"),
                        description=_("Mark USER as a bot account: a program playing through the bot API, shown "
                                    "as a bot at tables, in the lobby, on its player page and the leaderboard. "
                                    "A running server sees the mark when the account next connects with a token, "
                                    "or at its restart."))
    sb.add_argument("user", metavar="USER", help=_("the username (case does not matter)"))
    sb.add_argument("--off", action="store_true", help=_("unmark it: the account is a person's"))
    sb.add_argument("--db", default=None, help=db_help)
    ct = sub.add_parser("create-token", help=_("make an API token for USER and print it (once)"),
                        description=_("Make an API token for USER, for a program that plays as that account "
                                    "(Authorization: Bearer ohh_... on the websocket). It is printed once; the "
                                    "database keeps only its hash."))
    ct.add_argument("user", metavar="USER", help=_("the username (case does not matter)"))
    ct.add_argument("--name", required=True, help=_("what the token is for (1 to 40 characters)"))
    ct.add_argument("--db", default=None, help=db_help)
    lt = sub.add_parser("list-tokens", help=_("list USER's API tokens (id, name, first characters, last use)"),
                        description=_("List USER's API tokens: id, name, first characters, created, last used."))
    lt.add_argument("user", metavar="USER", help=_("the username (case does not matter)"))
    lt.add_argument("--db", default=None, help=db_help)
    rt = sub.add_parser("revoke-token", help=_("revoke USER's API token ID (see list-tokens), or --all"),
                        description=_("Revoke one of USER's API tokens (its ID from list-tokens), or all of them "
                                    "with --all. A running server refuses it at the next connection; a socket "
                                    "already open with it is closed within a minute."))
    rt.add_argument("user", metavar="USER", help=_("the username (case does not matter)"))
    rt.add_argument("token_id", metavar="ID", nargs="?", help=_("the token's id"))
    rt.add_argument("--all", action="store_true", help=_("revoke every token of the account"))
    rt.add_argument("--db", default=None, help=db_help)


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
        print(f"ohhell admin: say what to do: {ACTIONS} (ohhell admin --help)", file=sys.stderr)
        return 2
    try:
        import argon2  # noqa: F401
    except ImportError:
        print("ohhell admin needs the server extra: pip install 'ohhell[server]'", file=sys.stderr)
        return 2
    import asyncio

    from ..server.accounts import AccountError, check_password, clean_token_name, issue_token, username_key
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
                    print(f"{u['username']:<24}  created {made} UTC  sessions {u['sessions']}  "
                          f"tokens {u['tokens']}{'  bot' if u['bot'] else ''}")
                return 0
            user = await store.user_by_key(username_key(args.user))
            if user is None:
                print(f"ohhell admin: no account {args.user!r} in {_redact(db)}", file=sys.stderr)
                return 1
            if args.admin_command != "reset-password":
                return await tokens_and_bots(store, user)
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

    def stamp(t: "float | None") -> str:
        return "never" if t is None else time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t))

    async def tokens_and_bots(store, user: dict) -> int:
        name = user["username"]
        if args.admin_command == "set-bot":
            await store.set_bot_account(user["user_id"], not args.off)
            print(f"{name} is {'a person' if args.off else 'a bot account'} now")
            return 0
        if args.admin_command == "create-token":
            try:
                token, listing = await issue_token(store, user["user_id"], clean_token_name(args.name))
            except AccountError as e:
                print(f"ohhell admin: {e.message}; no token was made", file=sys.stderr)
                return 1
            print(f"API token {listing['id']} ({listing['name']}) for {name}; it is shown only this once:",
                  file=sys.stderr)
            print(token)   # alone on standard output, for scripts: TOKEN=$(ohhell admin create-token ...)
            return 0
        if args.admin_command == "list-tokens":
            found = await store.list_tokens(user["user_id"])
            if not found:
                print(f"{name} has no API tokens")
            for t in found:
                print(f"{t['id']}  {t['hint']}…  {t['name']:<40}  created {stamp(t['created'])}  "
                      f"last used {stamp(t['last_used'])}")
            return 0
        # revoke-token
        if args.all == bool(args.token_id):
            print("ohhell admin: give a token's ID (ohhell admin list-tokens USER) or --all", file=sys.stderr)
            return 2
        ids = [t["id"] for t in await store.list_tokens(user["user_id"])] if args.all else [args.token_id]
        revoked = [i for i in ids if await store.delete_token(user["user_id"], i) is not None]
        if not args.all and not revoked:
            print(f"ohhell admin: {name} has no token {args.token_id!r}", file=sys.stderr)
            return 1
        print(f"{len(revoked)} token{'' if len(revoked) == 1 else 's'} of {name} revoked")
        return 0

    try:
        return asyncio.run(go())
    except StoreError as e:
        print(f"ohhell admin: {e}", file=sys.stderr)
        return 1
