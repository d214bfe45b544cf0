"""Each rule has one home (:mod:`ohhell.tricks`); every copy kept for speed agrees with it.

The copies: :class:`ohhell.Game` (``legal_actions``, ``apply``), :mod:`ohhell.fast`
(``HandState`` and the random playout loop) and the bots' search loops
(:mod:`ohhell.bots.policy`).  The numba kernels are checked in
``tests/env/test_kernel_rules.py``.  Each test drives a copy and the home over the
same random positions and compares every answer.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from ohhell import Bid, Game, Play, Rules
from ohhell.actions import BIDS, PLAYS
from ohhell.cards import CARDS, SUIT_NAMES, card_numbers, mask_to_cards
from ohhell.errors import IllegalActionError
from ohhell.fast import HandState, random_playout
from ohhell.state import BID, PLAY
from ohhell.text import explain_illegal, seat_label
from ohhell.tricks import (FAULTS, hook_bid, legal_mask, play_fault, strength, trick_state, trick_winner,
                           voids_shown)

from .strategies import GAME_SETTINGS, rules_strategy

SUIT_MASK = tuple(0x1FFF << (13 * s) for s in range(4))
trumps = st.sampled_from([None, 0, 1, 2, 3])


@st.composite
def positions(draw):
    """A random moment of a hand: ``size`` cards dealt to each of ``n`` seats, then
    the first cards of the open trick played legally from ``leader``.  Returns
    ``(n, hands, leader, trick, trump, must, size)`` with the hands as they are now."""
    n = draw(st.integers(3, 7))
    size = draw(st.integers(1, 52 // n))
    trump = draw(trumps)
    must = draw(st.booleans())
    deck = draw(st.permutations(range(52)))
    hands = [0] * n
    for i, c in enumerate(deck[:n * size]):
        hands[i % n] |= 1 << c
    leader = draw(st.integers(0, n - 1))
    in_trick = draw(st.integers(0, n - 1))
    trick: list[int] = []
    for i in range(in_trick):
        s = (leader + i) % n
        led = trick[0] // 13 if trick else None
        card = draw(st.sampled_from(card_numbers(legal_mask(hands[s], led, trump, must))))
        hands[s] ^= 1 << card
        trick.append(card)
    return n, hands, leader, trick, trump, must, size


# --- the homes themselves -------------------------------------------------------------------

@given(st.integers(0, 51), st.sampled_from([None, 0, 1, 2, 3]), trumps)
def test_strength_orders_trump_then_led_suit_then_discards(card, led, trump):
    s = strength(card, led, trump)
    if card // 13 == trump:
        assert 26 <= s <= 38
    elif card // 13 == led:
        assert 13 <= s <= 25
    else:
        assert s == -1
    assert strength(card, -1 if led is None else led, -1 if trump is None else trump) == s


@given(st.integers(0, 2 ** 52 - 1), st.sampled_from([None, 0, 1, 2, 3]), trumps, st.booleans())
def test_legal_mask_is_follow_suit_then_must_trump_then_anything(hand, led, trump, must):
    m = legal_mask(hand, led, trump, must)
    assert m & ~hand == 0
    if led is None or hand == 0:
        assert m == hand
    elif hand & SUIT_MASK[led]:
        assert m == hand & SUIT_MASK[led]
    elif must and trump is not None and hand & SUIT_MASK[trump]:
        assert m == hand & SUIT_MASK[trump]
    else:
        assert m == hand
    for c in range(52):
        fault = play_fault(hand, c, led, trump, must)
        assert (fault is None) == bool(m >> c & 1)
        assert fault in (None, "not_held", "must_follow", "must_trump")
        assert fault is None or fault in FAULTS


@given(st.integers(1, 20), st.integers(0, 40))
def test_hook_bid_is_the_bid_that_makes_the_total_the_tricks(h, others):
    x = hook_bid(h, others)
    if others > h:
        assert x is None
    else:
        assert x is not None and 0 <= x <= h and others + x == h


# --- the game's inlined copies ----------------------------------------------------------------

@GAME_SETTINGS
@given(rules_strategy(max_hands=2), st.integers(0, 2 ** 32))
def test_game_agrees_with_the_homes_at_every_decision(rules, seed):
    rng = random.Random(seed)
    g = Game(rules, seed=seed)
    n = g.players
    while not g.is_over:
        if g.phase == BID:
            seats = g.seats_to_act
            seat = rng.choice(seats)
            h = g.hand_size
            legal = g.legal_actions(seat)
            forbidden = None
            if rules.hook and sum(b is not None for b in g.bids) == n - 1:
                forbidden = hook_bid(h, g.bid_total)
            assert g.forbidden_bid(seat) == forbidden
            assert [a.tricks for a in legal] == [b for b in range(h + 1) if b != forbidden]
            if forbidden is not None:
                with pytest.raises(IllegalActionError) as e:
                    g.check(Bid(forbidden), seat)
                assert e.value.code == "hook" and e.value.facts["bid"] == forbidden
            g.apply(rng.choice(legal), seat=seat)
            continue
        p = g.to_act
        trick = g.current_trick
        led = trick.cards[0] // 13 if trick.cards else None
        hand = g.hand_mask(p)
        want = legal_mask(hand, led, g.trump_suit, rules.must_trump)
        assert sorted(int(a.card) for a in g.legal_actions()) == card_numbers(want)
        for c in range(52):
            fault = play_fault(hand, c, led, g.trump_suit, rules.must_trump)
            if fault is None:
                g.check(Play(CARDS[c]))
            else:
                with pytest.raises(IllegalActionError) as e:
                    g.check(Play(CARDS[c]))
                assert e.value.code == fault
        if trick.cards:
            assert g.trick_winner_so_far == trick_winner(trick.cards, trick.leader, g.trump_suit, n)
        done = len(g.tricks)
        index = g.hand_index
        trump = g.trump_suit
        g.apply(PLAYS[rng.choice(card_numbers(want))])
        finished = (g.past_hands[index].tricks if g.hand_index != index or g.is_over else g.tricks)
        if len(finished) > done:
            t = finished[done]
            assert t.winner == trick_winner(t.cards, t.leader, trump, n)


@GAME_SETTINGS
@given(rules_strategy(max_hands=1), st.integers(0, 2 ** 32), st.integers(0, 60))
def test_a_views_reason_is_the_games_reason(rules, seed, steps):
    rng = random.Random(seed)
    g = Game(rules, seed=seed)
    for _ in range(steps):
        if g.is_over:
            break
        seat = rng.choice(g.seats_to_act)
        g.apply(rng.choice(g.legal_actions(seat)), seat=seat)
    h = g.hand_size
    for seat in range(g.players):
        v = g.view(seat)
        for a in [BIDS[b] for b in range(h + 2)] + list(PLAYS):
            err = v.rejection(a)
            try:
                g.check(a, seat)
            except IllegalActionError as e:
                assert err is not None and str(err) == str(e) and err.code == e.code
                assert err.facts == e.facts
                words = explain_illegal(err, g.names)
                assert words.endswith(".") and "seat" not in words.split(":")[0].lower()
            else:
                assert err is None


def test_explanations_word_each_reason_for_the_player():
    g = Game.from_deal(Rules(3, hand_sizes=[2], no_trump="never", must_trump=True, hook=True), dealer=2,
                       deal=[["AS", "2H"], ["2C", "3C"], ["3S", "4H"]], trump_card="4D", names="Ann Bob Cy".split())

    def why(action, seat):
        with pytest.raises(IllegalActionError) as e:
            g.check(action, seat)
        return explain_illegal(e.value, g.names)

    assert why(Bid(0), 1) == "It is not your turn: Ann is to act."
    assert why(Play("AS"), 0) == "Bid first: a whole number from 0 to 2."
    assert why(Bid(3), 0) == "Bids are 0 to 2: this hand has 2 tricks."
    g.apply(Bid(1)); g.apply(Bid(0))
    assert why(Bid(1), 2) == ("You deal and, with the hook, may not bid 1: the bids would total 2, "
                              "the number of tricks.")
    g.apply(Bid(0))
    assert why(Bid(0), 0) == "The bidding is over: play a card."
    assert why(Play("TC"), 0) == "You do not hold 10♣."
    g.apply(Play("2H"))
    g.apply(Play("2C"))
    assert why(Play("3S"), 2) == "You must follow suit: you hold hearts ♥."
    assert why("zz", 2) == "That is neither a bid nor a card."
    assert seat_label(0) == "Seat 1" and Game(Rules(3)).names == ("Seat 1", "Seat 2", "Seat 3")


def test_must_trump_is_explained_with_both_suits():
    g = Game.from_deal(Rules(3, hand_sizes=[2], no_trump="never", must_trump=True), dealer=2,
                       deal=[["AS", "2H"], ["2D", "3C"], ["3S", "4H"]], trump_card="4D")
    for _ in range(3):
        g.apply(Bid(0))
    g.apply(Play("AS"))
    with pytest.raises(IllegalActionError) as e:
        g.check(Play("3C"))
    assert e.value.code == "must_trump" and e.value.facts["led"] == 3 and e.value.facts["trump"] == 1
    assert explain_illegal(e.value) == ("You cannot follow spades, so under must trump you must play a "
                                        "trump (diamonds ♦).")
    assert f"must play a trump ({SUIT_NAMES[1]})" in str(e.value)


# --- the fast path ---------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(positions())
def test_hand_state_agrees_with_the_homes(pos):
    n, hands, leader, trick, trump, must, size = pos
    s = HandState(list(hands), trump, leader, hand_size=size, trick=trick, must_trump=must)
    led = trick[0] // 13 if trick else None
    assert s.legal_mask() == legal_mask(hands[s.to_act], led, trump, must)
    if trick:
        _, best, winner = trick_state(trick, leader, trump, n)
        assert (s.best, s.winner) == (best, winner)
    assert s.winning_so_far() == trick_winner(trick, leader, trump, n)


class _Uniforms:
    """A replayable stream of uniform numbers."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seen: list[float] = []

    def __call__(self) -> float:
        u = self.rng.random()
        self.seen.append(u)
        return u


def _kth_lowest(m: int, k: int) -> int:
    for _ in range(k):
        m &= m - 1
    return (m & -m).bit_length() - 1


@settings(max_examples=300, deadline=None)
@given(positions(), st.integers(0, 2 ** 32))
def test_the_random_playout_loop_plays_by_the_homes(pos, seed):
    n, hands, leader, trick, trump, must, size = pos
    tricks_left = size
    state = HandState(list(hands), trump, leader, hand_size=size, trick=trick, must_trump=must)
    u = _Uniforms(seed)
    won = list(random_playout(state, u))
    # The same choices, made by the homes.
    hs = list(hands)
    mine = [0] * n
    cur = list(trick)
    lead = leader
    p = (leader + len(trick)) % n
    i = 0
    for _ in range(tricks_left):
        while len(cur) < n:
            m = legal_mask(hs[p], cur[0] // 13 if cur else None, trump, must)
            c = _kth_lowest(m, int(u.seen[i] * m.bit_count()))
            i += 1
            hs[p] ^= 1 << c
            if not cur:
                lead = p
            cur.append(c)
            p = (p + 1) % n
        w = trick_winner(cur, lead, trump, n)
        mine[w] += 1
        cur = []
        p = w
    assert won == mine and state.hands == hs and i == len(u.seen)


# --- the bots' inner loops -------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(positions(), st.integers(0, 2 ** 52 - 1))
def test_policy_beating_cards_are_the_ones_the_home_ranks_higher(pos, legal):
    from ohhell.bots.policy import _beating
    n, hands, leader, trick, trump, must, size = pos
    if not trick:
        return
    led = trick[0] // 13
    _, best, _ = trick_state(trick, leader, trump, n)
    got = _beating(legal, best, led, -1 if trump is None else trump)
    want = sum(1 << c for c in card_numbers(legal) if strength(c, led, trump) > best)
    assert got == want


class _CheckedState(HandState):
    """A HandState that asserts every card played is legal by the home."""

    def play(self, card):  # type: ignore[override]
        led = self.led if self.trick else None
        trump = None if self.trump < 0 else self.trump
        assert legal_mask(self.hands[self.to_act], led, trump, self.must_trump) >> card & 1
        before = list(self.trick) + [card]
        leader = self.leader if self.trick else self.to_act
        w = super().play(card)
        if w is not None:
            assert w == trick_winner(before, leader, trump, self.n)
        return w


@settings(max_examples=100, deadline=None)
@given(rules_strategy(max_hands=1), st.integers(0, 2 ** 32))
def test_the_policy_playouts_play_only_cards_the_home_allows(rules, seed):
    from ohhell.bots.policy import heuristic_playout, mixed_playout
    rng = random.Random(seed)
    g = Game(rules, seed=seed)
    while g.phase == BID:
        seat = rng.choice(g.seats_to_act)
        g.apply(rng.choice(g.legal_actions(seat)), seat=seat)
    if g.phase != PLAY:
        return
    from ohhell.bots.policy_v2 import playout_v2
    base = HandState.from_game(g)
    for run in range(3):
        s = object.__new__(_CheckedState)
        for slot in HandState.__slots__:
            setattr(s, slot, getattr(base.copy(), slot))
        if run == 0:
            heuristic_playout(s, 0, rules.missed_bid_scores_tricks)
        elif run == 1:
            mixed_playout(s, g.to_act, 0, rules.missed_bid_scores_tricks, rng.random)
        else:
            playout_v2(s, 0, rules.missed_bid_scores_tricks)
        assert sum(s.won) == g.hand_size


@settings(max_examples=100, deadline=None)
@given(rules_strategy(max_hands=1), st.integers(0, 2 ** 32), st.integers(0, 30))
def test_the_v2_playout_tracks_the_voids_the_home_shows(rules, seed, steps):
    """playout_v2 inlines voids_shown: the voids it hands the policy at every card equal the
    home's over the tricks played so far (those shown before the playout passed in)."""
    import ohhell.bots.policy_v2 as v2
    rng = random.Random(seed)
    g = Game(rules, seed=seed)
    while g.phase == BID:
        seat = rng.choice(g.seats_to_act)
        g.apply(rng.choice(g.legal_actions(seat)), seat=seat)
    for _ in range(steps):
        if g.phase != PLAY:
            return
        g.apply(rng.choice(g.legal_actions()))
    if g.phase != PLAY:
        return
    trump = g.trump_suit
    history = [(t.leader, [int(c) for c in t.cards]) for t in g.tricks]
    history.append((g.current_trick.leader, [int(c) for c in g.current_trick.cards]))
    before = voids_shown(history, g.players, trump, rules.must_trump)

    class Recording(HandState):
        def play(self, card):  # type: ignore[override]
            if not self.trick:
                history.append((self.to_act, []))
            history[-1][1].append(card)
            return super().play(card)

    s = object.__new__(Recording)
    base = HandState.from_game(g)
    for slot in HandState.__slots__:
        setattr(s, slot, getattr(base, slot))
    real = v2.choose_card_v2
    seen = []

    def spy(*args):
        seen.append(list(args[13]) == voids_shown(history, g.players, trump, rules.must_trump))
        return real(*args)

    v2.choose_card_v2 = spy
    try:
        v2.playout_v2(s, 0, rules.missed_bid_scores_tricks, voids=before)
    finally:
        v2.choose_card_v2 = real
    assert all(seen)


@given(positions())
def test_view_voids_are_the_homes(pos):
    n, hands, leader, trick, trump, must, size = pos
    voids = voids_shown([(leader, trick)], n, trump, must)
    if trick:
        led = trick[0] // 13
        for i, c in enumerate(trick):
            s = (leader + i) % n
            assert bool(voids[s] >> led & 1) == (c // 13 != led)
    assert all(v == 0 for v in voids) or trick
    assert mask_to_cards(0) == []


# --- no trump is None at every boundary --------------------------------------------------------

@given(st.integers(0, 2 ** 52 - 1), st.integers(3, 7))
def test_no_trump_is_none_at_the_fast_boundaries(hand, n):
    from ohhell.sampling import card_win_chances
    hand &= (1 << 52) - 1
    size = min(hand.bit_count(), 52 // n)
    if size == 0:
        return
    hand = sum(1 << c for c in card_numbers(hand)[:size])
    assert card_win_chances(hand, None, n, size) == card_win_chances(hand, -1, n, size, -1)
    hands = [hand] + [0] * (n - 1)
    assert HandState(hands, None, 0, hand_size=size).trump == -1


def test_the_game_reads_no_trump_as_none_and_the_phase_as_one_type():
    g = Game.from_deal(Rules(3, hand_sizes=[1], no_trump="never"), dealer=0,
                       deal=[["AS"], ["2C"], ["3C"]], trump_card="4D")
    assert g.trump_suit == 1 and g.turned_card == CARDS[15] and str(g.turned_card) == "4D"
    g = Game(Rules(3, hand_sizes=[17]), seed=3)       # the whole deck is dealt: no trump
    assert g.trump_suit is None and g.turned_card is None and g.view(0).trump is None
    assert g.phase is BID and g.view(0).phase is BID and g.phase == "bid" and g.phase_name == "bid"
    assert g.view(0).to_dict()["phase"] == "bid" and type(g.view(0).to_dict()["phase"]) is str


@settings(max_examples=150, deadline=None)
@given(positions(), st.data())
def test_the_solver_searches_by_the_homes(pos, data):
    """The exact solver's inlined legal cards and trick strength against a plain max^n written
    on the homes (same order of trial: the heuristic's card first, then low to high)."""
    from ohhell.bots.policy import choose_card
    from ohhell.bots.solver import solve
    n, hands, leader, trick, trump, must, size = pos
    if size > 3 or n > 5:
        size = min(size, 3)
        if n > 5 or size * n > 52:
            return
        # Cut the hands down to `size` cards left (a seat that played to the trick keeps one fewer).
        cut = []
        for s in range(n):
            keep = size - (1 if (s - leader) % n < len(trick) else 0)
            cut.append(sum(1 << c for c in card_numbers(hands[s])[:keep]))
        hands = cut
    bids = [data.draw(st.integers(0, size)) for _ in range(n)]
    scores_tricks = data.draw(st.booleans())
    score = [[(10 + t if t == bids[s] else (t if scores_tricks else 0)) for t in range(size + 1)]
             for s in range(n)]
    t_int = -1 if trump is None else trump
    state = HandState(list(hands), trump, leader, hand_size=size, bids=bids, trick=trick, must_trump=must)

    def brute(hs, won, p, played, cur, lead):
        if sum(won) == size:
            return won
        tl = len(cur)
        led = cur[0] // 13 if tl else None
        legal = legal_mask(hs[p], led, trump, must)
        _, best, wn = trick_state(cur, lead, trump, n)
        if legal & (legal - 1):
            first = choose_card(hs[p], legal, tl, led if tl else -1, best, wn, n, t_int, played,
                                bids[p] - won[p], size - sum(won),
                                (bids[wn] - won[wn]) if tl else None, scores_tricks)
        else:
            first = legal.bit_length() - 1
        best_res, best_v = None, None
        for c in [first] + [x for x in card_numbers(legal) if x != first]:
            h2 = list(hs)
            h2[p] ^= 1 << c
            t2 = cur + [c]
            l2 = lead if tl else p
            if len(t2) == n:
                w = trick_winner(t2, l2, trump, n)
                won2 = list(won)
                won2[w] += 1
                res = brute(h2, won2, w, played | 1 << c, [], w)
            else:
                res = brute(h2, won, (p + 1) % n, played | 1 << c, t2, l2)
            v = score[p][res[p]]
            if best_v is None or v > best_v:
                best_res, best_v = res, v
        return best_res

    played = sum(1 << c for c in trick)
    want = brute(list(hands), [0] * n, (leader + len(trick)) % n, played, list(trick), leader)
    assert solve(state, score, scores_tricks=scores_tricks) == list(want)


@settings(max_examples=200, deadline=None)
@given(rules_strategy(max_hands=1), st.integers(0, 2 ** 32), st.integers(0, 40),
       st.floats(0.05, 1.0), st.booleans())
def test_play_inference_reads_the_plays_by_the_homes(rules, seed, steps, slack, must):
    """PlayModel.likelihood inlines the legal cards of each observed play; recompute it with
    the home and compare."""
    from ohhell.bots.inference import PlayModel
    from ohhell.bots.policy import choose_card
    rules = rules.replace(must_trump=must or rules.must_trump)
    rng = random.Random(seed)
    g = Game(rules, seed=seed)
    while g.phase == BID:
        seat = rng.choice(g.seats_to_act)
        g.apply(rng.choice(g.legal_actions(seat)), seat=seat)
    for _ in range(steps):
        if g.phase != PLAY:
            return
        g.apply(rng.choice(g.legal_actions()))
    if g.phase != PLAY:
        return
    v = g.view(g.to_act)
    model = PlayModel(v, slack)
    hands = [g.hand_mask(s) for s in range(g.players)]
    trump = v.trump
    w = 1.0
    for s, c, tl, led, best, winner, gone, need, left, wneed, held in model.events:
        hand = hands[s] | held
        legal = legal_mask(hand, led if tl else None, trump, rules.must_trump)
        if not legal & (legal - 1):
            continue
        k = legal.bit_count()
        pick = choose_card(hand, legal, tl, led, best, winner, g.players, -1 if trump is None else trump,
                           gone, need, left, wneed, rules.missed_bid_scores_tricks)
        w = w / (1.0 + slack * (k - 1)) if pick == c else w * slack / (1.0 + slack * (k - 1))
    assert model.likelihood(hands) == pytest.approx(w, rel=1e-12)
