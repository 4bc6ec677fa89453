"""What an agent is, and what every agent checks before it plays: its seed,
and the env it is asked to act in (an env of the suite, of its game, with a
player to act).

This is the core's: the games' own baseline agents (each game's
``greedy.py``) and the agents layer (``azgames.agents``) build on it. A
wrong argument fails here with a message naming it, rather than deep in an
agent's search with an ``AttributeError``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np

from azgames.core import checks
from azgames.core.aec import GameAECEnv


@runtime_checkable
class Agent(Protocol):
    """Anything that plays: given the AEC env whose turn it is, a legal action
    of ``env.agent_selection``. It may read ``env.last()``,
    ``env.unwrapped.state`` and ``env.unwrapped.rules``, or play ahead on
    ``env.unwrapped.clone()``; it must not change ``env``."""

    def act(self, env: Any) -> int: ...


def agent_rng(seed: Any) -> np.random.Generator:
    """The agent's generator from ``seed``: None, an int >= 0, a
    :class:`numpy.random.SeedSequence` or a :class:`numpy.random.Generator`."""
    if seed is None or isinstance(seed, (np.random.SeedSequence, np.random.Generator)):
        return np.random.default_rng(seed)
    return np.random.default_rng(checks.seed("seed", seed))


def suite_env(env: Any, game: str | None = None) -> GameAECEnv:
    """``env`` unwrapped, if it is an AEC env of the suite (of ``game``, if
    given) in a game going on; TypeError, ValueError or RuntimeError naming
    what is wrong otherwise."""
    raw = getattr(env, "unwrapped", None)
    if not isinstance(raw, GameAECEnv):
        raise TypeError(f"env={env!r} is not an AEC env of the suite (azgames.make(...))")
    name = raw.rules.info.name
    if game is not None and name != game:
        raise ValueError(f"env plays {name}; this agent plays {game}")
    if raw.state is None:
        raise RuntimeError("the env has no game: call env.reset() first")
    if not raw.legal_actions():
        raise RuntimeError(f"{raw.agent_selection} has no legal action: is the game over?")
    return raw


class BestOfGreedy:
    """Plays at random among ``self.best_actions(env)`` (a subclass's
    one-ply choice), or the only legal action at once; ``game`` names the
    game it plays and ``rng`` is its generator (:func:`agent_rng`)."""

    game: str
    rng: np.random.Generator
    #: ``best_actions(env)``: the legal actions tied best (a subclass's method).
    best_actions: Callable[[Any], np.ndarray]

    def act(self, env: Any) -> int:
        legal = suite_env(env, self.game).legal_actions()
        if len(legal) == 1:  # the pass, or a single forced move
            return int(legal[0])
        best = self.best_actions(env)
        return int(best[self.rng.integers(len(best))])
