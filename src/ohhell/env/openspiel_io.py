"""Real ``pyspiel`` states from ohhell hands and back (OpenSpiel's ``oh_hell``, not ``python_ohhell``).

:mod:`ohhell.openspiel_format` writes and reads OpenSpiel's serialization
without pyspiel; this module, which imports pyspiel only when called, turns
it into live OpenSpiel objects:

>>> import ohhell
>>> from ohhell.env.openspiel_io import to_pyspiel, from_pyspiel
>>> g = ohhell.Game(ohhell.Rules.preset("openspiel", players=4, tricks=2), seed=1)
>>> while not g.is_over: g.apply(g.legal_actions()[0])
>>> game, state = to_pyspiel(g)
>>> [int(r) for r in state.returns()] == list(g.totals)
True
>>> from_pyspiel(state).totals == g.totals
True

Needs ``open-spiel`` (the ``bench`` extra: ``pip install 'ohhell[bench]'``).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..errors import OhHellError
from ..game import Game
from ..openspiel_format import from_openspiel, to_openspiel

__all__ = ["pyspiel_module", "to_pyspiel", "from_pyspiel"]


def pyspiel_module() -> Any:
    """``import pyspiel``, or a clear error saying how to install it.

    :raises OhHellError: when open-spiel is not installed.
    """
    try:
        import pyspiel
    except ImportError as e:
        raise OhHellError(f"this needs OpenSpiel's Python package: pip install 'ohhell[bench]' "
                          f"(open-spiel 2.0.2); importing pyspiel failed: {e}") from None
    return pyspiel


def to_pyspiel(game: Game, hand: "int | None" = None, *, rescore: bool = False) -> tuple[Any, Any]:
    """``(pyspiel game, pyspiel state)`` of one hand (see :func:`ohhell.openspiel_format.to_openspiel`).

    :raises OpenSpielFormatError: for a hand OpenSpiel cannot express (naming the rule).
    """
    pyspiel = pyspiel_module()
    exported = to_openspiel(game, hand, rescore=rescore)
    return pyspiel.deserialize_game_and_state(exported.text())


def from_pyspiel(state: Any, names: "Sequence[str] | None" = None) -> Game:
    """The ohhell game of one hand that an OpenSpiel ``oh_hell`` state is in.

    :raises OpenSpielFormatError: for a state of another game, or one still being dealt.
    """
    return from_openspiel(game_string=str(state.get_game()), history=list(state.history()), names=names)
