"""``ohhell admin``: look after a server's accounts (list them, reset a password, mark a bot
account, make, list and revoke API tokens for programs: ``docs/bots-api.md``).

The new password is read from a prompt (or, when standard input is not a terminal, from its
first line), never from the command line, where other users of the machine could see it.
"""

from __future__ import annotations

import argparse
import sys
import time
from ..i18n import N_, _, ngettext

HELP = N_("look after a server's accounts: list-users, reset-password USER, set-bot USER, "
          "create-token USER --name NAME, list-tokens USER, revoke-token USER ID")
ACTIONS = "list-users, reset-password USER, set-bot USER, create-token USER --name NAME, list-tokens USER, " \
          "revoke-token USER ID"


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="admin_command", metavar="ACTION")
    db_help = _("the server's database: an SQLite file (default: $OHHELL_DB or "
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
        first = getpass.getpass(_("New password: "))
        if getpass.getpass(_("Again: ")) != first:
            raise ValueError(_("the two passwords differ"))
        return first
    line = sys.stdin.readline()
    return line[:-1] if line.endswith("\n") else line


def run(args: argparse.Namespace) -> int:
    if not getattr(args, "admin_command", None):
        print(_("ohhell admin: say what to do: {actions} (ohhell admin --help)").format(actions=ACTIONS),
              file=sys.stderr)
        return 2
    try:
        import argon2  # noqa: F401
    except ImportError:
        print(_("ohhell admin needs the server extra: pip install 'ohhell[server]'"), file=sys.stderr)
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
                    print(_("no accounts in {db}").format(db=_redact(db)))
                for u in users:
                    made = time.strftime("%Y-%m-%d %H:%M", time.gmtime(u["created"]))
                    print(f"{u['username']:<24}  " + _("created {when} UTC  sessions {sessions}  tokens {tokens}").format(
                        when=made, sessions=u['sessions'], tokens=u['tokens']) + ("  " + _("bot") if u['bot'] else ""))
                return 0
            user = await store.user_by_key(username_key(args.user))
            if user is None:
                print(_("ohhell admin: no account {user!r} in {db}").format(user=args.user, db=_redact(db)),
                      file=sys.stderr)
                return 1
            if args.admin_command != "reset-password":
                return await tokens_and_bots(store, user)
            try:
                password = check_password(_read_password(), user["username"])
            except (AccountError, ValueError) as e:
                print(_("ohhell admin: {reason}; nothing was changed").format(reason=_password_words(e)),
                      file=sys.stderr)
                return 1
            from argon2 import PasswordHasher
            await store.set_password_hash(user["user_id"], PasswordHasher().hash(password))
            ended = await store.delete_user_sessions(user["user_id"])
            print(ngettext("the password of {name} is reset; {n} session ended",
                           "the password of {name} is reset; {n} sessions ended", ended).format(
                name=user['username'], n=ended))
            return 0
        finally:
            await store.close()

    def stamp(t: "float | None") -> str:
        return _("never") if t is None else time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t))

    async def tokens_and_bots(store, user: dict) -> int:
        name = user["username"]
        if args.admin_command == "set-bot":
            await store.set_bot_account(user["user_id"], not args.off)
            print((_("{name} is a person's account now") if args.off else _("{name} is a bot account now")).format(
                name=name))
            return 0
        if args.admin_command == "create-token":
            try:
                token, listing = await issue_token(store, user["user_id"], clean_token_name(args.name))
            except AccountError as e:
                print(_("ohhell admin: {reason}; no token was made").format(
                    reason=_("a token's name is 1 to 40 characters") if e.code == "bad_name" else e.message),
                    file=sys.stderr)
                return 1
            print(_("API token {id} ({token_name}) for {name}; it is shown only this once:").format(
                id=listing['id'], token_name=listing['name'], name=name), file=sys.stderr)
            print(token)   # alone on standard output, for scripts: TOKEN=$(ohhell admin create-token ...)
            return 0
        if args.admin_command == "list-tokens":
            found = await store.list_tokens(user["user_id"])
            if not found:
                print(_("{name} has no API tokens").format(name=name))
            for t in found:
                print(f"{t['id']}  {t['hint']}…  {t['name']:<40}  " + _("created {created}  last used {used}").format(
                    created=stamp(t['created']), used=stamp(t['last_used'])))
            return 0
        # revoke-token
        if args.all == bool(args.token_id):
            print(_("ohhell admin: give a token's ID (ohhell admin list-tokens USER) or --all"), file=sys.stderr)
            return 2
        ids = [t["id"] for t in await store.list_tokens(user["user_id"])] if args.all else [args.token_id]
        revoked = [i for i in ids if await store.delete_token(user["user_id"], i) is not None]
        if not args.all and not revoked:
            print(_("ohhell admin: {name} has no token {id!r}").format(name=name, id=args.token_id), file=sys.stderr)
            return 1
        print(ngettext("{n} token of {name} revoked", "{n} tokens of {name} revoked", len(revoked)).format(
            n=len(revoked), name=name))
        return 0

    try:
        return asyncio.run(go())
    except StoreError as e:
        print(_("ohhell admin: the database could not be used: {reason}").format(reason=e), file=sys.stderr)
        return 1


def _password_words(error: Exception) -> str:
    """Why a new password was refused, in the current language."""
    code = getattr(error, "code", None)
    if code == "bad_password":
        return _("a password has 8 to 1024 characters and must not be the username")
    return str(getattr(error, "message", error))
