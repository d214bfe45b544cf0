"""The research environment: Oh Hell in the APIs card-game AI research uses.

* :class:`OhHellEnv`: a PettingZoo AEC environment over whole games or single
  hands, every variant (``OhHellEnv(players=4, hook=True)``).
* :class:`OhHellGymEnv`: a Gymnasium single-agent environment in which the
  other seats are played by named bots (``ohhell.bots.make``).
* :class:`Encoder`: the documented observation and information-state encodings.
* :mod:`ohhell.env.batch`: many games stepped at once in compiled kernels
  (numba, the ``fast`` extra) for training and evaluation.
* :mod:`ohhell.env.openspiel`: the OpenSpiel bridge (needs ``open-spiel``);
  import it explicitly, it is not imported here.

Needs the ``env`` extra: ``pip install 'ohhell[env]'``.
"""

from __future__ import annotations

from .aec import OhHellEnv, env, make_rules, raw_env, standing_rewards
from .encoding import Encoder, Slice, max_total
from .single import OhHellGymEnv

__all__ = ["OhHellEnv", "OhHellGymEnv", "Encoder", "Slice", "env", "raw_env", "make_rules", "max_total",
           "standing_rewards"]
