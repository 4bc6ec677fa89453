"""Azimuth co-op's hooks for the tree search (:mod:`azgames.search_hooks`), over its kernels."""

from __future__ import annotations

import numpy as np

from azgames.jit import njit
from azgames.search_hooks import SearchHooks

from ..board import AT_HOME
from . import kernels as K
from .greedy import castaway_cost
from .rules import CoopState

#: Actions still needed (the greedy's h) at which a castaway counts for
#: exp(-1) of one at home in the estimate.
COST_SCALE = 6.0
#: The most an estimate is worth: less than the win (1), so that the search
#: still tells the last landing from the moves around it.
ESTIMATE_CAP = 0.9


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


@njit
def estimate(s, cfg, i, values):
    """The team's progress, the same for every agent: each castaway counts 1
    at home and ``exp(-h / COST_SCALE)`` away (``h`` the greedy's estimate of
    the actions its colour still needs), their mean mapped onto
    [-0.9, 0.9] (:data:`ESTIMATE_CAP`). The rounds left are not counted."""
    progress = 0.0
    for q in range(K.COLOURS):
        if s.castaway[i, q] == AT_HOME:
            progress += 1.0
        else:
            progress += np.exp(-castaway_cost(s, i, q, cfg) / COST_SCALE)
    value = ESTIMATE_CAP * (2.0 * progress / K.COLOURS - 1.0)
    for p in range(values.shape[0]):
        values[p] = value


def config(rules):
    return rules.config


# Random playouts of the co-op save no one (the random team won none of
# 9,000 games): a playout's worth is the estimate at once.
HOOKS = SearchHooks(
    CoopState, legal, play, config, estimate=estimate, observe=observe, die_faces=K.FACES, max_playout=0
)
