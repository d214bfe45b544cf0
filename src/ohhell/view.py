"""Views: what one seat (or a spectator) may know, redacted in the core.

A :class:`View` holds exactly what its seat is entitled to see: its own hand,
the turned trump card, the bids made so far (during simultaneous bidding only
its own until every bid is in), the tricks so far and the current trick, the
tricks won, the finished hands and the scores.  It never holds another seat's
cards or the undealt stock.  Bots and clients get views, never the game.

>>> import ohhell
>>> g = ohhell.Game(ohhell.Rules(4, hand_sizes=[3, 2]), seed=1, dealer=0)
>>> v = g.view(1)
>>> v.seat, v.hand_size, len(v.hand), v.to_act, v.my_turn
(1, 3, 3, 1, True)
>>> sorted(v.to_dict())[:5]
['bid_status', 'bids', 'bids_revealed', 'dealer', 'hand']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import BIDS, Action, parse_action
from .cards import CARDS, FULL_DECK, Card, mask_to_cards
from .errors import IllegalActionError, OhHellError, show
from .rules import Rules
from .scoring import bid_status
from .state import BID, OVER, HandRecord, Phase, Trick
from .tricks import rejection, trick_winner, voids_shown

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

__all__ = ["View", "bid_table_rows"]


class View:
    """What ``seat`` may know of a game (``seat`` is ``None`` for a spectator).

    Attributes mirror :class:`~ohhell.game.Game` where the information is
    public; ``hand`` is this seat's own cards (empty for a spectator) and
    ``bids`` shows ``None`` for any bid this seat may not see yet.
    :meth:`to_dict` adds ``bid_status``, each seat's standing against its bid
    in the words of :func:`ohhell.scoring.bid_status`.
    """

    __slots__ = ("seat", "rules", "players", "names", "hand_index", "hand_count", "hand_size",
                 "dealer", "trump_card", "trump", "phase", "to_act", "hand_mask", "bids",
                 "has_bid", "bids_revealed", "tricks", "trick", "tricks_won", "past_hands",
                 "totals", "winners", "legal", "played_mask", "played_by", "voids")

    seat: "int | None"
    rules: Rules
    players: int
    names: tuple[str, ...]
    hand_index: int
    hand_count: int
    hand_size: int
    dealer: int
    trump_card: "Card | None"
    trump: "int | None"
    phase: Phase
    to_act: "int | None"
    hand_mask: int
    bids: tuple
    has_bid: tuple[bool, ...]
    bids_revealed: bool
    tricks: tuple[Trick, ...]
    trick: Trick
    tricks_won: tuple[int, ...]
    past_hands: tuple[HandRecord, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    legal: tuple
    played_mask: int
    played_by: tuple[int, ...]
    voids: tuple[int, ...]

    @classmethod
    def of(cls, game: "Game", seat: "int | None") -> "View":
        """The view of ``seat`` (``None``: a spectator) in ``game``.

        :raises ValueError: for a seat that does not exist.
        """
        n = game.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"there is no seat {show(seat)} (seats are 0 to {n - 1})")
        v = object.__new__(cls)
        v.seat = seat
        v.rules = game.rules
        v.players = n
        v.names = tuple(game.names)
        v.hand_index = game.hand_index
        v.hand_count = game.hand_count
        v.hand_size = game.hand_size
        v.dealer = game.dealer
        v.trump_card = game.turned_card
        v.trump = game.trump_suit
        v.phase = game.phase
        v.to_act = game.to_act
        over = game.phase == OVER
        v.hand_mask = game.hand_mask(seat) if seat is not None and not over else 0
        bids = game.bids
        v.has_bid = tuple(b is not None for b in bids)
        revealed = game.bids_revealed
        v.bids_revealed = revealed
        if not revealed:
            bids = tuple(b if s == seat else None for s, b in enumerate(bids))
        v.bids = bids
        v.tricks = game.tricks
        v.trick = game.current_trick
        v.tricks_won = game.tricks_won
        v.past_hands = game.past_hands
        v.totals = game.totals
        v.winners = tuple(game.winners)
        v.legal = game.legal_actions(seat) if seat is not None else ()
        played = 0
        played_by = [0] * n
        for t in v.tricks + ((v.trick,) if v.trick.cards else ()):
            for i, c in enumerate(t.cards):
                played |= 1 << c
                played_by[(t.leader + i) % n] |= 1 << c
        v.played_mask = played
        v.played_by = tuple(played_by)
        v.voids = tuple(voids_shown(((t.leader, t.cards) for t in v.tricks + (v.trick,)), n, v.trump,
                                    v.rules.must_trump))
        return v

    # --- derived -------------------------------------------------------------------------

    @property
    def hand(self) -> tuple[Card, ...]:
        """This seat's cards, clubs 2 first."""
        return tuple(mask_to_cards(self.hand_mask))

    @property
    def my_turn(self) -> bool:
        """Whether this seat may act now."""
        return bool(self.legal)

    @property
    def is_over(self) -> bool:
        """Whether the game is over."""
        return self.phase == "over"

    def legal_actions(self) -> tuple:
        """The actions this seat may take now (empty when it may not act)."""
        return self.legal

    @property
    def unseen_mask(self) -> int:
        """Cards this seat has not seen: not in its hand, not played this hand, not the trump card."""
        seen = self.hand_mask | self.played_mask
        if self.trump_card is not None:
            seen |= 1 << self.trump_card
        return FULL_DECK & ~seen

    def cards_left(self, seat: int) -> int:
        """How many cards ``seat`` still holds this hand."""
        played = len(self.tricks) + (1 if (seat - self.trick.leader) % self.players < len(self.trick.cards)
                                     else 0)
        return self.hand_size - played if self.phase != "over" else 0

    def is_void(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` has shown it holds no card of ``suit`` this hand."""
        return bool(self.voids[seat] >> suit & 1)

    @property
    def bid_total(self) -> int:
        """The total of the bids this seat can see."""
        return sum(b for b in self.bids if b is not None)

    @property
    def scores(self) -> tuple[tuple[int, ...], ...]:
        """The scores of each finished hand."""
        return tuple(h.scores for h in self.past_hands)

    @property
    def trick_winner_so_far(self) -> "int | None":
        """Who is winning the current trick so far (``None`` before the lead)."""
        t = self.trick
        return trick_winner(t.cards, t.leader, self.trump, self.players)

    def rejection(self, action: object) -> "IllegalActionError | None":
        """The error the game would raise if this seat tried ``action`` now (``None``
        when it is legal); see :func:`ohhell.tricks.rejection`.  Everything it
        says is something this seat may know.
        """
        if not isinstance(action, Action):
            try:
                action = parse_action(action)  # type: ignore[arg-type]
            except OhHellError:
                return IllegalActionError(f"not an action: {show(action)}", seat=self.seat, action=action,
                                          code="not_an_action")
        if action in self.legal:
            return None
        seat = self.seat
        forbidden = None
        if seat is not None and self.phase == BID and self.legal:
            # The hook's bid is the one the game left out of this seat's choices.
            missing = [b for b in range(self.hand_size + 1) if BIDS[b] not in self.legal]
            forbidden = missing[0] if missing else None
        t = self.trick
        return rejection(action, seat, players=self.players, phase=self.phase, to_act=self.to_act,
                         has_bid=seat is not None and self.has_bid[seat],
                         simultaneous=self.rules.simultaneous_bidding, hand_size=self.hand_size,
                         forbidden=forbidden, hand=self.hand_mask,
                         led=t.cards[0] // 13 if t.cards else None, trump=self.trump,
                         must_trump=self.rules.must_trump)

    def bid_table(self) -> list[dict]:
        """The bid table as this seat sees it (see :func:`bid_table_rows`)."""
        stage = {"bid": "bidding", "play": "playing"}.get(self.phase, "done")
        return _rows(self.players, self.names, self.bids, self.has_bid, self.tricks_won, self.dealer,
                     self.totals, stage)

    def to_dict(self) -> dict[str, Any]:
        """The view as plain JSON data (what a client is sent)."""
        return {
            "seat": self.seat,
            "players": self.players,
            "names": list(self.names),
            "rules": self.rules.to_dict(),
            "hand_index": self.hand_index,
            "hand_count": self.hand_count,
            "hand_size": self.hand_size,
            "dealer": self.dealer,
            "trump_card": None if self.trump_card is None else str(self.trump_card),
            "phase": str(self.phase),
            "to_act": self.to_act,
            "hand": [str(c) for c in self.hand],
            "bids": list(self.bids),
            "has_bid": list(self.has_bid),
            "bids_revealed": self.bids_revealed,
            "tricks": [_trick_json(t) for t in self.tricks],
            "trick": _trick_json(self.trick),
            "tricks_won": list(self.tricks_won),
            "bid_status": [r["status"] for r in self.bid_table()],
            "past_hands": [_past_json(h) for h in self.past_hands],
            "totals": list(self.totals),
            "winners": list(self.winners),
            "legal": [a.to_json() for a in self.legal],
        }

    def __repr__(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        return (f"<View {who}: hand {self.hand_index + 1}/{self.hand_count}, {self.phase}, "
                f"to act {self.to_act}, hand {' '.join(map(str, self.hand)) or '-'}>")


def _trick_json(t: Trick) -> dict:
    return {"leader": t.leader, "cards": [str(CARDS[c]) for c in t.cards], "winner": t.winner}


def _past_json(h: HandRecord) -> dict:
    return {"dealer": h.dealer, "hand_size": h.hand_size,
            "trump_card": None if h.trump_card is None else str(h.trump_card),
            "bids": list(h.bids), "tricks": [_trick_json(t) for t in h.tricks],
            "tricks_won": list(h.tricks_won), "scores": list(h.scores)}


def _rows(n, names, bids, has_bid, won, dealer, totals, stage) -> list[dict]:
    return [{"seat": s, "name": names[s], "bid": bids[s], "has_bid": has_bid[s], "won": won[s],
             "status": bid_status(bids[s], won[s], stage, hidden=has_bid[s]),
             "dealer": s == dealer, "total": totals[s]} for s in range(n)]


def bid_table_rows(game: "Game", viewer: "int | None") -> list[dict]:
    """The bid table of a game for a viewer: one dict per seat with ``seat``,
    ``name``, ``bid`` (``None`` if not made or not visible), ``has_bid``,
    ``won``, ``status`` (see :func:`ohhell.scoring.bid_status`: ``to bid``,
    ``bid hidden``, ``bid in``, ``needs k``, ``on bid``, ``over by k``, and at
    the end ``made`` or ``under by k``), ``dealer`` and ``total``."""
    v = View.of(game, viewer)
    return v.bid_table()

