"""The end of a game: final standings, a chart of the scores over the hands, the scores table."""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Static

from ..view import View
from .paths import shown_path
from .render import score_rows_from_view, score_table, standings_table
from .widgets import ChartView

__all__ = ["GameOverScreen"]


class GameOverScreen(Screen):
    """Final standings and a chart of the scores over the hands."""

    BINDINGS = [Binding("n", "new", "New game"), Binding("q,escape", "quit", "Quit")]

    def __init__(self, names: Sequence[str], view: View, saved: "str | None") -> None:
        super().__init__()
        self.names = list(names)
        self.view = view
        self.saved = saved

    def compose(self) -> ComposeResult:
        v = self.view
        n = v.players
        series = [[0] for _ in range(n)]
        made = [0] * n
        for h in v.past_hands:
            for s in range(n):
                series[s].append(series[s][-1] + h.scores[s])
                made[s] += h.bids[s] == h.tricks_won[s]
        win = [self.names[s] for s in v.winners]
        headline = (f"{win[0]} wins!" if len(win) == 1 else f"{' and '.join(win)} share the win!")
        yield Header()
        with VerticalScroll(id="over"):
            yield Static(Text(f"Game over — {headline}", style="bold bright_green"), id="over-title")
            yield Static(standings_table(self.names, v.totals, made=made), id="standings")
            yield Static(Text("Scores over the hands", style="bold"), classes="chart-title")
            yield ChartView(series, self.names, id="chart")
            yield Static(score_table(self.names, score_rows_from_view(v)), id="final-scores")
            if self.saved:
                yield Static(Text(f"The record is saved in {shown_path(self.saved)} — replay it with "
                                  f"`ohhell replay {shown_path(self.saved)}`", style="dim"), id="saved-note")
            with Horizontal(classes="modal-buttons"):
                yield Button("New game (n)", id="new", variant="primary")
                yield Button("Quit (q)", id="quit")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "new":
            self.action_new()
        else:
            self.action_quit()

    def action_new(self) -> None:
        self.dismiss("new")

    def action_quit(self) -> None:
        self.app.exit()
