"""Hypothesis strategies for the format tests: any rules, any seed kind, any point of a game."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import ohhell
from ohhell.state import BID

SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def rules_strategy(draw, *, max_hands: int = 4) -> ohhell.Rules:
    """Any valid combination of the rules (a short custom schedule, or a named one for 6-7 players)."""
    players = draw(st.integers(3, 7))
    simultaneous = draw(st.booleans())
    hook = False if simultaneous else draw(st.booleans())
    if players >= 6 and draw(st.booleans()):
        schedule, sizes = draw(st.sampled_from(["up", "down", "up-down", "down-up"])), None
    else:
        schedule, sizes = None, draw(st.lists(st.integers(1, 52 // players), min_size=1, max_size=max_hands))
    return ohhell.Rules(players=players, schedule=schedule, hand_sizes=sizes,
                        no_trump=draw(st.sampled_from(["last", "largest", "never"])), hook=hook,
                        simultaneous_bidding=simultaneous, must_trump=draw(st.booleans()),
                        missed_bid_scores_tricks=draw(st.booleans()),
                        zero_bid_scores_hand_size=draw(st.booleans()))


#: seeds of every kind a game takes: none (the OS's random source), a number, text
seeds = st.one_of(st.none(), st.integers(-10 ** 12, 10 ** 12),
                  st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=12))
#: player names, with the characters a text format must escape
names_text = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=10)


def play_random(game: ohhell.Game, rng: random.Random, steps: "int | None" = None) -> ohhell.Game:
    """Apply random legal actions (a random unbid seat during simultaneous bidding)."""
    count = 0
    while not game.is_over and (steps is None or count < steps):
        if game.phase == BID and game.rules.simultaneous_bidding:
            seat = rng.choice([s for s in range(game.players) if game.bids[s] is None])
            game.apply(rng.choice(game.legal_actions(seat)), seat=seat)
        else:
            game.apply(rng.choice(game.legal_actions()))
        count += 1
    return game
