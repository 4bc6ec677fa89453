"""The AEC env and the vector env are the same game.

The same seed words give the same set-up in both (``rules.initial_state``,
``VectorEnv.reset``, ``AEC reset``). Game ``i`` of a vector env is then
shadowed by an AEC env started from ``venv.game(i)`` (``set_state``); both get
the same actions (drawn by the vector env) and must agree after every step on
the observation, the mask, every player's reward, the terminated/truncated
flags, who acts next and the whole state (the generator word aside: the
vector env advances it when it draws random actions). A finished vector game
restarts at once; the new game must be exactly ``rules.initial_state`` of the
game's generator word, and its shadow restarts from it.
"""

from __future__ import annotations

import numpy as np
import pytest

import azimuth_env
from azgames import state as state_ops
from azgames.rng import seed_words

from .test_playouts import VARIANTS, numba_threads


def _differences(a, b, skip=("rng",)) -> list[str]:
    """Fields where two one-game states differ."""
    return [name for name, x, y in zip(a._fields, a, b) if name not in skip and not np.array_equal(x, y)]


def run_equivalence(num_players, options, num_envs=12, steps=150, seed=0):
    venv = azimuth_env.VectorEnv(num_envs=num_envs, seed=seed, num_players=num_players, **options)
    rules = venv.rules
    obs, mask = venv.reset()
    words = seed_words(seed, num_envs)
    assert state_ops.equal(rules.initial_state(words), venv.state), "the seed words set up other games"
    envs = []
    for i in range(num_envs):
        env = azimuth_env.env(num_players=num_players, **options)
        env.reset(seed=seed + i)
        alone = azimuth_env.VectorEnv(num_envs=1, seed=seed + i, num_players=num_players, **options)
        alone.reset()
        assert state_ops.equal(env.unwrapped.state, alone.state), "AEC and vector resets differ"
        env.unwrapped.set_state(venv.game(i))
        envs.append(env)
    agents = envs[0].possible_agents
    restarts = wins = 0
    for t in range(steps):
        for i, env in enumerate(envs):
            where = f"step {t}, game {i}"
            agent = env.agent_selection
            assert agent == agents[venv.state.player[i]], where
            aec = env.observe(agent)
            assert np.array_equal(aec["observation"], obs[i]), f"{where}: observations differ"
            assert np.array_equal(aec["action_mask"].astype(bool), mask[i]), f"{where}: masks differ"
        actions = venv.random_actions()
        words_now = venv.state.rng.copy()  # a finished game restarts from its word
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
                wins += int(term[i])
                assert all(env.terminations.values()) == bool(term[i])
                assert all(env.truncations.values()) == bool(trunc[i])
                fresh = rules.initial_state(words_now[i:i + 1])
                diff = _differences(fresh, venv.game(i), skip=())
                assert diff == [], f"{where}: the restarted game differs in {diff}"
                env.unwrapped.set_state(venv.game(i))
            else:
                assert not any(env.terminations.values()) and not any(env.truncations.values())
                assert env.agent_selection == agents[player[i]], f"{where}: next player differs"
                diff = _differences(env.unwrapped.state, venv.game(i))
                assert diff == [], f"{where}: states differ in {diff}"
    return restarts, wins


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
    assert _differences(before, after_draw) == []
