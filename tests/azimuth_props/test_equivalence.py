"""The AEC env and the vector env are the same Azimuth game
(:mod:`tests.equivalence` has the check), auto-resets included."""

from __future__ import annotations

import numpy as np
import pytest

import azimuth_env
from azgames import state as state_ops
from tests.equivalence import differences, run_equivalence as _run

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


def test_vector_env_refuses_an_illegal_batch_without_stepping_any_game():
    venv = azimuth_env.VectorEnv(num_envs=6, seed=4, num_players=3)
    venv.reset()
    for _ in range(5):
        venv.step(venv.random_actions())
    before = state_ops.clone(venv.state)
    actions = venv.random_actions()
    after_draw = state_ops.clone(venv.state)
    bad = int(np.flatnonzero(~venv.action_mask[3])[0])
    actions[3] = bad
    with pytest.raises(ValueError, match="illegal action"):
        venv.step(actions)
    assert state_ops.equal(venv.state, after_draw), "a refused batch changed some game"
    assert differences(before, after_draw, skip=("rng",)) == []
