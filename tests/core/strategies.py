"""Hypothesis strategies shared by the core tests: random rules and random games."""

from __future__ import annotations

import random

from hypothesis import strategies as st

import ohhell
from ohhell.game import BID

__all__ = ["rules_strategy", "play_random", "random_game"]


@st.composite
def rules_strategy(draw, *, max_hands: int = 4) -> ohhell.Rules:
    """Any valid combination of the rules, with a short custom or named schedule."""
    players = draw(st.integers(3, 7))
    simultaneous = draw(st.booleans())
    hook = False if simultaneous else draw(st.booleans())
    kind = draw(st.sampled_from(["custom", "custom", "custom", "named"]))
    if kind == "named" and players >= 6:
        schedule = draw(st.sampled_from(["up", "down", "up-down", "down-up"]))
        sizes = None
    else:
        schedule = None
        top = 52 // players
        sizes = draw(st.lists(st.integers(1, top), min_size=1, max_size=max_hands))
    return ohhell.Rules(
        players=players, schedule=schedule, hand_sizes=sizes,
        no_trump=draw(st.sampled_from(["last", "largest", "never"])),
        hook=hook, simultaneous_bidding=simultaneous,
        must_trump=draw(st.booleans()),
        missed_bid_scores_tricks=draw(st.booleans()),
        zero_bid_scores_hand_size=draw(st.booleans()))


def play_random(game: ohhell.Game, rng: random.Random, steps: "int | None" = None) -> ohhell.Game:
    """Apply random legal actions (any unbid seat during simultaneous bidding)."""
    count = 0
    while not game.is_over and (steps is None or count < steps):
        if game.phase == BID and game.rules.simultaneous_bidding:
            seats = [s for s in range(game.players) if game.bids[s] is None]
            seat = rng.choice(seats)
            game.apply(rng.choice(game.legal_actions(seat)), seat=seat)
        else:
            game.apply(rng.choice(game.legal_actions()))
        count += 1
    return game


def random_game(rules: ohhell.Rules, seed: int, steps: "int | None" = None) -> ohhell.Game:
    """A seeded game advanced by ``steps`` random actions (to the end if None)."""
    rng = random.Random(seed)
    return play_random(ohhell.Game(rules, seed=seed), rng, steps)

from hypothesis import HealthCheck, settings  # noqa: E402

#: settings for the property tests over whole games (no deadline: games vary in length)
GAME_SETTINGS = settings(max_examples=150, deadline=None,
                         suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
