"""The server through its real interfaces: HTTP API and websockets on a live uvicorn."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time

import httpx
import pytest

import ohhell
from serverkit import Client, ThreadServer, play_in_step, play_out

RULES = {"players": 4, "hand_sizes": [2, 1]}
ONE_HUMAN = [{"kind": "open"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"},
             {"kind": "bot", "bot": "random"}]


def first_legal(client, view):
    return view["legal"][0]


# --- HTTP --------------------------------------------------------------------------------------

def test_create_table_rejects_bad_requests_with_reasons():
    with ThreadServer() as srv:
        post = lambda body: httpx.post(srv.base + "/api/tables", json=body)  # noqa: E731
        r = post({"rules": {"players": 8}})
        assert r.status_code == 400 and "players must be 3 to 7" in r.json()["message"]
        r = post({"rules": {"players": 4}, "seats": [{"kind": "open"}] * 3})
        assert r.status_code == 400 and "4 seats" in r.json()["message"]
        r = post({"rules": {"players": 3}, "seats": [{"kind": "bot", "bot": "nobody"}, {"kind": "open"},
                                                      {"kind": "open"}]})
        assert r.status_code == 400 and "unknown bot 'nobody'" in r.json()["message"]
        r = post({"rules": {"players": 4, "hook": True, "simultaneous_bidding": True}})
        assert r.status_code == 400 and "hook cannot be combined" in r.json()["message"]
        r = post({"rules": {"players": 4, "hokk": True}})
        assert r.status_code == 400 and "did you mean 'hook'" in r.json()["message"]
        r = httpx.post(srv.base + "/api/tables", content=b"{not json")
        assert r.status_code == 400 and r.json()["error"] == "bad_json"
        r = httpx.post(srv.base + "/api/tables", content=b" " * 20000)
        assert r.status_code == 413
        assert httpx.get(srv.base + "/api/tables").json() == {"tables": [], "total": 0}
        assert srv.manager.tables == {}


def test_one_address_cannot_create_tables_without_end():
    with ThreadServer(create_limit=5) as srv:
        codes = [httpx.post(srv.base + "/api/tables", json={"rules": {"players": 3}}).status_code for _ in range(8)]
        assert codes[:5] == [201] * 5 and codes[5:] == [429] * 3
        assert len(srv.manager.tables) == 5


def test_every_variant_and_preset_can_be_created():
    with ThreadServer() as srv:
        for preset in ohhell.PRESETS:
            t = srv.create({"preset": preset, "players": 5}, [{"kind": "open"}] * 5)
            info = httpx.get(f"{srv.base}/api/tables/{t['id']}").json()
            assert ohhell.Rules.from_dict(info["rules"]) == ohhell.Rules.preset(preset, players=5)
        rules = {"players": 3, "schedule": "down-up", "no_trump": "largest", "must_trump": True,
                 "missed_bid_scores_tricks": True, "zero_bid_scores_hand_size": True,
                 "simultaneous_bidding": True}
        t = srv.create(rules, [{"kind": "open"}] * 3)
        info = httpx.get(f"{srv.base}/api/tables/{t['id']}").json()
        assert ohhell.Rules.from_dict(info["rules"]) == ohhell.Rules(**rules)


def test_lobby_lists_public_tables_only_and_pages_are_served():
    with ThreadServer() as srv:
        pub = srv.create(RULES, [{"kind": "open"}] * 4, title="Friday night")
        srv.create(RULES, [{"kind": "open"}] * 4, private=True)
        tables = httpx.get(srv.base + "/api/tables").json()["tables"]
        assert [t["id"] for t in tables] == [pub["id"]]
        assert tables[0]["title"] == "Friday night" and tables[0]["open"] == [0, 1, 2, 3]
        for path in ("/", f"/t/{pub['id']}", f"/t/{pub['id']}/replay/1", "/static/js/table.js",
                     "/static/style.css", "/static/js/fair.js"):
            r = httpx.get(srv.base + path)
            assert r.status_code == 200, path
            assert "default-src 'self'" in r.headers["content-security-policy"]
        assert httpx.get(srv.base + "/api/tables/nosuchtable").status_code == 404
        options = httpx.get(srv.base + "/api/options").json()
        assert set(ohhell.bots.names()) - set(ohhell.bots.MEASURING_ONLY) == set(options["bots"]) and options["protocol"] == 1


def test_the_lobby_lists_open_tables_that_left_memory(tmp_path):
    """Tables idle long enough leave the server's memory; the lobby still lists them (from the
    database), with the seats and the game as they are."""
    async def sit_and_leave(srv, t, seat, name, until_my_turn=False):
        async with Client(srv.ws_url, t["id"]) as c:
            await c.join(seat, name)
            if until_my_turn:
                await c.wait(lambda m: m["type"] == "state" and m["game"] and m["game"]["view"]["legal"])

    with ThreadServer(str(tmp_path / "lobby.sqlite3"), idle_evict=0.3) as srv:
        waiting = srv.create(RULES, [{"kind": "open"}] * 4, title="Waiting")
        srv.create(RULES, [{"kind": "open"}] * 4, private=True)
        playing = srv.create(RULES, ONE_HUMAN, title="Playing", away=None)
        asyncio.run(sit_and_leave(srv, waiting, 2, "Bob"))
        asyncio.run(sit_and_leave(srv, playing, 0, "Ann", until_my_turn=True))
        before = httpx.get(srv.base + "/api/tables").json()
        deadline = time.monotonic() + 10
        while playing["id"] in srv.manager.tables:
            assert time.monotonic() < deadline, "the idle table was not evicted"
            time.sleep(0.05)
        # (a table where no game has started stays in memory until it starts or expires)
        assert waiting["id"] in srv.manager.tables
        listed = httpx.get(srv.base + "/api/tables").json()
        assert listed == before
        assert [t["id"] for t in listed["tables"]] == [waiting["id"], playing["id"]] and listed["total"] == 2
        w, p = listed["tables"]
        assert w["status"] == "waiting" and w["open"] == [0, 1, 3] and w["names"] == [None, None, "Bob", None]
        assert p["status"] == "playing" and p["open"] == [] and p["names"][0] == "Ann" and p["hand"] == 1
        # Opening a link loads the table again; the list does not change.
        assert httpx.get(f"{srv.base}/api/tables/{playing['id']}").json()["seats"][0]["name"] == "Ann"
        assert playing["id"] in srv.manager.tables
        def rows(listing):  # reloading writes the row again, with the table's last activity
            return [{k: v for k, v in t.items() if k != "updated"} for t in listing["tables"]]
        again = httpx.get(srv.base + "/api/tables").json()
        assert rows(again) == rows(listed) and again["tables"][1]["updated"] >= p["updated"]
        # Pages of the list.
        page = httpx.get(srv.base + "/api/tables?limit=1&offset=1").json()
        assert [t["id"] for t in page["tables"]] == [playing["id"]] and page["total"] == 2
        for query in ("limit=0", "limit=501", "offset=-1", "limit=ten"):
            r = httpx.get(f"{srv.base}/api/tables?{query}")
            assert r.status_code == 400 and r.json()["error"] == "bad_query", query


# --- playing -----------------------------------------------------------------------------------

def test_a_player_and_bots_finish_a_game_and_the_record_verifies(tmp_path):
    async def main(srv, t):
        async with Client(srv.ws_url, t["id"]) as ann:
            assert (await ann.join(0, "Ann"))["type"] == "joined"
            await ann.wait(lambda m: m["type"] == "state" and m["game"])
            await play_out([ann], first_legal)
            return ann.state
    with ThreadServer() as srv:
        t = srv.create(RULES, ONE_HUMAN)
        r = httpx.get(f"{srv.base}/api/tables/{t['id']}/games/1/record")
        assert r.status_code == 404
        final = asyncio.run(main(srv, t))
        rec = srv.record(t["id"])
        game = ohhell.Game.from_record(rec)
        assert game.is_over and list(game.totals) == final["game"]["view"]["totals"]
        assert final["game"]["seed"] == rec["seed"] and len(rec["commitments"]) == 2
        assert rec["players"][0] == "Ann"
        path = tmp_path / "game.json"
        path.write_text(json.dumps(rec))
        out = subprocess.run([sys.executable, "-m", "ohhell.cli", "verify", str(path)], capture_output=True,
                             text=True)
        assert out.returncode == 0 and "1 record OK" in out.stdout
        rec["commitments"][1] = "0" * 64
        path.write_text(json.dumps(rec))
        out = subprocess.run([sys.executable, "-m", "ohhell.cli", "verify", str(path)], capture_output=True,
                             text=True)
        assert out.returncode == 1 and "committed" in out.stderr


def test_record_and_seed_stay_secret_until_the_game_ends():
    async def main(srv, t):
        async with Client(srv.ws_url, t["id"]) as ann, Client(srv.ws_url, t["id"]) as bob:
            await ann.join(0, "Ann")
            await bob.join(1, "Bob")
            await ann.wait(lambda m: m["type"] == "state" and m["game"])
            r = httpx.get(f"{srv.base}/api/tables/{t['id']}/games/1/record")
            assert r.status_code == 409 and "still being played" in r.json()["message"]
            seed = srv.manager.tables[t["id"]].seed
            assert seed and all(seed not in f for f in ann.frames + bob.frames)
            assert "seed" not in ann.state["game"]
    with ThreadServer(bot_delay=60) as srv:
        t = srv.create(RULES, [{"kind": "open"}, {"kind": "open"}] + ONE_HUMAN[2:])
        asyncio.run(main(srv, t))


def test_spectators_see_no_hand_and_cannot_act():
    async def main(srv, t):
        async with Client(srv.ws_url, t["id"]) as ann, Client(srv.ws_url, t["id"]) as watcher:
            await ann.join(0, "Ann")
            await ann.wait(lambda m: m["type"] == "state" and m["game"])
            await watcher.wait(lambda m: m["type"] == "state" and m["game"])
            v = watcher.view
            assert v["seat"] is None and v["hand"] == [] and v["legal"] == []
            assert ann.view["hand"] and len(ann.view["hand"]) == 2
            seq = watcher.state["seq"]
            await watcher.send({"type": "act", "action": 0, "ref": 5})
            err = await watcher.wait(lambda m: m["type"] == "error")
            assert err["code"] == "no_seat" and err["ref"] == 5
            assert srv.manager.tables[t["id"]].seq == seq
    with ThreadServer(bot_delay=60) as srv:
        t = srv.create(RULES, ONE_HUMAN)
        asyncio.run(main(srv, t))


def test_out_of_turn_and_illegal_cards_are_refused_and_change_nothing():
    async def main(srv, t):
        clients = [Client(srv.ws_url, t["id"]) for _ in range(3)]
        for i, c in enumerate(clients):
            await c.connect()
            await c.join(i, f"P{i}")
        table = srv.manager.tables[t["id"]]
        for c in clients:
            await c.wait(lambda m: m["type"] == "state" and m["game"] and m["game"]["n"] == 0)
        game = table.game
        first = clients[game.to_act]
        second = clients[(game.to_act + 1) % 3]
        before = (table.seq, game.fingerprint())
        await second.send({"type": "act", "action": 0})
        err = await second.wait(lambda m: m["type"] == "error")
        assert err["code"] == "not_your_turn" and "turn" in err["message"]
        await first.send({"type": "act", "action": 7})
        err = await first.wait(lambda m: m["type"] == "error")
        assert err["code"] == "illegal" and "bids are 0 to 2" in err["message"]
        await first.send({"type": "act", "action": first.view["hand"][0]})
        err = await first.wait(lambda m: m["type"] == "error")
        assert err["code"] == "illegal" and "must bid" in err["message"]
        await first.send({"type": "act", "action": "hello"})
        err = await first.wait(lambda m: m["type"] == "error")
        assert err["code"] == "bad_action"
        assert (table.seq, game.fingerprint()) == before
        # The bids are in; now a card the player does not hold, and one that does not follow suit.
        for k in range(3):
            c = clients[game.to_act]
            seq = table.seq
            await c.until_seq(seq)
            await c.send({"type": "act", "action": 1 if k < 2 else c.view["legal"][0]})
            await c.until_seq(seq + 1)
        leader = clients[game.to_act]
        seq = table.seq
        await leader.until_seq(seq)
        mine = set(leader.view["hand"])
        other = next(card for card in ("AS", "KS", "QS", "JS", "TS") if card not in mine)
        before = (table.seq, game.fingerprint())
        await leader.send({"type": "act", "action": other})
        err = await leader.wait(lambda m: m["type"] == "error")
        assert err["code"] == "illegal" and f"does not hold {other}" in err["message"]
        assert (table.seq, game.fingerprint()) == before
        for c in clients:
            assert all(e["code"] in ("not_your_turn", "illegal", "bad_action") for e in c.errors)
        for c in clients:
            await c.close()
    with ThreadServer(bot_delay=60) as srv:
        t = srv.create({"players": 3, "hand_sizes": [2]}, [{"kind": "open"}] * 3)
        asyncio.run(main(srv, t))


def test_tokens_decide_who_acts():
    async def main(srv, t):
        async with Client(srv.ws_url, t["id"]) as ann:
            await ann.join(0, "Ann")
            await ann.wait(lambda m: m["type"] == "state" and m["game"])
            token = ann.token
        # A stranger with a made-up token is a spectator; the real token gets the seat back.
        async with Client(srv.ws_url, t["id"], token="not-the-token") as mallory:
            assert mallory.state["you"]["seat"] is None and mallory.view["hand"] == []
            await mallory.send({"type": "act", "action": 0})
            assert (await mallory.wait(lambda m: m["type"] == "error"))["code"] == "no_seat"
            await mallory.send({"type": "join", "seat": 0, "name": "Mallory"})
            assert (await mallory.wait(lambda m: m["type"] == "error"))["code"] == "seat_taken"
        async with Client(srv.ws_url, t["id"], token=token) as again:
            assert again.state["you"]["seat"] == 0 and len(again.view["hand"]) == 2
    with ThreadServer(bot_delay=60) as srv:
        t = srv.create(RULES, ONE_HUMAN)
        asyncio.run(main(srv, t))


def test_reserved_seats_need_their_invite_code():
    async def main(srv, t):
        code = t["invites"]["1"].split("code=")[1]
        async with Client(srv.ws_url, t["id"]) as eve, Client(srv.ws_url, t["id"]) as bob:
            err = await eve.join(1, "Eve")
            assert err["type"] == "error" and err["code"] == "reserved"
            err = await eve.join(1, "Eve", code="wrong")
            assert err["code"] == "reserved"
            assert (await bob.join(1, "Bob", code=code))["type"] == "joined"
    with ThreadServer() as srv:
        t = srv.create(RULES, [{"kind": "open"}, {"kind": "reserved"}, {"kind": "open"}, {"kind": "open"}])
        assert set(t["invites"]) == {"1"}
        asyncio.run(main(srv, t))


def test_names_are_cleaned_and_checked():
    async def main(srv, t):
        async with Client(srv.ws_url, t["id"]) as c:
            err = await c.join(0, "\u0000\u200b\n ")
            assert err["type"] == "error" and err["code"] == "bad_name"
            err = await c.join(0, "x" * 30)
            assert err["code"] == "bad_name" and "24" in err["message"]
            ok = await c.join(0, "  Ann\tLee\u0007 ")
            assert ok["type"] == "joined"
            st = await c.wait(lambda m: m["type"] == "state")
            assert st["table"]["seats"][0]["name"] == "Ann Lee"
    with ThreadServer() as srv:
        t = srv.create(RULES, [{"kind": "open"}] * 4)
        asyncio.run(main(srv, t))


def test_creator_powers_are_the_creators_alone():
    async def main(srv, t):
        async with Client(srv.ws_url, t["id"]) as stranger:
            for msg in ({"type": "fill_bots"}, {"type": "set_seat", "seat": 1, "kind": "bot", "bot": "random"},
                        {"type": "replace", "seat": 0, "bot": "random"}):
                await stranger.send(msg)
                assert (await stranger.wait(lambda m: m["type"] == "error"))["code"] == "not_admin"
        async with Client(srv.ws_url, t["id"], admin=t["admin"]) as creator:
            assert creator.state["you"]["admin"] is True
            await creator.join(0, "Ann")
            await creator.send({"type": "set_seat", "seat": 1, "kind": "bot", "bot": "nobody"})
            assert (await creator.wait(lambda m: m["type"] == "error"))["code"] == "bad_bot"
            await creator.send({"type": "fill_bots", "bot": "random"})
            st = await creator.wait(lambda m: m["type"] == "state" and m["game"])
            assert [s["kind"] for s in st["table"]["seats"]] == ["human", "bot", "bot", "bot"]
            await creator.send({"type": "set_seat", "seat": 1, "kind": "open"})
            assert (await creator.wait(lambda m: m["type"] == "error"))["code"] == "game_running"
    with ThreadServer(bot_delay=60) as srv:
        t = srv.create(RULES, [{"kind": "open"}] * 4)
        asyncio.run(main(srv, t))


def test_a_bot_stands_in_for_a_player_who_left_and_the_player_takes_the_seat_back():
    async def main(srv, t):
        async with Client(srv.ws_url, t["id"], admin=t["admin"]) as ann:
            await ann.join(0, "Ann")
            bob = Client(srv.ws_url, t["id"])
            await bob.connect()
            await bob.join(1, "Bob")
            await ann.wait(lambda m: m["type"] == "state" and m["game"])
            await ann.send({"type": "replace", "seat": 1, "bot": "random"})
            assert (await ann.wait(lambda m: m["type"] == "error"))["code"] == "present"
            bob_token = bob.token
            await bob.close()
            await ann.wait(lambda m: m["type"] == "state" and not m["table"]["seats"][1]["connected"])
            await ann.send({"type": "replace", "seat": 1, "bot": "random"})
            st = await ann.wait(lambda m: m["type"] == "state" and m["table"]["seats"][1]["standin"])
            assert st["table"]["seats"][1]["standin"] == "random"
            # The stand-in plays Bob's turns; Ann plays hers until Bob comes back.
            async def ann_plays_until(pred):
                while not pred():
                    v = ann.view
                    if v["legal"]:
                        n = ann.state["game"]["n"]
                        await ann.send({"type": "act", "action": v["legal"][0]})
                        await ann.wait(lambda m: m["type"] == "state" and m["game"]["n"] > n)
                    else:
                        await ann.recv()
            table = srv.manager.tables[t["id"]]
            await ann_plays_until(lambda: table.game.action_count >= 6 or table.game.is_over)
            assert any(s == 1 for s, _ in table.game.actions())
            async with Client(srv.ws_url, t["id"], token=bob_token) as bob2:
                assert bob2.state["you"]["seat"] == 1
                await bob2.send({"type": "act", "action": 0})
                err = await bob2.wait(lambda m: m["type"] == "error")
                assert err["code"] in ("standin", "no_game")
                if err["code"] == "standin":
                    await bob2.send({"type": "reclaim"})
                    st = await bob2.wait(lambda m: m["type"] == "state" and not m["table"]["seats"][1]["standin"])
                    assert st["you"]["seat"] == 1
    with ThreadServer(bot_delay=0.01) as srv:
        t = srv.create({"players": 3, "hand_sizes": [3, 3, 3]}, [{"kind": "open"}, {"kind": "open"},
                                                                  {"kind": "bot", "bot": "random"}])
        asyncio.run(main(srv, t))


def test_rematch_starts_a_new_game_with_a_new_seed():
    async def main(srv, t):
        async with Client(srv.ws_url, t["id"]) as ann:
            await ann.join(0, "Ann")
            await ann.wait(lambda m: m["type"] == "state" and m["game"])
            await ann.send({"type": "rematch"})
            assert (await ann.wait(lambda m: m["type"] == "error"))["code"] == "no_rematch"
            await ann.send({"type": "leave"})
            assert (await ann.wait(lambda m: m["type"] == "error"))["code"] == "game_running"
            await play_out([ann], first_legal)
            seed1 = ann.state["game"]["seed"]
            await ann.send({"type": "rematch"})
            st = await ann.wait(lambda m: m["type"] == "state" and m["game"]["number"] == 2)
            assert st["table"]["finished"] == [1] and "seed" not in st["game"]
            await play_out([ann], first_legal)
            assert ann.state["game"]["seed"] != seed1
            await ann.send({"type": "leave"})
            st = await ann.wait(lambda m: m["type"] == "state" and m["you"]["seat"] is None)
            assert st["table"]["seats"][0]["kind"] == "open"
    with ThreadServer() as srv:
        t = srv.create(RULES, ONE_HUMAN)
        asyncio.run(main(srv, t))
        assert ohhell.Game.from_record(srv.record(t["id"], 2)).is_over


def test_a_restarted_server_has_every_table_exactly_as_it_was(tmp_path):
    db = str(tmp_path / "tables.sqlite3")
    async def first_half(srv, t):
        async with Client(srv.ws_url, t["id"]) as ann, Client(srv.ws_url, t["id"]) as bob:
            await ann.join(0, "Ann")
            await bob.join(1, "Bob")
            await ann.wait(lambda m: m["type"] == "state" and m["game"])
            table = srv.manager.tables[t["id"]]
            await play_in_step(table, [ann, bob], 7, pick=lambda legal: legal[-1])
            return ann.token, bob.token, ann.view, bob.view, table.game.fingerprint()
    rules = {"players": 3, "hand_sizes": [3, 2], "simultaneous_bidding": True}
    seats = [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}]
    with ThreadServer(db) as srv:
        t = srv.create(rules, seats)
        ann_token, bob_token, ann_view, bob_view, fp = asyncio.run(first_half(srv, t))
    async def second_half(srv):
        async with Client(srv.ws_url, t["id"], token=ann_token) as ann, \
                Client(srv.ws_url, t["id"], token=bob_token) as bob:
            assert srv.manager.tables[t["id"]].game.fingerprint() == fp
            assert ann.view == ann_view and bob.view == bob_view
            await play_out([ann, bob], first_legal)
    with ThreadServer(db) as srv:
        asyncio.run(second_half(srv))
        assert ohhell.Game.from_record(srv.record(t["id"])).is_over


def test_serve_command_help_and_bad_arguments():
    out = subprocess.run([sys.executable, "-m", "ohhell.cli", "serve", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "--db" in out.stdout and "postgresql://" in out.stdout
    out = subprocess.run([sys.executable, "-m", "ohhell.cli", "serve", "--bot-delay", "-1"], capture_output=True,
                         text=True)
    assert out.returncode == 2 and "--bot-delay" in out.stderr


class _CardNotHeldBot(ohhell.bots.Bot):
    """A broken bot: bids 0, then always plays a card its seat does not hold."""

    name = "card-not-held"

    def __init__(self, seed=None):
        pass

    def decide(self, view, budget=None):
        if view.phase == "bid":
            return ohhell.bots.Decision(view.legal_actions()[-1])
        held = {a.card for a in view.legal_actions()} | set(view.hand)
        other = next(c for c in ohhell.cards.CARDS if c not in held)
        return ohhell.bots.Decision(ohhell.Play(other))


def test_an_illegal_bot_answer_never_reaches_the_log_and_the_game_goes_on(tmp_path, caplog):
    db = str(tmp_path / "tables.sqlite3")
    ohhell.bots.register("card-not-held", _CardNotHeldBot)
    try:
        seats = [{"kind": "open"}] + [{"kind": "bot", "bot": "card-not-held"}] * 2

        async def play(srv, t):
            async with Client(srv.ws_url, t["id"]) as ann:
                await ann.join(0, "Ann")
                await play_out([ann], first_legal)

        with ThreadServer(db) as srv:
            t = srv.create({"players": 3, "hand_sizes": [2, 1]}, seats)
            asyncio.run(play(srv, t))
            rec = srv.record(t["id"])
        assert ohhell.Game.from_record(rec).is_over
        assert "answered" in caplog.text and "playing a random legal action" in caplog.text
        # every logged action replays, so a restart loads the table
        with ThreadServer(db) as srv:
            assert srv.record(t["id"]) == rec
    finally:
        ohhell.bots._REGISTRY.pop("card-not-held", None)


def test_one_damaged_table_does_not_keep_the_server_or_other_tables_down(tmp_path):
    import sqlite3
    db = str(tmp_path / "tables.sqlite3")
    seats = [{"kind": "open"}] * 3
    with ThreadServer(db) as srv:
        good = srv.create({"players": 3}, seats)
        bad = srv.create({"players": 3}, seats)
    con = sqlite3.connect(db)
    con.execute("UPDATE ohhell_events SET data = '{\"broken\": true}' WHERE table_id = ? AND kind = 'create'",
                (bad["id"],))
    con.commit()
    con.close()
    with ThreadServer(db) as srv:
        assert good["id"] in srv.manager.tables and bad["id"] not in srv.manager.tables
        assert httpx.get(f"{srv.base}/api/tables/{good['id']}").status_code == 200


def test_deeply_nested_json_is_a_bad_request_not_a_crash():
    with ThreadServer() as srv:
        for body in (b"[" * 5000 + b"]" * 5000, b"[" * 4000, b'{"rules": ' * 1500):
            r = httpx.post(srv.base + "/api/tables", content=body)
            assert r.status_code == 400 and r.json()["error"] == "bad_json"
        assert httpx.get(srv.base + "/api/tables").status_code == 200


def test_leaving_in_one_tab_frees_the_seat_in_every_tab():
    # A connection's seat is looked up from its token, so a second tab of the same player
    # loses the seat the moment the player leaves, and cannot act for whoever sits there next.
    async def main(srv, t):
        async with Client(srv.ws_url, t["id"]) as tab1:
            await tab1.join(0, "Ann")
            async with Client(srv.ws_url, t["id"], token=tab1.token) as tab2:
                assert tab2.state["you"]["seat"] == 0
                await tab1.send({"type": "leave"})
                st = await tab2.wait(lambda m: m["type"] == "state" and m["you"]["seat"] is None)
                assert st["table"]["seats"][0]["kind"] == "open"
                async with Client(srv.ws_url, t["id"]) as cat:
                    await cat.join(0, "Cat")
                    await tab2.wait(lambda m: m["type"] == "state" and m["table"]["seats"][0]["kind"] == "human")
                    assert tab2.state["you"]["seat"] is None
                    await tab2.send({"type": "leave"})
                    assert (await tab2.wait(lambda m: m["type"] == "error"))["code"] == "no_seat"
                    await tab2.send({"type": "join", "seat": 0, "name": "Ann"})
                    assert (await tab2.wait(lambda m: m["type"] == "error"))["code"] == "seat_taken"
                    st = await cat.wait(lambda m: m["type"] == "state" and m["you"]["seat"] == 0)
                    assert st["table"]["seats"][0]["name"] == "Cat"
    with ThreadServer() as srv:
        t = srv.create({"players": 3, "hand_sizes": [3]}, [{"kind": "open"}, {"kind": "open"},
                                                         {"kind": "bot", "bot": "random"}])
        asyncio.run(main(srv, t))
