"""The OpenSpiel bridge: ohhell registered as the pyspiel Python game ``python_ohhell``.

Importing this module (it needs ``open-spiel``) registers the game, so every
OpenSpiel algorithm runs on every ohhell variant:

>>> import pyspiel
>>> import ohhell.env.openspiel
>>> game = pyspiel.load_game("python_ohhell", {"players": 4, "hook": True})
>>> game.num_players(), game.num_distinct_actions()
(4, 66)
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True

Parameters are the rules fields (``players``, ``schedule``, ``hand_sizes`` as
text ``"[1;2;3]"`` (OpenSpiel's game strings reserve commas), ``no_trump``, ``hook``, ``simultaneous_bidding``,
``must_trump``, ``missed_bid_scores_tricks``, ``zero_bid_scores_hand_size``),
``preset`` (``"standard"``, ``"la-podrida"``, ``"openspiel"``, with
``tricks`` for the last), ``dealer`` (the first dealer; -1: a chance node
draws it) and ``utility`` (``"score"``: final totals in points;
``"standing"``: (players beaten - players beating) / (players - 1)).

How the game maps onto OpenSpiel:

* Actions are ohhell's ids: card ``c`` (``suit*13 + rank``) is ``c``, bid
  ``b`` is ``52 + b``.  Chance outcomes are the first dealer (0..n-1, when
  ``dealer=-1``) and the cards, dealt one at a time clockwise from the
  dealer's left, then the turned trump card when the hand has one.
* Each hand is played by the core (:class:`ohhell.Game`), so the rules are
  exactly ohhell's; the bridge only chains the hands and deals them.
* Simultaneous bidding becomes sequential bidding with private bids: the seats
  bid in turn, but no information state or observation shows another seat's
  bid before every bid is in (the standard way to express it for
  OpenSpiel's algorithms for sequential imperfect-information games).
* ``resample_from_infostate`` draws the hidden cards with the core's exact
  sampler (:class:`ohhell.sampling.HandSampler`): every seat keeps its card
  count and no seat gets a card of a suit it has shown void in; hidden
  simultaneous bids are drawn again uniformly.
* Tensors are :class:`ohhell.env.Encoder`'s ``observation`` (observation
  tensor) and ``information_state`` (information state tensor) encodings.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ..actions import action_from_id
from ..cards import CARDS, mask_to_cards
from ..game import Game, HandRecord
from ..rules import FLAGS, Rules
from ..sampling import HandSampler
from ..scoring import winners
from ..view import View
from .aec import standing_rewards
from .encoding import Encoder, max_total

__all__ = ["GAME_NAME", "OhHellGame", "OhHellState", "load", "rules_from_params", "params_from_rules"]

GAME_NAME = "python_ohhell"

_DEFAULTS: dict[str, Any] = {
    "players": 4,
    "schedule": "",
    "hand_sizes": "",
    "no_trump": "last",
    "hook": False,
    "simultaneous_bidding": False,
    "must_trump": False,
    "missed_bid_scores_tricks": False,
    "zero_bid_scores_hand_size": False,
    "preset": "",
    "tricks": 5,
    "dealer": 0,
    "utility": "score",
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Oh Hell (ohhell: whole games, every variant)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=7,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The :class:`Rules` a parameter dict describes (unset keys take their defaults).

    :raises RulesError: for a bad combination.
    """
    p = dict(_DEFAULTS)
    p.update(params)
    fields: dict[str, Any] = {"players": int(p["players"]), "no_trump": p["no_trump"]}
    for flag in FLAGS:
        fields[flag] = bool(p[flag])
    if p["schedule"]:
        fields["schedule"] = p["schedule"]
    if p["hand_sizes"]:
        text = str(p["hand_sizes"]).strip("[]")
        for sep in ", -":
            text = text.replace(sep, ";")
        fields["hand_sizes"] = [int(x) for x in text.split(";") if x]
    if p["preset"]:
        base = Rules.preset(p["preset"], players=fields["players"],
                            **({"tricks": int(p["tricks"])} if p["preset"] == "openspiel" else {}))
        changes = {k: v for k, v in fields.items() if k != "players" and k in params}
        return base.replace(**changes) if changes else base
    return Rules(**fields)


def params_from_rules(rules: Rules, **extra: Any) -> dict[str, Any]:
    """The parameter dict of a :class:`Rules` (for ``pyspiel.load_game``)."""
    d = rules.to_dict()
    d["hand_sizes"] = "[" + ";".join(map(str, d["hand_sizes"])) + "]"
    d.pop("schedule")
    d.update(extra)
    return d


def load(rules: "Rules | None" = None, **extra: Any) -> pyspiel.Game:
    """``pyspiel.load_game("python_ohhell", ...)`` for a :class:`Rules` (default: standard, 4 players)."""
    return pyspiel.load_game(GAME_NAME, params_from_rules(rules or Rules(), **extra))


class OhHellGame(pyspiel.Game):
    """The pyspiel game: rules from the parameters (see :func:`rules_from_params`)."""

    def __init__(self, params: "dict[str, Any] | None" = None) -> None:
        params = dict(params or {})
        rules = rules_from_params(params)
        n = rules.players
        if params.get("utility", "score") not in ("score", "standing"):
            raise pyspiel.SpielError(f"utility must be 'score' or 'standing', not {params['utility']!r}")
        dealer = int(params.get("dealer", 0))
        if not -1 <= dealer < n:
            raise pyspiel.SpielError(f"dealer must be -1 (chance) or a seat 0..{n - 1}, not {dealer}")
        self.rules = rules
        self.first_dealer = dealer
        self.utility = params.get("utility", "score")
        standing = self.utility == "standing"
        decisions = n * (len(rules.hand_sizes) + sum(rules.hand_sizes))
        chance = sum(n * h + 1 for h in rules.hand_sizes) + 1
        info = pyspiel.GameInfo(
            num_distinct_actions=52 + max(rules.hand_sizes) + 1,
            max_chance_outcomes=52,
            num_players=n,
            min_utility=-1.0 if standing else 0.0,
            max_utility=1.0 if standing else float(max_total(rules)),
            utility_sum=None,  # GENERAL_SUM games declare none (standings do sum to 0)
            max_game_length=decisions + chance,
        )
        super().__init__(_GAME_TYPE, info, params)
        self.hand_rules = [rules.hand_alone(k) for k in range(len(rules.hand_sizes))]
        self.encoders = {False: Encoder(rules, "observation"), True: Encoder(rules, "information_state")}

    def new_initial_state(self) -> "OhHellState":
        """The state before the first deal."""
        return OhHellState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "OhHellObserver":
        """An observer: perfect recall gives the information state, otherwise the observation."""
        perfect = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        return OhHellObserver(self, perfect)


class _Shared:
    """What every state of one game shares (copied by reference when pyspiel clones a state)."""

    __slots__ = ("rules", "hand_rules", "first_dealer", "utility", "encoders")

    def __init__(self, game: OhHellGame) -> None:
        self.rules = game.rules
        self.hand_rules = game.hand_rules
        self.first_dealer = game.first_dealer
        self.utility = game.utility
        self.encoders = game.encoders

    def __deepcopy__(self, memo):
        return self


class _Progress:
    """A state's mutable part; pyspiel clones states by deep-copying their attributes,
    so this copies itself cheaply (finished hands are immutable and shared)."""

    __slots__ = ("dealer", "k", "dealt", "hand", "past", "totals", "over", "log")

    def __deepcopy__(self, memo):
        o = _Progress()
        o.dealer = self.dealer
        o.k = self.k
        o.dealt = self.dealt[:]
        o.hand = self.hand.copy() if self.hand is not None else None
        o.past = self.past[:]
        o.totals = self.totals[:]
        o.over = self.over
        o.log = self.log[:]
        return o


class OhHellState(pyspiel.State):
    """A state of a whole game: finished hands, the deal in progress or the hand being played."""

    def __init__(self, game: OhHellGame) -> None:
        super().__init__(game)
        g = self._g = _Shared(game)
        self._n = g.rules.players
        p = self._p = _Progress()
        p.dealer = g.first_dealer if g.first_dealer >= 0 else -1
        p.k = 0
        p.dealt = []       # cards dealt so far in the current hand
        p.hand = None      # the current hand (a core Game), once dealt
        p.past = []        # HandRecords of the finished hands
        p.totals = [0] * self._n
        p.over = False
        p.log = []         # (seat, action id) of the current hand's decisions

    # --- the game --------------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, ``pyspiel.PlayerId.CHANCE`` or ``pyspiel.PlayerId.TERMINAL``."""
        if self._p.over:
            return pyspiel.PlayerId.TERMINAL
        if self._p.hand is None:
            return pyspiel.PlayerId.CHANCE
        return self._p.hand.to_act

    def _cards_needed(self) -> int:
        h = self._g.rules.hand_sizes[self._p.k]
        return self._n * h + (1 if self._g.rules.has_trump(self._p.k) else 0)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The first dealer, or the next card of the deal, uniformly."""
        if self._p.dealer < 0:
            return [(d, 1.0 / self._n) for d in range(self._n)]
        used = 0
        for c in self._p.dealt:
            used |= 1 << c
        left = [c for c in range(52) if not used >> c & 1]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _legal_actions(self, player: int) -> list[int]:
        if self._p.hand is None or self._p.over:
            return []
        return sorted(a.id for a in self._p.hand.legal_actions(player))

    def _apply_action(self, action: int) -> None:
        if self._p.hand is None:
            if self._p.dealer < 0:
                self._p.dealer = int(action)
                return
            self._p.dealt.append(int(action))
            if len(self._p.dealt) == self._cards_needed():
                self._start_hand()
            return
        seat = self._p.hand.to_act
        self._p.hand.apply(action_from_id(int(action)), seat=seat)
        self._p.log.append((seat, int(action)))
        if self._p.hand.is_over:
            self._finish_hand()

    def _start_hand(self) -> None:
        n = self._n
        h = self._g.rules.hand_sizes[self._p.k]
        deal: list[list[int]] = [[] for _ in range(n)]
        for i, c in enumerate(self._p.dealt[:n * h]):
            deal[(self._p.dealer + 1 + i) % n].append(c)
        trump = self._p.dealt[n * h] if len(self._p.dealt) > n * h else None
        self._p.hand = Game.from_deal(self._g.hand_rules[self._p.k], self._p.dealer, deal, trump)
        self._p.log = []

    def _finish_hand(self) -> None:
        hr = self._p.hand.past_hands[0]
        self._p.past.append(HandRecord(self._p.k, hr.dealer, hr.hand_size, hr.deal, hr.trump_card,
                                     hr.bids, hr.tricks, hr.tricks_won, hr.scores))
        for s in range(self._n):
            self._p.totals[s] += hr.scores[s]
        if self._p.k + 1 < len(self._g.rules.hand_sizes):
            self._p.k += 1
            self._p.dealer = (self._p.dealer + 1) % self._n
            self._p.dealt = []
            self._p.hand = None
            self._p.log = []
        else:
            self._p.over = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._p.dealer < 0:
                return f"dealer {action}"
            return f"deal {CARDS[action]}"
        a = action_from_id(int(action))
        return f"bid {a.tricks}" if action >= 52 else f"play {a.card}"

    def is_terminal(self) -> bool:
        """Whether the last hand has been scored."""
        return self._p.over

    def returns(self) -> list[float]:
        """Final totals (or standings) at the end, zeros before."""
        if not self._p.over:
            return [0.0] * self._n
        if self._g.utility == "standing":
            return standing_rewards(self._p.totals)
        return [float(t) for t in self._p.totals]

    def rewards(self) -> list[float]:
        """Terminal reward model: the returns on the last step, zero otherwise."""
        return self.returns()

    # --- information -----------------------------------------------------------------------------

    def view(self, player: int) -> "View | None":
        """The core view of ``player`` over the whole game (``None`` while a hand is being dealt)."""
        if self._p.hand is None:
            return None
        v = self._p.hand.view(player)
        v.rules = self._g.rules
        v.hand_index = self._p.k
        v.hand_count = len(self._g.rules.hand_sizes)
        v.past_hands = tuple(self._p.past)
        v.totals = tuple(self._p.totals)
        if self._p.over:
            v.winners = tuple(winners(self._p.totals))
        return v

    def information_state_key(self, player: int) -> str:
        """Everything ``player`` has seen, in order: unique per information state."""
        parts = [f"p{player}"]
        for hr in self._p.past:
            parts.append(f"h{hr.index}d{hr.dealer}t{hr.trump_card}c{_cards(hr.deal[player])}"
                         f"b{','.join(map(str, hr.bids))}"
                         f"x{'.'.join(''.join(str(c) for c in t.cards) for t in hr.tricks)}")
        if not self._p.over:
            parts.append(f"h{self._p.k}d{self._p.dealer}")
            if self._p.hand is None:
                n = self._n
                mine = [c for i, c in enumerate(self._p.dealt) if i < n * self._g.rules.hand_sizes[self._p.k]
                        and (self._p.dealer + 1 + i) % n == player]
                parts.append("c" + " ".join(str(CARDS[c]) for c in mine) + f"/{len(self._p.dealt)}")
            else:
                hand = self._p.hand
                parts.append(f"t{hand.turned_card}c{_cards(hand.deal[player])}")
                revealed = hand.bids_revealed
                for seat, a in self._p.log:
                    if a >= 52 and not revealed and seat != player:
                        parts.append(f"{seat}:b?")
                    else:
                        parts.append(f"{seat}:{a}")
        return "|".join(parts)

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "OhHellState":
        """A state ``player_id`` cannot tell from this one, drawn with the exact void-respecting sampler."""
        rng = random.Random(int(probability_sampler() * 2 ** 53))
        other = self.clone()
        if self._p.hand is None or self._p.over:
            if self._p.hand is None and not self._p.over and self._p.dealer >= 0:
                other._p.dealt = _redeal_partial(self, player_id, rng)
            return other
        view = self._p.hand.view(player_id)
        deal = HandSampler(view, rng).sample()
        played = view.played_by
        dealt = [mask_to_cards(deal.hands[s] | played[s]) for s in range(self._n)]
        hand = self._p.hand
        new = Game.from_deal(self._g.hand_rules[self._p.k], hand.dealer, dealt,
                             hand.turned_card)
        revealed = hand.bids_revealed
        for seat, a in self._p.log:
            if a >= 52 and not revealed and seat != player_id:
                legal = new.legal_actions(seat)
                new.apply(legal[rng.randrange(len(legal))], seat=seat)
            else:
                new.apply(action_from_id(a), seat=seat)
        other._p.hand = new
        return other

    def __str__(self) -> str:
        if self._p.over:
            return f"game over; totals {self._p.totals}"
        if self._p.hand is None:
            return f"hand {self._p.k + 1}: dealing ({len(self._p.dealt)}/{self._cards_needed()} cards)"
        return f"hand {self._p.k + 1}/{len(self._g.rules.hand_sizes)}; totals {self._p.totals}\n{self._p.hand}"


def _cards(mask: int) -> str:
    return " ".join(str(c) for c in mask_to_cards(mask))


def _redeal_partial(state: OhHellState, player: int, rng: random.Random) -> list[int]:
    """During a deal: keep ``player``'s cards (and the positions), redraw everyone else's."""
    n = state._n
    mine = {i for i in range(len(state._p.dealt)) if (state._p.dealer + 1 + i) % n == player
            and i < n * state._g.rules.hand_sizes[state._p.k]}
    keep = {state._p.dealt[i] for i in mine}
    pool = [c for c in range(52) if c not in keep]
    rng.shuffle(pool)
    out, j = [], 0
    for i, c in enumerate(state._p.dealt):
        if i in mine:
            out.append(c)
        else:
            out.append(pool[j])
            j += 1
    return out


class OhHellObserver:
    """Observer for OpenSpiel: the ohhell encodings as tensors, the view as a string."""

    def __init__(self, game: OhHellGame, perfect_recall: bool) -> None:
        self._game = game
        self._perfect = perfect_recall
        self._encoder = game.encoders[perfect_recall]
        self.tensor = np.zeros(self._encoder.size, np.float32)
        self.dict = {s.name: self.tensor[s.start:s.stop].reshape(s.shape) for s in self._encoder.layout}

    def set_from(self, state: OhHellState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s encoding (all zero while a hand is being dealt,
        except the totals)."""
        view = state.view(player)
        if view is None:
            self.tensor[:] = 0
            tot = self.dict["totals"]
            n = state._n
            scale = float(max_total(state._g.rules))
            for s in range(n):
                tot[(s - player) % n] = state._p.totals[s] / scale
            return
        self._encoder.encode(view, out=self.tensor)

    def string_from(self, state: OhHellState, player: int) -> str:
        """The information state key (perfect recall) or the view as text."""
        if self._perfect:
            return state.information_state_key(player)
        view = state.view(player)
        if view is None:
            return f"p{player} dealing hand {state._p.k + 1}; totals {state._p.totals}"
        from ..text import render_view
        return f"p{player}\n" + render_view(view, pretty=False)


pyspiel.register_game(_GAME_TYPE, OhHellGame)
