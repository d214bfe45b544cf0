"""The OpenSpiel bridge: pyspiel's own random-simulation test, the core's rules, hidden information, ISMCTS."""

from __future__ import annotations

import random

import numpy as np
import pytest

import pyspiel  # the 'bench' extra (open-spiel); CI installs it, so these tests always run

from ohhell import Game, Rules  # noqa: E402
from ohhell.cards import mask_to_cards  # noqa: E402
from ohhell.env.openspiel import GAME_NAME, load, params_from_rules, rules_from_params  # noqa: E402
from ohhell.sampling import is_consistent  # noqa: E402

from .helpers import VARIANTS  # noqa: E402

SMALL = [
    {"players": 4, "hand_sizes": "[3;2]", "hook": True, "dealer": -1},
    {"players": 3, "hand_sizes": "[4]", "simultaneous_bidding": True},
    {"players": 5, "hand_sizes": "[2;3]", "must_trump": True, "no_trump": "never",
     "missed_bid_scores_tricks": True, "zero_bid_scores_hand_size": True, "utility": "standing"},
    {"preset": "openspiel", "players": 4, "tricks": 3},
    {"preset": "la-podrida", "players": 7, "hand_sizes": "[1;7]"},
]


@pytest.mark.parametrize("params", SMALL, ids=str)
def test_pyspiel_random_sim_test(params):
    game = pyspiel.load_game(GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("rules", VARIANTS[:5] + [Rules(4, hand_sizes=[13, 12, 1])], ids=str)
def test_rules_round_trip_through_parameters(rules):
    game = load(rules)
    assert rules_from_params(params_from_rules(rules)) == rules
    assert game.num_players() == rules.players
    assert game.num_distinct_actions() == 53 + max(rules.hand_sizes)


def chance_actions(game: Game, k: int) -> list[int]:
    """The bridge's chance outcomes that deal hand ``k`` of a core game as the core dealt it."""
    hr = game.past_hands[k]
    n = game.players
    cards = [list(mask_to_cards(m)) for m in hr.deal]
    out = [int(cards[(hr.dealer + 1 + i) % n].pop()) for i in range(n * hr.hand_size)]
    if hr.trump_card is not None:
        out.append(int(hr.trump_card))
    return out


@pytest.mark.parametrize("rules", VARIANTS[:4] + [VARIANTS[6]], ids=str)
def test_whole_games_equal_the_core(rules):
    """Same deals and the same decisions: every hand and the final totals agree with ohhell.Game."""
    core = Game(rules, seed=31)
    rng = random.Random(3)
    while not core.is_over:
        legal = core.legal_actions()
        core.apply(legal[rng.randrange(len(legal))])
    state = load(rules, dealer=core.past_hands[0].dealer).new_initial_state()
    actions = iter(a.id for _, a in core.actions())
    for k in range(rules.hand_count):
        for c in chance_actions(core, k):
            assert state.is_chance_node()
            state.apply_action(c)
        while not state.is_chance_node() and not state.is_terminal():
            a = next(actions)
            assert a in state.legal_actions()
            state.apply_action(a)
    assert state.is_terminal()
    assert state.returns() == [float(t) for t in core.totals]


def advance(state, rng, decisions):
    while not state.is_terminal() and decisions > 0:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            decisions -= 1
            state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])


@pytest.mark.parametrize("params", [{"players": 4, "hand_sizes": "[6;8]", "must_trump": True},
                                    {"players": 3, "hand_sizes": "[9]", "simultaneous_bidding": True}],
                         ids=str)
def test_resampling_keeps_the_information_state_and_respects_voids(params):
    game = pyspiel.load_game(GAME_NAME, params)
    rng = random.Random(5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for depth in (1, 2, 8, 14, 21, 30):
        state = game.new_initial_state()
        advance(state, rng, depth)
        if state.is_terminal():
            continue
        p = state.current_player()
        for _ in range(10):
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_tensor(p) == state.observation_tensor(p)
            assert other.legal_actions() == state.legal_actions()
            view = state.view(p)
            hands = [other._p.hand.hand_mask(s) for s in range(game.num_players())]
            assert is_consistent(view, hands)
            changed += hands != [state._p.hand.hand_mask(s) for s in range(game.num_players())]
            other.apply_action(other.legal_actions()[0])          # the sample is a live state
    assert changed > 20


def test_hidden_simultaneous_bids_are_not_in_anyone_elses_information():
    game = pyspiel.load_game(GAME_NAME, {"players": 3, "hand_sizes": "[5]", "simultaneous_bidding": True})
    rng = random.Random(2)
    base = game.new_initial_state()
    advance(base, rng, 0)
    first = base.current_player()
    a, b = base.clone(), base.clone()
    a.apply_action(52 + 0)
    b.apply_action(52 + 4)
    second = a.current_player()
    assert second != first and b.current_player() == second
    for p in range(3):
        if p != first:
            assert a.information_state_string(p) == b.information_state_string(p)
            assert a.information_state_tensor(p) == b.information_state_tensor(p)
            assert a.observation_string(p) == b.observation_string(p)
    assert a.information_state_string(first) != b.information_state_string(first)
    for s in (a, b):                                 # after the reveal everyone sees every bid
        while s._p.hand.phase_name == "bid":
            s.apply_action(52 + 1)
    assert a.information_state_string((first + 1) % 3) != b.information_state_string((first + 1) % 3)


def test_openspiel_ismcts_plays_whole_games():
    """OpenSpiel's ISMCTS bot plays the whole standard 7-player game (7 hands) and beats random bots."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = load(Rules(7))
    ismcts_total, random_total = 0.0, 0.0
    for i in range(2):
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(i)), 3.0, 40,
                               random_state=np.random.RandomState(i))
        bots = [bot] + [pyspiel.make_uniform_random_bot(p, 10 * i + p) for p in range(1, 7)]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, i)
        assert len(returns) == 7 and all(r >= 0 for r in returns)
        ismcts_total += returns[0]
        random_total += sum(returns[1:]) / 6
    assert ismcts_total > random_total


def test_openspiel_rl_environment_runs_the_bridge():
    """OpenSpiel's RL environment (the one its DQN/PPO agents use) steps the bridge with info-state tensors."""
    from open_spiel.python import rl_environment

    rules = Rules(4, hand_sizes=[3, 2], hook=True)
    env = rl_environment.Environment(load(rules))
    rng = np.random.default_rng(0)
    ts = env.reset()
    steps = 0
    while not ts.last():
        p = ts.observations["current_player"]
        legal = ts.observations["legal_actions"][p]
        assert legal and len(ts.observations["info_state"][p]) == env.observation_spec()["info_state"][0]
        ts = env.step([int(rng.choice(legal))])
        steps += 1
    assert steps == 4 * (2 + 3 + 2)
    assert sum(ts.rewards) == sum(env.get_state.returns()) and all(r >= 0 for r in ts.rewards)
