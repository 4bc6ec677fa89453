"""Seeded random numbers that live inside a game's state.

Each game carries one ``uint64`` word of generator state (``state.rng[i]``),
so chance events and random actions are reproducible per game, independent of
how numba spreads games over threads, and are copied by ``clone()`` and saved
in game records. The generator is SplitMix64: one multiply-xorshift chain per
draw, good statistical quality, trivially seekable from a Python seed.
"""

from __future__ import annotations

import numpy as np

from .jit import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)


@njit
def next_u64(rng, i):
    """Advance game ``i``'s generator and return 64 random bits."""
    x = rng[i] + _GOLDEN
    rng[i] = x
    x = (x ^ (x >> _S30)) * _MIX1
    x = (x ^ (x >> _S27)) * _MIX2
    return x ^ (x >> _S31)


@njit
def below(rng, i, n):
    """A uniform integer in ``[0, n)`` drawn from game ``i``'s generator (n >= 1)."""
    # 53 high bits as a float in [0, 1): bias below 2**-40 for the n used here.
    u = np.float64(next_u64(rng, i) >> _S11) * (1.0 / 9007199254740992.0)
    return np.int64(u * n)


def next_word(word: int) -> int:
    """The SplitMix64 successor of a generator word, in plain Python ints
    (used between resets, where a SeedSequence would cost ~8 us)."""
    mask = (1 << 64) - 1
    x = (word + 0x9E3779B97F4A7C15) & mask
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & mask
    return x ^ (x >> 31)


def seed_words(seed: int | None, count: int) -> np.ndarray:
    """``count`` independent generator words from one Python seed (None: fresh entropy)."""
    seq = np.random.SeedSequence(seed)
    return seq.generate_state(count, dtype=np.uint64)
