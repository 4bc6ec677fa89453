"""The observation planes, exactly as the env docstring documents them:
own piece slots, then per player (viewer first, then turn order) tiles and
the pieces' facing as (east, north) components, then the final-round plane."""

import numpy as np

from azacru_env.board import parse_field

from .helpers import position

THREE_PLAYERS = """
9 .   .   .   | .   .   .   | .   .   .
8 .   .   .   | .   .   .   | .   .   .
7 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
6 .   .   .   | .   .   .   | .   .   2C,
5 .   .   .   | .   1   .   | .   .   .
4 .   .   .   | 0   .   .   | .   .   .
  -----------+-------------+------------
3 .   .   .   | .   .   .   | .   .   .
2 .   0A^ .   | .   .   .   | 1B> .   .
1 .A\\ .   .   | .   .   .   | .   .   .
"""


def at(obs, field):
    f = parse_field(field)
    return obs[:, f // 9, f % 9]  # channels first: every plane at the field


def test_planes_from_the_acting_players_side():
    # 3 players, 3 pieces each: C = 3 + 3 * 3 + 1 = 13 planes.
    env = position(THREE_PLAYERS, num_players=3, to_move="B")
    obs = env.observe("player_1")["observation"]
    assert obs.shape == (13, 9, 9) and obs.dtype == np.int8
    # player_1 (B) acts: its only piece is slot 0 on g2 facing east.
    assert at(obs, "g2")[0] == 1 and obs[0].sum() == 1 and obs[1:3].sum() == 0
    # Own tiles (plane 3): e5, g2. Own facing planes 4-5: g2 east = (1, 0).
    assert sorted(zip(*np.nonzero(obs[3]))) == [(1, 6), (4, 4)]
    assert tuple(at(obs, "g2")[4:6]) == (1, 0)
    # Next in turn order is player_2 (C): tile and piece on i6 facing SW.
    assert at(obs, "i6")[6] == 1 and tuple(at(obs, "i6")[7:9]) == (-1, -1)
    # Then player_0 (A): tiles d4, b2; pieces b2 (N) and a1 (SE, on a neutral tile).
    assert obs[9].sum() == 2 and at(obs, "d4")[9] == 1 and at(obs, "b2")[9] == 1
    assert tuple(at(obs, "b2")[10:12]) == (0, 1) and tuple(at(obs, "a1")[10:12]) == (1, -1)
    assert at(obs, "a1")[9] == 0
    # Not in the final round: the last plane is empty.
    assert obs[12].sum() == 0


def test_other_players_see_the_same_board_from_their_side_with_no_mask():
    env = position(THREE_PLAYERS, num_players=3, to_move="B")
    mine = env.observe("player_0")
    obs = mine["observation"]
    assert mine["action_mask"].sum() == 0  # player_0 is not to act
    # player_0 (A) views: own slots 0 and 1 are a1 and b2 (reading order).
    assert at(obs, "a1")[0] == 1 and at(obs, "b2")[1] == 1
    assert at(obs, "d4")[3] == 1  # own tiles first
    assert at(obs, "e5")[6] == 1  # then player_1's
    assert at(obs, "i6")[9] == 1  # then player_2's


def test_the_final_round_plane_is_all_ones():
    env = position(THREE_PLAYERS, num_players=3, to_move="B", final_round_turns=2)
    obs = env.observe("player_1")["observation"]
    assert (obs[12] == 1).all()
