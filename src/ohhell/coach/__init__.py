"""The coach: where every point of a game was won and lost (docs/coach.md).

:func:`analyze_game` evaluates every bid and card of a record from the deciding
seat's view (never the hidden cards), says what each decision cost in expected
points against the best one, and splits each seat's score into luck (what the
analysis bot would have scored with its cards in the real deal) and skill.
:func:`annotate` adds the result to the record; :mod:`ohhell.coach.report`
prints it as a table or a standalone HTML page.

This package sits above the bots; nothing in the core or the bots imports it.
"""

from .analysis import (ANALYSIS_FORMAT, ANALYSIS_VERSION, DEFAULT_SAMPLES, MIN_LOSS, GameAnalysis,
                       analysis_of, analyze_game, annotate, decision_view, describe_mistake)
from .evaluate import Evaluation, evaluate, evaluate_bid, evaluate_play, outcomes

__all__ = ["analyze_game", "annotate", "analysis_of", "GameAnalysis", "describe_mistake", "decision_view",
           "Evaluation", "evaluate", "evaluate_bid", "evaluate_play", "outcomes",
           "ANALYSIS_FORMAT", "ANALYSIS_VERSION", "DEFAULT_SAMPLES", "MIN_LOSS"]
