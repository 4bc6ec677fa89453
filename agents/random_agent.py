"""The uniform random baseline: any game of the suite."""

from __future__ import annotations

import numpy as np

from azgames.core.agent import agent_rng, suite_env


class RandomAgent:
    """Picks uniformly among the legal actions of the player to act.

    ``seed`` seeds the agent's own :class:`numpy.random.Generator`, so a match
    between seeded agents is reproducible whatever the env's own seed.
    """

    name = "random"

    def __init__(self, seed: int | np.random.SeedSequence | None = None):
        self.rng = agent_rng(seed)

    def act(self, env) -> int:
        legal = suite_env(env).legal_actions()
        return int(legal[self.rng.integers(len(legal))])

    def __repr__(self) -> str:
        return "RandomAgent()"
