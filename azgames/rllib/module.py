"""The masked policy-and-value network as an RLlib ``RLModule`` for PPO.

:class:`MaskedPPOTorchRLModule` holds the suite's own network
(:class:`azgames.training.net.Net`: flattened planes, a ``tanh`` trunk, a
logits head and a value head), so that a module trained on RLlib converts
to the torch-free :class:`~azgames.agents.policy.NumpyPolicy` that the
``ppo`` agents, ``python -m azgames play`` and the tournament load
(:func:`to_numpy_policy`).

The mask is applied inside the module, in every forward pass: illegal
actions get a logit of -1e8, so RLlib's categorical distribution gives them
probability 0 in sampling, in the greedy action of evaluation and in PPO's
loss. The observation is the env's ``{"observations", "action_mask"}``
(:class:`~azgames.rllib.env.TurnBasedEnv`).

``model_config``: ``{"hidden": (128, 128)}``, the trunk's widths.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule

from azgames.agents.policy import NumpyPolicy
from azgames.training.net import Net

DEFAULT_HIDDEN = (128, 128)


class MaskedPPOTorchRLModule(TorchRLModule, ValueFunctionAPI):
    """Masked logits and a value from the suite's :class:`~azgames.training.net.Net`."""

    def setup(self):
        hidden = tuple(int(h) for h in (self.model_config or {}).get("hidden", DEFAULT_HIDDEN))
        self.net = Net(self.observation_space["observations"].shape[0], self.action_space.n, hidden)

    def _masked_logits(self, obs: dict, features: torch.Tensor) -> torch.Tensor:
        return self.net.policy(features).masked_fill(obs["action_mask"] < 0.5, -1e8)

    def _forward(self, batch, **kwargs):
        obs = batch[Columns.OBS]
        return {Columns.ACTION_DIST_INPUTS: self._masked_logits(obs, self.net.trunk(obs["observations"]))}

    def _forward_train(self, batch, **kwargs):
        obs = batch[Columns.OBS]
        features = self.net.trunk(obs["observations"])
        return {Columns.ACTION_DIST_INPUTS: self._masked_logits(obs, features), Columns.EMBEDDINGS: features}

    def compute_values(self, batch, embeddings=None):
        if embeddings is None:
            embeddings = self.net.trunk(batch[Columns.OBS]["observations"])
        return self.net.value(embeddings).squeeze(-1)


def policy_meta(env_config: dict, obs_shape: tuple[int, ...], hidden) -> dict:
    """The :class:`NumpyPolicy` meta of a module trained on ``env_config``'s game."""
    return {
        "game": env_config["game"],
        "num_players": env_config["num_players"],
        "options": env_config["options"],
        "obs_shape": list(obs_shape),
        "hidden": list(hidden),
        "activation": "tanh",
    }


def to_numpy_policy(module: MaskedPPOTorchRLModule, meta: dict) -> NumpyPolicy:
    """The module's network as a :class:`NumpyPolicy` (plays without torch or ray)."""
    return module.net.to_numpy(meta)


def numpy_policy(state: dict, meta: dict) -> NumpyPolicy:
    """A :class:`NumpyPolicy` from the module's state dict, as RLlib's
    ``LearnerGroup.get_weights`` gives it (tensors or arrays), shaped by ``meta``."""
    weights = {
        k[len("net.") :]: torch.as_tensor(np.asarray(v)) for k, v in state.items() if k.startswith("net.")
    }
    net = Net(int(np.prod(meta["obs_shape"])), weights["policy.weight"].shape[0], tuple(meta["hidden"]))
    net.load_state_dict(weights)
    return net.to_numpy(meta)


def policy_from_checkpoint(checkpoint, module_id: str = "main") -> NumpyPolicy:
    """Module ``module_id`` of an RLlib checkpoint of PPO on
    :class:`~azgames.rllib.env.TurnBasedEnv` with this module (the recipe's,
    or a run of your own) as a :class:`NumpyPolicy`, its meta read from the
    checkpoint's env config.

    An RLlib checkpoint is pickles (``class_and_ctor_args.pkl``, the module's
    state): loading one runs whatever code it holds, so only load checkpoints
    you trust (your own runs'). The policy files it converts to are plain
    arrays, safe to share: :meth:`NumpyPolicy.load` reads no pickle."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    from .env import TurnBasedEnv, env_config

    path = Path(checkpoint)
    module_dir = path / "learner_group" / "learner" / "rl_module" / module_id
    if not module_dir.is_dir():
        raise ValueError(
            f"{path} is not an RLlib checkpoint holding a module {module_id!r} (no {module_dir})"
        )
    with (path / "class_and_ctor_args.pkl").open("rb") as f:
        algorithm_config = pickle.load(f)["ctor_args_and_kwargs"][0][0]
    module = RLModule.from_checkpoint(module_dir)
    if not isinstance(module, MaskedPPOTorchRLModule):
        raise ValueError(
            f"module {module_id!r} of {path} is a {type(module).__name__}, not a MaskedPPOTorchRLModule"
        )
    env = TurnBasedEnv(env_config(algorithm_config["env_config"]))
    shape = env.game.observation_space(env.seats[0])["observation"].shape
    hidden = [layer.out_features for layer in module.net.trunk if isinstance(layer, torch.nn.Linear)]
    return to_numpy_policy(module, policy_meta(env.config, shape, hidden))
