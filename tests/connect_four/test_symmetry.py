"""Connect Four's declared mirror (connect_four_env/symmetry.py), checked
against the kernels along random games: the mirrored position's observation
and legal moves are the mirrored ones, and the mirrored move leads to the
mirrored position. The trainer learns from mirrored samples on that ground."""

import numpy as np

import azgames
from azgames.core.state import clone
from azgames.core.symmetry import symmetries
from tests.symmetry_checks import seen

from .helpers import diagram, position


def mirrored(state):
    """A copy of the state with its board seen in a mirror."""
    return clone(state)._replace(board=state.board[:, :, ::-1].copy())


def test_the_mirror_is_the_only_symmetry_and_it_swaps_the_outer_columns():
    rules = azgames.make("connect_four").unwrapped.rules
    (mirror,) = symmetries(rules)
    assert list(mirror.action_index) == [6, 5, 4, 3, 2, 1, 0]
    state = position(
        """
        .......
        .......
        .......
        .......
        .......
        XO.....
        """
    )
    obs, _ = seen(rules, state)
    turned, _ = seen(rules, mirrored(state))
    np.testing.assert_array_equal(turned, mirror.observations(obs))
    assert diagram(mirrored(state)).splitlines()[-1] == ".....OX"


def test_a_mirrored_game_is_the_same_game_mirrored():
    rules = azgames.make("connect_four").unwrapped.rules
    (mirror,) = symmetries(rules)
    rng = np.random.default_rng(0)
    obs_buf, mask_buf = np.zeros(rules.observation_shape(0), np.int8), np.zeros(7, np.int8)
    rewards, turned_rewards = np.zeros(2, np.float32), np.zeros(2, np.float32)
    games = 0
    for _ in range(20):
        state = clone(rules.initial_state(np.zeros(1, np.uint64)))
        while state.outcome[0] == 0:
            obs, mask = seen(rules, state)
            turned = mirrored(state)
            turned_obs, turned_mask = seen(rules, turned)
            np.testing.assert_array_equal(turned_obs, mirror.observations(obs))
            np.testing.assert_array_equal(turned_mask, mirror.actions(mask))
            action = int(rng.choice(np.flatnonzero(mask[0])))
            rules.step(state, action, obs_buf, mask_buf, rewards)
            rules.step(turned, 6 - action, obs_buf, mask_buf, turned_rewards)
            for name, want in mirrored(state)._asdict().items():
                np.testing.assert_array_equal(getattr(turned, name), want, err_msg=name)
            np.testing.assert_array_equal(turned_rewards, rewards)
        games += 1
    assert games == 20
