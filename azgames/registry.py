"""Game registry: names to env constructors, imported lazily so that
``import azgames`` compiles nothing."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameEntry:
    name: str
    module: str  # provides env(), raw_env and VectorEnv
    summary: str


_REGISTRY: dict[str, GameEntry] = {}


def register(name: str, module: str, summary: str) -> None:
    """Make a game available to :func:`make` and the command line."""
    _REGISTRY[name] = GameEntry(name, module, summary)


def list_games() -> list[GameEntry]:
    return sorted(_REGISTRY.values(), key=lambda e: e.name)


def rules_type(name: str):
    """The game's :class:`~azgames.game.Rules` class (its metadata, options and player counts)."""
    return _module(name).raw_env.rules_type


def _module(name: str):
    if name not in _REGISTRY:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(sorted(_REGISTRY))}")
    return importlib.import_module(_REGISTRY[name].module)


def make(name: str, **kwargs: Any):
    """The game's AEC env: ``make("azacru", num_players=3, render_mode="ansi")``."""
    return _module(name).env(**kwargs)


def make_vec(name: str, num_envs: int, seed: int | None = None, **kwargs: Any):
    """The game's vector env with ``num_envs`` games (reset before returning)."""
    venv = _module(name).VectorEnv(num_envs=num_envs, seed=seed, **kwargs)
    venv.reset()
    return venv


register("azacru", "azacru_env", "Azacru: chevrons claiming a 9 x 9 board of borderlands, 2-4 players")
register("azimuth", "azimuth_env", "Azimuth: rafts sailed by winds, castaways racing home, 2-4 players")
register("azimuth_coop", "azimuth_env.coop",
         "Azimuth co-op with the Ocean Die: one team saves all four castaways, 2-4 players")
register("azure", "azure_env", "Azure Attack: one monster against up to three hunters fighting over gold, 2-4 players")
