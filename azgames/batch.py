"""Batch kernels every game shares: checking a batch of actions against the
masks, and drawing random legal actions from each game's generator."""

from __future__ import annotations

from .jit import njit_parallel, prange
from .rng import below


@njit_parallel
def first_illegal(actions, mask):
    """Index of the first game whose action is out of range or masked out, or -1.

    Vector steps call it before anything moves, so that one bad action
    refuses the whole batch."""
    n = actions.shape[0]
    first_bad = n
    for i in prange(n):
        a = actions[i]
        if a < 0 or a >= mask.shape[1] or mask[i, a] == 0:
            first_bad = min(first_bad, i)
    return first_bad if first_bad < n else -1


@njit_parallel
def random_legal_actions(rng, mask, out):
    """A uniformly random legal action per game, from the game's own generator."""
    for i in prange(mask.shape[0]):
        row = mask[i]
        count = 0
        for a in range(row.shape[0]):
            if row[a]:
                count += 1
        pick = below(rng, i, count)
        for a in range(row.shape[0]):
            if row[a]:
                if pick == 0:
                    out[i] = a
                    break
                pick -= 1
