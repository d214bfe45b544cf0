"""Shared strategies and helpers for the research-environment tests."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from ohhell import Rules
from ohhell.rules import MAX_HAND_SIZE


@st.composite
def rules_strategy(draw, max_hands: int = 4, max_players: int = 7) -> Rules:
    """Any valid Rules, with short custom schedules so games stay small."""
    n = draw(st.integers(3, max_players))
    top = 52 // n
    sizes = draw(st.lists(st.integers(1, top), min_size=1, max_size=max_hands))
    hook = draw(st.booleans())
    simul = False if hook else draw(st.booleans())
    return Rules(n, hand_sizes=sizes, no_trump=draw(st.sampled_from(["last", "largest", "never"])),
                 hook=hook, simultaneous_bidding=simul, must_trump=draw(st.booleans()),
                 missed_bid_scores_tricks=draw(st.booleans()),
                 zero_bid_scores_hand_size=draw(st.booleans()))


#: One configuration of every kind the tests walk through (named schedules included).
VARIANTS = [
    Rules(4),
    Rules(3, schedule="up-down", hook=True),
    Rules(5, schedule="down", simultaneous_bidding=True, no_trump="largest"),
    Rules(7, schedule="down-up", must_trump=True, missed_bid_scores_tricks=True,
          zero_bid_scores_hand_size=True),
    Rules.preset("openspiel", players=4),
    Rules(6, hand_sizes=[8, 3, 8], no_trump="never", hook=True),
    Rules(4, hand_sizes=[13, 12], must_trump=True, simultaneous_bidding=True),
]


def play_random(game, rng: random.Random, steps: int) -> None:
    """Apply up to ``steps`` uniformly random legal actions."""
    for _ in range(steps):
        if game.is_over:
            return
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])


__all__ = ["rules_strategy", "VARIANTS", "play_random", "MAX_HAND_SIZE"]
