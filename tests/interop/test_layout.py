"""One observation layout across games, as image-guessing clients (AgileRL)
assume: planes channels first, ``(C, H, W)``, in the AEC and the vector env."""

import pytest

import azgames
from tests.players import table as players_table

#: Each game's board, (rows, columns): the last two axes of its observation.
BOARDS = {
    "azacru": (9, 9),
    "azimuth": (6, 6),
    "azimuth_coop": (6, 6),
    "azure": (12, 6),
    "connect_four": (6, 7),
}


@pytest.mark.parametrize("game,num_players", players_table([2, 3]))
def test_observations_are_channels_first(game, num_players):
    assert game in BOARDS, f"add {game}'s board to BOARDS"
    env = azgames.make(game, num_players=num_players)
    shape = env.observation_space(env.possible_agents[0])["observation"].shape
    assert len(shape) == 3 and shape[1:] == BOARDS[game]
    env.reset(seed=0)
    assert env.observe(env.agent_selection)["observation"].shape == shape
    venv = azgames.make_vec(game, num_envs=2, num_players=num_players, seed=0)
    assert venv.single_observation_space.shape == shape
    assert venv.reset()[0].shape == (2, *shape)
