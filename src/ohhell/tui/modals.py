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
from ..view import View
from .render import card_text, describe_action

__all__ = ["HintScreen", "MessageScreen", "HELP_TEXT", "hint_body"]


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
            row: list[Any] = [label, f"{val:.2f}", Text(bar, style="green" if a == decision.action else "dim")]
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
