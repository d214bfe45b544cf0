"""Every rule of docs/rules.md, one test (or a few) per rule."""

import pytest

import ohhell
from ohhell import Bid, Game, IllegalActionError, Play, Rules
from ohhell.cards import mask_to_cards, parse_card
from ohhell.dealing import first_dealer, hand_key, shuffled_deck


def names(cards):
    return [str(c) for c in cards]


def play_lowest(game):
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    return game


# --- §1-2: seats, dealer, hand sizes, dealing ----------------------------------------------------

def test_first_dealer_is_drawn_from_the_seed_or_given():
    assert Game(Rules(5), seed="x").dealer == first_dealer("x", 5)
    assert Game(Rules(5), seed="x", dealer=3).dealer == 3
    dealers = {Game(Rules(5), seed=s).dealer for s in range(60)}
    assert dealers == set(range(5))
    with pytest.raises(ohhell.RulesError, match="dealer must be a seat from 0 to 4"):
        Game(Rules(5), dealer=5)


def test_dealer_passes_left_and_hand_sizes_follow_the_schedule():
    g = Game(Rules(4, schedule="up-down"), seed=1, dealer=2)
    dealers, sizes = [], []
    while not g.is_over:
        if g.phase_name == "bid" and g.bids == (None,) * 4:
            dealers.append(g.dealer)
            sizes.append(g.hand_size)
        g.apply(g.legal_actions()[-1])
    assert sizes == list(Rules(4, schedule="up-down").hand_sizes)
    assert dealers == [(2 + k) % 4 for k in range(len(sizes))]
    assert [h.dealer for h in g.past_hands] == dealers


def test_cards_are_dealt_one_at_a_time_from_the_dealers_left():
    rules = Rules(5, hand_sizes=[3, 2])
    g = Game(rules, seed="deal", dealer=3)
    deck = shuffled_deck(hand_key("deal", 0))
    expected = [[] for _ in range(5)]
    for i, c in enumerate(deck[:15]):
        expected[(3 + 1 + i) % 5].append(c)
    assert [sorted(x) for x in expected] == [sorted(int(c) for c in g.hand(s)) for s in range(5)]
    assert g.trump_card == deck[15]


def test_every_hand_is_reshuffled_and_deals_do_not_depend_on_actions():
    rules = Rules(3, hand_sizes=[4, 4, 4])
    a = Game(rules, seed=9)
    b = Game(rules, seed=9)
    play_lowest(a)
    while not b.is_over:
        b.apply(b.legal_actions()[-1])
    assert [h.deal for h in a.past_hands] == [h.deal for h in b.past_hands]
    assert [h.trump_card for h in a.past_hands] == [h.trump_card for h in b.past_hands]
    assert len({h.deal for h in a.past_hands}) == 3


# --- §3: trump --------------------------------------------------------------------------------------

def test_trump_card_is_turned_except_on_the_last_hand():
    g = play_lowest(Game(Rules(6), seed=4))
    trumps = [h.trump_card for h in g.past_hands]
    assert all(t is not None for t in trumps[:-1]) and trumps[-1] is None
    for h in g.past_hands[:-1]:
        dealt = 0
        for m in h.deal:
            dealt |= m
        assert not dealt >> h.trump_card & 1, "the turned card belongs to nobody"


def test_no_trump_when_the_deck_is_used_up():
    g = Game(Rules(4, hand_sizes=[13, 12], no_trump="never"), seed=2)
    assert g.turned_card is None and g.trump_suit is None
    play_lowest(g)
    assert g.past_hands[0].trump_card is None and g.past_hands[1].trump_card is not None


def test_no_trump_largest_option():
    g = play_lowest(Game(Rules(7, schedule="up-down", no_trump="largest"), seed=1))
    for h in g.past_hands:
        assert (h.trump_card is None) == (h.hand_size == 7)


# --- §4: bidding ----------------------------------------------------------------------------------

def test_dealers_left_bids_first_and_the_dealer_last():
    g = Game(Rules(5, hand_sizes=[3]), seed=1, dealer=2)
    order = []
    while g.phase_name == "bid":
        order.append(g.to_act)
        g.apply(Bid(0))
    assert order == [3, 4, 0, 1, 2]


def test_bids_range_from_zero_to_the_hand_size():
    g = Game(Rules(4, hand_sizes=[4]), seed=1)
    assert g.legal_actions() == tuple(Bid(b) for b in range(5))
    with pytest.raises(IllegalActionError, match="illegal bid 5: bids are 0 to 4 with 4 cards each"):
        g.apply(Bid(5))
    with pytest.raises(IllegalActionError, match="must bid first"):
        g.apply(Play(g.hand(g.to_act)[0]))


def test_hook_fifth_hand_total_may_not_be_five():
    # The seed's example: in the fifth hand, the bids may not total 5.
    g = Game(Rules(4, hook=True), seed=3, dealer=0)
    while g.hand_index < 4:
        g.apply(g.legal_actions()[0])
    assert g.hand_size == 5
    for b in (2, 1, 0):
        g.apply(Bid(b))
    assert g.to_act == g.dealer
    assert Bid(2) not in g.legal_actions() and len(g.legal_actions()) == 5
    before = g.fingerprint()
    with pytest.raises(IllegalActionError) as e:
        g.apply(Bid(2))
    assert str(e.value) == ("illegal bid 2: seat 0 is the dealer and, with the hook, may not bid 2, "
                            "which would make the bids total 5, the number of tricks")
    assert g.fingerprint() == before
    g.apply(Bid(3))
    assert sum(g.bids) == 6 != g.hand_size


def test_hook_leaves_every_bid_when_the_total_is_already_over():
    g = Game(Rules(3, hand_sizes=[2], hook=True), seed=1)
    g.apply(Bid(2))
    g.apply(Bid(2))
    assert g.legal_actions() == (Bid(0), Bid(1), Bid(2))


def test_simultaneous_bidding_any_unbid_seat_may_act_and_bids_stay_hidden():
    g = Game(Rules(4, hand_sizes=[3], simultaneous_bidding=True), seed=5, dealer=0)
    assert g.legal_actions(seat=3) == tuple(Bid(b) for b in range(4))
    g.apply(Bid(2), seat=3)
    assert g.legal_actions(seat=3) == ()
    with pytest.raises(IllegalActionError, match="seat 3 has already bid"):
        g.apply(Bid(1), seat=3)
    g.apply(Bid(0), seat=2)
    assert g.view(2).bids == (None, None, 0, None)
    assert g.view(3).bids == (None, None, None, 2)
    assert g.view(0).bids == (None,) * 4 and g.view(0).has_bid == (False, False, True, True)
    assert g.spectator_view().bids == (None,) * 4
    assert [r["bid"] for r in g.bid_table(viewer=2)] == [None, None, 0, None]
    g.apply(Bid(1), seat=1)
    g.apply(Bid(1))                       # to_act is the last unbid seat, 0
    assert g.phase_name == "play"
    assert g.view(0).bids == (1, 1, 0, 2) == g.spectator_view().bids
    assert g.to_act == 1                  # the dealer's left leads


def test_out_of_turn_is_refused_with_whose_turn_it_is():
    g = Game(Rules(4, hand_sizes=[2]), seed=1, dealer=0)
    with pytest.raises(IllegalActionError, match="illegal bid 0: it is seat 1's turn, not seat 2's"):
        g.apply(Bid(0), seat=2)
    with pytest.raises(IllegalActionError, match="there is no seat 7"):
        g.apply(Bid(0), seat=7)


# --- §5: play -------------------------------------------------------------------------------------

FOUR = Rules(4, hand_sizes=[2], no_trump="never")


def test_dealers_left_leads_and_must_follow_suit():
    g = Game.from_deal(FOUR, dealer=1, deal=[["QS", "2H"], ["AD", "3D"], ["7C", "8C"], ["KH", "4S"]],
                       trump_card="5D")
    for _ in range(4):
        g.apply(Bid(0))
    assert g.to_act == 2
    g.apply(Play("7C"))
    # Seat 3 has no club: any card.  Seat 0 has no club either.
    assert names(a.card for a in g.legal_actions()) == ["KH", "4S"]
    g.apply(Play("4S"))
    g.apply(Play("2H"))
    assert names(a.card for a in g.legal_actions()) == ["3D", "AD"]
    g.apply(Play("AD"))       # a trump (diamonds) wins the club trick
    assert g.tricks[0].winner == 1 and g.to_act == 1
    g.apply(Play("3D"))
    before = g.fingerprint()
    with pytest.raises(IllegalActionError) as e:
        g.apply(Play("KH"), seat=3)
    assert "it is seat 2's turn" in str(e.value)
    g.apply(Play("8C"))
    assert g.fingerprint() != before


def test_must_follow_message_and_state_unchanged():
    g = Game.from_deal(Rules(3, hand_sizes=[2], no_trump="never"), dealer=0,
                       deal=[["2H", "QS"], ["3H", "4C"], ["5H", "6C"]], trump_card="2S")
    for _ in range(3):
        g.apply(Bid(1))
    g.apply(Play("3H"))                  # seat 1 leads hearts
    before = g.fingerprint()
    with pytest.raises(IllegalActionError) as e:
        g.apply(Play("6C"))
    assert str(e.value) == "illegal play 6C: seat 2 holds hearts and must follow hearts"
    assert e.value.seat == 2 and e.value.action == Play("6C")
    with pytest.raises(IllegalActionError, match="seat 2 does not hold QS"):
        g.apply(Play("QS"))
    assert g.fingerprint() == before


def test_highest_trump_wins_else_highest_of_the_led_suit():
    rules = Rules(4, hand_sizes=[1], no_trump="never")
    # No trump played: the highest heart wins, the higher spade discard does not.
    g = Game.from_deal(rules, 3, [["2H"], ["9H"], ["AS"], ["5H"]], "2D")
    for _ in range(4):
        g.apply(Bid(0))
    play_lowest(g)
    assert g.past_hands[0].tricks[0].winner == 1
    # Trumps played: the highest trump wins even when a low trump came first.
    g = Game.from_deal(rules, 3, [["2H"], ["3S"], ["AH"], ["9S"]], "2S")
    for _ in range(4):
        g.apply(Bid(0))
    play_lowest(g)
    assert g.past_hands[0].tricks[0].winner == 3


def test_must_trump_la_podrida():
    rules = Rules.preset("la-podrida", players=3, hand_sizes=[2], no_trump="never")
    g = Game.from_deal(rules, 0, [["2C", "3D"], ["4H", "5H"], ["6S", "7C"]], "8D")
    for _ in range(3):
        g.apply(Bid(0))
    g.apply(Play("4H"))                                  # seat 1 leads hearts
    assert g.legal_actions() == (Play("7C"), Play("6S"))  # seat 2: no hearts, no trump: anything
    g.apply(Play("6S"))
    assert g.legal_actions() == (Play("3D"),)            # seat 0: no hearts, holds a trump: must trump
    with pytest.raises(IllegalActionError) as e:
        g.apply(Play("2C"))
    assert str(e.value) == ("illegal play 2C: seat 0 cannot follow hearts and, under must trump, "
                            "must play a trump (diamonds)")
    # Without must trump the club discard is legal.
    g2 = Game.from_deal(rules.replace(must_trump=False), 0, [["2C", "3D"], ["4H", "5H"], ["6S", "7C"]], "8D")
    for a in ("0", "0", "0", "4H", "6S", "2C"):
        g2.apply(a)
    assert g2.current_trick.cards == () and g2.tricks[0].winner == 1


def test_trick_winner_leads_next_and_tricks_won_are_public():
    g = Game(Rules(5, hand_sizes=[6]), seed=11)
    while g.phase_name == "bid":
        g.apply(Bid(1))
    while g.phase_name == "play":
        before = len(g.tricks)
        g.apply(g.legal_actions()[0])
        if g.phase_name == "play" and len(g.tricks) > before:
            assert g.to_act == g.tricks[-1].winner
            assert g.view((g.to_act + 1) % 5).tricks_won == g.tricks_won


# --- §6: scoring, the worked examples ------------------------------------------------------------

def _evelyn_deal(rules, evelyn_bid):
    """Evelyn (seat 1, left of dealer 0) holds four spades nobody can follow or trump."""
    g = Game.from_deal(rules, 0, [["2H", "3H", "4H", "5H"], ["AS", "KS", "QS", "JS"],
                                  ["2D", "3D", "4D", "5D"]], None,
                       names=["Dealer", "Evelyn", "Frank"])
    for b in (evelyn_bid, 0, 0):
        g.apply(Bid(b))
    return play_lowest(g)


def test_evelyn_and_frank():
    g = _evelyn_deal(Rules(3, hand_sizes=[4]), 4)
    h = g.past_hands[0]
    assert h.tricks_won == (0, 4, 0)
    assert h.scores[1] == 14     # Evelyn: bid 4, won 4: 10 + 4
    assert h.scores[2] == 10     # Frank: bid 0, won 0: 10 + 0
    assert h.scores[0] == 10     # the dealer made 0 too
    assert g.totals == (10, 14, 10) and g.winners == [1]


def test_george_missed_bid_scores_tricks():
    g = _evelyn_deal(Rules(3, hand_sizes=[4], missed_bid_scores_tricks=True), 3)
    assert g.past_hands[0].scores[1] == 4            # George bids 3, wins 4: 4 points
    g = _evelyn_deal(Rules(3, hand_sizes=[4]), 3)
    assert g.past_hands[0].scores[1] == 0            # base rule: a miss scores nothing


def test_helen_zero_bid_scores_hand_size_in_the_seventh_hand():
    rules = Rules(4, zero_bid_scores_hand_size=True)
    g = Game(rules, seed=8, dealer=0)
    while g.hand_index < 6:
        g.apply(g.legal_actions()[0])
    assert g.hand_size == 7 and g.hand_index == 6
    deal_rules = Rules(4, hand_sizes=[7], zero_bid_scores_hand_size=True, no_trump="never")
    helen = ["2C", "3C", "4C", "5C", "6C", "7C", "8C"]
    others = [["9H", "TH", "JH", "QH", "KH", "AH", "2H"], ["3H", "4H", "5H", "6H", "7H", "8H", "2D"],
              ["3D", "4D", "5D", "6D", "7D", "8D", "9D"]]
    g = Game.from_deal(deal_rules, 0, [others[2], others[0], others[1], helen], "TD")
    for b in (1, 1, 0, 0):
        g.apply(Bid(b))
    play_lowest(g)
    h = g.past_hands[0]
    assert h.bids[3] == 0 and h.tricks_won[3] == 0
    assert h.scores[3] == 12                          # 5 + 7
    assert h.bids[0] == 0 and h.scores[0] == (12 if h.tricks_won[0] == 0 else 0)


# --- §7: winning ------------------------------------------------------------------------------------

def test_tied_players_share_the_win():
    g = Game.from_deal(Rules(3, hand_sizes=[1], no_trump="never"), 0, [["2C"], ["AC"], ["3C"]], "4D")
    for b in (1, 0, 0):
        g.apply(Bid(b))
    play_lowest(g)
    assert g.totals == (10, 11, 10) and g.winners == [1]
    g = Game.from_deal(Rules(3, hand_sizes=[1], no_trump="never"), 0, [["2C"], ["AC"], ["3C"]], "4D")
    for b in (0, 0, 0):
        g.apply(Bid(b))
    play_lowest(g)
    assert g.totals == (10, 0, 10) and g.winners == [0, 2]


def test_game_over_refuses_actions_and_has_no_turn():
    g = play_lowest(Game(Rules(3, hand_sizes=[1]), seed=1))
    assert g.is_over and g.to_act is None and g.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="the game is over"):
        g.apply(Bid(0))


# --- API conveniences ------------------------------------------------------------------------------

def test_apply_accepts_text_and_check_explains():
    g = Game(Rules(3, hand_sizes=[2]), seed=2)
    g.apply("bid 1")
    g.apply(0)
    assert g.bids[(g.dealer + 1) % 3] == 1
    with pytest.raises(IllegalActionError, match="not an action"):
        g.apply("hello")
    g.check(Bid(2))
    with pytest.raises(IllegalActionError, match="bids are 0 to 2"):
        g.check(Bid(3))
    assert g.is_legal(Bid(2)) and not g.is_legal(Bid(3))


def test_from_deal_validates_the_cards():
    rules = Rules(3, hand_sizes=[2], no_trump="never")
    with pytest.raises(ohhell.RulesError, match="dealt twice"):
        Game.from_deal(rules, 0, [["2C", "3C"], ["2C", "4C"], ["5C", "6C"]], "7C")
    with pytest.raises(ohhell.RulesError, match="seat 1 is dealt 1 cards; this hand deals 2 each"):
        Game.from_deal(rules, 0, [["2C", "3C"], ["4C"], ["5C", "6C"]], "7C")
    with pytest.raises(ohhell.RulesError, match="also dealt"):
        Game.from_deal(rules, 0, [["2C", "3C"], ["4C", "8C"], ["5C", "6C"]], "3C")
    with pytest.raises(ohhell.RulesError, match="give trump_card"):
        Game.from_deal(rules, 0, [["2C", "3C"], ["4C", "8C"], ["5C", "6C"]])
    with pytest.raises(ohhell.RulesError, match="no trump card"):
        Game.from_deal(Rules(3, hand_sizes=[2]), 0, [["2C", "3C"], ["4C", "8C"], ["5C", "6C"]], "7C")
    with pytest.raises(ohhell.CardError):
        Game.from_deal(rules, 0, [["2C", "XX"], ["4C", "8C"], ["5C", "6C"]], "7C")


def test_names_and_views_of_missing_seats():
    g = Game(Rules(3), seed=1, names=["Ann", "Bob", "Cat"])
    assert g.record()["players"] == ["Ann", "Bob", "Cat"]
    with pytest.raises(ohhell.RulesError, match="2 names given for 3 players"):
        Game(Rules(3), names=["Ann", "Bob"])
    with pytest.raises(ValueError, match="there is no seat 3"):
        g.view(3)


def test_unseeded_games_deal_from_the_os_csprng(monkeypatch):
    import secrets
    calls = []
    real = secrets.token_bytes

    def spy(n):
        calls.append(n)
        return real(n)

    monkeypatch.setattr(secrets, "token_bytes", spy)
    g = Game(Rules(3, hand_sizes=[2, 2]))
    assert calls == [32] and g.seed is None
    play_lowest(g)
    assert calls == [32, 32]
    assert "seed" not in g.record()
    assert [mask_to_cards(m) for m in g.past_hands[0].deal] != [mask_to_cards(m) for m in g.past_hands[1].deal]


def test_seats_to_act_follows_the_turn_and_simultaneous_bidding():
    g = ohhell.Game(ohhell.Rules(4, hand_sizes=[1], simultaneous_bidding=True), seed=3)
    assert g.seats_to_act == [0, 1, 2, 3]
    g.apply(ohhell.Bid(0), seat=2)
    assert g.seats_to_act == [0, 1, 3]
    for s in (0, 1, 3):
        g.apply(ohhell.Bid(0), seat=s)
    assert g.seats_to_act == [g.to_act]
    while not g.is_over:
        assert g.seats_to_act == [g.to_act] == [s for s in range(4) if g.legal_actions(seat=s)]
        g.apply(g.legal_actions()[0])
    assert g.seats_to_act == []


def test_bid_table_status_words_follow_the_hand():
    # One vocabulary (ohhell.scoring.bid_status) for the view, the terminal and the score sheet.
    g = Game(Rules(3, hand_sizes=[2]), seed=1, dealer=0)
    assert [str(c) for c in g.view(0).hand] == ["KD", "3H"]
    status = lambda: [r["status"] for r in g.view(0).bid_table()]
    assert status() == ["to bid"] * 3
    g.apply(Bid(0))                       # seat 1
    g.apply(Bid(0))                       # seat 2
    assert status() == ["to bid", "bid in", "bid in"]
    g.apply(Bid(2))                       # seat 0, the dealer
    assert status() == ["needs 2", "on bid", "on bid"]
    for card in ("2D", "9D", "KD"):       # seat 0 wins the first trick
        g.apply(Play(parse_card(card)))
    assert status() == ["needs 1", "on bid", "on bid"]
    for card in ("3H", "TH", "8S"):       # seat 1 wins the last
        g.apply(Play(parse_card(card)))
    assert g.is_over
    assert status() == ["under by 1", "over by 1", "made"]


def test_simultaneous_bids_show_as_hidden_until_revealed():
    g = Game(Rules(4, hand_sizes=[3], simultaneous_bidding=True), seed=5, dealer=0)
    g.apply(Bid(2), seat=3)
    assert [r["status"] for r in g.view(0).bid_table()] == ["to bid", "to bid", "to bid", "bid hidden"]
    assert [r["status"] for r in g.view(3).bid_table()] == ["to bid", "to bid", "to bid", "bid in"]
