"""ohhell: the card game Oh Hell (Blackout, Oh Pshaw, Up and Down the River).

The public API (docs/interfaces.md §2):

>>> import ohhell
>>> game = ohhell.Game(ohhell.Rules(players=4, hook=True), seed=7)
>>> game.to_act in range(4), game.hand_size
(True, 1)
>>> game.apply(game.legal_actions()[0])

Layers point one way: ``cards -> rules -> tricks (the rules of play) ->
game (+ scoring, views, records) -> bots -> cli | server | env``.  This package's core needs no third-party
package; ``ohhell.bots`` is imported on first use.
"""

from __future__ import annotations

from .actions import Action, Bid, Play, action_from_id, parse_action
from .cards import CARDS, Card, cards_to_mask, mask_to_cards, parse_card
from .errors import CardError, IllegalActionError, OhHellError, RecordError, RulesError
from .game import Game, HandRecord, Phase, Trick
from .records import dumps, read_records, write_records
from .rules import PRESETS, Rules
from .scoring import hand_score
from .view import View

__version__ = "0.1.0"

__all__ = [
    "Game", "Rules", "PRESETS", "Bid", "Play", "Action", "Card", "CARDS", "View", "Trick", "Phase",
    "HandRecord", "OhHellError", "IllegalActionError", "RulesError", "RecordError", "CardError",
    "parse_card", "parse_action", "action_from_id", "cards_to_mask", "mask_to_cards", "hand_score",
    "dumps", "read_records", "write_records", "bots", "__version__",
]


def __getattr__(name: str):
    # ``ohhell.bots`` sits above the core; import it only when asked for.
    if name == "bots":
        import importlib
        return importlib.import_module(".bots", __name__)
    raise AttributeError(f"module 'ohhell' has no attribute {name!r}")
