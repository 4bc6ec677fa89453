"""Azacru's declared symmetries (azacru_env/symmetry.py), checked against
the kernels: for each of the square's rotations and reflections, along
random games with 2 and 3 players, the transformed position's observation
and legal moves are the transformed ones, and the transformed move leads to
the transformed position. A trainer may then learn from every transformed
sample (AlphaZero's augmentation)."""

import numpy as np
import pytest

import azgames
from azacru_env.symmetry import action_map, facing_map, field_map, symmetries, transforms
from azgames.core.state import clone
from azgames.core.symmetry import symmetries as declared
from tests.symmetry_checks import seen

from .helpers import position


def transformed(state, m):
    """The state with every field and facing moved by ``m``."""
    cells, facings = field_map(m), facing_map(m)
    tiles, occupant = np.empty_like(state.tiles), np.empty_like(state.occupant)
    tiles[:, cells], occupant[:, cells] = state.tiles, state.occupant
    field = np.where(state.piece_field >= 0, cells[state.piece_field], -1).astype(state.piece_field.dtype)
    assert len(set(facings)) == 8  # a permutation of the compass
    facing = facings[state.piece_facing].astype(state.piece_facing.dtype)
    return clone(state)._replace(tiles=tiles, occupant=occupant, piece_field=field, piece_facing=facing)


@pytest.mark.parametrize("players", [2, 3])
def test_every_rotation_and_reflection_is_the_same_game(players):
    rules = azgames.make("azacru", num_players=players, max_turns=40).unwrapped.rules
    maps = transforms()[1:]
    syms = symmetries(rules)
    assert len(syms) == 7 and len(declared(rules)) == 7
    rng = np.random.default_rng(players)
    state = clone(rules.initial_state(np.zeros(1, np.uint64)))
    obs_buf, mask_buf = np.zeros(rules.observation_shape(0), np.int8), np.zeros(rules.num_actions, np.int8)
    rewards = np.zeros(players, np.float32)
    moves = 0
    while state.outcome[0] == 0 and moves < 120:
        obs, mask = seen(rules, state)
        legal = np.flatnonzero(mask[0])
        action = int(rng.choice(legal))
        after = clone(state)
        rules.step(after, action, obs_buf, mask_buf, rewards)
        for m, sym in zip(maps, syms):
            turned = transformed(state, m)
            turned_obs, turned_mask = seen(rules, turned)
            np.testing.assert_array_equal(turned_obs, sym.observations(obs))
            np.testing.assert_array_equal(turned_mask, sym.actions(mask))
            rules.step(turned, int(action_map(m, rules.num_actions)[action]), obs_buf, mask_buf, rewards)
            for name, want in transformed(after, m)._asdict().items():
                np.testing.assert_array_equal(getattr(turned, name), want, err_msg=name)
        state, moves = after, moves + 1
    assert moves >= 30  # long enough to have claimed tiles and crossed borders


WEST_EAST = """
9 .   .   .   | .   .   .   | .   .   .
8 .   .   .   | .   .   .   | .   .   .
7 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
6 .   .   .   | .   .   .   | .   .   .
5 .   .   .   | .   .   .   | .   .   .
4 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
3 .A> .   .   | .   .   .   | .   .   .
2 .   .   .   | .   .   .   | .   .   .
1 .   .   .   | .   .   .   | .   .   .B^
"""
EAST_WEST = """
9 .   .   .   | .   .   .   | .   .   .
8 .   .   .   | .   .   .   | .   .   .
7 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
6 .   .   .   | .   .   .   | .   .   .
5 .   .   .   | .   .   .   | .   .   .
4 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
3 .   .   .   | .   .   .   | .   .   .A<
2 .   .   .   | .   .   .   | .   .   .
1 .B^ .   .   | .   .   .   | .   .   .
"""


def test_in_the_mirror_a_left_turn_is_a_right_turn():
    """A piece on a3 facing east steps to b4: 45 degrees left of its facing.
    Mirrored west to east, the piece stands on i3 facing west, and the
    mirrored move is its step to h4, 45 degrees right of its facing."""
    env = position(WEST_EAST, num_players=2, to_move="A").unwrapped
    mirrored = position(EAST_WEST, num_players=2, to_move="A").unwrapped
    mirror = next(m for m in transforms() if m[0, 0] == -1 and m[1, 1] == 1)
    moves = action_map(mirror, env.rules.num_actions)
    assert mirrored.action_to_str(int(moves[env.str_to_action("a3-b4:NE")])) == "i3-h4:NW"
    assert mirrored.action_to_str(int(moves[env.str_to_action("a3-c3:E")])) == "i3-g3:W"
