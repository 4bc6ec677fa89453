"""Azimuth's observation planes and the turned view of actions (env docstring:
"Observation space" and "Action space")."""

from __future__ import annotations

import numpy as np
import pytest

import azgames
from azimuth_env import kernels as K

from .helpers import legal_actions, position

DIAGRAM_2P = """
       a    b    c    d    e    f
    6  .    .    .    .    .    .
          .    .    .    .    .
    5  .    .    .    .    .    .
          .    .    #    .    .
    4  .    .    .    .    .    .
          .    .    .    .    .
    3  .    .    KRRK .    .    .
          .    K>r  .    .    .
    2  .    R@   .    .    .    .
          .    .    .    .    .
    1  .    .    .    .    .    .
"""


def planes(env, agent=None):
    """The observation of ``agent`` (default: the actor) as (C, 6, 6)."""
    return env.observe(agent or env.agent_selection)["observation"]


def channel(n: int, name: str, q: int = 0) -> int:
    """Plane index of the env docstring's table, for ``n`` players."""
    return {
        "level": q,
        "count": 3 * n + q,
        "castaway": 4 * n + q,
        "on_island": 5 * n + q,
        "island": 6 * n,
        "landing": 6 * n + 1 + q,
        "wind": 7 * n + 1 + q,
        "mine": 8 * n + 1,
        "dx": 8 * n + 2,
        "dy": 8 * n + 3,
        "hand_own": 8 * n + 4 + q,
        "hand_other": 9 * n + 4 + q,
        "coconuts": 10 * n + 4 + q,
        "setup": 11 * n + 4,
    }[name]


def cell(point: str) -> tuple[int, int]:
    """(y, x) of a point named a1-f6 in the unturned board."""
    return int(point[1]) - 1, "abcdef".index(point[0])


def test_planes_from_red_and_from_black():
    """The stack K R R K on c3 (bottom first), red's castaway on b2, a black
    wind placed by red on b2 blowing east, red's beach a1-b1 and black's e1-f1."""
    env = position(DIAGRAM_2P, beaches={"R": "a1-b1", "K": "e1-f1"})
    red = planes(env, "player_0")
    n = 2
    assert red.shape == (27, 6, 6) and red.dtype == np.int8
    y, x = cell("c3")
    # Levels from the top, colours counted from the viewer (0 red, 1 black).
    assert [red[0 * n + 1, y, x], red[1 * n + 0, y, x], red[2 * n + 0, y, x]] == [1, 1, 1]
    assert red[0 * n + 0, y, x] == 0 and red[1 * n + 1, y, x] == 0
    assert red[channel(n, "count", 0), y, x] == 2 and red[channel(n, "count", 1), y, x] == 2
    assert red[channel(n, "castaway", 0)][cell("b2")] == 1
    assert red[channel(n, "castaway", 0)].sum() == 1 and red[channel(n, "castaway", 1)].sum() == 0
    assert (red[channel(n, "on_island", 1)] == 1).all() and (red[channel(n, "on_island", 0)] == 0).all()
    assert red[channel(n, "island"), 3, 2] == 1 and red[channel(n, "island")].sum() == 1  # mark c4
    # Mark b2 is cell (1, 1): a black wind (q 1 for red), red's own, blowing east.
    assert red[channel(n, "wind", 1), 1, 1] == 1 and red[channel(n, "mine"), 1, 1] == 1
    assert (red[channel(n, "dx"), 1, 1], red[channel(n, "dy"), 1, 1]) == (1, 0)
    assert red[channel(n, "landing", 0)][cell("a1")] == 1 and red[channel(n, "landing", 1)][cell("f1")] == 1
    # Hands: red placed its black wind, so holds 6 + 0; black holds 6 + 1.
    assert (red[channel(n, "hand_own", 0)] == 6).all() and (red[channel(n, "hand_other", 0)] == 0).all()
    assert (red[channel(n, "hand_other", 1)] == 1).all()
    assert (red[channel(n, "setup")] == 0).all()

    black = planes(env, "player_1")
    # From black's side the colours swap places; the board is not turned (both beaches south).
    assert black[0 * n + 0, y, x] == 1 and black[1 * n + 1, y, x] == 1
    assert black[channel(n, "wind", 0), 1, 1] == 1 and black[channel(n, "mine"), 1, 1] == 0
    assert black[channel(n, "castaway", 1)][cell("b2")] == 1


def test_lighthouse_phase_plane_and_mask():
    env = azgames.make("azimuth", num_players=2)
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    assert (obs["observation"][channel(2, "setup")] == 1).all()
    assert legal_actions(env) == {f"beach {a}" for a in ("a1-b1", "b1-c1", "c1-d1", "d1-e1", "e1-f1")}


def test_a_west_beach_is_turned_to_the_bottom_with_the_actions():
    """Three players, black's beach on the west side (a2-a3): black's view is
    turned a quarter anticlockwise, so a2 and a3 lie on its bottom row, and
    its actions are numbered in that view (board north is its west)."""
    diagram = """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    K@   .    .    .    .
              .    .    .    .    .
        2  .    K    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """
    env = position(diagram, num_players=3, to_move="K", beaches={"R": "c1-d1", "K": "a2-a3", "Y": "e1-f1"})
    u = env.unwrapped
    n = 3
    black = planes(env, "player_1")
    landing = black[channel(n, "landing", 0)]
    assert {(int(y), int(x)) for y, x in zip(*np.nonzero(landing))} == {(0, 3), (0, 4)}
    # b3 (x 1, y 2) turned a quarter anticlockwise: (y, x) = (1, 3); b2 (x 1, y 1): (1, 4).
    assert black[channel(n, "castaway", 0), 1, 3] == 1
    al = u.rules.actions
    assert u.str_to_action("swim S") == al.swim + 1  # board south is black's east
    assert "swim S" in legal_actions(env)
    for a in u.legal_actions():  # every legal action reads back to itself
        assert u.str_to_action(u.action_to_str(a)) == a
    # The island, mark c4 (x 2, y 3), turned: mark (x 1, y 2), north of the view's centre-left.
    assert black[channel(n, "island"), 2, 1] == 1


@pytest.mark.parametrize("num_players, island", [(2, False), (3, False), (4, False), (4, True)])
def test_view_tables_are_inverse_permutations(num_players, island):
    rules = azgames.make("azimuth", num_players=num_players, island=island).unwrapped.rules
    cfg = rules.cfg
    for r in range(4):
        to_view = [cfg.to_view(r, a) for a in range(cfg.num_actions)]
        assert sorted(to_view) == list(range(cfg.num_actions))
        assert all(cfg.from_view(r, t) == a for a, t in enumerate(to_view))


def test_vector_observations_match_the_aec_env():
    """Game i of the vector env and the AEC env given the same state observe alike."""
    venv = azgames.make_vec("azimuth", num_envs=8, seed=5, num_players=4)
    for _ in range(30):
        venv.step(venv.random_actions())
    env = azgames.make("azimuth", num_players=4)
    env.reset(seed=0)
    for i in range(8):
        env.unwrapped.set_state(venv.game(i))
        obs = env.observe(env.agent_selection)
        assert np.array_equal(obs["observation"], venv.step.__self__._obs[i])
        assert np.array_equal(obs["action_mask"].astype(bool), venv.action_mask[i])
        assert int(venv.game(i).player[0]) == env.possible_agents.index(env.agent_selection)
    assert K.DEPTH == 3
