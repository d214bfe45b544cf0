"""The table chat on the server: typed messages, identities from the server, the length and rate
limits, the spectators-apart option, history on hello (across a reconnect and a restart), and
seat names told apart."""

from __future__ import annotations

import asyncio
import json

import unicodedata

import httpx
import pytest
from hypothesis import given, settings, strategies as st

from ohhell.server.config import CHAT_ADDRESS_RATE, CHAT_MAX_LENGTH, CHAT_RATE
from ohhell.server.protocol import ProtocolError, clean_text, parse_client_message
from ohhell.server.storage import PostgresStore, SqliteStore
from ohhell.server.tables import TableError, chat_text
from serverkit import Client, ThreadServer

OPEN3 = [{"kind": "open"}] * 3


def chat_of(c: Client) -> list[dict]:
    """The chat frames a client received so far."""
    return [m for m in map(json.loads, c.frames) if m["type"] == "chat"]


async def say(c: Client, text: str, **extra) -> dict:
    """Send a chat message and wait for the server's answer to it: its echo (the same cleaned
    text from this client's seat) or an error."""
    seat = c.state["you"]["seat"]
    await c.send({"type": "chat", "text": text, **extra})
    return await c.wait(lambda m: m["type"] == "error" or m["type"] == "chat" and m["seat"] == seat
                        and m["text"] == clean_text(text))


async def seated(srv, table: dict, names: list[str]) -> list[Client]:
    clients = []
    for i, name in enumerate(names):
        c = Client(srv.ws_url, table["id"])
        await c.connect()
        assert (await c.join(i, name))["type"] == "joined"
        await c.wait(lambda m, i=i: m["type"] == "state" and m["you"]["seat"] == i)
        clients.append(c)
    return clients


# --- the protocol ------------------------------------------------------------------------------

def test_a_chat_message_is_typed_like_every_other():
    m = parse_client_message('{"v": 1, "type": "chat", "text": "hello <b>all</b>", "ref": 3}')
    assert (m.type, m.fields, m.ref) == ("chat", {"text": "hello <b>all</b>"}, 3)
    m = parse_client_message('{"v": 1, "type": "chat_remove", "id": 4}')
    assert (m.type, m.fields) == ("chat_remove", {"id": 4})
    for bad, code in [('{"v": 1, "type": "chat_remove"}', "missing_field"),
                      ('{"v": 1, "type": "chat_remove", "id": -1}', "bad_field"),
                      ('{"v": 1, "type": "chat_remove", "id": "4"}', "bad_field")]:
        with pytest.raises(ProtocolError) as e:
            parse_client_message(bad)
        assert e.value.code == code
    for bad, code in [('{"v": 1, "type": "chat"}', "missing_field"),
                      ('{"v": 1, "type": "chat", "text": 5}', "bad_field"),
                      ('{"v": 1, "type": "chat", "text": ""}', "bad_field"),
                      (json.dumps({"v": 1, "type": "chat", "text": "x" * 1001}), "bad_field")]:
        with pytest.raises(ProtocolError) as e:
            parse_client_message(bad)
        assert e.value.code == code


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_chat_text_is_printable_short_and_stable_or_refused(text):
    try:
        out = chat_text(text)
    except TableError as e:
        assert e.code in ("chat_empty", "chat_too_long")
        return
    assert 0 < len(out) <= CHAT_MAX_LENGTH
    assert not any(unicodedata.category(ch)[0] == "C" for ch in out)   # no control, format, bidi
    assert out == out.strip() and "  " not in out and all(ch == " " or not ch.isspace() for ch in out)
    assert chat_text(out) == out                                        # cleaning twice changes nothing


def test_the_table_config_takes_the_spectator_chat_option():
    with ThreadServer() as srv:
        r = httpx.post(srv.base + "/api/tables", json={"rules": {"players": 3}, "spectator_chat": "loud"})
        assert r.status_code == 400 and "spectator_chat must be one of together, apart" in r.json()["message"]
        t = srv.create({"players": 3}, OPEN3, spectator_chat="apart")
        assert httpx.get(f"{srv.base}/api/tables/{t['id']}").json()["spectator_chat"] == "apart"
        t = srv.create({"players": 3}, OPEN3)
        assert httpx.get(f"{srv.base}/api/tables/{t['id']}").json()["spectator_chat"] == "together"
        opts = httpx.get(srv.base + "/api/options").json()["chat"]
        assert opts == {"max_length": CHAT_MAX_LENGTH, "spectator_chat": ["together", "apart"]}


# --- who says what, to whom ---------------------------------------------------------------------

def test_players_chat_under_their_seat_names_and_text_is_cleaned_not_interpreted():
    async def main():
        with ThreadServer() as srv:
            t = srv.create({"players": 3, "hand_sizes": [1]}, OPEN3)
            ann, bob = await seated(srv, t, ["Ann", "Bob"])
            watcher = Client(srv.ws_url, t["id"])
            await watcher.connect()
            # The client cannot claim a name or a seat: the server says who spoke.
            mine = await say(ann, "<img src=x onerror=alert(1)> hi\x00\u202e  there", name="Mallory", seat=1)
            assert mine["type"] == "chat"
            assert (mine["seat"], mine["name"], mine["audience"], mine["you"]) == (0, "Ann", "all", True)
            # Control and bidi characters are gone; the markup is kept as the text it is
            # (the page shows it with textContent).
            assert mine["text"] == "<img src=x onerror=alert(1)> hi there"
            for c in (bob, watcher):
                got = await c.wait(lambda m: m["type"] == "chat")
                assert got["id"] == mine["id"] and got["text"] == mine["text"] and got["name"] == "Ann"
                assert "you" not in got
            spoke = await say(watcher, "go Bob")
            assert spoke["seat"] is None and spoke["name"].startswith("Spectator ") and spoke["audience"] == "all"
            assert (await ann.wait(lambda m: m["type"] == "chat"))["text"] == "go Bob"
            # The same address gets the same spectator name on another connection (so a mute holds).
            again = Client(srv.ws_url, t["id"])
            await again.connect()
            assert (await say(again, "me again"))["name"] == spoke["name"]
            for c in (ann, bob, watcher, again):
                await c.close()
    asyncio.run(main())


def test_the_length_limit_refuses_and_sends_nothing():
    async def main():
        with ThreadServer() as srv:
            t = srv.create({"players": 3}, OPEN3)
            ann, bob = await seated(srv, t, ["Ann", "Bob"])
            err = await say(ann, "x" * (CHAT_MAX_LENGTH + 1))
            assert err["type"] == "error" and err["code"] == "chat_too_long"
            assert f"{CHAT_MAX_LENGTH + 1} characters; the limit is {CHAT_MAX_LENGTH}" in err["message"]
            err = await say(ann, " \x00\u200b\t ")
            assert err["type"] == "error" and err["code"] == "chat_empty"
            # Spaces collapse before the length is counted: 300 characters with runs of spaces fit.
            ok = await say(ann, ("y" * 10 + "     ") * 20 + "y" * 80)
            assert ok["type"] == "chat" and len(ok["text"]) == 300
            first = await bob.wait(lambda m: m["type"] == "chat")
            assert first["id"] == ok["id"] and chat_of(bob) == [first]
            for c in (ann, bob):
                await c.close()
    asyncio.run(main())


def test_chat_is_rate_limited_per_connection_and_per_address():
    rate, burst = CHAT_RATE
    async def main():
        with ThreadServer() as srv:
            t = srv.create({"players": 3}, OPEN3)
            ann, bob, cid = await seated(srv, t, ["Ann", "Bob", "Cid"])
            answers = [await say(ann, f"m{i}") for i in range(int(burst) + 1)]
            assert [a["type"] for a in answers] == ["chat"] * int(burst) + ["error"]
            assert answers[-1]["code"] == "chat_rate_limited" and "wait a moment" in answers[-1]["message"]
            await asyncio.sleep(1.05 / rate)    # one token back
            assert (await say(ann, "later"))["type"] == "chat"
            # All three connections come from one address: together they get the address's
            # bucket, not three connections' worth.
            sent = int(burst) + 1
            for c in (bob, cid):
                for i in range(int(burst)):
                    if (await say(c, f"{c} {i}"))["type"] == "chat":
                        sent += 1
            abucket = CHAT_ADDRESS_RATE[1]
            assert sent <= abucket + 2      # a token or two refill while the test runs
            assert any(e["code"] == "chat_rate_limited" for c in (bob, cid) for e in c.errors)
            for c in (ann, bob, cid):
                await c.close()
    asyncio.run(main())


def test_spectators_apart_reach_only_spectators_and_history_keeps_that():
    async def main():
        with ThreadServer() as srv:
            t = srv.create({"players": 3, "hand_sizes": [1]}, OPEN3, spectator_chat="apart")
            ann, bob = await seated(srv, t, ["Ann", "Bob"])
            w1, w2 = Client(srv.ws_url, t["id"]), Client(srv.ws_url, t["id"])
            await w1.connect()
            await w2.connect()
            side = await say(w1, "Ann should lead the ace")
            assert side["audience"] == "spectators"
            assert (await w2.wait(lambda m: m["type"] == "chat"))["text"] == side["text"]
            main_msg = await say(bob, "good luck")
            assert main_msg["audience"] == "all"
            # The players never got the spectators' message: the player's message, sent after
            # it, is the first chat frame each of them received.
            got = await ann.wait(lambda m: m["type"] == "chat")
            assert got["id"] == main_msg["id"] and chat_of(ann) == [got]
            assert [m["id"] for m in chat_of(bob)] == [main_msg["id"]]
            # Spectators read the players as well.
            assert (await w1.wait(lambda m: m["type"] == "chat"))["id"] == main_msg["id"]
            # History on hello: a player's has only the players' message, a spectator's both.
            again = Client(srv.ws_url, t["id"], token=ann.token)
            await again.connect()
            hist = await again.wait(lambda m: m["type"] == "chat_history")
            assert [m["text"] for m in hist["messages"]] == ["good luck"]
            w3 = Client(srv.ws_url, t["id"])
            await w3.connect()
            hist = await w3.wait(lambda m: m["type"] == "chat_history")
            assert [m["text"] for m in hist["messages"]] == [side["text"], "good luck"]
            for c in (ann, bob, w1, w2, w3, again):
                await c.close()
    asyncio.run(main())


def test_the_chat_survives_a_reconnect_and_a_restart(tmp_path):
    db = str(tmp_path / "chat.sqlite3")
    async def first():
        with ThreadServer(db) as srv:
            t = srv.create({"players": 3}, OPEN3)
            ann, = await seated(srv, t, ["Ann"])
            for text in ("one", "two <three>"):
                assert (await say(ann, text))["type"] == "chat"
            await ann.close()
            back = Client(srv.ws_url, t["id"], token=ann.token)
            await back.connect()
            hist = await back.wait(lambda m: m["type"] == "chat_history")
            assert [(m["name"], m["text"]) for m in hist["messages"]] == [("Ann", "one"), ("Ann", "two <three>")]
            await back.close()
            return t["id"], ann.token
    table_id, token = asyncio.run(first())

    async def second():
        with ThreadServer(db) as srv:
            c = Client(srv.ws_url, table_id, token=token)
            await c.connect()
            hist = await c.wait(lambda m: m["type"] == "chat_history")
            assert [m["text"] for m in hist["messages"]] == ["one", "two <three>"]
            assert (await say(c, "three"))["id"] == hist["messages"][-1]["id"] + 1
            await c.close()
    asyncio.run(second())


def test_the_creator_removes_a_message_for_everyone_and_nobody_else_can(tmp_path):
    """The table's creator (its admin link) removes a message: every reader gets
    ``chat_removed``, the history on hello and after a restart no longer has it; a player who
    is not the creator is refused and nothing changes; a message gone already is refused."""
    db = str(tmp_path / "chat.sqlite3")

    async def first():
        with ThreadServer(db) as srv:
            t = srv.create({"players": 3}, OPEN3, spectator_chat="apart")
            ann, bob = await seated(srv, t, ["Ann", "Bob"])
            creator = Client(srv.ws_url, t["id"], admin=t["admin"])
            await creator.connect()
            assert creator.state["you"]["admin"] and creator.state["you"]["seat"] is None
            rude = await say(ann, "something rude")
            fine = await say(bob, "good game")
            aside = await say(creator, "a spectators' aside")     # the creator watches: apart
            assert aside["audience"] == "spectators"
            # Bob is not the creator: refused, and the message stays for everyone
            await bob.send({"type": "chat_remove", "id": rude["id"]})
            err = await bob.wait(lambda m: m["type"] == "error")
            assert err["code"] == "not_admin"
            # the creator removes Ann's message: every reader is told, in order after it
            await creator.send({"type": "chat_remove", "id": rude["id"]})
            for c in (ann, bob, creator):
                got = await c.wait(lambda m: m["type"] in ("chat_removed", "error"))
                assert got == {"v": 1, "type": "chat_removed", "id": rude["id"]}, got
            # a spectators-only message: only the spectators are told it went
            await creator.send({"type": "chat_remove", "id": aside["id"]})
            assert (await creator.wait(lambda m: m["type"] == "chat_removed"))["id"] == aside["id"]
            await say(bob, "still here")                          # the next frame Ann and Bob get
            for c in (ann, bob):
                removed = [m["id"] for m in map(json.loads, c.frames) if m["type"] == "chat_removed"]
                assert removed == [rude["id"]], removed
            # gone already: refused, nothing sent
            await creator.send({"type": "chat_remove", "id": rude["id"]})
            assert (await creator.wait(lambda m: m["type"] == "error"))["code"] == "chat_gone"
            late = Client(srv.ws_url, t["id"])
            await late.connect()
            hist = await late.wait(lambda m: m["type"] == "chat_history")
            assert [m["text"] for m in hist["messages"]] == ["good game", "still here"]
            for c in (ann, bob, creator, late):
                await c.close()
            return t["id"], fine["id"]
    table_id, fine_id = asyncio.run(first())

    async def second():   # a restart reads the chat from the store: the removed ones stay gone
        with ThreadServer(db) as srv:
            c = Client(srv.ws_url, table_id)
            await c.connect()
            hist = await c.wait(lambda m: m["type"] == "chat_history")
            assert [(m["id"], m["text"]) for m in hist["messages"]] == [(fine_id, "good game"),
                                                                         (fine_id + 2, "still here")]
            await c.close()
    asyncio.run(second())


def test_the_creator_changes_the_spectators_chat_at_any_time_and_a_restart_keeps_it(tmp_path):
    """``chat_setting``: only the creator; later spectators' messages follow it, earlier ones
    keep their audience; it is a logged event, so a restarted server has it."""
    db = str(tmp_path / "chat.sqlite3")

    async def first():
        with ThreadServer(db) as srv:
            t = srv.create({"players": 3}, OPEN3)
            ann, = await seated(srv, t, ["Ann"])
            creator = Client(srv.ws_url, t["id"], admin=t["admin"])
            watcher = Client(srv.ws_url, t["id"])
            for c in (creator, watcher):
                await c.connect()
            before = await say(watcher, "lead the ace")
            assert before["audience"] == "all"
            await ann.send({"type": "chat_setting", "spectator_chat": "apart"})
            assert (await ann.wait(lambda m: m["type"] == "error"))["code"] == "not_admin"
            await creator.send({"type": "chat_setting", "spectator_chat": "sometimes"})
            assert (await creator.wait(lambda m: m["type"] == "error"))["code"] == "bad_field"
            await creator.send({"type": "chat_setting", "spectator_chat": "apart"})
            for c in (ann, watcher, creator):
                st = await c.wait(lambda m: m["type"] == "state" and m["table"]["spectator_chat"] == "apart")
                assert st["table"]["spectator_chat"] == "apart"
            after = await say(watcher, "now only us")
            assert after["audience"] == "spectators"
            await say(ann, "players speak to all")
            assert [m["text"] for m in chat_of(ann)] == ["lead the ace", "players speak to all"]
            for c in (ann, creator, watcher):
                await c.close()
            return t["id"]
    table_id = asyncio.run(first())

    async def second():
        with ThreadServer(db) as srv:
            c = Client(srv.ws_url, table_id)
            await c.connect()
            assert c.state["table"]["spectator_chat"] == "apart"
            assert (await say(c, "still apart"))["audience"] == "spectators"
            await c.close()
    asyncio.run(second())


# --- the store ---------------------------------------------------------------------------------

async def _chat_conformance(store) -> None:
    await store.open()
    try:
        assert await store.load_chat("t1", 10) == []
        for i in range(120):
            await store.add_chat("t1", i, {"text": f"m{i} ♠", "seat": None}, keep=60)
        await store.add_chat("t2", 0, {"text": "other"})
        got = await store.load_chat("t1", 5)
        assert [(i, d["text"]) for i, _, d in got] == [(i, f"m{i} ♠") for i in range(115, 120)]
        # Trimmed to the last `keep` at every 50th message: 100 - 60 and below are gone.
        assert [i for i, _, _ in await store.load_chat("t1", 1000)][0] == 41
        # a removed message is gone from what is loaded; removing it again says it was not there
        assert await store.remove_chat("t1", 118) and not await store.remove_chat("t1", 118)
        assert not await store.remove_chat("t2", 118)
        assert [i for i, _, _ in await store.load_chat("t1", 3)] == [116, 117, 119]
        await store.delete_table("t1")
        assert await store.load_chat("t1", 10) == [] and len(await store.load_chat("t2", 10)) == 1
    finally:
        await store.close()


def test_sqlite_store_keeps_chat(tmp_path):
    asyncio.run(_chat_conformance(SqliteStore(str(tmp_path / "c.sqlite3"))))


def test_postgres_store_keeps_chat(pg_database):
    asyncio.run(_chat_conformance(PostgresStore(pg_database)))


# --- names ---------------------------------------------------------------------------------------

def test_bots_of_one_kind_get_distinct_names_in_the_lobby_the_table_and_the_record():
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "open"}, {"kind": "bot", "bot": "random"},
             {"kind": "bot", "bot": "heuristic"}]
    async def main():
        with ThreadServer() as srv:
            t = srv.create({"players": 4, "hand_sizes": [1]}, seats)
            want = ["Random bot 1", None, "Random bot 2", "Heuristic bot"]
            assert [s["name"] for s in httpx.get(f"{srv.base}/api/tables/{t['id']}").json()["seats"]] == want
            assert httpx.get(srv.base + "/api/tables").json()["tables"][0]["names"] == want
            ann = Client(srv.ws_url, t["id"])
            await ann.connect()
            await ann.join(1, "Ann")
            state = await ann.wait(lambda m: m["type"] == "state" and m["game"] is not None)
            names = ["Random bot 1", "Ann", "Random bot 2", "Heuristic bot"]
            assert state["game"]["view"]["names"] == names
            assert [s["name"] for s in state["table"]["seats"]] == names
            await ann.close()
    asyncio.run(main())
