"""The three entry points every game module exports, built once here:
``raw_env`` (the AEC env class), ``env()`` and ``VectorEnv``.

A game's ``env.py`` keeps its documentation (the module docstring) and does

    raw_env, env, VectorEnv = game_envs(AzimuthRules, __name__)
"""

from __future__ import annotations

from pettingzoo.utils.env import AECEnv

from .aec import GameAECEnv
from .game import Rules
from .registry import versioned_name
from .vector import GameVectorEnv


def game_envs(rules_type: type[Rules], module: str):
    """``(raw_env, env, VectorEnv)`` for ``rules_type``, named as attributes of
    ``module`` so that pickle finds them there. Their ``metadata["name"]`` is
    the game's versioned name (``"azimuth_v1"``), from its rules' name and
    version, so that it cannot drift from them."""
    title = rules_type.info.long_name
    name = versioned_name(rules_type.info.name, rules_type.info.version)

    raw_env = type(
        "raw_env",
        (GameAECEnv,),
        {
            "__doc__": f"{title} as a PettingZoo AEC env (see the module docstring).",
            "__module__": module,
            "rules_type": rules_type,
            "metadata": {**GameAECEnv.metadata, "name": name},
        },
    )

    def env(num_players: int = 2, render_mode: str | None = None, **options) -> AECEnv:
        return raw_env(num_players=num_players, render_mode=render_mode, **options)

    env.__doc__ = (
        f"The {title} AEC env. It checks the PettingZoo contract itself (illegal "
        f"actions, step order), so it needs none of PettingZoo's wrappers."
    )
    env.__module__ = module

    vector_env = type(
        "VectorEnv",
        (GameVectorEnv,),
        {
            "__doc__": f"``num_envs`` {title} games stepped together in numba, with auto-reset.",
            "__module__": module,
            "rules_type": rules_type,
            "metadata": {**GameVectorEnv.metadata, "name": name},
        },
    )
    return raw_env, env, vector_env
