"""One-card hands, exactly (ohhell.bots.onecard): hand-worked cases, a brute-force
cross-check of the counting DP, and the expert's agreement with it."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ohhell import Game, Rules
from ohhell.actions import BIDS
from ohhell.bots.expert import ExpertBot
from ohhell.bots.onecard import _bid_mask, one_card_bid, strategy, win_chance
from ohhell.cards import parse_card as c
from ohhell.tricks import trick_winner

S = 3  # spades


def rules(n, **kw):
    kw.setdefault("no_trump", "never")
    return Rules(n, hand_sizes=[1], **kw)


def game(n, cards, turned, dealer=None, bids=(), **kw):
    """A one-card game: ``cards`` in bidding order (the leader first), dealer last."""
    dealer = n - 1 if dealer is None else dealer
    order = [(dealer + 1 + i) % n for i in range(n)]
    deal = [None] * n
    for pos, s in enumerate(order):
        deal[s] = [cards[pos]]
    g = Game.from_deal(rules(n, **kw), dealer, deal, turned)
    for b in bids:
        g.apply(BIDS[b])
    return g


def position_view(n, pos, cards, turned, bids=(), **kw):
    g = game(n, cards, turned, bids=bids, **kw)
    return g.view((g.dealer + 1 + pos) % n)


# --- hand-worked cases ------------------------------------------------------------------

@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_ace_of_trumps_always_wins_and_bids_one(n):
    # No card beats the ace of trumps, whatever the bids: P = 1; bid 1 scores 11 > 0.
    others = ["2H", "3H", "4H", "5H", "6H", "7H"][:n - 1]
    for pos in range(n):
        cards = others[:pos] + ["AS"] + others[pos:]
        bids = [0, 1, 0, 1, 0, 1][:pos]
        v = position_view(n, pos, cards, "KS", bids)
        bid, p, values = one_card_bid(v)
        assert p == 1 and bid == 1, (n, pos)
        assert values[1] == 11 and values[0] == 0


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_two_of_trumps_leading(n):
    # The leader holding 2S, AS turned: it wins iff none of the n-1 others holds one of
    # the 11 higher trumps (3S..KS) among the 50 unseen cards:
    # P = C(39, n-1) / C(50, n-1).  Standard scoring bids 1 iff 11P > 10(1-P), P > 10/21.
    p = Fraction(comb(39, n - 1), comb(50, n - 1))
    assert win_chance(c("2S"), 0, n, S, c("AS")) == p
    bid, got, values = one_card_bid(position_view(n, 0, ["2S"] + ["2H"] * 0 + _fill(n - 1), "AS"))
    assert got == p
    assert values == {0: 10 * (1 - p), 1: 11 * p}
    assert bid == (1 if p > Fraction(10, 21) else 0)


def _fill(k):
    return ["3H", "4H", "5H", "6H", "7H", "8H"][:k]


def test_the_issue_example_four_players():
    # 4 players, first to bid, 2S with AS turned: P = C(39,3)/C(50,3)
    # = 39*38*37 / (50*49*48) = 54834/117600 = 9139/19600 ~ 46.6%.
    p = Fraction(9139, 19600)
    v = position_view(4, 0, ["2S", "3H", "4H", "5H"], "AS")
    bid, got, values = one_card_bid(v)
    assert got == p
    # standard: EV(0) = 10 * 10461/19600 = 5.34 > EV(1) = 11 * 9139/19600 = 5.13 -> 0
    assert bid == 0 and values[0] > values[1]
    # missed bids score tricks: EV(0) = 10(1-P) + 1*P = 5.80 > EV(1) = 11P = 5.13 -> 0
    bid, _, values = one_card_bid(position_view(4, 0, ["2S", "3H", "4H", "5H"], "AS",
                                                missed_bid_scores_tricks=True))
    assert bid == 0 and values[0] == 10 * (1 - p) + p and values[1] == 11 * p
    # a made 0 scores 5 + 1 = 6: EV(0) = 6(1-P) = 3.20 < EV(1) = 11P = 5.13 -> 1
    bid, _, values = one_card_bid(position_view(4, 0, ["2S", "3H", "4H", "5H"], "AS",
                                                zero_bid_scores_hand_size=True))
    assert bid == 1 and values[0] == 6 * (1 - p) and values[1] == 11 * p


def test_three_player_leader_threshold():
    # 3 players, AS turned, the leader holds a heart: every one of the 12 unseen trumps
    # beats it, and so does every higher heart.  JH: 12 + 2 (QH, KH, AH: 3) -> 15 beat it:
    # P = C(35,2)/C(50,2) = 595/1225 = 17/35 ~ 0.486 > 10/21 ~ 0.476 -> bid 1;
    # TH: 16 beat it: P = C(34,2)/C(50,2) = 561/1225 ~ 0.458 -> bid 0.
    assert win_chance(c("JH"), 0, 3, S, c("AS")) == Fraction(17, 35)
    assert win_chance(c("TH"), 0, 3, S, c("AS")) == Fraction(561, 1225)
    table = strategy(3, S, c("AS"), rules(3), 0, ())
    assert table[c("JH")] == 1 and table[c("TH")] == 0
    # Every trump leads to a bid of 1 (2S: 11 higher trumps, C(39,2)/C(50,2) = 741/1225).
    assert all(table[c(r + "S")] == 1 for r in "23456789TJQK")


def test_reading_the_leaders_bid():
    # 3 players, AS turned, the second bidder holds 2S.
    # Unconditional: neither other seat holds one of 11 higher trumps:
    # C(39,2)/C(50,2) = 741/1225 ~ 0.605.
    assert win_chance(c("2S"), 1, 3, S, c("AS")) == Fraction(741, 1225)
    # After the leader bid 0 its card is a non-trump of rank 2..T (the table above): it
    # cannot beat a trump, so only seat 3 can, holding one of 11 higher trumps among the
    # 49 cards left: P = 38/49 ~ 0.776 (a low trump gains from a 0 before it).
    v = position_view(3, 1, ["5H", "2S", "7D"], "AS", bids=[0])
    assert one_card_bid(v)[1] == Fraction(38, 49)
    # After a 1 the leader holds a trump 2S..KS (12, one of them mine: 11 left) or a
    # non-trump J..A (12): it leads a non-trump with chance 12/23, and then seat 3 must
    # not hold a higher trump: P = 12/23 * 38/49 = 456/1127 ~ 0.405 -> bid 0.
    v = position_view(3, 1, ["KS", "2S", "7D"], "AS", bids=[1])
    bid, p, _ = one_card_bid(v)
    assert p == Fraction(456, 1127) and bid == 0


def test_three_zero_bids_make_a_low_trump_a_likely_winner():
    # 4 players, no hook, the dealer holds 2S (AS turned) after three 0 bids: a seat
    # that bid 0 rarely holds a high trump, so the chance rises above the unconditional
    # one, C(39,3)/C(50,3) = 9139/19600 ~ 0.466 (11 higher trumps), which bids 0.
    plain = win_chance(c("2S"), 3, 4, S, c("AS"))
    assert plain == Fraction(9139, 19600)
    v = position_view(4, 3, ["4H", "5H", "6H", "2S"], "AS", bids=[0, 0, 0])
    bid, p, _ = one_card_bid(v)
    assert p > plain and p > Fraction(10, 21) and bid == 1
    assert plain < Fraction(10, 21)  # without reading the bids it would bid 0


def test_the_hooked_dealer_is_forced():
    # 3 players, hook: after 0, 0 the dealer may not bid 1 (total 1 = the tricks), even
    # with the ace of trumps; after 1, 0 it may not bid 0.
    v = position_view(3, 2, ["2H", "3H", "AS"], "KS", bids=[0, 0], hook=True)
    bid, p, values = one_card_bid(v)
    assert bid == 0 and p == 1 and list(values) == [0]
    v = position_view(3, 2, ["AH", "3H", "2C"], "KS", bids=[1, 0], hook=True)
    bid, p, values = one_card_bid(v)
    assert bid == 1 and list(values) == [1]
    # after 1, 1 the bids already exceed the tricks: both bids are free
    v = position_view(3, 2, ["AH", "KH", "2C"], "KS", bids=[1, 1], hook=True)
    assert set(one_card_bid(v)[2]) == {0, 1}


def test_no_trump_hand():
    # No trump (the last hand, nothing turned): 3 players, the second bidder holds AH.
    # It wins iff the leader leads a heart (any heart is lower): unconditional
    # 12/51 = 4/17 -> bid 0.  The leader's KD loses only to AD, held by one of the two
    # others with chance 2/51: P = 49/51.
    g = Game.from_deal(Rules(3, hand_sizes=[1]), 2, [["KD"], ["AH"], ["2C"]], None)
    assert g.trump_suit is None and g.turned_card is None
    assert one_card_bid(g.view(0))[:2] == (1, Fraction(49, 51))
    assert win_chance(c("AH"), 1, 3, None, None) == Fraction(4, 17)


def test_simultaneous_bidding_uses_the_card_alone():
    r = rules(4, simultaneous_bidding=True)
    g = Game.from_deal(r, 3, [["2S"], ["3H"], ["4H"], ["5H"]], "AS")
    g.apply(BIDS[1], 1)  # seat 1 bids first; seat 0 sees nothing of it
    bid, p, _ = one_card_bid(g.view(0))
    assert p == Fraction(9139, 19600) and bid == 0


def test_exact_ties_go_to_the_lower_bid():
    from ohhell.bots.onecard import _best
    assert _best({0: Fraction(5), 1: Fraction(5)}) == 0


# --- brute force ------------------------------------------------------------------------

def _brute(n, pos, card, turned, trump, history, r):
    """P(win) by enumerating every deal of the other n-1 seats' cards, keeping those in
    which each earlier seat's equilibrium strategy gives the bid it made."""
    tables = [strategy(n, trump, turned, r, j, tuple(history[:j])) for j in range(pos)]
    unseen = [x for x in range(52) if x not in (card, turned)]
    good = total = 0
    for others in itertools.permutations(unseen, n - 1):
        cards = list(others[:pos]) + [card] + list(others[pos:])
        if any(tables[j][cards[j]] != history[j] for j in range(pos)):
            continue
        total += 1
        good += trick_winner(cards, 0, trump, n) == pos
    return Fraction(good, total)


@pytest.mark.parametrize("pos,card,history", [
    (0, "9H", ()), (1, "2S", (0,)), (1, "QH", (1,)), (2, "5S", (0, 0)),
    (2, "AD", (1, 0)), (2, "TS", (1, 1)), (2, "3C", (0, 1)),
])
def test_dp_equals_brute_force_three_players(pos, card, history):
    r = rules(3)
    tc = c("7S")
    earlier = [_bid_mask(3, S, tc, r, j, history) for j in range(pos)]
    assert win_chance(c(card), pos, 3, S, tc, earlier) == _brute(3, pos, c(card), tc, S, history, r)


def test_dp_equals_brute_force_no_trump_and_a_scoring_variant():
    r = rules(3, zero_bid_scores_hand_size=True)
    earlier = [_bid_mask(3, None, None, r, j, (1, 0)) for j in range(2)]
    assert win_chance(c("KH"), 2, 3, None, None, earlier) == _brute(3, 2, c("KH"), None, None, (1, 0), r)


# --- the memoized strategy (suits renamed, plain suits copied) is the definition's --------

@settings(max_examples=30, deadline=None)
@given(n=st.integers(3, 5), turned=st.integers(0, 51), data=st.data(), hook=st.booleans(),
       trump_kind=st.sampled_from(["turned", "none", "fixed"]), variant=st.sampled_from(["", "missed", "zero"]))
def test_the_memoized_strategy_equals_the_card_by_card_definition(n, turned, data, hook, trump_kind, variant):
    # "fixed": a trump suit other than the turned card's (the renaming must not assume they agree)
    r = rules(n, hook=hook, missed_bid_scores_tricks=variant == "missed", zero_bid_scores_hand_size=variant == "zero")
    trump, tc = {"turned": (turned // 13, turned), "none": (None, None),
                 "fixed": ((turned // 13 + 1) % 4, turned)}[trump_kind]
    pos = data.draw(st.integers(0, n - 1))
    history = tuple(data.draw(st.lists(st.integers(0, 1), min_size=pos, max_size=pos)))
    from ohhell.bots.onecard import clear_caches, strategy_by_card
    clear_caches()
    assert strategy(n, trump, tc, r, pos, history) == strategy_by_card(n, trump, tc, r, pos, history)
    assert strategy(n, trump, tc, r, pos, history) == strategy_by_card(n, trump, tc, r, pos, history)   # from the cache


def test_turned_cards_of_one_rank_share_a_table():
    from ohhell.bots.onecard import _strategy, clear_caches
    r = rules(4)
    clear_caches()
    tables = {s: strategy(4, s, s * 13 + 5, r, 3, (0, 1, 0)) for s in range(4)}
    assert _strategy.cache_info().misses == 4   # the three earlier seats' tables and the dealer's, once
    # the same strategy under the suits' names: the trump seven's bid follows it from suit to suit
    assert {tables[s][s * 13 + 5 + 1] for s in range(4)} == {tables[0][6]}
    assert [tables[s][s * 13 + 5] for s in range(4)] == [-1] * 4


# --- the expert uses it, from a view only ----------------------------------------------

@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 7), seed=st.integers(0, 10**6), dealer=st.integers(0, 6),
       upto=st.integers(0, 6), hook=st.booleans(), variant=st.sampled_from(["", "missed", "zero"]),
       trumps=st.booleans(), simul=st.booleans(), must_trump=st.booleans())
def test_expert_bids_the_exact_bid(n, seed, dealer, upto, hook, variant, trumps, simul, must_trump):
    r = Rules(n, hand_sizes=[1], no_trump="never" if trumps else "last", hook=hook and not simul,
              simultaneous_bidding=simul, must_trump=must_trump,
              missed_bid_scores_tricks=variant == "missed", zero_bid_scores_hand_size=variant == "zero")
    g = Game(r, seed=seed, dealer=dealer % n)
    bot = ExpertBot(seed=0)
    for _ in range(upto % n):
        seat = g.seats_to_act[0]
        g.apply(bot.act(g.view(seat)), seat)
    seat = g.seats_to_act[-1]
    v = g.view(seat)
    d = bot.decide(v)
    bid, p, values = one_card_bid(v)
    assert d.action == BIDS[bid]
    assert d.trick_probs == [float(1 - p), float(p)]
    assert d.values == {BIDS[b]: float(x) for b, x in values.items()}


def test_the_view_holds_no_hidden_card():
    # one_card_bid reads only the view: the same view with other seats' cards changed
    # (a different deal, same own card and turned card) gives the same answer.
    a = position_view(4, 1, ["KS", "2S", "7D", "9C"], "AS", bids=[1])
    b = position_view(4, 1, ["4H", "2S", "QD", "JC"], "AS", bids=[1])
    assert one_card_bid(a) == one_card_bid(b)
    assert a.to_dict() == b.to_dict()  # the two views are the same information


def test_option_validated_and_baseline_reachable():
    with pytest.raises(ValueError):
        ExpertBot(one_card="yes")  # type: ignore[arg-type]
    v = position_view(4, 0, ["2S", "3H", "4H", "5H"], "AS")
    d = ExpertBot(seed=1, one_card=False, iterations=20, seconds=0.5, bidder="search").decide(v)
    assert "exact" not in d.stats
    assert ExpertBot(seed=1).decide(v).stats["exact"] is True


def test_dp_equals_brute_force_four_players_after_three_bids():
    # 4 players, position 3 (the dealer, no hook) after 1, 0, 0: 50*49*48 deals enumerated.
    r = rules(4)
    tc, hist = c("QD"), (1, 0, 0)
    earlier = [_bid_mask(4, 1, tc, r, j, hist) for j in range(3)]
    assert win_chance(c("9D"), 3, 4, 1, tc, earlier) == _brute(4, 3, c("9D"), tc, 1, hist, r)


def test_one_card_bid_wants_a_one_card_bid():
    g = Game(Rules(4, hand_sizes=[2]), seed=1, dealer=0)
    with pytest.raises(ValueError):
        one_card_bid(g.view(g.to_act))
