"""Azimuth co-op's hooks for the tree search (:mod:`azgames.core.search_hooks`):
the contract's own kernels and the team's estimate."""

from __future__ import annotations

import numpy as np

from azgames.core.contract import search_hooks
from azgames.core.jit import njit

from ..board import AT_HOME
from . import kernels as K
from .greedy import castaway_cost
from .rules import CoopRules

#: Actions still needed (the greedy's h) at which a castaway counts for
#: exp(-1) of one at home in the estimate.
COST_SCALE = 6.0
#: The most an estimate is worth: less than the win (1), so that the search
#: still tells the last landing from the moves around it.
ESTIMATE_CAP = 0.9


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


# Random playouts of the co-op save no one (the random team won none of
# 9,000 games): a playout's worth is the estimate at once. The search observes
# only the agent to act, who sees the game as the colour it is playing now.
HOOKS = search_hooks(CoopRules, estimate=estimate, die_faces=K.FACES, max_playout=0)
