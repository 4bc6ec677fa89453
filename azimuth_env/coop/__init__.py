"""Azimuth's co-op mode with the Ocean Die (``azgames.make("azimuth_coop")``)."""

from .env import VectorEnv, env, raw_env
from .env import __doc__ as __doc__
from .rules import FACE_NAMES, CoopRules, CoopState

__all__ = ["env", "raw_env", "VectorEnv", "CoopRules", "CoopState", "FACE_NAMES"]
