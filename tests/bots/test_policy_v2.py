"""The ``v2`` play policy (``ohhell.bots.policy_v2``): its rules of thumb in hand-built positions,
legal cards only, the odds it reads, and the options that select it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from ohhell import Game, Rules, bots
from ohhell.bots.expert import ExpertBot
from ohhell.bots.heuristic import HeuristicBot
from ohhell.bots.match import BotSpecError, make_spec
from ohhell.bots.policy import PLAYOUTS, choose_card
from ohhell.bots.policy_v2 import choose_card_v2, playout_v2, win_chance
from ohhell.cards import CARDS, cards_to_mask, parse_card
from ohhell.fast import HandState
from ohhell.game import trick_state
from ohhell.state import BID, PLAY
from ohhell.tricks import legal_mask



@st.composite
def rules_strategy(draw) -> Rules:
    """One hand of any size, any player count and any of the variants."""
    n = draw(st.integers(3, 7))
    simultaneous = draw(st.booleans())
    return Rules(n, hand_sizes=[draw(st.integers(1, 52 // n))], hook=not simultaneous and draw(st.booleans()),
                 simultaneous_bidding=simultaneous, must_trump=draw(st.booleans()),
                 missed_bid_scores_tricks=draw(st.booleans()), no_trump=draw(st.sampled_from(["last", "never"])))

S, H, D, C = 3, 2, 1, 0


def pick(hand: str, trick=(), *, leader=0, n=4, trump=S, left=5, bids=None, won=None, gone=(),
         turned=None, voids=None, scores_tricks=False):
    """(v2's card, the first policy's card) for the seat to play after ``trick`` (led by ``leader``)."""
    hm = cards_to_mask(hand.split())
    tcards = [int(parse_card(c)) for c in trick]
    led = tcards[0] // 13 if tcards else None
    legal = legal_mask(hm, led, trump, False)
    t = -1 if trump is None else trump
    ld, best, winner = trick_state(tcards, leader, t, n) if tcards else (-1, -1, leader)
    me = (leader + len(tcards)) % n
    g = cards_to_mask(list(gone) + ([turned] if turned else []) + list(trick))
    bids = bids or [1] * n
    won = won or [0] * n
    a = choose_card_v2(hm, legal, me, len(tcards), ld, best, winner, n, t, g, left, bids, won, voids,
                       scores_tricks)
    b = choose_card(hm, legal, len(tcards), ld, best, winner, n, t, g, bids[me] - won[me], left,
                    (bids[winner] - won[winner]) if tcards else None, scores_tricks)
    return str(CARDS[a]), str(CARDS[b])


def test_a_king_whose_ace_is_likely_in_the_stock_takes_the_trick():
    # Five cards each of 52: the unseen ace of hearts is more likely undealt than held behind.
    v2, old = pick("KH 7H 3C 5D 9D", ["4H"], leader=3, bids=[2, 1, 1, 1], turned="2S")
    assert (v2, old) == ("KH", "7H")


def test_sure_tricks_that_cover_the_need_make_it_duck_with_its_most_dangerous_card():
    # The trump ace makes the bid of 1: lose this trick, shedding the queen rather than the three.
    gone = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]
    v2, old = pick("AS QH 3H", ["KH"], leader=3, left=3, gone=gone, turned="2S")
    assert (v2, old) == ("QH", "3H")


def test_on_lead_it_cashes_a_likely_winner_that_is_not_a_master():
    v2, old = pick("KD 4C 6C 3H 5H", leader=0, turned="2S")
    assert (v2, old) == ("KD", "4C")


def test_with_no_likely_winner_it_leads_its_short_suit_to_ruff_it_later():
    v2, old = pick("2S 3C 4H 5H 6H", leader=0, turned="9S")
    assert (v2, old) == ("3C", "4H")


def test_one_trick_to_go_last_to_play_it_wins_with_its_most_dangerous_card():
    v2, _ = pick("QH 5H 2C", ["3H", "4H", "9H"], leader=1, left=3, bids=[1, 1, 1, 1], turned="2S")
    assert v2 == "QH"


def test_bid_made_it_follows_with_its_highest_losing_card_and_leads_its_least_likely_winner():
    v2, _ = pick("JH 9H 2H AD", ["QH"], leader=3, left=4, won=[1, 0, 0, 0], turned="2S")
    assert v2 == "JH"
    v2, _ = pick("AS 2H 9D", leader=0, left=3, won=[1, 0, 0, 1], turned="3S")
    assert v2 == "2H"


def test_a_lost_bid_spoils_as_before_unless_missed_bids_score_tricks():
    # Bid 0, won 1: spoil (standard) like the first policy; take tricks when they score.
    args = dict(leader=3, left=3, bids=[0, 1, 1, 1], won=[1, 0, 0, 0], turned="2S")
    v2, old = pick("KH 3H 2C", ["4H"], **args)
    assert v2 == old
    v2, _ = pick("KH 3H 2C", ["4H"], scores_tricks=True, **args)
    assert v2 == "KH"


def _chance(card, *, n=4, left=5, eager=None, voids=None, gone=(), hand="", tl=0, led=-1, me=0, trump=S):
    out = ((1 << 52) - 1) & ~cards_to_mask(list(gone) + hand.split() + [card])
    return win_chance(int(parse_card(card)), me, tl, led, n, trump, out, out.bit_count(), left,
                      eager or [True] * n, voids)


FULL_HAND = "AS 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"     # with the card led: 13 cards, no stock


def test_the_odds_are_certain_where_the_first_policy_was_and_fall_with_threats():
    # A full deal (13 each of 4): no stock; the top trump always holds, a king under an unseen
    # ace never does when every other seat wants the trick (the ace is surely in some hand).
    assert _chance("KS", left=13, hand="2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC") == 0.0
    assert _chance("AS", left=13, hand="2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC") == 1.0
    # A master of a side suit holds unless a void seat ruffs it.
    spades = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"]
    assert _chance("AH", left=13, gone=spades, hand=FULL_HAND) == 1.0
    assert 0.0 < _chance("AH", left=13, hand=FULL_HAND) < 1.0
    # Five cards each: the ace of hearts is likely undealt, so the king holds fairly often,
    # less often than the ace, and less often still with two cards each (voids, so ruffs).
    assert 0.2 < _chance("KH", left=5, hand="2C 3C 4C 5C") < _chance("AH", left=5, hand="2C 3C 4C 5C") < 1.0
    assert _chance("KH", left=2, hand="2C") < _chance("KH", left=5, hand="2C 3C 4C 5C")


def test_seats_that_do_not_want_the_trick_overtake_less_and_shown_voids_count():
    eager = _chance("KH", left=5)
    calm = _chance("KH", left=5, eager=[True, False, False, False])
    assert calm > eager
    # A seat known void in hearts (and not in trumps) ruffs more surely than the odds say.
    assert _chance("KH", left=5, voids=[0, 1 << H, 0, 0]) < eager
    # ... and one void in hearts and spades cannot beat it at all.
    assert _chance("KH", left=5, voids=[0, 1 << H | 1 << S, 0, 0]) > eager


def _random_play_position(rules: Rules, seed: int, steps: int):
    rng = random.Random(seed)
    g = Game(rules, seed=seed)
    while g.phase == BID:
        seat = rng.choice(g.seats_to_act)
        g.apply(rng.choice(g.legal_actions(seat)), seat=seat)
    for _ in range(steps):
        if g.phase != PLAY:
            return None
        g.apply(rng.choice(g.legal_actions()))
    return g if g.phase == PLAY else None


@settings(max_examples=150, deadline=None)
@given(rules_strategy(), st.integers(0, 2 ** 32), st.integers(0, 40))
def test_the_v2_player_only_plays_legal_cards(rules, seed, steps):
    g = _random_play_position(rules, seed, steps)
    if g is None:
        return
    view = g.view(g.to_act)
    d = HeuristicBot(seed=1, play="v2").decide(view)
    assert d.action in view.legal_actions()
    # every seat's choice in a playout from here is legal (the playout asserts nothing itself)
    st_ = HandState.from_game(g)
    gone0 = 1 << int(g.turned_card) if g.turned_card is not None else 0
    won = playout_v2(st_, gone0, rules.missed_bid_scores_tricks, voids=view.voids)
    assert sum(won) == g.hand_size and st_.tricks_left == 0


@settings(max_examples=100, deadline=None)
@given(rules_strategy(), st.integers(0, 2 ** 32), st.integers(0, 40), st.integers(0, 6))
def test_a_playout_with_one_v2_seat_plays_v2_there_and_the_heuristic_elsewhere(rules, seed, steps, who):
    """``playout_v2(only=seat)``, card by card against the two policies it mixes."""
    g = _random_play_position(rules, seed, steps)
    if g is None:
        return
    me = who % rules.players
    gone0 = 1 << int(g.turned_card) if g.turned_card is not None else 0
    st_ = HandState.from_game(g)
    voids = list(g.view(me).voids)
    won = playout_v2(st_.copy(), gone0, rules.missed_bid_scores_tricks, voids=voids, only=me)
    # the same hand step by step: seat ``me`` asks v2, every other seat the heuristic
    ref = st_.copy()
    vd = list(voids)
    must = ref.must_trump and ref.trump >= 0
    while ref.tricks_left:
        p, tl = ref.to_act, len(ref.trick)
        led = ref.led if tl else None
        legal = legal_mask(ref.hands[p], led, ref.trump if ref.trump >= 0 else None, must)
        ld = led if led is not None else -1
        if not legal & (legal - 1):
            c = legal.bit_length() - 1
        elif p == me:
            c = choose_card_v2(ref.hands[p], legal, p, tl, ld, ref.best, ref.winner, ref.n, ref.trump,
                               ref.played | gone0, ref.tricks_left, ref.bids, ref.won, vd,
                               rules.missed_bid_scores_tricks, must)
        else:
            w = ref.winner
            c = choose_card(ref.hands[p], legal, tl, ld, ref.best, w, ref.n, ref.trump, ref.played | gone0,
                            ref.bids[p] - ref.won[p], ref.tricks_left, ref.bids[w] - ref.won[w] if tl else None,
                            rules.missed_bid_scores_tricks)
        if tl and c // 13 != ld:
            vd[p] |= 1 << ld
            if must and c // 13 != ref.trump:
                vd[p] |= 1 << ref.trump
        ref.play(c)
    assert won == ref.won


def test_a_playout_with_no_v2_seat_is_the_heuristic_playout():
    from ohhell.bots.policy import heuristic_playout
    rng = random.Random(3)
    for i in range(200):
        rules = Rules(rng.randint(3, 7), hand_sizes=[rng.randint(1, 7)], must_trump=rng.random() < 0.3)
        g = _random_play_position(rules, i, rng.randint(0, 10))
        if g is None:
            continue
        gone0 = 1 << int(g.turned_card) if g.turned_card is not None else 0
        st_ = HandState.from_game(g)
        assert playout_v2(st_.copy(), gone0, False, only=99) == heuristic_playout(st_.copy(), gone0, False)


def test_the_playouts_are_registered_by_name():
    assert set(PLAYOUTS) >= {"heuristic", "v2"} and PLAYOUTS["v2"] is playout_v2


def test_the_options_that_pick_v2_are_checked():
    assert ExpertBot(rollout="v2").rollout == "v2"
    with pytest.raises(ValueError, match="rollout must be one of heuristic, v2, v2-self, random"):
        ExpertBot(rollout="v3")
    assert ExpertBot(rollout="v2-self").rollout == "v2-self"
    with pytest.raises(ValueError, match="v2-self needs search=ismcts and bid_search=ismcts"):
        ExpertBot(rollout="v2-self", bid_search="flat")
    assert HeuristicBot(play="v2").play == "v2" and HeuristicBot().play == "heuristic"
    with pytest.raises(ValueError, match="play must be one of heuristic, v2"):
        HeuristicBot(play="best")
    assert make_spec("heuristic:play=v2").play == "v2"
    assert make_spec("expert:rollout=v2").rollout == "v2"
    with pytest.raises(BotSpecError):
        make_spec("expert:rollout=v3")


@pytest.mark.parametrize("rollout", ["v2", "v2-self"])
def test_the_expert_on_v2_rollouts_plays_legal_reproducible_games(rollout):
    rules = Rules.preset("openspiel", players=4, tricks=3)
    games = []
    for _ in range(2):
        g = Game(rules, seed=7)
        seats = [bots.make("expert", seed=s, rollout=rollout, iterations=20, seconds=30) for s in range(4)]
        actions = []
        while g.phase != "over":
            view = g.view(g.to_act)
            a = seats[g.to_act].decide(view).action
            assert a in view.legal_actions()
            actions.append(a)
            g.apply(a)
        games.append(actions)
    assert games[0] == games[1]


def test_the_default_expert_and_heuristic_still_play_the_first_policy():
    assert ExpertBot().rollout == "heuristic" and HeuristicBot().play == "heuristic"
