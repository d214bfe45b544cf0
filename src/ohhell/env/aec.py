"""The PettingZoo AEC environment: the whole game of Oh Hell, every variant.

>>> from ohhell.env import OhHellEnv
>>> env = OhHellEnv(players=4, hook=True)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs), env.agent_selection in env.agents
(['action_mask', 'observation'], True)
>>> env.step(int(obs["action_mask"].nonzero()[0][0]))
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..actions import action_from_id
from ..bots.session import TableSession
from ..errors import IllegalActionError
from ..game import Game
from ..rules import Rules
from ..view import View
from ._common import ILLEGAL_ACTIONS, REWARDS, TableOptions, make_rules, standing_rewards

__all__ = ["OhHellEnv", "env", "raw_env", "make_rules", "standing_rewards", "REWARDS", "ILLEGAL_ACTIONS"]


class OhHellEnv(TableOptions, AECEnv):
    """Oh Hell as a PettingZoo AEC environment.

    Agents are ``player_0`` .. ``player_{n-1}`` (agent ``player_s`` is seat
    ``s``).  Each observation is a dict with ``observation`` (a float32 vector,
    see :class:`~ohhell.env.encoding.Encoder`) and ``action_mask`` (int8, one
    entry per action).  The single :class:`~gymnasium.spaces.Discrete` action
    space numbers the 52 cards 0..51 (``card = suit*13 + rank``) and bid ``b``
    as ``52 + b`` (as :func:`ohhell.action_from_id`).

    :param rules: a :class:`~ohhell.Rules` (or give ``preset`` and/or the rules
        fields as keywords: ``OhHellEnv(players=4, hook=True)``,
        ``OhHellEnv(preset="openspiel", players=4)``, ``OhHellEnv(hand_sizes=[7])``
        for a single hand of 7 cards).
    :param observation: ``"observation"`` or ``"information_state"`` (the whole history).
    :param reward: ``"dense"``: each seat receives its score for a hand when the
        hand ends, divided by ``reward_scale``; ``"sparse"``: only at the end of
        the game, from the final standing (:func:`standing_rewards`).
    :param reward_scale: the divisor of dense rewards (default 1: raw points).
    :param illegal_action: ``"raise"``: an action the mask forbids raises
        :class:`~ohhell.IllegalActionError` and changes nothing; ``"terminate"``:
        the game ends, the offender gets ``illegal_reward`` and the others 0.
    :param dealer: the first dealer (default: drawn from the deal seed).
    :param render_mode: ``"ansi"`` (``render()`` returns the text) or ``"human"`` (prints it).
    :raises RulesError: for bad rules.
    :raises ValueError: for a bad option.

    Simultaneous bidding: the agents bid one after another in AEC order, but
    no observation (nor reward or info) shows another seat's bid before every
    bid is in, exactly as in the core's views.
    """

    session: TableSession   # who acts (every agent is an outside seat); made by reset()
    metadata = {"name": "ohhell_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, rules: "Rules | None" = None, *, preset: "str | None" = None,
                 observation: str = "observation", reward: str = "dense", reward_scale: float = 1.0,
                 illegal_action: str = "raise", illegal_reward: float = -1.0,
                 dealer: "int | None" = None, render_mode: "str | None" = None, **fields: Any) -> None:
        super().__init__()
        self._configure(rules, preset, fields, observation=observation, reward=reward,
                        reward_scale=reward_scale, illegal_action=illegal_action,
                        illegal_reward=illegal_reward, dealer=dealer, render_mode=render_mode)
        n = self.rules.players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        obs_space = self._observation_space()
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._rng: "np.random.Generator | None" = None

    # --- spaces ----------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent`` (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The action space of ``agent`` (the same object every call)."""
        return self.action_spaces[agent]

    # --- the AEC protocol ------------------------------------------------------------------

    def reset(self, seed: "int | None" = None, options: "dict | None" = None) -> None:
        """Start a new game.

        ``reset(seed=s)`` deals exactly the game ``ohhell.Game(rules, seed=s)``
        (same deals, same first dealer unless ``dealer`` was given), and seeds
        the generator that draws the seeds of later ``reset()`` calls.
        ``options={"game": g}`` starts from a copy of the unfinished game ``g``
        (same rules) instead.
        """
        options = options or {}
        given = options.get("game")
        if given is not None:
            if not isinstance(given, Game) or given.rules != self.rules or given.is_over:
                raise ValueError("options['game'] must be an unfinished Game with this environment's rules")
            self.game = given.copy()
        else:
            if seed is not None:
                self._rng = np.random.default_rng(seed)
                game_seed: "int | None" = int(seed)
            elif self._rng is not None:
                game_seed = int(self._rng.integers(2 ** 62))
            else:
                game_seed = None
            self.game = Game(self.rules, seed=game_seed, dealer=self.first_dealer)
        # Every agent is an outside seat of the session; the session says whose turn it is.
        self.session = TableSession(self.game, [None] * self.rules.players)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation now: ``{"observation": ..., "action_mask": ...}``."""
        return self._observe_seat(self._seat[agent])

    def step(self, action: "int | np.integer | None") -> None:
        """Apply the selected agent's action (an action id; ``None`` for a finished agent).

        :raises IllegalActionError: (with ``illegal_action="raise"``) for an
            action the mask forbids; nothing changes.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        seat = self._seat[agent]
        hand_index = game.hand_index
        try:
            if action is None or isinstance(action, bool) or not isinstance(action, (int, np.integer)):
                raise IllegalActionError(f"not an action id: {action!r}", seat=seat, action=action)
            self.session.act(seat, action_from_id(int(action)))
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._cumulative_rewards[agent] = 0.0
            self.rewards = {a: 0.0 for a in self.agents}
            self.rewards[agent] = self.illegal_reward
            self.terminations = {a: True for a in self.agents}
            self.infos[agent] = {"illegal_action": True}
            self._accumulate_rewards()
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if game.is_over or game.hand_index != hand_index:
            if self.reward_mode == "dense":
                scores = game.past_hands[-1].scores
                for a in self.agents:
                    self.rewards[a] = scores[self._seat[a]] / self.reward_scale
        if game.is_over:
            if self.reward_mode == "sparse":
                for a, r in zip(self.possible_agents, standing_rewards(game.totals)):
                    self.rewards[a] = r
            self.terminations = {a: True for a in self.agents}
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _select(self) -> None:
        """Select the agent the session says is to act next."""
        seat = self.session.next_seat()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    # --- extras ----------------------------------------------------------------------------

    def view(self, agent: str) -> View:
        """The core :class:`~ohhell.View` of ``agent`` (what its seat may know)."""
        return self.game.view(self._seat[agent])

    def seat(self, agent: str) -> int:
        """The seat of ``agent``."""
        return self._seat[agent]

    def close(self) -> None:
        """Nothing to release."""

    def __str__(self) -> str:
        return "ohhell_v0"


def env(**kwargs: Any):
    """PettingZoo-style constructor: :class:`OhHellEnv` inside PettingZoo's
    ``OrderEnforcingWrapper`` (which rejects ``step`` before ``reset`` and the
    like), as PettingZoo's own classic environments come; ``raw_env`` is the bare class."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
    return OrderEnforcingWrapper(OhHellEnv(**kwargs))


raw_env = OhHellEnv
