"""A game's symmetries, as data a trainer can apply to its samples.

A game whose rules look the same after a transformation of its board (the
square's rotations and reflections, say) declares it (``Rules.symmetries``,
a module with ``symmetries(rules) -> list[Symmetry]``): the transformed
position is a position of the same game, with the same value, whose legal
moves and whose search's preferences move with it. A :class:`Symmetry` is a
signed gather over the flattened observation and a gather over the actions,
so that applying one to a minibatch is two numpy indexing operations.
"""

from __future__ import annotations

import importlib
from typing import NamedTuple

import numpy as np


class Symmetry(NamedTuple):
    """One transformation: ``obs'[:, f] = obs_sign[f] * obs[:, obs_index[f]]``
    for the flattened observation, ``row'[:, a] = row[:, action_index[a]]``
    for anything indexed by action (the legal mask, a policy)."""

    obs_index: np.ndarray  # (F,) int64
    obs_sign: np.ndarray  # (F,) int8, each -1 or 1
    action_index: np.ndarray  # (A,) int64, a permutation

    def observations(self, flat: np.ndarray) -> np.ndarray:
        return flat[:, self.obs_index] * self.obs_sign.astype(flat.dtype)

    def actions(self, rows: np.ndarray) -> np.ndarray:
        return rows[:, self.action_index]


def symmetries(rules) -> list[Symmetry]:
    """The symmetries ``rules`` declares besides the identity ([] if none)."""
    module = type(rules).symmetries
    return [] if module is None else importlib.import_module(module).symmetries(rules)


__all__ = ["Symmetry", "symmetries"]
