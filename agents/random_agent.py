"""The uniform random baseline: any game of the suite."""

from __future__ import annotations

import numpy as np


class RandomAgent:
    """Picks uniformly among the legal actions of the player to act.

    ``seed`` seeds the agent's own :class:`numpy.random.Generator`, so a match
    between seeded agents is reproducible whatever the env's own seed.
    """

    name = "random"

    def __init__(self, seed: int | np.random.SeedSequence | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, env) -> int:
        mask = env.observe(env.agent_selection)["action_mask"]
        legal = np.flatnonzero(mask)
        if len(legal) == 0:
            raise RuntimeError(f"{env.agent_selection} has no legal action: is the game over?")
        return int(legal[self.rng.integers(len(legal))])

    def __repr__(self) -> str:
        return "RandomAgent()"
