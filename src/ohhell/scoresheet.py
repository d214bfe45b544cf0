"""The scorekeeper's model: a score sheet for a game played with real cards.

The cards are on the table, not in the computer, so a :class:`ScoreSheet`
knows only what the players tell it: each hand's bids and the tricks each
player won.  It says, for every hand, who deals, how many cards, who bids
first and whether a card is turned for trump; it enforces the hook for the
dealer's bid and insists that the tricks add up to the hand size; it scores
every hand with :func:`ohhell.scoring.hand_score` (the engine's own scoring)
and keeps the running totals.  Any entry can be corrected later, and the
totals follow.

>>> from ohhell import Rules
>>> sheet = ScoreSheet(Rules(3, hand_sizes=[2, 1], hook=True), ["Ann", "Bob", "Cat"], first_dealer=0)
>>> sheet.plan().dealer, sheet.plan().first_bidder, sheet.plan().turns_trump
(0, 1, True)
>>> sheet.enter_bid(1); sheet.enter_bid(0)        # Bob, then Cat
>>> sheet.allowed_bids()                           # Ann deals: 1 would make the bids total 2
(0, 2)
>>> sheet.enter_bid(1)
Traceback (most recent call last):
ohhell.scoresheet.EntryError: Ann deals and, with the hook, may not bid 1: the bids would total 2, the number of tricks
>>> sheet.enter_bid(0)
>>> for won in (1, 1, 0): sheet.enter_tricks(won)  # Bob, Cat, Ann
>>> sheet.totals, sheet.hand_index, sheet.phase
((10, 11, 0), 1, 'bid')
>>> sheet.correct_hand(0, tricks_won=[1, 1, 0])    # in fact Ann won one, Cat none
>>> sheet.totals
(0, 11, 10)

Saved sheets use the game record's layout (docs/interfaces.md §1) with
``"format": "ohhell.scoresheet"``; see :meth:`ScoreSheet.to_dict` for how the
unknown cards are represented.  :meth:`ScoreSheet.save` writes atomically
(temporary file, ``fsync``, rename), so a crash or a closed terminal never
leaves a half-written sheet.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from dataclasses import dataclass
from typing import Any, Sequence

from .cards import Card, parse_card
from .errors import CardError, OhHellError, RecordError, RulesError, show
from .files import atomic_write_text  # its home; re-exported here for old imports
from .records import parse_record
from .rules import Rules
from .scoring import bid_status, hand_score, standings, winners as _winners
from .tricks import hook_bid

__all__ = ["ScoreSheet", "HandPlan", "EntryError", "FORMAT", "VERSION", "atomic_write_text",
           "parse_count"]

FORMAT = "ohhell.scoresheet"
VERSION = 1


class EntryError(OhHellError):
    """An entry the score sheet refuses (with why); the sheet is then unchanged.

    ``hand`` (0-based) and ``seat`` locate the entry when known.  ``code`` and ``facts``
    say why, for a front end to word in its reader's language
    (:func:`ohhell.text.entry_words`, which also wrote the English message).
    """

    def __init__(self, message: str, *, hand: "int | None" = None, seat: "int | None" = None,
                 code: str = "entry", facts: "dict[str, Any] | None" = None) -> None:
        super().__init__(message)
        self.hand = hand
        self.seat = seat
        self.code = code
        self.facts: dict[str, Any] = dict(facts or {})


def _refusal(code: str, hand: "int | None" = None, seat: "int | None" = None, /, **facts: Any) -> EntryError:
    """An :class:`EntryError` for ``code`` at ``hand`` (0-based) and ``seat``, its English
    message worded from the ``facts`` (the facts may have their own ``hand``: a hand's number)."""
    from .text import entry_words
    error = EntryError("", hand=hand, seat=seat, code=code, facts=facts)
    error.args = (entry_words(error, lang="en"),)
    return error


@dataclass(frozen=True)
class HandPlan:
    """What the table needs to know before a hand: all derived from the rules.

    ``index`` is 0-based; ``first_bidder`` bids first and leads the first
    trick; ``turns_trump`` says whether the dealer turns a card for trump.
    """

    index: int
    dealer: int
    hand_size: int
    first_bidder: int
    turns_trump: bool
    no_trump_reason: str

    @property
    def number(self) -> int:
        """The hand's number as people count (1-based)."""
        return self.index + 1


class _Hand:
    """One hand of the sheet: bids and tricks won by seat (``None``: not entered)."""

    __slots__ = ("bids", "won", "trump_card", "scores")

    def __init__(self, n: int) -> None:
        self.bids: list[int | None] = [None] * n
        self.won: list[int | None] = [None] * n
        self.trump_card: Card | None = None
        self.scores: tuple[int, ...] | None = None

    def copy(self) -> "_Hand":
        h = _Hand(0)
        h.bids = self.bids[:]
        h.won = self.won[:]
        h.trump_card = self.trump_card
        h.scores = self.scores
        return h


def parse_count(text: "str | int", what: str, upto: int) -> int:
    """Parse a whole number 0..``upto`` typed by a person (a bid or a number of tricks).

    :raises EntryError: for anything else, saying what was expected.
    """
    kind = "bid" if what == "bid" else "tricks"
    if isinstance(text, bool):
        raise _refusal("not_a_number", text=text, what=kind, n=upto)
    if isinstance(text, int):
        value = text
    else:
        t = str(text).strip()
        if not t:
            raise _refusal("empty", what=kind, n=upto)
        if not t.isdecimal() or not t.isascii():
            raise _refusal("not_a_number", text=t, what=kind, n=upto)
        if len(t.lstrip("0")) > len(str(upto)):   # (int() of thousands of digits would fail)
            raise _refusal("out_of_range", what=kind, n=upto, value=f"{t[:12]}{'...' if len(t) > 12 else ''}")
        value = int(t)
    if not 0 <= value <= upto:
        raise _refusal("out_of_range", what=kind, n=upto, value=str(value))
    return value


class ScoreSheet:
    """A score sheet for a game played with real cards.

    :param rules: the rules being played (players, schedule, scoring variants).
    :param names: one name per seat, in clockwise order.
    :param first_dealer: the seat that deals the first hand.
    :raises RulesError: for bad names or a bad dealer.
    """

    def __init__(self, rules: Rules, names: Sequence[str], first_dealer: int = 0) -> None:
        if not isinstance(rules, Rules):
            raise RulesError(f"rules must be a Rules object, not {type(rules).__name__}")
        n = rules.players
        names = [str(x).strip() for x in names]
        if len(names) != n:
            raise RulesError(f"{len(names)} names given for {n} players")
        _check_names(names)
        if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not 0 <= first_dealer < n:
            raise RulesError(f"the first dealer must be a seat from 0 to {n - 1}, not {first_dealer!r}")
        self.rules = rules
        self.names = names
        self.first_dealer = first_dealer
        self._hands: list[_Hand] = [_Hand(n)]

    # --- what the table needs to know ------------------------------------------------------

    @property
    def players(self) -> int:
        """The number of players."""
        return self.rules.players

    @property
    def hand_count(self) -> int:
        """The number of hands in the game."""
        return self.rules.hand_count

    def plan(self, hand: "int | None" = None) -> HandPlan:
        """Dealer, hand size, first bidder and trump for hand ``hand`` (default: the current one).

        :raises EntryError: for a hand outside the game.
        """
        k = self.hand_index if hand is None else hand
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < self.hand_count:
            raise _refusal("no_such_hand", hand=k, count=self.hand_count)
        n = self.players
        dealer = (self.first_dealer + k) % n
        size = self.rules.hand_sizes[k]
        turns = self.rules.has_trump(k)
        if turns:
            why = ""
        elif size * n >= 52:
            why = "the deal uses the whole deck"
        elif self.rules.no_trump == "last":
            why = "the last hand is played without trump"
        else:
            why = f"hands of {size} cards are played without trump"
        return HandPlan(k, dealer, size, (dealer + 1) % n, turns, why)

    def order(self, hand: "int | None" = None) -> list[int]:
        """The seats in bidding (and entry) order for a hand: dealer's left first, dealer last."""
        p = self.plan(hand)
        return [(p.dealer + 1 + i) % self.players for i in range(self.players)]

    @property
    def hand_index(self) -> int:
        """The hand being entered (0-based); the last hand once the game is over."""
        return len(self._hands) - 1

    @property
    def is_over(self) -> bool:
        """Whether every hand has been scored."""
        last = self._hands[-1]
        return last.scores is not None

    @property
    def phase(self) -> str:
        """``'bid'`` (bids being entered), ``'tricks'`` (tricks won) or ``'over'``."""
        if self.is_over:
            return "over"
        return "bid" if None in self._hands[-1].bids else "tricks"

    @property
    def to_enter(self) -> "int | None":
        """The seat whose bid or tricks are asked for next (``None`` when the game is over)."""
        if self.is_over:
            return None
        h = self._hands[-1]
        values = h.bids if None in h.bids else h.won
        return next(s for s in self.order() if values[s] is None)

    def _enterer(self) -> int:
        """:attr:`to_enter` where the caller has checked that the game is not over."""
        seat = self.to_enter
        assert seat is not None
        return seat

    def allowed_bids(self) -> tuple[int, ...]:
        """The bids the next bidder may make (the hook removes one for the dealer)."""
        if self.phase != "bid":
            return ()
        p = self.plan()
        forbidden = self._hook_forbidden(self._hands[-1].bids, self.to_enter)
        return tuple(b for b in range(p.hand_size + 1) if b != forbidden)

    def _hook_forbidden(self, bids: Sequence["int | None"], seat: "int | None",
                        hand: "int | None" = None) -> "int | None":
        """The bid the hook forbids ``seat`` (when it bids last), or ``None``
        (rule home: :func:`ohhell.tricks.hook_bid`)."""
        if not self.rules.hook or seat is None or seat != self.plan(hand).dealer:
            return None
        others = [b for s, b in enumerate(bids) if s != seat]
        if None in others:
            return None
        return hook_bid(self.plan(hand).hand_size, sum(others))  # type: ignore[arg-type]

    def hook_note(self) -> str:
        """Why the next bidder may not bid some number, or ``''``."""
        if self.phase != "bid":
            return ""
        x = self._hook_forbidden(self._hands[-1].bids, self.to_enter)
        if x is None:
            return ""
        h = self.plan().hand_size
        return (f"{self.names[self._enterer()]} deals and, with the hook, may not bid {x}: "
                f"the bids would total {h}, the number of tricks")

    # --- entering ---------------------------------------------------------------------------

    def check_bid(self, bid: "int | str") -> int:
        """The bid the next bidder would make, parsed and checked, without entering it.

        :raises EntryError: when the bid is not a number, out of range, or forbidden by the hook.
        """
        if self.phase != "bid":
            raise _refusal("bids_in" if self.phase == "tricks" else "game_over")
        p = self.plan()
        seat = self.to_enter
        b = parse_count(bid, "bid", p.hand_size)
        if b == self._hook_forbidden(self._hands[-1].bids, seat):
            raise _refusal("hook", p.index, seat, name=self.names[self._enterer()], bid=b, n=p.hand_size)
        return b

    def enter_bid(self, bid: "int | str") -> None:
        """Enter the next bidder's bid (a number, or the text a person typed).

        :raises EntryError: as :meth:`check_bid`; the sheet is then unchanged.
        """
        b = self.check_bid(bid)
        self._hands[-1].bids[self._enterer()] = b

    def check_tricks(self, won: "int | str") -> int:
        """The next player's tricks won, parsed and checked, without entering them.

        :raises EntryError: when not a number, out of range, or when the tricks
            cannot add up to the hand size.
        """
        if self.phase != "tricks":
            raise _refusal("bids_first" if self.phase == "bid" else "game_over")
        p = self.plan()
        seat = self._enterer()
        h = self._hands[-1]
        w = parse_count(won, "number of tricks", p.hand_size)
        entered = [x for x in h.won if x is not None]
        total = sum(entered) + w
        last = len(entered) == self.players - 1
        if total > p.hand_size:
            raise _refusal("too_many", p.index, seat, name=self.names[seat], won=w, total=total,
                           n=p.hand_size)
        if last and total != p.hand_size:
            so_far = [(self.names[s], h.won[s]) for s in self.order() if h.won[s] is not None]
            raise _refusal("add_up", p.index, seat, n=p.hand_size, so_far=so_far, name=self.names[seat],
                           won=w, total=total, want=p.hand_size - total + w)
        return w

    def enter_tricks(self, won: "int | str") -> None:
        """Enter the tricks won by the next player; the last entry scores the hand.

        :raises EntryError: as :meth:`check_tricks`; the sheet is then unchanged.
        """
        w = self.check_tricks(won)
        h = self._hands[-1]
        h.won[self._enterer()] = w
        if None not in h.won:
            self._score(self.hand_index)
            if self.hand_index + 1 < self.hand_count:
                self._hands.append(_Hand(self.players))

    def enter(self, value: "int | str") -> str:
        """Enter a bid or tricks won, whichever is asked for; returns ``'bid'`` or ``'tricks'``.

        :raises EntryError: as :meth:`enter_bid` or :meth:`enter_tricks`.
        """
        phase = self.phase
        if phase == "bid":
            self.enter_bid(value)
        elif phase == "tricks":
            self.enter_tricks(value)
        else:
            raise _refusal("game_over")
        return phase

    def set_trump_card(self, card: "str | int | None", hand: "int | None" = None) -> None:
        """Note the card turned for trump (optional; ``None`` forgets it).

        :raises EntryError: when the hand turns no card, or the text names no card.
        """
        k = self.hand_index if hand is None else hand
        self._hand(k)
        p = self.plan(k)
        if card is None or (isinstance(card, str) and not card.strip()):
            self._hands[k].trump_card = None
            return
        if not p.turns_trump:
            raise _refusal("no_trump_card", k, None, hand=p.number, reason=p.no_trump_reason, hand_size=p.hand_size)
        try:
            self._hands[k].trump_card = parse_card(card)
        except CardError:
            raise _refusal("not_a_card", k, None, text=show(card)) from None

    def undo(self) -> str:
        """Take back the most recent bid or tricks entry; returns what was taken back.

        :raises EntryError: when nothing has been entered.
        """
        if not self.is_over and all(b is None for b in self._hands[-1].bids):
            if len(self._hands) == 1:
                raise _refusal("nothing_to_undo")
            self._hands.pop()
        h = self._hands[-1]
        k = self.hand_index
        order = self.order(k)
        if h.scores is not None or any(w is not None for w in h.won):
            seat = next(s for s in reversed(order) if h.won[s] is not None)
            what = f"hand {k + 1}: {self.names[seat]} won {h.won[seat]}"
            h.won[seat] = None
            h.scores = None
            return what
        seat = next(s for s in reversed(order) if h.bids[s] is not None)
        what = f"hand {k + 1}: {self.names[seat]} bid {h.bids[seat]}"
        h.bids[seat] = None
        return what

    # --- corrections ------------------------------------------------------------------------

    def correct_hand(self, hand: int, *, bids: "Sequence[int | str | None] | None" = None,
                     tricks_won: "Sequence[int | str | None] | None" = None) -> None:
        """Replace the bids and/or tricks won of an earlier (or the current) hand.

        Finished hands need every value and tricks that add up to the hand
        size; in the current hand only the values already entered may be
        changed (``None`` keeps a gap a gap).  Scores and totals are recomputed.

        :raises EntryError: for a bad value, a hook violation or tricks that do
            not add up; the sheet is then unchanged.
        """
        h0 = self._hand(hand)
        p = self.plan(hand)
        n = self.players
        new = h0.copy()
        finished = h0.scores is not None
        for field, values, what in (("bids", bids, "bid"), ("won", tricks_won, "number of tricks")):
            if values is None:
                continue
            if isinstance(values, (str, bytes)) or len(values) != n:
                raise _refusal("values_count", hand, None, n=n, field="bids" if field == "bids" else "won")
            old = getattr(h0, field)
            out: list[int | None] = []
            for s, v in enumerate(values):
                if v is None or (isinstance(v, str) and not v.strip()):
                    if finished or old[s] is not None:
                        raise _refusal("missing", hand, s, hand=p.number, name=self.names[s],
                                       what="bid" if what == "bid" else "tricks")
                    out.append(None)
                    continue
                if old[s] is None:
                    raise _refusal("not_entered_yet", hand, s, hand=p.number, name=self.names[s],
                                   what="bid" if what == "bid" else "tricks")
                try:
                    out.append(parse_count(v, what, p.hand_size))
                except EntryError as e:
                    raise _refusal(e.code, hand, s, **e.facts, at_hand=p.number,
                                   at_name=self.names[s]) from None
            setattr(new, field, out)
        if any(w is not None for w in new.won) and None in new.bids:  # pragma: no cover - guarded above
            raise _refusal("bids_before_tricks", hand, None, hand=p.number)
        self._check_hand(hand, new)
        if finished:
            new.scores = self._scores_of(hand, new)
        self._hands[hand] = new

    def correct_bid(self, hand: int, seat: int, bid: "int | str") -> None:
        """Correct one bid (see :meth:`correct_hand`)."""
        bids: list = list(self._hand(hand).bids)
        bids[self._seat(seat)] = bid
        self.correct_hand(hand, bids=bids)

    def correct_tricks(self, hand: int, seat: int, won: "int | str") -> None:
        """Correct one player's tricks won (see :meth:`correct_hand`)."""
        won_list: list = list(self._hand(hand).won)
        won_list[self._seat(seat)] = won
        self.correct_hand(hand, tricks_won=won_list)

    def rename(self, seat: int, name: str) -> None:
        """Correct a player's name.

        :raises EntryError: for an empty name or one another player has.
        """
        s = self._seat(seat)
        names = self.names[:]
        names[s] = str(name).strip()
        problem = _name_problem(names)
        if problem is not None:
            raise _refusal(problem[0], None, s, **problem[1])
        self.names = names

    #: the rules fields :meth:`change_rules` may correct (the others fix the hands themselves)
    CHANGEABLE_RULES = ("hook", "missed_bid_scores_tricks", "zero_bid_scores_hand_size")

    def change_rules(self, **changes: bool) -> None:
        """Correct a rule chosen at the start: the hook or a scoring variant.

        Every hand is checked again under the new rules (turning the hook on
        fails if some hand's bids already total its tricks) and every score is
        recomputed.

        :raises EntryError: for another field, a value that is not true/false,
            or a hand the new rules would not allow; the sheet is then unchanged.
        """
        bad = [k for k in changes if k not in self.CHANGEABLE_RULES]
        if bad:
            raise _refusal("rule_locked", field=bad[0], changeable=", ".join(self.CHANGEABLE_RULES))
        for field, value in changes.items():
            if not isinstance(value, bool):
                raise _refusal("bad_rule", field=field, value=value)
        try:
            rules = self.rules.replace(**changes)
        except RulesError as e:  # pragma: no cover - true/false of these fields is always valid
            raise EntryError(str(e)) from None
        other = self.copy()
        other.rules = rules
        for k, h in enumerate(other._hands):
            other._check_hand(k, h)
            if h.scores is not None:
                h.scores = other._scores_of(k, h)
        self.rules = rules
        self._hands = other._hands

    def change_first_dealer(self, seat: int) -> None:
        """Correct who dealt the first hand (every later dealer moves with it).

        :raises EntryError: when the current hand's entries were made in an
            order the new dealer does not allow (take them back first).
        """
        seat = self._seat(seat)
        other = self.copy()
        other.first_dealer = seat
        k = other.hand_index
        h = other._hands[k]
        for values in (h.bids, h.won):
            order = other.order(k)
            seen_gap = False
            for s in order:
                if values[s] is None:
                    seen_gap = True
                elif seen_gap:
                    raise _refusal("dealer_order", k, None, hand=k + 1, name=self.names[seat])
        for kk, hh in enumerate(other._hands):
            other._check_hand(kk, hh)
        self.first_dealer = seat

    def totals_under(self, rules: Rules) -> tuple[int, ...]:
        """The totals the finished hands would give under another scoring (same bids and tricks)."""
        t = [0] * self.players
        for k, h in enumerate(self._hands):
            if h.scores is None:
                continue
            size = self.plan(k).hand_size
            for s, (b, w) in enumerate(zip(h.bids, h.won)):
                t[s] += hand_score(b, w, size, rules)  # type: ignore[arg-type]
        return tuple(t)

    def scoring_comparison(self) -> list[tuple[str, bool, tuple[int, ...]]]:
        """The totals under every scoring variant: ``(label, in use, totals)``, four rows."""
        rows = []
        for missed in (False, True):
            for zero in (False, True):
                rules = self.rules.replace(missed_bid_scores_tricks=missed, zero_bid_scores_hand_size=zero)
                label = ("base scoring" if not (missed or zero) else
                         " + ".join(x for x, on in (("missed bids score tricks", missed),
                                                    ("made 0 scores 5 + hand size", zero)) if on))
                in_use = (missed == self.rules.missed_bid_scores_tricks
                          and zero == self.rules.zero_bid_scores_hand_size)
                rows.append((label, in_use, self.totals_under(rules)))
        return rows

    def _check_hand(self, k: int, h: _Hand) -> None:
        """Check a hand's values against the rules (hook, ranges, tricks adding up)."""
        p = self.plan(k)
        if (self.rules.hook and None not in h.bids
                and h.bids[p.dealer] == self._hook_forbidden(h.bids, p.dealer, k)):
            raise _refusal("hook_total", k, None, hand=p.number, n=p.hand_size, name=self.names[p.dealer])
        entered = [w for w in h.won if w is not None]
        if sum(entered) > p.hand_size or (None not in h.won and sum(entered) != p.hand_size):
            raise _refusal("tricks_total", k, None, hand=p.number, total=sum(entered), n=p.hand_size)

    def _hand(self, k: int) -> _Hand:
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(self._hands):
            raise _refusal("no_hand_yet", hand=k + 1 if isinstance(k, int) else repr(k), begun=len(self._hands))
        return self._hands[k]

    def _seat(self, seat: int) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise _refusal("no_such_seat", seat=seat, last=self.players - 1)
        return seat

    def _scores_of(self, k: int, h: _Hand) -> tuple[int, ...]:
        size = self.plan(k).hand_size
        return tuple(hand_score(b, w, size, self.rules) for b, w in zip(h.bids, h.won))  # type: ignore[arg-type]

    def _score(self, k: int) -> None:
        self._hands[k].scores = self._scores_of(k, self._hands[k])

    # --- reading ----------------------------------------------------------------------------

    @property
    def hands_started(self) -> int:
        """How many hands have begun (finished ones and the current one)."""
        return len(self._hands)

    def bids(self, hand: "int | None" = None) -> tuple:
        """A hand's bids by seat (``None``: not entered yet)."""
        return tuple(self._hand(self.hand_index if hand is None else hand).bids)

    def tricks_won(self, hand: "int | None" = None) -> tuple:
        """A hand's tricks won by seat (``None``: not entered yet)."""
        return tuple(self._hand(self.hand_index if hand is None else hand).won)

    def trump_card(self, hand: "int | None" = None) -> "Card | None":
        """The turned trump card, if someone entered it."""
        return self._hand(self.hand_index if hand is None else hand).trump_card

    def scores(self, hand: int) -> "tuple[int, ...] | None":
        """A finished hand's scores by seat, or ``None`` while it is being entered."""
        return self._hand(hand).scores

    @property
    def finished_hands(self) -> int:
        """How many hands have been scored."""
        return sum(h.scores is not None for h in self._hands)

    @property
    def totals(self) -> tuple[int, ...]:
        """The total scores so far."""
        t = [0] * self.players
        for h in self._hands:
            if h.scores is not None:
                for s, x in enumerate(h.scores):
                    t[s] += x
        return tuple(t)

    def running_totals(self) -> list[tuple[int, ...]]:
        """The totals after each scored hand, in order (for a chart of the game)."""
        out = []
        t = [0] * self.players
        for h in self._hands:
            if h.scores is None:
                break
            t = [a + b for a, b in zip(t, h.scores)]
            out.append(tuple(t))
        return out

    def leaders(self) -> list[int]:
        """The seats with the highest total now (all of them before any hand is scored)."""
        return _winners(self.totals)

    @property
    def winners(self) -> list[int]:
        """The winners once the game is over (ties share), else ``[]``."""
        return _winners(self.totals) if self.is_over else []

    def standings(self) -> list[tuple[int, int, int]]:
        """``(place, seat, total)`` best first; tied players share a place."""
        return standings(self.totals)

    def bid_table(self, hand: "int | None" = None) -> list[dict]:
        """The bid table of a hand: one dict per seat, as :meth:`ohhell.View.bid_table`.

        Keys: ``seat``, ``name``, ``bid``, ``won``, ``status`` (from
        :func:`ohhell.scoring.bid_status`: ``to bid``, ``bid in``, ``made``,
        ``over by k``, ``under by k``), ``dealer``,
        ``total``, ``score`` (the hand's score once it is finished).
        """
        k = self.hand_index if hand is None else hand
        h = self._hand(k)
        p = self.plan(k)
        totals = self.totals
        rows = []
        for s in range(self.players):
            b, w = h.bids[s], h.won[s]
            rows.append({"seat": s, "name": self.names[s], "bid": b, "won": w,
                         "status": bid_status(b, w, "bidding" if w is None else "done"),
                         "dealer": s == p.dealer, "total": totals[s],
                         "score": None if h.scores is None else h.scores[s]})
        return rows

    def bid_summary(self, hand: "int | None" = None) -> str:
        """One line: the bids entered so far and their total against the hand size."""
        k = self.hand_index if hand is None else hand
        p = self.plan(k)
        bids = self._hand(k).bids
        entered = [b for b in bids if b is not None]
        total = sum(entered)
        rel = ("= tricks" if total == p.hand_size else
               f"{p.hand_size - total} under" if total < p.hand_size else f"{total - p.hand_size} over")
        return f"bids total {total} of {p.hand_size} tricks ({rel})"

    def describe_plan(self, hand: "int | None" = None) -> str:
        """The hand's plan in words for the table."""
        p = self.plan(hand)
        cards = f"{p.hand_size} card{'s' if p.hand_size != 1 else ''} each"
        trump = ("the dealer turns the next card for trump" if p.turns_trump
                 else f"no trump: {p.no_trump_reason}")
        return (f"Hand {p.number} of {self.hand_count}: {self.names[p.dealer]} deals {cards}; "
                f"{self.names[p.first_bidder]} bids first and leads; {trump}")

    # --- saving -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The sheet as JSON data, in the game record's layout (docs/interfaces.md §1).

        Differences from a game record, because the cards were never entered:

        * ``"format": "ohhell.scoresheet"`` (``ohhell.Game.from_record`` refuses it);
        * each hand has ``"deal": null`` and ``"tricks": null`` (cards unknown),
          plus ``"hand_size"`` and ``"trump_turned"`` (from the rules, checked on
          load); ``"trump_card"`` is the turned card if someone entered it,
          else ``null``;
        * ``bids`` and ``tricks_won`` hold ``null`` for values not entered yet;
          ``scores`` appears once the hand is finished;
        * ``totals`` once a hand is scored, ``winners`` once the game is over,
          as in a record; ``saved_at`` is an ISO timestamp, for people.
        """
        hands = []
        for k, h in enumerate(self._hands):
            p = self.plan(k)
            d: dict[str, Any] = {
                "dealer": p.dealer,
                "hand_size": p.hand_size,
                "deal": None,
                "trump_turned": p.turns_trump,
                "trump_card": None if h.trump_card is None else str(h.trump_card),
                "bids": list(h.bids),
                "tricks": None,
                "tricks_won": list(h.won),
            }
            if h.scores is not None:
                d["scores"] = list(h.scores)
            hands.append(d)
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "rules": self.rules.to_dict(),
                               "players": list(self.names), "hands": hands}
        if self.finished_hands:
            out["totals"] = list(self.totals)
        if self.is_over:
            out["winners"] = self.winners
        return out

    @classmethod
    def from_dict(cls, data: "dict | str | bytes") -> "ScoreSheet":
        """Load a sheet from :meth:`to_dict` data (or its JSON text), re-entering
        and checking every value.

        :raises RecordError: naming the hand and the problem (a game record
            gets a message that says to open it with ``ohhell replay``).
        """
        data = parse_record(data)
        fmt = data.get("format")
        if fmt == "ohhell.record":
            raise RecordError("this is a game record (with cards), not a score sheet; "
                              "open it with `ohhell replay`")
        if fmt != FORMAT:
            raise RecordError(f"format is {fmt!r}, not {FORMAT!r}")
        if data.get("version") != VERSION or isinstance(data.get("version"), bool):
            raise RecordError(f"version {data.get('version')!r} is not supported "
                              f"(this reader knows version {VERSION})")
        try:
            rules_data: Any = data.get("rules")   # from_dict says what is wrong with a bad one
            rules = Rules.from_dict(rules_data)
        except RulesError as e:
            raise RecordError(f"rules: {e}") from None
        n = rules.players
        names = data.get("players")
        if not isinstance(names, list) or len(names) != n or not all(isinstance(x, str) for x in names):
            raise RecordError(f"players must be a list of {n} names")
        hands = data.get("hands")
        if not isinstance(hands, list) or not hands:
            raise RecordError("hands must be a non-empty list")
        if len(hands) > rules.hand_count:
            raise RecordError(f"the sheet has {len(hands)} hands; the rules' schedule has {rules.hand_count}")
        first = hands[0].get("dealer") if isinstance(hands[0], dict) else None
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
            raise RecordError(f"dealer must be a seat from 0 to {n - 1}, not {first!r}", hand=1)
        try:
            sheet = cls(rules, names, first)
        except RulesError as e:
            raise RecordError(str(e)) from None
        for k, h in enumerate(hands):
            _load_hand(sheet, k, h, n, last=k == len(hands) - 1)
        if sheet.finished_hands:
            if data.get("totals") != list(sheet.totals):
                raise RecordError(f"totals are {data.get('totals')!r}, but the hands add up to "
                                  f"{list(sheet.totals)}")
        elif data.get("totals") not in (None, [0] * n):
            raise RecordError("totals are given, but no hand has been scored")
        if sheet.is_over:
            if data.get("winners") != sheet.winners:
                raise RecordError(f"winners are {data.get('winners')!r}, but the highest total "
                                  f"belongs to {sheet.winners}")
        elif data.get("winners") is not None:
            raise RecordError("winners are given, but the game is not over")
        return sheet

    def dumps(self) -> str:
        """The sheet as indented JSON text."""
        data = self.to_dict()
        data["saved_at"] = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"

    def save(self, path: "str | os.PathLike") -> None:
        """Write the sheet to ``path`` atomically (see :func:`atomic_write_text`)."""
        atomic_write_text(path, self.dumps())

    @classmethod
    def load(cls, path: "str | os.PathLike") -> "ScoreSheet":
        """Read and check a sheet written by :meth:`save`.

        :raises RecordError: for a file that is not a valid sheet.
        :raises OSError: when the file cannot be read.
        """
        with open(path, "rb") as f:
            return cls.from_dict(f.read())

    def copy(self) -> "ScoreSheet":
        """An independent copy."""
        other = object.__new__(ScoreSheet)
        other.rules = self.rules
        other.names = self.names[:]
        other.first_dealer = self.first_dealer
        other._hands = [h.copy() for h in self._hands]
        return other

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ScoreSheet) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        where = "over" if self.is_over else f"hand {self.hand_index + 1}/{self.hand_count}, {self.phase}"
        return f"<ScoreSheet {self.players} players, {where}, totals {list(self.totals)}>"


def _name_problem(names: Sequence[str]) -> "tuple[str, dict[str, Any]] | None":
    """What is wrong with the players' names, as ``(code, facts)`` (see :func:`ohhell.text.entry_words`)."""
    for s, x in enumerate(names):
        if not x:
            return "no_name", {"seat": s}
        if len(x) > 24:
            return "name_too_long", {"name": x[:24]}
    seen: dict[str, int] = {}
    for s, x in enumerate(names):
        if x.casefold() in seen:
            return "same_name", {"name": x}
        seen[x.casefold()] = s
    return None


def _check_names(names: Sequence[str]) -> None:
    problem = _name_problem(names)
    if problem is not None:
        from .text import entry_words
        raise RulesError(entry_words(EntryError("", code=problem[0], facts=problem[1]), lang="en"),
                         code=problem[0], facts=problem[1])


def _load_hand(sheet: ScoreSheet, k: int, h: Any, n: int, last: bool) -> None:
    no = k + 1
    if not isinstance(h, dict):
        raise RecordError("a hand is a JSON object", hand=no)
    p = sheet.plan(k)
    if h.get("dealer") != p.dealer:
        raise RecordError(f"dealer is {h.get('dealer')!r}, but the deal passes left to seat {p.dealer}",
                          hand=no)
    if h.get("hand_size", p.hand_size) != p.hand_size:
        raise RecordError(f"hand_size is {h.get('hand_size')!r}, but the rules deal {p.hand_size}", hand=no)
    if h.get("trump_turned", p.turns_trump) != p.turns_trump:
        raise RecordError(f"trump_turned is {h.get('trump_turned')!r}, but the rules say "
                          f"{str(p.turns_trump).lower()}", hand=no)
    if h.get("deal") is not None or h.get("tricks") is not None:
        raise RecordError("a score sheet records no cards: deal and tricks must be null", hand=no)
    if k != sheet.hand_index:
        raise RecordError("the previous hand is unfinished, so this hand cannot have started", hand=no)
    bids: Any = h.get("bids")        # checked just below
    won: Any = h.get("tricks_won")
    for field, values in (("bids", bids), ("tricks_won", won)):
        if not isinstance(values, list) or len(values) != n:
            raise RecordError(f"{field} must be a list of {n} numbers or nulls, one per seat", hand=no)
        for x in values:
            if x is not None and (isinstance(x, bool) or not isinstance(x, int)):
                raise RecordError(f"{field} must hold whole numbers or null, not {x!r}", hand=no)
    try:
        for field, values, enter in (("bids", bids, sheet.enter_bid), ("tricks_won", won, sheet.enter_tricks)):
            order = sheet.order(k)
            for i, s in enumerate(order):
                if values[s] is None:
                    late = [t for t in order[i:] if values[t] is not None]
                    if late:
                        raise RecordError(f"{field}: seat {late[0]} has a value, but seat {s}, "
                                          f"who comes before, has none", hand=no)
                    break
                if field == "tricks_won" and None in bids:
                    raise RecordError("tricks are entered, but not every seat has bid", hand=no)
                enter(values[s])
        if h.get("trump_card") is not None:
            tc = h["trump_card"]
            if not isinstance(tc, str):
                raise RecordError(f"trump_card must be a card name or null, not {tc!r}", hand=no)
            sheet.set_trump_card(tc, k)
    except EntryError as e:
        raise RecordError(str(e), hand=no) from None
    scores = sheet._hands[k].scores
    if scores is not None:
        if h.get("scores") != list(scores):
            raise RecordError(f"scores are {h.get('scores')!r}, but the rules score this hand "
                              f"{list(scores)}", hand=no)
    else:
        if h.get("scores") is not None:
            raise RecordError("scores are given for a hand that is not finished", hand=no)
        if not last:
            raise RecordError("the hand is unfinished, but a later hand follows", hand=no)

