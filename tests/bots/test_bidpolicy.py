"""The learned bid policy (ohhell.bots.bidpolicy), its labels and the learned level's bid options."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from ohhell import Game, Rules  # noqa: E402
from ohhell.bots import make, play_game  # noqa: E402
from ohhell.bots.bidpolicy import BidPolicy, soft_targets, train, trick_values  # noqa: E402
from ohhell.bots.learned import N_FEATURES, N_OUT, features  # noqa: E402
from ohhell.bots.learnedbot import bid_position  # noqa: E402
from ohhell.bots.onecard import one_card_bid  # noqa: E402
from ohhell.bots.playtrain import bid_label_chunk  # noqa: E402
from ohhell.bots.policy import sure_tricks  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@settings(max_examples=60, deadline=None)
@given(data=st.data(), n=st.integers(1, 6), share=st.floats(0, 1), temp=st.floats(0.1, 5))
def test_soft_targets_are_distributions_over_the_legal_bids_weighted_toward_the_bid_made(data, n, share, temp):
    legal = np.zeros((n, N_OUT), dtype=bool)
    values = np.full((n, N_OUT), np.nan)
    made = np.zeros(n, dtype=np.int64)
    for i in range(n):
        h = data.draw(st.integers(1, 13))
        bids = data.draw(st.lists(st.integers(0, h), min_size=1, max_size=h + 1, unique=True))
        legal[i, bids] = True
        made[i] = data.draw(st.sampled_from(bids))
        for b in data.draw(st.lists(st.sampled_from(bids), unique=True)):
            values[i, b] = data.draw(st.floats(-5, 25))
    T = soft_targets(values, legal, made, share, temp)
    assert np.allclose(T.sum(1), 1.0, atol=1e-5)
    assert (T[~legal] == 0).all() and (T >= 0).all()
    assert (T[np.arange(n), made] >= share - 1e-6).all()
    # no searched value: all of it on the bid made
    none = ~(np.isfinite(values) & legal).any(1)
    assert np.allclose(T[none, made[none]], 1.0)


def test_soft_targets_spread_the_rest_by_the_searched_values():
    legal = np.zeros((1, N_OUT), dtype=bool)
    legal[0, :4] = True
    values = np.full((1, N_OUT), np.nan)
    values[0, :3] = [5.0, 5.0, 1.0]            # bid 3 not searched: it gets nothing
    T = soft_targets(values, legal, np.array([0]), 0.5, 1.0)[0]
    e = np.exp([0.0, 0.0, -4.0])
    soft = e / e.sum()
    assert T[0] == pytest.approx(0.5 + 0.5 * soft[0], abs=1e-6)
    assert T[1] == pytest.approx(0.5 * soft[1], abs=1e-6)
    assert T[2] == pytest.approx(0.5 * soft[2], abs=1e-6) and T[3] == 0


def synthetic(n: int, seed: int) -> dict:
    """Label arrays shaped like the expert's, the 'expert' bidding its sure-trick estimate."""
    rng = np.random.default_rng(seed)
    X = np.zeros((n, N_FEATURES), dtype=np.float32)
    X[:, 0] = rng.random(n)
    X[:, 1:4] = rng.random((n, 3))                # inputs that do not matter
    h = rng.integers(2, 9, n).astype(np.int16)
    legal = np.zeros((n, N_OUT), dtype=bool)
    for i in range(n):
        legal[i, :h[i] + 1] = True
    bid = np.minimum(np.floor(X[:, 0] * 4), h).astype(np.int16)     # a rule of one input
    values = np.full((n, N_OUT), np.nan, dtype=np.float32)
    values[np.arange(n), bid] = 10.0
    return {"X": X, "h": h, "legal": legal, "values": values, "bid": bid}


def test_training_learns_a_bid_rule_and_the_policy_is_a_distribution_over_the_legal_bids(tmp_path):
    lines: list = []
    params = train([synthetic(3000, 1)], [synthetic(400, 2)], hidden=32, epochs=12, lr=3e-3, rng=np.random.default_rng(3),
                   log=lines.append)
    assert len(lines) == 13 and "the trick model" in lines[0] and "held-out bids equal to the expert's" in lines[-1]
    path = tmp_path / "p.npz"
    np.savez(path, **params)
    pol = BidPolicy.load(str(path))
    test = synthetic(500, 4)
    EV = trick_values(test["X"], test["h"], Rules())
    P = pol.probabilities(test["X"], EV, test["legal"])
    assert np.allclose(P.sum(1), 1.0, atol=1e-5) and (P[~test["legal"]] == 0).all()
    assert (P.argmax(1) == test["bid"]).mean() > 0.75          # chance: about 0.3
    p = pol.policy(test["X"][0], {0: 1.0, 2: 3.0, 5: 0.5})
    assert set(p) == {0, 2, 5} and sum(p.values()) == pytest.approx(1.0)


def test_the_policy_starts_from_the_trick_models_expected_scores():
    """Before any training the correction is small, so the policy's favourite bid is the trick
    model's best (the learned level's bid without the policy)."""
    params = train([synthetic(50, 1)], [synthetic(20, 2)], hidden=8, epochs=1, lr=1e-9,
                   rng=np.random.default_rng(0), log=lambda s: None)
    pol = BidPolicy(params)
    g = Game(Rules.preset("standard", players=4, hand_sizes=[9]), seed=8)
    v = g.view(g.seats_to_act[0])
    d = make("learned", bids="trick").decide(v)
    values = {a.tricks: x for a, x in d.values.items()}
    x = features(v.hand_mask, -1 if v.trump is None else v.trump, -1 if v.trump_card is None else int(v.trump_card),
                 4, 9, *bid_position(v))
    p = pol.policy(x, values)
    assert max(p, key=p.get) == max(values, key=values.get)
    # trick_values is what the learned level maximises
    EV = trick_values(np.asarray([x], dtype=np.float32), np.array([9]), v.rules)[0]
    assert all(EV[b] == pytest.approx(val, abs=1e-4) for b, val in values.items())
    with pytest.raises(ValueError):
        train([synthetic(5, 1)], [{k: v[:0] for k, v in synthetic(5, 2).items()}], epochs=1)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_standard_deals_have_a_trump_except_in_the_full_games_last_hand(seed):
    """A one-hand game's only hand is its last, which the standard game plays without trump;
    drawn hands of the standard game must not all be no-trump hands."""
    import random
    from ohhell.bots.playtrain import standard_rules
    rules = standard_rules(random.Random(seed))
    full = Rules.preset("standard", players=rules.players)
    h = rules.hand_sizes[0]
    assert h in full.hand_sizes and rules.hook is False and not rules.must_trump
    g = Game(rules, seed=seed)
    assert (g.view(0).trump is None) == (h == full.hand_sizes[-1])


def test_the_policy_covers_the_standard_games_rules_only():
    assert BidPolicy.covers(Rules.preset("standard", players=5))
    assert BidPolicy.covers(Rules.preset("standard", players=3, hand_sizes=[17]))
    assert not BidPolicy.covers(Rules(4, hook=True))
    assert not BidPolicy.covers(Rules.preset("la-podrida", players=4))
    assert not BidPolicy.covers(Rules.preset("openspiel"))
    assert not BidPolicy.covers(Rules(4, missed_bid_scores_tricks=True))
    assert not BidPolicy.covers(Rules(4, zero_bid_scores_hand_size=True))
    assert not BidPolicy.covers(Rules(4, simultaneous_bidding=True, hook=False))


def test_labels_are_the_experts_bids_from_the_bidders_own_view():
    rows = bid_label_chunk((2, "t", 8))
    again = bid_label_chunk((2, "t", 8))
    assert [(r[1], r[2], r[4]) for r in rows] == [(r[1], r[2], r[4]) for r in again]     # reproducible
    assert rows and all(len(r[0]) == N_FEATURES for r in rows)
    for x, h, legal, values, made in rows:
        assert made in legal and set(values) <= set(legal) and 1 <= h <= 17
    # the first row is the first bidder's: its features are exactly its view's
    import random
    from ohhell.bots.playtrain import standard_rules
    rules = standard_rules(random.Random("bidlabel:t"))
    n, h = rules.players, rules.hand_sizes[0]
    g = Game(rules, seed="bidlabel:t:0")
    v = g.view(g.seats_to_act[0])
    pos, earlier, hook = bid_position(v)
    want = features(v.hand_mask, -1 if v.trump is None else v.trump,
                    -1 if v.trump_card is None else int(v.trump_card), n, h, pos, earlier, hook)
    assert rows[0][0] == want and rows[0][1] == h
    assert sum(1 for r in rows[:n]) == n


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("policy") / "p.npz"
    np.savez(path, **train([synthetic(600, 5)], [synthetic(100, 6)], hidden=16, epochs=2,
                           rng=np.random.default_rng(0), log=lambda s: None))
    return str(path)


def test_the_learned_level_bids_by_the_policy_under_the_standard_scoring(policy_file):
    g = Game(Rules.preset("standard", players=4, hand_sizes=[7]), seed=3)
    v = g.view(g.seats_to_act[0])
    d = make("learned", bids="policy", policy_weights=policy_file).decide(v)
    pol = d.stats["bid_policy"]
    assert set(pol) == set(v.legal) and sum(pol.values()) == pytest.approx(1.0)
    sure = sure_tricks(v.hand_mask, -1 if v.trump is None else v.trump,
                       -1 if v.trump_card is None else int(v.trump_card))
    allowed = [a for a in v.legal if a.tricks >= sure]
    assert d.action == max(allowed, key=lambda a: (pol[a], -a.tricks))
    assert "bid policy" in d.note
    # each bid still carries the trick model's expected score
    assert d.values == make("learned", bids="trick").decide(v).values


def test_other_scorings_fall_back_to_the_trick_model(policy_file):
    rules = Rules.preset("standard", players=4, hand_sizes=[7], missed_bid_scores_tricks=True)
    g = Game(rules, seed=3)
    v = g.view(g.seats_to_act[0])
    a = make("learned", bids="policy", policy_weights=policy_file).decide(v)
    b = make("learned", bids="trick").decide(v)
    assert a.action == b.action and a.note == b.note and "bid_policy" not in a.stats


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 7), seed=st.integers(0, 10**6), hook=st.booleans())
def test_one_card_bids_are_the_exact_equilibrium(players, seed, hook):
    g = Game(Rules(players, hand_sizes=[1], hook=hook), seed=seed)
    bot = make("learned", one_card=True)
    while g.phase == "bid":
        s = g.seats_to_act[0]
        v = g.view(s)
        d = bot.decide(v)
        assert d.action.tricks == one_card_bid(v)[0] and d.stats["exact"]
        g.apply(d.action, seat=s)


def test_games_with_the_policy_and_exact_one_card_bids_are_legal(policy_file):
    for preset, n in (("standard", 4), ("la-podrida", 5), ("openspiel", 4)):
        rules = Rules.preset(preset, players=n) if preset != "openspiel" else Rules.preset(preset)
        game = play_game(Game(rules, seed=n), [make("learned", seed=s, bids="policy", one_card=True,
                                                    policy_weights=policy_file) for s in range(rules.players)])
        assert game.is_over


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="bids must be one of"):
        make("learned", bids="expert")
    with pytest.raises(ValueError, match="one_card must be true or false"):
        make("learned", one_card="yes")
    assert make("learned").one_card and not make("learned", one_card=False).one_card


def test_training_command_end_to_end(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    cache = tmp_path / "labels"
    out = tmp_path / "pol.npz"
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "train_bid_policy.py"), "--deals", "6", "--chunk", "2",
           "--iterations", "4", "--epochs", "2", "--hidden", "8", "--held-out", "0.34", "--cache", str(cache),
           "--out", str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "0 cached, 3 to play" in r.stdout and out.exists() and len(os.listdir(cache)) == 3
    first = dict(np.load(out))
    # resumed from the cache: nothing played again, the same weights
    out2 = tmp_path / "again.npz"
    r = subprocess.run(cmd[:-1] + [str(out2)], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "3 cached, 0 to play" in r.stdout
    second = dict(np.load(out2))
    assert all(np.array_equal(first[k], second[k]) for k in first)
    for bad in (["--deals", "0"], ["--hard-share", "2"], ["--temperature", "0"], ["--held-out", "1"]):
        r = subprocess.run(cmd + bad, capture_output=True, text=True, env=env, timeout=300)
        assert r.returncode == 2 and "error:" in r.stderr and "Traceback" not in r.stderr


def test_without_a_weights_file_the_policy_option_says_how_to_get_one(tmp_path):
    from ohhell.bots.bidpolicy import DEFAULT_POLICY_WEIGHTS
    if os.path.exists(DEFAULT_POLICY_WEIGHTS):
        pytest.skip("weights ship")
    with pytest.raises(ValueError, match="train one with scripts/train_bid_policy.py"):
        make("learned", bids="policy")
    with pytest.raises(ValueError, match="no bid policy weights at"):
        make("learned", bids="policy", policy_weights=str(tmp_path / "none.npz"))
