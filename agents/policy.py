"""A trained policy as plain numpy: the ``ppo`` agents play without torch.

The network is the training command's (:mod:`azgames.training.ppo`): the
observation planes flattened to floats, a trunk of ``tanh`` layers, then two
heads: action logits (illegal actions masked out) and a value. A policy file
is one ``.npz`` holding the weights (``trunk_0_w``, ``trunk_0_b``, ...,
``policy_w``, ``policy_b``, ``value_w``, ``value_b``; ``w`` is
``(inputs, outputs)``) and ``meta``: a JSON string naming the game, its
player count and options, the observation shape and how the file was made.

    policy = NumpyPolicy.load("azacru_2p.npz")
    logits = policy.logits(obs_batch, mask_batch)   # (N, num_actions), -inf where illegal
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np


class NumpyPolicy:
    """An MLP policy and value over a batch of observations, in numpy (float32)."""

    def __init__(self, trunk: list[tuple[np.ndarray, np.ndarray]], policy: tuple[np.ndarray, np.ndarray],
                 value: tuple[np.ndarray, np.ndarray], meta: dict[str, Any]):
        self.trunk = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in trunk]
        self.policy_head = tuple(np.asarray(a, np.float32) for a in policy)
        self.value_head = tuple(np.asarray(a, np.float32) for a in value)
        self.meta = dict(meta)
        inputs = self.trunk[0][0].shape[0] if self.trunk else self.policy_head[0].shape[0]
        if int(np.prod(meta["obs_shape"])) != inputs:
            raise ValueError(f"policy meta obs_shape {meta['obs_shape']} does not match "
                             f"the first layer's {inputs} inputs")
        self.num_actions = self.policy_head[0].shape[1]

    # ------------------------------------------------------------ files
    def save(self, path, dtype=np.float16) -> Path:
        """Write the ``.npz`` (weights stored as ``dtype``: float16 halves the
        file; :meth:`load` computes in float32 either way)."""
        arrays = {}
        for k, (w, b) in enumerate(self.trunk):
            arrays[f"trunk_{k}_w"], arrays[f"trunk_{k}_b"] = w, b
        arrays["policy_w"], arrays["policy_b"] = self.policy_head
        arrays["value_w"], arrays["value_b"] = self.value_head
        path = Path(path)
        np.savez_compressed(path, meta=np.array(json.dumps(self.meta, sort_keys=True)),
                            **{k: v.astype(dtype) for k, v in arrays.items()})
        return path

    @classmethod
    def load(cls, path) -> "NumpyPolicy":
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"no policy file at {path}")
        with np.load(path) as f:
            meta = json.loads(str(f["meta"]))
            depth = sum(1 for k in f.files if k.startswith("trunk_") and k.endswith("_w"))
            trunk = [(f[f"trunk_{k}_w"], f[f"trunk_{k}_b"]) for k in range(depth)]
            return cls(trunk, (f["policy_w"], f["policy_b"]), (f["value_w"], f["value_b"]), meta)

    # ------------------------------------------------------------ forward pass
    def features(self, obs: np.ndarray) -> np.ndarray:
        h = np.asarray(obs).reshape(len(obs), -1).astype(np.float32)
        for w, b in self.trunk:
            h = np.tanh(h @ w + b)
        return h

    def logits(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Action logits of a batch, ``-inf`` where ``mask`` is False."""
        w, b = self.policy_head
        out = self.features(obs) @ w + b
        out[~np.asarray(mask, bool)] = -np.inf
        return out

    def value(self, obs: np.ndarray) -> np.ndarray:
        """The value head: the expected final reward of the player to act."""
        w, b = self.value_head
        return (self.features(obs) @ w + b)[:, 0]

    def act(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        """One action per observation: the most likely legal action, or, given
        ``rng``, one sampled from the masked softmax."""
        logits = self.logits(obs, mask)
        if rng is None:
            return logits.argmax(axis=1)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        cdf = np.cumsum(p, axis=1)
        u = rng.random(len(cdf)) * cdf[:, -1]
        # The first action whose cumulative probability passes u: never an
        # illegal one (probability 0 leaves the sum where it was).
        picks = np.minimum((cdf <= u[:, None]).sum(axis=1), self.num_actions - 1)
        stray = ~np.asarray(mask, bool)[np.arange(len(picks)), picks]  # u rounded up to the total
        picks[stray] = logits[stray].argmax(axis=1)
        return picks


class PolicyAgent:
    """A trained policy as an agent of the suite: ``act(env) -> int``.

    ``policy`` is a :class:`NumpyPolicy`; without one, the agent plays the
    policy shipped for ``game`` and the env's player count (the registry's
    ``ppo``: ``agents/policies/<game>_<n>p.npz``). ``sample=False`` (the
    default) plays the most likely legal action; ``sample=True`` draws from
    the policy with the agent's generator."""

    name = "ppo"

    def __init__(self, policy: NumpyPolicy | None = None, seed=None, game: str | None = None,
                 sample: bool = False):
        from .base import agent_rng

        if policy is None and game is None:
            raise ValueError("PolicyAgent needs a policy or the game whose shipped policy to play")
        self.game = policy.meta["game"] if policy is not None else game
        self._policies = {} if policy is None else {policy.meta["num_players"]: policy}
        self._shipped = policy is None
        self.rng = agent_rng(seed)
        self.sample = bool(sample)

    def policy_for(self, num_players: int) -> NumpyPolicy:
        if num_players not in self._policies:
            if not self._shipped:
                (trained,) = self._policies
                raise ValueError(f"this policy was trained for {trained} players; "
                                 f"the env has {num_players}")
            self._policies[num_players] = NumpyPolicy.load(shipped_policy_path(self.game, num_players))
        return self._policies[num_players]

    def act(self, env) -> int:
        from .base import suite_env

        raw = suite_env(env, self.game)
        policy = self.policy_for(raw.rules.num_players)
        seen = raw.observe(raw.agent_selection)
        action = policy.act(seen["observation"][None], seen["action_mask"][None].astype(bool),
                            self.rng if self.sample else None)
        return int(action[0])

    def __repr__(self) -> str:
        return f"PolicyAgent({self.game}, sample={self.sample})"


def shipped_policy_path(game: str, num_players: int) -> Path:
    """Where the package keeps the trained ``ppo`` policy of ``game`` with ``num_players``."""
    path = Path(__file__).resolve().parent / "policies" / f"{game}_{num_players}p.npz"
    if not path.is_file():
        raise ValueError(f"no trained ppo policy ships for {game} with {num_players} players "
                         f"({path.name}); train one: python -m azgames train {game} "
                         f"--players {num_players}")
    return path
