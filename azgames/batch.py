"""Batch kernels every game shares: checking a batch of actions against the
masks, drawing random legal actions from each game's generator, and running
a serial kernel over a batch on several threads."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

import numba

from .jit import njit_parallel, prange
from .rng import below

#: Below this many games per thread, one call on the calling thread is faster.
MIN_CHUNK = 128


@lru_cache(maxsize=None)
def _pool(threads: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=threads, thread_name_prefix="azgames-batch")


def run_in_chunks(kernel, state, *args) -> None:
    """Call ``kernel(*state, start, stop, *args)`` on contiguous slices covering
    every game of ``state``, one slice per numba thread, concurrently.

    For kernels whose arguments numba's ``prange`` cannot capture (a
    configuration NamedTuple holding arrays): the kernels are compiled with
    ``nogil=True``, so Python threads run them in parallel. Games are
    independent and each slice writes only its own rows."""
    n = len(state[0])
    threads = numba.get_num_threads()
    chunks = min(threads, max(1, n // MIN_CHUNK))
    if chunks == 1:
        kernel(*state, 0, n, *args)
        return
    bounds = [n * k // chunks for k in range(chunks + 1)]
    futures = [_pool(threads).submit(kernel, *state, bounds[k], bounds[k + 1], *args)
               for k in range(1, chunks)]
    kernel(*state, bounds[0], bounds[1], *args)
    for f in futures:
        f.result()


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
