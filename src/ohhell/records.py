"""Game records (docs/interfaces.md §1): dump, load with full verification, JSON Lines.

A record is the whole truth about a game: rules, deals and every action.
Loading one replays it through the rules, so a record with an illegal action
or a field that disagrees with the replay is rejected with a
:class:`~ohhell.errors.RecordError` that names the hand and the trick.

>>> import ohhell
>>> g = ohhell.Game(ohhell.Rules(3, hand_sizes=[1]), seed=5)
>>> while not g.is_over: g.apply(g.legal_actions()[0])
>>> rec = g.record()
>>> ohhell.Game.from_record(rec).record() == rec
True
"""

from __future__ import annotations

import io
import json
import os
from typing import IO, Any, Iterable, Iterator

from . import dealing
from .actions import BIDS, PLAYS
from .cards import CARDS, mask_to_cards, parse_card
from .errors import CardError, IllegalActionError, OhHellError, RecordError, RulesError, show
from .game import Game, check_deal
from .state import OVER, PLAY
from .rules import Rules

__all__ = ["FORMAT", "VERSION", "game_to_record", "game_from_record", "dumps", "loads",
           "write_records", "read_records", "parse_record"]

FORMAT = "ohhell.record"
VERSION = 1


def _cards(mask: int) -> list[str]:
    return [str(c) for c in mask_to_cards(mask)]


def _trick(t, n: int) -> dict:
    d: dict[str, Any] = {"leader": t.leader, "cards": [str(CARDS[c]) for c in t.cards]}
    if t.winner is not None:
        d["winner"] = t.winner
    return d


def game_to_record(game: Game) -> dict:
    """The record of a game, as a dict ready for ``json.dumps``."""
    n = game.players
    hands = []
    for hr in game.past_hands:
        hands.append({
            "dealer": hr.dealer,
            "deal": [_cards(m) for m in hr.deal],
            "trump_card": None if hr.trump_card is None else str(hr.trump_card),
            "bids": list(hr.bids),
            "tricks": [_trick(t, n) for t in hr.tricks],
            "tricks_won": list(hr.tricks_won),
            "scores": list(hr.scores),
        })
    if game.phase != OVER:
        tricks = [_trick(t, n) for t in game.tricks]
        current = game.current_trick
        if current.cards:
            tricks.append({"leader": current.leader, "cards": [str(c) for c in current.cards]})
        tc = game.turned_card
        hands.append({
            "dealer": game.dealer,
            "deal": [_cards(m) for m in game.deal],
            "trump_card": None if tc is None else str(tc),
            "bids": list(game.bids),
            "tricks": tricks,
            "tricks_won": list(game.tricks_won),
        })
    rec: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "players": list(game.names),
    }
    if game.seed is not None:
        rec["seed"] = game.seed
    rec["hands"] = hands
    if game.past_hands:
        rec["totals"] = list(game.totals)
    if game.phase == OVER:
        rec["winners"] = game.winners
    return rec


# --- loading ---------------------------------------------------------------------------------

def _need(obj: dict, key: str, what: str, *, hand: int | None = None, trick: int | None = None):
    if key not in obj:
        raise RecordError(f"missing field {key!r} in {what}", hand=hand, trick=trick)
    return obj[key]


def _seat_list(value: Any, n: int, field: str, hand: int, *, allow_none: bool = False) -> list:
    if not isinstance(value, list) or len(value) != n:
        raise RecordError(f"{field} must be a list of {n} numbers, one per seat, not {show(value)}", hand=hand)
    for x in value:
        if x is None and allow_none:
            continue
        if isinstance(x, bool) or not isinstance(x, int):
            raise RecordError(f"{field} must hold whole numbers, not {show(x)}", hand=hand)
    return value


def _ints(value: Any) -> bool:
    return isinstance(value, list) and all(type(x) is int for x in value)


def parse_record(data: "dict | str | bytes") -> dict:
    """Decode a record's JSON text (a dict is returned as it is).

    :raises RecordError: for text that is not JSON or not a JSON object.
    """
    if isinstance(data, (str, bytes, bytearray)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as e:
            raise RecordError(f"bad JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
        except UnicodeDecodeError as e:
            raise RecordError(f"bad JSON: not UTF-8 text ({e.reason})") from None
        except RecursionError:
            raise RecordError("bad JSON: nested too deeply") from None
        except ValueError as e:      # e.g. a number with more digits than Python converts
            raise RecordError(f"bad JSON: {e}") from None
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, not {type(data).__name__}")
    return data


def game_from_record(record: "dict | str | bytes") -> Game:
    """Replay and verify a record; return the game in the state it describes.

    :raises RecordError: naming the hand and trick of the first problem.
    """
    rec = parse_record(record)
    fmt = _need(rec, "format", "the record")
    if fmt != FORMAT:
        raise RecordError(f"format is {show(fmt)}, not {FORMAT!r}")
    version = _need(rec, "version", "the record")
    if type(version) is not int or version != VERSION:
        raise RecordError(f"version {show(version)} is not supported (this reader knows version {VERSION})")
    rules_data = _need(rec, "rules", "the record")
    if isinstance(rules_data, dict):
        missing = [f for f in Rules().to_dict() if rules_data.get(f) is None]
        if missing:
            raise RecordError(f"rules: missing field {missing[0]!r} (a record lists every rules field)")
    try:
        rules = Rules.from_dict(rules_data)
    except RulesError as e:
        raise RecordError(f"rules: {e}") from None
    n = rules.players
    names = _need(rec, "players", "the record")
    if not isinstance(names, list) or len(names) != n or not all(isinstance(x, str) for x in names):
        raise RecordError(f"players must be a list of {n} names")
    seed = rec.get("seed")
    if seed is not None:
        if seed.__class__ is not int and seed.__class__ is not str:
            raise RecordError(f"seed must be a number or a string, not {show(seed)}")
        try:
            dealing.hand_key(seed, 0)
        except (ValueError, UnicodeError) as e:
            raise RecordError(f"unusable seed {show(seed)}: {e}") from None
    hands = _need(rec, "hands", "the record")
    if not isinstance(hands, list) or not hands:
        raise RecordError("hands must be a non-empty list")
    if len(hands) > rules.hand_count:
        raise RecordError(f"the record has {len(hands)} hands; the rules' schedule has {rules.hand_count}")

    # Deals first: validate each one and check it against the seed.
    given: dict[int, tuple[tuple[int, ...], "str | None"]] = {}
    dealers: list[int] = []
    for k, h in enumerate(hands):
        if not isinstance(h, dict):
            raise RecordError("a hand is a JSON object", hand=k + 1)
        dealer = _need(h, "dealer", "the hand", hand=k + 1)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise RecordError(f"dealer must be a seat from 0 to {n - 1}, not {show(dealer)}", hand=k + 1)
        if k and dealer != (dealers[-1] + 1) % n:
            raise RecordError(f"dealer is seat {dealer}, but the deal passes left to seat "
                              f"{(dealers[-1] + 1) % n}", hand=k + 1)
        dealers.append(dealer)
        deal = _need(h, "deal", "the hand", hand=k + 1)
        trump = _need(h, "trump_card", "the hand", hand=k + 1)
        if not isinstance(deal, list) or not all(isinstance(x, list) for x in deal):
            raise RecordError("deal must be a list of card lists, one per seat", hand=k + 1)
        for cards in deal:
            for c in cards:
                if not isinstance(c, str):
                    raise RecordError(f"deal: not a card: {show(c)} (cards are written as text, e.g. 'QS')",
                                      hand=k + 1)
        if trump is not None and not isinstance(trump, str):
            raise RecordError(f"trump_card must be a card name or null, not {show(trump)}", hand=k + 1)
        try:
            masks, t = check_deal(rules, k, deal, trump)
        except (RulesError, CardError) as e:
            raise RecordError(f"deal: {e}", hand=k + 1) from None
        if seed is not None:
            want, want_t = dealing.deal_from_key(dealing.hand_key(seed, k), n, rules.hand_sizes[k],
                                                 dealer, rules.has_trump(k))
            if list(masks) != want or (-1 if t is None else t) != want_t:
                raise RecordError(f"the deal is not the one seed {show(seed)} deals for this hand", hand=k + 1)
        given[k] = (masks, trump)

    _check_commitments(rec, seed, len(hands))
    game = Game.from_deals(rules, given, seed=seed, dealer=dealers[0], names=names)
    last = len(hands) - 1
    for k, h in enumerate(hands):
        hand_no = k + 1
        if game.hand_index != k:
            raise RecordError("the previous hand is unfinished, so this hand cannot have started",
                              hand=hand_no)
        _replay_bids(game, h, hand_no, n, final=k < last)
        _replay_tricks(game, h, hand_no, n, final=k < last)
        past = game.past_hands
        finished = len(past) > k
        won = _seat_list(_need(h, "tricks_won", "the hand", hand=hand_no), n, "tricks_won", hand_no)
        actual = past[k].tricks_won if finished else game.tricks_won
        if tuple(won) != tuple(actual):
            raise RecordError(f"tricks_won is {show(won)}, but the tricks give {list(actual)}", hand=hand_no)
        if finished:
            scores = _seat_list(_need(h, "scores", "the finished hand", hand=hand_no), n, "scores", hand_no)
            if tuple(scores) != past[k].scores:
                raise RecordError(f"scores are {show(scores)}, but the rules score this hand "
                                  f"{list(past[k].scores)}", hand=hand_no)
        elif h.get("scores") is not None:
            raise RecordError("scores are given for a hand that is not finished", hand=hand_no)
    if not game.is_over and len(game.past_hands) == len(hands):
        raise RecordError(f"the game is not over, but the record ends with hand {len(hands)} finished: "
                          f"hand {len(hands) + 1}, dealt when it ended, is missing")
    if game.past_hands:
        totals = _need(rec, "totals", "the record")
        if not _ints(totals) or totals != list(game.totals):
            raise RecordError(f"totals are {show(totals)}, but the hands add up to {list(game.totals)}")
    elif rec.get("totals") not in (None, [0] * n):
        raise RecordError("totals are given, but no hand has been scored")
    if game.phase == OVER:
        winners = _need(rec, "winners", "the finished game's record")
        if not _ints(winners) or winners != game.winners:
            raise RecordError(f"winners are {show(winners)}, but the highest total belongs to {game.winners}")
    elif rec.get("winners") is not None:
        raise RecordError("winners are given, but the game is not over")
    return game


def _check_commitments(rec: dict, seed, hand_count: int) -> None:
    """Check the fair-shuffle proof, when the record carries one.

    ``commitments[k]`` is the hex SHA-256 of hand ``k``'s key, published before
    the hand was dealt (see :mod:`ohhell.dealing`); once ``seed`` is revealed
    every commitment must match it.
    """
    commits = rec.get("commitments")
    if commits is None:
        return
    if not isinstance(commits, list) or not all(isinstance(c, str) and len(c) == 64 and c.isascii()
                                                and all(x in "0123456789abcdefABCDEF" for x in c)
                                                for c in commits):
        raise RecordError("commitments must be a list of hex SHA-256 digests (64 hex digits), one per hand")
    if len(commits) < hand_count:
        raise RecordError(f"{len(commits)} commitments for {hand_count} hands")
    if seed is None:
        return
    for k, c in enumerate(commits[:hand_count]):
        if not dealing.verify_commitment(dealing.hand_key(seed, k), c):
            raise RecordError(f"the deal was not the one committed to before the hand "
                              f"(commitment {c[:12]}... does not match seed {show(seed)})", hand=k + 1)


def _replay_bids(game: Game, h: dict, hand_no: int, n: int, final: bool) -> None:
    bids = _seat_list(_need(h, "bids", "the hand", hand=hand_no), n, "bids", hand_no, allow_none=True)
    order = [(game.dealer + 1 + i) % n for i in range(n)]
    missing = [s for s in order if bids[s] is None]
    if final and missing:
        raise RecordError(f"seat {missing[0]} has no bid, but the hand was played", hand=hand_no)
    if not game.rules.simultaneous_bidding and missing:
        first_gap = order.index(missing[0])
        late = [s for s in order[first_gap:] if bids[s] is not None]
        if late:
            raise RecordError(f"seat {late[0]} has a bid, but seat {missing[0]}, who bids before, has none",
                              hand=hand_no)
    for s in order:
        b = bids[s]
        if b is None:
            continue
        if b < 0 or b > 52:
            raise RecordError(f"seat {s} bids {show(b)}; bids are 0 to {game.hand_size}", hand=hand_no)
        try:
            game.apply(BIDS[b], seat=s)
        except IllegalActionError as e:
            raise RecordError(str(e), hand=hand_no) from None


def _replay_tricks(game: Game, h: dict, hand_no: int, n: int, final: bool) -> None:
    tricks = _need(h, "tricks", "the hand", hand=hand_no)
    if not isinstance(tricks, list):
        raise RecordError("tricks must be a list", hand=hand_no)
    if tricks and game.phase != PLAY:
        raise RecordError("tricks are played, but not every seat has bid", hand=hand_no)
    if len(tricks) > game.hand_size:
        raise RecordError(f"{len(tricks)} tricks in a hand of {game.hand_size}", hand=hand_no)
    if final and len(tricks) != game.hand_size:
        raise RecordError(f"only {len(tricks)} of {game.hand_size} tricks, but a later hand follows",
                          hand=hand_no)
    for i, t in enumerate(tricks):
        tn = i + 1
        if not isinstance(t, dict):
            raise RecordError("a trick is a JSON object", hand=hand_no, trick=tn)
        leader = _need(t, "leader", "the trick", hand=hand_no, trick=tn)
        cards = _need(t, "cards", "the trick", hand=hand_no, trick=tn)
        if not isinstance(cards, list) or not 1 <= len(cards) <= n:
            raise RecordError(f"cards must be a list of 1 to {n} cards", hand=hand_no, trick=tn)
        if type(leader) is not int or leader != game.to_act:
            raise RecordError(f"leader is {show(leader)}, but seat {game.to_act} leads this trick",
                              hand=hand_no, trick=tn)
        complete = len(cards) == n
        if not complete and (i != len(tricks) - 1 or final):
            raise RecordError(f"the trick has {len(cards)} cards; a finished trick has {n}",
                              hand=hand_no, trick=tn)
        for j, name in enumerate(cards):
            try:
                if not isinstance(name, str):
                    raise CardError(f"not a card: {show(name)} (cards are written as text, e.g. 'QS')")
                card = parse_card(name)
            except CardError as e:
                raise RecordError(f"card {j + 1}: {e}", hand=hand_no, trick=tn) from None
            try:
                game.apply(PLAYS[card])
            except IllegalActionError as e:
                raise RecordError(str(e), hand=hand_no, trick=tn) from None
        if complete:
            past = game.past_hands
            done = past[hand_no - 1].tricks[i] if len(past) >= hand_no else game.tricks[i]
            winner = _need(t, "winner", "the finished trick", hand=hand_no, trick=tn)
            if type(winner) is not int or winner != done.winner:
                raise RecordError(f"winner is {show(winner)}, but seat {done.winner} wins this trick",
                                  hand=hand_no, trick=tn)
        elif t.get("winner") is not None:
            raise RecordError("an unfinished trick has no winner yet", hand=hand_no, trick=tn)


# --- text and files --------------------------------------------------------------------------

def dumps(record: "dict | Game", *, indent: "int | None" = None) -> str:
    """A record as JSON text (one line unless ``indent`` is given)."""
    if isinstance(record, Game):
        record = record.record()
    return json.dumps(record, indent=indent, ensure_ascii=False)


def loads(text: "str | bytes") -> Game:
    """Load and verify a record from JSON text.

    :raises RecordError: on bad JSON or a record that does not replay.
    """
    return game_from_record(text)


def write_records(dest: "str | os.PathLike | IO[str]", records: Iterable["dict | Game"]) -> int:
    """Write records as JSON Lines (one per line); returns how many were written."""
    if isinstance(dest, (str, os.PathLike)):
        with open(dest, "w", encoding="utf-8") as f:
            return write_records(f, records)
    count = 0
    for r in records:
        dest.write(dumps(r) + "\n")
        count += 1
    dest.flush()
    return count


def read_records(src: "str | os.PathLike | IO[str]", *, verify: bool = True) -> Iterator["Game | dict"]:
    """Read JSON Lines records; yields verified games (or the dicts with ``verify=False``).

    A plain JSON file holding one record is read too.

    :raises RecordError: naming the line (and hand, trick) of a bad record.
    """
    if isinstance(src, (str, os.PathLike)):
        with open(src, encoding="utf-8") as f:
            yield from read_records(f, verify=verify)
        return
    text = src.read()
    stripped = text.lstrip()
    if stripped.startswith("{") and "\n{" not in stripped.rstrip():
        lines = [(1, stripped)]
    else:
        lines = [(i + 1, line) for i, line in enumerate(io.StringIO(text)) if line.strip()]
    for lineno, line in lines:
        try:
            yield game_from_record(line) if verify else parse_record(line)
        except RecordError as e:
            raise RecordError(f"line {lineno}: {e}") from None
        except OhHellError as e:  # pragma: no cover - every load error is a RecordError
            raise RecordError(f"line {lineno}: {e}") from None
