"""The PettingZoo AEC environment: PettingZoo's own conformance tests, rewards, hidden bids."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import ohhell
from ohhell import Game, IllegalActionError, Rules, RulesError
from ohhell.env import OhHellEnv, standing_rewards

from .helpers import VARIANTS

# PettingZoo's api_test recommends Box observations; ours are the documented dict with an action mask.
pytestmark = [pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning"),
              pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")]

API_CASES = [
    dict(players=4, hook=True),
    dict(players=3, simultaneous_bidding=True, observation="information_state", reward="sparse"),
    dict(preset="openspiel", players=4),
    dict(players=7, must_trump=True, schedule="down", missed_bid_scores_tricks=True),
    dict(players=5, hand_sizes=[10], zero_bid_scores_hand_size=True, observation="information_state"),
]


@pytest.mark.parametrize("kwargs", API_CASES, ids=lambda k: ",".join(f"{a}={b}" for a, b in k.items()))
def test_pettingzoo_api_test(kwargs):
    api_test(OhHellEnv(**kwargs), num_cycles=1000)


def test_wrapped_constructor_passes_api_test_and_enforces_order():
    from ohhell.env import env
    api_test(env(players=3, hand_sizes=[4, 3]), num_cycles=200)
    fresh = env(players=3)
    with pytest.raises(Exception, match="reset"):
        fresh.step(52)


@pytest.mark.parametrize("kwargs", API_CASES[:3], ids=lambda k: ",".join(f"{a}={b}" for a, b in k.items()))
def test_pettingzoo_seed_test(kwargs):
    seed_test(lambda: OhHellEnv(**kwargs), num_cycles=600)


def run_episode(env, seed, rng):
    """Play one game with random masked actions; returns summed rewards per agent."""
    env.reset(seed=seed)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_dense_rewards_add_up_to_the_totals_and_replay_in_the_core(rules):
    env = OhHellEnv(rules)
    total = run_episode(env, 9, np.random.default_rng(0))
    game = env.game
    assert game.is_over
    assert [total[f"player_{s}"] for s in range(rules.players)] == list(game.totals)
    # The environment's game is the core's: its record replays and verifies.
    again = Game.from_record(game.record())
    assert again.totals == game.totals
    # reset(seed=s) deals exactly Game(rules, seed=s).
    env.reset(seed=9)
    fresh = Game(rules, seed=9)
    assert [env.view(a).hand_mask for a in env.agents] == [fresh.hand_mask(s) for s in range(rules.players)]


def test_sparse_rewards_are_the_final_standing():
    env = OhHellEnv(players=4, hand_sizes=[3, 2], reward="sparse")
    total = run_episode(env, 3, np.random.default_rng(1))
    assert [total[a] for a in env.possible_agents] == standing_rewards(env.game.totals)
    assert sum(total.values()) == pytest.approx(0)
    assert standing_rewards([5, 5, 5]) == [0.0, 0.0, 0.0]


def test_reward_scale_divides_dense_rewards():
    a = run_episode(OhHellEnv(players=3, hand_sizes=[2]), 4, np.random.default_rng(2))
    b = run_episode(OhHellEnv(players=3, hand_sizes=[2], reward_scale=10), 4, np.random.default_rng(2))
    assert {k: v / 10 for k, v in a.items()} == pytest.approx(b)


def test_illegal_action_raises_and_changes_nothing():
    env = OhHellEnv(players=4, hand_sizes=[3], hook=True)
    env.reset(seed=2)
    before = env.game.fingerprint()
    agent = env.agent_selection
    obs = env.observe(agent)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    with pytest.raises(IllegalActionError, match="not an action id"):
        env.step(None)
    with pytest.raises(IllegalActionError):
        env.step(10_000)
    assert env.game.fingerprint() == before and env.agent_selection == agent
    assert env._cumulative_rewards == {a: 0.0 for a in env.agents}


def test_illegal_action_can_terminate_with_a_penalty():
    env = OhHellEnv(players=3, hand_sizes=[2], illegal_action="terminate", illegal_reward=-5)
    env.reset(seed=1)
    offender = env.agent_selection
    env.step(0 if not env.observe(offender)["action_mask"][0] else 51)
    assert all(env.terminations.values())
    _, reward, term, _, info = env.last()
    assert term and reward == -5 and info == {"illegal_action": True}
    for agent in env.agent_iter():
        env.step(None)
    assert env.agents == []


def test_simultaneous_bids_never_reach_another_agent_before_the_reveal():
    env = OhHellEnv(players=4, hand_sizes=[5], simultaneous_bidding=True)
    env.reset(seed=8)
    enc = env.encoder
    bidders = []
    while env.game.phase_name == "bid":
        agent = env.agent_selection
        bidders.append(agent)
        for other in env.agents:
            bids = enc.split(env.observe(other)["observation"])["bids"]
            hidden = bids.shape[1] - 1
            seat = env.seat(other)
            for s in range(4):
                if s != seat:
                    assert bids[(s - seat) % 4].argmax() == hidden, (other, s)
        mask = env.observe(agent)["action_mask"]
        env.step(int(np.flatnonzero(mask)[-1]))       # everyone bids the most
        assert all(r == 0 for r in env.rewards.values()) and all(i == {} for i in env.infos.values())
    assert sorted(bidders) == sorted(env.possible_agents)
    bids = enc.split(env.observe("player_0")["observation"])["bids"]
    assert [row.argmax() for row in bids] == [5, 5, 5, 5]


def test_constructor_keywords_are_the_rules_fields():
    env = OhHellEnv(players=5, hook=True, schedule="up-down")
    assert env.rules == Rules(5, hook=True, schedule="up-down")
    assert env.possible_agents == [f"player_{s}" for s in range(5)]
    assert env.action_space("player_0").n == 52 + 10 + 1
    assert OhHellEnv(preset="la-podrida", players=3).rules.must_trump
    assert OhHellEnv(Rules(4), hook=True).rules.hook
    with pytest.raises(RulesError, match="did you mean 'hook'"):
        OhHellEnv(players=4, hoook=True)
    with pytest.raises(RulesError):
        OhHellEnv(players=4, hook=True, simultaneous_bidding=True)
    with pytest.raises(ValueError, match="unknown reward"):
        OhHellEnv(reward="points")
    with pytest.raises(ValueError, match="unknown observation"):
        OhHellEnv(observation="pixels")
    with pytest.raises(RulesError, match="dealer"):
        OhHellEnv(dealer=9)


def test_reset_from_a_given_game_and_render():
    rules = Rules(4, hand_sizes=[3, 2])
    g = Game(rules, seed=4)
    g.apply(g.legal_actions()[0])
    env = OhHellEnv(rules, render_mode="ansi")
    env.reset(options={"game": g})
    assert env.game.fingerprint() == g.fingerprint() and env.game is not g
    assert env.agent_selection == f"player_{g.to_act}"
    text = env.render()
    assert "seat 0" in text and "hand" in text
    with pytest.raises(ValueError):
        env.reset(options={"game": Game(Rules(3), seed=1)})


def test_unseeded_resets_follow_the_first_seed():
    a, b = OhHellEnv(players=4), OhHellEnv(players=4)
    a.reset(seed=5)
    b.reset(seed=5)
    a.reset()
    b.reset()
    assert a.game.seed == b.game.seed and a.game.seed != 5
    assert ohhell.Game(a.rules, seed=a.game.seed).deal == a.game.deal
