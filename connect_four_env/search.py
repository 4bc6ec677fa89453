"""Connect Four's hooks for the tree searches: the contract's own kernels,
and an estimate of a position for a search cut short."""

import math

from azgames.core.contract import search_hooks
from azgames.core.jit import njit

from .rules import COLUMNS, ROWS, ConnectFourRules

#: What a window of four cells is worth to the player to move when it holds
#: 2 or 3 of its stones and none of the other's (a three with its fourth cell
#: open is a threat), and what it costs when it holds the other's: the other
#: moves second, its threats weigh less.
MINE = (0.0, 0.0, 2.0, 5.0)
THEIRS = (0.0, 0.0, 2.0, 4.0)
#: Each stone in the centre column, the one in most windows.
CENTRE = 3.0
#: The lead (in these points) that the estimate maps to tanh(1) ~ 0.76.
SCALE = 40.0


@njit
def estimate(s, cfg, i, values):
    """The mover's windows of four still open to it, weighted by their stones,
    less the other's, and its centre stones less the other's, squashed into
    [-1, 1] (tanh); the other player gets the negative."""
    board, p = s.board[i], s.player[i]
    lead = 0.0
    for r in range(ROWS):
        v = board[r, COLUMNS // 2]
        if v == p:
            lead += CENTRE
        elif v == 1 - p:
            lead -= CENTRE
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(ROWS):
            for c in range(COLUMNS):
                r3, c3 = r + 3 * dr, c + 3 * dc
                if r3 >= ROWS or c3 < 0 or c3 >= COLUMNS:
                    continue
                mine = theirs = 0
                for k in range(4):
                    v = board[r + k * dr, c + k * dc]
                    if v == p:
                        mine += 1
                    elif v == 1 - p:
                        theirs += 1
                if theirs == 0:
                    lead += MINE[min(mine, 3)]
                elif mine == 0:
                    lead -= THEIRS[min(theirs, 3)]
    v = math.tanh(lead / SCALE)
    values[p] = v
    values[1 - p] = -v


HOOKS = search_hooks(ConnectFourRules, estimate=estimate)
