"""Players' statistics and ratings (``ohhell.server.players``), from the tables' logs only:
logs built by playing real games, a standing-in bot or a guest making a game unrated, the
invariants of the statistics (Hypothesis), and a rated game played over the real server with
two accounts and two bots, read back from ``/api/players/...`` and ``/api/leaderboard``."""

from __future__ import annotations

import asyncio
import random
import time

import httpx
from hypothesis import given, settings, strategies as st

from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server.players import BOT_RATINGS, games_of_log, leaderboard, player_stats, rate_games
from ohhell.server.storage import Event
from serverkit import ThreadServer
from test_accounts import AccountClient, browser, db, signup  # noqa: F401 (db: a fixture)

RULES = {"players": 4, "hand_sizes": [1, 2]}


def a_log(seats: list, *, seed: str = "s1", standin_at: "int | None" = None, claim_after: "dict | None" = None,
          rules: dict = RULES, pick=0, private: bool = False) -> list[Event]:
    """A table's log: ``seats[s]`` is ``("account", id)``, ``("guest", token)`` or ``("bot", name)``;
    one game played with random legal actions (``pick`` seeds them)."""
    ev: list[Event] = []

    def add(kind: str, data: dict) -> None:
        ev.append(Event(len(ev), kind, data, 1000.0 + len(ev)))
    add("create", {"title": "", "private": private, "rules": Rules.from_dict(rules).to_dict(), "admin": "x",
                   "seats": [{"kind": "bot", "bot": v} if k == "bot" else {"kind": "open"} for k, v in seats]})
    for s, (k, v) in enumerate(seats):
        if k == "account":
            add("join", {"seat": s, "name": v, "token": f"tok-{s}", "account": v})
        elif k == "guest":
            add("join", {"seat": s, "name": v, "token": v})
    names = [v for _, v in seats]
    add("start", {"game": 1, "seed": seed, "names": names})
    game = Game(Rules.from_dict(rules), seed=seed, names=names)
    rng = random.Random(pick)
    n = 0
    while not game.is_over:
        seat = game.seats_to_act[0]
        action = rng.choice(game.legal_actions(seat))
        if standin_at is not None and n == standin_at:
            add("standin", {"seat": 0, "bot": "random", "by": "timer"})
        add("act", {"game": 1, "seat": seat, "action": action.to_json()})
        game.apply(action, seat)
        n += 1
    for s, account in (claim_after or {}).items():
        add("claim", {"seat": s, "account": account})
    return ev


def test_a_log_gives_its_games_with_accounts_and_whether_rated():
    log = a_log([("account", "u1"), ("account", "u2"), ("bot", "random"), ("bot", "expert")])
    [g] = games_of_log("t1", log)
    assert g.accounts == ["u1", "u2", None, None] and g.bots == [None, None, "random", "expert"]
    assert g.rated and len(g.hands) == 2 and g.replay == "/t/t1/replay/1"
    # a bot standing in for a person during the game: not rated
    [g] = games_of_log("t1", a_log([("account", "u1"), ("account", "u2"), ("bot", "random"),
                                    ("bot", "expert")], standin_at=3))
    assert not g.rated
    # a guest at the table: not rated, even once the guest claims the seat by signing up
    # (the game counts in their statistics)
    [g] = games_of_log("t1", a_log([("guest", "gtok"), ("account", "u2"), ("bot", "random"), ("bot", "random")],
                                   claim_after={0: "u9"}))
    assert g.accounts == ["u9", "u2", None, None] and not g.rated
    assert player_stats("u9", [g])["games"] == 1


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 5), st.lists(st.integers(1, 4), min_size=1, max_size=4))
def test_the_statistics_add_up(pick, players, sizes):
    rules = {"players": players, "hand_sizes": sizes}
    seats = [("account", "me")] + [("bot", "random")] * (players - 1)
    [g] = games_of_log("t", a_log(seats, rules=rules, pick=pick, seed=f"s{pick}"))
    stats = player_stats("me", [g])
    assert stats["hands"] == len(sizes) == stats["bids"]["overall"]["bids"]
    assert sum(v["bids"] for v in stats["bids"]["by_cards"].values()) == len(sizes)
    assert sum(v["bids"] for v in stats["bids"]["by_seat"].values()) == len(sizes)
    assert stats["bids"]["overall"]["made"] == sum(h.bids[0] == h.tricks_won[0] for h in g.hands)
    assert stats["points"] == g.totals[0]
    assert all(k.endswith(f"/{players}") for k in stats["bids"]["by_seat"])
    assert set(stats["bids"]["by_cards"]) == {str(s) for s in sizes}


def test_ratings_move_with_results_and_bots_stay_fixed():
    games = []
    for i in range(6):
        games += games_of_log(f"t{i}", a_log([("account", "a"), ("account", "b"), ("bot", "random"),
                                              ("bot", "expert")], pick=i, seed=f"r{i}"))
    ratings = rate_games(games)
    assert set(ratings.current) == {"a", "b"}          # bots are anchors, never rated
    assert ratings.current["a"]["games"] == 6 and len(ratings.history["a"]) == 6
    assert ratings.by_players[4]["a"] == ratings.current["a"]
    assert ratings.current["a"]["sigma"] < 8.3333       # more certain after games
    board = leaderboard(ratings, {"a": "Anna", "b": "Bert"}, min_games=5)
    assert [r["username"] for r in board] == sorted(["Anna", "Bert"], key=lambda n: -ratings.current[n[0].lower()]["ordinal"])
    assert [r["rank"] for r in board] == ([1, 1] if board[0]["ordinal"] == board[1]["ordinal"] else [1, 2])
    assert leaderboard(ratings, {}, min_games=7) == [] and leaderboard(ratings, {}, players=5, min_games=1) == []
    assert BOT_RATINGS["expert"][0] > BOT_RATINGS["intermediate"][0] > BOT_RATINGS["random"][0]


def test_a_rated_game_over_the_server_reaches_the_players_pages(db):
    with ThreadServer(db) as srv, browser(srv) as a, browser(srv) as b:
        signup(a, "anna")
        signup(b, "bert")
        t = srv.create(RULES, [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "random"},
                               {"kind": "bot", "bot": "random"}])

        async def play():
            ca, cb = AccountClient(srv, t["id"], a.cookies), AccountClient(srv, t["id"], b.cookies)
            await ca.connect()
            await cb.connect()
            await ca.join(0, "anna")
            await cb.join(1, "bert")
            table = srv.manager.tables[t["id"]]
            deadline = time.monotonic() + 30
            while table.game is None or not table.game.is_over:
                assert time.monotonic() < deadline
                for seat, c in ((0, ca), (1, cb)):
                    if table.game is not None and not table.game.is_over:
                        legal = table.game.legal_actions(seat)
                        if legal:
                            await c.send({"type": "act", "action": legal[0].to_json()})
                await asyncio.sleep(0.1)
            await ca.close()
            await cb.close()
        asyncio.run(play())
        record = srv.record(t["id"])
        page = httpx.get(srv.base + "/api/players/ANNA").json()
        assert page["username"] == "anna" and page["games"] == 1 and page["hands"] == 2
        assert page["points"] == record["totals"][0] and page["recent"][0]["totals"] == record["totals"]
        made = sum(h["bids"][0] == h["tricks_won"][0] for h in record["hands"])   # from the published record
        assert page["bids"]["overall"] == {"bids": 2, "made": made}
        assert page["rating"]["games"] == 1 and page["rating"]["mu"] != 25.0
        assert len(page["history"]) == 1 and page["recent"][0]["replay"] == f"/t/{t['id']}/replay/1"
        assert page["recent"][0]["rated"] is True
        board = httpx.get(srv.base + "/api/leaderboard", params={"min_games": 1, "players": 4}).json()
        assert sorted(r["username"] for r in board["rows"]) == ["anna", "bert"]
        assert httpx.get(srv.base + "/api/leaderboard").json()["rows"] == []       # 5 games needed
        assert httpx.get(srv.base + "/api/players/nobody").status_code == 404
        assert httpx.get(srv.base + "/api/leaderboard", params={"players": "x"}).status_code == 400


def test_a_private_tables_games_show_no_link_and_no_other_names():
    """A private table is reached only by its link: a public player page lists its games
    (they count) without the table's id, its replay link or the other players' names."""
    [g] = games_of_log("secretid", a_log([("account", "u1"), ("account", "u2"), ("bot", "random"),
                                          ("bot", "random")], private=True))
    stats = player_stats("u1", [g])
    [entry] = stats["recent"]
    assert entry["table"] is None and entry["replay"] is None and entry["private"]
    assert entry["names"] == ["u1", None, None, None]
    assert "secretid" not in repr(stats) and "u2" not in repr(stats)
    history = rate_games([g]).history["u1"]
    assert "secretid" not in repr(history)
