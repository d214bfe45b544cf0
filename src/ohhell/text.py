"""Plain-text renderings shared by the command line and the front ends.

Nothing here decides anything; it only formats games, views and records,
and words the core's own reasons for players: :func:`seat_label` is the one
place a 0-based seat becomes a label people read (``Seat 1``), and
:func:`explain_illegal` turns an :class:`~ohhell.errors.IllegalActionError`'s
``code`` and ``facts`` into a sentence addressed to the player who tried.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Sequence

from .cards import CARDS, RANKS, SUIT_NAMES, SUIT_SYMBOLS, mask_to_cards
# ohhell.i18n imports only the standard library at module level (Babel lazily, when a
# catalog is first used), so the core may word its text through it.
from .i18n import Translator, _, ngettext, pgettext, translator

if TYPE_CHECKING:  # pragma: no cover
    from .errors import IllegalActionError
    from .game import Game
    from .scoresheet import EntryError, ScoreSheet
    from .view import View

__all__ = ["score_table", "score_table_from_record", "render_view", "render_game", "format_cards",
           "seat_label", "card_words", "explain_illegal", "suit_name", "status_words", "describe_rules",
           "flag_label", "plan_words", "no_trump_words", "bid_summary_words", "variant_words", "undo_words",
           "bids_range", "entry_words", "rules_words", "help_used_words", "account_bot_seats"]


def seat_label(seat: int) -> str:
    """How people see a 0-based seat: ``Seat 1`` for seat 0 (and the default player names)."""
    return _("Seat {n}").format(n=seat + 1)


def suit_name(suit: int) -> str:
    """A suit's name in the current language (``hearts``), as it stands alone in a sentence."""
    return (pgettext("suit", "clubs"), pgettext("suit", "diamonds"), pgettext("suit", "hearts"),
            pgettext("suit", "spades"))[suit]


def status_words(status: str) -> str:
    """A seat's standing against its bid (:func:`ohhell.scoring.bid_status`'s English words,
    which records and the API keep) in the current language."""
    words = {"to bid": pgettext("status", "to bid"), "bid hidden": pgettext("status", "bid hidden"),
             "bid in": pgettext("status", "bid in"), "made": pgettext("status", "made"),
             "on bid": pgettext("status", "on bid")}
    if status in words:
        return words[status]
    head, _sep, n = status.rpartition(" ")
    if n.isdigit():
        k = int(n)
        if head == "over by":
            return ngettext("over by {n}", "over by {n}", k).format(n=k)
        if head == "under by":
            return ngettext("under by {n}", "under by {n}", k).format(n=k)
        if head == "needs":
            return ngettext("needs {n}", "needs {n}", k).format(n=k)
    return status


def flag_label(flag: str) -> str:
    """A rules flag (``simultaneous_bidding``) as people read it (``simultaneous bidding``)."""
    return {"hook": _("hook"), "simultaneous_bidding": _("simultaneous bidding"),
            "must_trump": _("must trump"), "missed_bid_scores_tricks": _("missed bid scores tricks"),
            "zero_bid_scores_hand_size": _("zero bid scores hand size")}.get(flag, flag.replace("_", " "))


def describe_rules(rules) -> str:
    """:meth:`ohhell.rules.Rules.describe` in the current language (the same words in English)."""
    from .rules import FLAGS
    on = [flag_label(f) for f in FLAGS if getattr(rules, f)]
    sizes = ",".join(map(str, rules.hand_sizes))
    schedule = {"up": _("up"), "down": _("down"), "up-down": _("up-down"), "down-up": _("down-up"),
                "custom": _("custom")}.get(rules.schedule, rules.schedule)
    no_trump = {"last": pgettext("no trump", "last"), "largest": pgettext("no trump", "largest"),
                "never": pgettext("no trump", "never")}.get(rules.no_trump, rules.no_trump)
    text = ngettext("{n} player", "{n} players", rules.players).format(n=rules.players)
    text += ", " + _("{schedule} ({sizes}), no trump: {no_trump}").format(
        schedule=schedule, sizes=sizes, no_trump=no_trump)
    return text + ("; " + ", ".join(on) if on else "")


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
            return _("another player")
        return names[seat] if names is not None and 0 <= seat < len(names) else seat_label(seat)

    h = f.get("hand_size", 0)
    if code == "game_over":
        return _("The game is over.")
    if code in ("not_your_turn", "no_such_seat"):
        return _("It is not your turn: {name} is to act.").format(name=name(f.get('to_act')))
    if code == "already_bid":
        return _("You have already bid this hand.")
    if code == "must_bid":
        return _("Bid first: a whole number from 0 to {n}.").format(n=h)
    if code == "bid_too_high":
        return bids_range(h)
    if code == "hook":
        return _("You deal and, with the hook, may not bid {bid}: the bids would total {n}, "
                 "the number of tricks.").format(bid=f['bid'], n=h)
    if code == "must_play":
        return _("The bidding is over: play a card.")
    if code == "not_held":
        return _("You do not hold {card}.").format(card=card_words(f['card']))
    if code == "must_follow":
        led = f["led"]
        return _("You must follow suit: you hold {suit} {symbol}.").format(
            suit=suit_name(led), symbol=SUIT_SYMBOLS[led])
    if code == "must_trump":
        led, t = f["led"], f["trump"]
        return _("You cannot follow {led}, so under must trump you must play a trump "
                 "({trump} {symbol}).").format(led=suit_name(led), trump=suit_name(t), symbol=SUIT_SYMBOLS[t])
    if code == "not_an_action":
        return _("That is neither a bid nor a card.")
    return _("That is not allowed now.")


def rules_words(error: Exception) -> str:
    """Why a rules configuration was refused (a :class:`~ohhell.errors.RulesError` with a
    ``code``), in the current language.  In English, and for an error without a code, the
    core's own message (which names the option: ``players must be 3 to 7, not 9``)."""
    from .i18n import DEFAULT, get_language
    code, f = getattr(error, "code", None), getattr(error, "facts", {})
    if get_language() == DEFAULT:
        return str(error)
    if code in ("no_name", "name_too_long", "same_name"):     # the players' names (ohhell.scoresheet)
        return entry_words(error)  # type: ignore[arg-type]
    if code == "players":
        return _("a game has 3 to 7 players, not {players}").format(**f)
    if code == "no_hand_sizes":
        return _("give at least one hand size: a game needs at least one hand")
    if code == "hand_size_too_small":
        return _("a hand of {size} cards is impossible: every player needs at least one card").format(**f)
    if code == "hand_size_too_large":
        return ngettext("a hand of {size} cards is too large for {players} player: the deck of 52 gives at most "
                        "{most} cards each",
                        "a hand of {size} cards is too large for {players} players: the deck of 52 gives at most "
                        "{most} cards each", f["players"]).format(**f)
    if code == "hook_simultaneous":
        return _("the hook cannot be combined with simultaneous bidding: with simultaneous bids there is no "
                 "last bidder for the hook to restrict")
    return str(error)


def bids_range(h: int) -> str:
    """``Bids are 0 to 3: this hand has 3 tricks.``"""
    return ngettext("Bids are 0 to {n}: this hand has {n} trick.",
                    "Bids are 0 to {n}: this hand has {n} tricks.", h).format(n=h)


def plan_words(sheet: "ScoreSheet", hand: "int | None" = None) -> str:
    """:meth:`~ohhell.scoresheet.ScoreSheet.describe_plan` in the current language (the same words in English)."""
    p = sheet.plan(hand)
    cards = ngettext("{n} card each", "{n} cards each", p.hand_size).format(n=p.hand_size)
    if p.turns_trump:
        trump = _("the dealer turns the next card for trump")
    else:
        trump = _("no trump: {reason}").format(reason=no_trump_words(p.no_trump_reason, p.hand_size))
    return _("Hand {n} of {count}: {dealer} deals {cards}; {first} bids first and leads; {trump}").format(
        n=p.number, count=sheet.hand_count, dealer=sheet.names[p.dealer], cards=cards,
        first=sheet.names[p.first_bidder], trump=trump)


def no_trump_words(reason: str, size: int) -> str:
    """Why a hand has no trump (the sheet's English reason) in the current language."""
    return _no_trump_reason(translator(), reason, size)


def bid_summary_words(sheet: "ScoreSheet", hand: "int | None" = None) -> str:
    """:meth:`~ohhell.scoresheet.ScoreSheet.bid_summary` in the current language."""
    k = sheet.hand_index if hand is None else hand
    p = sheet.plan(k)
    total = sum(b for b in sheet.bids(k) if b is not None)
    rel = (_("= tricks") if total == p.hand_size else
           _("{n} under").format(n=p.hand_size - total) if total < p.hand_size else
           _("{n} over").format(n=total - p.hand_size))
    return ngettext("bids total {total} of {n} trick ({rel})", "bids total {total} of {n} tricks ({rel})",
                    p.hand_size).format(total=total, n=p.hand_size, rel=rel)


def variant_words(label: str) -> str:
    """A scoring variant's label (:meth:`~ohhell.scoresheet.ScoreSheet.scoring_comparison`) in the current language."""
    words = {"base scoring": _("base scoring"), "missed bids score tricks": _("missed bids score tricks"),
             "made 0 scores 5 + hand size": _("made 0 scores 5 + hand size")}
    for english, words_here in words.items():
        label = label.replace(english, words_here)
    return label


def undo_words(what: str) -> str:
    """What :meth:`~ohhell.scoresheet.ScoreSheet.undo` took back (``hand 2: Ada bid 1``) in the current language."""
    import re
    m = re.fullmatch(r"hand (\d+): (.*) (bid|won) (\d+)", what, re.DOTALL)
    if not m:
        return what
    hand, name, verb, n = m.groups()
    return (_("hand {hand}: {name} bid {n}") if verb == "bid" else _("hand {hand}: {name} won {n}")).format(
        hand=hand, name=name, n=n)


def help_used_words(record: dict, names: Sequence[str]) -> "str | None":
    """Who used help in a game, from its record's ``help`` (docs/interfaces.md): ``Help used:
    Ann: 2 hints, 1 undo``, or ``None`` when nobody did (or the record says nothing of help).
    A ``help`` that does not fit the game is ignored."""
    data = record.get("help")
    if not isinstance(data, list) or len(data) != len(names):
        return None
    parts = []
    for s, h in enumerate(data):
        if not isinstance(h, dict):
            return None
        hints, undos = h.get("hints", 0), h.get("undos", 0)
        if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in (hints, undos)):
            return None
        if hints or undos:
            parts.append(_("{name}: {hints}, {undos}").format(
                name=names[s], hints=ngettext("{n} hint", "{n} hints", hints).format(n=hints),
                undos=ngettext("{n} undo", "{n} undos", undos).format(n=undos)))
    return _("Help used: {list}").format(list="; ".join(parts)) if parts else None


def account_bot_seats(record: dict, players: int) -> set[int]:
    """The seats that bot accounts (programs, through the bot API) played, from the record's
    ``account_bots`` (written by the server; docs/interfaces.md); entries that are not seats
    of the game are ignored."""
    data = record.get("account_bots")
    if not isinstance(data, list):
        return set()
    return {s for s in data if isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players}


def entry_words(error: "EntryError | str", *, lang: "str | None" = None) -> str:
    """Why the score sheet refused an entry, in ``lang`` (default: the current language).

    The reason is the sheet's own: :class:`~ohhell.scoresheet.EntryError`'s ``code`` and
    ``facts``.  This is the one home of those sentences: the sheet's English message is this
    function's English (``lang="en"``), so programs and people read the same reason.  A plain
    string (an error from elsewhere) is returned as it is.
    """
    if isinstance(error, str):
        return error
    t = translator(lang)
    _, ngettext = t.gettext, t.ngettext
    code = error.code
    f = dict(error.facts)
    bid = f.get("what") == "bid"
    if code == "not_a_number":
        said = (_("{text!r} is not a bid: type a whole number from 0 to {n}") if bid else
                _("{text!r} is not a number of tricks: type a whole number from 0 to {n}"))
    elif code == "empty":
        said = (_("type a bid: a whole number from 0 to {n}") if bid else
                _("type a number of tricks: a whole number from 0 to {n}"))
    elif code == "out_of_range":
        said = (_("a bid is 0 to {n} in this hand, not {value}") if bid else
                _("a number of tricks is 0 to {n} in this hand, not {value}"))
    elif code == "no_such_hand":
        said = _("there is no hand {hand!r}; the game has hands 1 to {count}")
    elif code == "bids_in":
        said = _("the bids of this hand are all in; enter the tricks won")
    elif code == "game_over":
        said = _("the game is over")
    elif code == "bids_first":
        said = _("enter the bids first")
    elif code == "hook":
        said = _("{name} deals and, with the hook, may not bid {bid}: the bids would total {n}, the number of tricks")
    elif code == "too_many":
        said = _("{name} cannot have won {won}: the tricks would add up to {total}, but this hand has only {n}")
    elif code == "add_up":
        f["so_far"] = ", ".join(f"{name} {won}" for name, won in f["so_far"])
        f["entry"] = f"{f['name']} {f['won']}"
        said = _("the tricks must add up to {n}: with {so_far} and {entry} they add up to {total} "
                 "({name} must have won {want}, or correct an earlier entry)")
    elif code == "no_trump_card":
        f["reason"] = _no_trump_reason(t, f["reason"], f["hand_size"])
        said = _("hand {hand} turns no card for trump ({reason})")
    elif code == "not_a_card":
        said = _("not a card: {text} (write rank then suit, e.g. QS, 10D, 7c, A♥)")
    elif code == "nothing_to_undo":
        said = _("nothing to take back: no bid has been entered")
    elif code == "values_count":
        said = (_("give {n} values, one per seat, for the bids") if f["field"] == "bids" else
                _("give {n} values, one per seat, for the tricks won"))
    elif code == "missing":
        said = (_("hand {hand}: {name}'s bid is missing") if bid else
                _("hand {hand}: {name}'s number of tricks is missing"))
    elif code == "not_entered_yet":
        said = (_("hand {hand}: {name}'s bid has not been entered yet; enter it in turn") if bid else
                _("hand {hand}: {name}'s number of tricks has not been entered yet; enter it in turn"))
    elif code == "bids_before_tricks":
        said = _("hand {hand}: every bid must be in before the tricks")
    elif code == "hook_total":
        said = _("hand {hand}: with the hook the bids may not total {n}, the number of tricks "
                 "({name} deals and bids last)")
    elif code == "tricks_total":
        said = _("hand {hand}: the tricks won add up to {total}, but the hand has {n}")
    elif code == "no_hand_yet":
        said = _("there is no hand {hand} yet; hands 1 to {begun} have begun")
    elif code == "no_such_seat":
        said = _("there is no seat {seat!r} (seats are 0 to {last})")
    elif code == "no_name":
        said = _("seat {seat} has no name")
    elif code == "name_too_long":
        said = _("the name {name!r}... is too long (24 characters at most)")
    elif code == "same_name":
        said = _("two players are called {name!r}: give everyone a different name")
    elif code == "rule_locked":
        said = _("{field!r} cannot be changed once the game has begun; only {changeable} can")
    elif code == "bad_rule":
        said = _("{field!r} must be true or false, not {value!r}")
    elif code == "dealer_order":
        said = _("with {name} dealing first, hand {hand}'s entries would be out of order: "
                 "take back this hand's entries first")
    else:
        return str(error)
    said = said.format(**f)
    if "at_hand" in f:      # a value of a correction: which hand and whose
        said = _("hand {hand}, {name}: {reason}").format(hand=f["at_hand"], name=f["at_name"], reason=said)
    return said


def _no_trump_reason(t: "Translator", reason: str, size: int) -> str:
    """Why a hand has no trump (the sheet's English reason) in ``t``'s language."""
    if reason == "the deal uses the whole deck":
        return t.gettext("the deal uses the whole deck")
    if reason == "the last hand is played without trump":
        return t.gettext("the last hand is played without trump")
    if reason.startswith("hands of "):
        return t.ngettext("hands of {n} card are played without trump", "hands of {n} cards are played without trump",
                          size).format(n=size)
    return reason


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
