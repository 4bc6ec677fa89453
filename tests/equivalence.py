"""The AEC env and the vector env are the same game: the check every game's
``*_props/test_equivalence.py`` runs.

The same seed words give the same set-up in both (``rules.initial_state``,
``VectorEnv.reset``, AEC ``reset``). Game ``i`` of a vector env is then
shadowed by an AEC env started from ``venv.game(i)`` (``set_state``); both get
the same actions (drawn by the vector env) and must agree after every step on
the observation, the mask, every player's reward, the terminated/truncated
flags, who acts next and the whole state.

The vector env advances each game's generator word when it draws random
actions, and chance events (Azure Attack's dice) draw from the same word:
before each step the shadow takes the vector game's word after the draw, so
both roll the same dice and the states, generator word included, must be
equal. A finished vector game restarts at once from its word as the step left
it: the new game must be exactly ``rules.initial_state`` of the shadow's word
after the same step, and the shadow restarts from it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np

from azgames.core import state as state_ops
from azgames.core.rng import seed_words


def differences(a, b, skip=()) -> list[str]:
    """Fields where two one-game states differ."""
    return [name for name, x, y in zip(a._fields, a, b) if name not in skip and not np.array_equal(x, y)]


def run_equivalence(
    module,
    num_players: int,
    options: dict,
    num_envs: int = 12,
    steps: int = 150,
    seed: int = 0,
    count: Callable | None = None,
) -> Counter:
    """Shadow ``num_envs`` games of ``module.VectorEnv`` with AEC envs for
    ``steps`` steps; returns counts of ``steps``, ``restarts``, ``terminated``
    and ``truncated``, plus ``count(aec_env)`` summed after every step."""
    venv = module.VectorEnv(num_envs=num_envs, seed=seed, num_players=num_players, **options)
    rules = venv.rules
    obs, mask = venv.reset()
    assert state_ops.equal(rules.initial_state(seed_words(seed, num_envs)), venv.state), (
        "the seed words set up other games"
    )
    envs = []
    for i in range(num_envs):
        env = module.env(num_players=num_players, **options)
        env.reset(seed=seed + i)
        alone = module.VectorEnv(num_envs=1, seed=seed + i, num_players=num_players, **options)
        alone.reset()
        assert state_ops.equal(env.unwrapped.state, alone.state), "AEC and vector resets differ"
        env.unwrapped.set_state(venv.game(i))
        envs.append(env)
    agents = envs[0].possible_agents
    stats = Counter()
    for t in range(steps):
        for i, env in enumerate(envs):
            where = f"step {t}, game {i}"
            agent = env.agent_selection
            assert agent == agents[venv.player[i]], where
            aec = env.observe(agent)
            assert np.array_equal(aec["observation"], obs[i]), f"{where}: observations differ"
            assert np.array_equal(aec["action_mask"].astype(bool), mask[i]), f"{where}: masks differ"
        actions = venv.random_actions()
        for i, env in enumerate(envs):  # chance draws from the word after the action draw
            env.unwrapped.state.rng[0] = venv.state.rng[i]
        obs, mask, rewards, term, trunc, player = venv.step(actions)
        for i, env in enumerate(envs):
            where = f"step {t}, game {i}, action {int(actions[i])}"
            actor = env.agent_selection
            env.step(int(actions[i]))
            stats["steps"] += 1
            if count is not None:
                stats["counted"] += count(env)
            assert [env.rewards[a] for a in agents] == rewards[i].tolist(), f"{where}: rewards differ"
            assert env.terminations[actor] == bool(term[i]), f"{where}: terminated differs"
            assert env.truncations[actor] == bool(trunc[i]), f"{where}: truncated differs"
            if term[i] or trunc[i]:
                stats["restarts"] += 1
                stats["terminated"] += int(term[i])
                stats["truncated"] += int(trunc[i])
                assert all(env.terminations.values()) == bool(term[i])
                assert all(env.truncations.values()) == bool(trunc[i])
                fresh = rules.initial_state(env.unwrapped.state.rng)
                diff = differences(fresh, venv.game(i))
                assert diff == [], f"{where}: the restarted game differs in {diff}"
                env.unwrapped.set_state(venv.game(i))
            else:
                assert not any(env.terminations.values()) and not any(env.truncations.values())
                assert env.agent_selection == agents[player[i]], f"{where}: next player differs"
                diff = differences(env.unwrapped.state, venv.game(i))
                assert diff == [], f"{where}: states differ in {diff}"
    return stats
