"""Azacru's hooks for the tree search (:mod:`azgames.search_hooks`), over its kernels."""

from __future__ import annotations

import numpy as np

from azgames.jit import njit_inline
from azgames.search_hooks import SearchHooks

from . import kernels as K
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


def config(rules):
    return (np.int64(rules.max_turns),)


HOOKS = SearchHooks(AzacruState, legal, play, config, observe=observe, inline=True)
