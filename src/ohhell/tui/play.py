"""``ohhell play``: a full-screen game against bots.

The screen is drawn only from the human seat's :class:`~ohhell.view.View`;
bots get their own seat's view and think in a worker thread, each with a
short visible delay.  The game is saved (its record, docs/interfaces.md §1) after
every action, atomically, so it can be resumed at any time.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from dataclasses import dataclass
from typing import Any, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Header, RichLog, Static

from .. import bots as botlib
from ..actions import Bid, Play
from ..cards import RANKS, SUIT_SYMBOLS, parse_card
from ..errors import CardError, IllegalActionError, OhHellError, RecordError
from ..game import Game
from ..rules import Rules
from ..scoresheet import atomic_write_text
from ..view import View
from .render import (PLAYER_COLORS, bid_table, card_text, describe_action, explain_illegal, live_bid_rows, rank_text,
                     score_rows_from_view, score_table, standings_table, suit_text, trick_table, trump_text)
from .setup import SETUP_CSS, Settings, SetupScreen
from .widgets import BidBar, CardWidget, ChartView, HandPanel

__all__ = ["PlayApp", "PlayOptions", "PlayScreen", "hint_bot_name", "load_saved_game", "default_save_path",
           "data_dir", "seats_of_record", "archive_path", "history_path"]


def data_dir() -> str:
    """Where ``ohhell`` keeps its files: ``$OHHELL_HOME``, else ``$XDG_DATA_HOME/ohhell``,
    else ``~/.local/share/ohhell``."""
    home = os.environ.get("OHHELL_HOME")
    if home:
        return home
    xdg = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(xdg, "ohhell")


def default_save_path() -> str:
    """The file ``ohhell play`` saves the current game to unless told otherwise."""
    return os.path.join(data_dir(), "game.json")


def archive_path(path: str) -> str:
    """Where a file is moved to make room for a new one: ``NAME-YYYYmmdd-HHMMSS.json``."""
    import datetime as _dt
    stem, ext = os.path.splitext(path)
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = f"{stem}-{stamp}{ext or '.json'}"
    i = 2
    while os.path.exists(out):
        out = f"{stem}-{stamp}-{i}{ext or '.json'}"
        i += 1
    return out


def shown_path(path: str) -> str:
    """A path for people: the home folder written as ``~``."""
    home = os.path.expanduser("~")
    full = os.path.abspath(path)
    if home not in ("", "/") and full.startswith(home.rstrip(os.sep) + os.sep):
        return "~" + full[len(home.rstrip(os.sep)):]
    return path


def history_path(save_path: str) -> str:
    """The JSON Lines file next to the save file that collects every finished game."""
    return os.path.join(os.path.dirname(os.path.abspath(save_path)), "history.jsonl")


def hint_bot_name() -> str:
    """The strongest bot available for hints: ``expert``, else ``heuristic``, else ``random``."""
    names = botlib.names()
    for name in ("expert", "heuristic"):
        if name in names:
            return name
    return names[0] if names else "random"


def default_bot_name() -> str:
    """The bot seats get unless told otherwise."""
    names = botlib.names()
    for name in ("intermediate", "heuristic"):
        if name in names:
            return name
    return "random" if "random" in names else names[0]


def seats_of_record(record: dict, players: int) -> list["str | None"]:
    """Who plays each seat of a saved game: ``None`` for the person, else a bot name.

    Saved games carry a ``"seats"`` list (``"human"`` or a bot name); any other
    record is resumed with the person at seat 0 and the default bot elsewhere.
    """
    seats = record.get("seats")
    known = botlib.names()
    out: list[str | None] = []
    if isinstance(seats, list) and len(seats) == players:
        for x in seats:
            out.append(None if x == "human" else (x if x in known else default_bot_name()))
        if out.count(None) == 1:
            return out
    return [None] + [default_bot_name()] * (players - 1)


def load_saved_game(path: str) -> tuple[Game, list["str | None"]]:
    """Load a saved game (a record) and who plays each seat.

    :raises RecordError: for a file that is not a valid record.
    :raises OSError: when it cannot be read.
    """
    with open(path, "rb") as f:
        text = f.read()
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RecordError(f"{path} is not JSON: {e}") from None
    if isinstance(data, dict) and data.get("format") == "ohhell.scoresheet":
        raise RecordError(f"{path} is a score sheet (ohhell score), not a game: open it with `ohhell score {path}`")
    game = Game.from_record(data)
    return game, seats_of_record(data, game.players)


@dataclass
class PlayOptions:
    """How the game runs: the bots' visible ``delay`` (seconds), where it is
    saved, whether to stop after each hand to show its result, and the seed."""

    delay: float = 0.6
    save_path: "str | None" = None
    pause_after_hand: bool = True
    seed: "int | str | None" = None
    hint_bot: "str | None" = None


# --- modal screens ---------------------------------------------------------------------------------

class HintScreen(ModalScreen):
    """What the expert would do, and its numbers; Enter follows the hint."""

    BINDINGS = [Binding("escape,h", "dismiss(None)", "Close"), Binding("enter", "follow", "Follow the hint")]

    def __init__(self, body: Any, action: Any) -> None:
        super().__init__()
        self.body = body
        self.action_value = action

    def compose(self) -> ComposeResult:
        with Vertical(id="hint-box", classes="modal-box"):
            yield Static(self.body, id="hint-body")
            with Horizontal(classes="modal-buttons"):
                yield Button("Follow (Enter)", id="follow", variant="primary")
                yield Button("Close (Esc)", id="close")

    def action_follow(self) -> None:
        self.dismiss(self.action_value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(self.action_value if event.button.id == "follow" else None)


class MessageScreen(ModalScreen):
    """A box of text closed with Enter or Escape (hand results, help)."""

    BINDINGS = [Binding("escape,enter,space", "dismiss(None)", "Continue")]

    def __init__(self, body: Any, button: str = "Continue (Enter)", box_id: str = "message-box") -> None:
        super().__init__()
        self.body = body
        self.button = button
        self.box_id = box_id

    def compose(self) -> ComposeResult:
        with VerticalScroll(id=self.box_id, classes="modal-box"):
            yield Static(self.body, classes="message-body")
            yield Button(self.button, id="continue", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#continue", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)


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


HELP_TEXT = """[b]Keys[/b]

[b]Bidding[/b]   type the number (0-9; two digits then Enter for 10 and more),
            or click a bid, or move with the arrows and press Enter.
[b]Playing[/b]   type the card: its rank then its suit ([i]q s[/i] for Q♠, [i]t h[/i] or [i]1 0 h[/i] for 10♥),
            or click it, or move with the arrows and press Enter.
            Cards you may play are bright; the others are dimmed.

  h      hint: what the expert would do, with its numbers (Enter follows it)
  l      show or hide the last trick
  u      take back your last bid or card (and the bots' actions after it)
  ctrl+s save now (the game is also saved after every action)
  ?      this help
  ctrl+q quit (the game is saved; `ohhell play --resume` continues it)

The bid table (right) shows who bid what, who has won how many and who is
over or under; the score table below it shows every hand so far."""


# --- the game screen -------------------------------------------------------------------------------

class PlayScreen(Screen):
    """The table: hand, trump, trick, bid table, score table, whose turn."""

    BINDINGS = [
        Binding("h", "hint", "Hint"),
        Binding("l", "last_trick", "Last trick"),
        Binding("u", "undo", "Take back"),
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("question_mark", "help", "Help"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(self, game: Game, human: int, seats: Sequence["str | None"], options: PlayOptions) -> None:
        super().__init__()
        self.game = game
        self.human = human
        self.seat_bots = list(seats)
        self.options = options
        seed = options.seed if options.seed is not None else time.time_ns()
        self.bots = {s: botlib.make(name, seed=f"{seed}:{s}") for s, name in enumerate(seats)
                     if name is not None}
        self._hint_bot = None
        self._typed = ""        # digits or a rank typed so far
        self._hold = False      # waiting for the player to close a hand's result
        self._show_last = False
        self._message: Text = Text("")
        self.saved_to: "str | None" = None
        self.save_error: "str | None" = None
        self._archived = game.is_over  # a game loaded finished is in the history already

    # --- layout --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static("", id="info")
                yield Static("", id="trick")
                yield Static("", id="last-trick")
                yield Static("", id="status")
                yield BidBar(id="bidbar")
                yield HandPanel(id="hand")
                yield RichLog(id="log", max_lines=500, markup=False, wrap=True, min_width=20)
            with Vertical(id="right"):
                yield Static("", id="bids")
                with VerticalScroll(id="scores-box"):
                    yield Static("", id="scores")
        yield Footer()

    async def on_mount(self) -> None:
        self.sub_title = self.game.rules.describe()
        self.query_one("#last-trick").display = False
        log = self.query_one("#log", RichLog)
        log.write(Text(f"New game: {self.game.rules.describe()}.", style="dim"))
        log.write(Text("Press ? for the keys, h for a hint.", style="dim"))
        await self.refresh_table()
        self._focus_default()
        self.drive()

    # --- who acts ------------------------------------------------------------------------------

    @property
    def view(self) -> View:
        """What the person may see (everything on screen comes from this)."""
        return self.game.view(self.human)

    def _bot_to_act(self) -> "int | None":
        return next((s for s in self.game.seats_to_act if s != self.human), None)

    @property
    def human_may_act(self) -> bool:
        """Whether the person may act now."""
        return not self._hold and bool(self.game.legal_actions(seat=self.human))

    @property
    def busy(self) -> bool:
        """Whether a bot is to act (the screen is waiting for it)."""
        return not self._hold and self._bot_to_act() is not None

    @work(exclusive=True, group="drive")
    async def drive(self) -> None:
        """Let the bots act, each after a short visible delay, until it is the person's turn."""
        while not self._hold:
            seat = self._bot_to_act()
            if seat is None:
                break
            await self.refresh_table()
            count = self.game.action_count
            view = self.game.view(seat)
            started = time.perf_counter()
            action = await asyncio.to_thread(self.bots[seat].act, view)
            left = self.options.delay - (time.perf_counter() - started)
            if left > 0:
                await asyncio.sleep(left)
            if self.game.action_count != count:  # pragma: no cover - the state changed meanwhile
                continue
            await self._apply(seat, action)
        await self.refresh_table()
        if self.game.is_over and not self._hold:
            self._game_over()

    async def _apply(self, seat: int, action) -> None:
        g = self.game
        hand_before = g.hand_index
        tricks_before = len(g.tricks)
        g.apply(action, seat=seat)
        who = "You" if seat == self.human else g.names[seat]
        log = self.query_one("#log", RichLog)
        if isinstance(action, Bid):
            hidden = g.rules.simultaneous_bidding and seat != self.human and g.phase_name == "bid"
            log.write(Text(f"{who} {'bid' if seat == self.human else 'bids'}"
                           + (" (hidden until all are in)" if hidden else f" {action.tricks}")))
            if g.phase_name == "play" and g.hand_index == hand_before and g.rules.simultaneous_bidding:
                log.write(Text("Bids revealed: " + ", ".join(f"{g.names[s]} {b}" for s, b in enumerate(g.bids)),
                               style="bold"))
        else:
            line = Text(f"{who} {'play' if seat == self.human else 'plays'} ")
            line.append_text(card_text(action.card))
            log.write(line)
        hand_over = g.is_over or g.hand_index != hand_before
        if hand_over or len(g.tricks) != tricks_before:
            last = g.past_hands[-1].tricks[-1] if hand_over else g.tricks[-1]
            winner = "You" if last.winner == self.human else g.names[last.winner]
            log.write(Text(f"{winner} {'win' if last.winner == self.human else 'wins'} the trick.",
                           style="bold"))
        self._save()
        if hand_over:
            hr = g.past_hands[-1]
            parts = [f"{g.names[s]} {hr.bids[s]}/{hr.tricks_won[s]} {hr.scores[s]:+d}" for s in range(g.players)]
            log.write(Text(f"Hand {hr.index + 1} over: " + ", ".join(parts), style="bold cyan"))
            if self.options.pause_after_hand:
                self._hold = True
                await self.refresh_table()
                self.app.push_screen(MessageScreen(self._hand_result(hr), box_id="result-box"),
                                     self._after_result)
                return
        await self.refresh_table()

    def _after_result(self, _: object) -> None:
        self._hold = False
        if self.game.is_over:
            self._game_over()
        else:
            self.call_later(self._resume)

    async def _resume(self) -> None:
        await self.refresh_table()
        self._focus_default()
        self.drive()

    def _hand_result(self, hr) -> Group:
        g = self.game
        t = Table(title=f"Hand {hr.index + 1} of {g.hand_count} — {hr.hand_size} card"
                        f"{'s' if hr.hand_size != 1 else ''}", title_style="bold", pad_edge=False)
        t.add_column("player")
        t.add_column("bid", justify="right")
        t.add_column("won", justify="right")
        t.add_column("score", justify="right")
        t.add_column("total", justify="right")
        totals = g.totals
        for s in range(g.players):
            ok = hr.bids[s] == hr.tricks_won[s]
            t.add_row(Text(g.names[s], style=PLAYER_COLORS[s % len(PLAYER_COLORS)]), str(hr.bids[s]),
                      str(hr.tricks_won[s]), Text(f"{hr.scores[s]:+d}", style="green" if ok else "red"),
                      str(totals[s]))
        last = hr.tricks[-1]
        lt = Text("Last trick: ")
        lt.append_text(self._trick_cards(last.leader, last.cards))
        lt.append(f" — won by {g.names[last.winner]}")
        return Group(t, Text(""), lt)

    def _trick_cards(self, leader: int, cards) -> Text:
        n = self.game.players
        t = Text()
        for i, c in enumerate(cards):
            if i:
                t.append(", ")
            t.append(self.game.names[(leader + i) % n] + " ")
            t.append_text(card_text(c))
        return t

    def _game_over(self) -> None:
        if isinstance(self.app.screen, GameOverScreen):
            return
        self._archive_finished()
        self.app.push_screen(GameOverScreen(self.game.names, self.view, self.saved_to), self._after_over)

    def _after_over(self, result: object) -> None:
        if result == "new":
            app = self.app
            if isinstance(app, PlayApp):
                app.call_later(app.new_game)

    # --- saving --------------------------------------------------------------------------------

    def _archive_finished(self) -> None:
        """Append the finished game to ``history.jsonl`` beside the save file (once)."""
        path = self.options.save_path
        if not path or not self.game.is_over or self._archived:
            return
        self._archived = True
        rec = self.game.record()
        rec["seats"] = ["human" if b is None else b for b in self.seat_bots]
        try:
            with open(history_path(path), "a", encoding="utf-8") as f:
                f.write(json.dumps(rec, ensure_ascii=False) + "\n")
                f.flush()
                os.fsync(f.fileno())
        except OSError as e:
            self.save_error = f"could not add the game to {history_path(path)}: {e.strerror or e}"

    def _save(self) -> None:
        path = self.options.save_path
        if not path:
            return
        rec = self.game.record()
        rec["seats"] = ["human" if b is None else b for b in self.seat_bots]
        try:
            atomic_write_text(path, json.dumps(rec, ensure_ascii=False) + "\n")
            self.saved_to = path
            self.save_error = None
        except OSError as e:
            self.save_error = f"could not save to {path}: {e.strerror or e}"

    # --- drawing -------------------------------------------------------------------------------

    async def refresh_table(self) -> None:
        """Redraw everything from the person's view."""
        v = self.view
        g = self.game
        n = v.players
        # info line
        info = Text(f"Hand {v.hand_index + 1} of {v.hand_count}", style="bold")
        info.append(f" · {v.hand_size} card{'s' if v.hand_size != 1 else ''} each · dealer ")
        info.append(v.names[v.dealer], style=PLAYER_COLORS[v.dealer % len(PLAYER_COLORS)])
        info.append(" · ")
        reason = ""
        if v.trump_card is None:
            reason = ("the deal uses the whole deck" if v.hand_size * n >= 52 else
                      "last hand" if v.rules.no_trump == "last" else "largest hands")
        info.append_text(trump_text(None if v.trump_card is None else int(v.trump_card), reason))
        self.query_one("#info", Static).update(info)
        self.query_one("#trick", Static).update(trick_table(v, you=self.human))
        if self._show_last:
            self.query_one("#last-trick", Static).update(self._last_trick_panel(v))
        # whose turn
        status = self._status(v)
        if self._message.plain:
            status = Group(status, self._message)
        self.query_one("#status", Static).update(status)
        # bids and cards
        bidbar = self.query_one(BidBar)
        hand = self.query_one(HandPanel)
        mine = self.human_may_act
        if v.phase == "bid" and mine:
            allowed = [a.tricks for a in v.legal_actions()]
            note = ""
            if len(allowed) == v.hand_size:
                x = next(b for b in range(v.hand_size + 1) if b not in allowed)
                note = f"not {x}: the hook (the bids may not total {v.hand_size})"
            await bidbar.show(v.hand_size, allowed, note)
            bidbar.display = True
        else:
            bidbar.display = False
        legal = [int(a.card) for a in v.legal_actions() if isinstance(a, Play)] if mine else []
        await hand.show(v.hand_mask, v.trump, legal)
        # tables
        to_act = g.seats_to_act
        rows = live_bid_rows(v)
        narrow = self.query_one("#right").size.width < 14 + 9 * n
        self.query_one("#bids", Static).update(bid_table(rows, to_act=to_act, hand_size=v.hand_size,
                                                         title=f"Bids — hand {v.hand_index + 1}",
                                                         compact=self.query_one("#right").size.width < 44))
        self.query_one("#scores", Static).update(score_table(v.names, score_rows_from_view(v), compact=narrow,
                                                             highlight=v.hand_index + 1 if not v.is_over else None))
        self.sub_title = (f"{v.names[self.human]} · {', '.join(f'{v.names[s]} {t}' for s, t in enumerate(v.totals))}")

    def on_resize(self) -> None:
        self.call_later(self.refresh_table)

    def _status(self, v: View) -> Text:
        if v.is_over:
            return Text("The game is over.", style="bold")
        if self._hold:
            return Text("Hand over — press Enter to continue.", style="bold")
        if self.human_may_act:
            if v.phase == "bid":
                t = Text("Your bid: ", style="bold bright_green")
                t.append(f"0 to {v.hand_size}" + (f" — typed {self._typed}_" if self._typed else ""))
                if v.rules.simultaneous_bidding:
                    t.append(" (bids stay hidden until everyone has bid)", style="dim")
                return t
            t = Text("Your turn: play a card", style="bold bright_green")
            if v.trick.cards:
                led = v.trick.cards[0] // 13
                t.append(" — ")
                t.append_text(suit_text(led, name=True))
                t.append(" led")
                if any(c // 13 == led for c in v.hand):
                    t.append(", you must follow")
            else:
                t.append(" — you lead")
            if self._typed:
                t.append(f"  (typed {rank_text(RANKS.index(self._typed))}_)", style="dim")
            return t
        seat = self._bot_to_act()
        if seat is None:
            return Text("Waiting…", style="dim")
        return Text(f"{v.names[seat]} is thinking…", style="italic")

    def _last_trick_panel(self, v: View) -> Text:
        # the trick before the one on the table (or the previous hand's last, early in a hand)
        trick = None
        if v.trick.cards and v.tricks:
            trick = v.tricks[-1]
        elif not v.trick.cards and len(v.tricks) >= 2:
            trick = v.tricks[-2]
        elif not v.tricks and v.past_hands:
            trick = v.past_hands[-1].tricks[-1]
        if trick is None:
            return Text("Last trick: none yet this hand.", style="dim")
        t = Text("Last trick: ", style="bold")
        t.append_text(self._trick_cards(trick.leader, trick.cards))
        t.append(f" — won by {v.names[trick.winner]}")
        return t

    def _focus_default(self) -> None:
        if not self.human_may_act:
            return
        if self.view.phase == "bid":
            buttons = [b for b in self.query(".bid-button") if not b.disabled]
            if buttons:
                buttons[0].focus()
        else:
            self.query_one(HandPanel).focus_first_legal()

    def say(self, text: str, style: str = "bold red") -> None:
        """Show a message under the status line (errors, explanations)."""
        self._message = Text(text, style=style)
        self.call_later(self.refresh_table)

    # --- the person's choices ------------------------------------------------------------------

    async def choose(self, action) -> bool:
        """The person chose ``action``: apply it if legal, else explain why not."""
        self._typed = ""
        g = self.game
        if g.is_over:
            self.say("The game is over.")
            return False
        if self._hold:
            self.say("Press Enter to close the hand's result first.")
            return False
        v = self.view
        if not self.human_may_act:
            who = self._bot_to_act()
            self.say(f"Wait: it is {v.names[who]}'s turn." if who is not None else "It is not your turn.")
            return False
        try:
            g.check(action, seat=self.human)
        except IllegalActionError:
            self.say(explain_illegal(v, action))
            return False
        self._message = Text("")
        await self._apply(self.human, action)
        self._focus_default()
        if not self._hold:
            self.drive()
        return True

    async def on_card_widget_chosen(self, event: CardWidget.Chosen) -> None:
        await self.choose(Play(event.card))

    async def on_bid_bar_chosen(self, event: BidBar.Chosen) -> None:
        await self.choose(Bid(event.bid))

    async def on_key(self, event: events.Key) -> None:
        ch = event.character
        if not ch or not ch.isprintable() or len(ch) != 1:
            if event.key == "enter" and self._typed and self.view.phase == "bid":
                event.stop()
                await self.choose(Bid(int(self._typed)))
            elif event.key == "backspace" and self._typed:
                event.stop()
                self._typed = self._typed[:-1]
                await self.refresh_table()
            return
        v = self.view
        low = ch.lower()
        if v.phase == "bid" and not v.is_over:
            if ch.isdigit():
                event.stop()
                if not self.human_may_act:
                    self.say("Wait for your turn to bid.")
                    return
                self._typed += ch
                b = int(self._typed)
                if b > v.hand_size:
                    self._typed = ""
                    self.say(f"Bids are 0 to {v.hand_size}: this hand has {v.hand_size} "
                             f"trick{'s' if v.hand_size != 1 else ''}.")
                elif b == 0 or b * 10 > v.hand_size:      # no further digit could follow
                    await self.choose(Bid(b))
                else:
                    self._message = Text("")
                    await self.refresh_table()
                return
            if low in "hlu?":
                return
            event.stop()
            self.say(f"{ch!r} is not a bid: type a whole number from 0 to {v.hand_size} "
                     f"(or click a bid). Press ? for help.")
            return
        if v.phase != "play":
            return
        # playing: a rank, then a suit
        if self._typed:
            if low in "cdhs" or ch in SUIT_SYMBOLS:
                event.stop()
                rank = self._typed
                self._typed = ""
                try:
                    card = parse_card(rank + ch)
                except CardError:          # "1" then a suit: no such rank
                    self.say(f"{rank}{ch} is not a card: type 1 0 or t for a ten.")
                    return
                await self.choose(Play(card))
                return
            if self._typed == "1" and ch == "0":
                event.stop()
                self._typed = "T"
                await self.refresh_table()
                return
            event.stop()
            self._typed = ""
            self.say("After the rank, type the suit: c, d, h or s.")
            return
        if low in "23456789tjqka1":
            event.stop()
            if not self.human_may_act:
                self.say("Wait for your turn to play.")
                return
            self._typed = "1" if ch == "1" else low.upper()
            self._message = Text("")
            await self.refresh_table()
            return
        if low in "hlu?":
            return
        event.stop()
        self.say(f"{ch!r}: type a card as its rank then its suit (q s for Q♠), or click it. Press ? for help.")

    # --- commands ------------------------------------------------------------------------------

    def action_hint(self) -> None:
        """Ask the expert what it would do here, and why."""
        if not self.human_may_act:
            self.say("A hint is for your turn.", style="yellow")
            return
        self.say(f"Asking the {self.options.hint_bot or hint_bot_name()} bot…", style="italic")
        self._hint()

    @work(exclusive=True, group="hint")
    async def _hint(self) -> None:
        name = self.options.hint_bot or hint_bot_name()
        if self._hint_bot is None:
            self._hint_bot = botlib.make(name, seed=0)
        view = self.view
        count = self.game.action_count
        decision = await asyncio.to_thread(self._hint_bot.decide, view)
        if self.game.action_count != count:  # pragma: no cover - the game moved on meanwhile
            return
        self._message = Text("")
        await self.refresh_table()
        self.app.push_screen(HintScreen(hint_body(name, view, decision), decision.action), self._after_hint)

    def _after_hint(self, action: object) -> None:
        if action is not None:
            self.call_later(self.choose, action)

    def action_last_trick(self) -> None:
        self._show_last = not self._show_last
        self.query_one("#last-trick").display = self._show_last
        self.call_later(self.refresh_table)

    def action_save(self) -> None:
        self._save()
        if self.save_error:
            self.say(self.save_error)
        elif self.saved_to:
            self.say(f"Saved to {shown_path(self.saved_to)}.", style="green")
        else:
            self.say("This game is not being saved (no save file).", style="yellow")

    async def action_undo(self) -> None:
        """Take back the person's last action and every bot action after it."""
        g = self.game
        actions = list(g.actions())
        if not any(s == self.human for s, _ in actions):
            self.say("You have nothing to take back yet.", style="yellow")
            return
        self.workers.cancel_group(self, "drive")
        self._hold = False
        while True:
            seat, _ = actions.pop()
            g.undo()
            if seat == self.human:
                break
        self._typed = ""
        self.query_one("#log", RichLog).write(Text("You took back your last move.", style="yellow"))
        self._save()
        self._message = Text("")
        await self.refresh_table()
        self._focus_default()
        self.drive()

    def action_help(self) -> None:
        self.app.push_screen(MessageScreen(Text.from_markup(HELP_TEXT), button="Close (Enter)",
                                           box_id="help-box"))

    def action_quit(self) -> None:
        self._save()
        self.app.exit()


def hint_body(name: str, view: View, decision) -> Group:
    """The hint: the suggested action, the value of every choice, the trick probabilities."""
    head = Text(f"The {name} bot suggests: ", style="bold")
    head.append(describe_action(decision.action), style="bold bright_green")
    parts: list[Any] = [head]
    if decision.note:
        parts.append(Text(decision.note, style="italic"))
    values = decision.values or {}
    stats = getattr(decision, "stats", None) or {}
    visits = stats.get("visits") if isinstance(stats.get("visits"), dict) else None
    if values:
        parts.append(Text("\nExpected score of each choice" if isinstance(decision.action, Bid)
                          else "\nEstimated value of each card", style="bold"))
        t = Table(pad_edge=False, box=None)
        t.add_column("choice")
        t.add_column("value", justify="right")
        t.add_column("")
        if visits:
            t.add_column("searched", justify="right")
        best = max(values.values())
        worst = min(values.values())
        span = (best - worst) or 1.0
        for a, val in sorted(values.items(), key=lambda kv: -kv[1]):
            bar = "█" * max(1, round(12 * (val - worst) / span)) if best != worst else ""
            label = Text(describe_action(a)) if not isinstance(a, Play) else card_text(a.card)
            row = [label, f"{val:.2f}", Text(bar, style="green" if a == decision.action else "dim")]
            if visits:
                row.append(str(visits.get(a, "")))
            t.add_row(*row)
        parts.append(t)
    if decision.trick_probs:
        probs = list(decision.trick_probs)
        while len(probs) > 1 and probs[-1] < 0.005:
            probs.pop()
        parts.append(Text("\nChance of winning exactly k tricks", style="bold"))
        t = Table(pad_edge=False, box=None)
        t.add_column("k", justify="right")
        t.add_column("chance", justify="right")
        t.add_column("")
        for k, p in enumerate(probs):
            t.add_row(str(k), f"{100 * p:.0f}%", Text("█" * round(20 * p), style="cyan"))
        if len(probs) < len(decision.trick_probs):
            t.add_row(f"{len(probs)}+", "0%", "")
        parts.append(t)
    plain = {k: v for k, v in stats.items() if isinstance(v, (int, float, str)) and not isinstance(v, bool)}
    if plain:
        parts.append(Text(", ".join(f"{k}: {v:g}" if isinstance(v, float) else f"{k}: {v}"
                                    for k, v in plain.items()), style="dim"))
    parts.append(Text("Enter follows the hint; Esc closes it.", style="dim"))
    return Group(*parts)


# --- the app -------------------------------------------------------------------------------------

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
                 resume: "tuple[Game, list[str | None]] | None" = None,
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
        self.push_screen(SetupScreen(self.settings, bots=botlib.names(), title="New game against bots",
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

    def start_game(self, game: Game, seats: Sequence["str | None"]) -> None:
        """Play ``game`` with the person in the seat marked ``None``."""
        human = list(seats).index(None)
        self.table = PlayScreen(game, human, seats, self.options)
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
    names = list(names) if names else list(DEFAULT_NAMES[:n])
    seats = list(seats) if seats else [None] + [default_bot_name()] * (n - 1)
    return Settings(rules, names, seats, dealer)



