"""The ``pimc`` reference bot and the solver it uses (``solve_cards``)."""

import random

import pytest
from hypothesis import given, settings, strategies as st

import ohhell
from ohhell.actions import Bid, Play
from ohhell.bots import make
from ohhell.bots.match import check_options
from ohhell.bots.pimc import PimcBot
from ohhell.bots.solver import solve, solve_cards
from ohhell.cards import parse_card
from ohhell.fast import HandState
from ohhell.rules import Rules
from ohhell.scoring import hand_score


def _play_out(rules, seed, bots):
    g = ohhell.Game(rules, seed=seed)
    actions = []
    while not g.is_over:
        v = g.view(g.to_act)
        d = bots[g.to_act].decide(v)
        assert d.action in v.legal_actions()
        if d.trick_probs is not None:
            assert abs(sum(d.trick_probs) - 1) < 1e-9
        actions.append(d.action)
        g.apply(d.action)
    return g, actions


@pytest.mark.parametrize("players,extra", [
    (3, {}), (4, {"hook": True}), (5, {"no_trump": "largest"}), (6, {"must_trump": True}),
    (7, {"simultaneous_bidding": True}), (3, {"hook": True, "must_trump": True}),
])
def test_pimc_plays_legal_games_in_every_variant(players, extra):
    rules = Rules(players, hand_sizes=[3, 2], **extra)
    bots = [make("pimc", seed=s, determinizations=3) if s < 2 else make("heuristic", seed=s)
            for s in range(players)]
    g, _ = _play_out(rules, 1, bots)
    assert len(g.past_hands) == 2


def test_pimc_is_reproducible_with_a_seed():
    rules = Rules(3, hand_sizes=[4, 3])
    runs = [_play_out(rules, 2, [make("pimc", seed=f"x{s}", determinizations=4) for s in range(3)])[1]
            for _ in range(2)]
    assert runs[0] == runs[1]


def _ace_game(other0, other1):
    # Trump hearts; seat 2 (bid 2) must follow hearts after KH and 3H: AH wins this trick
    # and QH is then the highest trump left, QH now loses this one.
    rules = Rules(3, hand_sizes=[2], no_trump="never")
    g = ohhell.Game.from_deal(rules, dealer=2, deal=[["KH", other0], ["3H", other1], ["AH", "QH"]],
                              trump_card="5H")
    for b in (1, 0, 2):
        g.apply(Bid(b))
    g.apply(Play(parse_card("KH")))
    g.apply(Play(parse_card("3H")))
    return g


def test_pimc_takes_the_trick_it_needs_with_the_ace_of_trumps():
    g = _ace_game("2C", "4C")
    d = PimcBot(seed=1, determinizations=10).decide(g.view(2))
    assert d.action == Play(parse_card("AH"))
    assert d.values[Play(parse_card("AH"))] > d.values[Play(parse_card("QH"))]
    assert d.note


def test_pimc_never_reads_hidden_cards():
    # Two games that differ only in the cards other seats still hide: the same decision.
    a = PimcBot(seed=5, determinizations=10).decide(_ace_game("2C", "4C").view(2))
    b = PimcBot(seed=5, determinizations=10).decide(_ace_game("7D", "9S").view(2))
    assert (a.action, a.values) == (b.action, b.values)
    rules = Rules(3, hand_sizes=[5], no_trump="never")
    mine = ["AS", "KD", "7H", "2C", "9C"]
    g1 = ohhell.Game.from_deal(rules, dealer=2, deal=[mine, ["2S", "3S", "4S", "5S", "6S"],
                                                      ["2D", "3D", "4D", "5D", "6D"]], trump_card="TC")
    g2 = ohhell.Game.from_deal(rules, dealer=2, deal=[mine, ["AH", "KH", "QH", "JH", "AC"],
                                                      ["AD", "QD", "JD", "KC", "QC"]], trump_card="TC")
    a = PimcBot(seed=5, determinizations=8).decide(g1.view(0))
    b = PimcBot(seed=5, determinizations=8).decide(g2.view(0))
    assert (a.action, a.values, a.trick_probs) == (b.action, b.values, b.trick_probs)


def test_pimc_ducks_once_its_bid_is_made():
    # Trump clubs.  Seat 2 bid 1 and took trick 1; in trick 3 it is void in diamonds and
    # may trump with 2C (the lowest card number, so a tie would pick it) or discard 3S.
    rules = Rules(3, hand_sizes=[4], no_trump="never")
    g = ohhell.Game.from_deal(rules, dealer=2, deal=[["4S", "AH", "9D", "7H"], ["2S", "KH", "4D", "6H"],
                                                     ["AS", "2H", "3S", "2C"]], trump_card="5C")
    for b in (1, 0, 1):
        g.apply(Bid(b))
    for c in ("4S", "2S", "AS", "2H", "AH", "KH", "9D", "4D"):
        g.apply(Play(parse_card(c)))
    assert g.to_act == 2
    d = PimcBot(seed=3, determinizations=20).decide(g.view(2))
    assert d.action == Play(parse_card("3S"))


def test_pimc_options_are_checked():
    with pytest.raises(ValueError, match="determinizations"):
        PimcBot(determinizations=0)
    with pytest.raises(ValueError, match="exact_tricks"):
        PimcBot(exact_tricks=14)
    with pytest.raises(ValueError, match="bid_spread"):
        PimcBot(bid_spread=-1)
    assert check_options("pimc", {"determinizations": "5", "exact_tricks": "3"}) == {
        "determinizations": 5, "exact_tricks": 3}
    assert isinstance(make("pimc", seed=1), PimcBot)


def _position(seed, k, n, trump, plays):
    rng = random.Random(seed)
    cards = rng.sample(range(52), n * k + 1)
    hands = [0] * n
    for j, c in enumerate(cards[:n * k]):
        hands[j % n] |= 1 << c
    bids = [rng.randrange(k + 1) for _ in range(n)]
    state = HandState(hands, cards[-1] // 13 if trump else None, rng.randrange(n), hand_size=k, bids=bids,
                      must_trump=rng.random() < 0.3)
    for _ in range(plays):
        if state.tricks_left == 0:
            break
        state.play(rng.choice(state.legal_cards()))
    return state, bids


def test_each_root_card_is_solved_on_its_own():
    # 4D and 5D are one class deeper in the tree, but which stays in the hand changes how an
    # indifferent seat breaks ties later: the root reports each card's own outcome
    state, bids = _position(5, 5, 4, False, 4)
    score = [[hand_score(bids[s], t, 5, Rules(4)) for t in range(6)] for s in range(4)]
    for c, won in solve_cards(state, score).items():
        child = state.copy()
        child.play(c)
        assert won == solve(child, score)


# Derandomized: max^n leaves seats that no card can help free to break ties by the heuristic,
# which may look at which of two equivalent cards is still held, so the merged solver equals
# the plain one on every position tried (0 of 1,500 random ones differ since each root card is
# searched on its own) but is not proved to on every position; CI checks a fixed set.
@settings(max_examples=80, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), k=st.integers(1, 5), n=st.integers(3, 5), trump=st.booleans(),
       plays=st.integers(0, 6), scores_tricks=st.booleans())
def test_merged_solver_equals_plain_solve(seed, k, n, trump, plays, scores_tricks):
    state, bids = _position(seed, k, n, trump, plays)
    rules = Rules.preset("openspiel", players=n, tricks=k) if scores_tricks else Rules(n)
    score = [[hand_score(bids[s], t, k, rules) for t in range(k + 1)] for s in range(n)]
    before = repr(state)
    assert solve_cards(state, score, scores_tricks=scores_tricks, root=False) == solve(
        state, score, scores_tricks=scores_tricks)
    if state.tricks_left:
        by_card = solve_cards(state, score, scores_tricks=scores_tricks)
        assert isinstance(by_card, dict) and sorted(by_card) == state.legal_cards()
        for c, won in by_card.items():
            child = state.copy()
            child.play(c)
            assert won == solve(child, score, scores_tricks=scores_tricks)
    assert repr(state) == before


def test_pimc_keeps_to_a_time_budget_and_an_iteration_budget():
    from ohhell.bots import Budget
    g = ohhell.Game(Rules(3, hand_sizes=[6], no_trump="never"), seed=4)
    v = g.view(g.to_act)
    assert PimcBot(seed=1).decide(v, Budget(iterations=3)).stats["deals"] == 3
    assert PimcBot(seed=1).decide(v, Budget(seconds=0.0)).stats["deals"] == 1
