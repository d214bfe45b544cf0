"""The play screen's boxes: a hint (with the bot's numbers), a message (hand results, help)."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..actions import Bid, Play
from ..i18n import N_, _, format_number
from ..view import View
from .render import card_text, describe_action
from .widgets import word_bindings

__all__ = ["HintScreen", "MessageScreen", "HELP_TEXT", "hint_body"]


class HintScreen(ModalScreen):
    """What the expert would do, and its numbers; Enter follows the hint."""

    BINDINGS = [Binding("escape,h", "dismiss(None)", N_("Close")), Binding("enter", "follow", N_("Follow the hint"))]

    def __init__(self, body: Any, action: Any) -> None:
        super().__init__()
        word_bindings(self)
        self.body = body
        self.action_value = action

    def compose(self) -> ComposeResult:
        with Vertical(id="hint-box", classes="modal-box"):
            yield Static(self.body, id="hint-body")
            with Horizontal(classes="modal-buttons"):
                yield Button(_("Follow (Enter)"), id="follow", variant="primary")
                yield Button(_("Close (Esc)"), id="close")

    def action_follow(self) -> None:
        self.dismiss(self.action_value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(self.action_value if event.button.id == "follow" else None)


class MessageScreen(ModalScreen):
    """A box of text closed with Enter or Escape (hand results, help)."""

    BINDINGS = [Binding("escape,enter,space", "dismiss(None)", N_("Continue"))]

    def __init__(self, body: Any, button: "str | None" = None, box_id: str = "message-box") -> None:
        super().__init__()
        word_bindings(self)
        self.body = body
        self.button = _("Continue (Enter)") if button is None else button
        self.box_id = box_id

    def compose(self) -> ComposeResult:
        with VerticalScroll(id=self.box_id, classes="modal-box"):
            yield Static(self.body, classes="message-body")
            yield Button(self.button, id="continue", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#continue", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)


#: the keys of ``ohhell play`` (Rich markup; worded where it is shown: ``_(HELP_TEXT)``)
HELP_TEXT = N_("""[b]Keys[/b]

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
over or under; the score table below it shows every hand so far.""")


def hint_body(name: str, view: View, decision) -> Group:
    """The hint: the suggested action, the value of every choice, the trick probabilities."""
    head = Text(_("The {bot} bot suggests:").format(bot=name) + " ", style="bold")
    head.append(describe_action(decision.action), style="bold bright_green")
    parts: list[Any] = [head]
    if decision.note:
        parts.append(Text(decision.note, style="italic"))
    values = decision.values or {}
    stats = getattr(decision, "stats", None) or {}
    visits = stats.get("visits") if isinstance(stats.get("visits"), dict) else None
    if values:
        parts.append(Text("\n" + (_("Expected score of each choice") if isinstance(decision.action, Bid)
                                  else _("Estimated value of each card")), style="bold"))
        t = Table(pad_edge=False, box=None)
        t.add_column(_("choice"))
        t.add_column(_("value"), justify="right")
        t.add_column("")
        if visits:
            t.add_column(_("searched"), justify="right")
        best = max(values.values())
        worst = min(values.values())
        span = (best - worst) or 1.0
        for a, val in sorted(values.items(), key=lambda kv: -kv[1]):
            bar = "█" * max(1, round(12 * (val - worst) / span)) if best != worst else ""
            label = Text(describe_action(a)) if not isinstance(a, Play) else card_text(a.card)
            row: list[Any] = [label, format_number(val, 2), Text(bar, style="green" if a == decision.action else "dim")]
            if visits:
                row.append(str(visits.get(a, "")))
            t.add_row(*row)
        parts.append(t)
    if decision.trick_probs:
        probs = list(decision.trick_probs)
        while len(probs) > 1 and probs[-1] < 0.005:
            probs.pop()
        parts.append(Text("\n" + _("Chance of winning exactly k tricks"), style="bold"))
        t = Table(pad_edge=False, box=None)
        t.add_column("k", justify="right")
        t.add_column(_("chance"), justify="right")
        t.add_column("")
        for k, p in enumerate(probs):
            t.add_row(str(k), percent(p), Text("█" * round(20 * p), style="cyan"))
        if len(probs) < len(decision.trick_probs):
            t.add_row(f"{len(probs)}+", percent(0), "")
        parts.append(t)
    plain = {k: v for k, v in stats.items() if isinstance(v, (int, float, str)) and not isinstance(v, bool)}
    if plain:
        parts.append(Text(", ".join(f"{k}: {v:g}" if isinstance(v, float) else f"{k}: {v}"
                                    for k, v in plain.items()), style="dim"))
    parts.append(Text(_("Enter follows the hint; Esc closes it."), style="dim"))
    return Group(*parts)


def percent(p: float) -> str:
    """A chance as a whole percentage, as the current language writes it (``42%``)."""
    return _("{percent}%").format(percent=format_number(100 * p))
