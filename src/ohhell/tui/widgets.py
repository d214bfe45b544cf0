"""Textual widgets shared by the play, replay and scorekeeper apps."""

from __future__ import annotations

from typing import Iterable, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Static

from ..cards import SUIT_SYMBOLS
from ..i18n import _
from ..text import suit_name
from .chart import line_chart
from .render import SUIT_STYLE, card_text, hand_by_suit

__all__ = ["CardWidget", "HandPanel", "BidBar", "ChartView", "word_bindings"]


def word_bindings(node: Widget) -> None:
    """Word the descriptions of ``node``'s key bindings (the footer's labels, marked with
    ``N_`` in ``BINDINGS``) in the current language.

    ``BINDINGS`` is read when the class is made, before any language is chosen, so the
    words are put in per instance (this reads Textual's per-node bindings map).
    """
    import dataclasses
    bindings = node._bindings.key_to_bindings
    for key, found in bindings.items():
        bindings[key] = [dataclasses.replace(b, description=_(b.description)) if b.description else b
                         for b in found]


class CardWidget(Static, can_focus=True):
    """One card of the hand: click it, or focus it and press Enter, to play it."""

    BINDINGS = [
        Binding("enter,space", "choose", "Play", show=False),
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        Binding("up", "row(-1)", show=False),
        Binding("down", "row(1)", show=False),
    ]

    class Chosen(Message):
        """The player chose this card (it may still be illegal: the game decides)."""

        def __init__(self, card: int) -> None:
            super().__init__()
            self.card = card

    def __init__(self, card: int, legal: bool) -> None:
        super().__init__(card_text(card), id=f"card-{_card_id(card)}",
                         classes="card " + ("legal" if legal else "illegal"))
        self.card = card

    def on_click(self) -> None:
        self.post_message(self.Chosen(self.card))

    def action_choose(self) -> None:
        self.post_message(self.Chosen(self.card))

    def action_move(self, step: int) -> None:
        cards = list(self.screen.query(CardWidget))
        i = cards.index(self)
        cards[(i + step) % len(cards)].focus()

    def action_row(self, step: int) -> None:
        rows = [list(r.query(CardWidget)) for r in self.screen.query(".suit-row")]
        rows = [r for r in rows if r]
        for i, r in enumerate(rows):
            if self in r:
                target = rows[(i + step) % len(rows)]
                target[min(r.index(self), len(target) - 1)].focus()
                return


def _card_id(card: int) -> str:
    from ..cards import CARDS
    return str(CARDS[card])


LABEL_WIDTH = 12   # .suit-label in the apps' CSS
CARD_WIDTH = 5     # .card: 4 wide and a margin of 1


class HandPanel(Vertical):
    """The player's hand, one row per suit (trump first), playable cards marked.

    A suit longer than the panel is wide goes on as many rows as it needs, so no card is
    ever cut off in a narrow terminal; the rows are laid out again when the panel is resized.
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._mask = -1
        self._trump: "int | None" = None
        self._legal: frozenset[int] = frozenset()
        self._per_row = 13

    def _fit(self) -> int:
        """How many cards fit on one row at the panel's present width."""
        width = self.content_region.width or self.size.width
        return 13 if width <= 0 else max(1, (width - LABEL_WIDTH) // CARD_WIDTH)

    def compose(self) -> ComposeResult:
        if self._mask <= 0:
            yield Static(Text(_("(no cards)"), style="dim"), classes="suit-label")
            return
        per = self._per_row
        for suit, cards in hand_by_suit(self._mask, self._trump):
            label = Text(SUIT_SYMBOLS[suit] + " ", style=SUIT_STYLE[suit])
            if suit == self._trump:
                label.append(_("trump"), style="bold")
            else:
                label.append(suit_name(suit), style="dim")
            for start in range(0, len(cards), per):
                with Horizontal(classes="suit-row"):
                    yield Static(label if start == 0 else "", classes="suit-label")
                    for c in cards[start:start + per]:
                        yield CardWidget(c, c in self._legal)

    async def on_resize(self) -> None:
        per = self._fit()
        if per != self._per_row:
            self._per_row = per
            if self._mask > 0:
                await self._rebuild()

    async def _rebuild(self) -> None:
        focused = next((w.card for w in self.query(CardWidget) if w.has_focus), None)
        await self.recompose()
        if focused is not None:
            for w in self.query(CardWidget):
                if w.card == focused:
                    w.focus()

    async def show(self, mask: int, trump: "int | None", legal: Iterable[int]) -> None:
        """Show this hand; rebuilds only when the cards change, else re-marks them."""
        legal = frozenset(legal)
        if mask == self._mask and trump == self._trump:
            if legal != self._legal:
                self._legal = legal
                for w in self.query(CardWidget):
                    w.set_class(w.card in legal, "legal")
                    w.set_class(w.card not in legal, "illegal")
            return
        had_focus = any(w.has_focus for w in self.query(CardWidget))
        self._mask, self._trump, self._legal = mask, trump, legal
        self._per_row = self._fit()
        await self.recompose()
        if had_focus:
            self.focus_first_legal()

    def focus_first_legal(self) -> None:
        """Put the keyboard focus on the first playable card."""
        for w in self.query(CardWidget):
            if w.card in self._legal:
                w.focus()
                return


class BidBar(Vertical):
    """A button per possible bid (eight to a row); the one the hook forbids is disabled, with why."""

    class Chosen(Message):
        """The player chose a bid."""

        def __init__(self, bid: int) -> None:
            super().__init__()
            self.bid = bid

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._key: tuple = ()
        self._bid_size = 0
        self._allowed: frozenset[int] = frozenset()
        self._note = ""

    def compose(self) -> ComposeResult:
        with Grid(classes="bid-grid"):
            for b in range(self._bid_size + 1):
                yield Button(str(b), id=f"bid-{b}", compact=True, disabled=b not in self._allowed,
                             classes="bid-button", variant="primary" if b in self._allowed else "default")
        if self._note:
            yield Static(Text(self._note, style="italic yellow"), classes="bid-note")

    async def show(self, size: int, allowed: Sequence[int], note: str = "") -> None:
        """Offer bids 0..``size``, of which ``allowed`` are legal."""
        key = (size, tuple(allowed), note)
        if key == self._key:
            return
        self._key = key
        self._bid_size, self._allowed, self._note = size, frozenset(allowed), note
        await self.recompose()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        bid = int(str(event.button.id).split("-")[1])
        self.post_message(self.Chosen(bid))


class ChartView(Widget):
    """The scores over the hands as a line chart that fills the widget."""

    DEFAULT_CSS = """
    ChartView { height: 16; }
    """

    def __init__(self, series: Sequence[Sequence[float]], names: Sequence[str], **kwargs) -> None:
        super().__init__(**kwargs)
        self.series = [list(s) for s in series]
        self.names = list(names)

    def set_data(self, series: Sequence[Sequence[float]], names: Sequence[str]) -> None:
        """Replace the data and redraw."""
        self.series = [list(s) for s in series]
        self.names = list(names)
        self.refresh()

    def render(self) -> Text:
        w, h = self.content_size
        return line_chart(self.series, self.names, width=max(20, w), height=max(3, h - 3))
