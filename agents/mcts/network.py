"""A trained policy's forward pass inside the search, in numba.

The policy-guided search (AlphaZero's use of a network) asks a
:class:`~azgames.agents.policy.NumpyPolicy` for a node's action priors and
value at every expansion, one position at a time. :func:`forward` is that
policy's MLP (``tanh`` trunk, policy and value heads) over the flat int8
observation the game's ``observe`` wrote into ``net.obs``; it skips the
observation's zeros (most of a board's planes), and accumulates in float64.
It agrees with ``NumpyPolicy`` to float32 rounding (tested).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from azgames.core.jit import njit


class Net(NamedTuple):
    trunk_w: tuple  # of (inputs, outputs) float32 arrays, one per trunk layer
    trunk_b: tuple  # of (outputs,) float32 arrays
    policy_w: np.ndarray  # (hidden, actions) float32
    policy_b: np.ndarray  # (actions,) float32
    value_w: np.ndarray  # (hidden, 1) float32
    value_b: np.ndarray  # (1,) float32
    obs: np.ndarray  # (inputs,) int8: the observation, written by the game's ``observe``
    hidden: np.ndarray  # (2, widest layer) float64: activations, in and out
    logits: np.ndarray  # (actions,) float64: the forward pass's action logits
    others: float  # the value of the other agents, per unit of the mover's: -1 (two sides)


def net_from_policy(policy, others: float = -1.0) -> Net:
    """The :class:`Net` of a ``NumpyPolicy`` (its weights as contiguous float32)."""

    def f32(a):
        return np.ascontiguousarray(a, np.float32)

    widths = [w.shape[1] for w, _ in policy.trunk]
    inputs = policy.trunk[0][0].shape[0]
    return Net(
        trunk_w=tuple(f32(w) for w, _ in policy.trunk),
        trunk_b=tuple(f32(b) for _, b in policy.trunk),
        policy_w=f32(policy.policy_head[0]),
        policy_b=f32(policy.policy_head[1]),
        value_w=f32(policy.value_head[0]),
        value_b=f32(policy.value_head[1]),
        obs=np.zeros(inputs, np.int8),
        hidden=np.zeros((2, max(widths))),
        logits=np.zeros(policy.num_actions),
        others=float(others),
    )


@njit
def _dense(x, width, w, b, out):
    """``out[:m] = x[:width] @ w + b`` (``w`` is (width, m)), skipping zero inputs."""
    m = w.shape[1]
    for j in range(m):
        out[j] = b[j]
    for k in range(width):
        xk = np.float64(x[k])
        if xk != 0.0:
            for j in range(m):
                out[j] += xk * w[k, j]
    return m


@njit
def forward(net):
    """The policy's logits (into ``net.logits``) and value for ``net.obs``."""
    h = net.hidden
    width = _dense(net.obs, net.obs.shape[0], net.trunk_w[0], net.trunk_b[0], h[0])
    for j in range(width):
        h[0, j] = np.tanh(h[0, j])
    src = 0
    for layer in range(1, len(net.trunk_w)):
        width = _dense(h[src], width, net.trunk_w[layer], net.trunk_b[layer], h[1 - src])
        src = 1 - src
        for j in range(width):
            h[src, j] = np.tanh(h[src, j])
    _dense(h[src], width, net.policy_w, net.policy_b, net.logits)
    value = np.float64(net.value_b[0])
    for k in range(width):
        value += h[src, k] * net.value_w[k, 0]
    return value
