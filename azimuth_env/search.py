"""Azimuth's hooks for the tree search (:mod:`azgames.core.search_hooks`): the
contract's own kernels, the greedy's estimate and move."""

from __future__ import annotations

import numpy as np

from azgames.core.contract import search_hooks
from azgames.core.jit import njit

from .greedy import greedy_action, position_cost
from .kernels import write_mask
from .rules import AzimuthRules

#: Actions of lead, in the greedy's estimate of actions still needed to land,
#: that make a position worth tanh(1) = 0.76 of the estimate's most.
LEAD_SCALE = 4.0
#: The most an estimate is worth: less than a landing (1), however far ahead,
#: so that the search still tells the landing from the moves around it
#: (uncapped, a won race read 0.99999 whatever was played).
ESTIMATE_CAP = 0.9


@njit
def estimate(s, cfg, i, values):
    """Each player's lead in :func:`~azimuth_env.greedy.position_cost` (the
    greedy's estimate of the actions its castaway still needs) over its
    nearest rival, squashed by tanh into [-0.9, 0.9] (:data:`ESTIMATE_CAP`)."""
    n = values.shape[0]
    cost = np.empty(n)
    for q in range(n):
        cost[q] = position_cost(
            s.stack[i : i + 1],
            s.height[i : i + 1],
            s.wind_colour[i : i + 1],
            s.wind_owner[i : i + 1],
            s.wind_dir[i : i + 1],
            s.hand[i : i + 1],
            s.coconuts[i : i + 1],
            s.castaway[i : i + 1],
            s.beach[i : i + 1],
            q,
            cfg,
        )
    for q in range(n):
        rival = np.inf
        for r in range(n):
            if r != q:
                rival = min(rival, cost[r])
        values[q] = ESTIMATE_CAP * np.tanh((rival - cost[q]) / LEAD_SCALE)


#: Greedy's plans in a playout: its own next action only (``lookahead=1``,
#: about 0.25 ms a move; the default 3 takes ten times as long).
PLAYOUT_LOOKAHEAD = 1


@njit
def heuristic(s, cfg, i, mask):
    """Greedy's move (:mod:`.greedy`, one action ahead, threats seen), its
    ties from the game's own generator."""
    write_mask(s, cfg, i, mask, np.int64(0))
    return greedy_action(s, cfg, i, mask[0], np.int64(PLAYOUT_LOOKAHEAD), True)


def repeats(rules) -> bool:
    """Without coconuts (2 players' default) a wind turned can be turned back
    by the other player as often as they like: ``az``'s drawn games against
    greedy were cycles of a few positions. With them each player turns the
    others' winds 4 times in all (``az``'s 402 games against two greedy
    players drew none)."""
    return rules.layout.coconuts == 0


# Random playouts mostly reach the 400-action limit undecided: the estimate at
# the leaf played best against greedy. The actions are too many for plain
# UCT's 1,000 simulations to look past two plies: a prior guides it.
HOOKS = search_hooks(
    AzimuthRules,
    estimate=estimate,
    max_playout=0,
    prior_temperature=0.1,
    heuristic=heuristic,
    repeats=repeats,
)
