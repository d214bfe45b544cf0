"""One-card hands, exactly: the bidding equilibrium by counting, no sampling.

With one card each the play is forced (the first bidder, the dealer's left,
leads; the others follow suit if they can), so who wins the trick depends on
the deal alone, and a seat's score depends only on its own bid and whether its
card wins.  Bidding is sequential, so a seat reads the bids before it:

* the seat in bidding position ``k`` (0 = the leader, ``players - 1`` = the
  dealer) bids by a deterministic strategy of (its card, the bids before it);
* it bids the legal bid with the highest expected score
  (:func:`ohhell.scoring.hand_score`), given ``P(win | its card, earlier
  bids)``, computed exactly over the cards it has not seen, where each earlier
  seat ``j``'s card is restricted to the cards for which seat ``j``'s own
  strategy gives the bid it made, and later seats' cards are uniform over the
  rest (later bids cannot change its score; the hook only limits the dealer,
  who bids last);
* exact ties go to the **lower bid** (deterministic).

Off the equilibrium path (bids no deal explains) see :func:`win_chance`.

Each seat maximises its own expected hand score and assumes every other seat
does the same: a computed equilibrium of the bidding.  Under simultaneous
bidding no earlier bid is visible and every seat best-responds to its card
alone (the unconditional win chance).

The win chance is counted, not sampled: with the leader's card ``L`` fixed
(when this seat does not lead) the suit led is known, so the unseen cards fall
into classes by which earlier seats' sets they belong to; the number of ways
to give distinct cards to the earlier seats is a DP over classes x the subset
of seats filled (falling factorials), and the later seats take any of the
remaining cards.  Every probability is a :class:`fractions.Fraction`.

Strategies are memoized per (players, rank of the turned card, scoring, hook,
bidding position, bid history): the suits are relabelled so that trumps are
the first (a strategy is the same up to the suits' names), and a strategy is
counted for one plain suit and copied to the others, which it treats alike.
A seat's bid costs a few milliseconds the first time its position and the bids
before it are seen (about 10 at 7 players), nothing after.

>>> from ohhell.cards import parse_card as c
>>> win_chance(c("AS"), 0, 4, 3, c("KS"))          # the ace of trumps always wins
Fraction(1, 1)
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Optional, Sequence

from ..cards import card_numbers
from ..rules import Rules
from ..scoring import hand_score
from ..tricks import hook_bid, strength
from ..view import View

if TYPE_CHECKING:
    from .base import Decision

__all__ = ["one_card_bid", "one_card_decision", "win_chance", "strategy", "strategy_by_card", "legal_one_card_bids"]

_FULL = (1 << 52) - 1


def _falling(m: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= m - i
    return out


@lru_cache(maxsize=1 << 16)
def _assignments(classes: tuple, seats: int, pool: int, later: int) -> int:
    """Ways to give distinct cards to ``seats`` constrained seats and ``later`` free
    seats from a pool of ``pool`` cards, where ``classes`` is ``((sig, count), ...)``:
    ``count`` cards that seat ``i`` may hold iff bit ``i`` of ``sig`` is set."""
    full = (1 << seats) - 1
    f = {0: 1}
    for sig, m in classes:
        g: dict[int, int] = {}
        for filled, ways in f.items():
            free = sig & ~filled
            t = free
            while True:  # every subset t of the free seats this class may fill
                k = bin(t).count("1")
                if k <= m:
                    key = filled | t
                    g[key] = g.get(key, 0) + ways * _falling(m, k)
                if t == 0:
                    break
                t = (t - 1) & free
        f = g
    return f.get(full, 0) * _falling(pool - seats, later)


def _counts(pool: "Sequence[int]", sig: dict[int, int]) -> dict[int, int]:
    """How many cards of ``pool`` (card numbers) fall in each class."""
    counts: dict[int, int] = {}
    for x in pool:
        counts[sig[x]] = counts.get(sig[x], 0) + 1
    return counts


def _less(counts: dict[int, int], cls: int) -> tuple:
    """The class counts ``((sig, count), ...)`` with one card of class ``cls`` out."""
    return tuple(sorted((k, v - (k == cls)) for k, v in counts.items() if v - (k == cls) > 0))


def win_chance(card: int, position: int, players: int, trump: Optional[int],
               trump_card: Optional[int], earlier: Sequence[Optional[int]] = ()) -> Fraction:
    """The exact chance that ``card`` wins a one-card trick for the seat in bidding
    ``position`` (0 leads).

    ``earlier[j]`` (for ``j < position``) is the mask of cards seat ``j`` may hold
    given its bid (``None`` or a missing entry: any card); later seats may hold any
    card.  Cards are uniform over the ``52 - 1 - (turned card)`` this seat has not
    seen.

    Off the equilibrium path (bids no consistent deal explains): an earlier seat
    whose mask holds none of the unseen cards is read as holding any card, and if
    still no deal fits, every earlier bid is read as uninformative (uniform).
    """
    if not 0 <= position < players:
        raise ValueError(f"position must be 0 to {players - 1}, not {position}")
    unseen = _FULL & ~(1 << card)
    if trump_card is not None:
        unseen &= ~(1 << trump_card)
    ms = []
    for j in range(position):
        m = earlier[j] if j < len(earlier) else None
        ms.append((_FULL if m is None else m) & unseen or unseen)
    later = players - 1 - position
    pool = card_numbers(unseen)
    if position == 0:
        led = card // 13
        st = _strengths(led, trump)
        mine = st[card]
        safe = sum(1 for x in pool if st[x] < mine)
        total = _falling(len(pool), later)
        return Fraction(_falling(safe, later), total) if total else Fraction(0)
    mids = ms[1:]
    seats = len(mids)
    sig = dict.fromkeys(pool, 0)   # each unseen card's class: the middle seats that may hold it
    for i, m in enumerate(mids):
        for x in card_numbers(m & unseen):
            sig[x] |= 1 << i
    size = len(pool) - 1  # the pool once the lead is out
    safe_by_led = []  # the cards that do not beat mine, for each suit led (card numbers)
    for led in range(4):
        st = _strengths(led, trump)
        mine = st[card]
        safe_by_led.append([x for x in pool if st[x] < mine])
    # Leads that give the same counts: same class, same suit led, same beats-mine;
    # each group is counted once, from a representative lead, times its size.
    groups: dict[tuple, list[int]] = {}
    for lead in card_numbers(ms[0]):
        led = lead // 13
        st = _strengths(led, trump)
        key = (sig[lead], led, st[lead] > st[card])
        g = groups.setdefault(key, [lead, 0])
        g[1] += 1
    good = total = 0
    all_counts = _counts(pool, sig)
    safe_counts = [_counts(m, sig) for m in safe_by_led]
    for (cls, led, beats), (lead, mult) in groups.items():
        total += mult * _assignments(_less(all_counts, cls), seats, size, later)
        if not beats:  # then the lead is itself one of the safe cards
            good += mult * _assignments(_less(safe_counts[led], cls), seats, len(safe_by_led[led]) - 1, later)
    if total == 0:
        return win_chance(card, position, players, trump, trump_card) if any(m != unseen for m in ms) \
            else Fraction(0)
    return Fraction(good, total)


def legal_one_card_bids(position: int, players: int, history: Sequence[int], hook: bool) -> list[int]:
    """The bids 0 and 1 less the one the hook forbids the dealer (the last position)."""
    bids = [0, 1]
    if hook and position == players - 1:
        forbid = hook_bid(1, sum(history))
        bids = [b for b in bids if b != forbid]
    return bids


def _values(p: Fraction, bids: Sequence[int], rules: Rules) -> dict[int, Fraction]:
    return {b: p * hand_score(b, 1, 1, rules) + (1 - p) * hand_score(b, 0, 1, rules) for b in bids}


def _best(values: dict[int, Fraction]) -> int:
    # Exact ties go to the lower bid.
    return max(sorted(values), key=lambda b: (values[b], -b))


@lru_cache(maxsize=8)
def _strengths(led: int, trump: Optional[int]) -> tuple:
    """:func:`ohhell.tricks.strength` of every card for a suit led and a trump (a table, for speed)."""
    return tuple(strength(x, led, trump) for x in range(52))


def _suit_order(trump: Optional[int], trump_card: Optional[int]) -> tuple:
    """The suits renamed so that the trump suit (or else the turned card's) comes first and the
    others keep their order: ``order[new] = old``."""
    first = trump if trump is not None else (None if trump_card is None else trump_card // 13)
    if first is None:
        return (0, 1, 2, 3)
    return (first,) + tuple(s for s in range(4) if s != first)


def strategy(players: int, trump: Optional[int], trump_card: Optional[int], rules: Rules,
             position: int, history: tuple) -> tuple:
    """The equilibrium strategy of bidding ``position`` after ``history`` (the bids of
    positions ``0..position-1``; ``()`` under simultaneous bidding, where nothing is
    seen): a 52-tuple of each card's bid (``-1`` for the turned card).

    Computed (and memoized) with the suits renamed as :func:`_suit_order` says, so the
    52 trumps' turned cards share 13 tables; :func:`strategy_by_card` is the same by
    definition, card by card, and the tests hold the two equal."""
    order = _suit_order(trump, trump_card)
    if order == (0, 1, 2, 3):
        return _strategy(players, trump, trump_card, rules, position, history)
    new = {old: i for i, old in enumerate(order)}
    rename = [new[x // 13] * 13 + x % 13 for x in range(52)]
    table = _strategy(players, None if trump is None else 0,
                      None if trump_card is None else rename[trump_card], rules, position, history)
    return tuple(table[rename[x]] for x in range(52))


@lru_cache(maxsize=4096)
def _strategy(players: int, trump: Optional[int], trump_card: Optional[int], rules: Rules,
              position: int, history: tuple) -> tuple:
    """:func:`strategy` where the suits are already in :func:`_suit_order`: the suits that are
    neither trumps nor the turned card's are alike, so the first of them is counted and its
    bids copied to the others."""
    earlier = [_bid_mask(players, trump, trump_card, rules, j, history) for j in range(len(history))]
    bids = legal_one_card_bids(position, players, history, rules.hook and not rules.simultaneous_bidding)
    marked = {s for s in (trump, None if trump_card is None else trump_card // 13) if s is not None}
    plain = [s for s in range(4) if s not in marked]
    out = [-1] * 52
    for x in range(52):
        if x == trump_card or (x // 13 in plain and x // 13 != plain[0]):
            continue
        p = win_chance(x, position, players, trump, trump_card, earlier)
        out[x] = _best(_values(p, bids, rules))
    for s in plain[1:]:
        out[s * 13:s * 13 + 13] = out[plain[0] * 13:plain[0] * 13 + 13]
    return tuple(out)


def strategy_by_card(players: int, trump: Optional[int], trump_card: Optional[int], rules: Rules,
                     position: int, history: tuple) -> tuple:
    """:func:`strategy` by its definition: every card's win chance counted under the real suits,
    the earlier seats' cards read from this same function (slow; the tests' reference)."""
    earlier = [sum(1 << x for x, b in enumerate(strategy_by_card(players, trump, trump_card, rules, j, history[:j]))
                   if b == history[j]) for j in range(len(history))]
    bids = legal_one_card_bids(position, players, history, rules.hook and not rules.simultaneous_bidding)
    return tuple(-1 if x == trump_card else _best(_values(win_chance(x, position, players, trump, trump_card, earlier),
                                                          bids, rules)) for x in range(52))


def clear_caches() -> None:
    """Forget every memoized table and count (a benchmark times a bid from cold)."""
    _strategy.cache_clear()
    _assignments.cache_clear()


def _bid_mask(players: int, trump: Optional[int], trump_card: Optional[int], rules: Rules,
              j: int, history: tuple) -> int:
    """The cards for which position ``j``'s strategy bids ``history[j]``."""
    table = strategy(players, trump, trump_card, rules, j, history[:j])
    return sum(1 << x for x in range(52) if table[x] == history[j])


def one_card_bid(view: View) -> tuple[int, Fraction, dict[int, Fraction]]:
    """The exact equilibrium bid of a one-card hand: ``(bid, win chance, expected
    score of each legal bid)``, read from ``view`` alone (its own card, the turned
    card, the bids it can see, the rules).

    :raises ValueError: when the view is not this seat's bid in a one-card hand.
    """
    if view.hand_size != 1 or view.phase != "bid" or view.seat is None or not view.legal:
        raise ValueError("one_card_bid needs a seat's bid in a one-card hand")
    n = view.players
    rules = view.rules
    order = [(view.dealer + 1 + i) % n for i in range(n)]
    position = order.index(view.seat)
    card = int(view.hand[0])
    trump = view.trump
    tc = None if view.trump_card is None else int(view.trump_card)
    if rules.simultaneous_bidding:
        earlier: list[int] = []
    else:
        history = tuple(int(view.bids[s]) for s in order[:position])
        earlier = [_bid_mask(n, trump, tc, rules, j, history) for j in range(position)]
    p = win_chance(card, position, n, trump, tc, earlier)
    legal = [a.tricks for a in view.legal]
    values = _values(p, legal, rules)
    return _best(values), p, values


def one_card_decision(view: View) -> "Decision":
    """:func:`one_card_bid` as a bot's :class:`~ohhell.bots.base.Decision` (the expected
    score of each legal bid, the chances of taking 0 and 1 trick, a note for a person): the
    one home of the exact one-card bid for every bot that uses it."""
    from ..actions import BIDS
    from .base import Decision
    bid, p, values = one_card_bid(view)
    note = (f"bid {bid}: expected {float(values[bid]):.2f} points; the card wins "
            f"{100 * float(p):.1f}% of the deals consistent with the bids (exact)")
    if len(values) == 1:
        note += "; the only legal bid"
    return Decision(BIDS[bid], {BIDS[b]: float(v) for b, v in values.items()}, [float(1 - p), float(p)],
                    note, {"win_chance": p, "exact": True})
