from .env import VectorEnv, env, raw_env
from .env import __doc__ as __doc__
from .rules import ConnectFourRules, ConnectFourState

__all__ = ["env", "raw_env", "VectorEnv", "ConnectFourRules", "ConnectFourState"]
