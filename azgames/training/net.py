"""The policy-and-value network of the suite's trainers, in torch.

:class:`Net` is flattened observation planes, a ``tanh`` trunk, then action
logits (illegal actions masked to -1e8) and a value: what
:class:`~azgames.agents.policy.NumpyPolicy` computes without torch, and what
:mod:`azgames.training.ppo` and the RLlib module
(:mod:`azgames.rllib.module`) train. Needs torch (the ``train`` extra).
"""

from __future__ import annotations

import torch
from torch import nn

from azgames.agents.policy import NumpyPolicy


def layer(n_in: int, n_out: int, std: float = 2**0.5) -> nn.Linear:
    lin = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(lin.weight, std)
    nn.init.zeros_(lin.bias)
    return lin


class Net(nn.Module):
    """Flattened planes -> tanh trunk -> action logits and a value (as
    NumpyPolicy computes): the mover's, or with ``values`` > 1 one for each
    player, counted in seats from the mover (``forward`` then gives (B, values))."""

    def __init__(self, obs_size: int, num_actions: int, hidden: tuple[int, ...], values: int = 1):
        super().__init__()
        layers, last = [], obs_size
        for h in hidden:
            layers += [layer(last, h), nn.Tanh()]
            last = h
        self.trunk = nn.Sequential(*layers)
        self.policy = layer(last, num_actions, std=0.01)
        self.value = layer(last, values, std=1.0)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.trunk(obs.flatten(1).float())
        logits = self.policy(h).masked_fill(~mask, -1e8)
        value = self.value(h)
        return logits, value[:, 0] if value.shape[1] == 1 else value

    def load_numpy(self, policy: NumpyPolicy, value_head: bool = True) -> None:
        """Take ``policy``'s weights (a :meth:`to_numpy` of the same shape);
        all but the value head's without ``value_head``."""
        linears = [m for m in self.trunk if isinstance(m, nn.Linear)] + [self.policy]
        pairs = list(policy.trunk) + [policy.policy_head]
        if value_head:
            linears.append(self.value)
            pairs.append(policy.value_head)
        if [tuple(m.weight.shape[::-1]) for m in linears] != [w.shape for w, _ in pairs]:
            raise ValueError(
                f"the policy's layers {[w.shape for w, _ in pairs]} do not match this "
                f"network's {[tuple(m.weight.shape[::-1]) for m in linears]}"
            )
        with torch.no_grad():
            for m, (w, b) in zip(linears, pairs):
                m.weight.copy_(torch.from_numpy(w.T.copy()))
                m.bias.copy_(torch.from_numpy(b.reshape(-1).copy()))

    def to_numpy(self, meta: dict) -> NumpyPolicy:
        linears = [m for m in self.trunk if isinstance(m, nn.Linear)]
        as_np = lambda lin: (lin.weight.detach().numpy().T.copy(), lin.bias.detach().numpy().copy())  # noqa: E731
        return NumpyPolicy([as_np(lin) for lin in linears], as_np(self.policy), as_np(self.value), meta)


__all__ = ["Net", "layer"]
