"""The hidden-hand sampler: deals of the unseen cards consistent with one seat's view.

Every search bot and every analysis tool that reasons about hidden cards draws
its guesses here, so the guarantees hold everywhere:

* a sampled deal gives every other seat exactly the number of cards it still
  holds, from the cards this seat has not seen (not in its hand, not played
  this hand, not the turned trump card); the rest of those cards form the
  undealt stock;
* no seat ever gets a card of a suit it has shown void in (``view.voids``; under
  ``must_trump`` the view already counts a seat that neither followed nor
  trumped as void in trump);
* the uniform draw is **exact**: every consistent deal has the same
  probability, however many voids there are.

How the uniform draw is exact.  Cards of one suit are interchangeable as far
as the void constraints go, so the number of consistent deals depends only on
how many cards of each suit each constrained seat (a seat with a void in a
suit that still has unseen cards) takes.  :class:`HandSampler` counts, by
dynamic programming over the constrained seats one after another, the number
of ways ``W(i, rem)`` to give seats ``i..`` their cards when ``rem[suit]``
unseen cards of each suit are left (the unconstrained seats and the stock
take whatever is left, in a number of ways that does not depend on which
cards they are).  A draw then picks, seat by seat, how many cards of each
suit the seat gets with probability proportional to ``prod C(rem[s], k[s]) *
W(i + 1, rem - k)``, the cards themselves uniformly within each suit, and
finally shuffles the rest among the unconstrained seats and the stock.  Every
consistent deal is produced by exactly one such sequence of choices, and the
product of the choice probabilities is ``1 / (number of consistent deals)``:
no greedy dealing, no rejection, no bias.  (OpenSpiel's ``oh_hell`` resampler
deals greedily and gives a seat a card of a suit it showed void in in about
7% of its samples; see ``benchmarks/bots_sampler.py``.)

Weighting by the bids.  :meth:`HandSampler.sample_weighted` draws uniform
deals and attaches to each an importance weight, the likelihood of the bids
already made given the sampled hands (:func:`bid_likelihood`): each bidder's
whole hand as dealt (its sampled cards plus the cards it has played this
hand) is valued with :func:`estimate_tricks`, and a bid close to that value is
likelier than a bid far from it.  Averages over the weighted deals estimate
averages under the posterior that trusts the bids.

>>> import ohhell, random
>>> g = ohhell.Game(ohhell.Rules(4, hand_sizes=[5, 1]), seed=2)
>>> v = g.view(g.to_act)
>>> sampler = HandSampler(v, random.Random(1))
>>> deal = sampler.sample()
>>> [m.bit_count() for m in deal.hands], deal.hands[v.seat] == v.hand_mask
([5, 5, 5, 5], True)
>>> deal.stock.bit_count()       # 52 - 20 dealt - 1 trump card
31
>>> is_consistent(v, deal.hands)
True
"""

from __future__ import annotations

import math
import random as _random
from typing import TYPE_CHECKING, NamedTuple, Protocol, Sequence

from .cards import SUIT_MASKS, card_numbers

if TYPE_CHECKING:  # pragma: no cover
    from .view import View

__all__ = ["Deal", "HandSampler", "sample_deal", "is_consistent", "count_deals",
           "estimate_tricks", "card_win_chances", "bid_likelihood", "bid_likelihoods",
           "BidEvidence"]

_SUIT_MASK = SUIT_MASKS
_FULL = (1 << 52) - 1


class Deal(NamedTuple):
    """One sampled deal: ``hands[s]`` is seat ``s``'s cards now (a mask; the
    viewer's own hand for its seat) and ``stock`` the unseen undealt cards."""

    hands: tuple[int, ...]
    stock: int


def _compositions(total: int, caps: Sequence[int]) -> list[tuple[int, ...]]:
    """All ways to write ``total`` as k[0] + ... with 0 <= k[i] <= caps[i]."""
    out: list[tuple[int, ...]] = []

    def rec(i: int, left: int, acc: tuple[int, ...]) -> None:
        if i == len(caps) - 1:
            if left <= caps[i]:
                out.append(acc + (left,))
            return
        room = sum(caps[i + 1:])
        for k in range(max(0, left - room), min(caps[i], left) + 1):
            rec(i + 1, left - k, acc + (k,))

    if not caps:
        if total == 0:
            out.append(())
        return out
    rec(0, total, ())
    return out


class HandSampler:
    """Samples the hidden cards of a view, exactly uniformly under the void constraints.

    Build one per decision (the counting tables are computed once) and call
    :meth:`sample` as often as needed.

    :param view: a seat's view (not a spectator's) of a hand being bid or played.
    :param rng: a :class:`random.Random` (default: a fresh unseeded one).
    :raises ValueError: for a spectator's view, a finished game, or a view
        that no deal is consistent with.
    """

    def __init__(self, view: "View", rng: "_random.Random | None" = None) -> None:
        if view.seat is None:
            raise ValueError("a spectator's view has no hand to sample around")
        if view.phase == "over":
            raise ValueError("the game is over: there are no hidden cards")
        self.view = view
        self.seat: int = view.seat
        self.rng = rng if rng is not None else _random.Random()
        n = view.players
        me = view.seat
        self.unseen = view.unseen_mask
        self.need = [0 if s == me else view.cards_left(s) for s in range(n)]
        dealt = sum(self.need)
        self.stock_size = self.unseen.bit_count() - dealt
        if self.stock_size < 0:
            raise ValueError("the view is inconsistent: fewer unseen cards than cards held")
        suit_cards = [self.unseen & _SUIT_MASK[s] for s in range(4)]
        self._suit_cards = suit_cards
        counts = tuple(m.bit_count() for m in suit_cards)
        # Seats whose voids bite (a void in a suit with unseen cards) are dealt first, exactly.
        self.constrained: list[int] = []
        self._allowed: list[tuple[int, ...]] = []
        for s in range(n):
            if s == me or not self.need[s]:
                continue
            bite = [u for u in range(4) if view.voids[s] >> u & 1 and counts[u]]
            if bite:
                self.constrained.append(s)
                self._allowed.append(tuple(u for u in range(4) if not view.voids[s] >> u & 1))
        self.free = [s for s in range(n) if s != me and self.need[s] and s not in self.constrained]
        self._counts = counts
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        self._choices: dict[tuple[int, tuple[int, ...]], tuple[list, list[int], int]] = {}
        total = self._count(0, counts)
        if total == 0:
            raise ValueError("no deal is consistent with this view (the voids leave too few cards)")
        free_cards = sum(counts) - sum(self.need[s] for s in self.constrained)
        self._free_ways = math.factorial(free_cards)
        for s in self.free:
            self._free_ways //= math.factorial(self.need[s])
        self._free_ways //= math.factorial(self.stock_size)
        self.total = total * self._free_ways   #: the number of consistent deals

    # --- counting -----------------------------------------------------------------------

    def _count(self, i: int, rem: tuple[int, ...]) -> int:
        if i == len(self.constrained):
            return 1
        key = (i, rem)
        w = self._ways.get(key)
        if w is not None:
            return w
        w = sum(weight for _, weight in self._options(i, rem))
        self._ways[key] = w
        return w

    def _options(self, i: int, rem: tuple[int, ...]):
        """(k per suit, weight) for constrained seat ``i`` with ``rem`` left."""
        s = self.constrained[i]
        allowed = self._allowed[i]
        caps = [rem[u] for u in allowed]
        out = []
        for comp in _compositions(self.need[s], caps):
            k = [0, 0, 0, 0]
            for u, x in zip(allowed, comp):
                k[u] = x
            nxt = tuple(rem[u] - k[u] for u in range(4))
            weight = 1
            for u in range(4):
                if k[u]:
                    weight *= math.comb(rem[u], k[u])
            if weight:
                weight *= self._count(i + 1, nxt)
            if weight:
                out.append((tuple(k), weight))
        return out

    def _pick(self, i: int, rem: tuple[int, ...]) -> tuple[int, ...]:
        key = (i, rem)
        entry = self._choices.get(key)
        if entry is None:
            opts = self._options(i, rem)
            cum, acc = [], 0
            for _, w in opts:
                acc += w
                cum.append(acc)
            entry = ([k for k, _ in opts], cum, acc)
            self._choices[key] = entry
        ks, cum, total = entry
        if len(ks) == 1:
            return ks[0]
        r = self.rng.randrange(total)
        lo, hi = 0, len(cum) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if cum[mid] > r:
                hi = mid
            else:
                lo = mid + 1
        return ks[lo]

    # --- drawing ------------------------------------------------------------------------

    def sample(self) -> Deal:
        """One deal, uniformly among those consistent with the view."""
        rng = self.rng
        view = self.view
        hands = [0] * len(self.need)
        hands[self.seat] = view.hand_mask
        pools = [card_numbers(m) for m in self._suit_cards]
        rem = self._counts
        for i, s in enumerate(self.constrained):
            k = self._pick(i, rem)
            m = 0
            for u in range(4):
                if k[u]:
                    pool = pools[u]
                    chosen = rng.sample(pool, k[u])
                    for c in chosen:
                        m |= 1 << c
                    pools[u] = [c for c in pool if not m >> c & 1]
            hands[s] = m
            rem = tuple(rem[u] - k[u] for u in range(4))
        rest = pools[0] + pools[1] + pools[2] + pools[3]
        rng.shuffle(rest)
        pos = 0
        for s in self.free:
            m = 0
            for c in rest[pos:pos + self.need[s]]:
                m |= 1 << c
            hands[s] = m
            pos += self.need[s]
        stock = 0
        for c in rest[pos:]:
            stock |= 1 << c
        return Deal(tuple(hands), stock)

    def sample_many(self, count: int) -> list[Deal]:
        """``count`` independent uniform deals."""
        return [self.sample() for _ in range(count)]

    def sample_weighted(self, count: int, *, sharpness: float = 1.0,
                        evidence: "BidEvidence | None" = None) -> list[tuple[Deal, float]]:
        """``count`` uniform deals, each with its bid-likelihood weight (weights sum to 1).

        ``sharpness`` scales how much the bids are trusted (0: not at all,
        every weight equal).  When every weight is zero (bids no sampled hand
        explains), the weights fall back to equal.  ``evidence`` replaces the
        closed-form bid model (:func:`bid_likelihoods`).
        """
        deals = self.sample_many(count)
        if sharpness <= 0:
            return [(d, 1.0 / count) for d in deals]
        ws = [w ** sharpness for w in bid_likelihoods(self.view, [d.hands for d in deals], evidence)]
        total = sum(ws)
        if total <= 0:
            return [(d, 1.0 / count) for d in deals]
        return [(d, w / total) for d, w in zip(deals, ws)]


def sample_deal(view: "View", rng: "_random.Random | None" = None) -> Deal:
    """One uniform deal consistent with ``view`` (see :class:`HandSampler`)."""
    return HandSampler(view, rng).sample()


def count_deals(view: "View") -> int:
    """The exact number of deals (hidden hands and stock) consistent with ``view``."""
    return HandSampler(view).total


def is_consistent(view: "View", hands: Sequence[int], stock: "int | None" = None) -> bool:
    """Whether ``hands`` (one mask per seat) could be the truth behind ``view``.

    Checks the viewer's own hand, every seat's card count, that the hidden
    hands use only unseen cards, once each, and every shown void.
    """
    if view.seat is None or len(hands) != view.players:
        return False
    if hands[view.seat] != view.hand_mask:
        return False
    unseen = view.unseen_mask
    used = 0
    for s, m in enumerate(hands):
        if s == view.seat:
            continue
        if m.bit_count() != view.cards_left(s) or m & ~unseen or m & used:
            return False
        for u in range(4):
            if view.voids[s] >> u & 1 and m & _SUIT_MASK[u]:
                return False
        used |= m
    if stock is not None and stock != unseen & ~used:
        return False
    return True


# --- hand valuation (shared by the bid model here and the heuristic bots) -----------------

def card_win_chances(hand: int, trump: "int | None", players: int, hand_size: int,
                     trump_card: "int | None" = None) -> list[tuple[int, float]]:
    """For each card of a freshly dealt ``hand``: the chance it takes a trick.

    A quick closed-form estimate (no search): a card wins when no opponent
    holds a higher card of its suit that beats it, and (off trump) when the
    suit survives without being trumped; long trumps and short side suits add
    ruffing tricks.  ``trump`` is the trump suit and ``trump_card`` the turned
    card, each ``None`` (or ``-1``, the bots' inner sentinel) for none.
    """
    trump = -1 if trump is None else trump
    trump_card = -1 if trump_card is None else trump_card
    n = players
    unseen_count = 52 - hand_size - (1 if trump_card >= 0 else 0)
    held = (n - 1) * hand_size
    q = held / unseen_count if unseen_count else 0.0
    gone = hand | (1 << trump_card if trump_card >= 0 else 0)
    per_opp = hand_size / unseen_count if unseen_count else 0.0
    out: list[tuple[int, float]] = []
    trumps = hand & _SUIT_MASK[trump] if trump >= 0 else 0
    n_trumps = trumps.bit_count()
    unseen_trumps = (13 - n_trumps - (1 if trump_card >= 0 else 0)) if trump >= 0 else 0
    # chance one opponent holds no trump at all
    p_opp_no_trump = (1 - per_opp) ** unseen_trumps if trump >= 0 else 1.0
    spare_trumps = 0.0
    for c in card_numbers(hand):
        s = c // 13
        suit = _SUIT_MASK[s]
        higher = suit & ~((2 << c) - 1)
        d = (higher & ~gone).bit_count()          # unseen higher cards of the suit
        mine_above = (higher & hand).bit_count()
        if s == trump:
            p_top = (1 - q) ** d
            below = (hand & suit & ((1 << c) - 1)).bit_count()
            # a guarded trump often survives the higher ones being played first
            p = p_top + (1 - p_top) * min(0.85, 0.3 * below / max(1, d)) if d else 1.0
            if p < 0.5:
                spare_trumps += 1
            out.append((c, p))
            continue
        length = (hand & suit).bit_count()
        p_top = (1 - q) ** d
        rnd = mine_above + 1  # the round of the suit in which this card would be played
        suit_unseen = 13 - length - (1 if trump_card >= 0 and trump_card // 13 == s else 0)
        if trump >= 0 and n > 1:
            # each opponent still holds a card of the suit in round `rnd`, or holds no trump
            p_has = 1.0 - sum(math.comb(suit_unseen, j) * per_opp ** j * (1 - per_opp) ** (suit_unseen - j)
                              for j in range(min(rnd, suit_unseen + 1)))
            p_ok = (p_has + (1 - p_has) * p_opp_no_trump) ** (n - 1)
        else:
            p_ok = 1.0
        # low cards of long suits in long hands win late (more so without trump)
        length_bonus = 0.0
        if d and length >= 4 and hand_size >= 7:
            length_bonus = 0.12 * (length - 3) / max(1, d)
        out.append((c, min(1.0, p_top * p_ok + length_bonus)))
    if trump >= 0 and spare_trumps and hand_size > 1:
        # ruffing: spare trumps used on suits we are short in
        short = 0.0
        expected_len = hand_size / 4
        for s in range(4):
            if s == trump:
                continue
            ln = (hand & _SUIT_MASK[s]).bit_count()
            if ln < expected_len:
                short += (expected_len - ln)
        ruffs = min(spare_trumps, short) * 0.45
        if ruffs:
            # spread the ruffing value over the spare trumps
            k = 0
            for i, (c, p) in enumerate(out):
                if c // 13 == trump and p < 0.5:
                    k += 1
            if k:
                add = ruffs / k
                out = [(c, min(1.0, p + add)) if c // 13 == trump and p < 0.5 else (c, p) for c, p in out]
    return out


def estimate_tricks(hand: int, trump: "int | None", players: int, hand_size: int,
                    trump_card: "int | None" = None) -> float:
    """The number of tricks a freshly dealt ``hand`` may expect (see :func:`card_win_chances`).

    >>> from ohhell.cards import cards_to_mask
    >>> round(estimate_tricks(cards_to_mask(["AS", "KS"]), 3, 4, 2), 2)
    2.0
    """
    return sum(p for _, p in card_win_chances(hand, trump, players, hand_size, trump_card))


def _bid_weight(bid: int, est: float, forbidden: int) -> float:
    sigma = 0.55 + 0.12 * est
    w = math.exp(-((bid - est) ** 2) / (2 * sigma * sigma))
    if forbidden >= 0 and abs(bid - forbidden) == 1:
        # a dealer under the hook whose natural bid was forbidden moved one away
        w += 0.5 * math.exp(-((forbidden - est) ** 2) / (2 * sigma * sigma))
    return w + 0.02


class BidEvidence(Protocol):
    """A model of how the other seats bid, for weighing sampled deals by their bids.

    Called with a view and a batch of sampled deals (each a list of hands,
    one mask per seat, as :attr:`Deal.hands`), it returns one relative weight
    per deal: how likely the bids seen in ``view`` are if the deal is the
    true one.  Only the view's public facts and the sampled hands may go in.
    The closed form (:func:`bid_likelihood`) is the default; a learned model
    lives above the core (``ohhell.bots.learned.LearnedBidEvidence``), which
    is why the core takes the model as an argument instead of importing it.
    """

    def __call__(self, view: "View", deals: Sequence[Sequence[int]]) -> "list[float]": ...


def bid_likelihoods(view: "View", deals: Sequence[Sequence[int]],
                    evidence: "BidEvidence | None" = None) -> list[float]:
    """:func:`bid_likelihood` of each sampled deal, or ``evidence``'s weights when given.

    A batch lets a model weigh many deals in one call (a learned model runs
    its network once per batch, not once per deal).
    """
    if evidence is not None:
        ws = [float(w) for w in evidence(view, deals)]
        if len(ws) != len(deals):
            raise ValueError(f"the bid model gave {len(ws)} weights for {len(deals)} deals")
        return ws
    return [bid_likelihood(view, hands) for hands in deals]


def bid_likelihood(view: "View", hands: Sequence[int]) -> float:
    """How well sampled ``hands`` explain the bids seen in ``view`` (a relative weight).

    Each bidder's hand as dealt is rebuilt from its sampled cards plus the
    cards it has played this hand and valued with :func:`estimate_tricks`;
    a bid near that value weighs more (a Gaussian of spread ~0.6 trick,
    with a small floor so an odd bid never rules a deal out).
    """
    n = view.players
    trump = -1 if view.trump is None else view.trump
    tc = -1 if view.trump_card is None else int(view.trump_card)
    played = view.played_by
    hook = view.rules.hook
    w = 1.0
    for s in range(n):
        b = view.bids[s]
        if s == view.seat or b is None:
            continue
        est = estimate_tricks(hands[s] | played[s], trump, n, view.hand_size, tc)
        forbidden = -1
        if hook and s == view.dealer and all(x is not None for x in view.bids):
            forbidden = view.hand_size - (sum(view.bids) - b)
        w *= _bid_weight(b, est, forbidden)
    return w
