"""Azacru's hooks for the tree search (:mod:`azgames.core.search_hooks`): the
contract's own kernels (:mod:`azgames.core.contract`), a playout's estimate and
the greedy agent's move."""

from __future__ import annotations

import numpy as np

from azgames.core.contract import search_hooks
from azgames.core.jit import njit

from . import kernels as K
from .greedy import DEFAULT_REMOVAL_PENALTY, greedy_action
from .rules import AzacruRules

#: A lead of this many tiles over another player is worth tanh(1) = 0.76 of beating them.
TILE_SCALE = 5.0


@njit
def estimate(s, cfg, i, values):
    """Each player's standing where a playout is cut: the end's reward
    (the mean over opponents of beating each on tiles), each comparison
    softened to tanh(tile lead / TILE_SCALE)."""
    P = values.shape[0]
    tiles = np.zeros(P, np.int64)
    K.count_tiles(s.tiles, i, tiles)
    for p in range(P):
        total = 0.0
        for q in range(P):
            if q != p:
                total += np.tanh((tiles[p] - tiles[q]) / TILE_SCALE)
        values[p] = total / (P - 1)


@njit
def heuristic(s, cfg, i, mask):
    """Greedy's move (:mod:`.greedy`, its default options), its ties from the game's own generator."""
    K.write_mask(s, cfg, i, mask, np.int64(0))
    return greedy_action(s, i, mask[0], DEFAULT_REMOVAL_PENALTY, True)


HOOKS = search_hooks(AzacruRules, estimate=estimate, heuristic=heuristic)
