"""PettingZoo's own tests: ``render_test`` (every render mode, "human"
included) and ``parallel_api_test`` through PettingZoo's conversion of a
turn-based AEC env to the parallel API."""

import pytest
from pettingzoo.test import parallel_api_test, render_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import azgames

from .helpers import GAMES, short


@pytest.mark.parametrize("game", GAMES)
def test_render_test(game, capsys):
    render_test(lambda render_mode=None: azgames.make(game, render_mode=render_mode))
    assert capsys.readouterr().out.strip()  # "human" printed the picture


@pytest.mark.parametrize("game", GAMES)
def test_human_render_prints_the_ansi_picture(game, capsys):
    human, ansi = azgames.make(game, render_mode="human"), azgames.make(game, render_mode="ansi")
    human.reset(seed=3)
    ansi.reset(seed=3)
    assert human.render() is None
    assert capsys.readouterr().out == ansi.render() + "\n"
    assert "human" in human.metadata["render_modes"] and human.metadata["render_fps"] > 0


@pytest.mark.parametrize("game", GAMES)
def test_parallel_api_test_of_the_turn_based_conversion(game):
    parallel_api_test(turn_based_aec_to_parallel(azgames.make(game, **short(game))), num_cycles=60)
