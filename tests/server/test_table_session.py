"""The server's turn logic is the table session's: a server table runs its game on an
:class:`ohhell.bots.TableSession` (the one every front end runs on), live and after a restart,
and a game its bots play over the server equals the game the session plays with the same seeds."""

from __future__ import annotations

import asyncio

import pytest

import ohhell
from ohhell.actions import parse_action
from ohhell.bots import TableSession
from ohhell.server.botpool import BotPool, bot_seed, decide
from ohhell.server.config import parse_table_config
from ohhell.server.manager import TableManager
from ohhell.server.storage import open_store

BOTS = ["random", "intermediate", "beginner", "heuristic"]


def session_game(rules: ohhell.Rules, seed: str, names: list[str], bots_at: list[str]) -> ohhell.Game:
    """The game the session plays: its due turns, each decided as the server's pool decides
    (a fresh bot seeded from the game's seed, the seat and the actions so far), completed on it."""
    game = ohhell.Game(rules, seed=seed, names=names)
    session = TableSession(game, bots_at, trick_pause=2.5)
    while not game.is_over:
        n = game.action_count
        turns = session.due()
        assert turns
        for turn in turns:   # during simultaneous bidding, every bidder's view from before the round's bids
            assert session.complete(turn, parse_action(decide(turn.name, bot_seed(seed, turn.seat, n), turn.view)))
    return game


@pytest.mark.parametrize("rules", [{"players": 4, "hand_sizes": [3, 2]},
                                   {"players": 4, "hand_sizes": [2, 3], "simultaneous_bidding": True}])
def test_a_game_over_the_server_is_the_session_driven_game(tmp_path, rules):
    db = str(tmp_path / "t.sqlite3")
    config = {"rules": rules, "seats": [{"kind": "bot", "bot": b} for b in BOTS]}

    async def play() -> tuple[str, dict, str]:
        store = open_store(db)
        m = TableManager(store, BotPool("thread", 2), bot_delay=0.0)
        await store.open()
        await m.start()
        table, _, _ = await m.create(parse_table_config(config), "c")
        assert isinstance(table.session, TableSession) and table.session.game is table.game
        while table.status != "over":
            await asyncio.sleep(0.01)
        assert table.bot_tasks == {}
        rec = table.finished[1]
        fingerprint = table.game.fingerprint()
        await m.stop()
        await store.close()
        return table.id, rec, fingerprint

    async def reload(table_id: str) -> str:
        store = open_store(db)
        m = TableManager(store, BotPool("thread", 1), bot_delay=0.0)
        await store.open()
        await m.start()
        table = await m.get(table_id)
        assert table is not None and table.session is not None and table.session.game is table.game
        fingerprint = table.game.fingerprint()
        await m.stop()
        await store.close()
        return fingerprint

    table_id, rec, fingerprint = asyncio.run(play())
    reference = session_game(ohhell.Rules.from_dict(rec["rules"]), rec["seed"], rec["players"], BOTS)
    ours = reference.record()
    assert [h["bids"] for h in rec["hands"]] == [h["bids"] for h in ours["hands"]]
    assert rec["hands"] == ours["hands"] and rec["totals"] == ours["totals"]
    assert asyncio.run(reload(table_id)) == fingerprint   # replayed from the log through the session


class Manager:
    """What a table asks of its manager outside of its operations."""
    bot_delay = 0.0
    closing = False


def test_a_stand_in_and_its_reclaim_reach_the_session():
    """Logged ``standin`` / ``reclaim`` events are the session's ``stand_in`` / ``reclaim``."""
    from ohhell.server.tables import Table

    table = Table("t", Manager())  # type: ignore[arg-type]
    table._apply_event("create", {"title": "", "private": False, "admin": "x",
                                  "rules": ohhell.Rules(3, hand_sizes=[2]).to_dict(),
                                  "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]},
                       1.0)
    table.seats[0].kind = table.seats[1].kind = "human"
    table._apply_event("standin", {"seat": 1, "bot": "beginner", "by": "creator"}, 2.0)   # before the game
    table._apply_event("start", {"game": 1, "seed": "s", "names": ["A", "B", "C"]}, 3.0)
    session = table.session
    assert session is not None and session.standins == {1: "beginner"}
    assert [session.bot_name(s) for s in range(3)] == [None, "beginner", "random"]
    table._apply_event("standin", {"seat": 0, "bot": "random", "by": "timer"}, 4.0)
    table._apply_event("reclaim", {"seat": 1}, 5.0)
    assert session.standins == {0: "random"} and session.is_outside(1)
    assert table.waiting_on() == session.game.seats_to_act


def test_the_away_timer_is_the_sessions_during_a_game():
    """The session is told who is away (nobody is connected to a table just loaded: away since
    the load) and its clock reads the logged timestamps, so its takeovers are the table's."""
    from ohhell.server.tables import Table

    table = Table("t", Manager())  # type: ignore[arg-type]
    table.loaded = 100.0
    table._apply_event("create", {"title": "", "private": False, "admin": "x", "away": {"after": 10, "bot": "random"},
                                  "rules": ohhell.Rules(3, hand_sizes=[2], simultaneous_bidding=True).to_dict(),
                                  "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]},
                       50.0)
    table._apply_event("start", {"game": 1, "seed": "s", "names": ["A", "B", "C"]}, 150.0)
    session = table.session
    assert session is not None and session.away_after == 10 and session.standin_name == "random"
    to_act = [s for s in session.game.seats_to_act if s != 2]
    assert to_act == [0, 1]                    # everyone bids at once
    assert table.takeovers() == session.takeovers() == {s: 160.0 for s in to_act}
    assert session.away == [0, 1] and session.next_deadline() == 160.0
    table.away_since[to_act[0]] = 155.0        # its last connection closed later than the turn began
    assert table.takeovers()[to_act[0]] == 165.0
    table._apply_event("standin", {"seat": to_act[0], "bot": "random", "by": "timer", "after": 10}, 165.0)
    assert session.standins == {to_act[0]: "random"} and to_act[0] not in table.takeovers()


def test_a_log_naming_a_bot_no_longer_registered_still_loads_and_its_seat_plays_randomly(tmp_path):
    from ohhell.server.tables import Table

    table = Table("t", Manager())  # type: ignore[arg-type]
    table._apply_event("create", {"title": "", "private": False, "admin": "x", "away": {"after": 10, "bot": "gone"},
                                  "rules": ohhell.Rules(3, hand_sizes=[2]).to_dict(),
                                  "seats": [{"kind": "human"}, {"kind": "bot", "bot": "gone"},
                                            {"kind": "bot", "bot": "random"}]}, 1.0)
    table._apply_event("start", {"game": 1, "seed": "s", "names": ["A", "B", "C"]}, 2.0)
    table._apply_event("standin", {"seat": 0, "bot": "gone", "by": "creator"}, 3.0)
    assert table.session is not None and table.session.bot_name(1) == "gone"
    assert table.session.standins == {0: "gone"}
    seat = table.session.game.to_act
    table._apply_event("act", {"game": 1, "seat": seat, "action": table.game.legal_actions(seat)[0].to_json()}, 4.0)
    assert table.game.action_count == 1
