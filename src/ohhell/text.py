"""Plain-text renderings shared by the command line and the front ends.

Nothing here decides anything; it only formats games, views and records,
and words the core's own reasons for players: :func:`seat_label` is the one
place a 0-based seat becomes a label people read (``Seat 1``), and
:func:`explain_illegal` turns an :class:`~ohhell.errors.IllegalActionError`'s
``code`` and ``facts`` into a sentence addressed to the player who tried.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from .cards import CARDS, RANKS, SUIT_NAMES, SUIT_SYMBOLS, mask_to_cards

if TYPE_CHECKING:  # pragma: no cover
    from .errors import IllegalActionError
    from .game import Game
    from .view import View

__all__ = ["score_table", "score_table_from_record", "render_view", "render_game", "format_cards",
           "seat_label", "card_words", "explain_illegal"]


def seat_label(seat: int) -> str:
    """How people see a 0-based seat: ``Seat 1`` for seat 0 (and the default player names)."""
    return f"Seat {seat + 1}"


def card_words(card: int) -> str:
    """A card as players write it: ``Q♠``, ``10♥``."""
    r = RANKS[card % 13]
    return ("10" if r == "T" else r) + SUIT_SYMBOLS[card // 13]


def explain_illegal(error: "IllegalActionError", names: "Sequence[str] | None" = None) -> str:
    """Why an action was refused, said to the player who tried it ("You ...").

    The reason is the core's own (:attr:`IllegalActionError.code` and ``facts``,
    set by :func:`ohhell.tricks.rejection`); nothing is decided here.  ``names``
    name the seats (default :func:`seat_label`).
    """
    f = error.facts
    code = error.code

    def name(seat: "int | None") -> str:
        if seat is None:
            return "another player"
        return names[seat] if names is not None and 0 <= seat < len(names) else seat_label(seat)

    h = f.get("hand_size", 0)
    if code == "game_over":
        return "The game is over."
    if code in ("not_your_turn", "no_such_seat"):
        return f"It is not your turn: {name(f.get('to_act'))} is to act."
    if code == "already_bid":
        return "You have already bid this hand."
    if code == "must_bid":
        return f"Bid first: a whole number from 0 to {h}."
    if code == "bid_too_high":
        return f"Bids are 0 to {h}: this hand has {h} trick{'s' if h != 1 else ''}."
    if code == "hook":
        return (f"You deal and, with the hook, may not bid {f['bid']}: the bids would total {h}, "
                f"the number of tricks.")
    if code == "must_play":
        return "The bidding is over: play a card."
    if code == "not_held":
        return f"You do not hold {card_words(f['card'])}."
    if code == "must_follow":
        led = f["led"]
        return f"You must follow suit: you hold {SUIT_NAMES[led]} {SUIT_SYMBOLS[led]}."
    if code == "must_trump":
        led, t = f["led"], f["trump"]
        return (f"You cannot follow {SUIT_NAMES[led]}, so under must trump you must play a trump "
                f"({SUIT_NAMES[t]} {SUIT_SYMBOLS[t]}).")
    if code == "not_an_action":
        return "That is neither a bid nor a card."
    return "That is not allowed now."


def format_cards(cards, *, pretty: bool = False) -> str:
    """Cards as text, separated by spaces."""
    return " ".join(CARDS[c].pretty() if pretty else str(CARDS[c]) for c in cards)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = lambda r: "  ".join(str(x).rjust(w) if i else str(x).ljust(w)  # noqa: E731
                               for i, (x, w) in enumerate(zip(r, widths)))
    sep = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), sep, *(line(r) for r in rows)])


def score_table_from_record(record: dict) -> str:
    """A readable score table of a record: one row per hand, each cell
    ``bid/won score``, with running totals and the winners."""
    names = record["players"]
    header = ["hand", "cards", "trump"] + list(names)
    rows = []
    totals = [0] * len(names)
    for k, h in enumerate(record["hands"]):
        cells = []
        scored = "scores" in h and h["scores"] is not None
        for s in range(len(names)):
            b = h["bids"][s]
            w = h["tricks_won"][s]
            if scored:
                totals[s] += h["scores"][s]
                mark = "*" if b == w else " "
                cells.append(f"{b}/{w}{mark} {totals[s]:>4}")
            else:
                cells.append(f"{'-' if b is None else b}/{w}  (playing)")
        trump = h["trump_card"] or "none"
        rows.append([str(k + 1), str(len(h["deal"][0])), trump] + cells)
    text = _table(header, rows)
    text += "\n(each cell: bid/won, * = made, then the running total)"
    if record.get("winners") is not None:
        won = ", ".join(names[s] for s in record["winners"])
        text += f"\nFinal: {', '.join(f'{names[s]} {t}' for s, t in enumerate(record['totals']))}"
        text += f"\nWinner{'s' if len(record['winners']) > 1 else ''}: {won}"
    return text


def score_table(game: "Game") -> str:
    """A readable score table of a game so far."""
    return score_table_from_record(game.record())


def render_view(view: "View", *, pretty: bool = True) -> str:
    """A compact text picture of what one seat sees."""
    n = view.players
    lines = [f"Hand {view.hand_index + 1}/{view.hand_count}: {view.hand_size} card"
             f"{'s' if view.hand_size != 1 else ''}, dealer {view.names[view.dealer]}, "
             f"trump {(CARDS[view.trump_card].pretty() if pretty else str(view.trump_card)) if view.trump_card is not None else 'none'}"]
    if view.seat is not None:
        by_suit = []
        for s in range(4):
            cs = [c for c in mask_to_cards(view.hand_mask) if c // 13 == s]
            if cs:
                by_suit.append((SUIT_SYMBOLS[s] if pretty else SUIT_NAMES[s][0].upper()) + " " +
                               " ".join(str(c)[0] for c in reversed(cs)))
        lines.append(f"Your hand ({view.names[view.seat]}): " + ("  ".join(by_suit) or "-"))
    rows = []
    for r in view.bid_table():
        rows.append([("*" if view.to_act == r["seat"] else " ") + r["name"] + (" (D)" if r["dealer"] else ""),
                     "-" if r["bid"] is None else str(r["bid"]), str(r["won"]), r["status"],
                     str(r["total"])])
    lines.append(_table(["player", "bid", "won", "status", "total"], rows))
    t = view.trick
    if t.cards:
        played = ", ".join(f"{view.names[(t.leader + i) % n]} {CARDS[c].pretty() if pretty else CARDS[c]}"
                           for i, c in enumerate(t.cards))
        lines.append(f"Trick {len(view.tricks) + 1}: {played}")
    elif view.tricks:
        last = view.tricks[-1]
        won_by = view.names[last.winner] if last.winner is not None else "?"   # a finished trick has a winner
        lines.append(f"Last trick won by {won_by}: {format_cards(last.cards, pretty=pretty)}")
    if view.is_over:
        lines.append("Game over. Winner" + ("s: " if len(view.winners) > 1 else ": ")
                     + ", ".join(view.names[s] for s in view.winners))
    return "\n".join(lines)


def render_game(game: "Game") -> str:
    """The whole state, every hand shown (for debugging and tests)."""
    lines = [repr(game)]
    if not game.is_over:
        for s in range(game.players):
            lines.append(f"  seat {s} {game.names[s]}: {format_cards(mask_to_cards(game.hand_mask(s)))}"
                         f"  bid {game.bids[s]} won {game.tricks_won[s]}")
        lines.append(f"  trump card: {game.turned_card or 'none'}; "
                     f"trick: {format_cards(game.current_trick.cards) or '-'}")
    return "\n".join(lines)
