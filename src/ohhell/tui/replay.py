"""``ohhell replay``: step through any record forwards and backwards.

A record (or a JSON Lines file of records, docs/interfaces.md §1) is verified by
:meth:`ohhell.Game.from_record`, then rewound with :meth:`ohhell.Game.undo`;
stepping applies or takes back one action at a time.  Everyone's cards are
shown (a record holds them all), or, on request, only what one seat saw.  A
score sheet from ``ohhell score`` is stepped through hand by hand.
"""

from __future__ import annotations

from typing import Any, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, ProgressBar, Static

from ..actions import Bid
from ..i18n import N_, _, ngettext
from ..coach import GameAnalysis, analysis_of
from ..errors import OhHellError
from ..files import SCORESHEET, read_file
from ..game import Game
from ..scoresheet import ScoreSheet
from ..text import account_bot_seats, bid_summary_words, help_used_words, plan_words
from .coach import SummaryScreen, decision_panel, flat_decisions, hand_loss_row, summary_body
from .play import PLAY_CSS
from .render import (PLAYER_COLORS, SUIT_STYLE, bid_table, card_text, describe_action, hand_by_suit, live_bid_rows,
                     score_rows_from_sheet, score_rows_from_view, score_table, trick_table, trump_text)
from .widgets import ChartView, word_bindings

__all__ = ["ReplayApp", "Replayer", "ReplayScreen", "SheetReplayScreen", "load_file", "short_labels",
           "score_column_width"]


def short_labels(names: Sequence[str], width: int) -> list[str]:
    """Column labels of at most ``width`` characters that stay as distinct as the names.

    A name that fits is kept.  A longer one is cut with "…"; where two cut names would
    look the same, each keeps the end that tells it apart (``heuri…1``, ``heuri…2``), and
    as a last resort the seat's number leads.

    >>> short_labels(["heuristic 1", "heuristic 2", "Ann"], 7)
    ['heuri…1', 'heuri…2', 'Ann']
    >>> short_labels(["Alexandra", "Bob"], 6)
    ['Alexa…', 'Bob']
    """
    width = max(2, width)

    def cut(name: str, keep: int) -> str:
        if len(name) <= width:
            return name
        if keep == 0:
            return name[:width - 1] + "…"
        return name[:max(0, width - 1 - keep)] + "…" + name[-keep:]

    labels = [cut(x, 0) for x in names]
    for keep in range(1, width):
        clash = [i for i, x in enumerate(labels)
                 if sum(1 for j, y in enumerate(labels) if y == x and names[j] != names[i])]
        if not clash:
            return labels
        for i in clash:
            labels[i] = cut(names[i], keep)
    if len(set(labels)) < len(set(names)):
        labels = [cut(f"{s + 1} {x}", 0) for s, x in enumerate(names)]
    return labels


def score_column_width(pane: int, players: int, compact: bool) -> int:
    """About how wide each player's column of :func:`~ohhell.tui.render.score_table` is in a
    pane ``pane`` cells wide (the narrowest column, give or take one)."""
    fixed = 9 if compact else 19           # "#", "cards"/"n" and "trump" with the gaps between them
    gap = 1 if compact else 2
    return max(2, (pane - fixed) // players - gap - 1)


def load_file(path: str) -> "list[dict] | ScoreSheet":
    """The records in ``path`` (one record, or JSON Lines), or a score sheet
    (:func:`ohhell.files.read_file` tells which).

    :raises RecordError: for a file that holds neither (the message says where).
    :raises OSError: when it cannot be read.
    """
    content = read_file(path)
    return content.sheet if content.kind == SCORESHEET else content.records


class Replayer:
    """A game that can be stepped through: position ``pos`` of ``len(actions)``.

    :raises RecordError: when the record does not replay.
    """

    def __init__(self, record: dict) -> None:
        final = Game.from_record(record)
        self.record = record
        self.actions: list[tuple[int, Any]] = list(final.actions())
        self.game = final.copy()
        for _ in self.actions:
            self.game.undo()
        self.pos = 0

    @property
    def names(self) -> list[str]:
        """The players' names."""
        return list(self.game.names)

    def forward(self) -> bool:
        """Apply the next action; ``False`` at the end."""
        if self.pos >= len(self.actions):
            return False
        seat, action = self.actions[self.pos]
        self.game.apply(action, seat=seat)
        self.pos += 1
        return True

    def back(self) -> bool:
        """Take back the last action; ``False`` at the start."""
        if self.pos == 0:
            return False
        self.game.undo()
        self.pos -= 1
        return True

    def next_trick(self) -> None:
        """Go to the end of the current trick (or of the bidding)."""
        if not self.forward():
            return
        while self.pos < len(self.actions):
            g = self.game
            in_bidding = g.phase_name == "bid" and any(b is not None for b in g.bids)
            in_trick = g.phase_name == "play" and bool(g.current_trick.cards)
            if not (in_bidding or in_trick):
                break
            self.forward()

    def prev_trick(self) -> None:
        """Go back to the start of the current trick (or the one before)."""
        if not self.back():
            return
        while self.pos > 0:
            g = self.game
            if (g.phase_name == "play" and not g.current_trick.cards) or (g.phase_name == "bid" and
                                                                          all(b is None for b in g.bids)):
                break
            self.back()

    def next_hand(self) -> None:
        """Go to the start of the next hand (or the end)."""
        k = self.game.hand_index
        while self.pos < len(self.actions) and self.game.hand_index == k and not self.game.is_over:
            self.forward()

    def prev_hand(self) -> None:
        """Go to the start of this hand, or of the previous one when already there."""
        g = self.game
        at_start = g.phase_name == "bid" and all(b is None for b in g.bids) and not g.is_over
        if at_start and self.pos:
            self.back()
        k = self.game.hand_index
        while self.pos > 0:
            self.back()
            if self.game.hand_index != k:
                self.forward()
                break

    def go(self, pos: int) -> None:
        """Go to position ``pos`` (clamped)."""
        pos = max(0, min(pos, len(self.actions)))
        while self.pos < pos:
            self.forward()
        while self.pos > pos:
            self.back()


class ReplayScreen(Screen):
    """One record: the table at the current position, all hands or one seat's view."""

    BINDINGS = [
        Binding("right,l", "step(1)", N_("Next")),
        Binding("left,h", "step(-1)", N_("Back")),
        Binding("down,j", "trick(1)", N_("Next trick")),
        Binding("up,k", "trick(-1)", N_("Trick back"), show=False),
        Binding("pagedown,J", "hand(1)", N_("Next hand")),
        Binding("pageup,K", "hand(-1)", N_("Hand back"), show=False),
        Binding("home,g", "edge(0)", N_("Start"), show=False),
        Binding("end,G", "edge(1)", N_("End"), show=False),
        Binding("v", "cycle_view", N_("View as")),
        Binding("c", "chart", N_("Chart")),
        Binding("m", "mistake(1)", N_("Next mistake")),
        Binding("M", "mistake(-1)", N_("Previous mistake"), show=False),
        Binding("a", "summary", N_("Analysis")),
        Binding("full_stop", "game(1)", N_("Next game"), show=False),
        Binding("comma", "game(-1)", N_("Previous game"), show=False),
        Binding("q,escape", "quit", N_("Quit")),
    ]

    DEFAULT_CSS = """
    ReplayScreen #position { height: auto; }
    ReplayScreen #progress { margin: 0 0 1 0; }
    ReplayScreen #hands { height: auto; margin: 1 0; }
    ReplayScreen #controls { height: auto; }
    ReplayScreen .replay-button { margin: 0 1 0 0; width: auto; min-width: 4; }
    ReplayScreen #coach-box { height: 1fr; min-height: 4; border-top: solid $primary-darken-2; }
    ReplayScreen #coach { height: auto; }
    ReplayScreen #hand-loss { height: auto; }
    """

    def __init__(self, records: Sequence[dict], index: int = 0, seat: "int | None" = None,
                 source: str = "", *, embedded: bool = False) -> None:
        super().__init__()
        word_bindings(self)
        self.records = list(records)
        self.index = index
        self.source = source
        self.rep = Replayer(self.records[index])
        self.seat = seat
        self._chart = False
        self.embedded = embedded     # opened from another app (the game-over screen): q goes back there
        self.analysis: "GameAnalysis | None" = None
        self.analysis_error: "str | None" = None
        self._decisions: list[tuple[dict, dict]] = []
        self._load_analysis()

    def _load_analysis(self) -> None:
        """The current record's analysis, when it carries one that matches its actions."""
        self.analysis, self.analysis_error, self._decisions = None, None, []
        try:
            a = analysis_of(self.records[self.index])
        except (ValueError, KeyError, TypeError) as e:
            self.analysis_error = _("The record's analysis cannot be read: {reason}").format(reason=e)
            return
        if a is None:
            return
        flat = flat_decisions(a)
        if len(flat) != len(self.rep.actions) or len(a.players) != self.rep.game.players:
            self.analysis_error = _("The record's analysis does not match its game "
                                    "({decisions} decisions for {actions} actions); run "
                                    "`ohhell analyze` again.").format(decisions=len(flat), actions=len(self.rep.actions))
            return
        self.analysis, self._decisions = a, flat

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static("", id="info")
                yield Static("", id="record-note")
                yield Static("", id="position")
                yield ProgressBar(total=max(1, len(self.rep.actions)), show_eta=False, id="progress")
                yield Static("", id="trick")
                yield Static("", id="hands")
                with Horizontal(id="controls"):
                    for bid, label in (("start", "|<"), ("hand-back", "<< " + _("hand")), ("back", "<"),
                                       ("next", ">"), ("hand-next", _("hand") + " >>"), ("end", ">|")):
                        yield Button(label, id=f"r-{bid}", compact=True, classes="replay-button")
                with VerticalScroll(id="coach-box"):
                    yield Static("", id="hand-loss")
                    yield Static("", id="coach")
            with Vertical(id="right"):
                yield Static("", id="bids")
                with VerticalScroll(id="scores-box"):
                    yield Static("", id="scores")
                yield ChartView([[0]], ["-"], id="chart")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#chart").display = False
        self.refresh_replay()

    def refresh_replay(self) -> None:
        """Redraw the table at the current position."""
        g = self.rep.game
        n = g.players
        view = g.view(self.seat) if self.seat is not None else g.spectator_view()
        info = Text(_("Hand {n} of {count}").format(n=view.hand_index + 1, count=view.hand_count), style="bold")
        info.append(" · " + ngettext("{n} card each", "{n} cards each", view.hand_size).format(n=view.hand_size)
                    + " · " + _("dealer") + " ")
        info.append(view.names[view.dealer], style=PLAYER_COLORS[view.dealer % len(PLAYER_COLORS)])
        info.append(" · ")
        info.append_text(trump_text(None if view.trump_card is None else int(view.trump_card)))
        self.query_one("#info", Static).update(info)
        note = self._record_note()
        self.query_one("#record-note", Static).update(note)
        self.query_one("#record-note").display = bool(note.plain)
        pos = Text(_("Action {n} of {count}").format(n=self.rep.pos, count=len(self.rep.actions)), style="bold")
        if self.rep.pos:
            seat, action = self.rep.actions[self.rep.pos - 1]
            pos.append(" — " + _("last: {name}").format(name=g.names[seat]) + " ")
            if isinstance(action, Bid):
                hidden = self.seat is not None and not view.bids_revealed and seat != self.seat
                pos.append(_("bid (hidden)") if hidden else describe_action(action))
            else:
                pos.append_text(card_text(action.card))
            if self._decisions and (self.seat is None or seat == self.seat) \
                    and self._decisions[self.rep.pos - 1][1]["mistake"]:
                pos.append(" ✗ " + _("mistake"), style="bold red")
        who = (_("showing everyone's cards") if self.seat is None else
               _("showing what {name} saw").format(name=g.names[self.seat]))
        pos.append(" · " + who, style="dim")
        if len(self.records) > 1:
            pos.append(" · " + _("game {n} of {count}").format(n=self.index + 1, count=len(self.records)), style="dim")
        self.query_one("#position", Static).update(pos)
        self.query_one("#progress", ProgressBar).update(total=max(1, len(self.rep.actions)),
                                                       progress=self.rep.pos)
        self.query_one("#trick", Static).update(trick_table(view, you=self.seat))
        self.query_one("#hands", Static).update(self._hands(view))
        to_act = g.seats_to_act
        self.query_one("#bids", Static).update(
            bid_table(live_bid_rows(view), to_act=to_act, hand_size=view.hand_size,
                      title=_("Bids — hand {n}").format(n=view.hand_index + 1), compact=self.query_one("#right").size.width < 44))
        pane = self.query_one("#right").size.width
        narrow = pane < 14 + 9 * n
        labels = short_labels(view.names, score_column_width(pane, n, narrow))
        self.query_one("#scores", Static).update(
            score_table(labels, score_rows_from_view(view), compact=narrow,
                        highlight=None if view.is_over else view.hand_index + 1))
        if self._chart:
            self.query_one("#chart", ChartView).set_data(self._series(), view.names)
        self._refresh_coach()
        self.sub_title = self.source

    def _record_note(self) -> Text:
        """What the record says of its game beyond the cards: the seats bot accounts played
        (``account_bots``, as the web replay marks them) and the help used (``help``)."""
        rec, names = self.rep.record, self.rep.names
        note = Text()
        bots = account_bot_seats(rec, len(names))
        if bots:
            for s, name in enumerate(names):
                if s:
                    note.append(" · ")
                note.append(_("{name} (bot)").format(name=name) if s in bots else name,
                            style=PLAYER_COLORS[s % len(PLAYER_COLORS)])
            note.append("  " + _("(bot): a program playing through the bot API"), style="dim")
        helped = help_used_words(rec, names)
        if helped:
            if note.plain:
                note.append("\n")
            note.append(helped, style="bold yellow")
        return note

    def _refresh_coach(self) -> None:
        """The annotation of the last decision, and the points lost so far in its hand."""
        box = self.query_one("#coach-box")
        box.display = self.analysis is not None or self.analysis_error is not None
        coach, loss = self.query_one("#coach", Static), self.query_one("#hand-loss", Static)
        if self.analysis is None:
            coach.update(Text(self.analysis_error or "", style="yellow"))
            loss.update("")
            return
        names = self.rep.names
        pos = self.rep.pos
        if pos == 0:
            hand = self.analysis.hands[0]
            loss.update(hand_loss_row(hand, 0, names, self.seat))
            coach.update(Text(_("The coach annotates each decision as the replay reaches it "
                                "(m: next mistake, a: the game's analysis)."), style="dim"))
            return
        hand, d = self._decisions[pos - 1]
        loss.update(hand_loss_row(hand, d["index"] + 1, names, self.seat))
        if self.seat is not None and d["seat"] != self.seat:
            coach.update(Text(_("{name}'s decision: its analysis would tell you their cards "
                                "(v: show everyone's cards to see it).").format(name=names[d['seat']]), style="dim"))
            return
        coach.update(decision_panel(hand, d, names))

    def on_resize(self) -> None:
        self.call_later(self.refresh_replay)

    def _series(self) -> list[list[int]]:
        g = self.rep.game
        series = [[0] for _ in range(g.players)]
        for h in g.past_hands:
            for s in range(g.players):
                series[s].append(series[s][-1] + h.scores[s])
        return series

    def _hands(self, view) -> Table:
        g = self.rep.game
        t = Table(title=Text(_("Hands") if self.seat is None else _("{name}'s hand").format(name=g.names[self.seat])),
                  title_style="bold",
                  show_header=False, box=None, pad_edge=False)
        t.add_column(no_wrap=True)
        t.add_column()
        for s in range(g.players):
            if g.is_over:
                break
            if self.seat is not None and s != self.seat:
                t.add_row(Text(g.names[s], style=PLAYER_COLORS[s % len(PLAYER_COLORS)]),
                          Text(ngettext("{n} card", "{n} cards", view.cards_left(s)).format(n=view.cards_left(s)),
                               style="dim"))
                continue
            cards = Text()
            for suit, cs in hand_by_suit(g.hand_mask(s), view.trump):
                if cards.plain:
                    cards.append("  ")
                cards.append(("♣♦♥♠")[suit] + " ", style=SUIT_STYLE[suit])
                cards.append(" ".join(card_text(c).plain[:-1] for c in cs), style=SUIT_STYLE[suit])
            t.add_row(Text(g.names[s], style=PLAYER_COLORS[s % len(PLAYER_COLORS)]),
                      cards if cards.plain else Text(_("(no cards)"), style="dim"))
        if g.is_over:
            t.add_row(Text(_("Game over."), style="bold"),
                      Text(_("Winners: {names}").format(names=", ".join(g.names[s] for s in g.winners))))
        return t

    # --- stepping ------------------------------------------------------------------------------

    def action_step(self, d: int) -> None:
        (self.rep.forward if d > 0 else self.rep.back)()
        self.refresh_replay()

    def action_trick(self, d: int) -> None:
        (self.rep.next_trick if d > 0 else self.rep.prev_trick)()
        self.refresh_replay()

    def action_hand(self, d: int) -> None:
        (self.rep.next_hand if d > 0 else self.rep.prev_hand)()
        self.refresh_replay()

    def action_edge(self, end: int) -> None:
        self.rep.go(len(self.rep.actions) if end else 0)
        self.refresh_replay()

    def action_cycle_view(self) -> None:
        n = self.rep.game.players
        self.seat = 0 if self.seat is None else (None if self.seat == n - 1 else self.seat + 1)
        self.refresh_replay()

    def action_chart(self) -> None:
        self._chart = not self._chart
        self.query_one("#chart").display = self._chart
        self.refresh_replay()

    def action_mistake(self, d: int) -> None:
        """Go to just after the next (or previous) flagged mistake, of the seat shown or of all."""
        if self.analysis is None:
            self.notify(self.analysis_error or _("This record has no analysis: replay it with --analyze, or run "
                                                  "`ohhell analyze` on it first."), severity="warning", markup=False)
            return
        marks = [i + 1 for i, (_, x) in enumerate(self._decisions)
                 if x["mistake"] and (self.seat is None or x["seat"] == self.seat)]
        target = (next((p for p in marks if p > self.rep.pos), None) if d > 0
                  else next((p for p in reversed(marks) if p < self.rep.pos), None))
        if target is None:
            self.notify(_("No more mistakes after this point.") if d > 0 else _("No more mistakes before this point."),
                        severity="information")
            return
        self.rep.go(target)
        self.refresh_replay()

    def action_summary(self) -> None:
        """The game's analysis summary, up to where the replay is (no spoilers)."""
        if self.analysis is None:
            self.notify(self.analysis_error or _("This record has no analysis: replay it with --analyze, or run "
                                                  "`ohhell analyze` on it first."), severity="warning", markup=False)
            return
        g = self.rep.game
        hands_done = len(g.past_hands)
        self.app.push_screen(SummaryScreen(summary_body(self.analysis, self.rep.names, hands_done,
                                                        self.rep.pos, self.seat)))

    def action_game(self, d: int) -> None:
        i = self.index + d
        if not 0 <= i < len(self.records):
            self.notify(_("No more games in this file."), severity="warning")
            return
        try:
            rep = Replayer(self.records[i])
        except OhHellError as e:
            self.notify(_("Game {n}: {reason}").format(n=i + 1, reason=e), severity="error", markup=False)   # it may quote the record
            return
        self.index, self.rep = i, rep
        if self.seat is not None and self.seat >= rep.game.players:
            self.seat = None
        self._load_analysis()
        self.refresh_replay()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        {"r-start": lambda: self.action_edge(0), "r-end": lambda: self.action_edge(1),
         "r-back": lambda: self.action_step(-1), "r-next": lambda: self.action_step(1),
         "r-hand-back": lambda: self.action_hand(-1), "r-hand-next": lambda: self.action_hand(1)}[
            str(event.button.id)]()

    def action_quit(self) -> None:
        if self.embedded:
            self.dismiss(None)
        else:
            self.app.exit()


class SheetReplayScreen(Screen):
    """A score sheet, hand by hand: that hand's bid table and the scores up to it."""

    BINDINGS = [Binding("right,l,down,j", "step(1)", N_("Next hand")), Binding("left,h,up,k", "step(-1)", N_("Back")),
                Binding("home,g", "edge(0)", N_("First")), Binding("end,G", "edge(1)", N_("Last")),
                Binding("q,escape", "quit", N_("Quit"))]

    def __init__(self, sheet: ScoreSheet, source: str = "") -> None:
        super().__init__()
        word_bindings(self)
        self.sheet = sheet
        self.source = source
        self.hand = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static("", id="info")
                yield Static("", id="bids")
            with Vertical(id="right"):
                with VerticalScroll(id="scores-box"):
                    yield Static("", id="scores")
                yield ChartView([[0]], ["-"], id="chart")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_replay()

    def refresh_replay(self) -> None:
        """Redraw for the current hand."""
        sheet, k = self.sheet, self.hand
        p = sheet.plan(k)
        self.query_one("#info", Static).update(Group(
            Text(_("Score sheet · hand {n} of {count} ({entered} entered)").format(
                n=p.number, count=sheet.hand_count, entered=sheet.hands_started), style="bold"),
            Text(plan_words(sheet, k)), Text(bid_summary_words(sheet, k), style="italic")))
        self.query_one("#bids", Static).update(bid_table(sheet.bid_table(k), hand_size=p.hand_size,
                                                         title=_("Hand {n}").format(n=p.number)))
        rows = score_rows_from_sheet(sheet)[:k + 1]
        labels = short_labels(sheet.names, score_column_width(self.query_one("#right").size.width,
                                                              sheet.players, False))
        self.query_one("#scores", Static).update(score_table(labels, rows, highlight=k + 1))
        totals = sheet.running_totals()[:k + 1]
        series = [[0] + [t[s] for t in totals] for s in range(sheet.players)]
        self.query_one("#chart", ChartView).set_data(series, sheet.names)
        self.sub_title = self.source

    def action_step(self, d: int) -> None:
        self.hand = max(0, min(self.sheet.hands_started - 1, self.hand + d))
        self.refresh_replay()

    def action_edge(self, end: int) -> None:
        self.hand = self.sheet.hands_started - 1 if end else 0
        self.refresh_replay()

    def action_quit(self) -> None:
        self.app.exit()


REPLAY_CSS = PLAY_CSS


class ReplayApp(App):
    """``ohhell replay FILE``: step through records (or a score sheet)."""

    TITLE = "Oh Hell replay"
    CSS = REPLAY_CSS

    def __init__(self, content: "list[dict] | ScoreSheet", *, index: int = 0, seat: "int | None" = None,
                 position: "int | None" = None, source: str = "") -> None:
        super().__init__()
        self.title = _("Oh Hell replay")
        self.content = content
        self.index = index
        self.seat = seat
        self.position = position
        self.source = source

    def on_mount(self) -> None:
        if isinstance(self.content, ScoreSheet):
            self.push_screen(SheetReplayScreen(self.content, self.source))
            return
        screen = ReplayScreen(self.content, self.index, self.seat, self.source)
        if self.position is not None:
            screen.rep.go(self.position if self.position >= 0 else len(screen.rep.actions) + 1 + self.position)
        self.push_screen(screen)
