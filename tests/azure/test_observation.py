"""Azure Attack's observation planes (the table in ``azure_env/env.py``),
read back from a diagram position for each side."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import azure_env
from azure_env import kernels as K

#   hunter_0 (A) carries a 3 and has moved d6-c6 this turn; a 5 lies on c5;
#   hunter_1 (B) carries a 1; coins 2 and 0 lie on e9; the monster banked 4.
POSITION = """
12  -  -  m  m  -  -
11  -  -  m  m  -  -
10  .  .  .  .  .  .
 9  .  .  .  .  02 .
 8  .  .  .  M  .  .
 7  .  .  .  .  .  .
 6  . B1 A3  .  .  .
 5  .  .  5  .  .  .
 4  .  .  .  .  .  .
 3  .  .  .  .  .  .
 2  b  b  a  a  -  -
 1  b  b  a  a  -  -
"""


@pytest.fixture()
def env():
    e = azure_env.env(num_players=3)
    e.reset(seed=0)
    rules = e.unwrapped.rules
    e.unwrapped.set_state(
        rules.state_from_diagram(
            textwrap.dedent(POSITION), to_move="A", banked={"M": "4"}, steps_taken="d6 c6"
        )
    )
    return e


def at(plane, name, width=6):
    """The plane's value at a square name such as ``c6`` (row 1 is y = 0)."""
    col, row = "abcdef".index(name[0]), int(name[1:]) - 1
    return int(plane[row, col])


def squares(plane, width=6):
    ys, xs = np.nonzero(plane)
    return sorted(f"{'abcdef'[x]}{y + 1}" for y, x in zip(ys, xs))


def test_the_hunter_sees_itself_its_ally_and_the_enemy(env):
    obs = env.observe("hunter_0")["observation"]
    assert obs.shape == (K.NUM_PLANES, 12, 6)
    assert squares(obs[K.OWN]) == ["c6"]
    assert squares(obs[K.ALLIES]) == ["b6"]
    assert squares(obs[K.ENEMIES]) == ["d8"]
    assert at(obs[K.CARRIED_COINS], "c6") == 1 and at(obs[K.CARRIED_VALUE], "c6") == 3
    assert at(obs[K.CARRIED_COINS], "b6") == 1 and at(obs[K.CARRIED_VALUE], "b6") == 1
    assert squares(obs[K.COINS + 2]) == ["e9"] and squares(obs[K.COINS + 0]) == ["e9"]
    assert squares(obs[K.COINS + 5]) == ["c5"] and obs[K.COINS + 3].sum() == 0  # the 3 is carried
    assert squares(obs[K.OWN_TILE]) == ["c1", "c2", "d1", "d2"]
    assert squares(obs[K.ALLY_TILES]) == ["a1", "a2", "b1", "b2"]
    assert squares(obs[K.ENEMY_TILES]) == ["c11", "c12", "d11", "d12"]
    assert (
        obs[K.MAP_PLANE].sum() == 48 and at(obs[K.MAP_PLANE], "a3") == 1 and at(obs[K.MAP_PLANE], "a1") == 0
    )
    assert squares(obs[K.VISITED_PLANE]) == ["c6", "d6"]
    assert squares(obs[K.ACTOR]) == ["c6"]
    assert squares(obs[K.NEXT]) == ["b6"]  # hunter_1 plays next
    assert (obs[K.ALLOWANCE] == 4 - 2 - 1).all()  # one coin carried, one square moved
    assert (obs[K.OWN_BANKED] == 0).all() and (obs[K.OTHER_BANKED] == 4).all()


def test_the_monster_sees_the_same_map_from_its_side(env):
    obs = env.observe("monster")["observation"]
    assert squares(obs[K.OWN]) == ["d8"]
    assert obs[K.ALLIES].sum() == 0
    assert squares(obs[K.ENEMIES]) == ["b6", "c6"]
    assert squares(obs[K.OWN_TILE]) == ["c11", "c12", "d11", "d12"]
    assert obs[K.ALLY_TILES].sum() == 0 and len(squares(obs[K.ENEMY_TILES])) == 8
    assert squares(obs[K.ACTOR]) == ["c6"]  # the actor's trail and allowance, whoever looks
    assert squares(obs[K.VISITED_PLANE]) == ["c6", "d6"]
    assert (obs[K.OWN_BANKED] == 4).all() and (obs[K.OTHER_BANKED] == 0).all()
    assert not env.observe("monster")["action_mask"].any()  # not its turn


def test_observation_bounds_hold_and_the_space_contains_it(env):
    low, high = env.unwrapped.rules.observation_bounds(0)
    for agent in env.agents:
        obs = env.observe(agent)
        assert env.observation_space(agent).contains(obs)
        assert low <= obs["observation"].min() and obs["observation"].max() <= high


def test_vector_observations_equal_the_aec_ones():
    venv = azure_env.VectorEnv(num_envs=8, seed=5, num_players=4, map="ring")
    obs, mask = venv.reset()
    for _ in range(40):
        obs, mask, *_ = venv.step(venv.random_actions())
    for i in range(8):
        e = azure_env.env(num_players=4, map="ring")
        e.reset(seed=0)
        e.unwrapped.set_state(venv.game(i))
        mine = e.observe(e.agent_selection)
        assert np.array_equal(mine["observation"], obs[i])
        assert np.array_equal(mine["action_mask"].astype(bool), mask[i])
