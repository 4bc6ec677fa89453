"""Game registry: names to env constructors, imported lazily so that
``import azgames`` compiles nothing.

Every game (and mode) has a version, its ``Rules.info.version``, bumped
whenever its rules or observations change, and a versioned name as
PettingZoo names ``connect_four_v3``: ``azimuth_v1``. :func:`make` and
:func:`make_vec` take the plain name (the current version) or the current
versioned name; any other version is refused, naming the current one: only
the current version of a game is provided.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported by the games' modules, when a game is made
    from .aec import GameAECEnv
    from .game import Rules
    from .vector import GameVectorEnv


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


def rules_type(name: str) -> type[Rules]:
    """The game's :class:`~azgames.core.game.Rules` class (its metadata, options and player counts)."""
    return _module(name).raw_env.rules_type


_VERSIONED = re.compile(r"(?P<game>.+)_v(?P<version>[0-9]+)")


def versioned_name(name: str, version: int | None = None) -> str:
    """``name`` with its version as PettingZoo writes it: ``azimuth_v1``
    (``version`` None: the registered game's current version)."""
    if version is None:
        name = resolve(name)
        version = current_version(name)
    return f"{name}_v{version}"


def current_version(name: str) -> int:
    """The current version of the game ``name`` (its ``Rules.info.version``)."""
    return rules_type(name).info.version


def versions() -> dict[str, int]:
    """Every registered game's current version, by name."""
    return {e.name: current_version(e.name) for e in list_games()}


def resolve(name: str) -> str:
    """The registered game that ``name`` makes: its plain name, or its
    current versioned name (``"azimuth_v1"`` makes ``"azimuth"``). An
    unknown game, or a version other than the current one, is refused with a
    ``ValueError`` (the latter naming the current version)."""
    if isinstance(name, str) and name not in _REGISTRY:
        versioned = _VERSIONED.fullmatch(name)
        if versioned and versioned["game"] in _REGISTRY:
            game = versioned["game"]
            current = versioned_name(game, current_version(game))
            if name != current:
                raise ValueError(
                    f"{name!r}: {game} has no version {versioned['version']}; its current "
                    f"version is {current_version(game)} ({current!r}, or plain {game!r}): only "
                    f"the current version of a game is provided"
                )
            return game
    if not isinstance(name, str) or name not in _REGISTRY:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(sorted(_REGISTRY))}")
    return name


def _module(name: str) -> ModuleType:
    return importlib.import_module(_REGISTRY[resolve(name)].module)


def make(name: str, **kwargs: Any) -> GameAECEnv:
    """The game's AEC env: ``make("azacru", num_players=3, render_mode="ansi")``.
    ``name`` may carry the current version: ``make("azimuth_v1")``."""
    return _module(name).env(**kwargs)


def make_vec(name: str, num_envs: int, seed: int | None = None, **kwargs: Any) -> GameVectorEnv:
    """The game's vector env with ``num_envs`` games (reset before returning).
    ``name`` may carry the current version: ``make_vec("azimuth_v1", 64)``."""
    venv = _module(name).VectorEnv(num_envs=num_envs, seed=seed, **kwargs)
    venv.reset()
    return venv


register("azacru", "azacru_env", "Azacru: chevrons claiming a 9 x 9 board of borderlands, 2-4 players")
register("azimuth", "azimuth_env", "Azimuth: rafts sailed by winds, castaways racing home, 2-4 players")
register(
    "azimuth_coop",
    "azimuth_env.coop",
    "Azimuth co-op with the Ocean Die: one team saves all four castaways, 2-4 players",
)
register("connect_four", "connect_four_env", "Connect Four: four in a row on a 6 x 7 board, 2 players")
register(
    "azure",
    "azure_env",
    "Azure Attack: one monster against up to three hunters fighting over gold, 2-4 players",
)
