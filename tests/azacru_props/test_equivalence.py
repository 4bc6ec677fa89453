"""The AEC env and the vector env are the same Azacru game
(:mod:`tests.equivalence` has the check), auto-resets and truncation included."""

from __future__ import annotations

import pytest

import azacru_env
from tests.equivalence import run_equivalence as _run


def run_equivalence(num_players, opening="standard", num_envs=48, steps=160, seed=0, max_turns=1000):
    stats = _run(
        azacru_env,
        num_players,
        {"opening": opening, "max_turns": max_turns},
        num_envs=num_envs,
        steps=steps,
        seed=seed,
    )
    return stats["restarts"], stats["truncated"]


@pytest.mark.parametrize(
    "num_players,opening", [(2, "standard"), (3, "standard"), (4, "standard"), (2, "classic")]
)
def test_aec_and_vector_agree_across_auto_resets(num_players, opening):
    restarts, _ = run_equivalence(num_players, opening)
    # ~50 turns a game: every slot has finished a few games by now.
    assert restarts >= 2 * 48


def test_aec_and_vector_agree_on_truncation():
    restarts, truncations = run_equivalence(3, num_envs=8, steps=40, max_turns=9)
    assert truncations > 0 and restarts >= truncations


def test_equivalence_smoke():
    """Short version (also run with NUMBA_DISABLE_JIT=1 by test_nojit)."""
    restarts, truncations = run_equivalence(2, num_envs=3, steps=30, max_turns=12)
    assert restarts >= 3 and truncations >= 1
