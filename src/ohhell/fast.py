"""The fast path for bots and analysis: one hand on bitmasks, no action objects.

:class:`Game` is exact and checks every action; search bots want something
leaner once they have a full deal (a real one or a sampled one).  This module
gives them:

* :class:`HandState`: the rest of one hand (hands as 52-bit masks, the current
  trick, tricks won) with ``legal_mask``, ``play`` (no checks), ``copy`` and
  ``undo``-free cloning; built from a :class:`~ohhell.game.Game` or from a
  :class:`~ohhell.view.View` plus guessed hidden hands;
* :func:`random_playout`: finishes a hand with uniformly random legal cards in
  one tight loop and returns the tricks won;
* :func:`random_hands`: whole random hands (deal, bids, play) for throughput
  measurements against OpenSpiel's C++ loop.

Cards are the core's ints (``suit * 13 + rank``).  At this module's boundary
no trump is ``None`` as everywhere (``HandState(trump=None)``); inside, for
speed, :attr:`HandState.trump` and the loops hold ``-1`` instead.  The play
rules are the engine's, and their one home is :mod:`ohhell.tricks`: follow
suit if able; under ``must_trump``, a player who cannot follow must trump if
able (:func:`ohhell.tricks.legal_mask`); the highest trump wins, else the
highest card of the led suit (:func:`ohhell.tricks.strength`).  The copies
inlined here for speed are tested against those homes in
``tests/core/test_rule_homes.py``.

>>> import ohhell, random
>>> g = ohhell.Game.from_deal(ohhell.Rules.preset("openspiel", players=4, tricks=2), dealer=1,
...     deal=[["QS", "2H"], ["AD", "3D"], ["7C", "8C"], ["KH", "4S"]], trump_card="5D")
>>> for b in (0, 1, 0, 0): g.apply(ohhell.Bid(b))
>>> s = HandState.from_game(g)
>>> s.to_act, [str(ohhell.CARDS[c]) for c in s.legal_cards()]
(2, ['7C', '8C'])
>>> sum(random_playout(s.copy(), random.Random(1).random))
2
"""

from __future__ import annotations

import random as _random
from typing import TYPE_CHECKING, Callable, Sequence

from .cards import card_numbers
from .tricks import hook_bid, strength

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game
    from .view import View

__all__ = ["HandState", "random_playout", "random_hands", "trick_strength", "lowest", "highest"]

_SUIT = tuple(c // 13 for c in range(52))
_RANK = tuple(c % 13 for c in range(52))
_SUIT_MASK = tuple(0x1FFF << (13 * s) for s in range(4))
_NEXT = tuple(tuple((s + 1) % n for s in range(n)) if n else () for n in range(8))


#: How strongly a card stands in a trick (``trick_strength(card, led, trump)``): the
#: rule's home, :func:`ohhell.tricks.strength`, under the name this module always had.
trick_strength = strength


def lowest(mask: int) -> int:
    """The lowest card in a non-empty mask (clubs 2 is lowest)."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """The highest-numbered card in a non-empty mask."""
    return mask.bit_length() - 1


class HandState:
    """The rest of one hand, on bitmasks, for search.

    ``hands[s]`` is seat ``s``'s cards (a mask), ``trick`` the cards of the
    current trick in play order from ``leader``, ``won[s]`` the tricks seat
    ``s`` has won, ``bids`` the bids (``None`` entries allowed for analysis),
    ``to_act`` the seat to play.  :meth:`play` trusts its caller: pass only
    cards from :meth:`legal_mask`.  ``trump`` is given as a suit or ``None``;
    the attribute holds ``-1`` for no trump (the inner loops' sentinel).
    """

    __slots__ = ("n", "hands", "trump", "must_trump", "hand_size", "bids", "won", "trick",
                 "leader", "led", "best", "winner", "to_act", "tricks_left", "played")

    def __init__(self, hands: Sequence[int], trump: "int | None", leader: int, *, hand_size: int,
                 bids: "Sequence[int | None] | None" = None, won: "Sequence[int] | None" = None,
                 trick: Sequence[int] = (), must_trump: bool = False, played: int = 0) -> None:
        n = len(hands)
        self.n = n
        self.hands = list(hands)
        self.trump: int = -1 if trump is None else trump
        self.must_trump = must_trump
        self.hand_size = hand_size
        self.bids: list[int | None] = list(bids) if bids is not None else [None] * n
        self.won = list(won) if won is not None else [0] * n
        self.trick: list[int] = []
        self.leader = leader
        self.led = -1
        self.best = -1
        self.winner = leader
        self.to_act = leader
        self.played = played
        done = sum(self.won)
        self.tricks_left = hand_size - done
        hands_copy = self.hands
        for c in trick:
            # Re-play the current trick's cards (their holders no longer hold them).
            hands_copy[self.to_act] |= 1 << c
            self.play(c)

    @classmethod
    def from_game(cls, game: "Game") -> "HandState":
        """The current hand of a game in the play phase (the full truth)."""
        if game.phase_name != "play":
            raise ValueError("HandState needs a hand in its play phase")
        hands = [game.hand_mask(s) for s in range(game.players)]
        return cls(hands, game.trump_suit, game.current_trick.leader, hand_size=game.hand_size,
                   bids=game.bids, won=game.tricks_won, trick=[int(c) for c in game.current_trick.cards],
                   must_trump=game.rules.must_trump, played=_played(game.tricks, game.current_trick.cards))

    @classmethod
    def from_view(cls, view: "View", others: Sequence[int]) -> "HandState":
        """A hand from a view plus a guess of the hidden hands.

        ``others[s]`` is the mask guessed for seat ``s`` (ignored for the
        view's own seat, whose real hand is used).
        """
        if view.seat is None:
            raise ValueError("HandState.from_view needs a seat's view, not a spectator's")
        hands = list(others)
        hands[view.seat] = view.hand_mask
        bids = [b for b in view.bids]
        return cls(hands, view.trump, view.trick.leader,
                   hand_size=view.hand_size, bids=bids, won=view.tricks_won,
                   trick=[int(c) for c in view.trick.cards], must_trump=view.rules.must_trump,
                   played=view.played_mask & ~_mask(view.trick.cards))

    def copy(self) -> "HandState":
        """An independent copy."""
        s = object.__new__(HandState)
        s.n = self.n
        s.hands = self.hands[:]
        s.trump = self.trump
        s.must_trump = self.must_trump
        s.hand_size = self.hand_size
        s.bids = self.bids
        s.won = self.won[:]
        s.trick = self.trick[:]
        s.leader = self.leader
        s.led = self.led
        s.best = self.best
        s.winner = self.winner
        s.to_act = self.to_act
        s.tricks_left = self.tricks_left
        s.played = self.played
        return s

    @property
    def is_over(self) -> bool:
        """Whether every trick of the hand has been played."""
        return self.tricks_left == 0

    def legal_mask(self) -> int:
        """The cards ``to_act`` may play, as a mask."""
        # rule home: ohhell.tricks.legal_mask (inlined for speed)
        hand = self.hands[self.to_act]
        if self.trick:
            m = hand & _SUIT_MASK[self.led]
            if m:
                return m
            if self.must_trump and self.trump >= 0:
                m = hand & _SUIT_MASK[self.trump]
                if m:
                    return m
        return hand

    def legal_cards(self) -> list[int]:
        """The cards ``to_act`` may play, lowest first."""
        return card_numbers(self.legal_mask())

    def play(self, card: int) -> "int | None":
        """Play ``card`` for ``to_act``; returns the trick's winner when it completes it."""
        p = self.to_act
        self.hands[p] ^= 1 << card
        self.played |= 1 << card
        trick = self.trick
        s = _SUIT[card]
        # rule home: ohhell.tricks.strength (inlined for speed)
        if trick:
            st = 26 + _RANK[card] if s == self.trump else (13 + _RANK[card] if s == self.led else -1)
            if st > self.best:
                self.best = st
                self.winner = p
        else:
            self.led = s
            self.leader = p
            self.winner = p
            self.best = 26 + _RANK[card] if s == self.trump else 13 + _RANK[card]
        trick.append(card)
        if len(trick) == self.n:
            w = self.winner
            self.won[w] += 1
            self.tricks_left -= 1
            self.trick = []
            self.to_act = w
            self.leader = w
            return w
        self.to_act = _NEXT[self.n][p]
        return None

    def winning_so_far(self) -> "int | None":
        """The seat winning the current trick so far (``None`` before the lead)."""
        return self.winner if self.trick else None

    def __repr__(self) -> str:
        from .cards import format_hand
        hands = "; ".join(f"{s}: {format_hand(m)}" for s, m in enumerate(self.hands))
        return f"<HandState to_act {self.to_act}, trick {self.trick}, won {self.won}, {hands}>"


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _played(tricks, current) -> int:
    m = _mask(current)
    for t in tricks:
        m |= _mask(t.cards)
    return m


def random_playout(state: HandState, rand: Callable[[], float]) -> list[int]:
    """Finish ``state``'s hand with uniformly random legal cards; return tricks won.

    ``rand`` is a ``random.Random().random``-like function.  ``state`` is
    consumed (pass a copy to keep it).
    """
    trump = state.trump
    p = _play_at_random(state.hands, state.won, state.n, trump, state.must_trump and trump >= 0,
                        state.to_act, len(state.trick), state.led, state.best, state.winner,
                        state.tricks_left, rand)
    state.tricks_left = 0
    state.trick = []
    state.to_act = p
    return state.won


def _play_at_random(hands: list, won: list, n: int, trump: int, must: bool, p: int, trick_len: int,
                    led: int, best: int, winner: int, left: int, rand: Callable[[], float]) -> int:
    """The playout loop shared by :func:`random_playout` and :func:`random_hands`.

    Plays ``left`` more tricks from a trick with ``trick_len`` cards down
    (``led``, ``best`` and ``winner`` describe it), updating ``hands`` and
    ``won`` in place; returns the seat to act afterwards.  All state lives in
    locals, which is what makes it fast.
    """
    # rule homes: ohhell.tricks.legal_mask and ohhell.tricks.strength (inlined: all in locals)
    nxt = _NEXT[n]
    tmask = _SUIT_MASK[trump] if trump >= 0 else 0
    while left:
        hand = hands[p]
        if trick_len:
            m = hand & _SUIT_MASK[led]
            if not m:
                m = hand & tmask if must and hand & tmask else hand
        else:
            m = hand
        k = int(rand() * m.bit_count())
        while k:
            m &= m - 1
            k -= 1
        bit = m & -m
        hands[p] = hand ^ bit
        c = bit.bit_length() - 1
        s = c // 13
        if trick_len:
            st = 26 + c % 13 if s == trump else (13 + c % 13 if s == led else -1)
            if st > best:
                best = st
                winner = p
            trick_len += 1
            if trick_len == n:
                won[winner] += 1
                left -= 1
                trick_len = 0
                p = winner
                continue
        else:
            led = s
            winner = p
            best = 26 + c % 13 if s == trump else 13 + c % 13
            trick_len = 1
        p = nxt[p]
    return p


def random_hands(players: int, hand_size: int, count: int, *, seed: "int | None" = None,
                 hook: bool = True, trump: bool = True, must_trump: bool = False) -> tuple[int, int]:
    """Play ``count`` whole hands at random (deal, bids, cards) on the fast path.

    Returns ``(decisions, total_tricks)``: decisions are bids plus card plays,
    the measure OpenSpiel's throughput is quoted in; the trick total is
    returned so the work cannot be optimised away (it equals
    ``count * hand_size``).
    """
    rng = _random.Random(seed)
    rand = rng.random
    sample = rng.sample
    deck = range(52)
    n = players
    h = hand_size
    dealt = n * h
    nxt = _NEXT[n]
    bid_range = h + 1
    decisions = 0
    tricks_total = 0
    for hand_no in range(count):
        cards = sample(deck, dealt + 1 if dealt < 52 else 52)
        hands = [0] * n
        i = 0
        for c in cards[:dealt]:
            hands[i] |= 1 << c
            i = i + 1 if i + 1 < n else 0
        t = cards[dealt] // 13 if trump and dealt < 52 else -1
        must = must_trump and t >= 0
        dealer = hand_no % n
        # Bids: uniformly random among the legal ones (the dealer under the hook avoids one).
        total = 0
        for j in range(n - 1):
            total += int(rand() * bid_range)
        x = hook_bid(h, total) if hook else None
        if x is not None:
            b = int(rand() * h)
            if b >= x:
                b += 1
        else:
            b = int(rand() * bid_range)
        decisions += n
        # Play.
        won = [0] * n
        _play_at_random(hands, won, n, t, must, nxt[dealer], 0, -1, -1, -1, h, rand)
        decisions += dealt
        tricks_total += sum(won)
    return decisions, tricks_total
