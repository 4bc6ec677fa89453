"""Azure Attack's hooks for the tree search (:mod:`azgames.core.search_hooks`): the
contract's own kernels (:func:`azgames.core.contract.search_hooks`), its
estimate of a cut playout and greedy's move for guided playouts."""

from __future__ import annotations

import numpy as np

from azgames.core.contract import search_hooks
from azgames.core.jit import njit

from . import kernels as K
from .greedy import greedy_action
from .rules import AzureRules

#: Gold of lead that makes a position worth tanh(1) = 0.76 of a win.
LEAD_SCALE = 5.0


@njit
def estimate(s, cfg, i, values):
    """The hunters' lead in gold over the monster (banked, plus half of what
    each side carries), squashed by tanh: the hunters' value, the monster's
    its negative."""
    S = cfg.S
    coin_loc, coin_value = s.coin_loc, s.coin_value
    lead = 0.0
    for k in range(coin_loc.shape[1]):
        loc = np.int64(coin_loc[i, k])
        v = np.float64(coin_value[i, k])
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
    K.write_mask(s, cfg, i, mask, 0)
    return greedy_action(s, cfg, i, mask[0])


# Random games last about 450 steps: cut at 20, the search runs 20 times as
# many simulations, and beat greedy in a first 10 games.
HOOKS = search_hooks(
    AzureRules, estimate=estimate, heuristic=heuristic, die_faces=K.DIE_FACES, max_playout=20
)
