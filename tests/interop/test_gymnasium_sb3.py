"""Gymnasium's and Stable-Baselines3's env checkers accept the single-agent
wrapper as it comes: its defaults (an illegal action penalized, since the
checkers step with unmasked samples) and its declared ``render_fps``."""

import warnings

import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env

pytest.importorskip("stable_baselines3")  # the interop (or train) extra

from stable_baselines3.common.env_checker import check_env as sb3_check_env  # noqa: E402

from azgames.training.single_agent import SingleAgentEnv  # noqa: E402

from .helpers import GAMES  # noqa: E402


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env(game):
    gymnasium_check_env(SingleAgentEnv(game))
    gymnasium_check_env(SingleAgentEnv(game, render_mode="ansi"))  # and its render


@pytest.mark.parametrize("game", GAMES)
def test_sb3_check_env(game):
    with warnings.catch_warnings():
        # SB3 advises on the int8 planes (not an image, not float32): advice, not a failure.
        warnings.simplefilter("ignore", UserWarning)
        sb3_check_env(SingleAgentEnv(game), warn=True)


@pytest.mark.parametrize("game", GAMES)
def test_an_unmasked_sample_ends_the_episode_with_a_penalty(game):
    env = SingleAgentEnv(game)
    env.reset(seed=0)
    while env.action_masks().all():  # early in Connect Four every column is free
        _, _, terminated, truncated, _ = env.step(int(env.action_masks().nonzero()[0][0]))
        if terminated or truncated:
            env.reset()
    illegal = int((~env.action_masks()).nonzero()[0][0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -1.0 and terminated and not truncated
    assert info["illegal_action"]["action"] == illegal
    assert env.metadata["render_fps"] > 0
