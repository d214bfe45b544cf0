"""A new front end in 50 lines: a plain-text table on the table session (what a chat bot would do).

    python examples/text_table.py            # you at seat 1 against three bots, one hand of 3

The session (:class:`ohhell.bots.TableSession`) decides who acts, runs the bots
and checks every action; this file only renders a view as text and reads a line.
"""

from __future__ import annotations

from typing import Callable

from ohhell import Game, OhHellError, Rules
from ohhell.bots import TableSession
from ohhell.text import render_view, score_table
from ohhell.view import View


def play(game: Game, seats: list, ask: Callable[[View], str], say: Callable[[str], None],
         seed: "int | str | None" = None) -> Game:
    """Play ``game`` to the end: ``ask(view)`` returns an outside seat's action as text,
    ``say(text)`` shows what happened."""
    session = TableSession(game, seats, seed=seed)
    while not game.is_over:
        for applied in session.run_bots(sleep=None):
            say(f"{game.names[applied.seat]}: {'a hidden bid' if applied.hidden else applied.action}")
            if applied.revealed:
                say("bids revealed: " + ", ".join(f"{name} {b}" for name, b in zip(game.names, game.bids)))
        for seat in session.outside_to_act():
            view = game.view(seat)
            while True:
                try:
                    applied = session.act(seat, ask(view))
                    break
                except OhHellError as e:              # the session changed nothing: ask again
                    say(f"{e}")
            say(f"{game.names[seat]}: {applied.action}")
            if applied.revealed:
                say("bids revealed: " + ", ".join(f"{name} {b}" for name, b in zip(game.names, game.bids)))
            if applied.hand is not None:
                say(score_table(game))
    return game


def main() -> None:
    game = Game(Rules(4, hand_sizes=[3]), names=["You", "Ada", "Bo", "Cy"])

    def ask(view: View) -> str:
        print(render_view(view))
        return input("your bid or card> ")

    play(game, [None, "intermediate", "intermediate", "intermediate"], ask, print)


if __name__ == "__main__":
    main()
