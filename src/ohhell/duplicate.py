"""Duplicate scoring: matchpoints across tables that played the same deals.

In a duplicate event every table plays the same deals (one committed seed), and each deal
goes to the same seat number at every table.  A *direction* is one seat number across all
tables: the players of a direction held the same cards, hand after hand, so they are
compared with each other only, and luck of the cards cancels out.

**Matchpoints.**  For each hand, each seat scores 1 for every other table whose same seat
scored fewer points in that hand, and 0.5 for every other table whose same seat scored the
same; nothing for a higher score.  With ``n`` tables a seat scores 0 to ``n - 1`` per hand,
and the matchpoints of one direction in one hand add up to ``n(n-1)/2`` (each pair of tables
shares one point).  A seat's total is the sum over the hands; its percentage is that total
over the most it could have scored (``(n - 1)`` times the hands counted).

**Ranking.**  Every seat of every table is one entry (one player); entries are ranked by
total matchpoints, highest first, and entries with equal totals share a place ("1, 2, 2, 4").

Scores are given as ``scores[table][hand][seat]`` (points of that hand, not running totals).
Only hands that every table has finished are counted (``hands`` says how many).

>>> mp = matchpoints([[[3, 0]], [[1, 0]], [[3, 10]]])
>>> mp
[[[1.5, 0.5]], [[0.0, 0.5]], [[1.5, 2.0]]]
>>> [(e["table"], e["seat"], e["total"], e["place"]) for e in standings(mp)][:3]
[(2, 1, 2.0, 1), (0, 0, 1.5, 2), (2, 0, 1.5, 2)]
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["matchpoints", "totals", "percentage", "standings", "places"]

Scores = Sequence[Sequence[Sequence[int]]]


def matchpoints(scores: Scores) -> list[list[list[float]]]:
    """Each seat's matchpoints per hand: ``mp[table][hand][seat]`` (see the module's text).

    Every table must list the same number of hands and seats.

    >>> matchpoints([[[5, 1]], [[5, 0]]])
    [[[0.5, 1.0]], [[0.5, 0.0]]]

    :raises ValueError: when the tables' shapes differ.
    """
    if not scores:
        return []
    hands = len(scores[0])
    seats = len(scores[0][0]) if hands else 0
    for t, table in enumerate(scores):
        if len(table) != hands or any(len(h) != seats for h in table):
            raise ValueError(f"table {t} lists other hands or seats than table 0; every table needs "
                             f"{hands} hands of {seats} seats")
    out: list[list[list[float]]] = []
    for t, table in enumerate(scores):
        rows = []
        for h in range(hands):
            row = []
            for s in range(seats):
                mine = table[h][s]
                points = 0.0
                for u, other in enumerate(scores):
                    if u != t:
                        theirs = other[h][s]
                        points += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                row.append(points)
            rows.append(row)
        out.append(rows)
    return out


def totals(mp: Sequence[Sequence[Sequence[float]]]) -> list[list[float]]:
    """Each seat's total matchpoints: ``totals[table][seat]``.

    >>> totals([[[1.0, 0.5], [0.0, 1.0]]])
    [[1.0, 1.5]]
    """
    out = []
    for table in mp:
        seats = len(table[0]) if table else 0
        out.append([sum(hand[s] for hand in table) for s in range(seats)])
    return out


def percentage(total: float, tables: int, hands: int) -> "float | None":
    """``total`` as a percentage of the most a seat could score (``None`` when nothing can be
    scored: one table, or no hand counted).

    >>> percentage(3.0, 3, 2)
    75.0
    """
    most = (tables - 1) * hands
    return None if most <= 0 else round(100.0 * total / most, 2)


def places(values: Sequence[float]) -> list[int]:
    """The place of each value, highest first, equal values sharing a place ("1, 2, 2, 4").

    >>> places([2.0, 5.0, 2.0, 1.0])
    [2, 1, 2, 4]
    """
    return [1 + sum(1 for w in values if w > v) for v in values]


def standings(mp: Sequence[Sequence[Sequence[float]]]) -> list[dict]:
    """Every entry (``table``, ``seat``) with its ``total``, ``percentage`` and ``place``,
    best first (ties in table, then seat order, each with the same ``place``).

    >>> [(e["table"], e["seat"], e["place"]) for e in standings([[[1.0, 0.0]], [[0.0, 1.0]]])]
    [(0, 0, 1), (1, 1, 1), (0, 1, 3), (1, 0, 3)]
    """
    tot = totals(mp)
    hands = len(mp[0]) if mp else 0
    entries = [(t, s, v) for t, row in enumerate(tot) for s, v in enumerate(row)]
    place = places([v for _, _, v in entries])
    out = [{"table": t, "seat": s, "total": v, "percentage": percentage(v, len(mp), hands), "place": p}
           for (t, s, v), p in zip(entries, place)]
    out.sort(key=lambda e: (e["place"], e["table"], e["seat"]))
    return out
