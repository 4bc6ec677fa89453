"""A game's vector env as a Stable-Baselines3 ``VecEnv``, masks included.

:class:`SB3VecEnv` wraps a :class:`~azgames.training.learner_env.LearnerVecEnv`:
every one of its ``num_envs`` games is one of SB3's envs, the learner's seat,
with the opponents moving inside ``step`` (batched).

Masks: sb3-contrib's ``MaskablePPO`` gets them as
``np.stack(venv.env_method("action_masks"))``, which expects one array per
game and loops over them in Python (0.4 ms a step for 256 games here, a
third of the env's step). So ``env_method("action_masks")`` returns a list
of *one* item, the whole ``(num_envs, num_actions)`` array: ``np.stack``
makes it ``(1, num_envs, num_actions)`` at no cost, and MaskablePPO's policy
and rollout buffer both reshape masks to ``(num_envs, num_actions)``. For
the masks as a plain array, call ``venv.action_masks()``.

    from sb3_contrib import MaskablePPO
    from azgames.training.sb3 import SB3VecEnv

    venv = SB3VecEnv("azacru", num_envs=64, opponents=["random"], seed=0)
    MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=1024).learn(100_000)

Torch runs on one thread (``torch_threads=1``, the default; ``None`` leaves
it as it is): the policies are small, and torch's default team halved a
MaskablePPO loop's rate on 2 cores.

Episodes end with ``done``; a game ended by the turn limit also reports
``info["TimeLimit.truncated"]``. There is no ``terminal_observation``: the
vector env restarts a finished game inside its kernel, so SB3 treats a
truncation as an end (these games truncate only at their turn cap).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from azgames.core import checks

from .learner_env import LearnerVecEnv


class SB3VecEnv(VecEnv):
    """``num_envs`` games of ``game`` for SB3: the learner's seat in each, opponents inside ``step``."""

    def __init__(
        self,
        game: str,
        num_envs: int = 64,
        num_players: int = 2,
        seed: int | None = 0,
        opponents: Sequence[Any] = ("random",),
        weights: Sequence[float] | None = None,
        seat: int | str = "random",
        torch_threads: int | None = 1,
        **options: Any,
    ):
        self.learner = LearnerVecEnv(
            game,
            num_envs,
            num_players=num_players,
            seed=seed,
            opponents=opponents,
            weights=weights,
            seat=seat,
            **options,
        )
        # SB3's policies here are small MLPs: a MaskablePPO loop on 16 games ran
        # at half the speed on torch's default team (a thread per core, 2 cores;
        # benchmarks/contention.py), its threads waking for matrices too small
        # to share; SB3's RL Zoo sets one thread too. None leaves torch alone.
        # Set after the env: starting numba's OpenMP pool (its first batch)
        # resets the team size torch reads where both share one OpenMP runtime.
        if torch_threads is not None:
            torch.set_num_threads(checks.integer("torch_threads", torch_threads, low=1))
        super().__init__(num_envs, self.learner.single_observation_space, self.learner.single_action_space)
        self._infos: list[dict] = [{} for _ in range(num_envs)]
        self._written: np.ndarray = np.zeros(0, np.int64)
        self._actions: np.ndarray | None = None  # set by step_async

    # ------------------------------------------------------------ VecEnv
    def reset(self) -> np.ndarray:
        seed = self._seeds[0]
        self._reset_seeds()
        self._reset_options()
        obs, _ = self.learner.reset(seed)
        return obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self):
        obs, _, reward, terminated, truncated = self.learner.step(self._actions.astype(np.int64, copy=False))
        done = terminated | truncated
        for i in self._written:  # only the games that ended last step have anything to clear
            self._infos[i].clear()
        self._written = np.flatnonzero(done)
        for i in np.flatnonzero(truncated):
            self._infos[i]["TimeLimit.truncated"] = True
        # The same dicts every step (SB3's monitor writes into those of ended games only).
        return obs.copy(), reward.copy(), done.copy(), list(self._infos)

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game, ``(num_envs, num_actions)`` bool."""
        return self.learner.action_mask

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        if method_name == "action_masks":  # one item: the whole batch (see the module docstring)
            return [self.action_masks()[self._indices(indices)]]
        raise AttributeError(f"SB3VecEnv games have no method {method_name!r} (only action_masks)")

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks"

    def get_attr(self, attr_name: str, indices=None) -> list:
        if attr_name == "render_mode":
            return [None] * len(self._indices(indices))
        raise AttributeError(f"SB3VecEnv games have no attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        raise AttributeError(f"SB3VecEnv games have no attribute {attr_name!r} to set")

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def close(self) -> None:
        pass

    def _indices(self, indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
