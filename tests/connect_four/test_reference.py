"""Random games played by the kernels (AEC and vector env) and by the
plain-Python reference agree at every step: legal moves, observations,
rewards, the end."""

from __future__ import annotations

import numpy as np
import pytest

import azgames

from .reference import Reference


@pytest.mark.parametrize("seed", range(20))
def test_aec_games_match_the_reference(seed):
    rng = np.random.default_rng(seed)
    env = azgames.make("connect_four")
    env.reset(seed=seed)
    ref = Reference()
    while not ref.over:
        agent = env.agent_selection
        observed = env.observe(agent)
        assert np.flatnonzero(observed["action_mask"]).tolist() == ref.legal()
        assert observed["observation"].tolist() == ref.planes(ref.player)
        column = int(rng.choice(ref.legal()))
        env.step(column)
        ref.play(column)
    assert all(env.terminations.values())
    winner = None if ref.winner is None else f"player_{ref.winner}"
    assert env.infos["player_0"]["winners"] == ([winner] if winner else [])
    assert env.rewards["player_0"] == (0.0 if winner is None else (1.0 if winner == "player_0" else -1.0))


def test_vector_games_match_the_reference_through_their_restarts():
    n = 16
    venv = azgames.make_vec("connect_four", num_envs=n, seed=3)
    refs = [Reference() for _ in range(n)]
    obs, mask = venv.observation, venv.action_mask
    for _ in range(120):  # about three games each
        for i, ref in enumerate(refs):
            assert np.flatnonzero(mask[i]).tolist() == ref.legal()
            assert obs[i].tolist() == ref.planes(ref.player)
        actions = venv.random_actions()
        obs, mask, rewards, terminated, truncated, player = venv.step(actions)
        for i, ref in enumerate(refs):
            mover = ref.player
            ref.play(int(actions[i]))
            assert bool(terminated[i]) == ref.over and not truncated[i]
            if ref.over:
                expected = 0.0 if ref.winner is None else (1.0 if ref.winner == mover else -1.0)
                assert rewards[i, mover] == expected
                refs[i] = Reference()
            assert player[i] == refs[i].player
