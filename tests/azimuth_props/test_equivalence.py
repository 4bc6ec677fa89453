"""The AEC env and the vector env are the same Azimuth game
(:mod:`tests.equivalence` has the check), auto-resets included."""

from __future__ import annotations

import pytest

import azimuth_env
from tests.equivalence import run_equivalence as _run

from .test_playouts import VARIANTS, numba_threads


def run_equivalence(num_players, options, **kwargs):
    stats = _run(azimuth_env, num_players, options, **kwargs)
    return stats["restarts"], stats["terminated"]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_aec_and_vector_agree_across_auto_resets(variant):
    num_players, options = VARIANTS[variant]
    with numba_threads(1):
        restarts, _ = run_equivalence(num_players, {**options, "max_turns": 45}, seed=3)
    assert restarts >= 3 * 12


def test_aec_and_vector_agree_over_whole_games():
    """The default turn limit: whole random games, cut off at 400 turns or won."""
    with numba_threads(1):
        restarts, _ = run_equivalence(2, {}, num_envs=6, steps=410, seed=11)
    assert restarts >= 6
