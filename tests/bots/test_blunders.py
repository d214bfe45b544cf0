"""The blunders players report in other Oh Hell software, as hand-built positions with a clear right action.

Each position is built with ``Game.from_deal`` and the actions that lead to it; both the
``heuristic`` and the ``expert`` must find the right action (the expert on a small budget).
"""

import pytest

from ohhell import Bid, Game, Play, Rules
from ohhell.bots import Budget, make

BUDGET = Budget(iterations=150, seconds=10)
BOTS = ["heuristic", "expert"]


def _game(deal, trump, dealer, bids, plays=(), rules=None):
    rules = rules or Rules(4, hand_sizes=[len(deal[0]), 1])
    g = Game.from_deal(rules, dealer=dealer, deal=deal, trump_card=trump)
    for b in bids:
        g.apply(Bid(b))
    for c in plays:
        g.apply(Play(c))
    return g


def _act(name, g, seed=1):
    return make(name, seed=seed).act(g.view(g.to_act), BUDGET)


@pytest.mark.parametrize("name", BOTS)
def test_leads_the_top_trump_when_every_remaining_trick_is_needed(name):
    # Seat 1 bid 3 with AS KS AH (spades trump): every trick is needed, so draw trumps first;
    # leading the AH first lets a seat void in hearts ruff it.
    g = _game([["2C", "3C", "4C"], ["AS", "KS", "AH"], ["QS", "5H", "6C"], ["JS", "7D", "8D"]],
              "2S", dealer=0, bids=[3, 0, 1, 1])
    assert g.to_act == 1
    a = _act(name, g)
    assert str(a.card) in ("AS", "KS")


@pytest.mark.parametrize("name", BOTS)
def test_discards_rather_than_ruffs_once_the_bid_is_made(name):
    # Seat 2 bid 0 and has taken nothing; clubs are led and it holds no club: trumping
    # (a spade) would take the trick, discarding the heart would not.
    g = _game([["AC", "2D", "3D"], ["KC", "4D", "5D"], ["7S", "9H", "6D"], ["QC", "8D", "TD"]],
              "2S", dealer=0, bids=[1, 0, 0, 1], plays=["KC"])
    assert g.to_act == 2
    a = _act(name, g)
    assert str(a.card) in ("9H", "6D")


@pytest.mark.parametrize("name", BOTS)
def test_hooked_dealer_with_the_trump_ace_never_drops_to_zero(name):
    # Two cards each; the others bid 1 in all, so the hook forbids the dealer's natural 1.
    # With the trump ace a trick is certain: 0 cannot be made, so bid 2.
    rules = Rules(4, hand_sizes=[2, 1], hook=True)
    g = _game([["2C", "3C"], ["5D", "6D"], ["7H", "8H"], ["AS", "4H"]], "2S", dealer=3,
              bids=[1, 0, 0], rules=rules)
    assert [x.tricks for x in g.legal_actions()] == [0, 2]
    assert _act(name, g).tricks == 2


@pytest.mark.parametrize("name", BOTS)
def test_wins_its_last_needed_trick_with_its_most_dangerous_card(name):
    # Seat 3 plays last to a trick won by the 9H and needs exactly this one trick: win it with
    # the AH, not the TH, since the ace kept would take a later heart trick and break the bid.
    g = _game([["9H", "2C", "3C"], ["4H", "4C", "5C"], ["5H", "6C", "7C"], ["TH", "AH", "2D"]],
              "2S", dealer=3, bids=[0, 0, 1, 1], plays=["9H", "4H", "5H"])
    assert g.to_act == 3
    assert str(_act(name, g).card) == "AH"


@pytest.mark.parametrize("name", BOTS)
def test_ducks_under_the_winning_card_once_the_bid_is_made(name):
    # Seat 1 bid 0; the KH is winning: play the QH under it (the highest that still loses),
    # never the AH.
    g = _game([["KH", "2C", "3C"], ["AH", "QH", "4C"], ["5H", "6C", "7C"], ["6H", "8C", "9C"]],
              "2S", dealer=3, bids=[1, 0, 1, 1], plays=["KH"])
    assert g.to_act == 1
    assert str(_act(name, g).card) == "QH"


def test_expert_weighs_the_game_score_in_the_last_hand():
    # Last hand of the game.  Seat 1 leads the game by 1 point over seat 0.  Seat 0 bid 2 and
    # leads the KH; seat 1 bid 0 and holds AH 2H.  Ducking makes seat 1's 0 (+10) but lets seat 0
    # take the trick it needs (+12 if it makes 2), overtaking; taking with the AH breaks seat 1's
    # bid and seat 0's, and seat 1 wins the game.  The score-blind choice is the duck.
    rules = Rules(4, hand_sizes=[2, 2], no_trump="largest")
    g = Game.from_deal(rules, dealer=3, deal=[["KH", "AS"], ["AH", "2H"], ["3C", "4C"], ["5C", "6C"]])
    for b in (2, 0, 0, 1):
        g.apply(Bid(b))
    g.apply(Play("KH"))
    v = g.view(1)
    v.hand_index = v.hand_count - 1                 # make this the game's last hand ...
    v.totals = (99, 100, 40, 40)                    # ... with these scores
    d = make("expert", seed=3).decide(v, BUDGET)
    assert str(d.action.card) == "AH"
    assert "game score" in d.note
    # and the score-blind heuristic ducks
    assert str(make("heuristic").act(v).card) == "2H"
