"""A bot of your own at an ``ohhell serve`` table, through the bot API (docs/bots-api.md).

    ohhell admin create-token mybot --name "example client"      # or: your account page
    export OHHELL_TOKEN=ohh_...
    python examples/bot_client.py --server ws://127.0.0.1:8000/ws --table TABLE_ID
    python examples/bot_client.py --server ws://127.0.0.1:8000/ws --event EVENT_ID

It connects with the token (``Authorization: Bearer``), says ``hello`` to the table, takes
its first open seat (or the seat its account already holds there), and whenever the
``state`` frame's view offers it choices, answers with one of them: every action is picked
from ``game.view.legal``, the list the server sends, so the client never works a rule out
itself.  The choice is a small plan of its own, since the frame carries the view as JSON,
not an :class:`ohhell.View` a built-in bot could read: bid the sure-looking winners, then
win tricks while the bid is short and duck once it is made.  Replace :func:`choose` with
your own bot.

With ``--event`` it enters a duplicate event instead (docs/events.md): over HTTP, with the
same token, it takes the event's first open seat (or ``--event-table`` / ``--seat``; both
count from 0, as the API does) with ``POST /api/events/ID/join``, unless its account holds
one already, waits for the organiser to start the event (``GET /api/events/ID`` every two
seconds), then plays the one game of its table (``live[t].id``), where its account already
holds the seat.

Only the ``websockets`` package (a dependency of ``ohhell[server]``) and ``ohhell`` itself
(to read card names) are needed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import websockets

from ohhell.cards import parse_card

#: Seconds between two messages: under the server's default of 10 a second (docs/bots-api.md,
#: *Limits*); against fast built-in bots a program's turns can come quicker than that.
MIN_GAP = 0.11


def strength(card: str, trump: "int | None") -> tuple[bool, int]:
    """How strong a card is to win a trick: trumps first, then by rank."""
    c = parse_card(card)
    return (c.suit == trump, c.rank)


def choose(view: dict) -> "int | str":
    """The action to take: always one of ``view["legal"]`` (bids are numbers, cards names)."""
    legal = view["legal"]
    trump = parse_card(view["trump_card"]).suit if view.get("trump_card") else None
    me = view["seat"]
    if view["phase"] == "bid":
        # a winner: an ace or king, or a trump from the jack up (ranks run 0, a two, to 12, an ace)
        winners = sum(1 for c in map(parse_card, view["hand"]) if c.rank >= 11 or (c.suit == trump and c.rank >= 9))
        return min(legal, key=lambda b: (abs(int(b) - winners), int(b)))
    short = (view["bids"][me] or 0) > view["tricks_won"][me]
    cards = sorted(legal, key=lambda c: strength(c, trump))
    return cards[-1] if short else cards[0]


async def play(server: str, table: str, token: str, games: int = 1, seat: "int | None" = None) -> int:
    """Play ``games`` games at ``table``; returns 0, or 1 when the server refuses."""
    headers = {"Authorization": f"Bearer {token}"}
    try:
        ws = await websockets.connect(server, additional_headers=headers, max_size=1 << 22)
    except websockets.InvalidStatus as e:   # 401: a bad token; 429: too many bad ones
        body = e.response.body.decode("utf-8", "replace") if e.response.body else ""
        try:
            reason = json.loads(body)["message"]
        except (ValueError, KeyError, TypeError):
            reason = body or "no reason given"
        print(f"the server refused the connection ({e.response.status_code}): {reason}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"cannot reach {server}: {e}", file=sys.stderr)
        return 1
    async with ws:
        last_sent = 0.0

        async def send(message: dict) -> None:
            # the server takes 10 messages a second (bursts of 30) and ignores the rest: keep under
            nonlocal last_sent
            wait = last_sent + MIN_GAP - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            last_sent = time.monotonic()
            await ws.send(json.dumps({"v": 1, **message}))

        await send({"type": "hello", "table": table})
        joining, acted, played, pending = False, None, 0, None
        async for text in ws:
            msg = json.loads(text)
            kind = msg["type"]
            if kind == "error":
                print(f"server: {msg['code']}: {msg['message']}", file=sys.stderr)
                if msg["code"] in ("no_table", "hello_first", "token_revoked", "no_seat", "seat_taken",
                                   "reserved", "seated", "event_player"):
                    return 1
                if msg["code"] == "rate_limited" and pending is not None:
                    await asyncio.sleep(1.1)   # an ignored message is not answered: send it again
                    await send(pending)
                continue
            if kind == "joined":
                print(f"sitting at seat {msg['seat']} of table {msg['table']}")
                continue
            if kind != "state":
                continue   # chat, chat_history, pong
            you = msg["you"]["seat"]
            if you is None:
                if joining:
                    continue
                free = [s["seat"] for s in msg["table"]["seats"] if s["kind"] == "open"]
                want = seat if seat is not None else (free[0] if free else None)
                if want is None:
                    print("no open seat at this table", file=sys.stderr)
                    return 1
                joining = True
                await send({"type": "join", "seat": want, "name": "bot"})
                continue
            game = msg["game"]
            if game is None:
                continue   # waiting for the other seats
            view = game["view"]
            if view["phase"] == "over":
                if acted != ("over", game["number"]):
                    acted = ("over", game["number"])
                    played += 1
                    print(f"game {game['number']} over: totals {view['totals']}, "
                          f"winners {[view['names'][w] for w in view['winners']]}")
                    if played >= games:
                        return 0
                    await send({"type": "rematch"})
                continue
            if view["legal"] and acted != (game["number"], game["n"]):
                acted = (game["number"], game["n"])   # one action per position
                pending = {"type": "act", "action": choose(view)}
                await send(pending)
    print("the server closed the connection", file=sys.stderr)
    return 1


class Refused(Exception):
    """An HTTP request the server answered with an error (``code`` and ``message`` its JSON's)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.status, self.code, self.message = status, code, message


def http_base(server: str) -> str:
    """The server's HTTP address from its websocket URL.

    >>> http_base("wss://example.org/ohhell/ws")
    'https://example.org/ohhell'
    """
    parts = urllib.parse.urlsplit(server)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    path = parts.path[:-len("/ws")] if parts.path.endswith("/ws") else parts.path
    return urllib.parse.urlunsplit((scheme, parts.netloc, path.rstrip("/"), "", ""))


def request(base: str, path: str, token: str, body: "dict | None" = None) -> dict:
    """``GET`` (or, with a ``body``, ``POST``) ``path`` with the token; its JSON answer.

    :raises Refused: an error answer.  :raises OSError: the server cannot be reached.
    """
    data = None if body is None else json.dumps(body).encode()
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
    if data is not None:
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(base + path, data=data, headers=headers, method="GET" if data is None else "POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as e:
        try:
            said = json.loads(e.read())
        except ValueError:
            said = {}
        raise Refused(e.code, said.get("error", "http_error"), said.get("message", str(e.reason))) from None


async def enter_event(server: str, event: str, token: str, table: "int | None" = None,
                      seat: "int | None" = None, poll: float = 2.0) -> int:
    """Take a seat in duplicate event ``event`` (the first open one, or at ``table`` /
    ``seat``), wait for its start, then play its table's game; returns 0, or 1 when refused."""
    base = http_base(server)
    where = f"/api/events/{urllib.parse.quote(event, safe='')}"

    async def ask(path: str = "", body: "dict | None" = None) -> dict:
        return await asyncio.to_thread(request, base, where + path, token, body)

    try:
        ev = await ask()
        mine = ev["you"]["seat"]   # [table, seat] when this token's account has entered already
        for _ in range(5):         # (a seat someone takes meanwhile: the next open one)
            if mine is not None:
                break
            if ev["status"] != "open":
                print(f"the event is {ev['status']}: seats are taken before it starts", file=sys.stderr)
                return 1
            free = [(t, s) for t, row in enumerate(ev["seats"]) for s, e in enumerate(row)
                    if e["kind"] == "open" and table in (None, t) and seat in (None, s)]
            if not free:
                print("no open seat in this event" + ("" if table is None and seat is None else " there"),
                      file=sys.stderr)
                return 1
            try:
                got = await ask("/join", {"table": free[0][0], "seat": free[0][1]})
            except Refused as e:
                if e.code != "seat_taken" or (table is not None and seat is not None):
                    raise
                ev = await ask()
                continue
            mine = [got["table"], got["seat"]]
            print(f"entered event {event}: table {mine[0]}, seat {mine[1]} (counting from 0)")
        if mine is None:
            print("every seat tried was taken meanwhile", file=sys.stderr)
            return 1
        waiting = False
        while True:
            live = [x for x in ev["live"] if x["table"] == mine[0]]
            if live:
                break
            if ev["status"] == "cancelled":
                print("the event was cancelled before it started", file=sys.stderr)
                return 1
            if not waiting:
                print("waiting for the organiser to start the event")
                waiting = True
            await asyncio.sleep(poll)
            ev = await ask()
    except Refused as e:
        print(f"server: {e.code}: {e.message}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"cannot reach {base}: {e}", file=sys.stderr)
        return 1
    # an event's table plays one game; the account holds its seat there
    return await play(server, live[0]["id"], token, 1, mine[1])


def main(argv: "list[str] | None" = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--server", default="ws://127.0.0.1:8000/ws", help="the server's websocket URL")
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", help="the table's id (the last part of /t/ID), or its URL")
    where.add_argument("--event", help="a duplicate event's id (the last part of /events/ID), or its URL: "
                                       "take a seat in it and play its table")
    ap.add_argument("--token", default=os.environ.get("OHHELL_TOKEN"),
                    help="the API token (default: $OHHELL_TOKEN; prefer the variable, a command line is "
                         "visible to other users of the machine)")
    ap.add_argument("--seat", type=int, default=None,
                    help="the seat to take, from 0 (default: the first open one)")
    ap.add_argument("--event-table", type=int, default=None,
                    help="with --event: the event's table to sit at, from 0 (default: the first with an open seat)")
    ap.add_argument("--games", type=int, default=1, help="games to play (voting for a rematch after each)")
    args = ap.parse_args(argv)
    if not args.token:
        ap.error("give an API token: --token or $OHHELL_TOKEN (make one on your account page)")
    if args.event_table is not None and args.event is None:
        ap.error("--event-table goes with --event")
    try:
        if args.event is not None:
            event = args.event.rstrip("/").split("/events/")[-1].split("#")[0]
            return asyncio.run(enter_event(args.server, event, args.token, args.event_table, args.seat))
        table = args.table.rstrip("/").split("/t/")[-1].split("#")[0]
        return asyncio.run(play(args.server, table, args.token, args.games, args.seat))
    except KeyboardInterrupt:
        return 130
    except websockets.ConnectionClosed as e:
        print(f"the connection closed: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
