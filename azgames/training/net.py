"""The policy-and-value network of the suite's trainers, in torch.

:class:`Net` is flattened observation planes (or, with ``conv``, a small
residual conv trunk over the planes first: :mod:`azgames.agents.conv`), a
``tanh`` trunk, then action logits (illegal actions masked to -1e8) and a
value: what
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


class ConvTrunk(nn.Module):
    """A 3x3 conv to ``channels``, then ``blocks`` residual blocks of two,
    ``relu`` after each (:mod:`azgames.agents.conv` computes it in numpy)."""

    def __init__(self, obs_shape: tuple[int, int, int], channels: int, blocks: int):
        super().__init__()
        self.obs_shape = tuple(obs_shape)
        sizes = [(obs_shape[0], channels)] + [(channels, channels)] * (2 * blocks)
        self.convs = nn.ModuleList(nn.Conv2d(a, b, 3, padding=1) for a, b in sizes)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.convs[0](obs.reshape(len(obs), *self.obs_shape).float()))
        for k in range(1, len(self.convs), 2):
            h = torch.relu(h + self.convs[k + 1](torch.relu(self.convs[k](h))))
        return h.flatten(1)


class Net(nn.Module):
    """Flattened planes (or a :class:`ConvTrunk`'s features) -> tanh trunk ->
    action logits and a value (as NumpyPolicy computes): the mover's, or with
    ``values`` > 1 one for each player, counted in seats from the mover
    (``forward`` then gives (B, values)). ``obs_shape`` is the observation's
    size, or with ``conv`` (``{"channels": C, "blocks": B}``) its shape."""

    def __init__(
        self, obs_shape, num_actions: int, hidden: tuple[int, ...], values: int = 1, conv: dict | None = None
    ):
        super().__init__()
        self.conv: ConvTrunk | None = None
        if conv is None:
            last = int(torch.tensor(obs_shape).prod())
        else:
            self.conv = ConvTrunk(obs_shape, conv["channels"], conv["blocks"])
            last = conv["channels"] * obs_shape[1] * obs_shape[2]
        layers = []
        for h in hidden:
            layers += [layer(last, h), nn.Tanh()]
            last = h
        self.trunk = nn.Sequential(*layers)
        self.policy = layer(last, num_actions, std=0.01)
        self.value = layer(last, values, std=1.0)

    def conv_layers(self) -> list[nn.Conv2d]:
        return [] if self.conv is None else [m for m in self.conv.convs if isinstance(m, nn.Conv2d)]

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.trunk(obs.flatten(1).float() if self.conv is None else self.conv(obs))
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
        convs = self.conv_layers()
        if [tuple(m.weight.shape) for m in convs] != [w.shape for w, _ in policy.convs]:
            raise ValueError(
                f"the policy's conv layers {[w.shape for w, _ in policy.convs]} do not match "
                f"this network's {[tuple(m.weight.shape) for m in convs]}"
            )
        if [tuple(m.weight.shape[::-1]) for m in linears] != [w.shape for w, _ in pairs]:
            raise ValueError(
                f"the policy's layers {[w.shape for w, _ in pairs]} do not match this "
                f"network's {[tuple(m.weight.shape[::-1]) for m in linears]}"
            )
        with torch.no_grad():
            for m, (w, b) in zip(linears, pairs):
                m.weight.copy_(torch.from_numpy(w.T.copy()))
                m.bias.copy_(torch.from_numpy(b.reshape(-1).copy()))
            for conv, (w, b) in zip(convs, policy.convs):
                conv.weight.copy_(torch.from_numpy(w.copy()))
                assert conv.bias is not None  # every conv here has one
                conv.bias.copy_(torch.from_numpy(b.copy()))

    def to_numpy(self, meta: dict) -> NumpyPolicy:
        linears = [m for m in self.trunk if isinstance(m, nn.Linear)]
        convs = self.conv_layers()

        def as_np(lin: nn.Linear) -> tuple:
            return lin.weight.detach().cpu().numpy().T.copy(), lin.bias.detach().cpu().numpy().copy()

        def as_conv(c: nn.Conv2d) -> tuple:
            assert c.bias is not None  # every conv here has one
            return c.weight.detach().cpu().numpy().copy(), c.bias.detach().cpu().numpy().copy()

        return NumpyPolicy(
            [as_np(lin) for lin in linears],
            as_np(self.policy),
            as_np(self.value),
            meta,
            convs=[as_conv(c) for c in convs],
        )


__all__ = ["ConvTrunk", "Net", "layer"]
