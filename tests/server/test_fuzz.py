"""Bad input over the websocket: every bad message gets an error to its sender alone, the
table does not change and the server stays up."""

from __future__ import annotations

import asyncio
import json
import random

from hypothesis import given, settings, strategies as st

from ohhell.server.protocol import CLIENT_TYPES, MAX_MESSAGE_BYTES, ProtocolError, parse_client_message
from serverkit import Client, ThreadServer

VALID = [
    {"v": 1, "type": "act", "action": "QS"}, {"v": 1, "type": "act", "action": 2},
    {"v": 1, "type": "join", "seat": 1, "name": "Zed"}, {"v": 1, "type": "leave"},
    {"v": 1, "type": "rematch"}, {"v": 1, "type": "reclaim"},
    {"v": 1, "type": "replace", "seat": 1, "bot": "random"},
    {"v": 1, "type": "set_seat", "seat": 2, "kind": "open"}, {"v": 1, "type": "fill_bots"},
    {"v": 1, "type": "hello", "table": "x"},
]
JUNK = [None, True, False, 0, -1, 1.5, 2 ** 70, "", "x" * 300, [], {}, [1, 2], {"a": 1}, "QS", "bid 2", 53,
        "\u0000", "💥", float("-0")]


def mutate(rng: random.Random) -> "str | bytes":
    """A random or mutated message: garbage text, broken JSON, wrong types, unknown fields."""
    kind = rng.randrange(9)
    base = dict(rng.choice(VALID))
    if kind == 0:
        return "".join(chr(rng.randrange(1, 0x2FF)) for _ in range(rng.randrange(0, 60)))
    if kind == 1:
        text = json.dumps(base)
        cut = rng.randrange(len(text))
        return text[:cut] + rng.choice(["", "}", "{", ",", "\"", "]]", "\\"]) + text[cut + 1:]
    if kind == 2:
        field = rng.choice([k for k in base if k != "v"] or ["type"])
        base[field] = rng.choice(JUNK)
        return json.dumps(base)
    if kind == 3:
        base["type"] = rng.choice(["", "ACT", "acts", "play", "bid", "admin", "__proto__", "state", "error"])
        return json.dumps(base)
    if kind == 4:
        base["v"] = rng.choice([0, 2, "1", None, True, 1.0001])
        return json.dumps(base)
    if kind == 5:
        return json.dumps(rng.choice([[], 1, "act", None, [base]]))
    if kind == 6:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    if kind == 7:
        return json.dumps({**base, "name": "y" * (MAX_MESSAGE_BYTES + rng.randrange(1, 5000))})
    if kind == 8:
        depth = rng.randrange(1, 3000)
        return "[" * depth + "]" * depth
    return ""  # pragma: no cover


def test_thousands_of_bad_messages_get_errors_and_change_nothing():
    rng = random.Random(2024)
    messages = [mutate(rng) for _ in range(3000)]

    async def main(srv):
        # Ann holds seat 0 but it is Bob's turn (the bot waits), so nothing Ann may do changes the
        # table; a spectator sends the same junk; Bob watches for stray errors.
        for _ in range(60):
            t = srv.create({"players": 3, "hand_sizes": [2]}, [{"kind": "open"}, {"kind": "open"},
                                                                {"kind": "bot", "bot": "random"}])
            ann, bob = Client(srv.ws_url, t["id"]), Client(srv.ws_url, t["id"])
            await ann.connect()
            await bob.connect()
            await ann.join(0, "Ann")
            await bob.join(1, "Bob")
            table = srv.manager.tables[t["id"]]
            if table.game.to_act == 1:
                break
            await ann.close()
            await bob.close()
        else:  # pragma: no cover
            raise AssertionError("no deal had Bob bid first")
        async with Client(srv.ws_url, t["id"]) as spectator:
            await ann.until_seq(table.seq)
            before = (table.seq, table.game.fingerprint())
            for sender in (ann, spectator):
                errors_before = len(sender.errors)

                async def send_all(sender=sender):
                    for m in messages:
                        await sender.send_raw(m)
                    await sender.send({"type": "ping", "ref": "done"})
                await asyncio.gather(send_all(), sender.wait(lambda m: m["type"] == "pong" and m["ref"] == "done",
                                                             timeout=120))
                got = sender.errors[errors_before:]
                assert len(got) == len(messages), "every bad message gets exactly one error"
                assert all(isinstance(e["message"], str) and e["message"] and e["code"] for e in got)
                assert {e["code"] for e in got} >= {"bad_json", "binary", "too_large", "bad_field", "unknown_type",
                                                    "bad_version", "not_object"}
            assert (table.seq, table.game.fingerprint()) == before
            assert bob.errors == []
            # Still serving, and the game goes on.
            await bob.send({"type": "act", "action": 0})
            await bob.until_seq(before[0] + 1)
            assert table.game.bids[1] == 0
        await ann.close()
        await bob.close()

    with ThreadServer(bot_delay=600, rate_limit=(1e6, 1e6)) as srv:
        asyncio.run(main(srv))


def test_a_flood_is_rate_limited_then_cut_off_and_others_are_unaffected():
    async def main(srv, t):
        async with Client(srv.ws_url, t["id"]) as flooder, Client(srv.ws_url, t["id"]) as calm:
            for _ in range(400):
                await flooder.send({"type": "ping"})
            codes = []
            try:
                while True:
                    m = await flooder.recv(5)
                    if m["type"] == "error":
                        codes.append(m["code"])
            except Exception:
                pass  # the server closed the connection
            assert "rate_limited" in codes and codes[-1] == "flood"
            assert codes.count("rate_limited") <= 3  # errors about the flood are themselves limited
            await calm.send({"type": "ping", "ref": 9})
            assert (await calm.wait(lambda m: m["type"] == "pong"))["ref"] == 9
            assert calm.errors == []
        async with Client(srv.ws_url, t["id"]) as again:  # a new connection is welcome
            assert again.state["table"]["id"] == t["id"]
    with ThreadServer(rate_limit=(10.0, 30.0)) as srv:  # the server's defaults
        t = srv.create({"players": 3}, [{"kind": "open"}] * 3)
        asyncio.run(main(srv, t))


def test_messages_before_hello_and_hello_twice():
    async def main(srv, t):
        import websockets
        async with websockets.connect(srv.ws_url) as ws:
            await ws.send(json.dumps({"v": 1, "type": "act", "action": 1}))
            assert json.loads(await ws.recv())["code"] == "hello_first"
            await ws.send(json.dumps({"v": 1, "type": "hello", "table": "nope"}))
            assert json.loads(await ws.recv())["code"] == "no_table"
            await ws.send(json.dumps({"v": 1, "type": "hello", "table": t["id"]}))
            assert json.loads(await ws.recv())["type"] == "state"
            await ws.send(json.dumps({"v": 1, "type": "hello", "table": t["id"]}))
            assert json.loads(await ws.recv())["code"] == "already_hello"
    with ThreadServer() as srv:
        t = srv.create({"players": 3}, [{"kind": "open"}] * 3)
        asyncio.run(main(srv, t))


# --- the parser alone --------------------------------------------------------------------------

@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=300), st.binary(max_size=100),
                 st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                              lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
                              max_leaves=20).map(json.dumps)))
def test_the_parser_raises_only_protocol_errors(data):
    try:
        msg = parse_client_message(data)
    except ProtocolError as e:
        assert e.code and e.message
    else:
        assert msg.type in CLIENT_TYPES


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(VALID), st.sampled_from(JUNK))
def test_wrong_field_types_are_named_in_the_error(valid, junk):
    for field in [k for k in valid if k not in ("v", "type")]:
        bad = {**valid, field: junk}
        try:
            parse_client_message(json.dumps(bad))
        except ProtocolError as e:
            assert field in e.message or e.code in ("bad_field", "missing_field")
