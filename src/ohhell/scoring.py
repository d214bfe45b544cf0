"""Scoring (docs/rules.md §6), shared by the engine, the scorekeeper and the bots.

>>> from ohhell.rules import Rules
>>> base = Rules(4)
>>> hand_score(4, 4, 5, base), hand_score(0, 0, 5, base)          # Evelyn, Frank
(14, 10)
>>> hand_score(3, 4, 5, Rules(4, missed_bid_scores_tricks=True))   # George
4
>>> hand_score(0, 0, 7, Rules(4, zero_bid_scores_hand_size=True))  # Helen
12
"""

from __future__ import annotations

from .rules import Rules

__all__ = ["hand_score", "hand_scores", "bid_status", "winners", "standings", "MADE_BID_BONUS"]

MADE_BID_BONUS = 10


def hand_scores(bids, won, hand_size: int, rules: Rules) -> tuple[int, ...]:
    """Every player's score for one hand (the one place scoring is written).

    Exact bid: 10 + tricks won (a made 0 scores 5 + hand size with
    ``zero_bid_scores_hand_size``).  Missed: 0, or the tricks won with
    ``missed_bid_scores_tricks``.
    """
    zero = rules.zero_bid_scores_hand_size
    missed = rules.missed_bid_scores_tricks
    return tuple([(5 + hand_size if zero and b == 0 else MADE_BID_BONUS + w) if b == w
                  else (w if missed else 0) for b, w in zip(bids, won)])


def hand_score(bid: int, won: int, hand_size: int, rules: Rules) -> int:
    """The score of one player for one hand (see :func:`hand_scores`)."""
    return hand_scores((bid,), (won,), hand_size, rules)[0]


def bid_status(bid: "int | None", won: "int | None", stage: str, *, hidden: bool = False) -> str:
    """One seat's standing against its bid, in the words every front end uses.

    ``stage`` is ``"bidding"``, ``"playing"`` or ``"done"`` (the hand is
    finished).  ``hidden`` marks a bid that is made but not yet shown
    (simultaneous bidding).

    >>> [bid_status(None, None, "bidding"), bid_status(None, None, "bidding", hidden=True),
    ...  bid_status(2, 0, "bidding")]
    ['to bid', 'bid hidden', 'bid in']
    >>> [bid_status(2, 1, "playing"), bid_status(2, 2, "playing"), bid_status(2, 3, "playing")]
    ['needs 1', 'on bid', 'over by 1']
    >>> [bid_status(2, 2, "done"), bid_status(2, 3, "done"), bid_status(2, 0, "done")]
    ['made', 'over by 1', 'under by 2']
    """
    if stage not in ("bidding", "playing", "done"):
        raise ValueError(f"stage must be 'bidding', 'playing' or 'done', not {stage!r}")
    if bid is None:
        return "bid hidden" if hidden else "to bid"
    if stage == "bidding" or won is None:
        return "bid in"
    if won > bid:
        return f"over by {won - bid}"
    if won == bid:
        return "made" if stage == "done" else "on bid"
    return f"under by {bid - won}" if stage == "done" else f"needs {bid - won}"


def winners(totals) -> list[int]:
    """The seats with the highest total (ties share the win)."""
    best = max(totals)
    return [s for s, t in enumerate(totals) if t == best]


def standings(totals) -> list[tuple[int, int, int]]:
    """``(place, seat, total)`` best first; tied players share a place.

    >>> standings([21, 20, 21])
    [(1, 0, 21), (1, 2, 21), (3, 1, 20)]
    """
    ranked = sorted(range(len(totals)), key=lambda s: (-totals[s], s))
    out: list[tuple[int, int, int]] = []
    for i, s in enumerate(ranked):
        place = out[-1][0] if out and totals[out[-1][1]] == totals[s] else i + 1
        out.append((place, s, totals[s]))
    return out
