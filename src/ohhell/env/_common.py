"""What the PettingZoo and the Gymnasium environments share: options, spaces, masks, rendering."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from ..errors import RulesError
from ..rules import Rules
from ..view import View
from .encoding import KINDS, Encoder

REWARDS = ("dense", "sparse")
ILLEGAL_ACTIONS = ("raise", "terminate")
RENDER_MODES = ("human", "ansi")


def make_rules(rules: "Rules | None" = None, preset: "str | None" = None, **fields: Any) -> Rules:
    """Rules from a :class:`Rules`, a preset name and/or rules fields as keywords.

    :raises RulesError: for a bad combination (with why).
    """
    if rules is not None and preset is not None:
        raise RulesError("give rules or preset, not both")
    if rules is not None:
        if not isinstance(rules, Rules):
            raise RulesError(f"rules must be a Rules object, not {type(rules).__name__}")
        return rules.replace(**fields) if fields else rules
    if preset is not None:
        return Rules.preset(preset, **fields)
    return Rules(**fields)


def standing_rewards(totals: "list[int] | tuple[int, ...]") -> list[float]:
    """The sparse reward of each seat from final totals, in [-1, 1] and summing to 0:
    (players it beat - players that beat it) / (players - 1).

    >>> standing_rewards([30, 50, 30, 10])
    [0.0, 1.0, 0.0, -1.0]
    """
    n = len(totals)
    return [sum((t > u) - (t < u) for u in totals) / (n - 1) for t in totals]


class TableOptions:
    """The options both environments take, validated, and the spaces and masks they imply."""

    game: Any

    def _configure(self, rules, preset, fields, *, observation: str, reward: str, reward_scale: float,
                   illegal_action: str, illegal_reward: float, dealer: "int | None",
                   render_mode: "str | None") -> None:
        self.rules = make_rules(rules, preset, **fields)
        n = self.rules.players
        if observation not in KINDS:
            raise ValueError(f"unknown observation {observation!r}; choose one of {', '.join(KINDS)}")
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r}; choose one of {', '.join(REWARDS)}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"unknown illegal_action {illegal_action!r}; "
                             f"choose one of {', '.join(ILLEGAL_ACTIONS)}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"unknown render_mode {render_mode!r}; choose human or ansi")
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)
                                   or not 0 <= dealer < n):
            raise RulesError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        self.observation_kind = observation
        self.reward_mode = reward
        self.reward_scale = float(reward_scale)
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.first_dealer = dealer
        self.render_mode = render_mode
        self.encoder = Encoder(self.rules, observation)
        self.num_actions = 52 + max(self.rules.hand_sizes) + 1
        self.game = None

    def _observation_space(self) -> spaces.Dict:
        return spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
        })

    def _mask(self, view: View) -> np.ndarray:
        mask = np.zeros(self.num_actions, dtype=np.int8)
        ids = [a.id for a in view.legal]
        if ids:
            mask[ids] = 1
        return mask

    def _observe_seat(self, seat: int) -> dict[str, np.ndarray]:
        view = self.game.view(seat)
        return {"observation": self.encoder.encode(view), "action_mask": self._mask(view)}

    def render(self) -> "str | None":
        """The whole table as text, every hand shown (for the researcher, not for an agent):
        returned with ``render_mode="ansi"``, printed with ``"human"``."""
        if self.game is None:
            return None
        from ..text import render_game, score_table
        text = render_game(self.game) + "\n" + score_table(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text
