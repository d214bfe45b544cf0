"""A Gymnasium single-agent environment: one seat learns, named bots play the others.

>>> from ohhell.env import OhHellGymEnv
>>> env = OhHellGymEnv(players=4, hand_sizes=[3], opponents="random")
>>> obs, info = env.reset(seed=1)
>>> done = False
>>> while not done:
...     action = int(obs["action_mask"].nonzero()[0][0])
...     obs, reward, done, truncated, info = env.step(action)
>>> info["hand_scores"] == list(env.game.totals[env.seat:env.seat + 1]), env.game.is_over
(True, True)
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..actions import action_from_id
from ..errors import IllegalActionError
from ..bots.session import TableSession
from ..game import Game
from ..rules import Rules
from ._common import TableOptions, standing_rewards

__all__ = ["OhHellGymEnv"]


class OhHellGymEnv(TableOptions, gym.Env):
    """Oh Hell for one learning seat; the other seats are played by bots.

    Observations are dicts with ``observation`` and ``action_mask`` as in
    :class:`~ohhell.env.OhHellEnv`; :meth:`action_masks` returns the mask too
    (for maskable policy-gradient libraries).  An episode is one game (or one
    hand, with a single hand size).

    :param opponents: a bot name for every other seat (``"heuristic"``), a
        list of names or :class:`~ohhell.bots.Bot` objects, one per other seat
        in seat order, skipping the learner.
    :param seat: the learner's seat, or ``None`` for a random seat each episode.
    :param observation, reward, reward_scale, illegal_action, illegal_reward,
        dealer, render_mode: as for :class:`~ohhell.env.OhHellEnv`; the
        learner's reward for a step is what it earned during the step (dense:
        the scores of hands that ended, / ``reward_scale``; sparse: its final
        standing when the game ends).
    :raises RulesError: for bad rules.
    :raises ValueError: for a bad option or an unknown bot name.
    """

    metadata = {"render_modes": ["human", "ansi"]}
    session: TableSession   # who acts (the learner's seat is the outside one); made by reset()

    def __init__(self, rules: "Rules | None" = None, *, preset: "str | None" = None,
                 opponents: "str | Sequence[Any]" = "random", seat: "int | None" = 0,
                 observation: str = "observation", reward: str = "dense", reward_scale: float = 1.0,
                 illegal_action: str = "raise", illegal_reward: float = -1.0,
                 dealer: "int | None" = None, render_mode: "str | None" = None, **fields: Any) -> None:
        self._configure(rules, preset, fields, observation=observation, reward=reward,
                        reward_scale=reward_scale, illegal_action=illegal_action,
                        illegal_reward=illegal_reward, dealer=dealer, render_mode=render_mode)
        n = self.rules.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"seat must be None or a seat from 0 to {n - 1}, not {seat!r}")
        if isinstance(opponents, str):
            opponents = [opponents] * (n - 1)
        opponents = list(opponents)
        if len(opponents) != n - 1:
            raise ValueError(f"{len(opponents)} opponents given; {n} players need {n - 1}")
        from .. import bots
        for o in opponents:
            if isinstance(o, str) and o not in bots.names():
                raise ValueError(f"unknown bot {o!r}; choose one of {', '.join(bots.names())}")
        self._opponent_specs = opponents
        self.fixed_seat = seat
        self.observation_space = self._observation_space()
        self.action_space = spaces.Discrete(self.num_actions)
        self.seat = 0 if seat is None else seat
        self._bots: dict[int, Any] = {}
        self._seen_hands = 0
        self._ended = False

    # --- gymnasium API -------------------------------------------------------------------------

    def reset(self, *, seed: "int | None" = None, options: "dict | None" = None):
        """Deal a new game and let the bots act until it is the learner's turn.

        ``reset(seed=s)`` deals the game ``ohhell.Game(rules, seed=s)`` and
        seeds the bots, so an episode is reproducible.  Returns ``(obs, info)``.
        """
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = int(seed) if seed is not None else int(rng.integers(2 ** 62))
        n = self.rules.players
        self.seat = int(rng.integers(n)) if self.fixed_seat is None else self.fixed_seat
        from .. import bots
        others = [s for s in range(n) if s != self.seat]
        self._bots = {}
        for s, spec in zip(others, self._opponent_specs):
            self._bots[s] = bots.make(spec, seed=f"{game_seed}/{s}") if isinstance(spec, str) else spec
        self.game = Game(self.rules, seed=game_seed, dealer=self.first_dealer)
        self.session = TableSession(self.game, [self._bots.get(s) for s in range(n)])
        self._seen_hands = 0
        self._ended = False
        earned = self._advance()
        info = self._info(earned)
        return self._obs(), info

    def step(self, action):
        """Apply the learner's action, then the bots' until the learner's next turn.

        Returns ``(obs, reward, terminated, truncated, info)``.

        :raises IllegalActionError: (with ``illegal_action="raise"``) for an
            action the mask forbids; nothing changes.
        """
        game = self.game
        if game is None or game.is_over or self._ended:
            raise RuntimeError("call reset() before step(): the episode is over or not started")
        try:
            if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
                raise IllegalActionError(f"not an action id: {action!r}", seat=self.seat, action=action)
            self.session.act(self.seat, action_from_id(int(action)))
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            info = self._info([])
            info["illegal_action"] = True
            self._ended = True
            return self._obs(), self.illegal_reward, True, False, info
        earned = self._advance()
        reward = 0.0
        if self.reward_mode == "dense":
            reward = sum(s for s in earned) / self.reward_scale
        if game.is_over and self.reward_mode == "sparse":
            reward = standing_rewards(game.totals)[self.seat]
        if self.render_mode == "human":
            self.render()
        return self._obs(), float(reward), game.is_over, False, self._info(earned)

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now, as a boolean array."""
        return self._mask(self.game.view(self.seat)).astype(bool)

    # --- internals -------------------------------------------------------------------------------

    def _advance(self) -> list[int]:
        """Let the bots act (through the table session) until the learner may act or the game ends.

        Returns the learner's scores of every hand that ended meanwhile
        (including one ended by the learner's own action).
        """
        game = self.game
        me = self.seat
        earned: list[int] = []
        self.session.run_bots(sleep=None)
        past = game.past_hands
        for hr in past[self._seen_hands:]:
            earned.append(hr.scores[me])
        self._seen_hands = len(past)
        return earned

    def _obs(self) -> dict[str, np.ndarray]:
        return self._observe_seat(self.seat)

    def _info(self, earned: list[int]) -> dict[str, Any]:
        g = self.game
        return {"action_mask": self._mask(g.view(self.seat)), "hand_scores": list(earned),
                "seat": self.seat, "totals": list(g.totals), "hand_index": g.hand_index}
