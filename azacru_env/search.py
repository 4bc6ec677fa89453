"""Azacru's hooks for the tree search (:mod:`azgames.search_hooks`), over its kernels."""

from __future__ import annotations

import numpy as np

from azgames.jit import njit, njit_inline
from azgames.search_hooks import SearchHooks

from . import kernels as K
from .greedy import DEFAULT_REMOVAL_PENALTY, greedy_action
from .rules import AzacruState


@njit_inline
def legal(s, cfg, i, mask):
    K.write_mask(s.tiles, s.occupant, s.piece_field, s.piece_facing, i, s.player[i], mask, 0)


@njit_inline
def play(s, cfg, i, action, rewards):
    return K.play(
        s.tiles,
        s.occupant,
        s.piece_field,
        s.piece_facing,
        s.player,
        s.turns_left,
        s.ply,
        s.outcome,
        i,
        action,
        cfg[0],
        rewards,
    )


@njit_inline
def observe(s, cfg, i, viewer, obs):
    K.write_observation(
        s.tiles,
        s.occupant,
        s.piece_field,
        s.piece_facing,
        s.turns_left,
        i,
        viewer,
        obs.reshape((1, obs.size)),
        0,
    )


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
    legal(s, cfg, i, mask)
    return greedy_action(
        s.tiles,
        s.occupant,
        s.piece_field,
        s.piece_facing,
        s.player,
        s.rng,
        mask[0],
        i,
        DEFAULT_REMOVAL_PENALTY,
        True,
    )


def config(rules):
    return (np.int64(rules.max_turns),)


HOOKS = SearchHooks(
    AzacruState, legal, play, config, estimate=estimate, observe=observe, inline=True, heuristic=heuristic
)
