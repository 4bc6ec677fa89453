from .coop import env as coop_env  # the co-op mode (azgames.make("azimuth_coop"))
from .env import VectorEnv, env, raw_env
from .env import __doc__ as __doc__
from .rules import AzimuthRules, AzimuthState

__all__ = ["env", "raw_env", "VectorEnv", "AzimuthRules", "AzimuthState", "coop_env"]
