"""docs/rules.md §8: the invariants, as Hypothesis properties over random games of
3-7 players and random rule combinations."""

import json
import random

from hypothesis import given, strategies as st

import ohhell
from ohhell import Bid, Game, IllegalActionError, Play
from ohhell.actions import BIDS, PLAYS
from ohhell.game import BID, PLAY

from .strategies import GAME_SETTINGS, play_random, rules_strategy


def _all_candidate_actions(game):
    return list(PLAYS) + list(BIDS[:game.hand_size + 2])


def _step_seat(game, rng):
    if game.phase == BID and game.rules.simultaneous_bidding:
        return rng.choice([s for s in range(game.players) if game.bids[s] is None])
    return game.to_act


def _places(game):
    """Every place a card can be in the current hand, as masks."""
    hands = [game.hand_mask(s) for s in range(game.players)]
    played = 0
    for t in game.tricks:
        for c in t.cards:
            assert not played >> c & 1
            played |= 1 << c
    trick = 0
    for c in game.current_trick.cards:
        trick |= 1 << c
    trump = 1 << game.trump_card if game.trump_card >= 0 else 0
    return hands, played, trick, trump


@GAME_SETTINGS
@given(rules_strategy(), st.integers(0, 2**32))
def test_invariants_hold_at_every_step(rules, seed):
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    dealt = 0
    for m in game.deal:
        dealt |= m
    while not game.is_over:
        # Every card is in at most one place; every dealt card is in a hand or played.
        hands, played, trick, trump = _places(game)
        union = 0
        for m in hands + [played, trick, trump]:
            assert union & m == 0, "a card is in two places"
            union |= m
        assert union & ~trump == dealt
        # The player to act always has a legal action.
        seat = _step_seat(game, rng)
        legal = game.legal_actions(seat)
        assert legal
        # Illegal actions are refused with a reason and change nothing.
        before = game.fingerprint()
        for a in rng.sample(_all_candidate_actions(game), 6):
            if a in legal:
                continue
            try:
                game.apply(a, seat=seat)
            except IllegalActionError as e:
                assert str(e).startswith("illegal ") and e.reason
            else:
                raise AssertionError(f"{a} was accepted but is not in legal_actions")
            assert game.fingerprint() == before
        index = game.hand_index
        game.apply(rng.choice(legal), seat=seat)
        if game.hand_index != index or game.is_over:
            dealt = 0
            for m in game.deal:
                dealt |= m
    for h in game.past_hands:
        # Tricks won add up to the hand size; every dealt card is played exactly once.
        assert sum(h.tricks_won) == h.hand_size == len(h.tricks)
        cards = [c for t in h.tricks for c in t.cards]
        dealt = 0
        for m in h.deal:
            dealt |= m
        assert len(cards) == len(set(cards)) == h.hand_size * rules.players
        assert sum(1 << c for c in cards) == dealt
        # With the hook the bids never add up to the tricks.
        if rules.hook:
            assert sum(h.bids) != h.hand_size
        # Scores follow the rules.
        assert h.scores == tuple(ohhell.hand_score(b, w, h.hand_size, rules)
                                 for b, w in zip(h.bids, h.tricks_won))
    assert game.totals == tuple(map(sum, zip(*(h.scores for h in game.past_hands))))


@GAME_SETTINGS
@given(rules_strategy(), st.integers(0, 2**32), st.integers(0, 400))
def test_a_record_replays_to_the_same_game(rules, seed, steps):
    game = play_random(Game(rules, seed=seed), random.Random(seed), steps)
    rec = game.record()
    again = Game.from_record(json.loads(json.dumps(rec)))
    assert again.record() == rec
    if not rules.simultaneous_bidding:  # a record does not keep the order of simultaneous bids
        assert again.fingerprint() == game.fingerprint()
    # Replaying with the same seed and actions reproduces every deal, winner and score.
    fresh = Game(rules, seed=seed, dealer=rec["hands"][0]["dealer"])
    for seat, action in game.actions():
        fresh.apply(action, seat=seat)
    assert fresh.record() == rec


@GAME_SETTINGS
@given(rules_strategy(max_hands=3), st.integers(0, 2**32))
def test_undo_restores_every_earlier_state(rules, seed):
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    states = [game.fingerprint()]
    done = []
    while not game.is_over:
        seat = _step_seat(game, rng)
        a = rng.choice(game.legal_actions(seat))
        game.apply(a, seat=seat)
        done.append(a)
        states.append(game.fingerprint())
        if rng.random() < 0.3:
            # Undo one and redo it: the same state again.
            assert game.undo() is a
            assert game.fingerprint() == states[-2]
            game.apply(a, seat=seat)
            assert game.fingerprint() == states[-1]
    while done:
        assert game.undo() is done.pop()
        states.pop()
        assert game.fingerprint() == states[-1]
    try:
        game.undo()
    except ohhell.OhHellError as e:
        assert "nothing to undo" in str(e)
    else:
        raise AssertionError("undo past the start must fail")


@GAME_SETTINGS
@given(rules_strategy(max_hands=2), st.integers(0, 2**32), st.integers(0, 60))
def test_copies_are_independent(rules, seed, steps):
    game = play_random(Game(rules, seed=seed), random.Random(seed), steps)
    if game.is_over:
        return
    copy = game.copy()
    assert copy.fingerprint() == game.fingerprint()
    snapshot = game.fingerprint()
    play_random(copy, random.Random(seed + 1))
    assert game.fingerprint() == snapshot
    play_random(game, random.Random(seed + 2))
    assert copy.is_over and game.is_over


@GAME_SETTINGS
@given(rules_strategy(max_hands=2), st.integers(0, 2**32), st.integers(0, 80))
def test_views_hold_exactly_what_a_seat_may_know(rules, seed, steps):
    game = play_random(Game(rules, seed=seed), random.Random(seed), steps)
    stock = ohhell.cards.FULL_DECK
    for m in game.deal:
        stock &= ~m
    if game.trump_card >= 0:
        stock &= ~(1 << game.trump_card)
    for seat in list(range(game.players)) + [None]:
        v = game.view(seat) if seat is not None else game.spectator_view()
        d = v.to_dict()
        d.pop("past_hands")
        text = json.dumps(d)
        hidden = stock
        for s in range(game.players):
            if s != seat:
                hidden |= game.hand_mask(s)
        for c in ohhell.mask_to_cards(hidden):
            assert f'"{c}"' not in text, f"{c} leaked to {seat}"
        if seat is not None and not game.is_over:
            assert v.hand_mask == game.hand_mask(seat)
            assert set(v.legal_actions()) == set(game.legal_actions(seat))
        # Bids: all visible except others' during simultaneous bidding.
        hiding = rules.simultaneous_bidding and game.phase == BID
        for s in range(game.players):
            if hiding and s != seat:
                assert v.bids[s] is None
            else:
                assert v.bids[s] == game.bids[s]
        assert v.tricks_won == game.tricks_won and v.totals == game.totals
        # Voids in the view are real.
        for s in range(game.players):
            for suit in range(4):
                if v.is_void(s, suit) and not game.is_over:
                    assert game.hand_mask(s) & ohhell.cards.SUIT_MASKS[suit] == 0
        # Each seat's played cards: from its own deal, gone from its hand, together all played.
        together = 0
        for s in range(game.players):
            together |= v.played_by[s]
            if not game.is_over:
                assert v.played_by[s] & ~game.deal[s] == 0
                assert v.played_by[s] & game.hand_mask(s) == 0
                assert v.played_by[s] | game.hand_mask(s) == game.deal[s]
        assert together == v.played_mask


@GAME_SETTINGS
@given(rules_strategy(max_hands=2), st.integers(0, 2**32), st.integers(0, 80))
def test_legal_actions_agree_with_apply(rules, seed, steps):
    game = play_random(Game(rules, seed=seed), random.Random(seed), steps)
    if game.is_over:
        return
    seat = game.to_act
    legal = set(game.legal_actions())
    for a in _all_candidate_actions(game):
        g = game.copy()
        try:
            g.apply(a)
            accepted = True
        except IllegalActionError:
            accepted = False
        assert accepted == (a in legal) == game.is_legal(a), a
    assert seat is not None
    if game.phase == PLAY:
        assert all(isinstance(a, Play) for a in legal)
    else:
        assert all(isinstance(a, Bid) for a in legal)
