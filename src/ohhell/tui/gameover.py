"""The end of a game: final standings, a chart of the scores over the hands, the scores table."""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Static

from ..coach import DEFAULT_SAMPLES
from ..i18n import N_, _
from ..text import help_used_words
from ..view import View
from .paths import shown_path
from .render import score_rows_from_view, score_table, standings_table
from .widgets import ChartView, word_bindings

__all__ = ["GameOverScreen"]


class GameOverScreen(Screen):
    """Final standings and a chart of the scores over the hands."""

    BINDINGS = [Binding("a", "analyse", N_("Analyse this game")), Binding("n", "new", N_("New game")),
                Binding("q,escape", "quit", N_("Quit"))]

    #: Sampled deals per decision of "Analyse this game" (``ohhell analyze``'s default).
    analysis_samples = DEFAULT_SAMPLES

    def __init__(self, names: Sequence[str], view: View, saved: "str | None",
                 record: "dict | None" = None) -> None:
        super().__init__()
        word_bindings(self)
        self.names = list(names)
        self.view = view
        self.saved = saved
        self.record = record
        self.annotated: "dict | None" = None     # the analysed record, once analysed
        self.analysis_saved: "str | None" = None

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
        headline = (_("{name} wins!").format(name=win[0]) if len(win) == 1 else
                    _("{names} share the win!").format(names=_(" and ").join(win)))
        yield Header()
        with VerticalScroll(id="over"):
            yield Static(Text(_("Game over") + " — " + headline, style="bold bright_green"), id="over-title")
            yield Static(standings_table(self.names, v.totals, made=made), id="standings")
            helped = help_used_words(self.record, self.names) if self.record is not None else None
            if helped:      # a game with help used says so with its standings (the record does too)
                yield Static(Text(helped, style="yellow"), id="help-note")
            yield Static(Text(_("Scores over the hands"), style="bold"), classes="chart-title")
            yield ChartView(series, self.names, id="chart")
            yield Static(score_table(self.names, score_rows_from_view(v)), id="final-scores")
            if self.saved:
                yield Static(Text(_("The record is saved in {path} — replay it with `ohhell replay {path}`").format(
                    path=shown_path(self.saved)), style="dim"), id="saved-note")
            yield Static("", id="analysis-note")
            with Horizontal(classes="modal-buttons"):
                if self.record is not None:
                    yield Button(_("Analyse this game (a)"), id="analyse", variant="success")
                yield Button(_("New game (n)"), id="new", variant="primary")
                yield Button(_("Quit (q)"), id="quit")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "new":
            self.action_new()
        elif event.button.id == "analyse":
            self.action_analyse()
        else:
            self.action_quit()

    def action_analyse(self) -> None:
        """Analyse the game in a worker (a progress bar; Esc cancels), save the annotated record
        beside the saved game, and open the annotated replay (once analysed, it opens at once)."""
        if self.record is None:
            self.notify(_("This game's record is not available to analyse."), severity="warning")
            return
        if self.annotated is not None:
            self._open_replay(self.annotated)
            return
        from .coach import AnalysingScreen, analysis_path
        save_to = analysis_path(self.saved) if self.saved else None
        self.app.push_screen(AnalysingScreen(self.record, samples=self.analysis_samples, save_to=save_to),
                             self._analysed)

    def _analysed(self, rec: object) -> None:
        if not isinstance(rec, dict):
            return
        from .coach import analysis_path
        self.annotated = rec
        self.analysis_saved = analysis_path(self.saved) if self.saved else None
        if self.analysis_saved:
            note = Text(_("The analysis is saved in {path} — `ohhell replay {path}` shows it again; "
                          "a reopens it here.").format(path=shown_path(self.analysis_saved)), style="dim")
            self.query_one("#analysis-note", Static).update(note)
            self.query_one("#analysis-note").display = True
        self._open_replay(rec)

    def _open_replay(self, rec: dict) -> None:
        from .replay import ReplayScreen    # imported here: the replay imports the play app's styles
        self.app.push_screen(ReplayScreen([rec], source=shown_path(self.analysis_saved or "this game"),
                                          embedded=True))

    def action_new(self) -> None:
        self.dismiss("new")

    def action_quit(self) -> None:
        self.app.exit()
