"""The setup screen: players, names, bots and every rules variant (presets and single options)."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Header, Input, Label, Select, Static

from ..errors import RulesError
from ..rules import MAX_HAND_SIZE, PRESETS, SCHEDULES, Rules
from ..i18n import N_, _, ngettext
from ..text import describe_rules, rules_words, seat_label
from .widgets import word_bindings

__all__ = ["Settings", "SetupScreen", "DEFAULT_NAMES", "FLAG_LABELS"]

DEFAULT_NAMES = ("You", "Ada", "Bo", "Cy", "Di", "Ed", "Flo")

#: the yes/no options of the rules, in the order shown, with their labels
FLAG_LABELS = {
    "hook": N_("Hook: the dealer may not make the bids total the tricks"),
    "simultaneous_bidding": N_("Simultaneous bidding: bids hidden until all are in"),
    "must_trump": N_("Must trump: a player who cannot follow must trump (La Podrida)"),
    "missed_bid_scores_tricks": N_("A missed bid scores 1 per trick won"),
    "zero_bid_scores_hand_size": N_("A made bid of 0 scores 5 + the hand size"),
}


def schedule_label(schedule: str) -> str:
    """A schedule's name as the setup screen shows it."""
    return {"up": _("up"), "down": _("down"), "up-down": _("up-down"), "down-up": _("down-up"),
            "custom": _("custom")}.get(schedule, schedule)


@dataclass
class Settings:
    """What the setup screen produces (and is prefilled from).

    ``seats[s]`` is ``None`` for a person and a bot name for a bot (play
    only); ``dealer`` ``None`` means drawn at random.
    """

    rules: Rules
    names: list[str]
    seats: list["str | None"] = field(default_factory=list)
    dealer: "int | None" = None


class SetupScreen(Screen):
    """Choose the number of players (3-7), names, each seat's bot, the first
    dealer and every variant; returns :class:`Settings` when started."""

    BINDINGS = [Binding("ctrl+s", "start", N_("Start"), priority=True), Binding("escape", "cancel", N_("Quit"))]

    def __init__(self, settings: Settings, *, bots: "list[str] | None" = None, title: "str | None" = None,
                 dealer_required: bool = False, resume_label: "str | None" = None) -> None:
        super().__init__()
        word_bindings(self)
        self.settings = settings
        self.bots = bots  # None: no bots (the scorekeeper)
        self.title_text = title if title is not None else _("New game")
        self.dealer_required = dealer_required
        self.resume_label = resume_label
        self._filling = False

    # --- layout --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        s = self.settings
        r = s.rules
        yield Header()
        with VerticalScroll(id="setup"):
            yield Static(Text.assemble((self.title_text, "bold"),
                                       ("   " + _("ctrl+s starts, Esc quits; Tab moves between fields"), "dim")),
                         id="setup-title")
            if self.resume_label:
                yield Button(self.resume_label, id="resume", variant="success")
            with Horizontal(classes="setup-row"):
                yield Label(_("Players"), classes="setup-label")
                yield Select([(str(k), k) for k in range(3, 8)], value=r.players, allow_blank=False, compact=True,
                             id="players", classes="setup-field")
            for seat in range(7):
                with Horizontal(classes="setup-row seat-row", id=f"seat-row-{seat}"):
                    label = (_("Your name") if self.bots is not None and seat == 0 else seat_label(seat))
                    yield Label(label, classes="setup-label")
                    name = s.names[seat] if seat < len(s.names) else DEFAULT_NAMES[seat]
                    yield Input(name, id=f"name-{seat}", classes="setup-name", max_length=24, compact=True)
                    if self.bots is not None and seat > 0:
                        bot = s.seats[seat] if seat < len(s.seats) and s.seats[seat] else self.bots[0]
                        yield Select([(b, b) for b in self.bots], value=bot if bot in self.bots else self.bots[0],
                                     allow_blank=False, compact=True, id=f"bot-{seat}", classes="setup-bot")
            with Horizontal(classes="setup-row"):
                yield Label(_("First dealer"), classes="setup-label")
                yield Select(self._dealer_options(r.players), value=self._dealer_value(),
                             allow_blank=False, compact=True, id="dealer", classes="setup-field")
            with Horizontal(classes="setup-row"):
                yield Label(_("Preset"), classes="setup-label")
                preset = r.preset_name()
                yield Select([(_("(custom)"), "")] + [(p, p) for p in PRESETS], value=preset or "",
                             allow_blank=False, compact=True, id="preset", classes="setup-field")
            with Horizontal(classes="setup-row"):
                yield Label(_("Schedule"), classes="setup-label")
                yield Select([(schedule_label(x), x) for x in SCHEDULES], value=r.schedule, allow_blank=False, compact=True,
                             id="schedule", classes="setup-field")
                yield Input(",".join(map(str, r.hand_sizes)), id="hand-sizes", classes="setup-sizes",
                            placeholder=_("e.g. 1,2,3"), disabled=r.schedule != "custom", compact=True)
            with Horizontal(classes="setup-row"):
                yield Label(_("No trump"), classes="setup-label")
                yield Select([(_("last hand"), "last"), (_("largest hands"), "largest"), (_("never"), "never")],
                             value=r.no_trump, allow_blank=False, compact=True, id="no-trump", classes="setup-field")
            for flag, text in FLAG_LABELS.items():
                yield Checkbox(_(text), getattr(r, flag), id=f"flag-{flag}", compact=True, classes="setup-flag")
            yield Static("", id="setup-summary")
            yield Static("", id="setup-error")
            with Horizontal(classes="setup-row"):
                yield Button(_("Start"), id="start", variant="primary")
                yield Button(_("Quit"), id="quit")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = self.title_text
        self._show_seats(self.settings.rules.players)
        self._update_summary()
        self.query_one("#start", Button).focus()

    def _dealer_options(self, n: int) -> list[tuple[str, int]]:
        opts = [] if self.dealer_required else [(_("drawn at random"), -1)]
        return opts + [(seat_label(k), k) for k in range(n)]

    def _dealer_value(self) -> int:
        d = self.settings.dealer
        if d is None:
            return 0 if self.dealer_required else -1
        return d

    def _show_seats(self, n: int) -> None:
        for seat in range(7):
            self.query_one(f"#seat-row-{seat}").display = seat < n

    # --- reacting ------------------------------------------------------------------------------

    def on_select_changed(self, event: Select.Changed) -> None:
        if self._filling:
            return
        sid = event.select.id
        if sid == "players":
            n = int(event.value)
            self._show_seats(n)
            dealer = self.query_one("#dealer", Select)
            old = dealer.value
            dealer.set_options(self._dealer_options(n))
            dealer.value = old if isinstance(old, int) and old < n else (0 if self.dealer_required else -1)
            sched = self.query_one("#schedule", Select).value
            if sched != "custom":
                self.query_one("#hand-sizes", Input).value = ",".join(
                    map(str, Rules(n, schedule=str(sched)).hand_sizes))
        elif sid == "preset" and event.value:
            self._apply_preset(str(event.value))
        elif sid == "schedule":
            custom = event.value == "custom"
            sizes = self.query_one("#hand-sizes", Input)
            sizes.disabled = not custom
            if not custom:
                n = int(self.query_one("#players", Select).value)  # type: ignore[arg-type]
                sizes.value = ",".join(map(str, Rules(n, schedule=str(event.value)).hand_sizes))
        if sid != "preset":
            self._mark_preset()
        self._update_summary()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        if not self._filling:
            self._mark_preset()
            self._update_summary()

    def on_input_changed(self, event: Input.Changed) -> None:
        if not self._filling and event.input.id == "hand-sizes":
            self._update_summary()

    def _apply_preset(self, name: str) -> None:
        n = int(self.query_one("#players", Select).value)  # type: ignore[arg-type]
        try:
            r = Rules.preset(name, players=n)
        except RulesError as e:
            self._error(rules_words(e))
            return
        self._filling = True
        try:
            self.query_one("#schedule", Select).value = r.schedule
            sizes = self.query_one("#hand-sizes", Input)
            sizes.value = ",".join(map(str, r.hand_sizes))
            sizes.disabled = r.schedule != "custom"
            self.query_one("#no-trump", Select).value = r.no_trump
            for flag in FLAG_LABELS:
                self.query_one(f"#flag-{flag}", Checkbox).value = getattr(r, flag)
        finally:
            self.call_after_refresh(self._end_filling)

    def _end_filling(self) -> None:
        self._filling = False
        self._update_summary()

    def _mark_preset(self) -> None:
        try:
            rules = self._rules()
        except (RulesError, ValueError):
            return
        preset = self.query_one("#preset", Select)
        want = rules.preset_name() or ""
        if preset.value != want:
            self._filling = True
            preset.value = want
            self.call_after_refresh(self._end_filling)

    def _update_summary(self) -> None:
        try:
            rules = self._rules()
        except (RulesError, ValueError) as e:
            self._error(rules_words(e))
            self.query_one("#setup-summary", Static).update("")
            return
        self._error("")
        self.query_one("#setup-summary", Static).update(
            Text(describe_rules(rules) + " — " + ngettext("{n} hand", "{n} hands", rules.hand_count).format(
                n=rules.hand_count), style="italic"))

    def _error(self, text: str) -> None:
        self.query_one("#setup-error", Static).update(Text(text, style="bold red"))

    # --- reading the form ----------------------------------------------------------------------

    def _rules(self) -> Rules:
        n = int(self.query_one("#players", Select).value)  # type: ignore[arg-type]
        schedule = str(self.query_one("#schedule", Select).value)
        fields: dict = {"players": n, "schedule": schedule,
                        "no_trump": str(self.query_one("#no-trump", Select).value)}
        if schedule == "custom":
            text = self.query_one("#hand-sizes", Input).value
            try:
                sizes = [int(x) for x in text.replace(" ", "").split(",") if x]
            except ValueError:
                raise RulesError(_("hand sizes must be whole numbers separated by commas, not {text!r}").format(
                    text=text)) from None
            if not sizes:
                most = MAX_HAND_SIZE[n] if n * MAX_HAND_SIZE[n] <= 52 else 52 // n
                raise RulesError(_("give the custom hand sizes, e.g. 1,2,3 (at most {n} cards each)").format(n=most))
            fields["hand_sizes"] = sizes
        for flag in FLAG_LABELS:
            fields[flag] = self.query_one(f"#flag-{flag}", Checkbox).value
        return Rules(**fields)

    def result(self) -> Settings:
        """The settings the form describes.

        :raises RulesError: when they make no sense (the message says why).
        """
        rules = self._rules()
        n = rules.players
        names = [self.query_one(f"#name-{s}", Input).value.strip() for s in range(n)]
        for s, x in enumerate(names):
            if not x:
                raise RulesError(_("seat {n} has no name").format(n=s + 1))
        folded = [x.casefold() for x in names]
        for s, x in enumerate(folded):
            if folded.index(x) != s:
                raise RulesError(_("two players are called {name!r}: give everyone a different name").format(
                    name=names[s]))
        seats: list[str | None] = [None] * n
        if self.bots is not None:
            for s in range(1, n):
                seats[s] = str(self.query_one(f"#bot-{s}", Select).value)
        d = int(self.query_one("#dealer", Select).value)  # type: ignore[arg-type]
        return Settings(rules, names, seats, None if d < 0 else d)

    # --- buttons -------------------------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id
        if bid == "start":
            self.action_start()
        elif bid == "quit":
            self.app.exit()
        elif bid == "resume":
            self.dismiss("resume")

    def action_start(self) -> None:
        """Check the form and start."""
        try:
            settings = self.result()
        except (RulesError, ValueError) as e:
            self._error(rules_words(e))
            return
        self.dismiss(settings)

    def action_cancel(self) -> None:
        self.app.exit()


SETUP_CSS = """
#setup { padding: 0 2; }
#setup-title { margin: 1 0; }
.setup-row { height: auto; margin: 0 0 1 0; }
.setup-label { width: 21; }
.setup-field { width: 30; }
.setup-name { width: 26; margin: 0 2 0 0; }
.setup-bot { width: 24; }
.setup-sizes { width: 30; margin: 0 0 0 2; }
.setup-flag { margin: 0 0 0 0; }
#setup-summary { margin: 1 0 0 0; }
#setup-error { height: auto; margin: 0 0 1 0; }
#resume { margin: 0 0 1 0; }
"""
