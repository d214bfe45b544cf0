"""The dealing algorithm is written down in ohhell.dealing; this test re-implements
it from that text alone and pins known deals, so a seed deals the same cards on
every platform and version."""

import hashlib

from hypothesis import given, settings, strategies as st

import ohhell
from ohhell import Game, Rules
from ohhell.dealing import commitment, deal_cards, first_dealer, hand_key, verify_commitment


def documented_deal(seed, k, players, hand_size, dealer, trump):
    text = str(seed)
    key = hashlib.sha256(f"ohhell/deal/v1/{text}/{k}".encode("utf-8")).digest()
    stream = hashlib.shake_256(key).digest(416)
    keys = [int.from_bytes(stream[8 * c:8 * c + 5] + bytes([c]), "big") for c in range(52)]
    deck = sorted(range(52), key=lambda c: keys[c])
    hands = [[] for _ in range(players)]
    for i, c in enumerate(deck[:players * hand_size]):
        hands[(dealer + 1 + i) % players].append(c)
    return [sorted(h) for h in hands], (deck[players * hand_size] if trump else None)


def documented_dealer(seed, players):
    key0 = hashlib.sha256(f"ohhell/deal/v1/{seed}/0".encode("utf-8")).digest()
    return int.from_bytes(hashlib.sha256(key0 + b"/dealer").digest()[:8], "big") % players


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.integers(-10**9, 10**12), st.text(max_size=20)), st.integers(0, 30),
       st.integers(3, 7), st.data())
def test_the_implementation_matches_the_documented_algorithm(seed, k, players, data):
    h = data.draw(st.integers(1, 52 // players))
    dealer = data.draw(st.integers(0, players - 1))
    trump = h * players < 52 and data.draw(st.booleans())
    hands, t = deal_cards(seed, k, players=players, hand_size=h, dealer=dealer, trump=trump)
    want_hands, want_t = documented_deal(seed, k, players, h, dealer, trump)
    assert [[int(c) for c in x] for x in hands] == want_hands
    assert (None if t is None else int(t)) == want_t
    assert first_dealer(seed, players) == documented_dealer(seed, players)


def test_known_deals_are_pinned():
    # If these change, every stored record and every duplicate match changes: never change them.
    pinned = {
        (7, 0): ([["8D", "8H"], ["JC", "2S"], ["TC", "QD"], ["TH", "TS"]], "QH"),
        ("duplicate", 3): ([["4D", "QD", "5H"], ["3C", "4H", "4S"], ["7D", "TD", "AH"]], "TC"),
    }
    for (seed, k), (want, want_t) in pinned.items():
        n = len(want)
        h = len(want[0])
        hands, t = deal_cards(seed, k, players=n, hand_size=h, dealer=0, trump=True)
        assert [[str(c) for c in x] for x in hands] == want, (seed, k)
        assert str(t) == want_t
    assert first_dealer("table-1", 5) == documented_dealer("table-1", 5)


def test_int_and_text_seeds_deal_alike_and_games_use_hand_keys():
    assert hand_key(7, 2) == hand_key("7", 2)
    g = Game(Rules(4, hand_sizes=[2, 3]), seed=7, dealer=0)
    assert g.hand_key(0) == hand_key(7, 0)
    hands, t = deal_cards(7, 0, players=4, hand_size=2, dealer=0, trump=True)
    assert [g.hand(s) for s in range(4)] == hands and g.turned_card == t


def test_commitments():
    key = hand_key("secret", 4)
    c = commitment(key)
    assert len(c) == 64 and c == hashlib.sha256(key).hexdigest()
    assert verify_commitment(key, c.upper()) and not verify_commitment(hand_key("secret", 5), c)


def test_duplicate_deals_with_other_players():
    """The same seed deals the same cards whatever is played (duplicate play)."""
    rules = Rules(5, hand_sizes=[4, 4, 4])
    a = Game(rules, seed="dup", dealer=1)
    b = Game(rules, seed="dup", dealer=1)
    while not a.is_over:
        a.apply(a.legal_actions()[0])
        b.apply(b.legal_actions()[-1])
    assert [h.deal for h in a.past_hands] == [h.deal for h in b.past_hands]
    assert ohhell.Game(rules, seed="dup").dealer == first_dealer("dup", 5)
