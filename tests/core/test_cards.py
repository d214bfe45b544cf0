import pickle

import pytest
from hypothesis import given, strategies as st

from ohhell.cards import (CARDS, Card, cards_to_mask, format_hand, from_openspiel, mask_to_cards,
                          parse_card, parse_cards, suit_of_text, to_openspiel)
from ohhell.errors import CardError


def test_numbering_is_suit_major_with_ace_high():
    assert int(parse_card("2C")) == 0
    assert int(parse_card("AC")) == 12
    assert int(parse_card("2D")) == 13
    assert int(parse_card("AS")) == 51
    assert parse_card("QS").suit == 3 and parse_card("QS").rank == 10


@pytest.mark.parametrize("text", ["TD", "10D", "td", "10d", "T♦", "♦T", "DT", " td "])
def test_every_spelling_of_the_ten_of_diamonds(text):
    assert parse_card(text) is CARDS[13 + 8]
    assert str(parse_card(text)) == "TD"


@pytest.mark.parametrize("text", ["", "X", "1D", "11H", "QQ", "ZS", "QSS", "10", "♠"])
def test_bad_card_text_is_refused_with_the_text(text):
    with pytest.raises(CardError, match="not a card"):
        parse_card(text)


def test_card_is_an_int_with_a_name():
    c = Card("QS")
    assert c == 49 and str(c) == "QS" and repr(c) == "Card('QS')" and c.pretty() == "Q♠"
    assert Card(49) is c
    assert pickle.loads(pickle.dumps(c)) is c
    with pytest.raises(CardError):
        Card(52)
    with pytest.raises(CardError):
        Card(True)


def test_masks_round_trip_and_format_by_suit():
    m = cards_to_mask(["QS", "2H", "AH", "7C"])
    assert [str(c) for c in mask_to_cards(m)] == ["7C", "2H", "AH", "QS"]
    assert format_hand(m) == "7C 2H AH QS"
    with pytest.raises(CardError, match="twice"):
        cards_to_mask(["QS", "qs"])
    assert [str(c) for c in parse_cards("QS, 2h 10c")] == ["QS", "2H", "TC"]


def test_suit_text():
    assert [suit_of_text(x) for x in ("c", "♦", "Hearts", "spade")] == [0, 1, 2, 3]
    with pytest.raises(CardError):
        suit_of_text("x")


@given(st.integers(0, 51))
def test_openspiel_numbering_round_trips(c):
    o = to_openspiel(c)
    assert 0 <= o < 52
    assert from_openspiel(o) == c
    # OpenSpiel is rank-major with suits C, D, S, H.
    assert o // 4 == c % 13
    assert "CDSH"[o % 4] == "CDHS"[c // 13]


def test_openspiel_examples():
    # OpenSpiel's names: action 2 is "S2", 3 is "H2", 51 is "HA".
    assert str(from_openspiel(2)) == "2S" and str(from_openspiel(3)) == "2H"
    assert str(from_openspiel(51)) == "AH"
