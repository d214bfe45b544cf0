"""Players' games, statistics and ratings, worked out from the tables' event logs.

Nothing here comes from a browser: each table's log is replayed (:func:`games_of_log`) into
the games it holds, with the account (if any) behind each seat. A seat's account is the one
its player joined with, or the one that later claimed that player's guest seat (a ``claim``
event binds the seat's tenure, so the games played before the claim count too).

* :func:`player_stats`: games, hands, average points per hand, bids made exactly (overall,
  by the number of cards, by seat relative to the dealer) and the recent games.
* :func:`analysis_stats`: points lost per game (in bidding, in play, in all), luck and skill,
  from the stored analyses of the games (:mod:`ohhell.server.analysis_jobs`), of the
  account's own seats only.
* :func:`rate_games`: OpenSkill (Plackett-Luce) ratings over the *rated* games, oldest
  first: every seat a signed-in player or a bot, no bot standing in for a person at any
  point of the game, the game finished. Bots have fixed ratings (:data:`BOT_RATINGS`) and
  anchor the scale; they are not changed by the games they play.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..actions import parse_action
from ..coach.analysis import ANALYSIS_FORMAT
from ..game import Game
from ..rules import Rules
from ..scoring import standings
from ..state import HandRecord

__all__ = ["PlayedGame", "games_of_log", "player_stats", "analysis_stats", "seat_figures", "rate_games",
           "BOT_RATINGS", "MIN_GAMES", "ANALYSED_SHOWN", "leaderboard"]

#: The fixed ``(mu, sigma)`` of each bot in rated games (OpenSkill's scale: a new player
#: starts at 25 ± 8.3).  They order the levels as the benchmarks do; the numbers themselves
#: are anchors, not measurements.  A bot not listed counts as ``intermediate``.
BOT_RATINGS: dict[str, tuple[float, float]] = {
    "random": (5.0, 1.0), "beginner": (15.0, 1.0), "heuristic": (20.0, 1.0), "intermediate": (25.0, 1.0),
    "learned": (28.0, 1.0), "expert": (32.0, 1.0), "expert-2026.11": (31.0, 1.0)}
#: Rated games a player needs to be on a leaderboard.
MIN_GAMES = 5


@dataclass
class PlayedGame:
    """One finished game of a table, as the log tells it."""

    table_id: str
    number: int
    finished: float                       # the time its last action was logged
    names: list[str]
    accounts: list["str | None"]          # seat -> account id (None: a guest or a bot)
    bots: list["str | None"]              # seat -> bot name (None: a person)
    totals: tuple[int, ...]
    hands: tuple[HandRecord, ...]
    helped: bool                          # a bot played for a person, or someone used a hint or undo
    signed_in: list[bool] = field(default_factory=list)   # seat -> its account was signed in from the start
    private: bool = False                 # a private table: its id (its link) is never shown
    event: "str | None" = None            # the duplicate event it belongs to (docs/events.md), if any
    helped_seats: frozenset = frozenset()  # the seats that had help: a hint, a take-back, a bot playing for them

    @property
    def rated(self) -> bool:
        """Every seat a signed-in player (from the start: a guest game claimed later is not
        rated) or a bot, and nobody helped (no stand-in, no hint, no undo)."""
        return not self.helped and all(b is not None or (i < len(self.signed_in) and self.signed_in[i])
                                       for i, b in enumerate(self.bots))

    @property
    def replay(self) -> "str | None":
        """The replay's address (``None`` for a private table: its link is its creator's to give)."""
        return None if self.private else f"/t/{self.table_id}/replay/{self.number}"


def games_of_log(table_id: str, events: Iterable[Any]) -> list[PlayedGame]:
    """The finished games of one table's log (its :class:`~ohhell.server.storage.Event` list).

    :raises ValueError: (or another ``OhHellError``) when the log cannot be replayed.
    """
    rules: "Rules | None" = None
    tokens: list["str | None"] = []        # seat -> the token hash of the person sitting there
    bots: list["str | None"] = []
    standin: list[bool] = []
    owner: dict[str, str] = {}             # token hash -> account
    game: "Game | None" = None
    number = 0
    at_start: list["str | None"] = []
    names: list[str] = []
    signed: set[str] = set()
    bots_at_start: list["str | None"] = []
    helped = False
    help_seats: set[int] = set()
    private = False
    event: "str | None" = None
    done: list[tuple[PlayedGame, list["str | None"]]] = []
    for e in events:
        kind, data = e.kind, e.data
        if kind == "create":
            rules = Rules.from_dict(data["rules"])
            private = bool(data.get("private"))
            event = (data.get("event") or {}).get("id")
            n = len(data["seats"])
            tokens, standin = [None] * n, [False] * n
            bots = [s.get("bot") if s["kind"] == "bot" else None for s in data["seats"]]
            for i, s in enumerate(data["seats"]):   # a duplicate event's seats are taken at creation
                if s["kind"] == "human" and s.get("token"):
                    tokens[i] = s["token"]
                    if s.get("account"):
                        owner[s["token"]] = s["account"]
        elif kind == "join":
            s = data["seat"]
            tokens[s], bots[s], standin[s] = data["token"], None, False
            if data.get("account"):
                owner[data["token"]] = data["account"]
        elif kind == "claim":
            token = tokens[data["seat"]]
            if token is not None:
                owner[token] = data["account"]
        elif kind == "leave":
            tokens[data["seat"]], standin[data["seat"]] = None, False
        elif kind == "set_seat":
            s = data["seat"]
            tokens[s], standin[s] = None, False
            bots[s] = data.get("bot") if data["kind"] == "bot" else None
        elif kind == "standin":
            standin[data["seat"]] = True
            if game is not None and not game.is_over:
                helped = True
                help_seats.add(data["seat"])
        elif kind == "reclaim":
            standin[data["seat"]] = False
        elif kind == "undo":   # a friendly game's take-back: replayed, and the game is not rated
            assert game is not None
            for _ in range(data["count"]):
                game.undo()
            helped = True
            if "seat" in data:
                help_seats.add(data["seat"])
        elif kind == "hint":   # a friendly game where someone asked for a hint is not rated
            if game is not None and not game.is_over:
                helped = True
                if "seat" in data:
                    help_seats.add(data["seat"])
        elif kind == "start":
            assert rules is not None
            number = data["game"]
            game = Game(rules, seed=data["seed"], names=data["names"])
            at_start, bots_at_start, names = list(tokens), list(bots), list(data["names"])
            signed = {t for t in tokens if t is not None and t in owner}
            helped = any(standin)
            help_seats = {s for s, x in enumerate(standin) if x}
        elif kind == "act":
            assert game is not None
            game.apply(parse_action(data["action"]), data["seat"])
            if game.is_over:
                played = PlayedGame(table_id, number, e.ts, names, [],
                                    bots_at_start, game.totals, game.past_hands, helped,
                                    [t is not None and t in signed for t in at_start], private, event,
                                    frozenset(help_seats))
                done.append((played, at_start))
    for played, seat_tokens in done:   # claims made later count for the tenure they bind
        played.accounts = [owner.get(t) if t is not None else None for t in seat_tokens]
    return [p for p, _ in done]


def _place(game: PlayedGame, seat: int) -> int:
    return next(place for place, s, _ in standings(game.totals) if s == seat)


def _made(counts: dict, key: Any, made: bool) -> None:
    entry = counts.setdefault(key, {"bids": 0, "made": 0})
    entry["bids"] += 1
    entry["made"] += int(made)


def player_stats(account: str, games: Iterable[PlayedGame], recent: int = 20,
                 bot_accounts: "Iterable[str]" = ()) -> dict:
    """An account's statistics over ``games`` (those it did not sit in are skipped).

    ``bids.by_seat`` is keyed by the seat's place after the dealer: ``1`` bids first (the
    dealer's left), the dealer is ``n`` (the number of players), as ``"1/4"`` ... ``"4/4"``.
    Each recent game marks its bots as the table does: ``bots[s]`` the level of the server's
    bot that held seat ``s`` as the game started (``None``: a person), ``account_bots`` the
    seats a bot account (``bot_accounts``, docs/bots-api.md) held; a private table's other
    seats are left unsaid, as their names are.
    """
    programs = set(bot_accounts)
    mine = sorted(((g, g.accounts.index(account)) for g in games if account in g.accounts),
                  key=lambda x: x[0].finished, reverse=True)
    hands = points = 0
    overall: dict = {}
    by_cards: dict = {}
    by_seat: dict = {}
    for g, seat in mine:
        n = len(g.totals)
        for h in g.hands:
            hands += 1
            points += h.scores[seat]
            made = h.bids[seat] == h.tricks_won[seat]
            _made(overall, "all", made)
            _made(by_cards, h.hand_size, made)
            _made(by_seat, f"{(seat - h.dealer - 1) % n + 1}/{n}", made)
    return {"games": len(mine), "hands": hands, "points": points,
            "points_per_hand": round(points / hands, 3) if hands else None,
            "bids": {"overall": overall.get("all", {"bids": 0, "made": 0}),
                     "by_cards": {str(k): v for k, v in sorted(by_cards.items())},
                     "by_seat": dict(sorted(by_seat.items(), key=lambda kv: (int(kv[0].split("/")[1]),
                                                                            int(kv[0].split("/")[0]))))},
            # a private table's game is listed without its id, link or the other players' names
            "recent": [{"table": None if g.private else g.table_id, "game": g.number, "finished": g.finished,
                        "players": len(g.totals), "seat": seat,
                        "names": [n if i == seat or not g.private else None for i, n in enumerate(g.names)],
                        "bots": [b if i == seat or not g.private else None for i, b in enumerate(g.bots)],
                        "account_bots": [i for i, a in enumerate(g.accounts)
                                         if a is not None and a in programs and (i == seat or not g.private)],
                        "totals": list(g.totals), "points": g.totals[seat], "place": _place(g, seat),
                        "rated": g.rated, "private": g.private, "replay": g.replay}
                       for g, seat in mine[:recent]]}


#: The analysed games a player's page lists and charts, the latest first.
ANALYSED_SHOWN = 50
#: What a player's page takes from each seat of a game's analysis (``GameAnalysis.seats``;
#: docs/coach.md says what they mean); the first four every analysis has.
_SEAT_FIGURES = ("lost_bid", "lost_play", "lost", "score", "lost_se", "mistakes", "decisions", "luck", "skill")


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def seat_figures(analysis: Any) -> "tuple[dict, ...] | None":
    """The figures of each seat of a stored analysis (:meth:`ohhell.coach.GameAnalysis.to_dict`,
    with or without its hands) that a player's page uses, or ``None`` when it has none readable.
    Its largest mistakes are left out (their words name the seat's cards)."""
    if not isinstance(analysis, dict) or analysis.get("format") != ANALYSIS_FORMAT:
        return None
    seats = analysis.get("seats")
    if not isinstance(seats, list) or not seats:
        return None
    out = []
    for s in seats:
        if not isinstance(s, dict) or not all(_is_number(s.get(k)) for k in _SEAT_FIGURES[:4]):
            return None
        out.append({k: s[k] for k in _SEAT_FIGURES if _is_number(s.get(k))})
    return tuple(out)


def _mean(values: list, digits: int = 3) -> "float | None":
    return round(sum(values) / len(values), digits) if values else None


def _average(rows: list[dict]) -> "dict | None":
    """The average per game of analysed games' rows (``None`` for none)."""
    if not rows:
        return None
    lost = [r["lost"] for r in rows]
    hands = sum(r["hands"] for r in rows)
    lucky = [r for r in rows if r["luck"] is not None and r["skill"] is not None]
    spread = None
    if len(lost) > 1:   # the standard error of the mean, from the spread between the games
        m = sum(lost) / len(lost)
        spread = round(math.sqrt(sum((x - m) ** 2 for x in lost) / (len(lost) - 1) / len(lost)), 3)
    return {"games": len(rows), "hands": hands,
            "lost": _mean(lost), "lost_se": spread,
            "lost_bid": _mean([r["lost_bid"] for r in rows]), "lost_play": _mean([r["lost_play"] for r in rows]),
            "lost_per_hand": round(sum(lost) / hands, 3) if hands else None,
            "mistakes": _mean([r["mistakes"] for r in rows if r["mistakes"] is not None]),
            "score": _mean([r["score"] for r in rows]),
            "luck_games": len(lucky), "luck": _mean([r["luck"] for r in lucky]),
            "skill": _mean([r["skill"] for r in lucky])}


def analysis_stats(account: str, games: Iterable[PlayedGame],
                   analyses: "dict[tuple[str, int], tuple[dict, ...]]", recent: int = ANALYSED_SHOWN) -> dict:
    """What the games' analyses say of an account's own seats (games it did not sit in are
    skipped): ``analyses[(table_id, game)]`` is a game's :func:`seat_figures`.

    Points lost (in bidding, in play, in all), luck and skill per game, averaged over the
    analysed games where the account's seat had no help (``average``; ``average_all`` counts
    them too), and the analysed games, latest first, each with a link to its replay's
    analysis. A private table's game shows its own figures only, with no table id or link,
    like :func:`player_stats`; an analysis whose seats do not match the game is never used.
    """
    mine = sorted(((g, g.accounts.index(account)) for g in games if account in g.accounts),
                  key=lambda x: x[0].finished, reverse=True)
    rows = []
    for g, seat in mine:
        seats = analyses.get((g.table_id, g.number))
        if seats is None or len(seats) != len(g.totals) or seats[seat]["score"] != g.totals[seat]:
            continue
        f = seats[seat]
        rows.append({"table": None if g.private else g.table_id, "game": g.number, "finished": g.finished,
                     "players": len(g.totals), "seat": seat, "hands": len(g.hands),
                     "lost_bid": f["lost_bid"], "lost_play": f["lost_play"], "lost": f["lost"],
                     "lost_se": f.get("lost_se"), "mistakes": f.get("mistakes"), "decisions": f.get("decisions"),
                     "score": f["score"], "luck": f.get("luck"), "skill": f.get("skill"),
                     "helped": seat in g.helped_seats, "private": g.private,
                     "analysis": None if g.private else f"/t/{g.table_id}/replay/{g.number}#analysis"})
    return {"games": len(rows), "of": len(mine), "helped": sum(r["helped"] for r in rows),
            "average": _average([r for r in rows if not r["helped"]]), "average_all": _average(rows),
            "recent": rows[:recent]}


@dataclass
class Ratings:
    """Every account's rating after the rated games, with its history."""

    current: dict[str, dict] = field(default_factory=dict)     # account -> {mu, sigma, ordinal, games}
    by_players: dict[int, dict[str, dict]] = field(default_factory=dict)   # player count -> same
    history: dict[str, list[dict]] = field(default_factory=dict)


def rate_games(games: Iterable[PlayedGame]) -> Ratings:
    """OpenSkill ratings over the rated games, oldest first (overall, and per player count)."""
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    out = Ratings()
    state: dict[str, Any] = {}
    per_count: dict[int, dict[str, Any]] = {}
    for g in sorted((g for g in games if g.rated), key=lambda g: (g.finished, g.table_id, g.number)):
        n = len(g.totals)
        places = {s: p for p, s, _ in standings(g.totals)}
        for pool, key in ((state, None), (per_count.setdefault(n, {}), n)):
            teams = []
            for s in range(n):
                account = g.accounts[s]
                if account is not None:
                    teams.append([pool.get(account) or model.rating(name=account)])
                else:
                    mu, sigma = BOT_RATINGS.get(g.bots[s] or "", BOT_RATINGS["intermediate"])
                    teams.append([model.rating(mu=mu, sigma=sigma)])
            rated = model.rate(teams, ranks=[places[s] for s in range(n)])
            for s in range(n):
                account = g.accounts[s]
                if account is None:
                    continue   # bots keep their fixed rating
                pool[account] = rated[s][0]
                board = out.current if key is None else out.by_players.setdefault(n, {})
                games_so_far = board.get(account, {}).get("games", 0) + 1
                r = rated[s][0]
                board[account] = {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3),
                                  "ordinal": round(r.ordinal(), 3), "games": games_so_far}
                if key is None:
                    out.history.setdefault(account, []).append(
                        {"finished": g.finished, "table": None if g.private else g.table_id, "game": g.number,
                         "players": n,
                         **board[account]})
    return out


def leaderboard(ratings: Ratings, names: dict[str, str], players: "int | None" = None,
                min_games: int = MIN_GAMES) -> list[dict]:
    """The players with at least ``min_games`` rated games, best ordinal (mu - 3 sigma) first:
    overall, or at tables of ``players``."""
    board = ratings.current if players is None else ratings.by_players.get(players, {})
    rows = [{"username": names.get(a, a), **r} for a, r in board.items() if r["games"] >= min_games]
    rows.sort(key=lambda r: (-r["ordinal"], -r["games"], r["username"].casefold()))
    out: list[dict] = []
    for i, r in enumerate(rows):   # equal ratings share a rank
        rank = out[-1]["rank"] if out and out[-1]["ordinal"] == r["ordinal"] else i + 1
        out.append({"rank": rank, **r})
    return out


class PlayerPages:
    """The players' pages and the leaderboard: what they read, worked out from the logs of
    the tables where accounts sat (``ohhell_user_seats``), kept until a game finishes on this
    server (or :attr:`ttl` seconds, for another server on the same database)."""

    ttl = 30.0

    def __init__(self, store: Any, manager: Any = None) -> None:
        import asyncio
        self.store = store
        self.manager = manager
        self._key: Any = None
        self._lock = asyncio.Lock()
        self._at = -1e18
        self._games: list[PlayedGame] = []
        self._ratings = Ratings()
        # (table, game) -> (when its analysis was stored, its seat_figures or None): an analysis
        # is read once (and again only when it is replaced), so a page of hundreds of analysed
        # games costs one small query
        self._figures: dict[tuple[str, int], tuple[float, "tuple[dict, ...] | None"]] = {}

    async def _refresh(self) -> tuple[list[PlayedGame], Ratings]:
        import logging
        import time
        async with self._lock:
            key = None if self.manager is None else sum(len(t.finished) for t in self.manager.tables.values())
            if time.monotonic() - self._at < self.ttl and key == self._key:
                return self._games, self._ratings
            self._key = key
            games: list[PlayedGame] = []
            for table_id in await self.store.account_tables():
                try:
                    games.extend(games_of_log(table_id, await self.store.load(table_id)))
                except Exception as e:   # a damaged log: left out, as the server leaves it out
                    logging.getLogger("ohhell.server").error("table %s is left out of the ratings: %s",
                                                             table_id, e)
            self._games, self._ratings, self._at = games, rate_games(games), time.monotonic()
            return games, self._ratings

    async def _analyses(self, account: str) -> "dict[tuple[str, int], tuple[dict, ...]]":
        """The :func:`seat_figures` of every stored analysis at the tables where ``account`` sat:
        one query for when each was stored, and one more for those not read before."""
        listed = await self.store.analysis_times(account)
        stale = [(t, g) for t, g, created in listed if self._figures.get((t, g), (None,))[0] != created]
        if stale:
            found = await self.store.analysis_summaries(stale)
            when = {(t, g): created for t, g, created in listed}
            for key in stale:
                created, data = found.get(key, (when[key], None))   # (a damaged one: not read again)
                self._figures[key] = (created, seat_figures(data))
        out = {}
        for t, g, _ in listed:
            figures = self._figures.get((t, g), (0.0, None))[1]
            if figures is not None:
                out[(t, g)] = figures
        return out

    async def player(self, request: Any) -> Any:
        """``GET /api/players/{username}``."""
        from starlette.responses import JSONResponse
        from .accounts import username_key
        raw = request.path_params["username"]
        user = await self.store.user_by_key(username_key(raw[:100]))
        if user is None:
            return JSONResponse({"error": "no_player", "message": f"there is no player {raw[:40]!r}"},
                                status_code=404)
        games, ratings = await self._refresh()
        account = user["user_id"]
        # a duplicate event's game is shown once the whole event is over (its deals are still
        # being played at other tables until then)
        revealed: set[str] = getattr(self.manager, "events_revealed", set()) if self.manager is not None else set()
        shown = [g for g in games if g.event is None or g.event in revealed]
        programs = await self.store.bot_accounts()   # the programs' accounts (docs/bots-api.md)
        stats = player_stats(account, shown, bot_accounts=programs)
        analysed = analysis_stats(account, shown, await self._analyses(account))
        bot = account in programs
        return JSONResponse({"username": user["username"], "since": user["created"], "bot": bot, **stats,
                             "analysis": analysed,
                             "rating": ratings.current.get(account),
                             "ratings_by_players": {str(n): b[account] for n, b in sorted(ratings.by_players.items())
                                                    if account in b},
                             "history": ratings.history.get(account, [])[-500:]},
                            headers={"cache-control": "no-cache"})

    async def leaderboard(self, request: Any) -> Any:
        """``GET /api/leaderboard?players=N&min_games=K``."""
        from starlette.responses import JSONResponse
        q = request.query_params
        try:
            players = int(q["players"]) if q.get("players") else None
            min_games = int(q.get("min_games", MIN_GAMES))
            if players is not None and not 3 <= players <= 7 or not 1 <= min_games <= 1000:
                raise ValueError
        except ValueError:
            return JSONResponse({"error": "bad_query", "message": "players is 3 to 7 and min_games 1 to 1000"},
                                status_code=400)
        _, ratings = await self._refresh()
        users = await self.store.list_users()
        names = {u["user_id"]: u["username"] for u in users}
        bots = {u["username"] for u in users if u["bot"]}
        rows = leaderboard(ratings, names, players, min_games)[:200]
        for row in rows:   # a program's account is marked as one (docs/bots-api.md)
            row["bot"] = row["username"] in bots
        return JSONResponse({"players": players, "min_games": min_games, "rows": rows},
                            headers={"cache-control": "no-cache"})

    def routes(self, page: Any) -> list:
        """The pages (``page(name)`` serves a static page) and their API."""
        from starlette.routing import Route
        return [Route("/players/{username}", page("player.html")), Route("/leaderboard", page("leaderboard.html")),
                Route("/api/players/{username}", self.player, methods=["GET"]),
                Route("/api/leaderboard", self.leaderboard, methods=["GET"])]
