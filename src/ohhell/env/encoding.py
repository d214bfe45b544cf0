"""Observation encodings: a seat's view as a fixed-length vector of floats in [0, 1].

Two kinds, both built from :meth:`ohhell.Game.view` (so they can hold nothing
the seat may not know):

* ``"observation"``: the current state as the seat sees it (its hand, the
  trump, the bids it may see, tricks won, the current trick, the cards played
  this hand, the voids shown, the scores).  Markov enough for most agents.
* ``"information_state"``: the observation followed by the whole history the
  seat saw: every trick of the current hand card by card, and for every past
  hand its dealer, trump suit, bids, tricks won and scores.  (The cards of past
  hands say nothing about later deals, since every hand is dealt from a fresh
  shuffle; they remain available in :meth:`View.past_hands`.)

Every seat-indexed slice is *relative*: position 0 is the observing seat,
position 1 the seat to its left (the next to act after it), and so on.

>>> from ohhell import Game, Rules
>>> enc = Encoder(Rules(players=4, hand_sizes=[2, 1]))
>>> enc.size, enc.layout[1].name, enc.layout[1].shape
(442, 'hand', (52,))
>>> g = Game(Rules(players=4, hand_sizes=[2, 1]), seed=3, dealer=0)
>>> parts = enc.split(enc.encode(g.view(1)))
>>> int(parts["hand"].sum()), parts["phase"].tolist()
(2, [1.0, 0.0, 0.0])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..rules import Rules
from ..view import View

__all__ = ["Encoder", "Slice", "KINDS", "max_total"]

KINDS = ("observation", "information_state")


@dataclass(frozen=True)
class Slice:
    """One named part of an encoding: ``vector[start:stop]`` reshaped to ``shape``."""

    name: str
    start: int
    stop: int
    shape: tuple[int, ...]
    meaning: str


def max_total(rules: Rules) -> int:
    """The highest total any player can reach (the scale of the ``totals`` slice)."""
    return sum(10 + h for h in rules.hand_sizes)


class Encoder:
    """Encodes views of games under one :class:`~ohhell.Rules` as float32 vectors.

    :param rules: the rules (fixes the number of players and the largest hand,
        hence the vector's length).
    :param kind: ``"observation"`` or ``"information_state"``.
    :raises ValueError: for an unknown kind.
    """

    def __init__(self, rules: Rules, kind: str = "observation") -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown encoding {kind!r}; choose one of {', '.join(KINDS)}")
        self.rules = rules
        self.kind = kind
        n = self.players = rules.players
        H = self.max_hand = max(rules.hand_sizes)
        self.hand_count = len(rules.hand_sizes)
        self._total_scale = float(max_total(rules))
        parts = [
            ("phase", (3,), "one-hot: bidding, playing, game over"),
            ("hand", (52,), "the seat's own cards (card = suit*13 + rank; clubs, diamonds, hearts, spades; 2..A)"),
            ("trump_card", (52,), "the turned-up trump card, one-hot (all zero when no card is turned)"),
            ("trump_suit", (5,), "one-hot: clubs, diamonds, hearts, spades, no trump"),
            ("hand_size", (H,), f"one-hot: cards dealt to each player this hand (1..{H})"),
            ("game_progress", (3,), "hands finished / hands in game, hands still to come after this one / "
                                    "hands in game, 1 if this is the last hand"),
            ("dealer", (n,), "one-hot, relative seat of the dealer"),
            ("to_act", (n,), "one-hot, relative seat to act (all zero once the game is over)"),
            ("bids", (n, H + 2), f"per relative seat: one-hot bid 0..{H}, last column 1 if not bid yet "
                                 "or not visible (simultaneous bidding before the reveal)"),
            ("bid_total", (1,), "total of the visible bids / (players * largest hand)"),
            ("tricks_won", (n, H + 1), f"per relative seat: one-hot tricks won this hand 0..{H}"),
            ("trick_leader", (n,), "one-hot, relative seat that leads (or led) the current trick; zero while bidding"),
            ("current_trick", (n, 52), "per relative seat: the card it played to the current trick, one-hot"),
            ("played", (52,), "every card played so far this hand (finished tricks and the current one)"),
            ("voids", (n, 4), "per relative seat: suits it has shown it lacks this hand (clubs..spades)"),
            ("cards_left", (n,), "per relative seat: cards still held / largest hand"),
            ("totals", (n,), f"per relative seat: total score / {int(self._total_scale)} (the most anyone can score)"),
        ]
        if kind == "information_state":
            parts += [
                ("hand_history", (H, n, 52), "per trick of this hand (in order), per relative seat: the card it "
                                             "played, one-hot (tricks not yet played are zero)"),
                ("history_leaders", (H, n), "per trick of this hand: the relative seat that led it, one-hot"),
                ("past_hands", (self.hand_count, 4 * n + 6),
                 "per hand of the game (in order; zero until finished): 1 if finished; dealer (n, one-hot, "
                 "relative); trump suit (5, one-hot, C D H S none); per relative seat bid / largest hand (n); "
                 "tricks won / largest hand (n); score / (10 + largest hand) (n)"),
            ]
        layout, at = [], 0
        for name, shape, meaning in parts:
            size = int(np.prod(shape))
            layout.append(Slice(name, at, at + size, shape, meaning))
            at += size
        self.layout: tuple[Slice, ...] = tuple(layout)
        self.size = at
        self._at = {s.name: s.start for s in layout}

    # --- encoding ----------------------------------------------------------------------------

    def encode(self, view: View, out: "np.ndarray | None" = None) -> np.ndarray:
        """The encoding of ``view`` (a seat's view, not a spectator's) as float32.

        :param out: an array of length :attr:`size` to fill instead of a new one.
        :raises ValueError: for a spectator's view or a view of other rules.
        """
        if view.seat is None:
            raise ValueError("encodings are of a seat's view, not a spectator's")
        if view.players != self.players:
            raise ValueError(f"this encoder is for {self.players} players, the view has {view.players}")
        if out is None:
            v = np.zeros(self.size, dtype=np.float32)
        else:
            v = out
            v[:] = 0
        at = self._at
        n = self.players
        H = self.max_hand
        me = view.seat
        rel = [(s - me) % n for s in range(n)]
        over = view.phase == "over"
        ones = [at["phase"] + (0 if view.phase == "bid" else 1 if view.phase == "play" else 2)]
        if view.hand_mask:
            v[at["hand"]:at["hand"] + 52] = (np.int64(view.hand_mask) >> _SHIFTS) & 1
        if view.trump_card is not None:
            ones.append(at["trump_card"] + view.trump_card)
        ones.append(at["trump_suit"] + (4 if view.trump is None else view.trump))
        ones.append(at["hand_size"] + view.hand_size - 1)
        hc = view.hand_count
        done = len(view.past_hands)
        g0 = at["game_progress"]
        v[g0] = done / hc
        v[g0 + 1] = (hc - view.hand_index - 1) / hc
        if view.hand_index == hc - 1:
            ones.append(g0 + 2)
        ones.append(at["dealer"] + rel[view.dealer])
        if view.to_act is not None:
            ones.append(at["to_act"] + rel[view.to_act])
        if not over:
            b0 = at["bids"]
            for s, b in enumerate(view.bids):
                ones.append(b0 + rel[s] * (H + 2) + (H + 1 if b is None else b))
            v[at["bid_total"]] = view.bid_total / (n * H)
            t0 = at["tricks_won"]
            for s, w in enumerate(view.tricks_won):
                ones.append(t0 + rel[s] * (H + 1) + w)
            trick = view.trick
            if view.phase == "play":
                ones.append(at["trick_leader"] + rel[trick.leader])
            c0 = at["current_trick"]
            for i, c in enumerate(trick.cards):
                ones.append(c0 + rel[(trick.leader + i) % n] * 52 + c)
            if view.played_mask:
                v[at["played"]:at["played"] + 52] = (np.int64(view.played_mask) >> _SHIFTS) & 1
            v0 = at["voids"]
            for s, m in enumerate(view.voids):
                if m:
                    for suit in range(4):
                        if m >> suit & 1:
                            ones.append(v0 + rel[s] * 4 + suit)
            l0 = at["cards_left"]
            nt = len(view.tricks)
            left = np.empty(n, dtype=np.float32)
            for s in range(n):
                played = nt + (1 if (s - trick.leader) % n < len(trick.cards) else 0)
                left[rel[s]] = (view.hand_size - played) / H
            v[l0:l0 + n] = left
        s0 = at["totals"]
        v[s0:s0 + n] = np.array([view.totals[(r + me) % n] for r in range(n)], dtype=np.float32) / self._total_scale
        if self.kind == "information_state":
            self._encode_history(v, view, rel, ones)
        v[ones] = 1
        return v

    def _encode_history(self, v: np.ndarray, view: View, rel: list[int], ones: list[int]) -> None:
        at = self._at
        n = self.players
        H = self.max_hand
        if view.phase != "over":
            tricks = list(view.tricks) + ([view.trick] if view.trick.cards else [])
            h0 = at["hand_history"]
            l0 = at["history_leaders"]
            for t, trick in enumerate(tricks):
                ones.append(l0 + t * n + rel[trick.leader])
                for i, c in enumerate(trick.cards):
                    ones.append(h0 + (t * n + rel[(trick.leader + i) % n]) * 52 + c)
        p0 = at["past_hands"]
        row = 4 * n + 6
        for k, hr in enumerate(view.past_hands):
            base = p0 + k * row
            ones.append(base)
            ones.append(base + 1 + rel[hr.dealer])
            ones.append(base + 1 + n + (4 if hr.trump_card is None else hr.trump_card // 13))
            b = base + 6 + n
            for s in range(n):
                r = rel[s]
                v[b + r] = hr.bids[s] / H
                v[b + n + r] = hr.tricks_won[s] / H
                v[b + 2 * n + r] = hr.scores[s] / (10 + H)

    # --- reading an encoding back --------------------------------------------------------------

    def split(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The named slices of an encoding, each reshaped (a view into ``vector``)."""
        if vector.shape[-1] != self.size:
            raise ValueError(f"an encoding of these rules has {self.size} values, not {vector.shape[-1]}")
        lead = vector.shape[:-1]
        return {s.name: vector[..., s.start:s.stop].reshape(lead + s.shape) for s in self.layout}

    def describe(self) -> str:
        """A Markdown table of the layout: slice, positions, shape and meaning."""
        rows = ["| slice | positions | shape | meaning |", "|---|---|---|---|"]
        for s in self.layout:
            rows.append(f"| `{s.name}` | {s.start}:{s.stop} | {'x'.join(map(str, s.shape))} | {s.meaning} |")
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Encoder({self.kind!r}, {self.players} players, {self.size} values)"


_SHIFTS = np.arange(52, dtype=np.int64)
