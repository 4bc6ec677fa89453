"""Connect Four's vector step written out by hand over the game's own rule
functions, without the kernel contract (``benchmarks/connect_four.py``'s
"the same rules, no contract" rows): what the contract itself costs.

A module of its own, imported by the benchmark: numba's cache of a kernel
defined in a script run by ``runpy`` (the benchmark's smoke test) names no
module it can import again, and a second run failed loading it.
"""

from __future__ import annotations

import numpy as np

import azgames
from azgames.core.batch import first_illegal, random_legal_actions
from azgames.core.game import ONGOING
from azgames.core.jit import njit_parallel, prange
from connect_four_env import rules as C4


@njit_parallel
def direct_step(s, actions, obs, mask, rewards, terminated, player_out):
    """The vector step written out by hand over Connect Four's own functions."""
    cfg = ()
    if first_illegal(actions, mask) >= 0:
        return 0
    for i in prange(actions.shape[0]):
        C4.play(s, cfg, i, actions[i], rewards)
        terminated[i] = s.outcome[i] != ONGOING
        if terminated[i]:
            C4.reset_game(s, cfg, i)
        player_out[i] = s.player[i]
        C4.write_observation(s, cfg, i, s.player[i], obs, i)
        C4.write_mask(s, cfg, i, mask, i)
    return -1


class DirectVec:
    """``num_envs`` games stepped by :func:`direct_step`: the rules without the contract."""

    def __init__(self, num_envs: int, seed: int = 0) -> None:
        venv = azgames.make_vec("connect_four", num_envs=num_envs, seed=seed)
        self.state, self.mask = venv.state, venv.action_mask.view(np.int8).copy()
        self.obs = np.zeros((num_envs, 84), np.int8)
        self.rewards = np.zeros((num_envs, 2), np.float32)
        self.terminated = np.zeros(num_envs, np.bool_)
        self.player = np.zeros(num_envs, np.int8)
        self.actions = np.zeros(num_envs, np.int64)

    def random_actions(self) -> np.ndarray:
        random_legal_actions(self.state.rng, self.mask, self.actions)
        return self.actions

    def step(self, actions: np.ndarray) -> None:
        direct_step(self.state, actions, self.obs, self.mask, self.rewards, self.terminated, self.player)
