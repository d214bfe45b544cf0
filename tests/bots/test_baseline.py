"""The frozen baseline ``expert-2026.11`` stays the expert of November 2026."""

from __future__ import annotations

import inspect

from ohhell import Game, Rules, bots
from ohhell.bots.baseline import NOVEMBER_2026, Expert202611
from ohhell.bots.expert import ExpertBot


def test_every_option_of_the_expert_is_pinned():
    # A new option of ExpertBot must be pinned here at the value that keeps November's behaviour.
    options = set(inspect.signature(ExpertBot.__init__).parameters) - {"self", "seed", "iterations", "seconds"}
    assert options == set(NOVEMBER_2026)


def test_the_baseline_is_made_by_name_and_takes_only_a_budget():
    bot = bots.make("expert-2026.11", seed=3)
    assert isinstance(bot, Expert202611) and bot.name == "expert-2026.11"
    assert set(inspect.signature(Expert202611.__init__).parameters) == {"self", "seed", "iterations", "seconds"}
    info = {i.name: i for i in bots.catalog()}["expert-2026.11"]
    assert info.level is None and "frozen" in info.description


def test_the_baseline_decides_as_the_expert_with_novembers_options():
    g = Game(Rules(4, hand_sizes=[3]), seed=11)
    for _ in range(6):                     # a few bids and cards
        view = g.view(g.to_act)
        a = Expert202611(seed=5, iterations=30, seconds=30).decide(view)
        b = ExpertBot(seed=5, iterations=30, seconds=30, **NOVEMBER_2026).decide(view)
        assert (a.action, a.values) == (b.action, b.values)
        g.apply(a.action)
