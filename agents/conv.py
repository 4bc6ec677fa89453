"""A small residual conv trunk over a game's observation planes, in numpy.

A policy file may start with convolutions that see the planes as planes
(meta ``"conv": {"channels": C, "blocks": B}``): a 3x3 convolution from the
observation's planes to ``C`` channels, then ``B`` residual blocks of two
3x3 convolutions (``relu(h + conv(relu(conv(h))))``), every one padded to
keep the board's size, ``relu`` after each. Its output, flattened as torch
flattens ``(C, H, W)``, feeds the ``tanh`` layers of the policy's trunk.
The arrays are ``conv_0_w`` ``(C, planes, 3, 3)``, ``conv_0_b`` ``(C,)``,
then ``conv_1`` to ``conv_2B``, each ``(C, C, 3, 3)``: torch's ``Conv2d``
layout, so that :mod:`azgames.training.net` copies them as they are.

No batch norm: the forward pass stays a handful of matrix products, the
same with one position or a batch.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

KERNEL = 3
MAX_CHANNELS = 256
MAX_BLOCKS = 16


def conv_names(blocks: int) -> list[str]:
    """The layers' names: the stem, then two a residual block."""
    return [f"conv_{k}" for k in range(1 + 2 * blocks)]


def check_conv(convs, meta: dict, where: str) -> tuple[list[tuple[np.ndarray, np.ndarray]], int]:
    """``convs`` checked against ``meta["conv"]`` and the observation's
    shape: float32 ``(w, b)`` pairs and the size of the flattened output
    (what the trunk's first layer takes); ValueError starting with
    ``where`` naming the layer otherwise."""
    spec = meta["conv"]
    if not isinstance(spec, dict) or set(spec) != {"channels", "blocks"}:
        raise ValueError(f"{where}: meta 'conv' is not {{'channels': C, 'blocks': B}}")
    channels, blocks = spec["channels"], spec["blocks"]
    for key, value, low, most in (("channels", channels, 1, MAX_CHANNELS), ("blocks", blocks, 0, MAX_BLOCKS)):
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= most:
            raise ValueError(f"{where}: meta conv {key!r} is not an integer from {low} to {most}")
    obs_shape = meta["obs_shape"]
    if len(obs_shape) != 3:
        raise ValueError(
            f"{where}: a conv trunk needs planes (an obs_shape of (planes, height, width)), "
            f"not {tuple(obs_shape)}"
        )
    planes, height, width = (int(d) for d in obs_shape)
    convs = list(convs)
    names = conv_names(blocks)
    if len(convs) != len(names):
        raise ValueError(f"{where}: {len(convs)} conv layers; meta conv (blocks={blocks}) has {len(names)}")
    out = []
    for name, pair in zip(names, convs):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise ValueError(f"{where}: layer {name} is not a pair (w, b)")
        w, b = (np.asarray(a) for a in pair)
        want = (channels, planes if name == "conv_0" else channels, KERNEL, KERNEL)
        if w.dtype.kind != "f" or b.dtype.kind != "f":
            raise ValueError(
                f"{where}: {name} holds {w.dtype if w.dtype.kind != 'f' else b.dtype}, not floats"
            )
        if w.shape != want:
            raise ValueError(f"{where}: {name}_w has shape {w.shape}, not {want}")
        if b.shape != (channels,):
            raise ValueError(f"{where}: {name}_b has shape {b.shape}, not ({channels},)")
        with np.errstate(over="ignore", invalid="ignore"):
            pair = (w.astype(np.float32), b.astype(np.float32))
        if not all(np.isfinite(a).all() for a in pair):
            raise ValueError(f"{where}: {name} holds NaN, infinite or float32-overflowing weights")
        out.append(pair)
    return out, channels * height * width


def _conv(h: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A padded 3x3 convolution (torch's cross-correlation) of ``h``
    ``(N, H, W, C)``: im2col, then one matrix product."""
    n, height, width, c = h.shape
    padded = np.pad(h, ((0, 0), (1, 1), (1, 1), (0, 0)))
    cols = sliding_window_view(padded, (KERNEL, KERNEL), axis=(1, 2))  # (N, H, W, C, 3, 3)
    out = cols.reshape(n * height * width, c * KERNEL * KERNEL) @ w.reshape(len(w), -1).T + b
    return out.reshape(n, height, width, len(w))


def conv_features(obs: np.ndarray, convs) -> np.ndarray:
    """The conv trunk's output for planes ``(N, planes, H, W)``, flattened
    ``(N, C * H * W)`` in torch's order."""
    h = np.maximum(_conv(np.asarray(obs, np.float32).transpose(0, 2, 3, 1), *convs[0]), 0.0)
    for k in range(1, len(convs), 2):
        inner = np.maximum(_conv(h, *convs[k]), 0.0)
        h = np.maximum(h + _conv(inner, *convs[k + 1]), 0.0)
    return h.transpose(0, 3, 1, 2).reshape(len(h), -1)


__all__ = ["check_conv", "conv_features", "conv_names"]
