"""``ohhell play``: a full-screen game against bots.

The app (setup, then the table, then the final standings) lives here; its parts
have a module each: :mod:`~ohhell.tui.table` (the table screen and its options),
:mod:`~ohhell.tui.gameover`, :mod:`~ohhell.tui.modals` (hint, messages, help),
:mod:`~ohhell.tui.saves` (saving and loading games), :mod:`~ohhell.tui.paths`
(where files go) and :mod:`~ohhell.tui.botnames`.  Who acts and when is decided
by :class:`ohhell.bots.TableSession`.  The game is saved (its record, docs/interfaces.md §1) after
every action, atomically, so it can be resumed at any time.
"""

from __future__ import annotations

import os
from typing import Sequence

from textual.app import App

from .. import bots as botlib
from ..errors import OhHellError
from ..game import Game
from ..rules import Rules
from ..i18n import _
from .botnames import default_bot_name, hint_bot_name
from .gameover import GameOverScreen
from .modals import HELP_TEXT, HintScreen, MessageScreen, hint_body
from .paths import archive_path, data_dir, default_save_path, history_path, shown_path
from .saves import Help, load_saved, load_saved_game, seats_of_record
from .setup import SETUP_CSS, Settings, SetupScreen
from .table import PlayOptions, PlayScreen

__all__ = ["PlayApp", "PlayOptions", "PlayScreen", "hint_bot_name", "load_saved_game", "load_saved", "default_save_path",
           "data_dir", "seats_of_record", "archive_path", "history_path", "default_settings", "PLAY_CSS",
           "GameOverScreen", "HintScreen", "MessageScreen", "HELP_TEXT", "hint_body", "shown_path",
           "default_bot_name"]


PLAY_CSS = SETUP_CSS + """
Screen { layers: base; }
#main { height: 1fr; }
#left { width: 2fr; min-width: 40; padding: 0 1; }
#right { width: 3fr; min-width: 34; border-left: solid $primary-darken-2; padding: 0 1; }
#info { height: auto; margin: 0 0 1 0; }
#trick { height: auto; min-height: 5; margin: 0 0 1 0; }
#last-trick { height: auto; margin: 0 0 1 0; }
#status { height: auto; min-height: 1; margin: 0 0 1 0; }
#bidbar { height: auto; margin: 0 0 1 0; }
.bid-grid { grid-size: 8; grid-gutter: 1 1; grid-columns: 4; grid-rows: 1; height: auto; width: auto; }
.bid-button { min-width: 4; width: 4; }
.bid-note { padding: 0 1; }
#hand { height: auto; margin: 0 0 1 0; }
.suit-row { height: 1; }
.suit-label { width: 12; }
.card { width: 4; height: 1; margin: 0 1 0 0; }
.card.illegal { text-style: dim; opacity: 60%; }
.card.legal { text-style: bold; background: $primary-background-lighten-1; }
.card:focus { background: $accent; }
.card.legal:hover { background: $accent-darken-1; }
#log { height: 1fr; min-height: 4; border-top: solid $primary-darken-2; }
#bids { height: auto; margin: 0 0 1 0; }
#scores-box { height: 1fr; }
.modal-box { width: 72; height: auto; max-height: 90%; border: thick $accent; background: $surface; padding: 1 2; }
HintScreen, MessageScreen { align: center middle; }
.modal-buttons { height: auto; margin: 1 0 0 0; }
.modal-buttons Button { margin: 0 2 0 0; }
#over { padding: 0 2; }
#over-title { margin: 1 0; }
#chart { height: 16; margin: 0 0 1 0; }
.chart-title { margin: 1 0 0 0; }
"""


class PlayApp(App):
    """``ohhell play``: set up a game, play it against bots, see the final standings."""

    TITLE = "Oh Hell"
    CSS = PLAY_CSS

    def __init__(self, settings: Settings, options: "PlayOptions | None" = None, *, setup: bool = True,
                 resume: "tuple[Game, list[str | None]] | tuple[Game, list[str | None], Help] | None" = None,
                 resume_label: "str | None" = None) -> None:
        super().__init__()
        self.settings = settings
        self.options = options or PlayOptions()
        self.setup = setup
        self.resume = resume
        self.resume_label = resume_label
        self.table: "PlayScreen | None" = None

    def on_mount(self) -> None:
        if self.resume is not None and not self.setup:
            self.start_game(*self.resume)
        elif self.setup:
            self.push_setup()
        else:
            self.start_from(self.settings)

    def push_setup(self) -> None:
        """Show the setup screen (prefilled with the last settings)."""
        self.push_screen(SetupScreen(self.settings, bots=botlib.names(), title=_("New game against bots"),
                                     resume_label=self.resume_label if self.resume else None),
                         self._after_setup)

    def _after_setup(self, result: object) -> None:
        if result == "resume" and self.resume is not None:
            self.start_game(*self.resume)
        elif isinstance(result, Settings):
            self.settings = result
            self.start_from(result)

    def start_from(self, settings: Settings) -> None:
        """Start a new game with these settings (an unfinished saved game is moved aside, never lost)."""
        path = self.options.save_path
        if path and os.path.exists(path):
            try:
                keep = not load_saved_game(path)[0].is_over
            except (OhHellError, OSError):
                keep = True
            if keep:
                os.replace(path, archive_path(path))
        game = Game(settings.rules, self.options.seed, dealer=settings.dealer, names=settings.names)
        seats = list(settings.seats) or [None] + [default_bot_name()] * (settings.rules.players - 1)
        self.start_game(game, seats)

    def start_game(self, game: Game, seats: Sequence["str | None"], help: "Help | None" = None) -> None:
        """Play ``game`` with the person in the seat marked ``None`` (a resumed game with the
        help used so far)."""
        human = list(seats).index(None)
        self.table = PlayScreen(game, human, seats, self.options, help)
        self.table._save()
        self.push_screen(self.table)

    async def new_game(self) -> None:
        """Back to the setup screen for another game."""
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        self.resume = None
        self.options.seed = None
        self.push_setup()


def default_settings(rules: "Rules | None" = None, names: "Sequence[str] | None" = None,
                     seats: "Sequence[str | None] | None" = None, dealer: "int | None" = None) -> Settings:
    """Settings with sensible defaults for anything not given."""
    from .setup import DEFAULT_NAMES
    rules = rules or Rules(4)
    n = rules.players
    names = list(names) if names else [_("You"), *DEFAULT_NAMES[1:n]]
    seats = list(seats) if seats else [None] + [default_bot_name()] * (n - 1)
    return Settings(rules, names, seats, dealer)
