"""Azure Attack's hooks for the tree search (:mod:`azgames.search_hooks`), over its kernels."""

from __future__ import annotations

import numpy as np

from azgames.jit import njit, njit_inline
from azgames.search_hooks import SearchHooks

from . import kernels as K
from .greedy import greedy_action
from .rules import AzureState


@njit_inline
def legal(s, cfg, i, mask):
    K.write_mask(cfg[0], s.pos, s.slot_owner, s.trail, s.steps, i, s.player[i], cfg[1], mask[0])


@njit_inline
def play(s, cfg, i, action, rewards):
    return K.play(
        s.pos,
        s.home,
        s.slot_owner,
        s.order,
        s.coin_value,
        s.coin_loc,
        s.player,
        s.steps,
        s.trail,
        s.next_hunter,
        s.hunter_turns,
        s.turns,
        s.outcome,
        s.forced,
        s.fight,
        s.rng,
        i,
        action,
        cfg[0],
        cfg[1],
        cfg[2],
        rewards,
    )


@njit_inline
def observe(s, cfg, i, viewer, obs):
    K.write_observation(
        s.pos,
        s.slot_owner,
        s.order,
        s.coin_value,
        s.coin_loc,
        s.player,
        s.steps,
        s.trail,
        s.next_hunter,
        s.hunter_turns,
        i,
        viewer,
        cfg[0],
        cfg[1],
        obs,
    )


#: Gold of lead that makes a position worth tanh(1) = 0.76 of a win.
LEAD_SCALE = 5.0


@njit
def estimate(s, cfg, i, values):
    """The hunters' lead in gold over the monster (banked, plus half of what
    each side carries), squashed by tanh: the hunters' value, the monster's
    its negative."""
    S = cfg[1]
    lead = 0.0
    for k in range(s.coin_loc.shape[1]):
        loc = np.int64(s.coin_loc[i, k])
        v = np.float64(s.coin_value[i, k])
        if loc == S + K.BANKED + K.MONSTER:
            lead -= v
        elif S + K.BANKED < loc < S + K.OUT:
            lead += v
        elif loc == S + K.CARRIED + K.MONSTER:
            lead -= 0.5 * v
        elif S + K.CARRIED < loc < S + K.BANKED:
            lead += 0.5 * v
    x = np.tanh(lead / LEAD_SCALE)
    values[0] = 0.0 - x  # not -x: no -0.0
    for q in range(1, values.shape[0]):
        values[q] = x


@njit
def heuristic(s, cfg, i, mask):
    """Greedy's move (:mod:`.greedy`), its ties from the game's own generator."""
    legal(s, cfg, i, mask)
    return greedy_action(
        cfg[0],
        cfg[1],
        s.pos,
        s.home,
        s.slot_owner,
        s.coin_value,
        s.coin_loc,
        s.player,
        s.steps,
        s.rng,
        i,
        mask[0],
    )


def config(rules):
    return (rules.tables, np.int64(rules.S), np.int64(rules.max_turns))


# Random games last about 450 steps: cut at 20, the search runs 20 times as
# many simulations, and beat greedy in a first 10 games.
HOOKS = SearchHooks(
    AzureState,
    legal,
    play,
    config,
    estimate=estimate,
    observe=observe,
    inline=True,
    max_playout=20,
    die_faces=K.DIE_FACES,
    heuristic=heuristic,
)
