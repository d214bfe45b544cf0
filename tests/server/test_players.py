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
from ohhell.coach import analyze_game
from ohhell.server.players import (BOT_RATINGS, analysis_stats, games_of_log, leaderboard, player_stats, rate_games,
                                   seat_figures)
from ohhell.server.storage import Event, open_store
from serverkit import ThreadServer
from test_accounts import AccountClient, browser, db, signup  # noqa: F401 (db: a fixture)

RULES = {"players": 4, "hand_sizes": [1, 2]}


def a_log(seats: list, *, seed: str = "s1", standin_at: "int | None" = None, claim_after: "dict | None" = None,
          rules: dict = RULES, pick=0, private: bool = False, hint_at: "tuple[int, int] | None" = None) -> list[Event]:
    """A table's log: ``seats[s]`` is ``("account", id)``, ``("guest", token)`` or ``("bot", name)``;
    one game played with random legal actions (``pick`` seeds them); ``hint_at`` is ``(action
    number, seat)``: that seat asks for a hint before that action."""
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
        if hint_at is not None and n == hint_at[0]:
            add("hint", {"game": 1, "seat": hint_at[1]})
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
        # its bots are marked as the table marks them: the server's by level, no program's account
        assert page["recent"][0]["bots"] == [None, None, "random", "random"]
        assert page["recent"][0]["account_bots"] == []
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
    assert entry["bots"] == [None] * 4 and entry["account_bots"] == []   # nor who the others were
    assert "secretid" not in repr(stats) and "u2" not in repr(stats)
    # a program's own page says its seat was a bot account's; a person's says nothing of it
    assert player_stats("u2", [g], bot_accounts={"u2"})["recent"][0]["account_bots"] == [1]
    assert player_stats("u1", [g], bot_accounts={"u2"})["recent"][0]["account_bots"] == []
    # at a public table every seat is marked: the server's bots by level, the programs' accounts
    [g] = games_of_log("t2", a_log([("account", "u1"), ("account", "u2"), ("bot", "random"),
                                    ("bot", "expert")]))
    [entry] = player_stats("u1", [g], bot_accounts={"u2"})["recent"]
    assert entry["bots"] == [None, None, "random", "expert"] and entry["account_bots"] == [1]
    history = rate_games([g]).history["u1"]
    assert "secretid" not in repr(history)


# --- points lost, luck and skill from the stored analyses ----------------------------------------

def _figures(g, seed: float = 0.0) -> tuple:
    """Made-up analysis figures for each seat of ``g``, each value its seat's own (the scores
    are the game's: an analysis of another game is never used)."""
    return tuple({"lost_bid": round(3.125 + 111.0625 * s + seed, 4), "lost_play": round(0.375 + 222.0625 * s + seed, 4),
                  "lost": round(3.5 + 333.125 * s + 2 * seed, 4), "lost_se": 0.5, "mistakes": s, "decisions": 7,
                  "score": g.totals[s], "luck": g.totals[s] - 1.0 - s, "skill": 1.0 + s}
                 for s in range(len(g.totals)))


def test_analysis_figures_are_the_own_seats_and_keep_a_private_tables_secrets():
    four = [("account", "u1"), ("account", "u2"), ("bot", "random"), ("bot", "random")]
    [plain] = games_of_log("pub1", a_log(four, pick=1, seed="a"))
    [secret] = games_of_log("secretid", a_log(four, pick=2, seed="b", private=True))
    [hinted] = games_of_log("pub2", a_log(four, pick=3, seed="c", hint_at=(2, 0)))    # u1 asked a hint
    [other] = games_of_log("pub3", a_log(four, pick=4, seed="d", hint_at=(2, 1)))     # u2 asked one
    [unanalysed] = games_of_log("pub4", a_log(four, pick=5, seed="e"))
    [wrong] = games_of_log("pub5", a_log(four, pick=6, seed="f"))
    for i, g in enumerate((plain, secret, hinted, other, unanalysed, wrong)):
        g.finished = 100.0 + i
    assert hinted.helped_seats == {0} and other.helped_seats == {1} and plain.helped_seats == frozenset()
    analyses = {("pub1", 1): _figures(plain), ("secretid", 1): _figures(secret, 0.5),
                ("pub2", 1): _figures(hinted, 1.0), ("pub3", 1): _figures(other, 2.0),
                # an analysis whose scores are not the game's (another game): never used
                ("pub5", 1): tuple(dict(f, score=f["score"] + 1) for f in _figures(wrong))}
    games = [plain, secret, hinted, other, unanalysed, wrong]
    a = analysis_stats("u1", games, analyses)
    assert a["games"] == 4 and a["of"] == 6 and a["helped"] == 1
    by_table = {r["table"]: r for r in a["recent"]}
    assert [r["table"] for r in a["recent"]] == ["pub3", "pub2", None, "pub1"]     # latest first
    for table, g, seed in (("pub1", plain, 0.0), (None, secret, 0.5), ("pub2", hinted, 1.0), ("pub3", other, 2.0)):
        row, own = by_table[table], analyses[(g.table_id, 1)][0]
        assert {k: row[k] for k in own} == own and row["seat"] == 0 and row["hands"] == len(g.hands)
    assert by_table["pub2"]["helped"] and not by_table["pub3"]["helped"]     # another seat's hint is theirs
    assert by_table["pub1"]["analysis"] == "/t/pub1/replay/1#analysis"
    private = by_table[None]
    assert private["private"] and private["analysis"] is None
    assert "secretid" not in repr(a) and "u2" not in repr(a)
    # other seats' figures (each value is its seat's own) appear nowhere
    for g in games:
        for f in analyses.get((g.table_id, 1), ())[1:]:
            assert repr(f["lost_bid"]) not in repr(a) and repr(f["lost"]) not in repr(a)
    # the average leaves out the game with help; average_all counts it
    unhelped = [r for r in a["recent"] if not r["helped"]]
    avg, every = a["average"], a["average_all"]
    assert avg["games"] == 3 and every["games"] == 4
    assert avg["lost"] == round(sum(r["lost"] for r in unhelped) / 3, 3)
    assert avg["lost_bid"] == round(sum(r["lost_bid"] for r in unhelped) / 3, 3)
    assert avg["lost_play"] == round(sum(r["lost_play"] for r in unhelped) / 3, 3)
    assert avg["lost_per_hand"] == round(sum(r["lost"] for r in unhelped) / sum(r["hands"] for r in unhelped), 3)
    assert avg["luck"] == round(sum(r["luck"] for r in unhelped) / 3, 3) and avg["skill"] == 1.0
    assert every["lost"] == round(sum(r["lost"] for r in a["recent"]) / 4, 3)
    # u2 sees their own seat (1) in the same games
    b = analysis_stats("u2", games, analyses)
    assert b["games"] == 4 and all(r["seat"] == 1 for r in b["recent"]) and b["helped"] == 1
    assert {r["table"]: r["lost_bid"] for r in b["recent"]}["pub1"] == analyses[("pub1", 1)][1]["lost_bid"]
    assert analysis_stats("nobody", games, analyses) == {"games": 0, "of": 0, "helped": 0, "average": None,
                                                         "average_all": None, "recent": []}


def test_seat_figures_read_an_analysis_and_refuse_what_is_not_one():
    g = Game(Rules.from_dict({"players": 3, "hand_sizes": [1, 2]}), seed="fig")
    rng = random.Random(1)
    while not g.is_over:
        seat = g.seats_to_act[0]
        g.apply(rng.choice(g.legal_actions(seat)), seat)
    data = analyze_game(g, samples=4, seed=0).to_dict()
    figures = seat_figures(data)
    assert figures is not None and len(figures) == 3
    for f, s in zip(figures, data["seats"]):
        assert f == {k: s[k] for k in f} and "top" not in f      # (the mistakes' words name cards)
        assert {"lost_bid", "lost_play", "lost", "score", "luck", "skill", "mistakes"} <= set(f)
        assert f["score"] == g.totals[s["seat"]]
    assert seat_figures({k: v for k, v in data.items() if k != "hands"}) == figures
    for bad in (None, [], {}, {**data, "format": "x"}, {**data, "seats": []}, {**data, "seats": "x"},
                {**data, "seats": [{**data["seats"][0], "lost": "many"}]},
                {**data, "seats": [{**data["seats"][0], "lost": True}]}):
        assert seat_figures(bad) is None
    # the server's reading of the text stops before the hands: they come last (GameAnalysis.to_dict)
    assert list(data)[-1] == "hands"


def test_the_store_reads_the_analyses_without_their_hands(db):
    """``analysis_times`` lists an account's tables' analyses in one query, ``analysis_summaries``
    reads them without their hands (in parts of 400 keys), leaves a damaged one out."""
    async def go():
        store = open_store(db)
        await store.open()
        try:
            g = Game(Rules.from_dict({"players": 3, "hand_sizes": [1]}), seed="st")
            while not g.is_over:
                seat = g.seats_to_act[0]
                g.apply(g.legal_actions(seat)[0], seat)
            real = analyze_game(g, samples=4, seed=0).to_dict()
            keys = [(f"t{i}", 1 + i % 2) for i in range(430)]
            for i, (t, n) in enumerate(keys):
                await store.add_user_seat("me", t, i % 3, 1.0)
                await store.put_analysis(t, n, real if i == 0 else
                                         {"format": "ohhell.analysis", "seats": [{"i": i, "n": "x,\"hands\":y"}],
                                          "hands": [{"hands": i}]})
            await store.add_user_seat("me", "nohands", 0, 1.0)
            await store.put_analysis("nohands", 1, {"format": "ohhell.analysis", "seats": []})
            await store.add_user_seat("me", "broken", 0, 1.0)
            await store._write("INSERT INTO ohhell_analysis VALUES (?, ?, ?, ?)", ("broken", 1, 2.0, '{"seats": [1,'))
            await store.put_analysis("elsewhere", 1, real)          # a table where "me" never sat
            listed = await store.analysis_times("me")
            assert sorted((t, n) for t, n, _ in listed) == sorted(keys + [("nohands", 1), ("broken", 1)])
            assert await store.analysis_times("nobody") == []
            found = await store.analysis_summaries([*keys, ("nohands", 1), ("broken", 1), ("missing", 1)])
            assert set(found) == set(keys) | {("nohands", 1)}
            assert found[keys[0]][1] == {k: v for k, v in real.items() if k != "hands"}
            assert found[keys[7]][1] == {"format": "ohhell.analysis", "seats": [{"i": 7, "n": "x,\"hands\":y"}]}
            assert found[("nohands", 1)][1] == {"format": "ohhell.analysis", "seats": []}
            assert dict(((t, n), c) for t, n, c in listed)[keys[3]] == found[keys[3]][0]
            assert await store.analysis_summaries([]) == {}
        finally:
            await store.close()
    asyncio.run(go())


def test_played_and_analysed_games_reach_the_players_pages(db, monkeypatch):
    """Two short games played over the real server and analysed by it: a public one (Anna and
    Bert with two bots) and a private friendly table where Anna asks for a hint. Each page's
    figures are its own seat's in the stored analyses, the hinted game is marked and left out of
    the average, and the private table's id is nowhere in the answer."""
    from ohhell.server import tables
    from test_analysis_api import analysis
    monkeypatch.setattr(tables, "HINT_SECONDS", 0.2)
    with ThreadServer(db, analysis_samples=4) as srv, browser(srv) as a, browser(srv) as b:
        signup(a, "anna")
        signup(b, "bert")
        pub = srv.create(RULES, [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "random"},
                                 {"kind": "bot", "bot": "random"}])
        secret = srv.create(RULES, [{"kind": "open"}, {"kind": "bot", "bot": "random"},
                                    {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
                            private=True, help=True)

        async def play(table_id: str, players: dict, hint: "int | None" = None):
            clients = {}
            for seat, (cookies, name) in players.items():
                clients[seat] = AccountClient(srv, table_id, cookies)
                await clients[seat].connect()
                await clients[seat].join(seat, name)
            table = srv.manager.tables[table_id]
            deadline = time.monotonic() + 60
            while table.game is None or not table.game.is_over:
                assert time.monotonic() < deadline
                for seat, c in clients.items():
                    if table.game is not None and not table.game.is_over and table.game.legal_actions(seat):
                        if seat == hint:
                            await c.send({"type": "hint"})
                            got = await c.wait(lambda m: m["type"] in ("hint", "error"))
                            assert got["type"] == "hint", got
                            hint = None
                        await c.send({"type": "act", "action": table.game.legal_actions(seat)[0].to_json()})
                await asyncio.sleep(0.05)
            for c in clients.values():
                await c.close()
        asyncio.run(play(pub["id"], {0: (a.cookies, "anna"), 1: (b.cookies, "bert")}))
        asyncio.run(play(secret["id"], {0: (a.cookies, "anna")}, hint=0))
        stored = {t: analysis(srv, t) for t in (pub["id"], secret["id"])}   # as the replay page gets them

        anna = httpx.get(srv.base + "/api/players/anna").json()
        assert secret["id"] not in repr(anna) and "bert" not in repr(anna["analysis"])
        got = anna["analysis"]
        assert got["games"] == 2 and got["of"] == 2 and got["helped"] == 1
        [helped, plain] = got["recent"]                  # the private game ended last
        assert helped["helped"] and helped["private"] and helped["table"] is None and helped["analysis"] is None
        assert plain["analysis"] == f"/t/{pub['id']}/replay/1#analysis" and not plain["helped"]
        for row, t in ((plain, pub["id"]), (helped, secret["id"])):
            own = stored[t]["seats"][0]
            for k in ("lost_bid", "lost_play", "lost", "lost_se", "mistakes", "decisions", "score", "luck", "skill"):
                assert row[k] == own[k], (k, row[k], own[k])
            assert row["hands"] == 2 and row["seat"] == 0 and row["players"] == 4
        assert got["average"]["games"] == 1 and got["average"]["lost"] == plain["lost"]
        assert got["average"]["luck"] == plain["luck"] and got["average"]["skill"] == plain["skill"]
        assert got["average_all"]["games"] == 2
        assert got["average_all"]["lost"] == round((plain["lost"] + helped["lost"]) / 2, 3)
        assert got["average"]["lost_per_hand"] == round(plain["lost"] / 2, 3)

        bert = httpx.get(srv.base + "/api/players/bert").json()["analysis"]
        [row] = bert["recent"]
        assert bert["games"] == 1 and row["seat"] == 1 and row["lost"] == stored[pub["id"]]["seats"][1]["lost"]
        assert bert["average"]["lost_bid"] == stored[pub["id"]]["seats"][1]["lost_bid"]
        assert httpx.get(srv.base + "/api/players/anna").json()["analysis"] == got
