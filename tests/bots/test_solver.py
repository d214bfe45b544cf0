"""The exact endgame solver (max^n) against a plain brute force, and inference from play."""

import random

from hypothesis import given, settings, strategies as st

import ohhell
from ohhell.bots import make
from ohhell.bots.inference import PlayModel
from ohhell.bots.policy import choose_card
from ohhell.bots.solver import finish, solve
from ohhell.fast import HandState
from ohhell.rules import Rules
from ohhell.sampling import HandSampler
from ohhell.scoring import hand_score

RULES = Rules.preset("openspiel", players=4, tricks=3)


def _brute(state, score, scores_tricks):
    """Max^n by plain recursion (no table, no cut-off): each seat takes the first card whose
    value for it is highest, trying the heuristic's card first; returns the final tricks won."""
    if state.tricks_left == 0:
        return list(state.won)
    p = state.to_act
    cards = state.legal_cards()
    if len(cards) > 1:
        tl = len(state.trick)
        wn = state.winner
        first = choose_card(state.hands[p], state.legal_mask(), tl, state.led if tl else -1, state.best,
                            wn, state.n, state.trump, state.played, state.bids[p] - state.won[p],
                            state.tricks_left, (state.bids[wn] - state.won[wn]) if tl else None,
                            scores_tricks)
        cards.remove(first)
        cards.insert(0, first)
    best, best_v = None, None
    for c in cards:
        s = state.copy()
        s.play(c)
        res = _brute(s, score, scores_tricks)
        v = score[p][res[p]]
        if best_v is None or v > best_v:
            best, best_v = res, v
    return best


def _deal(seed, k, n=4, trump=True):
    rng = random.Random(seed)
    cards = rng.sample(range(52), n * k + 1)
    hands = [0] * n
    for j, c in enumerate(cards[:n * k]):
        hands[j % n] |= 1 << c
    bids = [rng.randrange(k + 1) for _ in range(n)]
    return HandState(hands, cards[-1] // 13 if trump else -1, rng.randrange(n), hand_size=k, bids=bids), bids


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), k=st.integers(1, 3), scores_tricks=st.booleans())
def test_solver_value_matches_brute_force(seed, k, scores_tricks):
    state, bids = _deal(seed, k)
    rules = RULES if scores_tricks else Rules(4)
    score = [[hand_score(bids[s], t, k, rules) for t in range(k + 1)] for s in range(4)]
    got = solve(state, score, scores_tricks=scores_tricks)
    want = _brute(state.copy(), score, scores_tricks)
    assert got == want


def test_solver_does_not_change_the_state_and_memo_is_reusable():
    state, bids = _deal(7, 3)
    score = [[hand_score(bids[s], t, 3, RULES) for t in range(4)] for s in range(4)]
    before = repr(state)
    memo = {}
    a = solve(state, score, scores_tricks=True, memo=memo)
    assert repr(state) == before and memo
    assert solve(state, score, scores_tricks=True, memo=memo) == a


def test_finish_plays_the_heuristic_then_solves():
    state, bids = _deal(11, 5)
    score = [[hand_score(bids[s], t, 5, RULES) for t in range(6)] for s in range(4)]
    won = finish(state.copy(), score, 2, scores_tricks=True)
    assert sum(won) == 5


def test_play_model_prefers_deals_that_explain_the_plays():
    # Heuristic players: the true deal explains every play, so it weighs at least as much as
    # the average sampled deal; a view with no plays of others carries no information.
    rules = Rules.preset("openspiel", players=4, tricks=5)
    for seed in range(6):
        g = ohhell.Game(rules, seed=seed)
        bots = [make("heuristic") for _ in range(4)]
        while g.phase_name == "bid":
            g.apply(bots[g.to_act].act(g.view(g.to_act)))
        first = g.view(g.to_act)
        assert PlayModel(first).events == [] or first.trick.cards
        while sum(g.tricks_won) < 2:
            g.apply(bots[g.to_act].act(g.view(g.to_act)))
        v = g.view(g.to_act)
        model = PlayModel(v, 0.3)
        assert model.events
        true = model.likelihood([g._hands[s] for s in range(4)])
        sampler = HandSampler(v, random.Random(seed))
        ws = [model.likelihood(sampler.sample().hands) for _ in range(100)]
        assert true >= sum(ws) / len(ws)
        # slack 1: the others as uniformly random players (1/k for a choice among k cards)
        assert 0 < PlayModel(v, 1.0).likelihood([g._hands[s] for s in range(4)]) <= 1.0


def test_expert_with_exact_endgames_inference_and_rivalry_plays_legal_games():
    # The options are off by default; switched on, every decision is still legal and the
    # bid's reasoning still sums to one.
    rules = Rules.preset("openspiel", players=4, tricks=5)
    for seed in range(3):
        g = ohhell.Game(rules, seed=seed)
        bots = [make("expert", seed=s, iterations=12, exact=2, play_slack=0.5, rivalry=0.5)
                for s in range(4)]
        while not g.is_over:
            v = g.view(g.to_act)
            d = bots[g.to_act].decide(v)
            assert d.action in v.legal_actions()
            if d.trick_probs is not None:
                assert abs(sum(d.trick_probs) - 1) < 1e-9
            g.apply(d.action)
        assert sum(g.past_hands[-1].tricks_won) == 5
