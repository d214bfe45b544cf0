"""The batched simulator plays exactly the core's rules: same deals, same choices, same games."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ohhell import Game, IllegalActionError, Rules, action_from_id
from ohhell.env import Encoder
from ohhell.env.batch import HAVE_NUMBA, BatchedGames, core_deals, max_decisions, simulate

from .helpers import VARIANTS, rules_strategy


def replay_in_core(rules, seeds, U, result):
    """Replay each game in the core, picking the same floor(u * count)-th legal action."""
    for g, seed in enumerate(seeds):
        game = Game(rules, seed=seed)
        i = 0
        while not game.is_over:
            legal = game.legal_actions()
            action = legal[int(U[g, i] * len(legal))]
            assert action.id == result.actions[g, i], (str(rules), seed, i)
            game.apply(action)
            i += 1
        assert i == max_decisions(rules)
        assert (result.actions[g, i:] == -1).all()
        assert list(game.totals) == result.totals[g].tolist(), (str(rules), seed)


def test_numba_is_installed_for_these_tests():
    assert HAVE_NUMBA, "install the 'fast' extra: the batched simulator's tests need numba"


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_playouts_equal_the_core_for_every_variant(rules):
    seeds = [f"batch/{i}" for i in range(12)]
    U = np.random.default_rng(7).random((len(seeds), max_decisions(rules)))
    result = simulate(rules, seeds=seeds, uniforms=U, record=True)
    assert result.decisions == len(seeds) * max_decisions(rules)
    replay_in_core(rules, seeds, U, result)


@settings(max_examples=30, deadline=None)
@given(rules=rules_strategy(), seed=st.integers(0, 2**32), dealer=st.none() | st.integers(0, 2))
def test_playouts_equal_the_core_for_random_rules(rules, seed, dealer):
    seeds = [seed, seed + 1, seed + 2]
    U = np.random.default_rng(seed).random((3, max_decisions(rules)))
    result = simulate(rules, seeds=seeds, uniforms=U, record=True, dealer=dealer)
    if dealer is None:
        replay_in_core(rules, seeds, U, result)
    else:
        for g, s in enumerate(seeds):
            game = Game(rules, seed=s, dealer=dealer)
            for i in range(max_decisions(rules)):
                legal = game.legal_actions()
                game.apply(legal[int(U[g, i] * len(legal))])
            assert list(game.totals) == result.totals[g].tolist()


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_stepping_in_lockstep_with_the_core(rules):
    """Masks, observations, seats to act, hand scores and ends agree at every step."""
    seeds = list(range(6))
    b = BatchedGames(rules, seeds=seeds)
    games = [Game(rules, seed=s) for s in seeds]
    enc = Encoder(rules)
    while not b.done.all():
        mask, obs, to_act = b.legal_mask(), b.observe(), b.to_act
        for g, game in enumerate(games):
            if game.is_over:
                assert b.done[g] and to_act[g] == -1 and not mask[g].any()
                continue
            assert to_act[g] == game.to_act
            assert np.flatnonzero(mask[g]).tolist() == sorted(a.id for a in game.legal_actions())
            assert np.array_equal(obs[g], enc.encode(game.view(game.to_act)))
        actions = b.random_actions()
        scores, done = b.step(actions)
        for g, game in enumerate(games):
            if game.is_over:
                assert actions[g] == -1 and not done[g]
                continue
            hands = len(game.past_hands)
            game.apply(action_from_id(int(actions[g])))
            ended = len(game.past_hands) > hands
            assert scores[g].tolist() == (list(game.past_hands[-1].scores) if ended else [0] * rules.players)
            assert done[g] == game.is_over
    assert b.totals.tolist() == [list(g.totals) for g in games]
    final = b.observe(np.zeros(len(seeds), dtype=np.int64))
    for g, game in enumerate(games):
        assert np.array_equal(final[g], enc.encode(game.view(0)))


def test_observe_any_seat_hides_simultaneous_bids():
    rules = Rules(4, hand_sizes=[6], simultaneous_bidding=True)
    b = BatchedGames(rules, seeds=["a", "b"])
    games = [Game(rules, seed=s) for s in ("a", "b")]
    enc = Encoder(rules)
    acts = b.random_actions()
    b.step(acts)
    for g, game in enumerate(games):
        game.apply(action_from_id(int(acts[g])))
    for seat in range(4):
        obs = b.observe(np.full(2, seat))
        for g, game in enumerate(games):
            assert np.array_equal(obs[g], enc.encode(game.view(seat)))


def test_illegal_step_names_the_game_and_changes_nothing():
    b = BatchedGames(Rules(4, hand_sizes=[3]), num_games=5, seed=3)
    before = b.S.copy()
    acts = b.random_actions()
    acts[3] = 0                      # a card during the bidding
    with pytest.raises(IllegalActionError, match="game 3"):
        b.step(acts)
    assert np.array_equal(b.S, before)
    with pytest.raises(ValueError, match="5 actions"):
        b.step([52, 52])


def test_autoreset_and_seeded_reproducibility():
    b = BatchedGames(Rules(3, hand_sizes=[2, 1]), num_games=64, seed=5, autoreset=True)
    finished = 0
    for _ in range(60):
        _, done = b.step(b.random_actions())
        finished += int(done.sum())
        assert not b.done.any()
    assert finished >= 64
    a1 = simulate(Rules(5), num_games=50, seed=9)
    a2 = simulate(Rules(5), num_games=50, seed=9, threads=0)
    assert np.array_equal(a1.totals, a2.totals) and a1.decisions == a2.decisions
    assert not np.array_equal(a1.totals, simulate(Rules(5), num_games=50, seed=10).totals)
    with pytest.raises(ValueError):
        BatchedGames(Rules(4), seeds=[1, 2], autoreset=True)
    one = BatchedGames(Rules(4, hand_sizes=[4, 3]), num_games=300, seed=2, threads=1)
    every = BatchedGames(Rules(4, hand_sizes=[4, 3]), num_games=300, seed=2, threads=0)
    for _ in range(40):
        assert np.array_equal(one.observe(), every.observe())
        a = one.random_actions()
        assert np.array_equal(a, every.random_actions())
        one.step(a)
        every.step(a)
    assert np.array_equal(one.S, every.S)


def test_kernel_deals_are_valid_and_uniformish():
    """Kernel-dealt games: every card once, right counts, trump off the hands; all 52 cards reach seat 0."""
    rules = Rules(4, hand_sizes=[5, 13])
    b = BatchedGames(rules, num_games=400, seed=1)
    S = b.S
    from ohhell.env import _kernels as K
    hands = S[:, K.O_HANDS:K.O_HANDS + 4]
    seen = 0
    for g in range(400):
        masks = [int(m) for m in hands[g]]
        assert [m.bit_count() for m in masks] == [5] * 4
        union = 0
        for m in masks:
            assert union & m == 0
            union |= m
        tc = int(S[g, K.F_TCARD])
        assert 0 <= tc < 52 and not union >> tc & 1
        seen |= masks[0]
    assert seen == (1 << 52) - 1
    assert len(set(S[:, K.F_FIRST].tolist())) == 4


def test_core_deals_are_the_games_deals():
    rules = Rules(5, hand_sizes=[3, 10])
    D, first = core_deals(rules, ["x", 3])
    for g, seed in enumerate(["x", 3]):
        game = Game(rules, seed=seed)
        assert first[g] == game.dealer
        assert D[g, 0, :5].tolist() == list(game.deal) and D[g, 0, 5] == game.trump_card


def test_plain_python_fallback_gives_the_same_results():
    """Without numba the same kernels run as plain Python and give identical games."""
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "import json\nfrom ohhell import Rules\nfrom ohhell.env.batch import simulate, HAVE_NUMBA\n"
        "r = simulate(Rules(3, hand_sizes=[3, 2], hook=True), num_games=4, seed=2)\n"
        "print(json.dumps([HAVE_NUMBA, r.totals.tolist(), r.decisions]))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="0")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    have, totals, decisions = json.loads(out.stdout)
    ref = simulate(Rules(3, hand_sizes=[3, 2], hook=True), num_games=4, seed=2)
    assert have is False and totals == ref.totals.tolist() and decisions == ref.decisions
