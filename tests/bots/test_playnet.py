"""The learned play networks (ohhell.bots.playnet) and the learned-only level (``learned``)."""

from __future__ import annotations

import inspect
import os
import random
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")

from hypothesis import HealthCheck, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import ohhell  # noqa: E402
from ohhell import Game, Rules  # noqa: E402
from ohhell.bots import Budget, catalog, make, names, play_game  # noqa: E402
from ohhell.bots.learnedbot import LearnedBot  # noqa: E402
from ohhell.bots.playnet import (DEFAULT_PLAY_WEIGHTS, N_BID_FEATURES, N_PLAY_FEATURES, BidNet,  # noqa: E402
                                 PlayNet, play_features, shared_nets)
from ohhell.bots.policy import sure_tricks  # noqa: E402
from ohhell.rules import PRESETS  # noqa: E402
from ohhell.sampling import HandSampler  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def play_positions(rules: Rules, seed: str, bots=None):
    """Every card decision's (game copy, view) of one game."""
    g = Game(rules, seed=seed)
    bots = bots or [make("heuristic", seed=s) for s in range(rules.players)]
    out = []
    while not g.is_over:
        s = g.to_act
        v = g.view(s)
        if v.phase == "play":
            out.append((g.copy(), v))
        g.apply(bots[s].act(v), seat=s)
    return out


def test_the_weights_ship_inside_the_installed_package():
    import importlib.resources
    res = importlib.resources.files("ohhell.bots").joinpath("weights/play.npz")
    assert res.is_file()
    assert os.path.samefile(str(res), DEFAULT_PLAY_WEIGHTS)
    assert os.path.getsize(DEFAULT_PLAY_WEIGHTS) < 4_000_000
    play, bid = shared_nets()
    assert play.params["p_W0"].shape[0] == N_PLAY_FEATURES
    assert bid.params["b_W0"].shape[0] == N_BID_FEATURES
    # loadable from a path too, and the package build lists the weights as package data
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        assert '"ohhell.bots" = ["weights/*.npz"]' in f.read()
    assert isinstance(PlayNet.load(DEFAULT_PLAY_WEIGHTS), PlayNet) and isinstance(BidNet.load(), BidNet)


def test_inference_is_deterministic():
    rules = Rules(4, hand_sizes=[6], hook=True)
    (g, v), *_ = play_positions(rules, "det")
    net = PlayNet.load()
    a = net.evaluate(v)
    fresh = PlayNet({k: np.array(x) for k, x in net.params.items()})
    b = fresh.evaluate(v)
    assert a[0] == b[0] and (a[1] == b[1]).all()
    x1, x2 = play_features(v), play_features(v)
    assert x1.dtype == np.float32 and x1.shape == (N_PLAY_FEATURES,) and (x1 == x2).all()
    # a seeded bot decides the same every time, and the view is left as it was
    before = v.to_dict()
    d1 = make("learned", seed=1).decide(v)
    d2 = make("learned", seed=2).decide(v)
    assert d1.action == d2.action and d1.values == d2.values and v.to_dict() == before


def test_policy_and_value_are_distributions_over_the_legal_cards_and_reachable_tricks():
    net = PlayNet.load()
    for g, v in play_positions(Rules(5, hand_sizes=[7], must_trump=True), "dist")[:25]:
        policy, tricks = net.evaluate(v)
        assert set(policy) == set(v.legal)
        assert abs(sum(policy.values()) - 1) < 1e-9 and min(policy.values()) >= 0
        me = v.seat
        lo, hi = v.tricks_won[me], v.tricks_won[me] + v.hand_size - len(v.tricks)
        assert len(tricks) == v.hand_size + 1 and abs(tricks.sum() - 1) < 1e-9
        assert not tricks[:lo].any() and not tricks[hi + 1:].any()


def test_the_network_sees_only_the_view():
    # the inputs are a function of the View alone ...
    assert list(inspect.signature(play_features).parameters) == ["view"]
    rng = random.Random(3)
    for n in (3, 4, 6):
        rules = Rules(n, hand_sizes=[5])
        positions = play_positions(rules, f"hidden:{n}")
        for g, v in positions[::3]:
            # ... so another deal of the cards this seat cannot see, consistent with all it has
            # seen, played the same way so far, gives the same inputs and the same decision
            hands = HandSampler(v, rng).sample().hands
            me = v.seat
            dealt = [(hands[s] | v.played_by[s]) if s != me else (v.hand_mask | v.played_by[s])
                     for s in range(n)]
            other = Game.from_deal(rules, v.dealer, dealt, v.trump_card)
            for s, a in g.actions():
                other.apply(a, seat=s)
            w = other.view(me)
            assert w.to_dict() == v.to_dict()
            assert (play_features(w) == play_features(v)).all()
            assert make("learned").decide(w).action == make("learned").decide(v).action


def test_registered_as_the_level_between_intermediate_and_expert():
    # measured (BENCHMARKS.md, "Learned play"): clearly above intermediate, below the expert
    assert "learned" in names()
    bot = make("learned", seed=1)
    assert isinstance(bot, LearnedBot)
    info = {i.name: i for i in catalog()}["learned"]
    levels = ohhell.bots.LEVELS
    assert levels.index("intermediate") < levels.index("learned") < levels.index("expert")
    assert info.level == levels.index("learned") + 1 and "learned" in info.description
    with pytest.raises(ValueError, match="temperature"):
        make("learned", temperature=-1)


def test_a_server_offers_the_learned_bot_only_where_numpy_is_installed(monkeypatch):
    from ohhell import bots
    from ohhell.server.botpool import bot_names
    assert bots.available("learned") and "learned" in bot_names()
    monkeypatch.setitem(bots.NEEDS, "learned", "no_such_module_here")
    assert not bots.available("learned") and "learned" not in bot_names()
    assert bots.available("expert") and "expert" in bot_names()


def test_bid_reports_each_bids_expected_score():
    g = Game(Rules(4, hand_sizes=[6], hook=True), seed=4)
    v = g.view(g.to_act)
    d = make("learned", bids="trick").decide(v)       # the trick model weighs every legal bid
    assert set(d.values) == set(g.legal_actions())
    near = make("learned").decide(v)                    # the default only those near its best
    assert set(near.values) <= set(g.legal_actions()) and len(near.values) <= 3
    assert max(a.tricks for a in near.values) - min(a.tricks for a in near.values) <= 2
    sure = sure_tricks(v.hand_mask, -1 if v.trump is None else v.trump, -1 if v.trump_card is None else v.trump_card)
    assert d.action.tricks >= sure
    assert d.values[d.action] == max(x for a, x in d.values.items() if a.tricks >= sure)
    assert d.trick_probs is not None and len(d.trick_probs) == 7 and abs(sum(d.trick_probs) - 1) < 1e-9
    assert d.note.startswith(f"bid {d.action.tricks}")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), players=st.integers(3, 7), seed=st.integers(0, 10**6),
       hook=st.booleans(), simultaneous=st.booleans(), zero=st.booleans(), missed=st.booleans(),
       temperature=st.sampled_from([0.0, 1.0]), big=st.booleans())
def test_the_learned_level_always_plays_legal_actions(preset, players, seed, hook, simultaneous, zero, missed,
                                                      temperature, big):
    over = {"players": players, "zero_bid_scores_hand_size": zero, "missed_bid_scores_tricks": missed,
            "simultaneous_bidding": simultaneous, "hook": hook and not simultaneous}
    top = 52 // players
    over["hand_sizes"] = [1, top] if big else [2, 3]
    rules = Rules.preset(preset, **over)
    game = Game(rules, seed=seed)
    bots = [make("learned", seed=s, temperature=temperature) for s in range(players)]
    play_game(game, bots)                     # Game.apply raises on an illegal action
    assert game.is_over
    ohhell.Game.from_record(game.record())


def test_mixed_table_with_the_other_bots():
    rules = Rules(4, hand_sizes=[1, 4, 13])
    game = play_game(Game(rules, seed=9), [make(x, seed=1) for x in ("learned", "heuristic", "learned", "random")],
                     Budget(iterations=5))
    assert game.is_over


def test_expert_with_the_learned_prior_plays_legally_and_reproducibly():
    rules = Rules(4, hand_sizes=[5])
    positions = play_positions(rules, "prior")
    for g, v in positions[:8]:
        a = make("expert", seed=3, iterations=12, seconds=60, learned_prior=1.0).decide(v)
        b = make("expert", seed=3, iterations=12, seconds=60, learned_prior=1.0).decide(v)
        assert a.action in v.legal and (a.action, a.values) == (b.action, b.values)
    with pytest.raises(ValueError, match="learned_prior"):
        make("expert", learned_prior=-1)


def test_training_command_end_to_end(tmp_path):
    out = tmp_path / "play.npz"
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "train_play_model.py"), "--teacher-hands", "6",
           "--chunk", "2", "--teacher-iterations", "3", "--selfplay-hands", "16", "--epochs", "1",
           "--bid-epochs", "1", "--hidden", "16", "--bid-hidden", "8", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "src")}
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "play epoch 1" in r.stdout and "bid epoch 1" in r.stdout and "wrote" in r.stdout
    bot = LearnedBot(seed=0, weights=str(out))
    game = play_game(Game(Rules(3, hand_sizes=[2, 3]), seed=1), [bot] * 3)
    assert game.is_over
    # the same seed gives the same weights
    out2 = tmp_path / "play2.npz"
    r = subprocess.run(cmd[:-1] + [str(out2)], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    with np.load(out) as a, np.load(out2) as b:
        assert sorted(a.files) == sorted(b.files)
        for k in a.files:
            assert (a[k] == b[k]).all(), k
    # --bids-only on the play network of the whole run rebuilds the same bid model ...
    out3 = tmp_path / "play3.npz"
    with np.load(out) as a:
        np.savez(out3, **{k: a[k] for k in a.files if k.startswith("p_")})
    r = subprocess.run(cmd[:-1] + [str(out3), "--bids-only"], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "play epoch" not in r.stdout and "bid epoch 1" in r.stdout
    with np.load(out) as a, np.load(out3) as c:
        assert sorted(a.files) == sorted(c.files)
        for k in a.files:
            assert (a[k] == c[k]).all(), k
    # ... and without one it says what to do, with no traceback
    r = subprocess.run(cmd[:-1] + [str(tmp_path / "none.npz"), "--bids-only"], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 2 and "train it first" in r.stderr and "Traceback" not in r.stderr
    # --bid-data teacher: the bid model learns from the teacher's hands (no self-play), and
    # --bids-only with the teacher's hands in --cache rebuilds that same model
    cache = tmp_path / "teacher.npz"
    out4 = tmp_path / "play4.npz"
    r = subprocess.run(cmd[:-1] + [str(out4), "--bid-data", "teacher", "--cache", str(cache)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "self-play" not in r.stdout and "bid epoch 1" in r.stdout, r.stdout
    with np.load(out) as a, np.load(out4) as d:
        assert all((a[k] == d[k]).all() for k in a.files if k.startswith("p_"))
        assert any((a[k] != d[k]).any() for k in a.files if k.startswith("b_"))
    out5 = tmp_path / "play5.npz"
    with np.load(out4) as d:
        np.savez(out5, **{k: d[k] for k in d.files if k.startswith("p_")})
    r = subprocess.run(cmd[:-1] + [str(out5), "--bid-data", "teacher", "--cache", str(cache), "--bids-only"],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "teacher data" in r.stdout and "play epoch" not in r.stdout
    with np.load(out4) as d, np.load(out5) as e:
        assert all((d[k] == e[k]).all() for k in d.files)
    BidNet.load(str(out5))
    # --explore-hands: more hands the expert plays out after exploring bids, for the bid model
    # alone; kept beside the cache, and a second run from it writes the same weights
    outs = []
    for name in ("x1.npz", "x2.npz"):
        outs.append(tmp_path / name)
        r = subprocess.run(cmd[:-1] + [str(outs[-1]), "--bid-data", "teacher", "--cache", str(cache),
                                       "--explore-hands", "6", "--explore-share", "1"],
                           capture_output=True, text=True, env=env, timeout=300)
        assert r.returncode == 0, r.stderr
        assert "exploring bids" in r.stdout, r.stdout
    assert (tmp_path / "teacher.explore.npz").exists() and "from" in r.stdout
    with np.load(out4) as d, np.load(outs[0]) as x, np.load(outs[1]) as y:
        assert all((d[k] == x[k]).all() for k in d.files if k.startswith("p_"))
        assert any((d[k] != x[k]).any() for k in d.files if k.startswith("b_"))
        assert all((x[k] == y[k]).all() for k in x.files)
    with np.load(tmp_path / "teacher.explore.npz") as f:
        assert len(f["By"]) and len(f["Byv"])
    # they feed --bid-data teacher only; a share outside 0..1 is refused
    for bad, why in ((["--explore-hands", "6"], "--bid-data teacher"),
                     (["--bid-data", "teacher", "--explore-share", "2"], "between 0 and 1")):
        r = subprocess.run(cmd + bad, capture_output=True, text=True, env=env, timeout=300)
        assert r.returncode == 2 and why in r.stderr and "Traceback" not in r.stderr


def test_exploring_teacher_hands_vary_the_bids():
    """``teacher_chunk`` with an explore share of 1: every bid legal, the first bidder's hand
    the same (the first deal does not depend on the share), and other bids than the trick
    model's usual ones."""
    from ohhell.bots import playtrain
    plain, _ = playtrain.teacher_chunk((4, "x", 2))
    explored, _ = playtrain.teacher_chunk((4, "x", 2, 1.0))
    assert list(plain[0][0]) == list(explored[0][0])
    assert [b[1] for b in plain] != [b[1] for b in explored]
    assert all(0 <= b[1] <= b[3] for b in explored)


def test_dagger_hands_are_played_by_the_network_and_labelled_by_the_expert(tmp_path):
    """DAgger: with beta 0 every card played is the network's most likely card, yet every
    decision with a choice carries the expert's visit shares; with beta 1 the hands are the
    expert's own (the teacher's data on the DAgger deals); and the script adds the DAgger
    decisions to the teacher's, the same for the same seed."""
    from ohhell.bots.playnet import DEFAULT_PLAY_WEIGHTS, shared_nets
    from ohhell.bots import playtrain
    net, _ = shared_nets(DEFAULT_PLAY_WEIGHTS)
    played = []
    real = playtrain._play_hand

    def spy(rules, seed, rng, model, card_fn, soft, explore=0.0):
        def card(view):
            action, target = card_fn(view)
            played.append((view, action, target))
            return action, target
        return real(rules, seed, rng, model, card, soft, explore)

    playtrain._play_hand = spy
    try:
        bids, plays = playtrain.dagger_chunk((3, "t", 5, DEFAULT_PLAY_WEIGHTS, 0.0))
    finally:
        playtrain._play_hand = real
    choices = [(v, a, t) for v, a, t in played if len(v.legal) > 1]
    assert choices and len(plays) == len(choices) and bids
    for view, action, target in choices:
        policy, _ = net.evaluate(view)
        assert action == max(view.legal, key=lambda a: (policy[a], -a.card))
        assert target and abs(sum(target.values()) - 1) < 1e-9
        assert set(target) <= {int(a.card) for a in view.legal}
    # beta 1: the same deals and bids, the expert's cards (so some other card somewhere)
    first = [(v.hand_mask, a) for v, a, _ in choices]
    played.clear()
    playtrain._play_hand = spy
    try:
        expert_bids, _ = playtrain.dagger_chunk((3, "t", 5, DEFAULT_PLAY_WEIGHTS, 1.0))
    finally:
        playtrain._play_hand = real
    assert [b[1] for b in expert_bids] == [b[1] for b in bids]
    assert [(v.hand_mask, a) for v, a, _ in played if len(v.legal) > 1] != first
    # the script: --dagger-hands adds the decisions, deterministically
    out = tmp_path / "dagger.npz"
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "train_play_model.py"), "--teacher-hands", "6",
           "--chunk", "2", "--teacher-iterations", "3", "--selfplay-hands", "16", "--epochs", "1",
           "--bid-epochs", "1", "--hidden", "16", "--bid-hidden", "8", "--dagger-hands", "4",
           "--dagger-from", DEFAULT_PLAY_WEIGHTS, "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "src")}
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "DAgger round 1" in r.stdout and "wrote" in r.stdout, r.stdout
    one_round = next(line for line in r.stdout.splitlines() if line.startswith("DAgger round 1"))
    r2 = subprocess.run(cmd[:-1] + [str(tmp_path / "again.npz")], capture_output=True, text=True, env=env,
                        timeout=300)
    assert r2.returncode == 0, r2.stderr
    with np.load(out) as a, np.load(tmp_path / "again.npz") as b:
        assert all((a[k] == b[k]).all() for k in a.files)
    # a second --dagger-from is a second round on deals of its own; the first round is unchanged
    r3 = subprocess.run(cmd[:-2] + ["--dagger-from", str(out), "--out", str(tmp_path / "two.npz")],
                        capture_output=True, text=True, env=env, timeout=300)
    assert r3.returncode == 0, r3.stderr
    lines = r3.stdout.splitlines()
    first = next(line for line in lines if line.startswith("DAgger round 1"))
    second = next(line for line in lines if line.startswith("DAgger round 2"))
    assert first.split(" decisions")[0].split("):")[1] == one_round.split(" decisions")[0].split("):")[1]
    assert str(out) in second and "card decisions" in second
    # --cache keeps the teacher's data and each round's beside it; a run from them writes the same weights
    cache = tmp_path / "cache.npz"
    runs = []
    for name in ("c1.npz", "c2.npz"):
        r4 = subprocess.run(cmd[:-2] + ["--dagger-from", str(out), "--cache", str(cache), "--out", str(tmp_path / name)],
                            capture_output=True, text=True, env=env, timeout=300)
        assert r4.returncode == 0, r4.stderr
        runs.append([line for line in r4.stdout.splitlines() if line.startswith("DAgger round")])
    assert cache.exists() and (tmp_path / "cache.dagger1.npz").exists() and (tmp_path / "cache.dagger2.npz").exists()
    assert [x.split(", ")[:2] for x in runs[0]] == [x.split(", ")[:2] for x in runs[1]]
    with np.load(tmp_path / "two.npz") as a, np.load(tmp_path / "c1.npz") as b, np.load(tmp_path / "c2.npz") as c:
        assert all((a[k] == b[k]).all() and (b[k] == c[k]).all() for k in a.files)
    # WEIGHTS@N: that round labelled by a stronger expert; the same deals and network, other labels
    r5 = subprocess.run(cmd[:-3] + [DEFAULT_PLAY_WEIGHTS + "@7", "--out", str(tmp_path / "strong.npz")],
                        capture_output=True, text=True, env=env, timeout=300)
    assert r5.returncode == 0, r5.stderr
    strong = next(line for line in r5.stdout.splitlines() if line.startswith("DAgger round 1"))
    assert "the expert at 7 deals" in strong and "the expert at" not in one_round
    assert f"({DEFAULT_PLAY_WEIGHTS}," in strong
    with np.load(out) as a, np.load(tmp_path / "strong.npz") as b:
        assert any(not np.array_equal(a[k], b[k]) for k in a.files if k.startswith("p_"))
    # no network to play the DAgger hands, or no sampled deal to label them: one line, no traceback
    for bad, why in ((str(tmp_path / "none.npz"), "does not exist"), (DEFAULT_PLAY_WEIGHTS + "@0", "at least 1")):
        r = subprocess.run(cmd[:-4] + ["--dagger-from", bad, "--out", str(out)],
                           capture_output=True, text=True, env=env, timeout=300)
        assert r.returncode == 2 and why in r.stderr and "Traceback" not in r.stderr


def bid_views(rules: Rules, seeds) -> list:
    """The first bidder's view in one game per seed."""
    out = []
    for seed in seeds:
        g = Game(rules, seed=seed)
        out.append(g.view(g.seats_to_act[0]))
    return out


def test_the_experts_bid_net_blends_the_networks_expected_scores_into_the_search():
    from ohhell.bots.learned import features
    from ohhell.bots.learnedbot import bid_position
    from ohhell.scoring import hand_score
    rules = Rules.preset("openspiel")
    search = dict(seed=4, iterations=20, seconds=60, bidder="search")    # bid_net blends into the search
    for v in bid_views(rules, ["net0", "net1", "net2"]):
        off = make("expert", **search).decide(v)
        zero = make("expert", **search, bid_net=0).decide(v)
        half = make("expert", **search, bid_net=0.5).decide(v)
        full = make("expert", **search, bid_net=1).decide(v)
        assert (off.action, off.values) == (zero.action, zero.values)
        h = v.hand_size
        pos, earlier, hook = bid_position(v)
        trump = -1 if v.trump is None else v.trump
        base = features(v.hand_mask, trump, int(v.trump_card), v.players, h, pos, earlier, hook)
        cands = [a.tricks for a in off.values]
        dists = shared_nets()[1].by_bid(base, cands, h)
        net = {b: sum(float(p) * hand_score(b, k, h, v.rules) for k, p in enumerate(dists[b])) for b in cands}
        # the same search (same seed), each candidate's score moved half-way or all the way to the network's
        for a in off.values:
            b = a.tricks
            assert half.values[a] == pytest.approx((off.values[a] + net[b]) / 2, abs=1e-9)
            assert full.values[a] == pytest.approx(net[b], abs=1e-9)
        assert full.action.tricks == max(cands, key=lambda b: net[b])
        for d in (half, full):
            assert d.action in v.legal and sum(d.trick_probs) == pytest.approx(1.0)
    for bad in (-0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="bid_net"):
            make("expert", bid_net=bad)


def test_the_expert_with_the_learned_bidder_bids_as_the_learned_level_and_searches_the_cards():
    bot, learned = make("expert", seed=4, iterations=20, seconds=60, bidder="learned"), make("learned")
    for flags in ({}, {"hook": True}, {"must_trump": True}):
        g = Game(Rules.preset("standard", players=4, hand_sizes=[1, 6], **flags), seed=7)
        while g.phase == "bid" or g.hand_index == 0:    # the one-card hand (exact), then six cards
            v = g.view(g.seats_to_act[0])
            if v.phase == "bid":
                d, want = bot.decide(v), learned.decide(v)
                assert (d.action, d.values) == (want.action, want.values)
            g.apply(bot.act(v))
        v = g.view(g.seats_to_act[0])
        if v.phase == "play":
            # the cards are the search's, not the network's: the same search as the default's
            d = make("expert", seed=4, iterations=20, seconds=60, bidder="learned").decide(v)
            e = make("expert", seed=4, iterations=20, seconds=60).decide(v)
            assert (d.action, d.values) == (e.action, e.values)
    with pytest.raises(ValueError, match="bidder"):
        make("expert", bidder="network")


def test_the_experts_default_bid_is_the_learned_levels_and_the_search_where_numpy_is_missing(monkeypatch):
    # measured stronger and 20 times faster to bid (BENCHMARKS.md, "The expert with the learned
    # level's bids"); without NumPy the expert still plays, bidding by its search
    from ohhell import bots
    v = bid_views(Rules.preset("standard", players=4, hand_sizes=[6]), ["auto0"])[0]
    budget = dict(seed=4, iterations=20, seconds=60)
    bot = make("expert", **budget)
    assert bot.bidder == "learned"
    d, want = bot.decide(v), make("expert", **budget, bidder="learned").decide(v)
    assert (d.action, d.values) == (want.action, want.values)
    monkeypatch.setitem(bots.NEEDS, "learned", "no_such_module_here")
    bot = make("expert", **budget)
    assert bot.bidder == "search"
    d, want = bot.decide(v), make("expert", **budget, bidder="search").decide(v)
    assert (d.action, d.values) == (want.action, want.values) and d.stats["deals"] > 0   # sampled deals: searched


# --- the lookahead option (ohhell.bots.lookahead) -------------------------------------------------

from ohhell.bots.lookahead import hand_from_view, lookahead_values  # noqa: E402


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), players=st.integers(3, 7), seed=st.integers(0, 10**6),
       simultaneous=st.booleans(), pick=st.integers(0, 10**6), sampled=st.booleans())
def test_a_hand_rebuilt_from_a_view_shows_every_seat_what_it_sees_there(preset, players, seed, simultaneous,
                                                                         pick, sampled):
    """With the real hidden hands the rebuilt hand gives the view's seat the same view (this
    hand's part of it) and every other seat its real hand; with sampled ones, the seat's view
    is the same and every seat holds what the sample gave it."""
    rules = Rules.preset(preset, players=players, hand_sizes=[1, 52 // players],
                         simultaneous_bidding=simultaneous, **({"hook": False} if simultaneous else {}))
    positions = play_positions(rules, str(seed))
    game, view = positions[pick % len(positions)]
    me = view.seat
    hands = (list(HandSampler(view, random.Random(pick)).sample().hands) if sampled
             else [game.hand_mask(s) for s in range(players)])
    rebuilt = hand_from_view(view, hands)
    again = rebuilt.view(me)
    for field in ("hand_mask", "bids", "tricks", "trick", "tricks_won", "legal", "voids", "unseen_mask",
                  "trump_card", "trump", "dealer", "to_act", "hand_size", "played_mask"):
        assert getattr(again, field) == getattr(view, field), field
    assert [rebuilt.hand_mask(s) for s in range(players) if s != me] == [hands[s] for s in range(players) if s != me]


def test_the_lookahead_plays_one_of_the_networks_likeliest_cards_reproducibly():
    rules = Rules.preset("openspiel", players=4)
    for _, view in play_positions(rules, "la")[:8]:
        legal = view.legal_actions()
        if len(legal) < 2:
            continue
        bots = [LearnedBot(seed=3, lookahead=4, width=2), LearnedBot(seed=3, lookahead=4, width=2)]
        a, b = (bot.decide(view) for bot in bots)
        assert a.action == b.action and a.note == b.note
        policy, _ = bots[0].play_net.evaluate(view)
        assert a.action in sorted(legal, key=lambda x: (-policy[x], x.card))[:2]
        q = lookahead_values(bots[0].play_net, view, [int(x.card) for x in legal], 3, random.Random(1), to_end=True)
        scores = {ohhell.scoring.hand_score(view.bids[view.seat], k, view.hand_size, rules) for k in range(6)}
        assert all(min(scores) <= x <= max(scores) for x in q.values())   # a mean of exact hand scores


def test_a_game_with_the_lookahead_is_legal_and_bad_options_are_refused():
    rules = Rules(4, hand_sizes=[1, 5])
    game = play_game(Game(rules, seed=4), [LearnedBot(seed=s, lookahead=2, to_end=s % 2 == 0) for s in range(4)])
    assert game.is_over
    for bad in ({"lookahead": -1}, {"lookahead": 1.5}, {"width": 0}, {"lookahead": True}):
        with pytest.raises(ValueError):
            LearnedBot(**bad)


# --- the exact endgame option ---------------------------------------------------------------------

def test_the_endgame_leads_the_ace_of_trumps_first_when_it_needs_both_tricks():
    """Two tricks left, the seat on lead needs both and holds the ace of trumps and the two of
    hearts: the two first can win only where the ace first also wins both, so every sampled
    deal says the ace first, whatever the network prefers."""
    from ohhell import Bid
    deal = [["5C", "6C"], ["AS", "2H"], ["KH", "QD"], ["7C", "8D"]]
    game = Game.from_deal(Rules(4, hand_sizes=[2], no_trump="never"), 0, deal, "3S")
    for b in (2, 0, 0, 1):
        game.apply(Bid(b))
    view = game.view(1)
    d = LearnedBot(seed=1, endgame=2, endgame_deals=64).decide(view)
    assert str(d.action.card) == "AS"
    assert d.action == LearnedBot(seed=9, endgame=2, endgame_deals=64).decide(view).action


def test_the_endgame_keeps_the_networks_card_before_its_last_tricks():
    rules = Rules.preset("openspiel", players=4)
    for _, view in play_positions(rules, "eg")[:12]:
        legal = view.legal_actions()
        plain = LearnedBot().decide(view)
        late = LearnedBot(seed=2, endgame=2).decide(view)
        assert late.action in legal
        if bin(view.hand_mask).count("1") > 2 or len(legal) < 2:
            assert late.action == plain.action          # the solver is asked only for the last 2 tricks


def test_the_endgame_gives_a_position_the_same_card_whatever_the_bot_decided_before():
    rules = Rules.preset("standard", players=4, hand_sizes=[3])
    late = [v for _, v in play_positions(rules, "eg2") if v.phase == "play" and bin(v.hand_mask).count("1") <= 2
            and len(v.legal_actions()) > 1]
    assert late
    used = LearnedBot(seed=5, endgame=2)
    for v in late + late[::-1]:
        assert used.decide(v).action == LearnedBot(seed=5, endgame=2).decide(v).action


def test_a_game_with_the_endgame_is_legal_and_bad_options_are_refused():
    game = play_game(Game(Rules(4, hand_sizes=[1, 5]), seed=4), [LearnedBot(seed=s, endgame=3) for s in range(4)])
    assert game.is_over
    assert LearnedBot().endgame == 0       # off by default: its slowest decisions are over 10 ms
    for bad in ({"endgame": -1}, {"endgame": 5}, {"endgame": True}, {"endgame_deals": 0}, {"endgame_deals": 2.5}):
        with pytest.raises(ValueError, match="endgame"):
            LearnedBot(**bad)


def test_selfplay_extra_adds_another_seeds_cached_bids(tmp_path):
    """--selfplay-extra: the bids of another seed's self-play cache, made on the same weights
    and rules, join this run's; a cache made on other rules is refused with a clear error."""
    import shutil
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "src")}

    def run(seed, rules, *extra):
        out = tmp_path / f"w{seed}{rules}{len(extra)}.npz"
        shutil.copy(DEFAULT_PLAY_WEIGHTS, out)      # the same weights before every run
        cmd = [sys.executable, os.path.join(ROOT, "scripts", "train_play_model.py"), "--bids-only",
               "--seed", str(seed), "--selfplay-rules", rules, "--selfplay-hands", "12", "--chunk", "1",
               "--bid-epochs", "1", "--bid-hidden", "8", "--selfplay-cache", str(tmp_path / f"c{seed}{rules}.npz"),
               "--out", str(out)]
        for e in extra:
            cmd += ["--selfplay-extra", str(e)]
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)

    def bids(r):
        line = next(x for x in r.stdout.splitlines() if x.startswith("self-play: "))
        return int(line.split()[1]), int(line.split("(")[1].split()[0])

    one, two = run(1, "standard-one"), run(2, "standard-one")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    both = run(1, "standard-one", tmp_path / "c2standard-one.npz")
    assert both.returncode == 0, both.stderr
    assert "from" in both.stdout                           # seed 1's own hands come from its cache
    assert bids(both) == tuple(a + b for a, b in zip(bids(one), bids(two)))
    other = run(3, "standard")
    assert other.returncode == 0, other.stderr
    bad = run(1, "standard-one", tmp_path / "c3standard.npz")
    assert bad.returncode != 0 and "other rules" in bad.stderr and "Traceback" not in bad.stderr
    missing = run(1, "standard-one", tmp_path / "nowhere.npz")
    assert missing.returncode != 0 and "no such file" in missing.stderr
    # standard-learned: the others bid by the bid model in --out, so it needs one
    learned = run(4, "standard-learned")
    assert learned.returncode == 0, learned.stderr
    whole = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "train_play_model.py"),
                            "--selfplay-rules", "standard-learned", "--out", str(tmp_path / "x.npz")],
                           capture_output=True, text=True, env=env, timeout=300)
    assert whole.returncode == 2 and "needs --bids-only" in whole.stderr


def test_self_play_hands_of_the_standard_game():
    from ohhell.bots.learned import N_FEATURES
    from ohhell.bots.playtrain import selfplay_chunk
    bids, plays = selfplay_chunk((6, "s", DEFAULT_PLAY_WEIGHTS, "standard"))
    again, _ = selfplay_chunk((6, "s", DEFAULT_PLAY_WEIGHTS, "standard"))
    other, _ = selfplay_chunk((6, "s", DEFAULT_PLAY_WEIGHTS))
    assert bids and plays == [] and [b[1:] for b in bids] == [b[1:] for b in again]
    assert [b[1:] for b in bids] != [b[1:] for b in other]
    hook = N_FEATURES - 3                          # the hook flag of ohhell.bots.learned.features
    for x, bid, tricks, h in bids:
        assert x[hook] == 0.0 and 0 <= bid <= h and 0 <= tricks <= h
    with pytest.raises(ValueError, match="random, standard, standard-one, standard-learned"):
        selfplay_chunk((1, "s", DEFAULT_PLAY_WEIGHTS, "odd"))


def test_self_play_where_one_seat_a_hand_explores_its_bid(monkeypatch):
    """standard-one: in each hand one seat explores and every other bids the trick model's best."""
    from ohhell.bots import playtrain
    calls: list = []
    real_bid, real_hand = playtrain.model_bid_choice, playtrain._play_hand

    def bid(view, model, rng, soft, beta=1.0, explore=0.0, window=2):
        calls[-1].append((soft, explore))
        return real_bid(view, model, rng, soft, beta=beta, explore=explore, window=window)

    def hand(rules, *a, **k):
        calls.append([])
        out = real_hand(rules, *a, **k)
        assert len(calls[-1]) == rules.players
        return out

    monkeypatch.setattr(playtrain, "model_bid_choice", bid)
    monkeypatch.setattr(playtrain, "_play_hand", hand)
    bids, _ = playtrain.selfplay_chunk((8, "one", DEFAULT_PLAY_WEIGHTS, "standard-one"))
    assert len(calls) == 8 and sum(len(c) for c in calls) == len(bids)
    for c in calls:
        assert sorted(c) == [(0.0, 0.0)] * (len(c) - 1) + [(0.0, 1.0)]


def test_self_play_where_the_others_bid_as_the_learned_level(monkeypatch):
    """standard-learned: one seat a hand explores; every other bids what the learned level
    with the same weights bids in its place, and its example carries that bid."""
    from ohhell.bots import playtrain
    from ohhell.bots.learnedbot import bid_features
    learned = LearnedBot()
    seen: list = []
    real_hand = playtrain._play_hand

    def hand(rules, *a, bidder=None, explorer=None, **k):
        assert bidder is not None and explorer is not None

        def watched(view):
            b = bidder(view)
            assert view.seat != explorer and b == learned.decide(view).action.tricks
            seen.append((bid_features(view), b))
            return b
        return real_hand(rules, *a, bidder=watched, explorer=explorer, **k)

    monkeypatch.setattr(playtrain, "_play_hand", hand)
    bids, _ = playtrain.selfplay_chunk((6, "l", DEFAULT_PLAY_WEIGHTS, "standard-learned"))
    assert seen and len(bids) > len(seen)
    rows = [(list(x), b) for x, b, _, _ in bids]
    assert all((list(x), b) in rows for x, b in seen)


def test_bid_window_keeps_the_conditioned_bid_near_the_trick_models_best():
    near = make("learned", bids="conditioned", bid_window=1)
    free = make("learned", bids="conditioned")
    trick = make("learned", bids="trick")
    for seed in range(12):
        g = Game(Rules(4, hand_sizes=[9]), seed=seed)
        v = g.view(g.seats_to_act[0])
        t = trick.decide(v)
        top = max(t.values, key=lambda a: (t.values[a], -a.tricks)).tricks
        d = near.decide(v)
        assert d.values and all(abs(a.tricks - top) <= 1 for a in d.values)
        assert set(free.decide(v).values) == set(v.legal)
    with pytest.raises(ValueError, match="bid_window must be"):
        make("learned", bid_window=-2)


@settings(max_examples=200, deadline=None)
@given(dist=st.lists(st.floats(0.0, 1.0), min_size=2, max_size=11).filter(lambda d: sum(d) > 0.01),
       pick=st.integers(0, 10), lift=st.floats(-3.0, 3.0))
@example(dist=[1.0, 5e-324], pick=1, lift=1.0)       # a chance so small its odds once overflowed
@example(dist=[5e-324, 1.0], pick=1, lift=-3.0)
def test_lift_made_moves_only_the_bids_chance_and_keeps_a_distribution(dist, pick, lift):
    from ohhell.bots.learnedbot import lift_made
    dist = [p / sum(dist) for p in dist]
    bid = pick % len(dist)
    out = lift_made(dist, bid, lift)
    assert sum(out) == pytest.approx(1.0) and all(p >= 0 for p in out)
    p, q = dist[bid], out[bid]
    if 0 < p < 1 and lift:
        assert (q > p) == (lift > 0) or q == pytest.approx(p, abs=1e-9)
        # the other counts keep their proportions
        rest = [k for k in range(len(dist)) if k != bid and dist[k] > 0]
        for k in rest:
            assert out[k] * dist[rest[0]] == pytest.approx(dist[k] * out[rest[0]], abs=1e-12)
    else:
        assert out == pytest.approx(dist)


def test_bid_lift_raises_the_bids_chance_and_so_only_ever_raises_the_bid():
    plain, lifted = make("learned"), make("learned", bid_lift=0.3)
    raised = 0
    for seed in range(40):
        g = Game(Rules(4, hand_sizes=[8]), seed=seed)
        v = g.view(g.seats_to_act[0])
        a, b = plain.decide(v), lifted.decide(v)
        assert b.action.tricks >= a.action.tricks and b.action in v.legal
        assert b.trick_probs[b.action.tricks] >= a.stats["trick_probs_by_bid"][b.action][b.action.tricks] - 1e-12
        raised += b.action != a.action
    assert raised          # a lift this size moves some bids up
    # the expert passes it to its learned bidder
    g = Game(Rules(4, hand_sizes=[8]), seed=3)
    v = g.view(g.seats_to_act[0])
    assert make("expert", bid_lift=0.3).decide(v).action == lifted.decide(v).action
    for bad in (-0.1, 2.5, float("nan"), True, "x"):
        with pytest.raises(ValueError, match="bid_lift"):
            make("learned", bid_lift=bad)
        with pytest.raises(ValueError, match="bid_lift"):
            make("expert", bid_lift=bad)
    with pytest.raises(ValueError, match="bid_lift needs the learned bidder"):
        make("expert", bidder="search", bid_lift=0.1)


@pytest.mark.parametrize("flags", [{}, {"hook": True}, {"must_trump": True}, {"missed_bid_scores_tricks": True},
                                   {"zero_bid_scores_hand_size": True}, {"simultaneous_bidding": True}])
def test_the_default_bid_is_the_conditioned_models_near_the_trick_models_best_under_every_variant(flags):
    # measured better than the trick model's bid under the standard game and each variant
    auto, trick = make("learned"), make("learned", bids="trick")
    near = make("learned", bids="conditioned", bid_window=1)
    changed = 0
    for seed in range(20):
        g = Game(Rules.preset("standard", players=4, hand_sizes=[8], **flags), seed=seed)
        v = g.view(g.seats_to_act[0])
        a, t = auto.decide(v), trick.decide(v)
        assert a.action == near.decide(v).action and abs(a.action.tricks - t.action.tricks) <= 1
        assert a.action in v.legal
        changed += a.action != t.action
    assert changed        # the conditioned model does move some bids


@pytest.fixture(scope="module")
def training_script():
    """scripts/train_play_model.py as a module, loaded once for the tests that call into it."""
    import importlib.util
    path = os.path.join(ROOT, "scripts", "train_play_model.py")
    spec = importlib.util.spec_from_file_location("train_play_model", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_training_softmax_makes_no_subnormal_probability(training_script):
    # A confident model's unlikeliest classes once came out as float32 subnormals, which made
    # every matmul of the backward pass about 30 times slower (epochs from 15 s to 250 s).
    z = np.array([[0.0, -95.0, -300.0, 5.0], [1.0, 2.0, 3.0, 4.0]], dtype=np.float32)
    mask = np.array([[True, True, True, False], [True, True, True, True]])
    target = np.eye(4, dtype=np.float32)[[0, 3]]
    loss, d = training_script.softmax_ce(z, mask, target)
    tiny = np.finfo(np.float32).tiny
    assert not ((d != 0) & (np.abs(d) < tiny)).any()
    assert d[0, 3] == 0 and abs(loss[0]) < 1e-6             # the masked class takes no share
    assert np.allclose(d.sum(1), 0, atol=1e-6)              # still a distribution minus a target


def test_adam_flushes_a_dead_units_shrinking_weights_to_zero_not_to_subnormals(training_script):
    # A dead ReLU's weights see only the weight decay; they and their moments once shrank into
    # float32 subnormals, and the matmuls touching them ran about 30 times slower.
    tiny = np.finfo(np.float32).tiny
    p = {"W": np.array([[1e-30, 0.5], [-2e-38, 1.0]], dtype=np.float32)}
    opt = training_script.Adam(p, 1e-3)
    for _ in range(200):
        opt.step(p, {"W": 1e-4 * p["W"]}, 1e-3)
        for a in (p["W"], opt.m["W"], opt.v["W"]):
            assert not ((a != 0) & (np.abs(a) < tiny)).any()
    assert p["W"][0, 1] > 0.2 and p["W"][1, 1] > 0.7     # live weights still train as before


def test_dead_units_counts_the_units_no_example_opens(training_script):
    acts = [None, np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 2.0]]), np.array([[0.0, 0.0], [0.0, 0.0]])]
    assert training_script.dead_units(acts) == [1, 2]
