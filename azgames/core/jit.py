"""The suite's numba settings, in one place.

Every kernel is compiled with ``cache=True`` so that a second process loads it
from disk (about 0.7 s for a whole game) instead of compiling it again.
``NUMBA_DISABLE_JIT=1`` turns every kernel into plain Python; coverage runs
and the tests of ``tests/test_nojit.py`` (in the default run) use it, so
kernels must stay valid Python.
"""

from __future__ import annotations

import os

import numba

from . import (
    kernel_cache,  # noqa: F401  (before the first kernel: its cache must take the suite's stamp)
    specialisation,
    threads,  # noqa: F401  (before numba's thread pool starts: its threads sleep when idle)
)

#: True when numba runs kernels as plain Python (``NUMBA_DISABLE_JIT=1``).
JIT_DISABLED = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")

if not JIT_DISABLED:
    specialisation.install()  # a kernel is compiled once per argument types, whatever constants callers pass

# Each decorator marks what it compiles: one compile per tuple of argument
# types, whatever constants callers pass (specialisation.py).

#: Serial kernel: one game, or a batch too small to be worth threads.
njit = specialisation.marked(numba.njit(cache=True, nogil=True))

#: Per-game helper of a serial kernel, inlined into its caller at numba's IR
#: level: a call that passes arrays costs atomic reference counting on each
#: of them, which dominated the Azimuth step (~25% of its time).
njit_inline = specialisation.marked(numba.njit(cache=True, nogil=True, inline="always"))

#: Large per-game helper (a game's ``play``, its mask, its observation) that
#: kernels call instead of inlining: it is typed and compiled once, whatever
#: calls it. Inlined into each of its callers it was typed again in each
#: (Azimuth's first step compiled 12 s longer). Without numba's reference
#: counting (``_nrt=False``: it may allocate nothing, and its callers hold
#: every array it is passed), a call costs no atomic count on each array
#: argument, which made plain calls 7-26% slower than inlining.
njit_shared = specialisation.marked(numba.njit(cache=True, nogil=True, _nrt=False))  # type: ignore[call-overload]  # not in the stubs

#: Batched kernel: ``prange`` over games, threads from numba's pool.
njit_parallel = specialisation.marked(numba.njit(cache=True, nogil=True, parallel=True))

prange = numba.prange


def specialize(kernel, *example_args):
    """``kernel`` compiled for exactly the types of ``example_args``, as a
    callable that skips numba's per-call type dispatch.

    Dispatch costs about 0.5 us for a dozen array arguments, a tenth of an AEC
    step. The caller must then always pass arguments of the same types (the
    same dtypes, dimensions and contiguity): numba no longer checks them.
    Under ``NUMBA_DISABLE_JIT=1`` this is the plain function.
    """
    if JIT_DISABLED:
        return kernel
    return kernel.compile(tuple(numba.typeof(a) for a in example_args))
