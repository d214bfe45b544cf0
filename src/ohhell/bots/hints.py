"""A hint for a player, as data any front end can show: the expert's suggested action, the
value of each choice and, for a bid, the chance of winning each number of tricks.

It is made from a :class:`~ohhell.bots.base.Decision` the hint bot took from the asking
seat's own :class:`~ohhell.view.View`, so it holds nothing that view does not: the choices
are the seat's legal actions (its own cards, or bids), the probabilities are numbers.
"""

from __future__ import annotations

from typing import Any

from .base import Budget, Decision

__all__ = ["hint_bot_name", "hint_summary", "hint_for"]


def hint_bot_name() -> str:
    """The strongest bot available for hints: ``expert``, else ``heuristic``, else the first."""
    from . import names
    registered = names()
    for name in ("expert", "heuristic"):
        if name in registered:
            return name
    return registered[0] if registered else "random"


def hint_summary(decision: Decision, legal: "list[Any] | None" = None) -> dict:
    """A decision as JSON-ready data: ``action`` (a bid or a card name), ``kind`` (``bid`` or
    ``play``), ``values`` (``[{"action": a, "value": v}]``, best first, the suggested action
    marked ``"best": true``), ``trick_probs`` (``[p0, p1, ...]``, trailing near-zero chances
    dropped; ``None`` for a card) and ``note``.

    With ``legal`` (the seat's legal actions), only values of those actions are kept.
    """
    from ..actions import Bid
    allowed = None if legal is None else {a.to_json() for a in legal}
    values = []
    for a, v in sorted(decision.values.items(), key=lambda kv: -kv[1]):
        j = a.to_json()
        if allowed is not None and j not in allowed:
            continue
        values.append({"action": j, "value": round(float(v), 3), **({"best": True} if a == decision.action else {})})
    probs = None
    if decision.trick_probs:
        probs = [round(float(p), 4) for p in decision.trick_probs]
        while len(probs) > 1 and probs[-1] < 0.005:
            probs.pop()
    return {"action": decision.action.to_json(), "kind": "bid" if isinstance(decision.action, Bid) else "play",
            "values": values, "trick_probs": probs, "note": decision.note or ""}


def hint_for(name: str, view: Any, seconds: "float | None" = None, seed: "int | str" = 0) -> dict:
    """The hint bot ``name``'s :func:`hint_summary` for ``view`` (the asking seat's own view),
    thinking at most ``seconds`` (the bot's default without)."""
    from . import make
    bot = make(name, seed=seed)
    decision = bot.decide(view, Budget(seconds=seconds) if seconds is not None else None)
    return {"bot": name, **hint_summary(decision, list(view.legal))}
