"""The fast path plays by exactly the engine's rules."""

import random

from hypothesis import given, strategies as st

from ohhell import Game
from ohhell.actions import PLAYS
from ohhell.fast import HandState, random_hands, random_playout

from .strategies import GAME_SETTINGS, rules_strategy


def _to_play_phase(game, rng):
    while game.phase_name == "bid":
        if game.rules.simultaneous_bidding:
            s = next(s for s in range(game.players) if game.bids[s] is None)
            game.apply(rng.choice(game.legal_actions(s)), seat=s)
        else:
            game.apply(rng.choice(game.legal_actions()))


@GAME_SETTINGS
@given(rules_strategy(max_hands=1), st.integers(0, 2**32), st.integers(0, 30))
def test_hand_state_agrees_with_the_game_card_by_card(rules, seed, skip):
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    _to_play_phase(game, rng)
    for _ in range(skip):
        if game.is_over or game.phase_name != "play":
            return
        game.apply(rng.choice(game.legal_actions()))
    if game.is_over or game.phase_name != "play":
        return
    state = HandState.from_game(game)
    index = game.hand_index
    while game.hand_index == index and not game.is_over:
        assert state.to_act == game.to_act
        assert sorted(state.legal_cards()) == sorted(int(a.card) for a in game.legal_actions())
        card = rng.choice(state.legal_cards())
        tricks_before = len(game.tricks)
        winner = state.play(card)
        game.apply(PLAYS[card])
        if game.hand_index == index and not game.is_over:
            assert (winner is not None) == (len(game.tricks) > tricks_before)
            assert state.won == list(game.tricks_won)
    assert state.is_over
    assert tuple(state.won) == game.past_hands[-1].tricks_won


@GAME_SETTINGS
@given(rules_strategy(max_hands=1), st.integers(0, 2**32))
def test_random_playout_finishes_legally(rules, seed):
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    _to_play_phase(game, rng)
    state = HandState.from_game(game)
    copy = state.copy()
    won = random_playout(state, rng.random)
    assert sum(won) == game.hand_size and state.is_over
    assert copy.won == [0] * game.players and not copy.is_over   # the copy is untouched


def test_from_view_uses_the_seats_own_hand_and_the_current_trick():
    game = Game(Game().rules.replace(players=4, hand_sizes=[5]), seed=3)
    rng = random.Random(0)
    _to_play_phase(game, rng)
    for _ in range(6):
        game.apply(rng.choice(game.legal_actions()))
    v = game.view(game.to_act)
    others = [game.hand_mask(s) for s in range(4)]
    state = HandState.from_view(v, others)
    truth = HandState.from_game(game)
    assert state.hands == truth.hands and state.trick == truth.trick and state.won == truth.won
    assert state.to_act == truth.to_act and state.legal_mask() == truth.legal_mask()


def test_random_hands_counts_decisions():
    decisions, tricks = random_hands(4, 5, 100, seed=1)
    assert decisions == 100 * (4 + 20) and tricks == 500
    decisions, tricks = random_hands(4, 13, 10, seed=1, trump=True)
    assert tricks == 130
