"""The game: a mutable state that applies bids and plays under a :class:`Rules`.

A :class:`Game` is a whole game (every hand of the schedule).  It deals each
hand from the game's seed (see :mod:`ohhell.dealing`), or from given cards,
scores it and deals the next, so a loop of ``legal_actions`` / ``apply``
plays a game from the first bid to the final scores.

>>> import ohhell
>>> g = ohhell.Game.from_deal(
...     ohhell.Rules(players=4, hand_sizes=[2], no_trump="never", hook=True,
...                  missed_bid_scores_tricks=True),
...     dealer=1, deal=[["QS", "2H"], ["AD", "3D"], ["7C", "8C"], ["KH", "4S"]],
...     trump_card="5D")
>>> g.to_act, g.legal_actions()
(2, (Bid(0), Bid(1), Bid(2)))
>>> for b in (0, 1, 0): g.apply(ohhell.Bid(b))
>>> g.legal_actions()                       # the hook: 0+1+0+1 would make 2
(Bid(0), Bid(2))
>>> g.apply(ohhell.Bid(1))
Traceback (most recent call last):
ohhell.errors.IllegalActionError: illegal bid 1: seat 1 is the dealer and, with the hook, may not bid 1, which would make the bids total 2, the number of tricks

The hot path (``legal_actions`` and ``apply``) allocates no action objects:
actions are shared singletons taken from tables indexed by suit and 13-bit
rank mask, hands are 52-bit masks, and the trick's winner is updated as each
card is played.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping, Sequence

from . import dealing
from .actions import BIDS, PLAYS, Action, Bid, Play, parse_action
from .cards import CARDS, SUIT_MASKS, SUIT_SHIFT, Card, mask_to_cards, parse_card
from .errors import IllegalActionError, OhHellError, RulesError, show
from .rules import Rules
from .scoring import hand_scores, winners
from .state import BID, OVER, PHASES, PLAY, HandRecord, Phase, Trick
from .text import render_game, seat_label
from .tricks import hook_bid, rejection, trick_state
from .view import View, bid_table_rows

__all__ = ["Game", "Trick", "HandRecord", "Phase", "BID", "PLAY", "OVER", "PHASES", "trick_state",
           "check_deal"]

# _SUIT_PLAYS[s][m]: the Play actions of suit s for the 13-bit rank mask m, low to high.
_SUIT_PLAYS: list[list[tuple[Play, ...]]] = []
for _s in range(4):
    _t: list[tuple[Play, ...]] = [()] * 8192
    for _m in range(1, 8192):
        _hb = _m.bit_length() - 1
        _t[_m] = _t[_m ^ (1 << _hb)] + (PLAYS[_s * 13 + _hb],)
    _SUIT_PLAYS.append(_t)
_P0, _P1, _P2, _P3 = _SUIT_PLAYS
_SHIFT = SUIT_SHIFT
del _s, _t, _m, _hb

# _BIDS_UPTO[h]: bids 0..h;  _HOOK_BIDS[h][x]: bids 0..h without x.
_BIDS_UPTO = tuple(BIDS[:h + 1] for h in range(53))
_HOOK_BIDS = tuple(tuple(BIDS[:x] + BIDS[x + 1:h + 1] for x in range(h + 1)) for h in range(18))
_NEXT = tuple(tuple((s + 1) % n for s in range(n)) if n else () for n in range(8))
_NO_GIVEN: dict = {}        # shared, never mutated: no hand dealt from given cards
_new_trick = tuple.__new__   # builds a NamedTuple without its Python-level __new__
_DEFAULT_NAMES = tuple(tuple(seat_label(s) for s in range(n)) for n in range(8))


class Game:
    """A game of Oh Hell under some :class:`Rules`.

    ``is_over`` (whether the last hand has been scored), ``to_act`` (the seat
    whose decision is next, ``None`` once over), ``dealer``, ``hand_size`` and
    ``phase`` (a :class:`~ohhell.state.Phase`: ``"bid"``, ``"play"`` or
    ``"over"``) are plain attributes: read them, never assign them.  ``trump``
    and ``trump_card`` are plain attributes too, but raw: ``-1`` for no trump
    (the engine's inner sentinel, kept for the fast paths and existing
    callers); across layers use :attr:`trump_suit` and :attr:`turned_card`,
    which give ``None``, as every view, record and protocol does.  Seats are
    0-based everywhere; the rest of the state is read through the documented
    properties and methods below (the read interface that views, records and
    front ends use), never through the ``_`` attributes.

    :param rules: the rules (default: ``Rules()``, the standard game for 4).
    :param seed: an ``int`` or ``str`` the deals are drawn from (see
        :mod:`ohhell.dealing`); ``None`` draws them from the OS's CSPRNG.
    :param dealer: the first dealer; ``None`` draws it from the seed.
    :param names: the players' names (default ``Seat 1`` ... from
        :func:`ohhell.text.seat_label`); ``game.names`` is a tuple.
    :raises RulesError: for a bad dealer, names or seed.
    """

    __slots__ = ("rules", "seed", "names", "_n", "_next", "_hook", "_simul", "_must_trump",
                 "_index", "dealer", "hand_size", "trump", "trump_card", "_hands", "_deal",
                 "phase", "to_act", "_bids", "_nbids", "_bidsum", "_won", "_trick", "_leader",
                 "_led", "_best", "_winner", "_tricks", "_past", "_totals", "_bid_order", "_given",
                 "_keys", "_first_dealer", "is_over")

    # The slots' types (the private ones are this class's own business).
    rules: Rules
    seed: "int | str | None"
    names: tuple[str, ...]
    dealer: int
    hand_size: int
    trump: int
    trump_card: int
    phase: Phase
    to_act: Any          # int, or None once the game is over (Any keeps the hot path unguarded)
    is_over: bool
    _hands: list[int]
    _deal: tuple[int, ...]
    _bids: list[Any]     # int, or None for a seat that has not bid
    _bid_order: list[int]
    _trick: list[Card]
    _tricks: list[Trick]
    _past: list[HandRecord]
    _totals: list[int]
    _won: list[int]
    _given: "dict[int, tuple[tuple[int, ...], int]]"

    def __init__(self, rules: "Rules | None" = None, seed: "int | str | None" = None, *,
                 dealer: "int | None" = None, names: "Sequence[str] | None" = None,
                 _given: "dict[int, tuple[tuple[int, ...], int]] | None" = None) -> None:
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise RulesError(f"rules must be a Rules object, not {type(rules).__name__}")
        n = rules.players
        if seed is not None and seed.__class__ is not int and seed.__class__ is not str:
            raise RulesError(f"a seed is an int or a str, not {type(seed).__name__}")
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)
                                   or not 0 <= dealer < n):
            raise RulesError(f"dealer must be a seat from 0 to {n - 1}, not {show(dealer)}")
        if names is None:
            names = _DEFAULT_NAMES[n]
        else:
            if isinstance(names, (str, bytes)) or not hasattr(names, "__iter__"):
                raise RulesError(f"names must be a list of {n} names, not {show(names)}")
            names = tuple(str(x) for x in names)
            if len(names) != n:
                raise RulesError(f"{len(names)} names given for {n} players")
        self.rules = rules
        self.seed = seed
        self.names = names
        self._n = n
        self._next = _NEXT[n]
        self._hook = rules.hook
        self._simul = rules.simultaneous_bidding
        self._must_trump = rules.must_trump
        self._given = _given or _NO_GIVEN
        if seed is not None:
            try:
                # Hand 0's key, made now: this checks up front that the seed can be used.
                self._keys: list[bytes] = [dealing.hand_key(seed, 0)]
            except (ValueError, UnicodeError) as e:
                raise RulesError(f"unusable seed {show(seed)}: {e}") from None
            if dealer is None:
                dealer = dealing.dealer_from_key(self._keys[0], n)
        else:
            self._keys = []
            if dealer is None:
                dealer = dealing.first_dealer(None, n)
        self._first_dealer = dealer
        self._past: list[HandRecord] = []
        self._totals = [0] * n
        self._start_hand(0, dealer)

    # --- construction ---------------------------------------------------------------------

    @classmethod
    def from_deal(cls, rules: Rules, dealer: int, deal: Sequence[Sequence["str | int"]],
                  trump_card: "str | int | None" = None, *, seed: "int | str | None" = None,
                  names: "Sequence[str] | None" = None) -> "Game":
        """A game whose first hand is dealt from given cards.

        ``deal[s]`` lists seat ``s``'s cards; ``trump_card`` is the turned card
        (``None`` when the rules give that hand no trump).  Later hands, if the
        rules have any, are dealt from ``seed`` (or the CSPRNG).

        :raises RulesError: when the cards do not fit the rules (with why).
        """
        if not isinstance(rules, Rules):
            raise RulesError(f"rules must be a Rules object, not {type(rules).__name__}")
        return cls.from_deals(rules, {0: (deal, trump_card)}, seed=seed, dealer=dealer, names=names)

    @classmethod
    def from_deals(cls, rules: Rules, deals: Mapping[int, tuple[Sequence[Any], "str | int | None"]], *,
                   seed: "int | str | None" = None, dealer: "int | None" = None,
                   names: "Sequence[str] | None" = None) -> "Game":
        """A game whose hands ``k in deals`` are dealt from given cards.

        ``deals[k]`` is ``(deal, trump_card)`` for hand ``k`` (0-based), as
        :func:`check_deal` takes them (each seat's cards as a list, text or a
        52-bit mask).  The other hands are dealt from ``seed`` (or the CSPRNG).
        This is how a record is replayed (:mod:`ohhell.records`).

        :raises RulesError: when some cards do not fit the rules (with why).
        """
        if not isinstance(rules, Rules):
            raise RulesError(f"rules must be a Rules object, not {type(rules).__name__}")
        given = {}
        for k, (deal, trump_card) in deals.items():
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < rules.hand_count:
                raise RulesError(f"no hand {show(k)}: hands are 0 to {rules.hand_count - 1}")
            masks, t = check_deal(rules, k, deal, trump_card)
            given[k] = (masks, -1 if t is None else int(t))
        return cls(rules, seed, dealer=dealer, names=names, _given=given)

    def copy(self) -> "Game":
        """An independent copy (cheap: finished hands are shared, being immutable)."""
        g = object.__new__(Game)
        g.rules = self.rules
        g.seed = self.seed
        g.names = self.names
        g._n = self._n
        g._next = self._next
        g._hook = self._hook
        g._simul = self._simul
        g._must_trump = self._must_trump
        g._index = self._index
        g.dealer = self.dealer
        g.hand_size = self.hand_size
        g.trump = self.trump
        g.trump_card = self.trump_card
        g._hands = self._hands[:]
        g._deal = self._deal
        g.phase = self.phase
        g.to_act = self.to_act
        g._bids = self._bids[:]
        g._nbids = self._nbids
        g._bidsum = self._bidsum
        g._won = self._won[:]
        g._trick = self._trick[:]
        g._leader = self._leader
        g._led = self._led
        g._best = self._best
        g._winner = self._winner
        g._tricks = self._tricks[:]
        g._past = self._past[:]
        g._totals = self._totals[:]
        g._bid_order = self._bid_order[:]
        g._given = self._given
        g._keys = self._keys   # shared: keys are only appended, so copies deal alike
        g._first_dealer = self._first_dealer
        g.is_over = self.is_over
        return g

    __copy__ = copy

    # --- dealing --------------------------------------------------------------------------

    def _hand_key(self, k: int) -> bytes:
        keys = self._keys
        while len(keys) <= k:
            keys.append(dealing.random_hand_key() if self.seed is None
                        else dealing.hand_key(self.seed, len(keys)))
        return keys[k]

    def _start_hand(self, k: int, dealer: int) -> None:
        rules = self.rules
        n = self._n
        size = rules.hand_sizes[k]
        given = self._given.get(k)
        if given is not None:
            hands, trump_card = list(given[0]), given[1]
        else:
            keys = self._keys
            hands, trump_card = dealing.deal_from_key(keys[k] if k < len(keys) else self._hand_key(k),
                                                      n, size, dealer, rules.has_trump(k))
        self._index = k
        self.dealer = dealer
        self.hand_size = size
        self.trump_card = trump_card
        self.trump = trump_card // 13 if trump_card >= 0 else -1
        self._hands = hands
        self._deal = tuple(hands)
        self._bids = [None] * n
        self._bid_order = []
        self._nbids = 0
        self._bidsum = 0
        self._won = [0] * n
        self._trick = []
        self._leader = self._next[dealer]
        self._led = -1
        self._best = -1
        self._winner = -1
        self._tricks = []
        self.phase = BID
        self.is_over = False
        self.to_act = self._next[dealer]

    def hand_key(self, hand_index: "int | None" = None) -> "bytes | None":
        """The key that dealt a hand (``None`` for a hand dealt from given cards)."""
        k = self._index if hand_index is None else hand_index
        if k in self._given:
            return None
        return self._hand_key(k)

    # --- the hot path ---------------------------------------------------------------------

    def legal_actions(self, seat: "int | None" = None) -> tuple[Action, ...]:
        """The actions open to ``seat`` (default: :attr:`to_act`), as a tuple.

        During simultaneous bidding every seat that has not bid may act; any
        other seat gets an empty tuple.
        """
        p = self.to_act
        if seat is not None and (seat != p or seat.__class__ is not int):
            if seat.__class__ is int and self.phase is BID and self._simul and 0 <= seat < self._n \
                    and self._bids[seat] is None:
                return _BIDS_UPTO[self.hand_size]
            return ()
        phase = self.phase
        # The phase is always one of the three Phase members, so `is` tests it (faster than ==).
        if phase is PLAY:
            # rule home: ohhell.tricks.legal_mask (inlined on rank-mask tables for speed)
            hand = self._hands[p]
            if self._trick:
                led = self._led
                m = (hand >> _SHIFT[led]) & 8191
                if m:
                    return _SUIT_PLAYS[led][m]
                if self._must_trump and self.trump >= 0:
                    m = (hand >> (13 * self.trump)) & 8191
                    if m:
                        return _SUIT_PLAYS[self.trump][m]
            return (_P0[hand & 8191] + _P1[(hand >> 13) & 8191] + _P2[(hand >> 26) & 8191]
                    + _P3[hand >> 39])
        if phase is BID:
            # rule home: ohhell.tricks.hook_bid
            h = self.hand_size
            if self._hook and self._nbids == self._n - 1:
                x = h - self._bidsum
                if 0 <= x <= h:
                    return _HOOK_BIDS[h][x]
            return _BIDS_UPTO[h]
        return ()

    def apply(self, action: Action, seat: "int | None" = None) -> None:
        """Apply a bid or a play for ``seat`` (default: :attr:`to_act`).

        A string or int is parsed first (``"QS"``, ``"bid 2"``, ``2``).

        :raises IllegalActionError: when the rules do not allow the action now
            (the message says why); the game is then unchanged.
        """
        p = self.to_act
        if seat is not None and (seat != p or seat.__class__ is not int):
            if seat.__class__ is int and self.phase is BID and self._simul and 0 <= seat < self._n \
                    and self._bids[seat] is None:
                p = seat
            else:
                raise self._rejection(action, seat)
        if action.__class__ is Play and self.phase is PLAY:
            bit = action.bit
            hands = self._hands
            hand = hands[p]
            if not hand & bit:
                raise self._rejection(action, p)
            trick = self._trick
            # rule homes: ohhell.tricks.legal_mask and ohhell.tricks.strength (inlined for speed)
            if trick:
                suit = action.suit
                led = self._led
                if suit == led:
                    st = action.rank + (26 if suit == self.trump else 13)
                else:
                    if hand & SUIT_MASKS[led] or (self._must_trump and self.trump >= 0
                                                  and hand & SUIT_MASKS[self.trump]
                                                  and suit != self.trump):
                        raise self._rejection(action, p)
                    st = 26 + action.rank if suit == self.trump else -1
                hands[p] = hand ^ bit
                if st > self._best:
                    self._best = st
                    self._winner = p
                trick.append(action.card)
                if len(trick) == self._n:
                    self._end_trick()
                else:
                    self.to_act = self._next[p]
                return
            hands[p] = hand ^ bit
            suit = action.suit
            self._led = suit
            self._leader = p
            self._winner = p
            self._best = action.rank + (26 if suit == self.trump else 13)
            trick.append(action.card)
            self.to_act = self._next[p]
            return
        if self.phase is BID and action.__class__ is Bid:
            b = action.tricks
            h = self.hand_size
            # rule home: ohhell.tricks.hook_bid (b == h - bidsum, inlined)
            if b > h or (self._hook and self._nbids == self._n - 1 and self._bidsum + b == h):
                raise self._rejection(action, p)
            self._bids[p] = b
            self._bid_order.append(p)
            self._nbids += 1
            self._bidsum += b
            if self._nbids == self._n:
                self.phase = PLAY
                self.to_act = self._leader
            elif self._simul:
                self.to_act = self._first_unbid()
            else:
                self.to_act = self._next[p]
            return
        if not isinstance(action, Action):
            try:
                parsed = parse_action(action)
            except OhHellError:
                raise IllegalActionError(f"not an action: {show(action)}", seat=p, action=action,
                                         code="not_an_action") from None
            return self.apply(parsed, p if seat is not None else None)
        raise self._rejection(action, p)

    def _first_unbid(self) -> int:
        s = self._next[self.dealer]
        bids = self._bids
        while bids[s] is not None:
            s = self._next[s]
        return s

    def _end_trick(self) -> None:
        w = self._winner
        self._won[w] += 1
        tricks = self._tricks
        tricks.append(_new_trick(Trick, (self._leader, tuple(self._trick), w)))
        self._trick = []
        if len(tricks) == self.hand_size:
            self._end_hand()
        else:
            self.to_act = self._leader = w

    def _end_hand(self) -> None:
        rules = self.rules
        h = self.hand_size
        scores = hand_scores(self._bids, self._won, h, rules)
        self._past.append(_new_trick(HandRecord, (
            self._index, self.dealer, h, self._deal,
            CARDS[self.trump_card] if self.trump_card >= 0 else None, tuple(self._bids),
            tuple(self._tricks), tuple(self._won), scores, tuple(self._bid_order))))
        totals = self._totals
        for s in range(self._n):
            totals[s] += scores[s]
        if self._index + 1 < len(rules.hand_sizes):
            self._start_hand(self._index + 1, self._next[self.dealer])
        else:
            self.phase = OVER
            self.is_over = True
            self.to_act = None
            self._trick = []
            self._tricks = []

    # --- checking without applying --------------------------------------------------------

    def is_legal(self, action: Action, seat: "int | None" = None) -> bool:
        """Whether :meth:`apply` would accept ``action`` for ``seat`` (text is parsed as there)."""
        if not isinstance(action, Action):
            try:
                action = parse_action(action)
            except OhHellError:
                return False
        return action in self.legal_actions(seat)

    def check(self, action: Action, seat: "int | None" = None) -> None:
        """Raise the error :meth:`apply` would raise for ``action``, or return quietly.

        :raises IllegalActionError: when the action is illegal (with why).
        """
        if not isinstance(action, Action):
            try:
                action = parse_action(action)
            except OhHellError:
                raise IllegalActionError(f"not an action: {show(action)}", seat=seat, action=action,
                                         code="not_an_action") from None
        p = self.to_act if seat is None else seat
        if not self.is_legal(action, seat):
            raise self._rejection(action, p)

    def _rejection(self, action: object, seat: object) -> IllegalActionError:
        """The error for an action that is not legal for ``seat``: say exactly why
        (the wording and the rule live in :func:`ohhell.tricks.rejection`)."""
        ok = seat.__class__ is int and 0 <= seat < self._n
        s: int = seat if ok else 0  # type: ignore[assignment]
        return rejection(action, seat, players=self._n, phase=self.phase, to_act=self.to_act,
                         has_bid=ok and self._bids[s] is not None, simultaneous=self._simul,
                         hand_size=self.hand_size, forbidden=self.forbidden_bid(s) if ok else None,
                         hand=self._hands[s] if ok else 0,
                         led=self._led if self._trick else None, trump=self.trump_suit,
                         must_trump=self._must_trump)

    def forbidden_bid(self, seat: "int | None" = None) -> "int | None":
        """The bid the hook forbids ``seat`` (default: :attr:`to_act`) now, or ``None``.

        Only the last seat to bid, the dealer, is ever hooked (the hook does not
        combine with simultaneous bidding); see :func:`ohhell.tricks.hook_bid`.
        """
        s = self.to_act if seat is None else seat
        if (not self._hook or self.phase != BID or self._nbids != self._n - 1 or s is None
                or self._bids[s] is not None):
            return None
        return hook_bid(self.hand_size, self._bidsum)

    # --- undo -----------------------------------------------------------------------------

    def undo(self) -> Action:
        """Take back the last action and return it.

        :raises OhHellError: when no action has been applied.
        """
        if self.phase == OVER or (self.phase == BID and self._nbids == 0):
            if not self._past:
                raise OhHellError("nothing to undo: no action has been applied")
            # The last action was the card that ended the previous hand.
            self._reopen_hand(self._past.pop())
        elif self.phase == BID or not (self._trick or self._tricks):
            seat = self._bid_order.pop()
            b = self._bids[seat]
            self._bids[seat] = None
            self._nbids -= 1
            self._bidsum -= b
            self.phase = BID
            self.to_act = self._first_unbid() if self._simul else seat
            return BIDS[b]
        if not self._trick:
            # The last card completed a trick: open it again.
            last = self._tricks.pop()
            assert last.winner is not None   # a finished trick has its winner
            self._won[last.winner] -= 1
            self._trick = list(last.cards)
            self._leader = last.leader
        seat = (self._leader + len(self._trick) - 1) % self._n
        card = self._trick.pop()
        self._hands[seat] |= 1 << card
        self._rescan_trick()
        self.to_act = seat
        return PLAYS[card]

    def _reopen_hand(self, hr: HandRecord) -> None:
        """Restore a finished hand as it was after its last card, before scoring."""
        for s in range(self._n):
            self._totals[s] -= hr.scores[s]
        self._index = hr.index
        self.dealer = hr.dealer
        self.hand_size = hr.hand_size
        self.trump_card = -1 if hr.trump_card is None else int(hr.trump_card)
        self.trump = self.trump_card // 13 if self.trump_card >= 0 else -1
        self._deal = hr.deal
        self._hands = [0] * self._n
        self._bids = list(hr.bids)
        self._bid_order = list(hr.order)
        self._nbids = self._n
        self._bidsum = sum(hr.bids)
        self._won = list(hr.tricks_won)
        self._tricks = list(hr.tricks)
        self._trick = []
        self.phase = PLAY
        self.is_over = False

    def _rescan_trick(self) -> None:
        """Recompute the led suit and the winner so far of the current trick."""
        self._led, self._best, self._winner = trick_state(self._trick, self._leader, self.trump, self._n)

    # --- reading the state ----------------------------------------------------------------

    @property
    def players(self) -> int:
        """The number of players."""
        return self._n

    @property
    def phase_name(self) -> str:
        """``'bid'``, ``'play'`` or ``'over'`` as a plain ``str`` (:attr:`phase` is the same
        value as a :class:`~ohhell.state.Phase`)."""
        return self.phase.value

    @property
    def hand_index(self) -> int:
        """The current hand, 0-based (the last hand once the game is over)."""
        return self._index

    @property
    def hand_count(self) -> int:
        """The number of hands in the game."""
        return len(self.rules.hand_sizes)

    @property
    def trump_suit(self) -> "int | None":
        """The current hand's trump suit (0..3), or ``None`` for no trump."""
        return self.trump if self.trump >= 0 else None

    @property
    def turned_card(self) -> "Card | None":
        """The current hand's turned trump card, or ``None``."""
        return CARDS[self.trump_card] if self.trump_card >= 0 else None

    @property
    def bids_revealed(self) -> bool:
        """Whether every seat may see every bid made: always, except during
        simultaneous bidding until the last bid is in."""
        return not self._simul or self._nbids == self._n or self.phase != BID

    @property
    def bids(self) -> tuple:
        """This hand's bids by seat (``None`` for not yet); the full truth, unredacted."""
        return tuple(self._bids)

    @property
    def bid_total(self) -> int:
        """The sum of the bids made so far this hand."""
        return self._bidsum

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks won this hand by seat."""
        return tuple(self._won)

    @property
    def totals(self) -> tuple[int, ...]:
        """Total scores so far."""
        return tuple(self._totals)

    @property
    def past_hands(self) -> tuple[HandRecord, ...]:
        """The finished hands, in order."""
        return tuple(self._past)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """This hand's finished tricks."""
        return tuple(self._tricks)

    @property
    def current_trick(self) -> Trick:
        """The trick being played (``winner`` is ``None``); empty before its lead."""
        return Trick(self._leader, tuple(CARDS[c] for c in self._trick), None)

    @property
    def trick_winner_so_far(self) -> "int | None":
        """The seat winning the current trick so far, or ``None`` before the lead."""
        return self._winner if self._trick else None

    @property
    def seats_to_act(self) -> list[int]:
        """The seats that may act now: during simultaneous bidding every seat still to bid,
        otherwise :attr:`to_act` alone; ``[]`` once the game is over."""
        if self.phase == BID and self._simul:
            bids = self._bids
            return [s for s in range(self._n) if bids[s] is None]
        return [] if self.phase == OVER else [self.to_act]

    @property
    def winners(self) -> list[int]:
        """The seats with the highest total once the game is over (ties share), else ``[]``."""
        return winners(self._totals) if self.phase == OVER else []

    @property
    def action_count(self) -> int:
        """How many actions have been applied in the whole game."""
        n = self._n
        done = sum(n + n * h.hand_size for h in self._past)
        if self.phase == OVER:
            return done
        return done + self._nbids + n * len(self._tricks) + len(self._trick)

    def hand(self, seat: int) -> list[Card]:
        """The cards seat ``seat`` holds now (the full truth)."""
        return mask_to_cards(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        """The cards seat ``seat`` holds now, as a mask."""
        return self._hands[seat]

    @property
    def deal(self) -> tuple[int, ...]:
        """The current hand's deal as masks (as dealt, before any card was played)."""
        return self._deal

    def actions(self) -> Iterator[tuple[int, Action]]:
        """Every ``(seat, action)`` applied so far, in order."""
        for hr in self._past:
            yield from _hand_actions(hr.order, hr.bids, hr.tricks, self._n)
        if self.phase == OVER:
            return
        yield from _hand_actions(self._bid_order, self._bids,
                                 self._tricks + ([Trick(self._leader, tuple(self._trick), None)]
                                                 if self._trick else []), self._n)

    def bid_table(self, viewer: "int | None" = None) -> list[dict]:
        """Who bid what and has won how many, one row per seat, for a viewer.

        During simultaneous bidding a viewer sees only their own bid until all
        are in; ``viewer=None`` sees what everyone sees (no bid before the reveal).
        """
        return bid_table_rows(self, viewer)

    def view(self, seat: int) -> View:
        """What seat ``seat`` may know, nothing more (a :class:`~ohhell.view.View`).

        :raises ValueError: for a seat that does not exist.
        """
        return View.of(self, seat)

    def spectator_view(self) -> View:
        """What a spectator may know: no hand, no hidden bid."""
        return View.of(self, None)

    # --- records ----------------------------------------------------------------------------

    def record(self) -> dict:
        """The game record (docs/interfaces.md §1) as a dict."""
        from .records import game_to_record   # records builds games: imported on use
        return game_to_record(self)

    @classmethod
    def from_record(cls, record: "dict | str") -> "Game":
        """Replay and verify a record (a dict, or its JSON text).

        :raises RecordError: naming the hand and trick of the first problem.
        """
        from .records import game_from_record
        return game_from_record(record)

    def fingerprint(self) -> tuple:
        """A value that is equal for two games exactly when their states are equal.

        It includes the order of the bids (which :meth:`undo` needs), so two
        games whose simultaneous bids came in different orders differ.
        """
        return (self.rules, self.seed, tuple(self.names), self._index, self.dealer, self.phase,
                self.to_act, tuple(self._hands), self._deal, self.trump_card, tuple(self._bids),
                tuple(self._won), tuple(self._trick), self._leader, self._winner if self._trick else -1,
                tuple(self._tricks), tuple(self._totals), tuple(self._bid_order),
                tuple((h.index, h.dealer, h.deal, h.trump_card, h.bids, h.tricks, h.scores, h.order)
                      for h in self._past))

    def __repr__(self) -> str:
        where = "over" if self.phase == OVER else (
            f"hand {self._index + 1}/{self.hand_count}, {self.phase.value}, seat {self.to_act} to act")
        return f"<Game {self.rules.players} players, {where}, totals {list(self._totals)}>"

    def __str__(self) -> str:
        return render_game(self)


def _hand_actions(order, bids, tricks, n) -> Iterator[tuple[int, Action]]:
    for s in order:
        yield s, BIDS[bids[s]]
    for t in tricks:
        for i, c in enumerate(t.cards):
            yield (t.leader + i) % n, PLAYS[c]


def check_deal(rules: Rules, k: int, deal: Sequence[Any],
               trump_card: "str | int | None") -> tuple[tuple[int, ...], "Card | None"]:
    """Check a given deal for hand ``k`` (0-based) against the rules.

    ``deal[s]`` is seat ``s``'s cards: a list of cards (names or numbers), the
    names in one string, or a 52-bit mask.  ``trump_card`` is the turned card,
    ``None`` exactly when the rules turn none for this hand.  Returns
    ``(masks, trump card or None)``.

    :raises RulesError: saying what does not fit (or :class:`CardError` for a bad card name).
    """
    n = rules.players
    h = rules.hand_sizes[k]
    if isinstance(deal, (str, bytes)) or not hasattr(deal, "__len__"):
        raise RulesError(f"a deal is a list of {n} hands, not {show(deal)}")
    if len(deal) != n:
        raise RulesError(f"the deal has {len(deal)} hands for {n} players")
    masks = []
    seen = 0
    for s, cards in enumerate(deal):
        if cards.__class__ is int:
            cards = mask_to_cards(cards) if 0 <= cards < 1 << 52 else [cards]
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        if not hasattr(cards, "__iter__"):
            raise RulesError(f"seat {s}'s cards must be a list of cards, not {show(cards)}")
        cs = [parse_card(c) for c in cards]
        if len(cs) != h:
            raise RulesError(f"seat {s} is dealt {len(cs)} cards; this hand deals {h} each")
        m = 0
        for c in cs:
            if (seen | m) >> c & 1:
                raise RulesError(f"card {c} is dealt twice")
            m |= 1 << c
        masks.append(m)
        seen |= m
    if rules.has_trump(k):
        if trump_card is None:
            raise RulesError(f"hand {k + 1} turns a trump card under these rules; give trump_card")
        t = parse_card(trump_card)
        if seen >> t & 1:
            raise RulesError(f"the trump card {t} is also dealt to a player")
        return tuple(masks), t
    if trump_card is not None:
        why = ("the deal uses the whole deck" if h * n >= 52 else
               f"no_trump={rules.no_trump!r} gives hand {k + 1} no trump")
        raise RulesError(f"hand {k + 1} has no trump card ({why}), but trump_card {show(trump_card)} was given")
    return tuple(masks), None

