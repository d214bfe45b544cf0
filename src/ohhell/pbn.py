"""Oh Hell games in PBN (Portable Bridge Notation 2.1) with ohhell's documented extension.

No card site's Oh Hell hand-record extension of PBN could be found published,
so ohhell defines one in PBN's spirit (docs/formats.md): every hand of a game
is one PBN game; the standard tags carry what bridge software can show (4
players: ``North`` .. ``West``, ``Dealer``, ``Deal``, ``Play``); tags and
sections prefixed ``OhHell`` carry the rest (the rules, the hand's place in
the game, the turned trump card, the bids, the scores), and for 3, 5, 6 or 7
players the deal, the dealer and the play too, with seats numbered 1 to N.

Export is lossless: :func:`loads` rebuilds the same :class:`~ohhell.Game`
(same rules, seed, names, deals, bids in the order they were made, plays and
scores), finished or not, for every variant of :class:`~ohhell.Rules`.

>>> import ohhell
>>> g = ohhell.Game(ohhell.Rules(3, hand_sizes=[2, 1]), seed=5)
>>> while not g.is_over: g.apply(g.legal_actions()[0])
>>> text = dumps(g)
>>> text.splitlines()[0]
'% PBN 2.1'
>>> loads(text).fingerprint() == g.fingerprint()
True
>>> loads('[Event "?"]\\n[Deal "N:AKQ... ... ... ..."]\\n')
Traceback (most recent call last):
ohhell.pbn.PBNError: line 1: no OhHellRules tag: this is not an Oh Hell hand in ohhell's PBN extension (docs/formats.md)
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

from . import dealing
from .actions import BIDS, PLAYS, Bid
from .cards import CARDS, RANKS, SUITS, Card, parse_card
from .errors import CardError, IllegalActionError, OhHellError, RulesError, show
from .game import Game, check_deal
from .rules import Rules
from .state import OVER, PLAY
from .text import explain_illegal

__all__ = ["PBNError", "PBNGame", "EXTENSION_VERSION", "TAGS", "EVENT_TAGS", "dumps", "loads", "read", "parse",
           "write"]

#: The version of ohhell's Oh Hell extension (the ``OhHellVersion`` tag).
EXTENSION_VERSION = 1

_COMPASS = "NESW"            # seat 0 is North with 4 players, clockwise
#: Every tag of the extension (``OhHellPlayer1`` .. ``OhHellPlayer7`` besides); a reader refuses
#: other ``OhHell`` tags, so a misspelt one is never silently ignored.
TAGS = ("OhHellVersion", "OhHellRules", "OhHellHandSizes", "OhHellSeed", "OhHellSeedText", "OhHellHand", "OhHellCards",
        "OhHellTrump", "OhHellDealer", "OhHellDeal", "OhHellBidOrder", "OhHellBids", "OhHellPlay",
        "OhHellTricksWon", "OhHellScores", "OhHellTotals")
#: PBN's tags that describe the event rather than the cards; :class:`PBNGame` keeps them.
EVENT_TAGS = ("Event", "Site", "Date", "Room", "Round", "Stage", "Annotator", "Description")
_REPEATABLE = ("Note",)      # PBN tags that may appear more than once in a game
_PBN_SUITS = (3, 2, 1, 0)    # a PBN hand lists spades, hearts, diamonds, clubs
_RULE_BOOLS = {"true": True, "false": False}


class PBNError(OhHellError):
    """A PBN file that cannot be imported; ``line`` (1-based) says where, when known."""

    def __init__(self, message: str, line: "int | None" = None) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.line = line


# --- export ----------------------------------------------------------------------------------

def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tag(name: str, value: str) -> str:
    return f"[{name} {_quote(value)}]"


def _seat(seat: int, n: int) -> str:
    return _COMPASS[seat] if n == 4 else str(seat + 1)


def _card(card: int) -> str:
    """PBN writes a card suit first: ``SK``, ``H3``."""
    return SUITS[card // 13] + RANKS[card % 13]


def _hand_text(mask: int) -> str:
    parts = []
    for s in _PBN_SUITS:
        parts.append("".join(RANKS[r] for r in range(12, -1, -1) if mask >> (s * 13 + r) & 1))
    return ".".join(parts)


def _rules_text(rules: Rules) -> str:
    parts = []
    for key, value in rules.to_dict().items():
        if key == "hand_sizes":
            continue          # OhHellHandSizes: a long schedule keeps the line within PBN's 255 characters
        if isinstance(value, bool):
            value = "true" if value else "false"
        parts.append(f"{key}={value}")
    return ";".join(parts)


def _check_text(what: str, value: str) -> str:
    if any(ord(ch) < 32 or ch == "\x7f" for ch in value):
        raise PBNError(f"{what} {show(value)} holds a line break or a control character, "
                       f"which a PBN tag cannot carry")
    return value


def _hands_of(game: Game) -> list[dict[str, Any]]:
    """Every hand of ``game`` as plain data (finished ones, then the current one if any)."""
    out: list[dict[str, Any]] = []
    for hr in game.past_hands:
        out.append(dict(index=hr.index, dealer=hr.dealer, size=hr.hand_size, deal=hr.deal,
                        trump=hr.trump_card, bids=hr.bids, order=hr.order, tricks=list(hr.tricks),
                        won=hr.tricks_won, scores=hr.scores, finished=True))
    if game.phase != OVER:
        tricks = list(game.tricks)
        if game.current_trick.cards:
            tricks.append(game.current_trick)
        order = [s for s, a in _current_bids(game)]
        out.append(dict(index=game.hand_index, dealer=game.dealer, size=game.hand_size,
                        deal=game.deal, trump=game.turned_card, bids=game.bids, order=tuple(order),
                        tricks=tricks, won=game.tricks_won, scores=None, finished=False))
    return out


def _current_bids(game: Game) -> list[tuple[int, int]]:
    """The current hand's bids as ``(seat, bid)`` in the order they were made."""
    done = sum(game.players + game.players * h.hand_size for h in game.past_hands)
    out = []
    for i, (seat, action) in enumerate(game.actions()):
        if i >= done and isinstance(action, Bid):
            out.append((seat, action.tricks))
    return out


def dumps(game: Game, *, hand: "int | None" = None, event: str = "Oh Hell", site: str = "?",
          date: str = "????.??.??") -> str:
    """The PBN text of a game: one PBN game per hand (``hand``: only that one, 1-based).

    ``event``, ``site`` and ``date`` (``YYYY.MM.DD``) fill PBN's tags of the same names.

    :raises PBNError: for a ``hand`` the game has not reached, or a name PBN cannot carry.
    """
    n = game.players
    hands = _hands_of(game)
    if hand is not None:
        if isinstance(hand, bool) or not isinstance(hand, int) or not 1 <= hand <= len(hands):
            raise PBNError(f"no hand {show(hand)} to export: the game has reached hands 1 to {len(hands)}")
        hands = [hands[hand - 1]]
    for i, name in enumerate(game.names):
        _check_text(f"the name of seat {i + 1}", name)
    for what, value in (("the event", event), ("the site", site), ("the date", date)):
        _check_text(what, value)
    if isinstance(game.seed, str):
        _check_text("the seed", game.seed)
    lines = ["% PBN 2.1", "% EXPORT",
             f"% Oh Hell: one PBN game per hand, ohhell extension {EXTENSION_VERSION} (see ohhell's docs/formats.md)"]
    rules_text = _rules_text(game.rules)
    for h in hands:
        lines.append("")
        k = h["index"]
        lines += [_tag("Event", event), _tag("Site", site), _tag("Date", date), _tag("Board", str(k + 1))]
        if n == 4:
            for seat in (3, 0, 1, 2):          # PBN's order: West, North, East, South
                lines.append(_tag(("North", "East", "South", "West")[seat], game.names[seat]))
            lines.append(_tag("Dealer", _seat(h["dealer"], n)))
        else:
            for seat in range(n):
                lines.append(_tag(f"OhHellPlayer{seat + 1}", game.names[seat]))
            lines.append(_tag("OhHellDealer", _seat(h["dealer"], n)))
        first = (h["dealer"] + 1) % n
        deal = " ".join(_hand_text(h["deal"][(first + i) % n]) for i in range(n))
        lines.append(_tag("Deal" if n == 4 else "OhHellDeal", f"{_seat(first, n)}:{deal}"))
        lines.append(_tag("OhHellVersion", str(EXTENSION_VERSION)))
        lines.append(_tag("OhHellRules", rules_text))
        lines.append(_tag("OhHellHandSizes", ",".join(map(str, game.rules.hand_sizes))))
        if isinstance(game.seed, int):
            lines.append(_tag("OhHellSeed", str(game.seed)))
        elif isinstance(game.seed, str):
            lines.append(_tag("OhHellSeedText", game.seed))
        lines.append(_tag("OhHellHand", f"{k + 1}/{game.hand_count}"))
        lines.append(_tag("OhHellCards", str(h["size"])))
        lines.append(_tag("OhHellTrump", "none" if h["trump"] is None else _card(h["trump"])))
        clockwise = tuple((first + i) % n for i in range(n))
        made = tuple(h["order"])
        if made != clockwise[:len(made)]:
            lines.append(_tag("OhHellBidOrder", " ".join(_seat(s, n) for s in made)))
        lines.append(_tag("OhHellBids", _seat(first, n)))
        bids = h["bids"]
        lines.append(" ".join("-" if bids[s] is None else str(bids[s]) for s in clockwise))
        if h["tricks"]:
            lines.append(_tag("Play" if n == 4 else "OhHellPlay", _seat(first, n)))
            for t in h["tricks"]:
                by_seat: dict[int, int] = {(t.leader + i) % n: c for i, c in enumerate(t.cards)}
                lines.append(" ".join(_card(by_seat[s]) if s in by_seat else "-" for s in clockwise))
            if not h["finished"]:
                lines.append("*")
        lines.append(_tag("OhHellTricksWon", " ".join(map(str, h["won"]))))
        if h["finished"]:
            lines.append(_tag("OhHellScores", " ".join(map(str, h["scores"]))))
            if hand is None:
                totals = [sum(game.past_hands[j].scores[s] for j in range(k + 1)) for s in range(n)]
                lines.append(_tag("OhHellTotals", " ".join(map(str, totals))))
    return "\n".join(lines) + "\n"


def write(path: "str | os.PathLike", game: Game, **options: Any) -> None:
    """Write :func:`dumps` of ``game`` to ``path`` atomically (UTF-8)."""
    from .files import atomic_write_text
    atomic_write_text(path, dumps(game, **options))


# --- reading: tokens -------------------------------------------------------------------------

@dataclass
class _Tag:
    name: str
    value: str
    line: int
    body: list[tuple[str, int]] = field(default_factory=list)   # a section's tokens and their lines


@dataclass
class _RawGame:
    line: int
    tags: dict[str, _Tag]


_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_NAME_ONLY = re.compile(r"\[\s*([A-Za-z0-9_]*)")


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _raw_games(text: str) -> Iterator[_RawGame]:
    """Split PBN text into games (separated by empty lines) of tags with their section tokens."""
    current: "_RawGame | None" = None
    last: "_Tag | None" = None
    in_brace = 0          # the line where an open { comment started, or 0
    for number, line in enumerate(text.splitlines(), 1):
        if in_brace:
            end = line.find("}")
            if end < 0:
                continue
            line = line[end + 1:]
            in_brace = 0
            if not line.strip():
                continue          # the end of a comment is no empty line between games
        if line.startswith("%"):
            continue
        if not line.strip():
            if current is not None:
                yield current
            current, last = None, None
            continue
        pos = 0
        while pos < len(line):
            ch = line[pos]
            if ch.isspace():
                pos += 1
                continue
            if ch == ";":
                break
            if ch == "{":
                end = line.find("}", pos)
                if end < 0:
                    in_brace = number
                    break
                pos = end + 1
                continue
            if ch == "[":
                m = _TAG.match(line, pos)
                if not m:
                    nm = _NAME_ONLY.match(line, pos)
                    name = nm.group(1) if nm and nm.group(1) else "?"
                    raise PBNError(f"malformed tag {name!r}: a tag is [Name \"value\"] on one line", number)
                name, value = m.group(1), _unquote(m.group(2))
                if current is None:
                    current = _RawGame(number, {})
                if name.startswith("OhHell") and name not in TAGS and \
                        not re.fullmatch(r"OhHellPlayer[1-7]", name):
                    raise PBNError(f"unknown tag {name}: the Oh Hell extension's tags are {', '.join(TAGS)} "
                                   f"and OhHellPlayer1 to OhHellPlayer7", number)
                if name in _REPEATABLE:
                    pos = m.end()
                    last = _Tag(name, value, number)      # its section (if any) is read and dropped
                    continue
                if name in current.tags:
                    raise PBNError(f"tag {name} appears twice in one game (an empty line separates games; "
                                   f"the first is on line {current.tags[name].line})", number)
                last = current.tags[name] = _Tag(name, value, number)
                pos = m.end()
                continue
            end = pos
            while end < len(line) and not line[end].isspace() and line[end] not in "[{;":
                end += 1
            token = line[pos:end]
            pos = end
            if current is None or last is None:
                raise PBNError(f"{token!r} stands outside any section (a game starts with a tag)", number)
            if token.startswith("$") or re.fullmatch(r"=\d+=", token) or token in ("!", "?", "!!", "??",
                                                                                   "!?", "?!"):
                continue          # PBN's annotation glyphs and note references carry no moves
            last.body.append((token, number))
    if in_brace:
        raise PBNError("a { comment is never closed", in_brace)
    if current is not None:
        yield current


# --- reading: one hand -----------------------------------------------------------------------

@dataclass
class _Hand:
    line: int
    number: int
    count: int
    rules: Rules
    rules_line: int
    seed: "int | str | None"
    names: tuple[str, ...]
    dealer: int
    dealer_line: int
    deal: list[list[Card]]
    deal_line: int
    trump: "Card | None"
    trump_line: int
    bids: list[tuple[int, int, int]]       # (seat, bid, line) in the order made
    bids_line: int
    tricks: list[list[tuple[int, Card, int]]]   # each trick: (seat, card, line) in play order
    play_line: int
    won: "tuple[list[int], int] | None"
    scores: "tuple[list[int], int] | None"
    totals: "tuple[list[int], int] | None"
    event: dict[str, str]


def _parse_rules(tag: _Tag, sizes: "_Tag | None") -> Rules:
    fields: dict[str, Any] = {}
    if sizes is not None:
        try:
            fields["hand_sizes"] = [int(x) for x in sizes.value.replace(" ", "").split(",")]
        except ValueError:
            raise PBNError(f"OhHellHandSizes must be numbers separated by commas, not {sizes.value!r}",
                           sizes.line) from None
    for part in tag.value.split(";"):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not eq:
            raise PBNError(f"OhHellRules: {part.strip()!r} is not name=value", tag.line)
        if key in fields:
            twice = "in OhHellRules and OhHellHandSizes" if key == "hand_sizes" else "twice"
            raise PBNError(f"OhHellRules: {key} is given {twice}", tag.line)
        if key == "players":
            if not value.isdigit():
                raise PBNError(f"OhHellRules: players must be a number, not {value!r}", tag.line)
            fields[key] = int(value)
        elif key == "hand_sizes":
            try:
                fields[key] = [int(x) for x in value.split(",")]
            except ValueError:
                raise PBNError(f"OhHellRules: hand_sizes must be numbers separated by commas, not {value!r}",
                               tag.line) from None
        elif key in ("schedule", "no_trump"):
            fields[key] = value
        else:
            if value not in _RULE_BOOLS:
                raise PBNError(f"OhHellRules: {key} must be true or false, not {value!r}", tag.line)
            fields[key] = _RULE_BOOLS[value]
    missing = [f for f in Rules().to_dict() if f not in fields]
    if missing:
        if missing[0] == "hand_sizes":
            raise PBNError("the hand sizes are missing: give OhHellHandSizes (e.g. \"1,2,3\")", tag.line)
        raise PBNError(f"OhHellRules: {missing[0]} is missing (the tag lists every rules option)", tag.line)
    try:
        return Rules.from_dict(fields)
    except RulesError as e:
        raise PBNError(f"OhHellRules: {e}", tag.line) from None


def _seat_of(text: str, n: int, what: str, line: int) -> int:
    t = text.strip().upper()
    if n == 4 and len(t) == 1 and t in _COMPASS:
        return _COMPASS.index(t)
    if t.isdigit() and 1 <= int(t) <= n:
        return int(t) - 1
    labels = "N, E, S, W or 1 to 4" if n == 4 else f"1 to {n}"
    raise PBNError(f"{what}: {text!r} is not a seat (seats are {labels})", line)


def _ints(tag: _Tag, n: int) -> tuple[list[int], int]:
    parts = tag.value.split()
    if len(parts) != n or not all(re.fullmatch(r"-?\d+", p) for p in parts):
        raise PBNError(f"{tag.name} must hold {n} whole numbers, one per seat from seat 1, "
                       f"not {tag.value!r}", tag.line)
    return [int(p) for p in parts], tag.line


def _parse_deal(tag: _Tag, n: int, size: int) -> list[list[Card]]:
    first_text, colon, rest = tag.value.partition(":")
    if not colon:
        raise PBNError(f"{tag.name} must be 'SEAT:hand hand ...', not {show(tag.value)}", tag.line)
    first = _seat_of(first_text, n, tag.name, tag.line)
    hands = rest.split()
    if len(hands) != n:
        raise PBNError(f"{tag.name} has {len(hands)} hands for {n} players", tag.line)
    deal: list[list[Card]] = [[] for _ in range(n)]
    for i, text in enumerate(hands):
        seat = (first + i) % n
        if text == "-":
            raise PBNError(f"{tag.name}: seat {_seat(seat, n)}'s hand is unknown ('-'); "
                           f"a game is rebuilt from the whole deal", tag.line)
        suits = text.split(".")
        if len(suits) != 4:
            raise PBNError(f"{tag.name}: seat {_seat(seat, n)}'s hand {text!r} must have 4 suits "
                           f"(spades.hearts.diamonds.clubs)", tag.line)
        for suit, ranks in zip(_PBN_SUITS, suits):
            for r in ranks.upper().replace("10", "T"):
                if r not in RANKS:
                    raise PBNError(f"{tag.name}: {r!r} in seat {_seat(seat, n)}'s hand is not a rank "
                                   f"(ranks are {RANKS})", tag.line)
                deal[seat].append(CARDS[suit * 13 + RANKS.index(r)])
    return deal


def _card_token(token: str, what: str, line: int) -> Card:
    try:
        return parse_card(token)
    except CardError:
        raise PBNError(f"{what}: {token!r} is not a card (PBN writes the suit, then the rank: SK, H3, DT)",
                       line) from None


def _first(tags: dict[str, _Tag], names: Sequence[str], required: "str | None" = None,
           line: "int | None" = None) -> "_Tag | None":
    found = [tags[nm] for nm in names if nm in tags]
    if len(found) > 1:
        raise PBNError(f"both {found[0].name} (line {found[0].line}) and {found[1].name} are given; "
                       f"give one", found[1].line)
    if not found and required:
        raise PBNError(required, line)
    return found[0] if found else None


def _parse_hand(raw: _RawGame, previous: "dict[str, _Tag] | None") -> _Hand:
    tags = dict(raw.tags)
    if previous is not None:     # PBN's tag inheritance: "#" repeats the previous game's value
        for name, tag in list(tags.items()):
            if tag.value == "#" and name in previous:
                tags[name] = _Tag(name, previous[name].value, tag.line, tag.body or previous[name].body)
        raw.tags = tags          # resolved, so the next game's "#" finds the value itself
    version = tags.get("OhHellVersion")
    if version is not None and version.value != str(EXTENSION_VERSION):
        raise PBNError(f"OhHellVersion {version.value!r} is not supported (this reader knows version "
                       f"{EXTENSION_VERSION})", version.line)
    rules_tag = tags.get("OhHellRules")
    if rules_tag is None:
        raise PBNError("no OhHellRules tag: this is not an Oh Hell hand in ohhell's PBN extension "
                       "(docs/formats.md)", raw.line)
    rules = _parse_rules(rules_tag, tags.get("OhHellHandSizes"))
    n = rules.players
    hand_tag = tags.get("OhHellHand")
    if hand_tag is None:
        raise PBNError("the hand has no OhHellHand tag ('K/M': hand K of the game's M)", raw.line)
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", hand_tag.value)
    if not m:
        raise PBNError(f"OhHellHand must be 'K/M' (hand K of M), not {hand_tag.value!r}", hand_tag.line)
    number, count = int(m.group(1)), int(m.group(2))
    if count != rules.hand_count or not 1 <= number <= count:
        raise PBNError(f"OhHellHand {hand_tag.value!r} does not fit the rules' {rules.hand_count} hands",
                       hand_tag.line)
    board = tags.get("Board")
    if board is not None and board.value.strip() not in ("", "?", str(number)):
        raise PBNError(f"Board {board.value!r} disagrees with OhHellHand {hand_tag.value!r}", board.line)
    size = rules.hand_sizes[number - 1]
    cards_tag = tags.get("OhHellCards")
    if cards_tag is not None and cards_tag.value.strip() != str(size):
        raise PBNError(f"OhHellCards is {cards_tag.value!r}, but the rules deal {size} cards in hand {number}",
                       cards_tag.line)
    seed: "int | str | None" = None
    seed_tag = _first(tags, ("OhHellSeed", "OhHellSeedText"))
    if seed_tag is not None:
        if seed_tag.name == "OhHellSeed":
            if not re.fullmatch(r"-?\d{1,60}", seed_tag.value.strip()):
                raise PBNError(f"OhHellSeed must be a whole number (text seeds go in OhHellSeedText), "
                               f"not {show(seed_tag.value)}", seed_tag.line)
            seed = int(seed_tag.value)
        else:
            seed = seed_tag.value
        try:
            dealing.hand_key(seed, 0)
        except (ValueError, UnicodeError) as e:
            raise PBNError(f"unusable seed {show(seed)}: {e}", seed_tag.line) from None
    if n == 4:
        name_tags = [_first(tags, (("North", "East", "South", "West")[s], f"OhHellPlayer{s + 1}"))
                     for s in range(n)]
    else:
        name_tags = [tags.get(f"OhHellPlayer{s + 1}") for s in range(n)]
    names = tuple(t.value if t is not None else f"Seat {s + 1}" for s, t in enumerate(name_tags))
    dealer_tag = _first(tags, ("Dealer", "OhHellDealer"), "the hand has no Dealer (or OhHellDealer) tag", raw.line)
    assert dealer_tag is not None
    dealer = _seat_of(dealer_tag.value, n, dealer_tag.name, dealer_tag.line)
    deal_tag = _first(tags, ("Deal", "OhHellDeal"), "the hand has no Deal (or OhHellDeal) tag", raw.line)
    assert deal_tag is not None
    deal = _parse_deal(deal_tag, n, size)
    trump_tag = tags.get("OhHellTrump")
    if trump_tag is None:
        raise PBNError("the hand has no OhHellTrump tag (the turned card, or 'none')", raw.line)
    trump = None if trump_tag.value.strip().lower() in ("none", "-", "") else \
        _card_token(trump_tag.value.strip(), "OhHellTrump", trump_tag.line)
    first = (dealer + 1) % n
    clockwise = [(first + i) % n for i in range(n)]

    bids: list[tuple[int, int, int]] = []
    bids_tag = tags.get("OhHellBids")
    bids_line = bids_tag.line if bids_tag else raw.line
    if bids_tag is not None:
        start = _seat_of(bids_tag.value, n, "OhHellBids", bids_tag.line)
        if start != first:
            raise PBNError(f"OhHellBids starts at seat {_seat(start, n)}, but seat {_seat(first, n)}, "
                           f"left of the dealer, bids first", bids_tag.line)
        tokens = [(t, ln) for t, ln in bids_tag.body if t != "*"]
        if len(tokens) != n:
            raise PBNError(f"OhHellBids lists {len(tokens)} bids; it lists {n}, one per seat clockwise "
                           f"from seat {_seat(first, n)} ('-' for a seat still to bid)",
                           tokens[-1][1] if tokens else bids_tag.line)
        by_seat: dict[int, tuple[int, int]] = {}
        for seat, (token, line) in zip(clockwise, tokens):
            if token == "-":
                continue
            if not token.isdigit():
                raise PBNError(f"OhHellBids: {token!r} is not a bid (a number of tricks, or '-')", line)
            by_seat[seat] = (int(token), line)
        order = [s for s in clockwise if s in by_seat]
        order_tag = tags.get("OhHellBidOrder")
        if order_tag is not None:
            order = [_seat_of(t, n, "OhHellBidOrder", order_tag.line) for t in order_tag.value.split()]
            if sorted(order) != sorted(by_seat) or len(set(order)) != len(order):
                raise PBNError("OhHellBidOrder must name exactly the seats that have bid, once each",
                               order_tag.line)
        bids = [(s, by_seat[s][0], by_seat[s][1]) for s in order]
    elif tags.get("OhHellBidOrder") is not None:
        raise PBNError("OhHellBidOrder is given without an OhHellBids section", tags["OhHellBidOrder"].line)

    tricks: list[list[tuple[int, Card, int]]] = []
    play_tag = _first(tags, ("Play", "OhHellPlay"))
    play_line = play_tag.line if play_tag else raw.line
    if play_tag is not None:
        start = _seat_of(play_tag.value, n, play_tag.name, play_tag.line)
        columns = [(start + i) % n for i in range(n)]
        body = list(play_tag.body)
        while body and body[-1][0] == "*":
            body.pop()
        if any(t == "*" for t, _ in body):
            raise PBNError(f"{play_tag.name}: '*' ends the play; no card may follow it",
                           next(ln for t, ln in body if t == "*"))
        lines: dict[int, list[tuple[str, int]]] = {}
        for token, line in body:
            lines.setdefault(line, []).append((token, line))
        for row in lines.values():
            if len(row) != n:
                raise PBNError(f"{play_tag.name}: a trick is a line of {n} cards, one per seat in the order "
                               f"{' '.join(_seat(s, n) for s in columns)} ('-' for a card not yet played); "
                               f"this line has {len(row)}", row[0][1])
            cards: dict[int, tuple[Card, int]] = {}
            for seat, (token, line) in zip(columns, row):
                if token != "-":
                    cards[seat] = (_card_token(token, play_tag.name, line), line)
            tricks.append([(s, c, ln) for s, (c, ln) in cards.items()])   # put in play order on replay
    won = _ints(tags["OhHellTricksWon"], n) if "OhHellTricksWon" in tags else None
    scores = _ints(tags["OhHellScores"], n) if "OhHellScores" in tags else None
    totals = _ints(tags["OhHellTotals"], n) if "OhHellTotals" in tags else None
    event = {name: tags[name].value for name in EVENT_TAGS if name in tags}
    return _Hand(raw.line, number, count, rules, rules_tag.line, seed, names, dealer, dealer_tag.line,
                 deal, deal_tag.line, trump, trump_tag.line, bids, bids_line, tricks, play_line,
                 won, scores, totals, event)


# --- reading: games --------------------------------------------------------------------------

@dataclass
class PBNGame:
    """One game read from PBN: the :class:`~ohhell.Game`, and where it came from.

    ``hands`` are the hand numbers (1-based, of the original game) it holds;
    ``whole`` is false for a hand imported alone (a file written with
    ``hand=``, or hands that do not make up a game from its first hand), which
    becomes a game of that one hand under the hand's own rules, so scores
    before it are not in it.  ``line`` is where its first hand starts and
    ``event`` holds PBN's event tags of that hand (``Event``, ``Site``,
    ``Date``, ... : :data:`EVENT_TAGS`), which a :class:`~ohhell.Game` has no
    place for.
    """

    game: Game
    hands: tuple[int, ...]
    whole: bool
    line: int
    event: dict[str, str] = field(default_factory=dict)


def _why(error: IllegalActionError, n: int) -> str:
    """The core's reason for a refused action, worded with the file's seat labels."""
    return explain_illegal(error, [f"seat {_seat(s, n)}" for s in range(n)])


def _replay(game: Game, hand: _Hand, k: int) -> None:
    """Apply one hand's bids and plays to ``game`` (at hand ``k``, 0-based), checking every tag."""
    n = game.players
    if game.hand_index != k or game.phase == OVER:
        raise PBNError(f"hand {hand.number} cannot start: the hand before it is unfinished", hand.line)
    if game.dealer != hand.dealer:
        raise PBNError(f"the dealer is seat {_seat(hand.dealer, n)}, but the deal passes left to seat "
                       f"{_seat(game.dealer, n)}", hand.dealer_line)
    for seat, bid, line in hand.bids:
        if bid > game.hand_size:
            raise PBNError(f"hand {hand.number}: seat {_seat(seat, n)} bids {bid}, but bids are 0 to "
                           f"{game.hand_size}, the cards each seat holds", line)
        try:
            game.apply(BIDS[bid], seat=seat)
        except IllegalActionError as e:
            raise PBNError(f"hand {hand.number}: seat {_seat(seat, n)} may not bid {bid}: {_why(e, n)}",
                           line) from None
    if hand.tricks and game.phase != PLAY:
        raise PBNError(f"hand {hand.number}: cards are played, but not every seat has bid", hand.play_line)
    for i, trick in enumerate(hand.tricks):
        if game.hand_index != k or game.phase != PLAY:
            raise PBNError(f"hand {hand.number} has {len(hand.deal[0])} tricks, but the play section has "
                           f"more", trick[0][2] if trick else hand.play_line)
        leader = game.to_act
        cards = {s: (c, ln) for s, c, ln in trick}
        played = 0
        for j in range(n):
            seat = (leader + j) % n
            if seat not in cards:
                break
            card, line = cards.pop(seat)
            try:
                game.apply(PLAYS[card], seat=seat)
            except IllegalActionError as e:
                raise PBNError(f"hand {hand.number}, trick {i + 1}: seat {_seat(seat, n)} may not play "
                               f"{_card(card)}: {_why(e, n)}", line) from None
            played += 1
        if cards:
            seat, (card, line) = next(iter(cards.items()))
            raise PBNError(f"hand {hand.number}, trick {i + 1}: seat {_seat(seat, n)} plays {card}, but seat "
                           f"{_seat((leader + played) % n, n)}, who plays before, has no card in this trick",
                           line)
        if played < n and i != len(hand.tricks) - 1:
            raise PBNError(f"hand {hand.number}, trick {i + 1} is unfinished, but a later trick follows",
                           trick[0][2] if trick else hand.play_line)
    finished = len(game.past_hands) > k
    actual_won = game.past_hands[k].tricks_won if finished else game.tricks_won
    if hand.won is not None and tuple(hand.won[0]) != tuple(actual_won):
        raise PBNError(f"hand {hand.number}: OhHellTricksWon is {hand.won[0]}, but the tricks give "
                       f"{list(actual_won)}", hand.won[1])
    if finished:
        if hand.scores is not None and tuple(hand.scores[0]) != game.past_hands[k].scores:
            raise PBNError(f"hand {hand.number}: OhHellScores are {hand.scores[0]}, but the rules score "
                           f"the hand {list(game.past_hands[k].scores)}", hand.scores[1])
    elif hand.scores is not None:
        raise PBNError(f"hand {hand.number}: OhHellScores are given, but the hand is unfinished", hand.scores[1])


def _hand_rules(rules: Rules, k: int) -> Rules:
    """The rules of hand ``k`` played as a game of its own (its size; its trump or none)."""
    return rules.replace(schedule="custom", hand_sizes=[rules.hand_sizes[k]],
                         no_trump="never" if rules.has_trump(k) else "last")


def _build(run: list[_Hand], whole: bool) -> Game:
    h0 = run[0]
    if whole:
        rules, seed = h0.rules, h0.seed
    else:
        rules, seed = _hand_rules(h0.rules, h0.number - 1), None
    given = {}
    for i, h in enumerate(run):
        k = h.number - 1 if whole else 0
        try:
            masks, t = check_deal(rules, k, h.deal, None if h.trump is None else int(h.trump))
        except (RulesError, CardError) as e:
            line = h.trump_line if "trump" in str(e) else h.deal_line
            raise PBNError(f"hand {h.number}: {e}", line) from None
        if h.seed is not None:
            want, want_t = dealing.deal_from_key(dealing.hand_key(h.seed, h.number - 1), rules.players,
                                                 h.rules.hand_sizes[h.number - 1], h.dealer,
                                                 h.rules.has_trump(h.number - 1))
            if list(masks) != want or (-1 if t is None else t) != want_t:
                raise PBNError(f"hand {h.number}: the deal is not the one seed {show(h.seed)} deals for "
                               f"this hand", h.deal_line)
        given[k] = (masks, t)
    try:
        game = Game.from_deals(rules, given, seed=seed, dealer=h0.dealer, names=h0.names)
    except RulesError as e:    # pragma: no cover - every part was checked above
        raise PBNError(str(e), h0.line) from None
    for i, h in enumerate(run):
        _replay(game, h, h.number - 1 if whole else 0)
    if whole:
        last = run[-1]
        if not game.is_over and len(game.past_hands) == len(run):
            raise PBNError(f"the game is not over, but it ends with hand {last.number} finished: hand "
                           f"{last.number + 1}, dealt when the file was written, is missing", last.line)
        if last.totals is not None and tuple(last.totals[0]) != game.totals:
            raise PBNError(f"OhHellTotals are {last.totals[0]}, but the hands add up to {list(game.totals)}",
                           last.totals[1])
        for h in run[:-1]:
            if h.totals is not None:
                want = [sum(game.past_hands[j].scores[s] for j in range(h.number)) for s in range(game.players)]
                if h.totals[0] != want:
                    raise PBNError(f"hand {h.number}: OhHellTotals are {h.totals[0]}, but the hands so far add "
                                   f"up to {want}", h.totals[1])
    return game


def _same_game(a: _Hand, b: _Hand) -> "str | None":
    if a.rules != b.rules:
        return "OhHellRules"
    if a.seed != b.seed:
        return "OhHellSeed"
    if a.names != b.names:
        return "the players' names"
    return None


def parse(text: "str | bytes") -> list[PBNGame]:
    """Every game in PBN text (usually one).

    Hands numbered 1, 2, ... K make up one game when K is the last hand of the
    rules or hand K is unfinished (what :func:`dumps` writes); any other hand
    (``dumps(..., hand=N)``, or a selection) becomes a game of its own.  A
    hand numbered 1 starts a new game.

    :raises PBNError: naming the line of the first problem.
    """
    if isinstance(text, bytes):
        data = text
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")   # PBN 2.0 files are ISO 8859-1
    text = text.lstrip("\ufeff")
    hands: list[_Hand] = []
    previous: "dict[str, _Tag] | None" = None
    for raw in _raw_games(text):
        hands.append(_parse_hand(raw, previous))
        previous = raw.tags
    if not hands:
        raise PBNError("no game found: a PBN game is a set of tags such as [Deal \"...\"]")
    runs: list[list[_Hand]] = []
    for h in hands:
        if runs and h.number == runs[-1][-1].number + 1 and runs[-1][0].number == 1:
            diff = _same_game(runs[-1][0], h)
            if diff:
                raise PBNError(f"hand {h.number} follows hand {h.number - 1} but its {diff} differ from "
                               f"hand 1's (line {runs[-1][0].line})", h.line)
            runs[-1].append(h)
        else:
            runs.append([h])
    out: list[PBNGame] = []
    for run in runs:
        last = run[-1]
        finished_last = len(last.tricks) == last.rules.hand_sizes[last.number - 1] and \
            all(len(t) == last.rules.players for t in last.tricks)
        whole = run[0].number == 1 and (last.number == last.count or not finished_last)
        if whole:
            out.append(PBNGame(_build(run, True), tuple(h.number for h in run), True, run[0].line, run[0].event))
        else:
            for h in run:
                out.append(PBNGame(_build([h], False), (h.number,), False, h.line, h.event))
    return out


def loads(text: "str | bytes") -> Game:
    """The one game in PBN text.

    :raises PBNError: for malformed text (with the line), a game that does not
        replay, or a file holding more than one game.
    """
    games = parse(text)
    if len(games) > 1:
        raise PBNError(f"the file holds {len(games)} games (starting on lines "
                       f"{', '.join(str(g.line) for g in games)}); use ohhell.pbn.parse")
    return games[0].game


def read(path: "str | os.PathLike") -> list[PBNGame]:
    """:func:`parse` a PBN file (UTF-8, or ISO 8859-1 as PBN 2.0 wrote it).

    :raises OSError: when it cannot be read; :raises PBNError: as :func:`parse`.
    """
    with open(path, "rb") as f:
        data = f.read()
    return parse(data)
