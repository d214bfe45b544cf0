"""The scorekeeper's model (ohhell.scoresheet): plans, entries, the hook, corrections, saving."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import ohhell
from ohhell import Rules
from ohhell.errors import RecordError, RulesError
from ohhell.scoring import hand_score
from ohhell.scoresheet import EntryError, ScoreSheet, atomic_write_text, parse_count

NAMES4 = ["Ann", "Bob", "Cat", "Dan"]


def play_hand(sheet: ScoreSheet, bids, won) -> None:
    """Enter a whole hand; ``bids``/``won`` are by seat and entered in the sheet's order."""
    order = sheet.order()
    for s in order:
        sheet.enter_bid(bids[s])
    for s in order:
        sheet.enter_tricks(won[s])


# --- the plan of each hand --------------------------------------------------------------------

def test_plan_follows_the_rules_dealer_passes_left_and_sizes_follow_the_schedule():
    sheet = ScoreSheet(Rules(4), NAMES4, first_dealer=2)
    p = sheet.plan()
    assert (p.number, p.dealer, p.hand_size, p.first_bidder, p.turns_trump) == (1, 2, 1, 3, True)
    assert sheet.order() == [3, 0, 1, 2]
    assert [sheet.plan(k).dealer for k in range(5)] == [2, 3, 0, 1, 2]
    assert [sheet.plan(k).hand_size for k in range(13)] == list(range(1, 14))
    last = sheet.plan(12)
    assert not last.turns_trump  # 4 x 13 uses the whole deck, and it is the last hand
    assert "whole deck" in last.no_trump_reason
    assert "Cat deals 1 card each; Dan bids first" in sheet.describe_plan()


def test_plan_no_trump_reasons():
    assert "last hand" in ScoreSheet(Rules(5), NAMES4 + ["Eve"]).plan(9).no_trump_reason
    sheet = ScoreSheet(Rules(5, schedule="up-down", no_trump="largest"), NAMES4 + ["Eve"])
    assert [k for k in range(sheet.hand_count) if not sheet.plan(k).turns_trump] == [9]
    assert "10 cards" in sheet.plan(9).no_trump_reason
    assert ScoreSheet(Rules(3, no_trump="never"), NAMES4[:3]).plan(14).turns_trump
    with pytest.raises(EntryError, match="no hand 13"):
        ScoreSheet(Rules(4), NAMES4).plan(13)


def test_bad_setup_is_a_rules_error():
    with pytest.raises(RulesError, match="3 names given for 4 players"):
        ScoreSheet(Rules(4), NAMES4[:3])
    with pytest.raises(RulesError, match="two players are called 'ann'"):
        ScoreSheet(Rules(3), ["Ann", "Bob", "ann"])
    with pytest.raises(RulesError, match="seat 1 has no name"):
        ScoreSheet(Rules(3), ["Ann", " ", "Cat"])
    with pytest.raises(RulesError, match="first dealer"):
        ScoreSheet(Rules(3), ["Ann", "Bob", "Cat"], first_dealer=3)


# --- bids and the hook ----------------------------------------------------------------------------

def test_hook_forbids_exactly_the_dealers_bid_that_makes_the_total_and_says_why():
    sheet = ScoreSheet(Rules(4, hand_sizes=[3], hook=True), NAMES4, first_dealer=0)
    for b in (1, 0, 1):                 # Bob, Cat, Dan
        assert sheet.allowed_bids() == (0, 1, 2, 3)
        sheet.enter_bid(b)
    assert sheet.to_enter == 0
    assert sheet.allowed_bids() == (0, 2, 3)
    assert sheet.hook_note() == ("Ann deals and, with the hook, may not bid 1: the bids would total 3, "
                                 "the number of tricks")
    before = sheet.to_dict()
    with pytest.raises(EntryError, match="with the hook, may not bid 1") as e:
        sheet.enter_bid(1)
    assert (e.value.seat, e.value.hand) == (0, 0)
    assert sheet.to_dict() == before
    sheet.enter_bid(3)
    assert sheet.phase == "tricks"


def test_hook_forbids_nothing_when_the_others_already_overbid():
    sheet = ScoreSheet(Rules(3, hand_sizes=[2], hook=True), NAMES4[:3], first_dealer=0)
    sheet.enter_bid(2)
    sheet.enter_bid(1)
    assert sheet.allowed_bids() == (0, 1, 2)
    assert sheet.hook_note() == ""


def test_without_the_hook_the_dealer_may_make_the_total():
    sheet = ScoreSheet(Rules(3, hand_sizes=[2]), NAMES4[:3], first_dealer=0)
    sheet.enter_bid(1)
    sheet.enter_bid(1)
    assert sheet.allowed_bids() == (0, 1, 2)
    sheet.enter_bid(0)


@pytest.mark.parametrize("text, message", [
    ("x", "'x' is not a bid: type a whole number from 0 to 2"),
    ("two", "'two' is not a bid"),
    ("-1", "'-1' is not a bid"),
    ("1.5", "'1.5' is not a bid"),
    ("", "type a bid: a whole number from 0 to 2"),
    ("3", "a bid is 0 to 2 in this hand, not 3"),
    ("٣", "not a bid"),                   # a non-ASCII digit
    (True, "not a bid"),
    (7, "a bid is 0 to 2 in this hand, not 7"),
])
def test_bad_bids_get_a_clear_message_and_change_nothing(text, message):
    sheet = ScoreSheet(Rules(3, hand_sizes=[2, 1]), NAMES4[:3])
    sheet.enter_bid(1)
    before = sheet.to_dict()
    with pytest.raises(EntryError, match=message.replace("(", r"\(")):
        sheet.enter_bid(text)
    assert sheet.to_dict() == before


def test_parse_count_accepts_spaces_and_ints():
    assert parse_count(" 2 ", "bid", 3) == 2
    assert parse_count(0, "bid", 0) == 0


# --- tricks -------------------------------------------------------------------------------------

def test_tricks_must_add_up_to_the_hand_size():
    sheet = ScoreSheet(Rules(3, hand_sizes=[3, 1]), ["Ann", "Bob", "Cat"], first_dealer=2)
    for b in (1, 1, 0):
        sheet.enter_bid(b)
    assert sheet.order() == [0, 1, 2]
    sheet.enter_tricks(2)
    before = sheet.to_dict()
    with pytest.raises(EntryError, match="Bob cannot have won 2: the tricks would add up to 4, "
                                         "but this hand has only 3"):
        sheet.enter_tricks(2)
    sheet.enter_tricks(0)
    with pytest.raises(EntryError, match=r"the tricks must add up to 3: with Ann 2, Bob 0 and Cat 0 they add "
                                         r"up to 2 \(Cat must have won 1, or correct an earlier entry\)"):
        sheet.enter_tricks(0)
    assert sheet.tricks_won() == (2, 0, None)
    assert before != sheet.to_dict()  # Bob's 0 went in
    with pytest.raises(EntryError, match="'a' is not a number of tricks"):
        sheet.enter_tricks("a")
    sheet.enter_tricks(1)
    assert sheet.scores(0) == (0, 0, 0)
    assert sheet.hand_index == 1 and sheet.phase == "bid"


def test_entering_in_the_wrong_phase_says_what_to_do():
    sheet = ScoreSheet(Rules(3, hand_sizes=[1]), NAMES4[:3])
    with pytest.raises(EntryError, match="enter the bids first"):
        sheet.enter_tricks(0)
    for b in (0, 0, 0):
        sheet.enter(b)
    with pytest.raises(EntryError, match="bids of this hand are all in"):
        sheet.enter_bid(0)
    for w in (1, 0, 0):
        sheet.enter(w)
    assert sheet.is_over and sheet.phase == "over" and sheet.to_enter is None
    with pytest.raises(EntryError, match="the game is over"):
        sheet.enter(0)


# --- scoring: the engine's own -------------------------------------------------------------------

@pytest.mark.parametrize("flags", [{}, {"missed_bid_scores_tricks": True}, {"zero_bid_scores_hand_size": True},
                                   {"missed_bid_scores_tricks": True, "zero_bid_scores_hand_size": True}])
def test_scores_are_the_engines_hand_score_under_every_scoring_variant(flags):
    rules = Rules(4, hand_sizes=[7, 7], **flags)
    sheet = ScoreSheet(rules, NAMES4, first_dealer=3)
    bids, won = [4, 0, 3, 0], [4, 0, 2, 1]
    play_hand(sheet, bids, won)
    assert sheet.scores(0) == tuple(hand_score(b, w, 7, rules) for b, w in zip(bids, won))
    expected = {(): (14, 10, 0, 0), ("missed_bid_scores_tricks",): (14, 10, 2, 1),
                ("zero_bid_scores_hand_size",): (14, 12, 0, 0),
                ("missed_bid_scores_tricks", "zero_bid_scores_hand_size"): (14, 12, 2, 1)}
    assert sheet.scores(0) == expected[tuple(sorted(flags))]
    assert sheet.totals == sheet.scores(0)


def test_standings_leaders_and_winners_share_ties():
    sheet = ScoreSheet(Rules(3, hand_sizes=[1, 1]), ["Ann", "Bob", "Cat"], first_dealer=0)
    play_hand(sheet, [0, 0, 1], [0, 0, 1])
    assert sheet.leaders() == [2]
    assert sheet.winners == []
    play_hand(sheet, [1, 0, 0], [1, 0, 0])
    assert sheet.totals == (21, 20, 21)
    assert sheet.winners == [0, 2]
    assert sheet.standings() == [(1, 0, 21), (1, 2, 21), (3, 1, 20)]
    assert sheet.running_totals() == [(10, 10, 11), (21, 20, 21)]


def test_bid_table_says_who_is_over_and_under():
    sheet = ScoreSheet(Rules(3, hand_sizes=[3, 1]), ["Ann", "Bob", "Cat"], first_dealer=2)
    assert [r["status"] for r in sheet.bid_table()] == ["to bid"] * 3
    for b in (1, 1, 0):
        sheet.enter_bid(b)
    assert [r["status"] for r in sheet.bid_table()] == ["bid in"] * 3
    for w in (3, 0, 0):
        sheet.enter_tricks(w)
    rows = sheet.bid_table(0)
    assert [r["status"] for r in rows] == ["over by 2", "under by 1", "made"]
    assert [r["dealer"] for r in rows] == [False, False, True]
    assert [r["score"] for r in rows] == [0, 0, 10]
    assert sheet.bid_summary(0) == "bids total 2 of 3 tricks (1 under)"


# --- corrections and taking back ------------------------------------------------------------------

def test_correcting_an_earlier_hand_recomputes_every_total():
    rules = Rules(4, hand_sizes=[2, 2, 2], hook=True)
    sheet = ScoreSheet(rules, NAMES4, first_dealer=0)
    play_hand(sheet, [1, 1, 1, 0], [1, 1, 0, 0])
    play_hand(sheet, [0, 0, 1, 0], [0, 0, 1, 1])
    assert sheet.totals == (21, 21, 11, 10)
    sheet.correct_hand(0, bids=[0, 1, 1, 1], tricks_won=[0, 1, 0, 1])
    fresh = ScoreSheet(rules, NAMES4, first_dealer=0)
    play_hand(fresh, [0, 1, 1, 1], [0, 1, 0, 1])
    play_hand(fresh, [0, 0, 1, 0], [0, 0, 1, 1])
    assert sheet == fresh
    assert sheet.totals == (20, 21, 11, 11)


def test_a_correction_that_breaks_a_rule_changes_nothing():
    sheet = ScoreSheet(Rules(3, hand_sizes=[2, 2], hook=True), NAMES4[:3], first_dealer=0)
    play_hand(sheet, [1, 0, 0], [1, 1, 0])
    before = sheet.to_dict()
    with pytest.raises(EntryError, match="with the hook the bids may not total 2"):
        sheet.correct_bid(0, 2, 1)
    with pytest.raises(EntryError, match="the tricks won add up to 3, but the hand has 2"):
        sheet.correct_tricks(0, 2, 1)
    with pytest.raises(EntryError, match="hand 1, Cat: 'x' is not a bid"):
        sheet.correct_bid(0, 2, "x")
    with pytest.raises(EntryError, match="Ann's bid is missing"):
        sheet.correct_hand(0, bids=[None, 0, 0])
    with pytest.raises(EntryError, match="give 3 values"):
        sheet.correct_hand(0, bids=[0, 0])
    with pytest.raises(EntryError, match="no hand 3 yet"):
        sheet.correct_bid(2, 0, 0)
    with pytest.raises(EntryError, match="no seat 3"):
        sheet.correct_bid(0, 3, 0)
    assert sheet.to_dict() == before


def test_the_current_hand_can_be_corrected_but_not_filled_out_of_turn():
    sheet = ScoreSheet(Rules(3, hand_sizes=[2, 2]), NAMES4[:3], first_dealer=0)
    sheet.enter_bid(2)  # Bob
    sheet.correct_bid(0, 1, 1)
    assert sheet.bids() == (None, 1, None)
    with pytest.raises(EntryError, match="Cat's bid has not been entered yet"):
        sheet.correct_bid(0, 2, 1)


def test_undo_takes_back_entries_one_by_one_across_hands():
    sheet = ScoreSheet(Rules(3, hand_sizes=[1, 2]), ["Ann", "Bob", "Cat"], first_dealer=0)
    with pytest.raises(EntryError, match="nothing to take back"):
        sheet.undo()
    snapshots = [sheet.to_dict()]
    for value in (0, 1, 0, 0, 1, 0):
        sheet.enter(value)
        snapshots.append(sheet.to_dict())
    assert sheet.hand_index == 1 and sheet.finished_hands == 1
    assert sheet.undo() == "hand 1: Ann won 0"
    for snap in reversed(snapshots[:-1]):
        assert sheet.to_dict() == snap
        if snap is snapshots[0]:
            break
        sheet.undo()


def test_trump_card_and_rename():
    sheet = ScoreSheet(Rules(4, hand_sizes=[1, 13]), NAMES4)
    sheet.set_trump_card("q♥")
    assert str(sheet.trump_card()) == "QH"
    with pytest.raises(EntryError, match="not a card"):
        sheet.set_trump_card("zz")
    sheet.set_trump_card(None)
    assert sheet.trump_card() is None
    play_hand(sheet, [0, 0, 0, 0], [1, 0, 0, 0])
    with pytest.raises(EntryError, match=r"hand 2 turns no card for trump \(the deal uses the whole deck\)"):
        sheet.set_trump_card("2C")
    with pytest.raises(EntryError, match="there is no hand 3 yet"):
        sheet.set_trump_card("2C", hand=2)
    sheet.rename(1, "Bert")
    assert sheet.names[1] == "Bert"
    with pytest.raises(EntryError, match="two players are called 'Ann'"):
        sheet.rename(1, "Ann")


def test_totals_under_every_scoring_variant_use_the_same_entries():
    sheet = ScoreSheet(Rules(3, hand_sizes=[2, 2]), ["Ann", "Bob", "Cat"], first_dealer=0)
    play_hand(sheet, [0, 1, 0], [0, 1, 1])     # Ann made 0, Bob made 1, Cat missed 0 by one
    rows = {label: (in_use, totals) for label, in_use, totals in sheet.scoring_comparison()}
    assert rows["base scoring"] == (True, (10, 11, 0))
    assert rows["missed bids score tricks"] == (False, (10, 11, 1))
    assert rows["made 0 scores 5 + hand size"] == (False, (7, 11, 0))
    assert rows["missed bids score tricks + made 0 scores 5 + hand size"] == (False, (7, 11, 1))
    for label, (_, totals) in rows.items():
        rules = sheet.rules.replace(missed_bid_scores_tricks="missed" in label, zero_bid_scores_hand_size="0" in label)
        assert totals == sheet.totals_under(rules)


def test_correcting_a_rule_rescores_every_hand_and_checks_the_hook():
    sheet = ScoreSheet(Rules(3, hand_sizes=[2, 2, 2]), ["Ann", "Bob", "Cat"], first_dealer=0)
    play_hand(sheet, [0, 1, 0], [0, 1, 1])
    play_hand(sheet, [1, 1, 1], [0, 1, 1])
    sheet.change_rules(missed_bid_scores_tricks=True)
    fresh = ScoreSheet(Rules(3, hand_sizes=[2, 2, 2], missed_bid_scores_tricks=True), ["Ann", "Bob", "Cat"])
    play_hand(fresh, [0, 1, 0], [0, 1, 1])
    play_hand(fresh, [1, 1, 1], [0, 1, 1])
    assert sheet == fresh
    sheet.change_rules(hook=True)                 # no hand's bids total 2
    before = sheet.to_dict()
    bad = ScoreSheet(Rules(3, hand_sizes=[2, 2]), ["Ann", "Bob", "Cat"])
    play_hand(bad, [1, 1, 0], [1, 1, 0])
    with pytest.raises(EntryError, match="hand 1: with the hook the bids may not total 2"):
        bad.change_rules(hook=True)
    assert not bad.rules.hook
    with pytest.raises(EntryError, match="'players' cannot be changed"):
        sheet.change_rules(players=4)
    with pytest.raises(EntryError, match="must be true or false"):
        sheet.change_rules(hook="yes")
    assert sheet.to_dict() == before


def test_correcting_the_first_dealer_moves_every_dealer():
    sheet = ScoreSheet(Rules(3, hand_sizes=[1, 2, 3]), ["Ann", "Bob", "Cat"], first_dealer=0)
    play_hand(sheet, [0, 0, 1], [0, 0, 1])
    sheet.enter_bid(1)                            # hand 2: Cat bids first (Bob deals)
    with pytest.raises(EntryError, match="out of order: take back this hand's entries first"):
        sheet.change_first_dealer(2)              # Ann would bid first in hand 2
    with pytest.raises(EntryError, match="out of order"):
        sheet.change_first_dealer(1)              # Ann would bid first in hand 2 as well
    sheet.change_first_dealer(0)                  # no change: Cat's bid is in order
    sheet.undo()
    sheet.change_first_dealer(1)                  # Cat deals hand 2: Ann bids first ... Cat last
    assert [sheet.plan(k).dealer for k in range(3)] == [1, 2, 0]
    assert sheet.order(1) == [0, 1, 2] and sheet.to_enter == 0
    assert ScoreSheet.from_dict(sheet.to_dict()) == sheet


# --- saving and loading ---------------------------------------------------------------------------

def test_saved_sheet_uses_the_record_layout_and_reloads(tmp_path):
    rules = Rules(4, hand_sizes=[1, 2], hook=True, zero_bid_scores_hand_size=True)
    sheet = ScoreSheet(rules, NAMES4, first_dealer=1)
    sheet.set_trump_card("7D")
    for b in (0, 0, 0):
        sheet.enter_bid(b)
    sheet.enter_bid(0)  # Bob deals: 0 is fine (total 0, not 1)
    for w in (1, 0, 0, 0):
        sheet.enter_tricks(w)
    sheet.enter_bid(1)
    path = tmp_path / "sheet.json"
    sheet.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "ohhell.scoresheet" and data["version"] == 1
    assert data["rules"] == rules.to_dict()
    assert data["players"] == NAMES4
    h0, h1 = data["hands"]
    assert h0["deal"] is None and h0["tricks"] is None
    assert (h0["dealer"], h0["hand_size"], h0["trump_turned"], h0["trump_card"]) == (1, 1, True, "7D")
    assert h0["scores"] == [6, 6, 0, 6] and data["totals"] == [6, 6, 0, 6]  # Cat won the trick
    assert h1["bids"] == [None, None, None, 1] and h1["tricks_won"] == [None] * 4 and "scores" not in h1
    assert "winners" not in data
    again = ScoreSheet.load(path)
    assert again == sheet
    assert again.to_enter == 0 and again.phase == "bid"
    assert [f for f in os.listdir(tmp_path)] == ["sheet.json"]  # no temporary file left behind


def test_game_from_record_refuses_a_sheet_with_a_clear_message(tmp_path):
    sheet = ScoreSheet(Rules(3, hand_sizes=[1]), NAMES4[:3])
    with pytest.raises(RecordError, match="format is 'ohhell.scoresheet', not 'ohhell.record'"):
        ohhell.Game.from_record(sheet.to_dict())
    path = tmp_path / "s.json"
    sheet.save(path)
    with pytest.raises(RecordError, match="ohhell.scoresheet"):
        list(ohhell.read_records(path))


def test_a_game_record_is_not_a_sheet():
    g = ohhell.Game(Rules(3, hand_sizes=[1]), seed=1)
    with pytest.raises(RecordError, match="game record .* open it with `ohhell replay`"):
        ScoreSheet.from_dict(g.record())


def _finished_sheet() -> ScoreSheet:
    sheet = ScoreSheet(Rules(3, hand_sizes=[1, 2], hook=True), ["Ann", "Bob", "Cat"], first_dealer=0)
    play_hand(sheet, [0, 0, 0], [0, 1, 0])   # Bob, Cat, Ann(dealer): total 0 != 1
    play_hand(sheet, [0, 1, 0], [1, 0, 1])   # Cat, Ann, Bob(dealer): total 1 != 2
    assert sheet.is_over
    return sheet


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["hands"][0].__setitem__("scores", [10, 10, 10]), r"hand 1: scores are \[10, 10, 10\]"),
    (lambda d: d.__setitem__("totals", [1, 2, 3]), "totals are"),
    (lambda d: d.__setitem__("winners", [0]), "winners are"),
    (lambda d: d["hands"][1].__setitem__("dealer", 2), "hand 2: dealer is 2, but the deal passes left to seat 1"),
    (lambda d: d["hands"][0].__setitem__("deal", [["2C"], ["3C"], ["4C"]]), "records no cards"),
    (lambda d: d["hands"][0].__setitem__("tricks_won", [1, 1, 0]), "hand 1: Ann cannot have won 1: the tricks would add up to 2"),
    (lambda d: d["hands"][0].__setitem__("bids", [1, 0, 0]), "hand 1: Ann deals and, with the hook, may not bid 1"),
    (lambda d: d["hands"][0].__setitem__("bids", [0, None, 0]), "seat 2 has a value, but seat 1"),
    (lambda d: d["hands"][0].__setitem__("bids", [0, "1", 0]), "must hold whole numbers or null"),
    (lambda d: d["hands"][0].__setitem__("hand_size", 3), "hand_size is 3"),
    (lambda d: d["hands"][0].__setitem__("trump_turned", False), "trump_turned is False"),
    (lambda d: d["hands"][0].__setitem__("trump_card", "XX"), "not a card"),
    (lambda d: d["hands"].append(dict(d["hands"][1])), "the sheet has 3 hands"),
    (lambda d: d.__setitem__("version", 2), "version 2 is not supported"),
    (lambda d: d["rules"].__setitem__("players", 9), "rules: players must be 3 to 7"),
    (lambda d: d.__setitem__("players", ["Ann", "Bob"]), "players must be a list of 3 names"),
])
def test_loading_checks_every_field(edit, message):
    data = _finished_sheet().to_dict()
    assert ScoreSheet.from_dict(data) == _finished_sheet()
    edit(data)
    with pytest.raises(RecordError, match=message):
        ScoreSheet.from_dict(json.dumps(data))


def test_loading_rejects_bad_json():
    with pytest.raises(RecordError, match="bad JSON"):
        ScoreSheet.from_dict("{not json")
    with pytest.raises(RecordError, match="is a JSON object, not list"):
        ScoreSheet.from_dict("[1, 2]")


def test_atomic_write_leaves_the_old_file_when_the_rename_fails(tmp_path, monkeypatch):
    path = tmp_path / "s.json"
    atomic_write_text(path, "old\n")
    os.chmod(path, 0o640)

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="No space"):
        atomic_write_text(path, "new\n")
    assert path.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["s.json"]
    monkeypatch.undo()
    atomic_write_text(path, "new\n")
    assert path.read_text() == "new\n"
    assert os.stat(path).st_mode & 0o777 == 0o640  # the file keeps its permissions
    atomic_write_text(tmp_path / "deeper" / "x.json", "made\n")
    assert (tmp_path / "deeper" / "x.json").read_text() == "made\n"


# --- properties over random sessions --------------------------------------------------------------

@st.composite
def rules_strategy(draw):
    n = draw(st.integers(3, 7))
    sizes = draw(st.lists(st.integers(1, min(6, 52 // n)), min_size=1, max_size=5))
    hook = draw(st.booleans())
    return Rules(n, hand_sizes=sizes, hook=hook, simultaneous_bidding=draw(st.booleans()) and not hook,
                 no_trump=draw(st.sampled_from(["last", "largest", "never"])),
                 missed_bid_scores_tricks=draw(st.booleans()), zero_bid_scores_hand_size=draw(st.booleans()))


def _check_invariants(sheet: ScoreSheet) -> None:
    rules = sheet.rules
    totals = [0] * sheet.players
    for k in range(sheet.hands_started):
        p = sheet.plan(k)
        bids, won, scores = sheet.bids(k), sheet.tricks_won(k), sheet.scores(k)
        if rules.hook and None not in bids:
            assert sum(bids) != p.hand_size
        if scores is not None:
            assert sum(won) == p.hand_size
            assert scores == tuple(hand_score(b, w, p.hand_size, rules) for b, w in zip(bids, won))
            totals = [t + x for t, x in zip(totals, scores)]
        else:
            assert k == sheet.hands_started - 1
            assert sum(w for w in won if w is not None) <= p.hand_size
    assert list(sheet.totals) == totals
    assert (list(sheet.running_totals()[-1]) if sheet.finished_hands else [0] * sheet.players) == totals
    assert ScoreSheet.from_dict(json.loads(json.dumps(sheet.to_dict()))) == sheet


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy(), data=st.data())
def test_random_sessions_keep_every_invariant_and_rejections_change_nothing(rules, data):
    names = [f"P{s}" for s in range(rules.players)]
    sheet = ScoreSheet(rules, names, first_dealer=data.draw(st.integers(0, rules.players - 1)))
    for _ in range(data.draw(st.integers(0, 80))):
        if sheet.is_over:
            break
        size = sheet.plan().hand_size
        op = data.draw(st.sampled_from(["enter", "enter", "enter", "junk", "undo", "correct", "rule", "dealer"]))
        before = sheet.to_dict()
        try:
            if op == "enter":
                sheet.enter(data.draw(st.integers(0, size + 1)))
            elif op == "junk":
                sheet.enter(data.draw(st.sampled_from(["", "x", "-1", "1e1", "0x1", "²", str(size + 1)])))
                raise AssertionError("junk was accepted")
            elif op == "undo":
                sheet.undo()
            elif op == "rule":
                field = data.draw(st.sampled_from(ScoreSheet.CHANGEABLE_RULES))
                sheet.change_rules(**{field: data.draw(st.booleans())})
            elif op == "dealer":
                sheet.change_first_dealer(data.draw(st.integers(0, rules.players - 1)))
            else:
                k = data.draw(st.integers(0, sheet.hands_started - 1))
                bids = [None if b is None else data.draw(st.integers(0, sheet.plan(k).hand_size))
                        for b in sheet.bids(k)]
                won = [None if w is None else data.draw(st.integers(0, sheet.plan(k).hand_size))
                       for w in sheet.tricks_won(k)]
                sheet.correct_hand(k, bids=bids, tricks_won=won)
        except EntryError:
            assert sheet.to_dict() == before
        _check_invariants(sheet)


@settings(max_examples=40, deadline=None)
@given(rules=rules_strategy(), data=st.data())
def test_a_correction_gives_the_same_sheet_as_entering_the_corrected_values(rules, data):
    names = [f"P{s}" for s in range(rules.players)]
    hands = []
    sheet = ScoreSheet(rules, names)
    while not sheet.is_over:
        p = sheet.plan()
        for s in sheet.order():
            sheet.enter_bid(data.draw(st.sampled_from(sheet.allowed_bids())))
        left = p.hand_size
        order = sheet.order()
        for i, s in enumerate(order):
            w = left if i == len(order) - 1 else data.draw(st.integers(0, left))
            sheet.enter_tricks(w)
            left -= w
        hands.append((list(sheet.bids(p.index)), list(sheet.tricks_won(p.index))))
    k = data.draw(st.integers(0, len(hands) - 1))
    size = sheet.plan(k).hand_size
    new_bids = [data.draw(st.integers(0, size)) for _ in range(rules.players)]
    cut = sorted(data.draw(st.lists(st.integers(0, size), min_size=rules.players - 1,
                                    max_size=rules.players - 1)))
    new_won = [b - a for a, b in zip([0] + cut, cut + [size])]
    try:
        sheet.correct_hand(k, bids=new_bids, tricks_won=new_won)
    except EntryError:
        assert rules.hook and sum(new_bids) == size
        return
    hands[k] = (new_bids, new_won)
    fresh = ScoreSheet(rules, names)
    for bids, won in hands:
        play_hand(fresh, bids, won)
    assert fresh == sheet
