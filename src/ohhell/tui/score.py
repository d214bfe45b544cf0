"""``ohhell score``: the scorekeeper for a game played with real cards.

Everything is decided by :class:`~ohhell.scoresheet.ScoreSheet`; this screen
asks for each entry in turn, shows the plan of the hand, the bid table and the
running score table, and saves the sheet after every change.
"""

from __future__ import annotations

import os
from typing import Sequence

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Header, Input, Label, Static

from ..errors import OhHellError, RulesError
from ..scoresheet import EntryError, ScoreSheet
from ..i18n import N_, _, format_number, ngettext
from ..text import bid_summary_words, entry_words, describe_rules, plan_words, seat_label, undo_words, variant_words
from .modals import MessageScreen
from .paths import archive_path, data_dir, shown_path
from .play import PLAY_CSS
from .render import PLAYER_COLORS, bid_table, score_rows_from_sheet, score_table, signed, standings_table
from .setup import Settings, SetupScreen
from .widgets import ChartView, word_bindings

__all__ = ["ScoreApp", "SheetScreen", "EditHandScreen", "default_sheet_path", "archive_path"]


def default_sheet_path() -> str:
    """The file ``ohhell score`` keeps its sheet in unless told otherwise."""
    return os.path.join(data_dir(), "scoresheet.json")


#: the scorekeeper's commands (Rich markup; worded where shown: ``_(COMMANDS_HELP)``)
COMMANDS_HELP = N_("""[b]Entering[/b]: type the number asked for and press Enter (or click a number).

[b]Commands[/b] (type them in the same box, or use the keys):
  [b]u[/b], undo          take back the last entry                     (F4)
  [b]e N[/b], edit N      correct hand N: its bids and tricks          (F2: this hand)
  [b]b N[/b], bids N      show the bid table of hand N                 (F3: this hand)
  [b]t QS[/b], trump QS   note the card turned for trump (t - forgets it)
  [b]v[/b], variants      the totals under every scoring variant              (F5)
  [b]name N Alice[/b]     correct the name of seat N
  [b]dealer N[/b]         correct who dealt the first hand (seat N)
  [b]rule hook on[/b]     correct a rule: hook, missed (missed bids score tricks) or
                    zero (a made 0 scores 5 + hand size), on or off
  [b]?[/b], help          this help
  [b]q[/b], quit          leave (the sheet is saved; `ohhell score` resumes it)

Every entry is saved at once, so closing the terminal loses nothing.""")


def variants_table(sheet: ScoreSheet) -> Table:
    """The totals the same bids and tricks give under each scoring variant."""
    t = Table(title=_("Totals under every scoring variant"), title_style="bold", box=box.SIMPLE_HEAD,
              caption=_("▶ the scoring in use; every variant uses the same bids and tricks"))
    t.add_column("")
    t.add_column(_("scoring"))
    for s, name in enumerate(sheet.names):
        t.add_column(Text(name, style=PLAYER_COLORS[s % len(PLAYER_COLORS)]), justify="right")
    for label, in_use, totals in sheet.scoring_comparison():
        best = max(totals)
        t.add_row("▶" if in_use else "", Text(variant_words(label), style="bold" if in_use else ""),
                  *[Text(format_number(x), style="bold green" if x == best and any(totals) else "") for x in totals])
    return t


class EditHandScreen(ModalScreen):
    """Correct the bids and tricks won of one hand; totals are recomputed."""

    BINDINGS = [Binding("escape", "dismiss(False)", N_("Cancel")), Binding("ctrl+s", "save", N_("Save"), priority=True)]

    def __init__(self, sheet: ScoreSheet, hand: int) -> None:
        super().__init__()
        word_bindings(self)
        self.sheet = sheet
        self.hand = hand

    def compose(self) -> ComposeResult:
        sheet, k = self.sheet, self.hand
        p = sheet.plan(k)
        bids, won = sheet.bids(k), sheet.tricks_won(k)
        with VerticalScroll(id="edit-box", classes="modal-box"):
            yield Static(Text(ngettext("Correct hand {n}: {size} card, {dealer} deals",
                                       "Correct hand {n}: {size} cards, {dealer} deals", p.hand_size).format(
                n=p.number, size=p.hand_size, dealer=sheet.names[p.dealer]), style="bold"))
            with Horizontal(classes="edit-row"):
                yield Label(_("player"), classes="edit-name")
                yield Label(_("bid"), classes="edit-head")
                yield Label(_("won"), classes="edit-head")
            for s in sheet.order(k):
                with Horizontal(classes="edit-row"):
                    yield Label(Text(sheet.names[s] + (" " + _("(D)") if s == p.dealer else ""),
                                     style=PLAYER_COLORS[s % len(PLAYER_COLORS)]), classes="edit-name")
                    yield Input("" if bids[s] is None else str(bids[s]), id=f"edit-bid-{s}",
                                classes="edit-field", disabled=bids[s] is None, compact=True)
                    yield Input("" if won[s] is None else str(won[s]), id=f"edit-won-{s}",
                                classes="edit-field", disabled=won[s] is None, compact=True)
            yield Static("", id="edit-error")
            with Horizontal(classes="modal-buttons"):
                yield Button(_("Save (ctrl+s)"), id="edit-save", variant="primary")
                yield Button(_("Cancel (Esc)"), id="edit-cancel")

    def on_mount(self) -> None:
        for w in self.query(Input):
            if not w.disabled:
                w.focus()
                break

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "edit-save":
            self.action_save()
        else:
            self.dismiss(False)

    def action_save(self) -> None:
        n = self.sheet.players
        bids = [self._value(f"#edit-bid-{s}") for s in range(n)]
        won = [self._value(f"#edit-won-{s}") for s in range(n)]
        try:
            self.sheet.correct_hand(self.hand, bids=bids, tricks_won=won)
        except EntryError as e:
            self.query_one("#edit-error", Static).update(Text(entry_words(e), style="bold red"))
            return
        self.dismiss(True)

    def _value(self, selector: str) -> "str | None":
        w = self.query_one(selector, Input)
        return None if w.disabled else w.value


class SheetOverScreen(Screen):
    """The final standings and the chart of the scores over the hands."""

    BINDINGS = [Binding("n", "new", N_("New sheet")), Binding("e", "back", N_("Back to the sheet")),
                Binding("q,escape", "quit", N_("Quit"))]

    def __init__(self, sheet: ScoreSheet, path: str) -> None:
        super().__init__()
        word_bindings(self)
        self.sheet = sheet
        self.path = path

    def compose(self) -> ComposeResult:
        sheet = self.sheet
        n = sheet.players
        series = [[0] + [t[s] for t in sheet.running_totals()] for s in range(n)]
        made = [sum(1 for k in range(sheet.hands_started) if sheet.scores(k) is not None
                    and sheet.bids(k)[s] == sheet.tricks_won(k)[s]) for s in range(n)]
        win = [sheet.names[s] for s in sheet.winners]
        headline = (_("{name} wins!").format(name=win[0]) if len(win) == 1 else
                    _("{names} share the win!").format(names=_(" and ").join(win)))
        yield Header()
        with VerticalScroll(id="over"):
            yield Static(Text(_("Game over") + " — " + headline, style="bold bright_green"), id="over-title")
            yield Static(standings_table(sheet.names, sheet.totals, made=made), id="standings")
            yield Static(Text(_("Scores over the hands"), style="bold"), classes="chart-title")
            yield ChartView(series, sheet.names, id="chart")
            yield Static(variants_table(sheet), id="variants")
            yield Static(Text(_("The sheet is saved in {path}.").format(path=shown_path(self.path)), style="dim"))
            with Horizontal(classes="modal-buttons"):
                yield Button(_("New sheet (n)"), id="new", variant="primary")
                yield Button(_("Back to the sheet (e)"), id="back")
                yield Button(_("Quit (q)"), id="quit")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        {"new": self.action_new, "back": self.action_back, "quit": self.action_quit}[str(event.button.id)]()

    def action_new(self) -> None:
        self.dismiss("new")

    def action_back(self) -> None:
        self.dismiss("back")

    def action_quit(self) -> None:
        self.app.exit()


class SheetScreen(Screen):
    """The scorekeeper's main screen: the hand's plan, the entry box, the tables."""

    BINDINGS = [
        Binding("f2", "edit", N_("Correct this hand"), priority=True),
        Binding("f3", "bids", N_("Bid table"), priority=True),
        Binding("f4", "undo", N_("Take back"), priority=True),
        Binding("f5", "variants", N_("Scoring variants"), priority=True),
        Binding("f1", "help", N_("Help"), priority=True),
        Binding("ctrl+q", "quit", N_("Quit"), priority=True),
    ]

    def __init__(self, sheet: ScoreSheet, path: "str | None") -> None:
        super().__init__()
        word_bindings(self)
        self.sheet = sheet
        self.path = path
        self.save_error: "str | None" = None
        self._over_shown = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static("", id="plan")
                yield Static("", id="bids")
                yield Static("", id="prompt")
                yield Input(id="entry", placeholder=_("a number, or ? for commands"))
                yield Horizontal(id="quick")
                yield Static("", id="message")
                yield Static("", id="leader")
            with Vertical(id="right"):
                with VerticalScroll(id="scores-box"):
                    yield Static("", id="scores")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = describe_rules(self.sheet.rules)
        self.refresh_sheet()
        self.query_one("#entry", Input).focus()
        if self.sheet.is_over:
            self.call_after_refresh(self._show_over)

    # --- drawing -------------------------------------------------------------------------------

    def refresh_sheet(self) -> None:
        """Redraw everything from the sheet."""
        sheet = self.sheet
        k = sheet.hand_index
        p = sheet.plan(k)
        plan = Text(plan_words(sheet, k), style="bold")
        tc = sheet.trump_card(k)
        if tc is not None:
            plan.append(" (" + _("turned: {card}").format(card=tc) + ")", style="bold")
        self.query_one("#plan", Static).update(plan)
        rows = sheet.bid_table(k)
        to = sheet.to_enter
        self.query_one("#bids", Static).update(
            bid_table(rows, to_act=[] if to is None else [to], hand_size=p.hand_size,
                      title=_("Hand {n}: bids and tricks").format(n=p.number), compact=self.query_one("#left").size.width < 44))
        self.query_one("#prompt", Static).update(self._prompt())
        narrow = self.query_one("#right").size.width < 14 + 9 * sheet.players
        self.query_one("#scores", Static).update(
            score_table(sheet.names, score_rows_from_sheet(sheet), compact=narrow,
                        highlight=None if sheet.is_over else p.number))
        leaders = sheet.leaders()
        totals = sheet.totals
        if sheet.finished_hands:
            who = _(" and ").join(sheet.names[s] for s in leaders)
            lead = Text((_("Winner: {names} with {total}") if sheet.is_over else
                         _("Leading: {names} with {total}")).format(names=who, total=format_number(totals[leaders[0]])),
                        style="bold")
        else:
            lead = Text(_("No hand scored yet."), style="dim")
        if self.save_error:
            lead = Text.assemble(lead, "\n", Text(self.save_error, style="bold red"))
        elif self.path:
            lead = Text.assemble(lead, "\n", Text(_("Saved in {path} after every entry.").format(path=shown_path(self.path)),
                                                   style="dim"))
        self.query_one("#leader", Static).update(lead)
        self.call_later(self._quick_buttons)

    def on_resize(self) -> None:
        self.call_later(self.refresh_sheet)

    def _prompt(self) -> Text:
        sheet = self.sheet
        if sheet.is_over:
            return Text(_("The game is over. Type e N to correct hand N, or q to quit."), style="bold")
        seat = sheet.to_enter
        p = sheet.plan()
        name = sheet.names[seat]
        if sheet.phase == "bid":
            t = Text(_("Bid of {name}").format(name=name), style="bold")
            t.append(" (" + _("0 to {n}").format(n=p.hand_size) + ")"
                     + (" — " + _("the dealer") if seat == p.dealer else ""))
            allowed = sheet.allowed_bids()
            if sheet.hook_note():
                x = next(b for b in range(p.hand_size + 1) if b not in allowed)
                t.append("\n" + _("{name} deals and, with the hook, may not bid {bid}: the bids would total {n}, "
                                  "the number of tricks").format(name=sheet.names[p.dealer], bid=x, n=p.hand_size),
                         style="yellow")
            elif len(allowed) == p.hand_size + 1 and seat == p.dealer and sheet.rules.hook:
                t.append("\n" + _("With these bids the hook forbids nothing."), style="dim")
            return t
        entered = [w for w in sheet.tricks_won() if w is not None]
        left = p.hand_size - sum(entered)
        t = Text(_("Tricks won by {name}").format(name=name), style="bold")
        t.append(" (" + _("0 to {n}; {left} of {n} not yet counted").format(n=p.hand_size, left=left) + ")")
        return t

    async def _quick_buttons(self) -> None:
        box = self.query_one("#quick", Horizontal)
        sheet = self.sheet
        if sheet.is_over:
            values: list[int] = []
        elif sheet.phase == "bid":
            values = list(sheet.allowed_bids())
        else:
            p = sheet.plan()
            left = p.hand_size - sum(w for w in sheet.tricks_won() if w is not None)
            values = list(range(left + 1))
        key = tuple(values)
        if getattr(box, "_values", None) == key:
            return
        box._values = key  # type: ignore[attr-defined]
        await box.remove_children()
        await box.mount_all([Button(str(v), id=f"quick-{v}", compact=True, classes="quick-button")
                             for v in values])

    def say(self, text: str, style: str = "bold red") -> None:
        """Show a message under the entry box."""
        self.query_one("#message", Static).update(Text(text, style=style))

    # --- saving --------------------------------------------------------------------------------

    def save(self) -> None:
        """Save the sheet (atomically); a failure is shown, never hidden."""
        if not self.path:
            return
        try:
            self.sheet.save(self.path)
            self.save_error = None
        except OSError as e:
            self.save_error = _("Could not save to {path}: {reason}. Your entries are kept "
                                "in memory; fix the problem or quit with another file.").format(
                path=self.path, reason=e.strerror or e)

    def changed(self, message: str = "", style: str = "green") -> None:
        """After any change: save, redraw, and show the end of the game when it comes."""
        self.save()
        self.refresh_sheet()
        if message:
            self.say(message, style)
        if self.sheet.is_over and not self._over_shown:
            self.call_after_refresh(self._show_over)

    # --- entering ------------------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "entry":
            return
        text = event.value.strip()
        event.input.value = ""
        self.submit(text)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = str(event.button.id)
        if bid.startswith("quick-"):
            self.submit(bid.split("-", 1)[1])
            self.query_one("#entry", Input).focus()

    def submit(self, text: str) -> None:
        """Handle one line typed in the entry box: a number or a command."""
        sheet = self.sheet
        if text.isdecimal() or (text and text[0].isdigit()):
            if sheet.is_over:
                self.say(_("The game is over: type e N to correct hand N."))
                return
            seat = sheet.to_enter
            finished_before = sheet.finished_hands
            try:
                kind = sheet.enter(text)
            except EntryError as e:
                self.say(entry_words(e))
                return
            msg = (_("{name} bids {n}.") if kind == "bid" else _("{name} won {n}.")).format(
                name=sheet.names[seat], n=int(text))
            if sheet.finished_hands > finished_before:
                done = sheet.finished_hands - 1
                scores = sheet.scores(done)
                msg += " " + _("Hand {n} scored:").format(n=done + 1) + " " + ", ".join(
                    f"{sheet.names[s]} {signed(scores[s])}" for s in range(sheet.players))
            self.changed(msg)
            return
        self.command(text)

    def command(self, text: str) -> None:
        """A typed command (see :data:`COMMANDS_HELP`)."""
        sheet = self.sheet
        words = text.split()
        if not words:
            p = sheet.plan()
            self.say(_("The game is over.") if sheet.is_over else
                     (_("Type a bid: a whole number from 0 to {n}.") if sheet.phase == "bid" else
                      _("Type a number of tricks: a whole number from 0 to {n}.")).format(n=p.hand_size))
            return
        cmd, rest = words[0].lower(), words[1:]
        if cmd in ("?", "h", "help"):
            self.action_help()
        elif cmd in ("u", "undo"):
            self.action_undo()
        elif cmd in ("q", "quit", "exit"):
            self.action_quit()
        elif cmd in ("e", "edit"):
            k = self._hand_arg(rest)
            if k is not None:
                self.edit(k)
        elif cmd in ("b", "bids"):
            k = self._hand_arg(rest)
            if k is not None:
                self.show_bids(k)
        elif cmd in ("t", "trump"):
            card = " ".join(rest)
            try:
                sheet.set_trump_card(None if card in ("", "-") else card)
            except EntryError as e:
                self.say(entry_words(e))
                return
            tc = sheet.trump_card()
            self.changed(_("Trump card noted: {card}.").format(card=tc) if tc is not None
                         else _("Trump card forgotten."))
        elif cmd in ("v", "variants"):
            self.action_variants()
        elif cmd == "dealer":
            if len(rest) != 1 or not 1 <= _number(rest[0]) <= sheet.players:
                self.say(_("Write: dealer N (N is the seat that dealt the first hand, 1 to {n}).").format(
                    n=sheet.players))
                return
            try:
                sheet.change_first_dealer(int(rest[0]) - 1)
            except EntryError as e:
                self.say(entry_words(e))
                return
            self.changed(_("{name} dealt the first hand; every dealer follows.").format(
                name=sheet.names[sheet.first_dealer]))
        elif cmd == "rule":
            names = {"hook": "hook", "missed": "missed_bid_scores_tricks", "zero": "zero_bid_scores_hand_size"}
            if len(rest) != 2 or rest[0].lower() not in names or rest[1].lower() not in ("on", "off"):
                self.say(_("Write: rule hook|missed|zero on|off."))
                return
            field = names[rest[0].lower()]
            before = sheet.totals
            try:
                sheet.change_rules(**{field: rest[1].lower() == "on"})
            except EntryError as e:
                self.say(entry_words(e))
                return
            self.sub_title = describe_rules(sheet.rules)
            diff = ", ".join(f"{sheet.names[s]} {before[s]}→{sheet.totals[s]}" for s in range(sheet.players)
                             if before[s] != sheet.totals[s])
            self.changed(_("Rules now: {rules}.").format(rules=describe_rules(sheet.rules))
                         + (" " + _("Totals: {changes}.").format(changes=diff) if diff else ""))
        elif cmd == "name":
            if len(rest) < 2 or _number(rest[0]) < 0:
                self.say(_("Write: name N NEWNAME (N is the seat, 1 to {n}).").format(n=sheet.players))
                return
            try:
                seat = _number(rest[0]) - 1
                old = sheet.names[seat] if 0 <= seat < sheet.players else None
                sheet.rename(seat, " ".join(rest[1:]))
            except EntryError as e:
                self.say(entry_words(e))
                return
            self.changed(_("{old} is now {new}.").format(old=old, new=sheet.names[seat]))
        else:
            if sheet.is_over:
                self.say(_("{text!r} is not a command. Type ? for the list.").format(text=text))
                return
            self.say((_("{text!r} is not a bid: type a whole number from 0 to {n} (or ? for the commands).")
                      if sheet.phase == "bid" else
                      _("{text!r} is not a number of tricks: type a whole number from 0 to {n} "
                        "(or ? for the commands).")).format(text=text, n=sheet.plan().hand_size))

    def _hand_arg(self, rest: Sequence[str]) -> "int | None":
        sheet = self.sheet
        if not rest:
            return sheet.hand_index
        if not 1 <= _number(rest[0]) <= sheet.hands_started:
            self.say(_("Give a hand number from 1 to {n}.").format(n=sheet.hands_started))
            return None
        return _number(rest[0]) - 1

    # --- commands ------------------------------------------------------------------------------

    def edit(self, hand: int) -> None:
        """Open the correction form for a hand."""
        sheet = self.sheet
        if all(b is None for b in sheet.bids(hand)):
            self.say(_("Nothing has been entered in hand {n} yet.").format(n=hand + 1), style="yellow")
            return
        before = sheet.totals

        def done(changed: object) -> None:
            if changed:
                after = sheet.totals
                diff = ", ".join(f"{sheet.names[s]} {before[s]}→{after[s]}" for s in range(sheet.players)
                                 if before[s] != after[s])
                self._over_shown = self._over_shown and sheet.is_over
                self.changed(_("Hand {n} corrected.").format(n=hand + 1)
                             + (" " + _("Totals: {changes}.").format(changes=diff) if diff else ""))
            self.query_one("#entry", Input).focus()

        self.app.push_screen(EditHandScreen(sheet, hand), done)

    def show_bids(self, hand: int) -> None:
        """Show one hand's bid table."""
        sheet = self.sheet
        p = sheet.plan(hand)
        body = Group(bid_table(sheet.bid_table(hand), hand_size=p.hand_size,
                               title=ngettext("Hand {n}: {size} card, {dealer} deals",
                                              "Hand {n}: {size} cards, {dealer} deals", p.hand_size).format(
                                   n=p.number, size=p.hand_size, dealer=sheet.names[p.dealer])),
                     Text(bid_summary_words(sheet, hand), style="italic"))
        self.app.push_screen(MessageScreen(body, button=_("Close (Enter)")))

    def action_edit(self) -> None:
        k = self.sheet.hand_index
        if all(b is None for b in self.sheet.bids(k)) and k > 0:
            k -= 1
        self.edit(k)

    def action_variants(self) -> None:
        """Show the totals under every scoring variant."""
        self.app.push_screen(MessageScreen(variants_table(self.sheet), button=_("Close (Enter)")))

    def action_bids(self) -> None:
        self.show_bids(self.sheet.hand_index)

    def action_undo(self) -> None:
        try:
            what = self.sheet.undo()
        except EntryError as e:
            self.say(entry_words(e), style="yellow")
            return
        self._over_shown = self._over_shown and self.sheet.is_over
        self.changed(_("Taken back: {what}.").format(what=undo_words(what)), style="yellow")

    def action_help(self) -> None:
        self.app.push_screen(MessageScreen(Text.from_markup(_(COMMANDS_HELP)), button=_("Close (Enter)"),
                                           box_id="help-box"))

    def action_quit(self) -> None:
        self.save()
        self.app.exit()

    def _show_over(self) -> None:
        if self._over_shown or not self.sheet.is_over:
            return
        self._over_shown = True
        self.app.push_screen(SheetOverScreen(self.sheet, self.path or _("(not saved)")), self._after_over)

    def _after_over(self, result: object) -> None:
        if result == "new":
            app = self.app
            if isinstance(app, ScoreApp):
                app.call_later(app.new_sheet)
        else:
            self.query_one("#entry", Input).focus()


SCORE_CSS = PLAY_CSS + """
#plan { height: auto; margin: 1 0; }
#prompt { height: auto; margin: 1 0 0 0; }
#entry { width: 40; }
#quick { height: auto; margin: 1 0 0 0; }
.quick-button { margin: 0 1 0 0; min-width: 4; }
#message { height: auto; min-height: 2; margin: 1 0; }
#leader { height: auto; }
.edit-row { height: 1; margin: 0 0 1 0; }
.edit-name { width: 20; }
.edit-head { width: 10; }
.edit-field { width: 8; margin: 0 2 0 0; }
#edit-error { height: auto; margin: 1 0 0 0; }
EditHandScreen { align: center middle; }
"""


class ScoreApp(App):
    """``ohhell score``: keep score for people playing with real cards."""

    TITLE = "Oh Hell scorekeeper"
    CSS = SCORE_CSS

    def __init__(self, path: "str | None", settings: Settings, *, sheet: "ScoreSheet | None" = None,
                 setup: bool = True) -> None:
        super().__init__()
        self.title = _("Oh Hell scorekeeper")
        self.path = path
        self.settings = settings
        self.sheet = sheet
        self.setup = setup
        self.screen_sheet: "SheetScreen | None" = None

    def on_mount(self) -> None:
        if self.sheet is not None:
            self.show_sheet(self.sheet)
        elif self.setup:
            self.push_setup()
        else:
            self.start(self.settings)

    def push_setup(self) -> None:
        """Ask for the players, the first dealer and the rules."""
        self.push_screen(SetupScreen(self.settings, bots=None, title=_("New score sheet"),
                                     dealer_required=True), self._after_setup)

    def _after_setup(self, result: object) -> None:
        if isinstance(result, Settings):
            self.settings = result
            self.start(result)

    def start(self, settings: Settings) -> None:
        """Start a new sheet (an existing file is moved aside first, never overwritten)."""
        try:
            sheet = ScoreSheet(settings.rules, settings.names, settings.dealer or 0)
        except (RulesError, OhHellError) as e:  # pragma: no cover - the setup screen checked
            self.notify(str(e), severity="error", markup=False)   # it may quote a name
            return
        if self.path and os.path.exists(self.path):
            os.replace(self.path, archive_path(self.path))
        self.sheet = sheet
        self.show_sheet(sheet)
        if self.screen_sheet:
            self.screen_sheet.save()

    def show_sheet(self, sheet: ScoreSheet) -> None:
        """Show the main screen for ``sheet``."""
        self.screen_sheet = SheetScreen(sheet, self.path)
        self.push_screen(self.screen_sheet)

    async def new_sheet(self) -> None:
        """A new sheet with the same players (the finished one is kept under another name)."""
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        if self.sheet is not None:
            self.settings = Settings(self.sheet.rules, list(self.sheet.names), [],
                                     (self.sheet.first_dealer + self.sheet.hand_count) % self.sheet.players)
        self.sheet = None
        self.push_setup()


def _number(text: str) -> int:
    """A typed seat or hand number: ASCII digits, at most six of them; else -1 (so a
    5,000-digit number, or a superscript digit, is refused like any other bad number)."""
    digits = text.lstrip("0") or "0"
    return int(digits) if text.isascii() and text.isdecimal() and len(digits) <= 6 else -1


def settings_for(rules, names: "Sequence[str] | None", dealer: "int | None") -> Settings:
    """Settings for the setup screen from the command line's flags."""
    n = rules.players
    names = list(names) if names else [seat_label(s) for s in range(n)]
    return Settings(rules, names, [None] * n, dealer if dealer is not None else 0)

