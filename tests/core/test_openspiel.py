"""Cross-check with OpenSpiel's oh_hell: thousands of random single hands under the
``openspiel`` preset, played in lockstep (the deal taken from OpenSpiel's chance
outcomes, ``Game.from_deal``): the same player to act, the same legal actions at
every step and the same returns."""

import random

import pyspiel
import pytest

from ohhell import Bid, Game, Rules
from ohhell.actions import PLAYS
from ohhell.cards import from_openspiel, to_openspiel

HANDS = 3000


def _our_action(a):
    return Bid(a - 52) if a >= 52 else PLAYS[from_openspiel(a)]


def _their_action(action):
    return 52 + action.tricks if isinstance(action, Bid) else to_openspiel(action.card)


def _one_hand(rng, games, players=None, tricks=None):
    players = players or rng.randint(3, 7)
    tricks = tricks or rng.randint(1, 51 // players)
    game = games.setdefault((players, tricks), pyspiel.load_game(
        "oh_hell", {"players": players, "num_tricks_fixed": tricks}))
    state = game.new_initial_state()
    state.apply_action(tricks)                     # chance: the number of tricks
    dealer = rng.randrange(players)
    state.apply_action(dealer)                     # chance: the dealer
    hands = [[] for _ in range(players)]
    for i in range(players * tricks):              # chance: the deal (OpenSpiel deals from seat 0)
        card = rng.choice([a for a, _ in state.chance_outcomes()])
        hands[i % players].append(str(from_openspiel(card)))
        state.apply_action(card)
    trump = rng.choice([a for a, _ in state.chance_outcomes()])
    state.apply_action(trump)
    ours = Game.from_deal(Rules.preset("openspiel", players=players, tricks=tricks), dealer=dealer,
                          deal=hands, trump_card=str(from_openspiel(trump)))
    steps = 0
    while not state.is_terminal():
        assert state.current_player() == ours.to_act
        theirs = sorted(state.legal_actions())
        mine = sorted(_their_action(a) for a in ours.legal_actions())
        assert theirs == mine, (state.history(), theirs, mine)
        a = rng.choice(theirs)
        state.apply_action(a)
        ours.apply(_our_action(a))
        steps += 1
    assert ours.is_over
    assert [int(r) for r in state.returns()] == list(ours.totals)
    return steps


def test_lockstep_with_openspiel():
    rng = random.Random(20261130)
    games = {}
    steps = sum(_one_hand(rng, games) for _ in range(HANDS))
    assert steps > HANDS * 10


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_largest_hands_for_each_player_count(players):
    rng = random.Random(players)
    games = {}
    for _ in range(20):
        _one_hand(rng, games, players, 51 // players)
