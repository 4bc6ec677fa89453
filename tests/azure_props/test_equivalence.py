"""The AEC env and the vector env are the same Azure Attack game
(:mod:`tests.equivalence` has the check), fights and auto-resets included."""

from __future__ import annotations

import pytest

import azure_env
from tests.equivalence import run_equivalence as _run

from .test_playouts import VARIANTS, numba_threads


def run_equivalence(num_players, options, **kwargs):
    """The shared check; ``stats["fights"]`` counts the steps that fought."""
    stats = _run(
        azure_env, num_players, options, count=lambda env: int(env.unwrapped.state.fight[0, 0] >= 0), **kwargs
    )
    stats["fights"] = stats.pop("counted", 0)
    return stats


EQUIVALENCE_VARIANTS = ["2p", "3p-random-roles", "4p-ring", "4p-long"]


@pytest.mark.parametrize("variant", EQUIVALENCE_VARIANTS)
def test_aec_and_vector_agree_across_auto_resets(variant):
    num_players, options = VARIANTS[variant]
    with numba_threads(1):
        stats = run_equivalence(num_players, {**options, "max_turns": 40}, seed=3)
    assert stats["restarts"] >= 12 and stats["fights"] > 0, stats


def test_aec_and_vector_agree_over_whole_games():
    """The default turn limit: whole random games, some banking every coin."""
    with numba_threads(1):
        stats = run_equivalence(2, {}, num_envs=8, steps=1300, seed=11)
    assert stats["restarts"] >= 8 and stats["terminated"] > 0, stats


def test_equivalence_smoke():
    """A few short games (quick enough to run as plain Python with NUMBA_DISABLE_JIT=1)."""
    for num_players, options in [(2, {}), (4, {"map": "ring", "roles": "random"})]:
        with numba_threads(1):
            stats = run_equivalence(num_players, {**options, "max_turns": 8}, num_envs=3, steps=40)
        assert stats["restarts"] >= 3


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_aec_and_vector_agree_many(variant):
    num_players, options = VARIANTS[variant]
    stats = run_equivalence(num_players, options, num_envs=32, steps=2500, seed=21)
    assert stats["terminated"] > 0, stats
