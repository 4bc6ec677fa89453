"""The per-game generator (azgames.core.rng): SplitMix64 in numba and in plain
Python agree with the published reference sequence, and ``below`` draws
uniformly in range."""

import numpy as np

from azgames.core.rng import below, next_u64, next_word, seed_words

# SplitMix64 from state 0: the first outputs of the reference implementation.
REFERENCE = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_kernel_and_python_splitmix64_match_the_reference():
    state = np.zeros(1, np.uint64)
    assert [int(next_u64(state, 0)) for _ in range(3)] == REFERENCE
    # The Python successor of a word is the kernel's first draw from that word.
    assert next_word(0) == REFERENCE[0]
    for word in (1, 2**63, 2**64 - 1, 0xDEADBEEF):
        assert next_word(word) == int(next_u64(np.array([word], np.uint64), 0))


def test_below_is_in_range_and_uniform():
    state = np.array([7], np.uint64)
    draws = np.array([below(state, 0, 6) for _ in range(60_000)])
    assert draws.min() == 0 and draws.max() == 5
    counts = np.bincount(draws, minlength=6)
    # Chi-square with 5 degrees of freedom; 20.5 is the 0.1% critical value.
    assert ((counts - 10_000) ** 2 / 10_000).sum() < 20.5


def test_seed_words_are_reproducible_and_distinct():
    assert np.array_equal(seed_words(3, 4), seed_words(3, 4))
    assert len(set(seed_words(3, 1000).tolist())) == 1000
    assert not np.array_equal(seed_words(3, 4), seed_words(4, 4))
