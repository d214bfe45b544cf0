"""Rich renderings shared by the terminal apps (no Textual here, so they are easy to test).

Everything is drawn from what its viewer may know: a seat's
:class:`~ohhell.view.View`, a finished record, or a
:class:`~ohhell.scoresheet.ScoreSheet`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from rich import box
from rich.table import Table
from rich.text import Text

from ..actions import Bid, Play
from ..cards import CARDS, RANKS, SUIT_SYMBOLS, mask_to_cards
from ..i18n import _, format_number, ngettext
from ..scoring import standings
from ..text import explain_illegal as text_explain_illegal
from ..text import status_words, suit_name
from ..view import View

__all__ = ["SUIT_STYLE", "card_text", "suit_text", "suit_order", "hand_by_suit", "trump_text",
           "bid_table", "live_bid_rows", "score_table", "ScoreRow", "score_rows_from_view", "score_rows_from_sheet",
           "explain_illegal", "trick_table", "describe_action", "cards_line", "standings", "standings_table", "rank_text", "PLAYER_COLORS",
           "format_number", "signed"]

#: the style of each suit's symbol and cards: red hearts and diamonds
SUIT_STYLE = ("bold bright_white", "bold bright_red", "bold bright_red", "bold bright_white")
#: a color per seat, for the chart and the legends
PLAYER_COLORS = ("bright_cyan", "bright_yellow", "bright_magenta", "bright_green", "orange1",
                 "deep_sky_blue1", "bright_red")


def signed(value: int) -> str:
    """A score with its sign (``+12``, ``-3``, ``+0``), in the current language's digits."""
    return ("+" if value >= 0 else "-") + format_number(abs(value))


def rank_text(card: int) -> str:
    """A card's rank as people write it (``10`` rather than ``T``)."""
    r = RANKS[card % 13]
    return "10" if r == "T" else r


def card_text(card: int, *, style: str = "") -> Text:
    """A card as coloured text: ``Q♠``, ``10♥``."""
    return Text(rank_text(card) + SUIT_SYMBOLS[card // 13], style=(style + " " + SUIT_STYLE[card // 13]).strip())


def suit_text(suit: int, *, name: bool = False) -> Text:
    """A suit's symbol (and name) in its colour."""
    return Text(SUIT_SYMBOLS[suit] + (" " + suit_name(suit) if name else ""), style=SUIT_STYLE[suit])


def suit_order(trump: "int | None") -> list[int]:
    """The order suits are shown in: colours alternate, trump first when there is one."""
    base = [3, 2, 0, 1]  # spades, hearts, clubs, diamonds: black, red, black, red
    if trump is None:
        return base
    i = base.index(trump)
    return base[i:] + base[:i]


def hand_by_suit(mask: int, trump: "int | None") -> list[tuple[int, list[int]]]:
    """A hand grouped by suit (in :func:`suit_order`), each suit high card first."""
    cards = mask_to_cards(mask)
    out = []
    for s in suit_order(trump):
        cs = sorted((c for c in cards if c // 13 == s), reverse=True)
        if cs:
            out.append((s, [int(c) for c in cs]))
    return out


def trump_text(trump_card: "int | None", reason: str = "") -> Text:
    """``Trump: 7♥ (hearts)`` or ``No trump``."""
    if trump_card is None:
        return Text(_("No trump") + (f" ({reason})" if reason else ""), style="bold")
    t = Text(_("Trump") + " ", style="bold")
    t.append_text(card_text(trump_card))
    t.append(f" ({suit_name(trump_card // 13)})", style=SUIT_STYLE[trump_card // 13])
    return t


def bid_table(rows: Sequence[dict], *, to_act: Iterable[int] = (), hand_size: "int | None" = None,
              title: "str | None" = None, compact: bool = False) -> Table:
    """The bid table: who bid what, who has won how many, who is over or under.

    ``rows`` are :meth:`ohhell.View.bid_table` (or
    :meth:`~ohhell.scoresheet.ScoreSheet.bid_table`) rows; ``compact`` leaves
    out the totals (the score table has them), for a narrow pane.
    """
    acting = set(to_act)
    t = Table(title=Text(_("Bids") if title is None else title), title_style="bold", expand=True,
              pad_edge=False, box=box.SIMPLE_HEAD)
    t.add_column("", width=1, no_wrap=True)
    t.add_column(_("player"), ratio=1, no_wrap=True, overflow="ellipsis", min_width=6)
    t.add_column(_("bid"), justify="right", no_wrap=True, min_width=3)
    t.add_column(_("won"), justify="right", no_wrap=True, min_width=3)
    t.add_column("", no_wrap=True, min_width=7, overflow="ellipsis")
    if not compact:
        t.add_column(_("total"), justify="right", no_wrap=True, min_width=5)
    bid_sum = 0
    for r in rows:
        s = r["seat"]
        b = r["bid"]
        if b is not None:
            bid_sum += b
        status = r["status"]
        style = ("green" if status in ("made", "on bid") else "red" if status.startswith(("over", "under"))
                 else "yellow" if status.startswith("needs") else "dim")
        name = Text(r["name"], style=PLAYER_COLORS[s % len(PLAYER_COLORS)])
        if r["dealer"]:
            name.append(" " + _("(D)"), style="dim")
        won = r["won"]
        cells = [Text("▶", style="bold bright_green") if s in acting else "", name,
                 "-" if b is None else str(b), "" if won is None else str(won), Text(status_words(status), style=style)]
        if not compact:
            cells.append(format_number(r["total"]))
        t.add_row(*cells)
    if hand_size is not None:
        diff = bid_sum - hand_size
        rel = _("even") if diff == 0 else (_("{n} under").format(n=-diff) if diff < 0 else
                                            _("{n} over").format(n=diff))
        t.caption = ngettext("bids total {total} for {n} trick ({rel})", "bids total {total} for {n} tricks ({rel})",
                             hand_size).format(total=bid_sum, n=hand_size, rel=rel)
    return t


def live_bid_rows(v: View) -> list[dict]:
    """:meth:`ohhell.View.bid_table` rows, without the trick counts while bids are made."""
    rows = v.bid_table()
    if v.phase == "bid":
        for r in rows:
            r["won"] = None
    return rows


@dataclass(frozen=True)
class ScoreRow:
    """One hand of a score table (``scores`` is ``None`` while it is being played)."""

    number: int
    cards: int
    trump: "int | None"
    dealer: int
    bids: tuple
    won: tuple
    scores: "tuple[int, ...] | None"


def score_rows_from_view(view: View) -> list[ScoreRow]:
    """The score table's rows from what a seat sees (finished hands and the current one)."""
    rows = [ScoreRow(h.index + 1, h.hand_size, None if h.trump_card is None else int(h.trump_card),
                     h.dealer, tuple(h.bids), tuple(h.tricks_won), tuple(h.scores)) for h in view.past_hands]
    if not view.is_over:
        rows.append(ScoreRow(view.hand_index + 1, view.hand_size,
                             None if view.trump_card is None else int(view.trump_card), view.dealer,
                             tuple(view.bids), tuple(view.tricks_won) if view.phase == "play" else
                             (None,) * view.players, None))
    return rows


def score_rows_from_sheet(sheet) -> list[ScoreRow]:
    """The score table's rows from a score sheet (every hand begun)."""
    rows = []
    for k in range(sheet.hands_started):
        p = sheet.plan(k)
        tc = sheet.trump_card(k)
        rows.append(ScoreRow(k + 1, p.hand_size, None if tc is None else int(tc), p.dealer,
                             sheet.bids(k), sheet.tricks_won(k), sheet.scores(k)))
    return rows


def score_table(names: Sequence[str], rows: Sequence[ScoreRow], *, highlight: "int | None" = None,
                title: "str | None" = None, show_trump: bool = True, compact: bool = False) -> Table:
    """The score table by hand: each cell ``bid/won`` (green when made) and the running total.

    ``compact`` uses short headings and no padding, for a narrow pane.
    """
    n = len(names)
    t = Table(title=Text(_("Scores") if title is None else title), title_style="bold", expand=True,
              pad_edge=False, box=box.SIMPLE_HEAD,
              collapse_padding=True, padding=(0, 1) if not compact else (0, 0))
    t.add_column("#", justify="right", no_wrap=True)
    t.add_column("n" if compact else _("cards"), justify="right", no_wrap=True)
    if show_trump:
        t.add_column("" if compact else _("trump"), no_wrap=True, justify="center")
    for s, name in enumerate(names):
        t.add_column(Text(name, style=PLAYER_COLORS[s % len(PLAYER_COLORS)]), justify="right",
                     no_wrap=True, overflow="ellipsis", ratio=1, min_width=7 if compact else 6)
    totals = [0] * n
    for r in rows:
        cells: list = [str(r.number), str(r.cards)]
        if show_trump:
            cells.append(suit_text(r.trump // 13) if r.trump is not None else Text("–", style="dim"))
        for s in range(n):
            b, w = r.bids[s], r.won[s]
            if r.scores is None:
                cell = Text(f"{'-' if b is None else b}/{'' if w is None else w}", style="dim")
            else:
                totals[s] += r.scores[s]
                made = b == w
                cell = Text(f"{b}/{w}" + ("" if compact else " "), style="green" if made else "red")
                total = format_number(totals[s])
                cell.append(f"{total:>3}" if not compact else f" {total}", style="bold")
            cells.append(cell)
        t.add_row(*cells, style="on grey23" if highlight == r.number else "")
    t.caption = _("bid/won (green: made) and the running total")
    return t


def standings_table(names: Sequence[str], totals: Sequence[int], *, made: "Sequence[int] | None" = None,
                    title: "str | None" = None) -> Table:
    """The standings: place, player, total (and bids made, when given)."""
    t = Table(title=Text(_("Final standings") if title is None else title), title_style="bold",
              pad_edge=False, box=box.SIMPLE_HEAD)
    t.add_column(_("place"), justify="right")
    t.add_column(_("player"))
    t.add_column(_("total"), justify="right")
    if made is not None:
        t.add_column(_("bids made"), justify="right")
    for place, s, total in standings(totals):
        name = Text(names[s], style=PLAYER_COLORS[s % len(PLAYER_COLORS)])
        if place == 1:
            alone = sum(1 for p, _s, _t in standings(totals) if p == 1) == 1
            name.append("  " + (_("winner") if alone else _("shares the win")), style="bold bright_green")
        row: list["str | Text"] = [str(place), name, format_number(total)]
        if made is not None:
            row.append(str(made[s]))
        t.add_row(*row)
    return t


def trick_table(v: View, *, you: "int | None" = None) -> Table:
    """The trick on the table, one line per player in play order, the leader
    first; before the next lead, the trick just finished with its winner."""
    n = v.players
    t = v.trick
    if t.cards:
        title = _("Trick {n} of {count}").format(n=len(v.tricks) + 1, count=v.hand_size)
        cards, leader, winner, done = t.cards, t.leader, v.trick_winner_so_far, False
    elif v.tricks:
        last = v.tricks[-1]
        title = (_("Trick {n} of {count}").format(n=len(v.tricks), count=v.hand_size) + " — "
                 + _("won by {name}").format(name=v.names[last.winner]))
        cards, leader, winner, done = last.cards, last.leader, last.winner, True
    elif v.is_over and v.past_hands:
        last = v.past_hands[-1].tricks[-1]
        title = _("Last trick") + " — " + _("won by {name}").format(name=v.names[last.winner])
        cards, leader, winner, done = last.cards, last.leader, last.winner, True
    else:
        title = _("Trick {n} of {count}").format(n=1, count=v.hand_size) if v.phase == "play" else _("Bidding")
        cards, leader, winner, done = (), (v.dealer + 1) % n, None, False
    # The title holds a player's name: a Text, so a name such as "[/]" is not read as markup.
    table = Table(title=Text(title), title_style="bold", show_header=False, box=None, pad_edge=False)
    table.add_column(width=2)
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    for i in range(n):
        s = (leader + i) % n
        card = cards[i] if i < len(cards) else None
        mine = s == you and v.names[s].casefold() not in ("you", _("You").casefold())
        name = Text(v.names[s] + (" " + _("(you)") if mine else ""), style=PLAYER_COLORS[s % len(PLAYER_COLORS)])
        mark = "▶" if not done and not v.is_over and v.phase == "play" and s == v.to_act else ""
        note = Text("")
        if i == 0 and card is not None:
            note.append(_("led") + " ", style="dim")
        if card is not None and s == winner:
            note.append(_("wins") if done else _("winning"), style="bold bright_green")
        table.add_row(Text(mark, style="bold bright_green"), name,
                      card_text(card) if card is not None else Text("·", style="dim"), note)
    return table


def explain_illegal(view: View, action: object) -> str:
    """Why ``action`` is not open to the viewer now, in the viewer's words ("you ...").

    The reason is the core's own (:meth:`ohhell.view.View.rejection`, worded by
    :func:`ohhell.text.explain_illegal`); nothing is decided here.
    """
    error = view.rejection(action)
    if error is None:
        return _("That is allowed.")  # pragma: no cover - only asked about illegal actions
    return text_explain_illegal(error, view.names)


def describe_action(action: object) -> str:
    """``bid 2`` or ``Q♠`` for the log."""
    if isinstance(action, Play):
        return rank_text(action.card) + SUIT_SYMBOLS[action.card // 13]
    if isinstance(action, Bid):
        return _("bid {n}").format(n=action.tricks)
    return str(action)


def cards_line(cards: Iterable[int]) -> Text:
    """Cards separated by spaces, coloured."""
    t = Text()
    for i, c in enumerate(cards):
        if i:
            t.append(" ")
        t.append_text(card_text(CARDS[c]))
    return t
