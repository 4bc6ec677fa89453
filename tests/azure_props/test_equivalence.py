"""The AEC env and the vector env are the same game.

The same seed words give the same set-up in both (``rules.initial_state``,
``VectorEnv.reset``, ``AEC reset``). Game ``i`` of a vector env is then
shadowed by an AEC env started from ``venv.game(i)`` (``set_state``); both get
the same actions (drawn by the vector env) and must agree after every step on
the observation, the mask, every player's reward, the terminated/truncated
flags, the fight reported, who acts next and the whole state.

Fights roll dice from the game's generator word, which the vector env also
advances when it draws random actions: before each step the shadow is given
the vector game's word after the draw, so both roll the same dice and the
states, generator word included, must then be equal. A finished vector game
restarts at once from its generator word as the step left it: the new game
must be exactly ``rules.initial_state`` of the shadow's word after the same
step, and the shadow restarts from it.
"""

from __future__ import annotations

import numpy as np
import pytest

import azure_env
from azgames import state as state_ops
from azgames.rng import seed_words

from .test_playouts import VARIANTS, numba_threads


def _differences(a, b, skip=()) -> list[str]:
    """Fields where two one-game states differ."""
    return [name for name, x, y in zip(a._fields, a, b) if name not in skip and not np.array_equal(x, y)]


def run_equivalence(num_players, options, num_envs=12, steps=150, seed=0) -> dict:
    venv = azure_env.VectorEnv(num_envs=num_envs, seed=seed, num_players=num_players, **options)
    rules = venv.rules
    obs, mask = venv.reset()
    words = seed_words(seed, num_envs)
    assert state_ops.equal(rules.initial_state(words), venv.state), "the seed words set up other games"
    envs = []
    for i in range(num_envs):
        env = azure_env.env(num_players=num_players, **options)
        env.reset(seed=seed + i)
        alone = azure_env.VectorEnv(num_envs=1, seed=seed + i, num_players=num_players, **options)
        alone.reset()
        assert state_ops.equal(env.unwrapped.state, alone.state), "AEC and vector resets differ"
        env.unwrapped.set_state(venv.game(i))
        envs.append(env)
    agents = envs[0].possible_agents
    stats = {"restarts": 0, "terminated": 0, "fights": 0, "steps": 0}
    for t in range(steps):
        for i, env in enumerate(envs):
            where = f"step {t}, game {i}"
            agent = env.agent_selection
            assert agent == agents[venv.state.player[i]], where
            aec = env.observe(agent)
            assert np.array_equal(aec["observation"], obs[i]), f"{where}: observations differ"
            assert np.array_equal(aec["action_mask"].astype(bool), mask[i]), f"{where}: masks differ"
        actions = venv.random_actions()
        for i, env in enumerate(envs):  # the dice come from the word after the action draw
            env.unwrapped.state.rng[0] = venv.state.rng[i]
        obs, mask, rewards, term, trunc, player = venv.step(actions)
        for i, env in enumerate(envs):
            where = f"step {t}, game {i}, action {int(actions[i])}"
            actor = env.agent_selection
            env.step(int(actions[i]))
            stats["steps"] += 1
            assert [env.rewards[a] for a in agents] == rewards[i].tolist(), f"{where}: rewards differ"
            assert env.terminations[actor] == bool(term[i]), f"{where}: terminated differs"
            assert env.truncations[actor] == bool(trunc[i]), f"{where}: truncated differs"
            stats["fights"] += int(env.unwrapped.state.fight[0, 0] >= 0)
            if term[i] or trunc[i]:
                stats["restarts"] += 1
                stats["terminated"] += int(term[i])
                assert all(env.terminations.values()) == bool(term[i])
                assert all(env.truncations.values()) == bool(trunc[i])
                fresh = rules.initial_state(env.unwrapped.state.rng)
                diff = _differences(fresh, venv.game(i))
                assert diff == [], f"{where}: the restarted game differs in {diff}"
                env.unwrapped.set_state(venv.game(i))
            else:
                assert not any(env.terminations.values()) and not any(env.truncations.values())
                assert env.agent_selection == agents[player[i]], f"{where}: next player differs"
                diff = _differences(env.unwrapped.state, venv.game(i))
                assert diff == [], f"{where}: states differ in {diff}"
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


def test_vector_env_refuses_an_illegal_batch_without_stepping_any_game():
    venv = azure_env.VectorEnv(num_envs=6, seed=4, num_players=3)
    venv.reset()
    for _ in range(5):
        venv.step(venv.random_actions())
    before = state_ops.clone(venv.state)
    actions = venv.random_actions()
    after_draw = state_ops.clone(venv.state)
    bad = [i for i in range(6) if not venv.action_mask[i].all()][0]
    actions[bad] = int(np.flatnonzero(~venv.action_mask[bad])[0])
    with pytest.raises(ValueError, match="illegal action"):
        venv.step(actions)
    assert state_ops.equal(venv.state, after_draw), "a refused batch changed some game"
    assert _differences(before, after_draw, skip=("rng",)) == []
