"""Deterministic, portable dealing.

The deals of a seeded game depend only on the seed and the hand number, never
on the actions, so the same deals can be replayed with other players
(duplicate play).  The algorithm uses only SHA-256 and SHAKE-256, so a seed
gives the same deals on every platform and Python version:

1. The seed is turned into text: an ``int`` is written in decimal, a ``str``
   is used as it is (so seed ``7`` and seed ``"7"`` deal the same cards).
2. The *hand key* of hand ``k`` (0-based) is
   ``SHA-256(UTF-8("ohhell/deal/v1/" + seed_text + "/" + decimal(k)))``,
   32 bytes.
3. The stream ``SHAKE-256(hand_key)`` is read for 416 bytes.  Card ``c``
   (``card = suit * 13 + rank``: clubs, diamonds, hearts, spades; two low,
   ace high) gets the sort key made of stream bytes ``8c .. 8c+4`` followed
   by the byte ``c``, read as a big-endian unsigned 48-bit integer (so the
   keys are distinct, and the card number breaks ties in the 5 random bytes).
4. The shuffled deck is the cards in increasing order of their keys.
5. With ``n`` players, ``h`` cards each and dealer ``d``: deck card ``i``
   (``i < n*h``) goes to seat ``(d + 1 + i) mod n``, one card at a time from
   the dealer's left, as at a real table.  If the hand has a trump, the trump
   card is deck card ``n*h``; the rest is the unseen stock.
6. The first dealer is ``int.from_bytes(SHA-256(hand_key_0 + b"/dealer")[:8],
   "big") mod n``, where ``hand_key_0`` is the key of hand 0.

Publishing ``commitment(seed, k) = SHA-256(hand_key)`` before hand ``k`` and
the seed after the game proves the deal was fixed in advance (the server's
fair shuffle): the commitment reveals nothing of the deal, and nobody can
find a second key with the same commitment.

Without a seed, each hand key is 32 bytes from :func:`secrets.token_bytes`
(the operating system's CSPRNG) and the first dealer :func:`secrets.randbelow`.

>>> deal_cards(7, 0, players=4, hand_size=2, dealer=0, trump=True)[1]
Card('QH')
"""

from __future__ import annotations

import hashlib
import secrets
import struct

from .cards import CARDS, Card

__all__ = ["seed_text", "hand_key", "commitment", "shuffled_deck", "deal_from_key", "deal_cards",
           "first_dealer", "dealer_from_key", "random_hand_key", "verify_commitment"]

_SHAKE = hashlib.shake_256
_UNPACK = struct.Struct(">52d2x").unpack   # 52 keys, then 2 stream bytes not used
_PACK = [struct.Struct(f">{k}d").pack for k in range(53)]
_BIT = tuple(1 << c for c in range(52))
# Per card, 8 bytes: 3F F0 (a double in [1, 2)), 5 stream bytes (filled in), the card number.
_HEAD = b"\x3f\xf0"
_BYTE_3F = b"\x3f" * 53
_BYTE_F0 = b"\xf0" * 53
_CARD_BYTES = bytes(range(52))


def seed_text(seed: "int | str") -> str:
    """The canonical text of a seed (``int`` in decimal, ``str`` as is).

    :raises TypeError: for any other type.
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise TypeError(f"a seed is an int or a str, not {type(seed).__name__}")
    return str(seed)


def hand_key(seed: "int | str", hand_index: int) -> bytes:
    """The 32-byte key that deals hand ``hand_index`` (0-based) of a seeded game."""
    text = seed if seed.__class__ is str else seed_text(seed)
    return hashlib.sha256(f"ohhell/deal/v1/{text}/{hand_index}".encode()).digest()


def commitment(key: bytes) -> str:
    """The public commitment (hex SHA-256) to a hand key."""
    return hashlib.sha256(key).hexdigest()


def verify_commitment(key: bytes, digest: str) -> bool:
    """Whether ``digest`` is the commitment to ``key``."""
    return secrets.compare_digest(commitment(key), digest.lower())


def random_hand_key() -> bytes:
    """A hand key from the operating system's CSPRNG (for unseeded games)."""
    return secrets.token_bytes(32)


def _sorted_keys(key: bytes) -> list[float]:
    """The 52 sort keys of step 3, in increasing order, as floats.

    Each key is laid out as the bit pattern of a double in [1, 2): bytes
    ``3F F0``, the 5 stream bytes, the card byte.  Doubles in [1, 2) order
    exactly as their low 48 bits do, so sorting them is sorting the keys, and
    CPython sorts floats much faster than 64-bit ints.  The card is the
    low byte of each key's bit pattern.

    The layout is made in place: with two bytes put before the stream, card
    ``c``'s 8-byte word starts at stream byte ``8c - 2``, so its bytes 2..6
    are stream bytes ``8c .. 8c+4`` already; bytes 0, 1 and 7 (stream bytes
    the algorithm does not use) are overwritten with ``3F F0`` and ``c``.
    """
    words = bytearray(_HEAD)
    words += _SHAKE(key).digest(416)
    words[0::8] = _BYTE_3F
    words[1::8] = _BYTE_F0
    words[7::8] = _CARD_BYTES
    return sorted(_UNPACK(words))


def shuffled_deck(key: bytes) -> list[int]:
    """The 52 cards in the order a hand key shuffles them."""
    return list(_PACK[52](*_sorted_keys(key))[7::8])


def deal_from_key(key: bytes, players: int, hand_size: int, dealer: int,
                  trump: bool) -> tuple[list[int], int]:
    """Deal one hand from a hand key.

    Returns ``(hands, trump_card)``: ``hands[s]`` is seat ``s``'s cards as a
    mask; ``trump_card`` is the turned card, or ``-1`` when there is no trump.
    """
    dealt = players * hand_size
    top = _sorted_keys(key)[:dealt + 1]
    # The card of each sorted key is its last byte: pack them back and take every 8th byte.
    deck = _PACK[len(top)](*top)[7::8]
    hands = [0] * players
    bit = _BIT.__getitem__
    for j in range(players):
        # Deck cards j, j+n, j+2n, ... go to the j-th seat after the dealer.
        hands[(dealer + 1 + j) % players] = sum(map(bit, deck[j:dealt:players]))
    return hands, (deck[dealt] if trump else -1)


def deal_cards(seed: "int | str", hand_index: int, *, players: int, hand_size: int, dealer: int,
               trump: bool) -> tuple[list[list[Card]], "Card | None"]:
    """The deal of a seeded game's hand, as lists of cards (for people and tests)."""
    hands, t = deal_from_key(hand_key(seed, hand_index), players, hand_size, dealer, trump)
    from .cards import mask_to_cards
    return [mask_to_cards(m) for m in hands], (CARDS[t] if t >= 0 else None)


def first_dealer(seed: "int | str | None", players: int) -> int:
    """The first dealer of a game: drawn from the seed, or from the CSPRNG without one."""
    if seed is None:
        return secrets.randbelow(players)
    return dealer_from_key(hand_key(seed, 0), players)


def dealer_from_key(key0: bytes, players: int) -> int:
    """The first dealer drawn from the key of hand 0 (step 6 above)."""
    return int.from_bytes(hashlib.sha256(key0 + b"/dealer").digest()[:8], "big") % players
