"""The ``az`` agent (issue 29, under way): a Gumbel search guided by a
trained network, or the network alone, playing without torch.

The network is a :class:`~azgames.agents.policy.NumpyPolicy` (what the
trainer writes); the search is :class:`.search.GumbelSearch` over the one
game the agent is asked about, with no Gumbel noise (it plays for strength).
``simulations=0`` plays the network's most likely legal action.
"""

from __future__ import annotations

import numpy as np

from azgames import checks
from azgames.agent import suite_env

from ..policy import NumpyPolicy
from .search import GumbelSearch


class AZAgent:
    def __init__(
        self, policy: NumpyPolicy, simulations: int = 64, considered: int = 16, seed: int | None = None
    ):
        if not isinstance(policy, NumpyPolicy):
            raise TypeError(f"policy must be a NumpyPolicy, got {type(policy).__name__}")
        self.policy = policy
        self.simulations = checks.integer("simulations", simulations, 0)
        self.considered = checks.integer("considered", considered, 1)
        checked = checks.seed("seed", seed)
        self.seed = 0 if checked is None else checked
        self._search: GumbelSearch | None = None  # the last env's, while its rules stay

    def evaluate(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The network's logits and values, clipped to [-1, 1], for the search."""
        return self.policy.logits(obs, mask), np.clip(self.policy.value(obs), -1.0, 1.0)

    def act(self, env) -> int:
        raw = suite_env(env, self.policy.meta["game"])
        obs = raw.observe(raw.agent_selection)
        if self.simulations == 0:
            return int(self.policy.act(obs["observation"][None], obs["action_mask"][None])[0])
        if self._search is None or self._search.rules is not raw.rules:
            self._search = GumbelSearch(
                raw.rules, self.evaluate, self.simulations, self.considered, gumbel_scale=0.0, seed=self.seed
            )
        movers = np.array([raw.possible_agents.index(raw.agent_selection)])
        chosen, _ = self._search.run(raw.state, movers, obs["observation"].size)
        return int(chosen[0])

    def __repr__(self) -> str:
        return f"AZAgent(simulations={self.simulations}, considered={self.considered})"
