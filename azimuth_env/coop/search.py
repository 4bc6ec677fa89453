"""Azimuth co-op's hooks for the tree search (:mod:`azgames.search_hooks`), over its kernels."""

from __future__ import annotations

import numpy as np

from azgames.jit import njit
from azgames.search_hooks import SearchHooks

from . import kernels as K
from .rules import CoopState


@njit
def legal(s, cfg, i, mask):
    K.write_mask_coop(
        s.stack,
        s.height,
        s.wind_colour,
        s.wind_owner,
        s.wind_dir,
        s.hand,
        s.coconuts,
        s.castaway,
        s.beach,
        s.turtle,
        s.wave,
        s.asleep,
        s.pending,
        i,
        np.int64(s.player[i]),
        cfg,
        mask,
        np.int64(0),
    )


@njit
def play(s, cfg, i, action, rewards):
    return K.play(
        s.stack,
        s.height,
        s.wind_colour,
        s.wind_owner,
        s.wind_dir,
        s.hand,
        s.coconuts,
        s.castaway,
        s.beach,
        s.player,
        s.ply,
        s.outcome,
        s.rng,
        s.first,
        s.round,
        s.turn,
        s.face,
        s.rolled,
        s.asleep,
        s.turtle,
        s.wave,
        s.pending,
        s.forced,
        i,
        action,
        cfg,
        rewards,
    )


def config(rules):
    return rules.config


HOOKS = SearchHooks(CoopState, legal, play, config, die_faces=K.FACES)
