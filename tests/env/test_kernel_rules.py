"""The compiled kernels' copies of the play rules agree with their one home, :mod:`ohhell.tricks`.

``legal_cards``, ``hooked_bid`` and ``apply_action`` in :mod:`ohhell.env._kernels`
inline follow suit / must trump, the hook and the trick's strength; here they are
driven over random positions next to the home functions.  (``test_batch.py``
replays whole kernel games through :class:`ohhell.Game` as well.)
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from ohhell.cards import card_numbers
from ohhell.env import _kernels as K
from ohhell.tricks import hook_bid, legal_mask, trick_state, voids_shown


def _row(n, hands, trump, leader):
    st_ = np.zeros(K.WIDTH, dtype=np.int64)
    st_[K.F_PHASE] = K.PLAY
    st_[K.F_H] = 99          # never the hand's last trick: apply_action stays inside the hand
    st_[K.F_TRUMP] = -1 if trump is None else trump
    st_[K.F_LEADER] = leader
    st_[K.F_TOACT] = leader
    st_[K.F_LED] = -1
    st_[K.F_BEST] = -1
    for s in range(n):
        st_[K.O_HANDS + s] = hands[s]
    return st_


def _rules(n, hook, must):
    R = np.zeros(K.R_WIDTH, dtype=np.int64)
    R[K.R_N] = n
    R[K.R_HOOK] = hook
    R[K.R_MUST] = must
    return R


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 7), st.data())
def test_kernel_play_rules_agree_with_the_homes(n, data):
    size = data.draw(st.integers(1, 52 // n))
    trump = data.draw(st.sampled_from([None, 0, 1, 2, 3]))
    must = data.draw(st.booleans())
    deck = data.draw(st.permutations(range(52)))
    hands = [0] * n
    for i, c in enumerate(deck[:n * size]):
        hands[i % n] |= 1 << c
    leader = data.draw(st.integers(0, n - 1))
    st_ = _row(n, hands, trump, leader)
    R = _rules(n, 0, must)
    # Never used (the hand does not end here), but typed as the batch passes them.
    sizes, trumps = np.array([99], dtype=np.int64), np.zeros(1, dtype=np.int64)
    D, rng = np.zeros((1, 1, 1), dtype=np.int64), np.zeros(1, dtype=np.uint64)
    deck, scores = np.zeros(52, dtype=np.int64), np.zeros((1, 7), dtype=np.int64)
    trick: list[int] = []
    p = leader
    for _ in range(n):
        led = trick[0] // 13 if trick else None
        want = legal_mask(hands[p], led, trump, must)
        assert int(K.legal_cards(st_, R, p)) == want
        card = data.draw(st.sampled_from(card_numbers(want)))
        hands[p] ^= 1 << card
        trick.append(card)
        K.apply_action(st_, 0, R, card, sizes, trumps, D, rng, K.DEAL_GIVEN, deck, scores)
        _, best, winner = trick_state(trick, leader, trump, n)
        if len(trick) < n:
            assert (int(st_[K.F_BEST]), int(st_[K.F_WINNER])) == (best, winner)
        else:
            assert int(st_[K.O_WON + winner]) == 1 and int(st_[K.F_TOACT]) == winner
        voids = voids_shown([(leader, trick)], n, trump, bool(must))
        assert [int(st_[K.O_VOIDS + s]) for s in range(n)] == voids
        p = (p + 1) % n


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 7), st.integers(1, 17), st.booleans(), st.data())
def test_kernel_hook_agrees_with_the_home(n, h, hook, data):
    bids = data.draw(st.lists(st.integers(0, h), min_size=n - 1, max_size=n - 1))
    made = data.draw(st.integers(0, n - 1))
    st_ = np.zeros(K.WIDTH, dtype=np.int64)
    st_[K.F_PHASE] = K.BID
    st_[K.F_H] = h
    st_[K.F_NBIDS] = made
    st_[K.F_BIDSUM] = sum(bids[:made])
    R = _rules(n, int(hook), 0)
    x = hook_bid(h, sum(bids[:made])) if hook and made == n - 1 else None
    assert int(K.hooked_bid(st_, R)) == (-1 if x is None else x)
    for b in range(h + 2):
        assert bool(K.is_legal(st_, R, 52 + b)) == (b <= h and b != x)
