import pickle

import pytest

from ohhell import Rules, RulesError
from ohhell.rules import MAX_HAND_SIZE, PRESETS


def test_defaults_are_the_seed_base_game():
    r = Rules()
    assert r.players == 4 and r.schedule == "up" and r.hand_sizes == tuple(range(1, 14))
    assert r.no_trump == "last"
    assert not (r.hook or r.simultaneous_bidding or r.must_trump or r.missed_bid_scores_tricks
                or r.zero_bid_scores_hand_size)


@pytest.mark.parametrize("players,m", sorted(MAX_HAND_SIZE.items()))
def test_number_of_hands_by_players(players, m):
    assert {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}[players] == m
    up = Rules(players).hand_sizes
    assert up == tuple(range(1, m + 1))
    assert Rules(players, schedule="down").hand_sizes == tuple(range(m, 0, -1))
    ud = Rules(players, schedule="up-down").hand_sizes
    assert len(ud) == 2 * m - 1 and ud.count(m) == 1 and ud[0] == ud[-1] == 1
    du = Rules(players, schedule="down-up").hand_sizes
    assert len(du) == 2 * m - 1 and du.count(1) == 1 and du[0] == du[-1] == m


@pytest.mark.parametrize("players", [0, 1, 2, 8, 52])
def test_player_count_out_of_range(players):
    with pytest.raises(RulesError, match=f"players must be 3 to 7, not {players}"):
        Rules(players)


def test_too_many_cards():
    with pytest.raises(RulesError, match="hand size 14 with 4 players needs 56 cards; the deck has 52"):
        Rules(4, hand_sizes=[14])
    Rules(4, hand_sizes=[13])  # exactly the deck is fine
    with pytest.raises(RulesError, match="at least one card"):
        Rules(4, hand_sizes=[0])
    with pytest.raises(RulesError, match="empty"):
        Rules(4, hand_sizes=[])


def test_hook_with_simultaneous_bidding_is_refused():
    with pytest.raises(RulesError, match="no last bidder"):
        Rules(hook=True, simultaneous_bidding=True)


def test_unknown_option_says_which_and_suggests():
    with pytest.raises(RulesError, match=r"unknown rules option 'hok' \(did you mean 'hook'\?\)"):
        Rules(hok=True)
    with pytest.raises(RulesError, match="unknown schedule 'sideways'"):
        Rules(schedule="sideways")
    with pytest.raises(RulesError, match="unknown no_trump option 'sometimes'"):
        Rules(no_trump="sometimes")
    with pytest.raises(RulesError, match="must be true or false"):
        Rules(hook="yes")


def test_schedule_and_hand_sizes_must_agree():
    assert Rules(4, hand_sizes=list(range(1, 14))).schedule == "up"
    assert Rules(4, hand_sizes=[3, 3]).schedule == "custom"
    with pytest.raises(RulesError, match="do not match schedule 'down'"):
        Rules(4, schedule="down", hand_sizes=[1, 2])
    with pytest.raises(RulesError, match="needs hand_sizes"):
        Rules(4, schedule="custom")


def test_no_trump_options():
    last = Rules(5)
    assert [last.has_trump(k) for k in range(10)] == [True] * 9 + [False]
    largest = Rules(5, schedule="up-down", no_trump="largest")
    assert [largest.has_trump(k) for k in range(19)] == [s != 10 for s in largest.hand_sizes]
    never = Rules(5, no_trump="never")
    assert all(never.has_trump(k) for k in range(10))
    # 4 x 13 uses the whole deck: no card is left to turn, whatever the option.
    assert not Rules(4, no_trump="never").has_trump(12)
    assert Rules(4, no_trump="never").has_trump(11)


def test_presets():
    assert Rules.preset("standard") == Rules()
    lp = Rules.preset("la-podrida", players=5)
    assert lp.must_trump and lp.players == 5 and lp.hand_sizes == tuple(range(1, 11))
    os_ = Rules.preset("openspiel", players=4)
    assert os_.hand_sizes == (5,) and os_.hook and os_.no_trump == "never" and os_.missed_bid_scores_tricks
    assert Rules.preset("openspiel", players=3, tricks=7).hand_sizes == (7,)
    assert os_.preset_name() == "openspiel" and lp.preset_name() == "la-podrida"
    with pytest.raises(RulesError, match="unknown preset"):
        Rules.preset("bridge")
    assert set(PRESETS) >= {"standard", "la-podrida", "openspiel"}


def test_value_semantics_and_round_trips():
    r = Rules(6, schedule="up-down", hook=True, must_trump=True)
    assert Rules.from_dict(r.to_dict()) == r
    assert hash(Rules.from_dict(r.to_dict())) == hash(r)
    assert pickle.loads(pickle.dumps(r)) == r
    assert r.replace(hook=False) != r and r.replace(hook=False).hook is False
    assert r.replace(players=3).hand_sizes == Rules(3, schedule="up-down").hand_sizes
    with pytest.raises(AttributeError):
        r.hook = False
    d = r.to_dict()
    assert list(d) == ["players", "schedule", "hand_sizes", "no_trump", "hook", "simultaneous_bidding",
                       "must_trump", "missed_bid_scores_tricks", "zero_bid_scores_hand_size"]
    assert eval(repr(r), {"Rules": Rules}) == r


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [3, 4, 5, 7])
@pytest.mark.parametrize("no_trump", ["last", "largest", "never"])
def test_a_hand_alone_keeps_its_size_its_trump_and_every_other_rule(preset, players, no_trump):
    rules = Rules.preset(preset, players=players, no_trump=no_trump)
    for k, size in enumerate(rules.hand_sizes):
        alone = rules.hand_alone(k)
        assert alone.hand_sizes == (size,) and alone.has_trump(0) == rules.has_trump(k)
        for field in ("players", "hook", "simultaneous_bidding", "must_trump", "missed_bid_scores_tricks",
                      "zero_bid_scores_hand_size"):
            assert getattr(alone, field) == getattr(rules, field), field
    with pytest.raises(IndexError):
        rules.hand_alone(rules.hand_count)
