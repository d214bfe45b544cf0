"""Training data from game records: every decision with the view it was made from.

Records (``ohhell selfplay --out games.jsonl``, the server's archive, any
file of docs/interfaces.md records) are replayed through the core, so each
decision comes with exactly the :class:`~ohhell.View` its seat had when it
decided (nothing hidden leaks into a training example) and with what
happened afterwards in that hand.

>>> import ohhell
>>> from ohhell.bots import make, play_game
>>> g = play_game(ohhell.Game(ohhell.Rules(3, hand_sizes=[2, 1]), seed=4),
...               [make("random", seed=s) for s in range(3)])
>>> steps = list(decisions(g.record()))
>>> len(steps), steps[0].action.id >= 52, steps[0].view.seat == steps[0].seat
(15, True, True)
>>> X, won, bids = bid_dataset([g.record()])
>>> X.shape, won.tolist() == [s.tricks_won for s in steps if s.is_bid]
((6, 374), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

import numpy as np

from ..actions import Action, Bid
from ..errors import OhHellError, RecordError
from ..game import Game
from ..view import View
from .encoding import Encoder

__all__ = ["Step", "decisions", "bid_dataset"]


@dataclass(frozen=True)
class Step:
    """One decision of a recorded game."""

    seat: int              #: who decided
    view: View             #: what that seat saw when it decided
    action: Action         #: what it did
    hand_index: int        #: the hand (0-based)
    tricks_won: int        #: tricks this seat won in that hand, in the end
    score: int             #: what this seat scored for that hand

    @property
    def is_bid(self) -> bool:
        """Whether the decision was a bid."""
        return isinstance(self.action, Bid)


def decisions(record: "Game | dict | str") -> Iterator[Step]:
    """Every decision of a game, in order, with the deciding seat's view before it.

    ``record`` is a record (a dict or its JSON text, verified here) or a
    :class:`~ohhell.Game` (what :func:`ohhell.read_records` yields; it is not
    changed).  Only finished hands are replayed (an unfinished last hand has
    no outcome).

    :raises RecordError: for a record that does not verify.
    """
    game = record.copy() if isinstance(record, Game) else Game.from_record(record)
    actions = list(game.actions())
    past = game.past_hands
    while True:
        try:
            game.undo()
        except OhHellError:
            break
    for seat, action in actions:
        k = game.hand_index
        if k >= len(past):
            return
        hr = past[k]
        view = game.view(seat)
        yield Step(seat, view, action, k, hr.tricks_won[seat], hr.scores[seat])
        try:
            game.apply(action, seat=seat)
        except OhHellError as e:  # pragma: no cover - the record verified above
            raise RecordError(f"replay failed: {e}") from None


def bid_dataset(records: Iterable["Game | dict | str"], encoder: "Encoder | None" = None,
                kind: str = "observation") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The bidding decisions of some records (or games) as arrays.

    Returns ``(X, won, bids)``: ``X[i]`` is the encoding of the bidder's view
    (:class:`~ohhell.env.Encoder`, built from the first record's rules unless
    given), ``won[i]`` the tricks that seat went on to win in that hand and
    ``bids[i]`` the bid it made.

    :raises RecordError: for a record that does not verify.
    :raises ValueError: for records of different numbers of players.
    """
    rows, won, bids = [], [], []
    for rec in records:
        for step in decisions(rec):
            if not step.is_bid:
                continue
            if encoder is None:
                encoder = Encoder(step.view.rules, kind)
            rows.append(encoder.encode(step.view))
            won.append(step.tricks_won)
            bids.append(step.action.tricks)
    size = encoder.size if encoder is not None else 0
    X = np.stack(rows) if rows else np.zeros((0, size), np.float32)
    return X, np.array(won, dtype=np.int64), np.array(bids, dtype=np.int64)
