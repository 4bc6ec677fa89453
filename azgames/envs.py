"""The three entry points every game module exports, built once here:
``raw_env`` (the AEC env class), ``env()`` and ``VectorEnv``.

A game's ``env.py`` keeps its documentation (the module docstring) and does

    raw_env, env, VectorEnv = game_envs(AzimuthRules, "azimuth_v0", __name__)
"""

from __future__ import annotations

from pettingzoo.utils.env import AECEnv

from .aec import GameAECEnv
from .game import Rules
from .vector import GameVectorEnv


def game_envs(rules_type: type[Rules], versioned_name: str, module: str):
    """``(raw_env, env, VectorEnv)`` for ``rules_type``, named as attributes of
    ``module`` so that pickle finds them there."""
    title = rules_type.info.long_name

    raw_env = type("raw_env", (GameAECEnv,), {
        "__doc__": f"{title} as a PettingZoo AEC env (see the module docstring).",
        "__module__": module,
        "rules_type": rules_type,
        "metadata": {**GameAECEnv.metadata, "name": versioned_name},
    })

    def env(num_players: int = 2, render_mode: str | None = None, **options) -> AECEnv:
        return raw_env(num_players=num_players, render_mode=render_mode, **options)

    env.__doc__ = (f"The {title} AEC env. It checks the PettingZoo contract itself (illegal "
                   f"actions, step order), so it needs none of PettingZoo's wrappers.")
    env.__module__ = module

    vector_env = type("VectorEnv", (GameVectorEnv,), {
        "__doc__": f"``num_envs`` {title} games stepped together in numba, with auto-reset.",
        "__module__": module,
        "rules_type": rules_type,
    })
    return raw_env, env, vector_env
