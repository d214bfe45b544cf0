"""``expert-2026.11``: the expert as it stood in November 2026, kept as a fixed baseline.

The expert improves; to measure by how much, today's expert must stay playable. This bot is
:class:`~ohhell.bots.expert.ExpertBot` with every option pinned to its November 2026 value,
so every new behaviour of the expert must come behind an option whose old value this table
pins (``tests/bots/test_baseline.py`` fails when ``ExpertBot`` gains an option that is not
pinned here). Only the budget may be set: ``iterations`` and ``seconds``, as for the expert.
"""

from __future__ import annotations

from typing import Any

from .expert import ExpertBot

__all__ = ["Expert202611", "NOVEMBER_2026"]

#: Every option of ``ExpertBot`` but the budget, at its value in the expert of November 2026.
NOVEMBER_2026: dict[str, Any] = {
    "weighted": True, "late_hands": 2, "win_weight": 25.0, "search": "ismcts", "uct_c": 0.4,
    "sims_per_iteration": 4, "pool": 200, "rollout": "heuristic", "bid_search": "ismcts",
    "bid_model": "heuristic", "opponents": "heuristic", "bid_factor": 6, "rivalry": 0.0,
    "exact": 0, "play_slack": 1.0, "one_card": False, "bid_evidence": "closed",
    "learned_prior": 0.0, "bid_tree": "bids", "bid_net": 0.0, "bid_weights": None,
    "bidder": "search", "bid_lift": 0.0,
}


class Expert202611(ExpertBot):
    """The expert of November 2026, frozen: a fixed baseline to measure the expert against.

    :param seed: seeds the sampler and the search.
    :param iterations: sampled deals per decision (``Budget.iterations`` overrides).
    :param seconds: wall-clock cap per decision (``Budget.seconds`` overrides).
    """

    name = "expert-2026.11"

    def __init__(self, seed: "int | str | None" = None, *, iterations: int = 400, seconds: float = 1.0) -> None:
        super().__init__(seed, iterations=iterations, seconds=seconds, **NOVEMBER_2026)
