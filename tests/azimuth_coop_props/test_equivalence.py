"""The AEC env and the vector env are the same co-op game, auto-resets, die
rolls and wave sub-phases included.

With 4 players the shared check (:func:`tests.equivalence.run_equivalence`)
runs as for every other game. It takes ``state.player`` for the agent to act,
which in the co-op mode is the *colour* to act (with 2 or 3 players an agent
plays two colours), so :func:`run_coop_equivalence` below is the same check
with the agent read through the colours' controllers; it runs every variant.

Both envs draw the Ocean Die from the game's generator word; the shadow AEC
env takes the vector game's word after the random action draw, so both roll
the same faces and must agree on everything after every step."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from azgames import state as state_ops
from azgames.rng import seed_words
from azimuth_env import coop as coop_module
from tests.azimuth.helpers import numba_threads
from tests.equivalence import differences, run_equivalence

from .test_playouts import VARIANTS


def wave_steps(env) -> int:
    return int(env.unwrapped.state.wave[0] >= 0)


def run_coop_equivalence(num_players: int, options: dict, num_envs: int = 8, steps: int = 110,
                         seed: int = 0) -> Counter:
    """:func:`tests.equivalence.run_equivalence` for the co-op mode: ``num_envs``
    vector games shadowed by AEC envs for ``steps`` steps, comparing the
    observation, mask, agent to act (the controller of the colour to act),
    rewards, flags and whole state after every step, and each restart."""
    venv = coop_module.VectorEnv(num_envs=num_envs, seed=seed, num_players=num_players, **options)
    rules = venv.rules
    obs, mask = venv.reset()
    assert state_ops.equal(rules.initial_state(seed_words(seed, num_envs)), venv.state)
    envs = []
    for i in range(num_envs):
        env = coop_module.env(num_players=num_players, **options)
        env.reset(seed=seed + i)
        alone = coop_module.VectorEnv(num_envs=1, seed=seed + i, num_players=num_players, **options)
        alone.reset()
        assert state_ops.equal(env.unwrapped.state, alone.state), "AEC and vector resets differ"
        env.unwrapped.set_state(venv.game(i))
        envs.append(env)
    agents = envs[0].possible_agents
    player = rules.controller[venv.state.player].astype(np.int64)
    stats = Counter()
    for t in range(steps):
        for i, env in enumerate(envs):
            where = f"step {t}, game {i}"
            agent = env.agent_selection
            assert agent == agents[player[i]], where
            assert agent == agents[rules.controller[venv.state.player[i]]], where
            aec = env.observe(agent)
            assert np.array_equal(aec["observation"], obs[i]), f"{where}: observations differ"
            assert np.array_equal(aec["action_mask"].astype(bool), mask[i]), f"{where}: masks differ"
            for other in agents:  # an agent not to act sees from its first colour, with no mask
                if other != agent:
                    seen = env.observe(other)
                    assert not seen["action_mask"].any(), where
            stats["wave steps"] += int(venv.state.wave[i] >= 0)
        actions = venv.random_actions()
        for i, env in enumerate(envs):
            env.unwrapped.state.rng[0] = venv.state.rng[i]
        obs, mask, rewards, term, trunc, player = venv.step(actions)
        stats["rolls"] += int((venv.state.rolled >= 0).sum())
        for i, env in enumerate(envs):
            where = f"step {t}, game {i}, action {int(actions[i])}"
            actor = env.agent_selection
            env.step(int(actions[i]))
            stats["steps"] += 1
            assert [env.rewards[a] for a in agents] == rewards[i].tolist(), f"{where}: rewards differ"
            assert env.terminations[actor] == bool(term[i]), f"{where}: terminated differs"
            assert env.truncations[actor] == bool(trunc[i]), f"{where}: truncated differs"
            if term[i] or trunc[i]:
                stats["restarts"] += 1
                stats["terminated"] += int(term[i])
                assert all(env.terminations.values()) == bool(term[i])
                fresh = rules.initial_state(env.unwrapped.state.rng)
                diff = differences(fresh, venv.game(i))
                assert diff == [], f"{where}: the restarted game differs in {diff}"
                env.unwrapped.set_state(venv.game(i))
            else:
                assert not any(env.terminations.values()) and not any(env.truncations.values())
                assert env.agent_selection == agents[player[i]], f"{where}: next agent differs"
                diff = differences(env.unwrapped.state, venv.game(i))
                assert diff == [], f"{where}: states differ in {diff}"
    return stats


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_aec_and_vector_agree_across_auto_resets(variant):
    num_players, options = VARIANTS[variant]
    with numba_threads(1):
        stats = run_coop_equivalence(num_players, options, seed=sum(map(ord, variant)))
    # games last 40-60 steps (the lighthouses, 40 turns, wave choices)
    assert stats["restarts"] >= 8 and stats["terminated"] == stats["restarts"], stats
    assert stats["rolls"] > 0
    if options.get("wave_order", "choose") == "choose":
        assert stats["wave steps"] > 0, f"no wave sub-phase was met: {stats}"


@pytest.mark.parametrize("variant", [v for v, (n, _) in VARIANTS.items() if n == 4])
def test_shared_equivalence_check(variant):
    """The check every game runs (4 players: each agent plays its colour)."""
    num_players, options = VARIANTS[variant]
    with numba_threads(1):
        stats = run_equivalence(coop_module, num_players, options, num_envs=6, steps=100, seed=4,
                                count=wave_steps)
    assert stats["restarts"] >= 6 and stats["terminated"] == stats["restarts"], stats


def test_equivalence_smoke():
    """Short games (quick enough to run as plain Python with NUMBA_DISABLE_JIT=1)."""
    with numba_threads(1):
        stats = run_coop_equivalence(2, {"rounds": 2, "lighthouses": "random"}, num_envs=3,
                                     steps=20, seed=5)
    assert stats["restarts"] >= 3
