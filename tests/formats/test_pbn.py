"""PBN with ohhell's Oh Hell extension: lossless round trips for every variant, golden files,
and malformed files refused with the line, never a traceback."""

from __future__ import annotations

import json
import pathlib
import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ohhell
from ohhell import Game, Rules, pbn
from ohhell.pbn import PBNError

from .helpers import SETTINGS, names_text, play_random, rules_strategy, seeds

DATA = pathlib.Path(__file__).parent.parent / "data"
GOLDEN = {"standard-4": "golden-standard-4.pbn", "simultaneous-5": "golden-simultaneous-5.pbn"}


def _game(rules, seed, steps=None, names=None, rng_seed=0):
    return play_random(Game(rules, seed=seed, names=names), random.Random(rng_seed), steps)


# --- round trips --------------------------------------------------------------------------------

@SETTINGS
@given(rules=rules_strategy(), seed=seeds, rng_seed=st.integers(0, 10 ** 6),
       steps=st.one_of(st.none(), st.integers(0, 80)), data=st.data())
def test_round_trip_rebuilds_the_same_game(rules, seed, rng_seed, steps, data):
    names = data.draw(st.lists(names_text, min_size=rules.players, max_size=rules.players))
    game = _game(rules, seed, steps, names, rng_seed)
    text = pbn.dumps(game)
    back = pbn.loads(text)
    # the whole state: rules, seed, names, deals, bids in the order made, tricks, scores, totals
    assert back.fingerprint() == game.fingerprint()
    assert back.record() == game.record()
    assert pbn.dumps(back) == text


@SETTINGS
@given(rules=rules_strategy(max_hands=3), seed=seeds, rng_seed=st.integers(0, 10 ** 6),
       steps=st.one_of(st.none(), st.integers(0, 60)), data=st.data())
def test_one_hand_exported_alone_is_that_hand(rules, seed, rng_seed, steps, data):
    game = _game(rules, seed, steps, rng_seed=rng_seed)
    reached = len(game.past_hands) + (0 if game.is_over else 1)
    hand = data.draw(st.integers(1, reached))
    found = pbn.parse(pbn.dumps(game, hand=hand))
    assert len(found) == 1
    imported = found[0]
    whole = hand == 1 and (rules.hand_count == 1 or hand == reached and not game.is_over)
    assert imported.whole == whole and imported.hands == (hand,)
    one = imported.game
    if whole:
        assert one.fingerprint() == game.fingerprint()
        return
    assert one.rules.hand_sizes == (rules.hand_sizes[hand - 1],)
    assert one.rules.has_trump(0) == rules.has_trump(hand - 1)
    for flag in ohhell.rules.FLAGS:
        assert getattr(one.rules, flag) == getattr(rules, flag)
    if hand <= len(game.past_hands):
        want, got = game.past_hands[hand - 1], one.past_hands[0]
        assert (got.dealer, got.deal, got.trump_card, got.bids, got.tricks, got.scores, got.order) == \
            (want.dealer, want.deal, want.trump_card, want.bids, want.tricks, want.scores, want.order)
    else:
        assert (one.dealer, one.deal, one.turned_card, one.bids, one.tricks, one.current_trick) == \
            (game.dealer, game.deal, game.turned_card, game.bids, game.tricks, game.current_trick)
        assert sorted(map(str, one.legal_actions())) == sorted(map(str, game.legal_actions()))


def test_several_games_in_one_file_come_back_in_order():
    games = [_game(Rules(3, hand_sizes=[1, 2]), seed=i, rng_seed=i) for i in range(3)]
    text = "\n".join(pbn.dumps(g) for g in games)
    found = pbn.parse(text)
    assert [f.game.fingerprint() for f in found] == [g.fingerprint() for g in games]
    assert all(f.whole for f in found)
    with pytest.raises(PBNError, match="holds 3 games"):
        pbn.loads(text)


def test_a_finished_hand_whose_next_hand_is_missing_is_imported_alone():
    game = _game(Rules(4, hand_sizes=[1, 2, 3]), seed=4, rng_seed=4)
    text = pbn.dumps(game)
    first_two = text[:text.index('[Board "3"]')]
    first_two = first_two[:first_two.rstrip().rfind("\n[Event")]   # hands 1 and 2 only
    found = pbn.parse(first_two)
    assert [(f.hands, f.whole) for f in found] == [((1,), False), ((2,), False)]


def test_a_four_player_hand_uses_the_standard_bridge_tags():
    game = _game(Rules(4, hand_sizes=[3]), seed=9, names=["Ann", 'Bo "B"', "Cy\\", "Di"], rng_seed=9)
    text = pbn.dumps(game)
    for tag in ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer", "Deal", "Play"):
        assert re.search(rf'^\[{tag} "', text, re.M), tag
    assert '[East "Bo \\"B\\""]' in text and '[South "Cy\\\\"]' in text
    deal = re.search(r'\[Deal "([NESW]):(.*)"\]', text).group(2).split()
    assert len(deal) == 4 and all(len(h.split(".")) == 4 for h in deal)
    assert all(len(h.replace(".", "")) == 3 for h in deal)
    # seat 0 is North; the deal starts left of the dealer
    first = "NESW"[(game.past_hands[0].dealer + 1) % 4]
    assert f'[Deal "{first}:' in text and f'[OhHellBids "{first}"]' in text
    assert "OhHellDeal" not in text and "OhHellPlay" not in text


def test_other_player_counts_number_their_seats():
    game = _game(Rules(5, hand_sizes=[2]), seed=2, rng_seed=2)
    text = pbn.dumps(game)
    assert '[OhHellPlayer5 "Seat 5"]' in text and "[OhHellDeal " in text and "[OhHellPlay " in text
    assert "[Deal " not in text and "[Play " not in text and "[North " not in text


# --- golden files ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_pbn_files(name):
    record = json.loads((DATA / f"golden-{name}.json").read_text())
    game = Game.from_record(record)
    text = (DATA / GOLDEN[name]).read_text(encoding="utf-8")
    assert pbn.dumps(game, event="ohhell golden game", date="2026.12.02") == text
    assert pbn.loads(text).record() == record


def regenerate_golden():  # pragma: no cover - run by hand when the format changes on purpose
    for name, file in GOLDEN.items():
        game = Game.from_record(json.loads((DATA / f"golden-{name}.json").read_text()))
        (DATA / file).write_text(pbn.dumps(game, event="ohhell golden game", date="2026.12.02"), encoding="utf-8")


# --- reading what other writers do -------------------------------------------------------------------

def test_comments_annotations_inheritance_and_latin1_are_read():
    game = _game(Rules(4, hand_sizes=[2, 1]), seed="x", names=["Renée", "B", "C", "D"], rng_seed=1)
    text = pbn.dumps(game)
    second = text.index('\n[Event', text.index('[Board "1"]'))
    rules_value = re.search(r'\[OhHellRules "(.*)"\]', text).group(1)
    noisy = (text[:second].replace('[Play', '{ a comment\nover two lines }\n[Play')
             .replace("[OhHellTricksWon", "; a comment to the end of the line\n[OhHellTricksWon")
             + text[second:].replace(f'[OhHellRules "{rules_value}"]', '[OhHellRules "#"]'))
    lines = noisy.splitlines()
    for i, line in enumerate(lines):
        if line.startswith('[Play'):
            lines[i + 1] = lines[i + 1] + " $1 =1="
    noisy = "\n".join(lines) + "\n"
    assert pbn.loads(noisy).fingerprint() == game.fingerprint()
    assert pbn.parse(noisy.encode("latin-1"))[0].game.names[0] == "Renée"
    assert pbn.parse(("\ufeff" + noisy).encode("utf-8"))[0].game.fingerprint() == game.fingerprint()


def test_compass_and_numbers_are_both_seats_for_four_players():
    game = _game(Rules(4, hand_sizes=[2]), seed=3, rng_seed=3)
    text = pbn.dumps(game)
    numbered = re.sub(r'\[Dealer "([NESW])"\]', lambda m: f'[Dealer "{"NESW".index(m.group(1)) + 1}"]', text)
    assert numbered != text and pbn.loads(numbered).fingerprint() == game.fingerprint()


# --- what is refused ----------------------------------------------------------------------------------

def _sample():
    return pbn.dumps(_game(Rules(4, hand_sizes=[2, 3]), seed=7, rng_seed=7))


def _line_of(text, needle):
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def _damage(text, old, new, count=1):
    assert old in text, old
    return text.replace(old, new, count)


BAD = [
    # (what is changed, into what, the line that must be named (by a piece of it), words of the message)
    ('[OhHellRules "players=4', '[OhHellRules "players=9', "OhHellRules", "players must be 3 to 7"),
    ('hook=false', 'hook=maybe', "OhHellRules", "hook must be true or false"),
    ('[OhHellHand "1/2"]', '[OhHellHand "1 of 2"]', '[OhHellHand "', "must be 'K/M'"),
    ('[OhHellHand "1/2"]', '[OhHellHand "3/2"]', '[OhHellHand "', "does not fit"),
    ('[OhHellCards "2"]', '[OhHellCards "5"]', "OhHellCards", "the rules deal 2 cards"),
    ('[Dealer "', '[Dealer "X', "[Dealer", "is not a seat"),
    ('[OhHellVersion "1"]', '[OhHellVersion "7"]', "OhHellVersion", "not supported"),
    ('[OhHellSeed "7"]', '[OhHellSeed "seven"]', "OhHellSeed", "must be a whole number"),
    ('[OhHellTrump "', '[OhHellTrump "Z', "OhHellTrump", "not a card"),
    ('[Event "Oh Hell"]', '[Event "Oh Hell]', "[Event", "malformed tag"),
    ('[Site "?"]', '[Site "?"]\n[Site "again"]', '[Site "again"]', "appears twice"),
    ('[OhHellTricksWon "', '[OhHellTricksWon "9 ', "OhHellTricksWon", "must hold 4 whole numbers"),
]


@pytest.mark.parametrize("old,new,where,words", BAD)
def test_malformed_files_name_the_line(old, new, where, words):
    text = _damage(_sample(), old, new)
    with pytest.raises(PBNError) as e:
        pbn.loads(text)
    assert words in str(e.value)
    assert e.value.line == _line_of(text, where), str(e.value)


def _section_line(text, tag, offset=1):
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith(tag))
    return i + offset


def test_an_illegal_bid_names_its_line():
    game = Game.from_deal(Rules(4, hand_sizes=[2, 3], hook=True), 0,
                          [["AS", "KS"], ["QS", "JS"], ["TS", "9S"], ["8S", "7S"]], "2C", names=list("ABCD"))
    for b in (1, 0, 0):
        game.apply(ohhell.Bid(b))
    game.apply(ohhell.Bid(2))
    text = pbn.dumps(game)
    lines = text.splitlines()
    i = _section_line(text, "[OhHellBids")
    lines[i] = "1 0 0 1"        # the dealer (North) may not make the bids total 2
    with pytest.raises(PBNError, match="with the hook, may not bid 1") as e:
        pbn.loads("\n".join(lines))
    assert e.value.line == i + 1


def test_damaged_play_sections_name_the_line():
    text = pbn.dumps(_game(Rules(4, hand_sizes=[3]), seed=5, rng_seed=5))
    lines = text.splitlines()
    i = _section_line(text, "[Play")
    first = lines[i].split()
    cases = {
        "a short line": " ".join(first[:3]),
        "a card not held": " ".join(first[:3] + ["XX"]),
        "a card twice": " ".join([first[0]] * 4),
    }
    for what, replacement in cases.items():
        damaged = lines[:i] + [replacement] + lines[i + 1:]
        with pytest.raises(PBNError) as e:
            pbn.loads("\n".join(damaged))
        assert e.value.line == i + 1, (what, str(e.value))


def test_scores_that_disagree_are_refused():
    text = _sample()
    m = re.search(r'\[OhHellScores "([^"]*)"\]', text)
    scores = [int(x) for x in m.group(1).split()]
    scores[0] += 1
    damaged = text.replace(m.group(0), f'[OhHellScores "{" ".join(map(str, scores))}"]', 1)
    with pytest.raises(PBNError, match="the rules score the hand") as e:
        pbn.loads(damaged)
    assert e.value.line == _line_of(damaged, "OhHellScores")


def test_a_deal_that_is_not_the_seeds_is_refused():
    text = _sample()
    m = re.search(r'\[Deal "([NESW]):(\S+) (\S+)', text)
    a, b = m.group(2), m.group(3)
    swapped = text.replace(m.group(0), f'[Deal "{m.group(1)}:{b} {a}', 1)
    with pytest.raises(PBNError, match="not the one seed 7 deals") as e:
        pbn.loads(swapped)
    assert e.value.line == _line_of(swapped, '[Deal "')


def test_not_a_pbn_file():
    with pytest.raises(PBNError, match="no game found"):
        pbn.loads("% only a comment\n\n")
    with pytest.raises(PBNError, match="outside any section"):
        pbn.loads("hello\n")
    with pytest.raises(PBNError, match="never closed"):
        pbn.loads('[Event "x"] { open\n')


@SETTINGS
@given(seed=st.integers(0, 10 ** 6), edits=st.lists(st.tuples(st.integers(0, 10 ** 6), st.sampled_from(
    ["delete", "duplicate", "swap", "char", "truncate"])), min_size=1, max_size=3))
def test_damaged_files_are_refused_cleanly_or_read(seed, edits):
    """Whatever the damage, reading raises PBNError (with a line where one is at fault) or succeeds."""
    text = pbn.dumps(_game(Rules(3, hand_sizes=[2, 1], hook=True), seed=seed % 50, rng_seed=seed))
    lines = text.splitlines()
    rng = random.Random(seed)
    for where, kind in edits:
        i = where % len(lines)
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "char" and lines[i]:
            k = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:k] + rng.choice('AK2x"[]{};-*#.:9 ') + lines[i][k + 1:]
        elif kind == "truncate":
            lines = lines[:i + 1]
        if not lines:
            lines = [""]
    try:
        pbn.parse("\n".join(lines))
    except PBNError:
        pass


def test_names_pbn_cannot_carry_are_refused_on_export():
    game = Game(Rules(3, hand_sizes=[1]), seed=1, names=["a\nb", "c", "d"])
    with pytest.raises(PBNError, match="line break"):
        pbn.dumps(game)
    with pytest.raises(PBNError, match="no hand 3"):
        pbn.dumps(Game(Rules(3, hand_sizes=[1, 2]), seed=1), hand=3)


def test_lines_stay_within_pbns_255_characters():
    for rules in (Rules(3, schedule="up-down", hook=True, must_trump=True), Rules(7, schedule="down-up"),
                  Rules(4, hand_sizes=[13, 12] * 20)):
        text = pbn.dumps(play_random(Game(rules, seed="long", names=["a" * 40] * rules.players),
                                     random.Random(1), 200))
        assert max(len(line) for line in text.splitlines()) <= 255


def test_hand_sizes_are_given_once():
    text = _sample()
    both = text.replace(";no_trump=", ";hand_sizes=2,3;no_trump=", 1)
    with pytest.raises(PBNError, match="hand_sizes is given in OhHellRules and OhHellHandSizes"):
        pbn.loads(both)
    neither = re.sub(r'\[OhHellHandSizes "[^"]*"\]\n', "", text, count=1)
    with pytest.raises(PBNError, match="give OhHellHandSizes"):
        pbn.loads(neither)


def test_inherited_values_chain_over_several_games():
    game = _game(Rules(3, hand_sizes=[1, 1, 1]), seed=2, rng_seed=2)
    text = pbn.dumps(game, event="Club night")
    first = text.index('[Event', text.index('[Event') + 1)     # the second hand's tags
    inherited = text[:first] + text[first:].replace('[Event "Club night"]', '[Event "#"]')
    found = pbn.parse(inherited)
    assert found[0].game.fingerprint() == game.fingerprint() and found[0].event["Event"] == "Club night"
    assert inherited.count('[Event "#"]') == 2
