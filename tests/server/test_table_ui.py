"""The table page: what the server adds to a view for it (``game.explain``), and the page
itself in Debian's chromium under Playwright — whole games at 390, 768, 1280 and 1920 px
wide with no sideways scroll, the keyboard alone, the screen reader's live region, illegal
cards that say why, settings that persist, and axe-core (loaded by the test only, from the
``axe-playwright-python`` package) finding no serious or critical violation in any phase.

Set ``OHHELL_SCREENSHOTS=docs`` to refresh ``docs/table-*.png``.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ohhell import Game, Rules
from ohhell.server.tables import explain
from ohhell.text import explain_illegal
from ohhell.tricks import hook_bid


# --- game.explain: the core's reasons, for the receiver's own choices only -------------------

@settings(max_examples=40, deadline=None)
@given(players=st.integers(3, 5), seed=st.integers(0, 10**6), hook=st.booleans(),
       must_trump=st.booleans(), steps=st.integers(0, 60))
def test_explain_gives_the_cores_reason_for_every_choice_not_legal(players, seed, hook, must_trump, steps):
    rules = Rules(players, hand_sizes=[4, 3], hook=hook, must_trump=must_trump)
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    for seat in [*range(players), None]:
        view = game.spectator_view() if seat is None else game.view(seat)
        ex = explain(view)
        why = ex["why_not"]
        if seat is None or not view.legal:
            assert why == {}
        elif view.phase == "bid":
            legal = {a.to_json() for a in view.legal}
            assert set(why) == {str(b) for b in range(view.hand_size + 1) if b not in legal}
            for b, sentence in why.items():
                assert sentence == explain_illegal(view.rejection(int(b)), list(view.names))
        else:
            legal = {a.to_json() for a in view.legal}
            held = {str(c) for c in view.hand}
            assert set(why) == held - legal  # only its own cards: nothing hidden leaks
            for card, sentence in why.items():
                assert sentence == explain_illegal(view.rejection(card), list(view.names))
                assert sentence.startswith("You must")
        assert ex["winning"] == (view.trick_winner_so_far if view.phase == "play" else None)
        if ex["hook"] is not None:
            assert hook and view.phase == "bid" and view.bids[view.dealer] is None
            others = [b for s, b in enumerate(view.bids) if s != view.dealer]
            assert ex["hook"]["seat"] == view.dealer
            assert ex["hook"]["bid"] == (hook_bid(view.hand_size, sum(others)) if None not in others else None)
        else:
            assert not (hook and view.phase == "bid" and view.bids[view.dealer] is None)


def test_explain_words_the_hook_for_the_dealer_and_tells_everyone():
    game = Game(Rules(4, hand_sizes=[3], hook=True), seed=3)
    while game.to_act != game.view(0).dealer:
        game.apply(game.legal_actions()[0])
    dealer = game.to_act
    others = sum(b for b in game.view(dealer).bids if b is not None)
    forbidden = 3 - others
    ex = explain(game.view(dealer))
    assert ex["why_not"] == {str(forbidden): f"You deal and, with the hook, may not bid {forbidden}: "
                                             "the bids would total 3, the number of tricks."}
    assert explain(game.spectator_view())["hook"] == {"seat": dealer, "bid": forbidden}
