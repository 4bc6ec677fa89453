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


@njit
def observe(s, cfg, i, viewer, obs):
    # The search observes only the agent to act, who sees the game as the
    # colour it is playing now. The shared kernel writes that colour's mask
    # with its planes; the search asks for the mask apart (legal): scratch.
    mask = np.zeros((1, cfg.num_actions), np.int8)
    K.observe_colour(
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
        s.outcome,
        s.first,
        s.round,
        s.turn,
        s.face,
        s.asleep,
        s.turtle,
        s.wave,
        s.pending,
        i,
        np.int64(s.player[i]),
        cfg,
        obs.reshape((1, obs.size)),
        mask,
        np.int64(0),
    )


def config(rules):
    return rules.config


HOOKS = SearchHooks(CoopState, legal, play, config, observe=observe, die_faces=K.FACES)
