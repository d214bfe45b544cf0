"""The table session under every front end: whose turn, bot turns, simultaneous bids, away seats, saving."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import ohhell
from ohhell import Bid, Game, IllegalActionError, Rules
from ohhell.bots import Bot, Budget, Decision, TableSession, default_bot, make, play_game
from ohhell.game import BID


@st.composite
def rules_strategy(draw) -> Rules:
    """Small games of any variant (hook and simultaneous bidding exclude each other)."""
    n = draw(st.integers(3, 5))
    sizes = draw(st.lists(st.integers(1, 52 // n), min_size=1, max_size=3))
    hook = draw(st.booleans())
    return Rules(n, hand_sizes=sizes, hook=hook, simultaneous_bidding=not hook and draw(st.booleans()),
                 must_trump=draw(st.booleans()), no_trump=draw(st.sampled_from(["last", "largest", "never"])))


def reference_play(game: Game, bots, budget=None, on_action=None) -> Game:
    """The loop ``play_game`` ran before the session existed (kept here as the reference)."""
    while not game.is_over:
        if game.phase == BID and game.rules.simultaneous_bidding:
            pending = game.seats_to_act
            views = {s: game.view(s) for s in pending}
            for s in pending:
                action = bots[s].act(views[s], budget)
                game.apply(action, seat=s)
                if on_action:
                    on_action(game, s, action)
            continue
        seat = game.to_act
        action = bots[seat].act(game.view(seat), budget)
        game.apply(action)
        if on_action:
            on_action(game, seat, action)
    return game


class Recorder(Bot):
    """Plays the first legal action and remembers every view it was given."""

    name = "recorder"

    def __init__(self) -> None:
        self.views = []

    def decide(self, view, budget=None):
        self.views.append(view)
        return Decision(view.legal_actions()[0])


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@settings(max_examples=25, deadline=None)
@given(rules=rules_strategy(), seed=st.integers(0, 2 ** 32),
       kinds=st.lists(st.sampled_from(["random", "heuristic", "beginner"]), min_size=7, max_size=7))
def test_a_session_driven_game_equals_the_direct_loop(rules, seed, kinds):
    n = rules.players
    seen_a: list = []
    seen_b: list = []
    a = play_game(Game(rules, seed=seed), [make(kinds[s], seed=f"{seed}/{s}") for s in range(n)],
                  on_action=lambda g, s, x: seen_a.append((s, x)))
    b = reference_play(Game(rules, seed=seed), [make(kinds[s], seed=f"{seed}/{s}") for s in range(n)],
                       on_action=lambda g, s, x: seen_b.append((s, x)))
    assert a.is_over and a.fingerprint() == b.fingerprint()
    assert seen_a == seen_b and len(seen_a) == a.action_count
    # What each applied action completed: every trick once, every hand once, every reveal once.
    session = TableSession(Game(rules, seed=seed), [make(kinds[s], seed=f"{seed}/{s}") for s in range(n)])
    applied = session.run_bots(sleep=None)
    assert session.game.fingerprint() == b.fingerprint() and [(x.seat, x.action) for x in applied] == seen_b
    assert [x.trick for x in applied if x.trick] == [t for h in b.past_hands for t in h.tricks]
    assert [x.hand for x in applied if x.hand] == list(b.past_hands)
    reveals = [i for i, x in enumerate(applied) if x.revealed]
    assert len(reveals) == (rules.hand_count if rules.simultaneous_bidding else 0)
    hidden = [x for x in applied if x.hidden]
    assert len(hidden) == (rules.hand_count * (n - 1) if rules.simultaneous_bidding else 0)
    assert all(isinstance(applied[i].action, Bid) and isinstance(applied[i + 1].action, ohhell.Play)
               for i in reveals)


def test_simultaneous_bids_come_from_views_taken_before_any_bid_of_the_round():
    rules = Rules(4, hand_sizes=[3, 2], simultaneous_bidding=True)
    bots = [None, Recorder(), Recorder(), Recorder()]
    session = TableSession(Game(rules, seed=5), bots)
    turns = session.due()
    assert [t.seat for t in turns] == [1, 2, 3] and session.outside_to_act() == [0]
    # A bot's bid leaves the other turns of the round valid; the person may bid in between.
    assert session.complete(turns[0], turns[0].decide()) is not None
    assert session.due()[0] is turns[1]            # the same turn (the same view) is handed out again
    session.act(0, Bid(1))
    for t in turns[1:]:
        applied = session.complete(t, t.decide())
        assert applied is not None
    assert applied.revealed and session.game.phase != BID
    for bot in bots[1:]:
        view = bot.views[0]
        assert [b for s, b in enumerate(view.bids) if s != view.seat] == [None] * 3   # no bid seen
        assert all(status == "to bid" for s, status in enumerate(view.to_dict()["bid_status"])
                   if s != view.seat)
    # ...and every view of the round was taken before the first bot's bid was applied.
    assert bots[3].views[0].to_dict()["bid_status"][1] == "to bid"
    # Once the round is over, its turns are stale: an answer is dropped, nothing applied.
    before = session.game.fingerprint()
    assert session.complete(turns[1], Bid(0)) is None
    assert session.game.fingerprint() == before


def test_outside_seats_bots_and_next_seat():
    rules = Rules(3, hand_sizes=[2])
    session = TableSession(Game(rules, seed=3, dealer=0), [None, "random", None], seed=1)
    assert session.next_seat() == 1 and session.bots_to_act() == [1] and session.outside_to_act() == []
    with pytest.raises(IllegalActionError, match="played by a bot"):
        session.act(1, Bid(0))
    (applied,) = session.run_bots(sleep=None)
    assert applied.seat == 1 and applied.by_bot and session.next_seat() == 2
    assert session.run_bots(sleep=None) == []      # a person is to act: no bot is due
    with pytest.raises(ValueError, match="unknown bot"):
        TableSession(Game(rules), [None, "nobody", None])
    with pytest.raises(ValueError, match="3 players"):
        TableSession(Game(rules), [None, "random"])


def test_save_hook_runs_once_per_action_for_people_and_bots():
    calls = []
    game = Game(Rules(4, hand_sizes=[3, 2], hook=True), seed=9)
    session = TableSession(game, [None, "random", None, "heuristic"], seed=2,
                           on_action=lambda g, s, a: calls.append((s, a, g.action_count)))
    while not game.is_over:
        session.run_bots(sleep=None)
        for s in session.outside_to_act():
            session.act(s, game.legal_actions(s)[-1])
    assert [(s, a) for s, a, _ in calls] == list(game.actions())
    assert [n for _, _, n in calls] == list(range(1, game.action_count + 1))   # after each action, once


def test_a_rejected_action_leaves_the_session_unchanged():
    calls = []
    game = Game(Rules(4, hand_sizes=[3], simultaneous_bidding=True), seed=4)
    clock = Clock()
    session = TableSession(game, [None, "random", None, "random"], away_after=10, clock=clock,
                           on_action=lambda *a: calls.append(a))
    session.set_away(2)
    turns = session.due()
    state = (game.fingerprint(), session.epoch, session.takeovers(), session.standins, session.away)
    for seat, action in [(0, Bid(9)), (0, "QS"), (1, Bid(0)), (2, "2C"), (5, Bid(0))]:
        with pytest.raises(IllegalActionError):
            session.act(seat, action)
    assert (game.fingerprint(), session.epoch, session.takeovers(), session.standins, session.away) == state
    assert session.due() == turns and all(a is b for a, b in zip(session.due(), turns)) and calls == []
    # A bot's illegal answer is refused the same way, and its turn stays due.
    with pytest.raises(IllegalActionError):
        session.complete(turns[0], Bid(7))
    assert game.fingerprint() == state[0] and session.due()[0] is turns[0] and calls == []


def test_an_away_player_is_played_by_a_stand_in_after_the_timeout_until_back():
    clock = Clock()
    game = Game(Rules(3, hand_sizes=[4]), seed=8, dealer=2)          # seat 0 bids first
    session = TableSession(game, [None, "random", "random"], away_after=30, standin="random",
                           clock=clock, seed="t")
    assert session.takeovers() == {} and session.tick() == []
    clock.now += 20
    session.set_away(0)                           # its turn began 20 s ago; the clock counts from now
    assert session.takeovers() == {0: 1050.0} and session.next_deadline() == 1050.0
    clock.now += 29
    assert session.tick() == [] and session.run_bots(sleep=None) == []
    clock.now += 1
    (applied,) = session.run_bots(sleep=None, limit=1)      # the stand-in bids for seat 0
    assert applied.seat == 0 and applied.standin and session.standins == {0: "random"}
    assert session.bots_to_act() == [1]
    session.run_bots(sleep=None)                            # ...and plays its turns: the game ends
    assert game.is_over
    # The player comes back: the seat is theirs again, and nothing is due for it.
    game2 = Game(Rules(3, hand_sizes=[4]), seed=8, dealer=2)
    session = TableSession(game2, [None, "random", "random"], away_after=0, clock=clock)
    session.set_away(0)
    assert session.tick() == [0]
    with pytest.raises(IllegalActionError, match="stand-in"):
        session.act(0, Bid(0))
    session.set_away(0, False)                              # back: the stand-in stays until reclaimed
    assert session.standins == {0: default_bot()} and session.away == [] and session.bots_to_act() == [0]
    assert session.reclaim(0) and not session.reclaim(0)
    assert session.standins == {} and session.outside_to_act() == [0]
    assert session.run_bots(sleep=None) == [] and session.takeovers() == {}
    session.act(0, Bid(0))


def test_the_away_clock_restarts_for_each_turn_and_seat_order_is_kept():
    clock = Clock()
    game = Game(Rules(3, hand_sizes=[2]), seed=1, dealer=0)           # seat 1 bids first
    session = TableSession(game, [None, None, "random"], away_after=5, clock=clock)
    session.set_away(0)
    session.set_away(1)
    assert session.takeovers() == {1: 1005.0}     # only a seat the table waits for
    clock.now += 3
    session.act(1, Bid(0))
    session.run_bots(sleep=None)
    assert session.takeovers() == {0: 1008.0}     # seat 0's turn began when seat 2 bid
    clock.now += 5
    assert session.tick() == [0] and session.standins == {0: session.standin_name}
    assert session.standin_name == default_bot()


def test_take_back_makes_the_turns_handed_out_before_stale():
    game = Game(Rules(3, hand_sizes=[3]), seed=2, dealer=2)
    session = TableSession(game, [None, Recorder(), Recorder()])
    session.act(0, Bid(1))
    turn = session.due()[0]
    assert session.take_back(0) == 1 and game.action_count == 0
    session.act(0, Bid(1))                       # the same position again: a new turn
    assert session.complete(turn, turn.decide()) is None and game.action_count == 1
    assert session.take_back(1) == 0             # seat 1 has not acted: nothing changes
    assert session.complete(session.due()[0], Bid(0)) is not None


def test_budgets_and_delays_reach_the_bots_and_the_sleeper():
    got = []

    class Budgeted(Recorder):
        def decide(self, view, budget=None):
            got.append((view.seat, budget))
            return super().decide(view, budget)

    slept = []
    game = Game(Rules(3, hand_sizes=[2]), seed=6, dealer=2)
    session = TableSession(game, [Budgeted(), Budgeted(), Budgeted()], budget={1: Budget(iterations=5)},
                           delay=0.5, trick_pause=3.0)
    session.run_bots(sleep=slept.append)
    assert game.is_over and (1, Budget(iterations=5)) in got and (0, None) in got
    assert len(slept) == game.action_count
    assert sorted(set(round(x, 1) for x in slept)) == [0.5, 1.5]   # longer after a finished trick


def test_the_default_bot_is_chosen_once():
    from ohhell.tui.botnames import default_bot_name
    from ohhell.tui.play import default_settings
    from ohhell.tui.saves import seats_of_record
    assert default_bot() in ohhell.bots.names()
    assert default_bot_name() == default_bot() == ohhell.bots.DEFAULT_BOT
    assert default_settings(Rules(4)).seats == [None] + [default_bot()] * 3
    assert seats_of_record({}, 3) == [None, default_bot(), default_bot()]


def test_every_turn_starts_the_away_clock_afresh():
    clock = Clock()
    game = Game(Rules(3, hand_sizes=[5, 4, 3]), seed=12)
    session = TableSession(game, [None, None, None], away_after=5, clock=clock)
    for s in range(3):
        session.set_away(s)
    again = 0
    while not game.is_over:
        clock.now += 1
        seat = session.next_seat()
        session.act(seat, game.legal_actions(seat)[0])
        again += session.next_seat() == seat       # won the trick it completed: its turn again
        if not game.is_over:
            assert session.takeovers() == {session.next_seat(): clock.now + 5}
    assert again > 0


def test_apply_replays_any_seats_action_and_parses_text():
    calls = []
    game = Game(Rules(3, hand_sizes=[2]), seed=3, dealer=0)
    session = TableSession(game, [None, "random", None], on_action=lambda *a: calls.append(a[1:]))
    turn = session.due()[0]
    applied = session.apply(1, "bid 1")                  # a logged bot action, as text
    assert applied.action == Bid(1) and applied.by_bot and calls == [(1, Bid(1))]   # the hook gets the parsed action
    assert not session.is_current(turn) and session.complete(turn, Bid(0)) is None
    with pytest.raises(IllegalActionError):
        session.apply(1, Bid(0))                         # not seat 1's turn: nothing changes
    assert game.action_count == 1 and len(calls) == 1


def test_a_text_front_end_needs_only_the_session():
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[2] / "examples" / "text_table.py"
    spec = importlib.util.spec_from_file_location("text_table", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    answers = iter(["nonsense", "99"])
    said = []

    def ask(view):          # two bad answers first, then the first legal action
        return next(answers, None) or str(view.legal_actions()[0])

    rules = Rules(3, hand_sizes=[2, 1], simultaneous_bidding=True)
    game = module.play(Game(rules, seed=5), [None, "random", "random"], ask, said.append, seed=1)
    assert game.is_over and sum(line.startswith("Seat 1: ") for line in said) == 5    # 2 bids, 3 cards
    # The bots bid first (hidden), then each bad answer is explained and asked again.
    assert said[:4] == ["Seat 2: a hidden bid", "Seat 3: a hidden bid", "not an action: 'nonsense'",
                        "not an action: '99'"]
    assert said[5] == "bids revealed: Seat 1 0, Seat 2 2, Seat 3 0"


def test_bot_name_says_which_bot_plays_a_seat_now_stand_ins_included():
    s = TableSession(Game(Rules(3, hand_sizes=[2]), seed=1), [None, "random", "beginner"])
    assert [s.bot_name(i) for i in range(3)] == [None, "random", "beginner"]
    s.stand_in(0, "random")
    assert s.bot_name(0) == "random"
    s.reclaim(0)
    assert s.bot_name(0) is None


def test_set_away_takes_the_time_the_player_went_away_from_the_front_end():
    clock = Clock()
    game = Game(Rules(3, hand_sizes=[4]), seed=8, dealer=2)          # seat 0 bids first
    session = TableSession(game, [None, "random", "random"], away_after=30, clock=clock)
    clock.now += 20
    session.set_away(0, since=clock.now - 5)      # the front end knows: away since 15 s after the turn began
    assert session.takeovers() == {0: 1045.0}
    session.set_away(0)                           # already away: the mark stays
    assert session.takeovers() == {0: 1045.0}
    session.set_away(0, since=clock.now - 30)     # the turn's start is the later: it counts
    assert session.takeovers() == {0: 1030.0} and session.away == [0]
    session.set_away(0, False)
    assert session.takeovers() == {} and session.away == []
