"""The bot interface: every registered bot plays legal actions from views alone, under every
rules variant, explains its decisions, and is reproducible when seeded with an iteration budget."""

import random

import pytest

import ohhell
from ohhell import Game, Rules
from ohhell.bots import LEVELS, Budget, Decision, make, names, play_game

SMALL = Budget(iterations=6, seconds=2)


def test_registry_has_the_bots_and_levels():
    for name in ("random", "heuristic", "expert", "beginner", "intermediate"):
        assert name in names()
    assert LEVELS == ("beginner", "intermediate", "learned", "expert")
    with pytest.raises(ValueError, match="unknown bot"):
        make("grandmaster")


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("variant", [{}, {"hook": True}, {"must_trump": True},
                                     {"simultaneous_bidding": True},
                                     {"missed_bid_scores_tricks": True, "zero_bid_scores_hand_size": True}])
def test_every_bot_finishes_games_with_legal_actions(players, variant):
    sizes = [1, 3, 52 // players]
    rules = Rules(players, hand_sizes=sizes, **variant)
    lineup = ["expert", "heuristic", "beginner", "random"]
    game = Game(rules, seed=f"{players}:{sorted(variant)}")
    bots = [make(lineup[s % 4], seed=s) for s in range(players)]
    play_game(game, bots, SMALL)                  # Game.apply raises on any illegal action
    assert game.is_over
    ohhell.Game.from_record(game.record())        # and the record verifies


@pytest.mark.parametrize("name", ["heuristic", "beginner", "expert", "random"])
def test_decisions_explain_themselves(name):
    g = Game(Rules(4, hand_sizes=[5, 1], hook=True), seed=3)
    bot = make(name, seed=1)
    d = bot.decide(g.view(g.to_act), SMALL)
    assert isinstance(d, Decision) and d.action in g.legal_actions()
    assert set(d.values) <= set(g.legal_actions()) and d.values
    if name != "random":
        assert d.trick_probs is not None and len(d.trick_probs) == 6
        assert abs(sum(d.trick_probs) - 1) < 1e-6
        assert d.note
    while g.phase_name == "bid":
        g.apply(make("heuristic").act(g.view(g.to_act)))
    d = bot.decide(g.view(g.to_act), SMALL)
    assert d.action in g.legal_actions() and set(d.values) <= set(g.legal_actions())


@pytest.mark.parametrize("bidder", ["learned", "search"])
def test_expert_reports_bid_values_and_card_values(bidder):
    g = Game(Rules(4, hand_sizes=[4, 1]), seed=9)
    d = make("expert", seed=2, bidder=bidder).decide(g.view(g.to_act), Budget(iterations=30))
    assert all(isinstance(a, ohhell.Bid) for a in d.values)
    assert d.action in d.values and d.values[d.action] == max(d.values.values()) or "game score" in d.note
    while g.phase_name == "bid":
        g.apply(make("heuristic").act(g.view(g.to_act)))
    d = make("expert", seed=2).decide(g.view(g.to_act), Budget(iterations=30))
    legal = g.legal_actions()
    if len(legal) > 1:
        assert set(d.values) == set(legal)
        assert d.stats["simulations"] > 0


def test_seeded_expert_with_an_iteration_budget_is_reproducible():
    def run():
        g = Game(Rules(4, hand_sizes=[3, 4]), seed=5)
        play_game(g, [make("expert", seed=s) for s in range(4)], Budget(iterations=8, seconds=30))
        return g.record()
    assert run() == run()


def test_bots_never_change_the_view_they_are_given():
    g = Game(Rules(5, hand_sizes=[6, 1]), seed=4)
    rng = random.Random(1)
    for _ in range(12):
        v = g.view(g.to_act)
        before = v.to_dict()
        for name in ("heuristic", "expert"):
            make(name, seed=1).act(v, SMALL)
        assert v.to_dict() == before
        g.apply(rng.choice(g.legal_actions()))


def test_a_bot_with_nothing_to_do_says_so():
    g = Game(Rules(4, hand_sizes=[2]), seed=1)
    not_to_act = (g.to_act + 1) % 4
    for name in ("heuristic", "expert", "random"):
        with pytest.raises(ValueError):
            make(name).act(g.view(not_to_act))


def test_expert_rejects_an_unknown_search():
    with pytest.raises(ValueError):
        make("expert", search="minimax")
