"""The rules of a game: one frozen, validated object; variants are data.

>>> r = Rules(players=5, schedule="up-down", hook=True)
>>> r.hand_sizes[:4], len(r.hand_sizes), r.max_hand_size
((1, 2, 3, 4), 19, 10)
>>> Rules.preset("la-podrida", players=4).must_trump
True
>>> Rules(players=8)
Traceback (most recent call last):
ohhell.errors.RulesError: players must be 3 to 7, not 8
"""

from __future__ import annotations

import difflib
from typing import Any, Iterable, Mapping

from .errors import RulesError, show

__all__ = ["Rules", "PRESETS", "MAX_HAND_SIZE", "SCHEDULES", "NO_TRUMP_OPTIONS", "FLAGS", "schedule_sizes"]

#: M, the number of hands of the standard game and the most cards per player (docs/rules.md §2).
MAX_HAND_SIZE = {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}
SCHEDULES = ("up", "down", "up-down", "down-up", "custom")
NO_TRUMP_OPTIONS = ("last", "largest", "never")

_FIELDS = ("players", "schedule", "hand_sizes", "no_trump", "hook", "simultaneous_bidding",
           "must_trump", "missed_bid_scores_tricks", "zero_bid_scores_hand_size")
#: The rules fields that are on/off switches (the CLI's flags, the OpenSpiel bridge's booleans).
FLAGS = ("hook", "simultaneous_bidding", "must_trump", "missed_bid_scores_tricks",
         "zero_bid_scores_hand_size")


def schedule_sizes(schedule: str, players: int) -> tuple[int, ...]:
    """The hand sizes of a named schedule for a number of players.

    :raises RulesError: for ``custom`` or an unknown name.
    """
    m = MAX_HAND_SIZE[players]
    up = tuple(range(1, m + 1))
    if schedule == "up":
        return up
    if schedule == "down":
        return up[::-1]
    if schedule == "up-down":
        return up + up[-2::-1]
    if schedule == "down-up":
        return up[::-1] + up[1:]
    if schedule == "custom":
        raise RulesError("schedule 'custom' needs hand_sizes, e.g. hand_sizes=[1, 2, 3]")
    raise RulesError(f"unknown schedule {show(schedule)}; choose one of {', '.join(SCHEDULES)}")


class Rules:
    """One configuration of the rules (docs/rules.md), validated when it is built.

    Keyword names are those of the record's ``rules`` object (docs/interfaces.md);
    the defaults are the seed's base game (``standard``).

    * ``players``: 3 to 7.
    * ``schedule``: ``up`` (1..M), ``down``, ``up-down``, ``down-up`` or
      ``custom``; giving ``hand_sizes`` alone implies ``custom`` unless the
      sizes are those of a named schedule.
    * ``hand_sizes``: the number of cards dealt to each player, hand by hand.
    * ``no_trump``: which hands have no trump card turned: ``last`` (the last
      hand of the game), ``largest`` (every hand of the schedule's largest size)
      or ``never``.  A hand that uses the whole deck never has a trump.
    * ``hook``: the dealer may not bid so that the bids total the tricks.
    * ``simultaneous_bidding``: all bids are chosen unseen and revealed together.
    * ``must_trump``: a player who cannot follow suit must trump if able.
    * ``missed_bid_scores_tricks``: a missed bid scores 1 per trick won.
    * ``zero_bid_scores_hand_size``: a made bid of 0 scores 5 + the hand size.

    :raises RulesError: for a configuration that makes no sense (with why).
    """

    __slots__ = _FIELDS + ("_key", "_trumps")

    players: int
    schedule: str
    hand_sizes: tuple[int, ...]
    no_trump: str
    hook: bool
    simultaneous_bidding: bool
    must_trump: bool
    missed_bid_scores_tricks: bool
    zero_bid_scores_hand_size: bool
    _trumps: tuple[bool, ...]      # has_trump(k) for each hand, computed once
    _key: tuple[Any, ...]          # the value compared and hashed

    def __init__(self, players: int = 4, *, schedule: str | None = None,
                 hand_sizes: Iterable[int] | None = None, no_trump: str = "last",
                 hook: bool = False, simultaneous_bidding: bool = False, must_trump: bool = False,
                 missed_bid_scores_tricks: bool = False, zero_bid_scores_hand_size: bool = False,
                 **unknown: Any) -> None:
        if unknown:
            raise RulesError("; ".join(_unknown_message(k) for k in unknown))
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(f"players must be a whole number from 3 to 7, not {show(players)}")
        if not 3 <= players <= 7:
            raise RulesError(f"players must be 3 to 7, not {show(players)}", code="players",
                             facts={"players": players})
        if schedule is not None and schedule not in SCHEDULES:
            raise RulesError(f"unknown schedule {show(schedule)}; choose one of {', '.join(SCHEDULES)}")
        if hand_sizes is None:
            sizes = schedule_sizes(schedule or "up", players)
            schedule = schedule or "up"
        else:
            if isinstance(hand_sizes, (str, bytes)):
                raise RulesError(f"hand_sizes must be a list of whole numbers, not {show(hand_sizes)}")
            try:
                sizes = tuple(hand_sizes)
            except TypeError:
                raise RulesError(f"hand_sizes must be a list of whole numbers, not {show(hand_sizes)}") from None
            if not sizes:
                raise RulesError("hand_sizes is empty: a game needs at least one hand", code="no_hand_sizes")
            for h in sizes:
                if isinstance(h, bool) or not isinstance(h, int):
                    raise RulesError(f"hand_sizes must hold whole numbers, not {show(h)}")
                if h < 1:
                    raise RulesError(f"hand size {show(h)} is impossible: every player needs at least one card",
                                     code="hand_size_too_small", facts={"size": h})
                if h * players > 52:
                    if h > 52:
                        raise RulesError(f"hand size {show(h)} is larger than the deck", code="hand_size_too_large",
                                         facts={"size": h, "players": players, "most": 52 // players})
                    raise RulesError(f"hand size {h} with {players} players needs {h * players} cards; "
                                     f"the deck has 52 (at most {52 // players} cards each)",
                                     code="hand_size_too_large", facts={"size": h, "players": players,
                                                                        "most": 52 // players})
            if schedule is None:
                schedule = next((s for s in SCHEDULES[:-1] if schedule_sizes(s, players) == sizes), "custom")
            elif schedule != "custom" and schedule_sizes(schedule, players) != sizes:
                raise RulesError(f"hand_sizes {list(sizes)} do not match schedule {show(schedule)} for "
                                 f"{players} players ({list(schedule_sizes(schedule, players))}); "
                                 f"use schedule='custom'")
        if no_trump not in NO_TRUMP_OPTIONS:
            raise RulesError(f"unknown no_trump option {show(no_trump)}; choose one of {', '.join(NO_TRUMP_OPTIONS)}")
        flags = dict(hook=hook, simultaneous_bidding=simultaneous_bidding, must_trump=must_trump,
                     missed_bid_scores_tricks=missed_bid_scores_tricks,
                     zero_bid_scores_hand_size=zero_bid_scores_hand_size)
        for name, value in flags.items():
            if not isinstance(value, bool):
                raise RulesError(f"{name} must be true or false, not {show(value)}")
        if hook and simultaneous_bidding:
            raise RulesError("the hook cannot be combined with simultaneous bidding: "
                             "with simultaneous bids there is no last bidder for the hook to restrict",
                             code="hook_simultaneous")
        setattr_ = object.__setattr__
        setattr_(self, "players", players)
        setattr_(self, "schedule", schedule)
        setattr_(self, "hand_sizes", sizes)
        setattr_(self, "no_trump", no_trump)
        for name, value in flags.items():
            setattr_(self, name, value)
        setattr_(self, "_key", tuple(getattr(self, f) for f in _FIELDS))
        setattr_(self, "_trumps", tuple(self._compute_has_trump(k) for k in range(len(sizes))))

    # --- construction helpers -------------------------------------------------------------

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> "Rules":
        """The rules of a named preset (see :data:`PRESETS`), with fields overridden.

        ``openspiel`` also takes ``tricks`` (default 5): the size of its one hand.

        :raises RulesError: for an unknown preset or a bad override.
        """
        try:
            base = PRESETS[name]
        except KeyError:
            raise RulesError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}") from None
        fields = dict(base)
        if name == "openspiel":
            tricks = overrides.pop("tricks", 5)
            fields["hand_sizes"] = [tricks]
        if "players" in overrides and "hand_sizes" not in overrides and name != "openspiel":
            fields.pop("hand_sizes", None)
        fields.update(overrides)
        return cls(**fields)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Rules":
        """Rules from a record's ``rules`` object; ``hand_sizes`` is authoritative.

        :raises RulesError: on an unknown field or a bad value.
        """
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be an object, not {type(data).__name__}")
        for key in data:
            if not isinstance(key, str):
                raise RulesError(f"rules option names are text, not {show(key)}")
        return cls(**dict(data))

    def to_dict(self) -> dict[str, Any]:
        """Every field, explicitly, as in a record's ``rules`` object."""
        d = {f: getattr(self, f) for f in _FIELDS}
        d["hand_sizes"] = list(self.hand_sizes)
        return d

    def replace(self, **changes: Any) -> "Rules":
        """A copy with some fields changed (``hand_sizes`` follows a new ``schedule``/``players``)."""
        d = self.to_dict()
        if ("schedule" in changes or "players" in changes) and "hand_sizes" not in changes:
            if changes.get("schedule", self.schedule) != "custom":
                d.pop("hand_sizes")
        if "hand_sizes" in changes and "schedule" not in changes:
            d.pop("schedule")   # inferred again from the new sizes
        d.update(changes)
        return Rules(**d)

    # --- derived facts --------------------------------------------------------------------

    @property
    def max_hand_size(self) -> int:
        """M for the number of players (docs/rules.md §2)."""
        return MAX_HAND_SIZE[self.players]

    @property
    def hand_count(self) -> int:
        """The number of hands in the game."""
        return len(self.hand_sizes)

    def has_trump(self, hand_index: int) -> bool:
        """Whether a card is turned for trump in hand ``hand_index`` (0-based)."""
        return self._trumps[hand_index]

    def hand_alone(self, hand_index: int) -> "Rules":
        """The rules of hand ``hand_index`` played as a game of its own: one hand of its size,
        with a card turned for trump exactly when that hand has one, every other rule the same
        (how a search or an environment replays one hand of a longer game)."""
        return self.replace(schedule="custom", hand_sizes=[self.hand_sizes[hand_index]],
                            no_trump="never" if self.has_trump(hand_index) else "last")

    def _compute_has_trump(self, hand_index: int) -> bool:
        size = self.hand_sizes[hand_index]
        if size * self.players >= 52:
            return False
        if self.no_trump == "last":
            return hand_index != len(self.hand_sizes) - 1
        if self.no_trump == "largest":
            return size != max(self.hand_sizes)
        return True

    def preset_name(self) -> str | None:
        """The name of the preset these rules equal, if any."""
        for name in PRESETS:
            try:
                if name == "openspiel":
                    if len(self.hand_sizes) == 1 and \
                            Rules.preset(name, players=self.players, tricks=self.hand_sizes[0]) == self:
                        return name
                elif Rules.preset(name, players=self.players) == self:
                    return name
            except RulesError:
                continue
        return None

    def describe(self) -> str:
        """One line for people: players, schedule and the variants that are on."""
        on = [f.replace("_", " ") for f in FLAGS if getattr(self, f)]
        sizes = ",".join(map(str, self.hand_sizes))
        text = f"{self.players} players, {self.schedule} ({sizes}), no trump: {self.no_trump}"
        return text + ("; " + ", ".join(on) if on else "")

    # --- value semantics ------------------------------------------------------------------

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Rules are frozen; use rules.replace(...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Rules are frozen")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __reduce__(self):
        return (_rules_from_dict, (self.to_dict(),))

    def __repr__(self) -> str:
        default = Rules(self.players)
        parts = [f"players={self.players}"]
        for f in _FIELDS[1:]:
            if getattr(self, f) != getattr(default, f):
                v = getattr(self, f)
                parts.append(f"{f}={list(v) if f == 'hand_sizes' else v!r}")
        return f"Rules({', '.join(parts)})"


def _rules_from_dict(d: dict) -> Rules:
    return Rules(**d)


def _unknown_message(key: str) -> str:
    close = difflib.get_close_matches(key, _FIELDS, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown rules option {show(key)}{hint}; the options are {', '.join(_FIELDS)}"


#: Named presets: the fields each sets (the rest keep their defaults).
PRESETS: dict[str, dict[str, Any]] = {
    # The seed's base game: 1..M cards, no trump on the last hand, exact bids score 10 + tricks.
    "standard": {},
    # The Spanish version: a player who cannot follow suit must trump if able.
    "la-podrida": {"must_trump": True},
    # One hand as OpenSpiel's oh_hell plays it (tricks=N picks its size, default 5).
    "openspiel": {"hand_sizes": [5], "no_trump": "never", "hook": True,
                  "missed_bid_scores_tricks": True},
}
