"""The AEC env and the vector env are the same game.

Game ``i`` of a vector env is shadowed by an AEC env started from
``venv.game(i)`` (``set_state``); both get the same actions (drawn by the
vector env) and must agree after every step on the observation, the mask,
every player's reward, the terminated/truncated flags, who acts next and the
whole state. When a vector game ends it restarts at once; its shadow must
have ended the same way, and a fresh AEC ``reset()`` must give the position
the vector env restarted from (the generator word aside, which the vector env
advances when it draws random actions).
"""

from __future__ import annotations

import numpy as np
import pytest

import azacru_env
from azgames import state as state_ops


def _same_position(one_game_a, one_game_b) -> list[str]:
    """Fields (other than the generator word) where two one-game states differ."""
    return [name for name, x, y in zip(one_game_a._fields, one_game_a, one_game_b)
            if name != "rng" and not np.array_equal(x, y)]


def run_equivalence(num_players, opening="standard", num_envs=48, steps=160, seed=0, max_turns=1000):
    venv = azacru_env.VectorEnv(num_envs=num_envs, seed=seed, num_players=num_players,
                                opening=opening, max_turns=max_turns)
    obs, mask = venv.reset()
    envs = []
    for i in range(num_envs):
        env = azacru_env.raw_env(num_players=num_players, opening=opening, max_turns=max_turns)
        env.reset(seed=seed + i)
        assert _same_position(env.state, venv.game(i)) == [], "AEC and vector openings differ"
        env.set_state(venv.game(i))
        envs.append(env)
    agents = envs[0].possible_agents
    restarts = truncations = 0
    for t in range(steps):
        for i, env in enumerate(envs):
            where = f"step {t}, game {i}"
            agent = env.agent_selection
            assert agent == agents[venv.state.player[i]], where
            aec = env.observe(agent)
            assert np.array_equal(aec["observation"], obs[i]), f"{where}: observations differ"
            assert np.array_equal(aec["action_mask"].astype(bool), mask[i]), f"{where}: masks differ"
        actions = venv.random_actions()
        obs, mask, rewards, term, trunc, player = venv.step(actions)
        for i, env in enumerate(envs):
            where = f"step {t}, game {i}, action {int(actions[i])}"
            actor = env.agent_selection
            env.step(int(actions[i]))
            assert [env.rewards[a] for a in agents] == rewards[i].tolist(), f"{where}: rewards differ"
            assert env.terminations[actor] == bool(term[i]), f"{where}: terminated differs"
            assert env.truncations[actor] == bool(trunc[i]), f"{where}: truncated differs"
            if term[i] or trunc[i]:
                restarts += 1
                truncations += int(trunc[i])
                assert all(env.terminations.values()) == bool(term[i])
                assert all(env.truncations.values()) == bool(trunc[i])
                env.reset()
                assert _same_position(env.state, venv.game(i)) == [], f"{where}: restart differs"
                env.set_state(venv.game(i))
            else:
                assert not any(env.terminations.values()) and not any(env.truncations.values())
                assert env.agent_selection == agents[player[i]], f"{where}: next player differs"
                diff = _same_position(env.state, venv.game(i))
                assert diff == [], f"{where}: states differ in {diff}"
    return restarts, truncations


@pytest.mark.parametrize("num_players,opening", [(2, "standard"), (3, "standard"), (4, "standard"),
                                                 (2, "classic")])
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


def test_vector_env_refuses_an_illegal_batch_without_stepping_any_game():
    venv = azacru_env.VectorEnv(num_envs=6, seed=4, num_players=3)
    venv.reset()
    for _ in range(5):
        venv.step(venv.random_actions())
    before = state_ops.clone(venv.state)
    actions = venv.random_actions()
    rng_after_draw = venv.state.rng.copy()
    illegal = int(np.flatnonzero(~venv.action_mask[4])[0])
    actions[4] = illegal
    with pytest.raises(ValueError, match=r"illegal action .* in env 4"):
        venv.step(actions)
    assert state_ops.equal(before._replace(rng=rng_after_draw), venv.state)
    actions[4] = venv.rules.num_actions  # out of range
    with pytest.raises(ValueError, match="out of range"):
        venv.step(actions)
    with pytest.raises(ValueError):
        venv.step(actions[:5])  # wrong shape
    with pytest.raises(ValueError):
        venv.step(actions.astype(float))  # not integers
    assert state_ops.equal(before._replace(rng=rng_after_draw), venv.state)
