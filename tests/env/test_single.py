"""The Gymnasium single-agent environment: bots play the other seats."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import ohhell
from ohhell import Game, IllegalActionError, Rules
from ohhell.bots import Bot
from ohhell.env import OhHellGymEnv, standing_rewards


def play(env, seed, rng=None):
    rng = rng or np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        assert obs["action_mask"].any()
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not truncated
        total += reward
        steps += 1
    return total, steps, info


def test_gymnasium_env_checker_passes():
    # The checker samples actions without the mask, so illegal actions must end the episode.
    check_env(OhHellGymEnv(players=4, hand_sizes=[3, 2], opponents="random", illegal_action="terminate"),
              skip_render_check=True)


@pytest.mark.parametrize("rules", [Rules(4), Rules(3, hand_sizes=[5, 4], simultaneous_bidding=True),
                                   Rules(5, hand_sizes=[6], hook=True, must_trump=True)], ids=str)
def test_dense_return_is_the_learners_total(rules):
    env = OhHellGymEnv(rules, opponents="random", seat=1)
    total, steps, info = play(env, 3)
    g = env.game
    assert g.is_over and total == g.totals[1] == info["totals"][1]
    assert steps == rules.hand_count + sum(rules.hand_sizes)      # one bid and h cards per hand
    assert Game.from_record(g.record()).totals == g.totals


def test_sparse_reward_is_the_standing_and_episodes_are_reproducible():
    env = OhHellGymEnv(players=4, hand_sizes=[4, 3], reward="sparse", seat=None)
    a = play(env, 21)
    record_a = env.game.record()
    seat_a = env.seat
    assert a[0] == standing_rewards(env.game.totals)[env.seat]
    b = play(env, 21)
    assert env.game.record() == record_a and env.seat == seat_a and a[:2] == b[:2]


def test_named_opponents_and_bot_objects():
    class Lowest(Bot):
        name = "lowest"

        def decide(self, view, budget=None):
            from ohhell.bots import Decision
            return Decision(min(view.legal, key=lambda a: a.id))

    env = OhHellGymEnv(players=3, hand_sizes=[3], opponents=["heuristic", Lowest()], seat=0)
    play(env, 5)
    assert isinstance(env._bots[2], Lowest)
    with pytest.raises(ValueError, match="unknown bot"):
        OhHellGymEnv(players=3, opponents="nobody")
    with pytest.raises(ValueError, match="3 players need 2"):
        OhHellGymEnv(players=3, opponents=["random"])
    with pytest.raises(ValueError, match="seat"):
        OhHellGymEnv(players=3, seat=3)


def test_illegal_actions_raise_or_end_the_episode():
    env = OhHellGymEnv(players=4, hand_sizes=[2])
    obs, _ = env.reset(seed=1)
    before = env.game.fingerprint()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(bad)
    with pytest.raises(IllegalActionError):
        env.step("QS")
    assert env.game.fingerprint() == before
    env = OhHellGymEnv(players=4, hand_sizes=[2], illegal_action="terminate", illegal_reward=-3)
    obs, _ = env.reset(seed=1)
    _, reward, done, _, info = env.step(bad)
    assert (reward, done, info["illegal_action"]) == (-3, True, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(RuntimeError):
        OhHellGymEnv(players=4).step(0)


def test_render_shows_the_table():
    env = OhHellGymEnv(players=3, hand_sizes=[2], render_mode="ansi")
    env.reset(seed=2)
    assert "trump card" in env.render()


def test_heuristic_opponents_are_registered_and_used():
    assert "heuristic" in ohhell.bots.names()
    env = OhHellGymEnv(players=4, hand_sizes=[5], opponents="heuristic")
    total, _, _ = play(env, 7)
    assert type(env._bots[1]).__name__ == type(ohhell.bots.make("heuristic")).__name__


def test_simultaneous_bots_bid_first_and_their_bids_stay_hidden_from_the_learner():
    env = OhHellGymEnv(players=4, hand_sizes=[3, 2], simultaneous_bidding=True, opponents="heuristic", seat=2)
    obs, info = env.reset(seed=4)
    for _ in range(2):                                   # the learner's bid in each hand
        g = env.game
        assert g.seats_to_act == [2] and sum(b is not None for b in g.bids) == 3   # the bots have bid
        bids = env.encoder.split(obs["observation"])["bids"]
        assert bids[:, -1].tolist() == [1.0] * 4         # ...and the learner sees none of it
        while True:
            obs, reward, done, _, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            if done or env.game.phase_name == "bid":
                break
    assert env.game.is_over
