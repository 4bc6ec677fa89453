"""Tianshou's collector stacks each step's info into its replay buffer,
which keeps the shapes of the first one: ``infos="numeric"`` keeps them."""

import numpy as np
import pytest

pytest.importorskip("tianshou")  # the interop extra

from tianshou.algorithm.multiagent.marl import MultiAgentPolicy  # noqa: E402
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm  # noqa: E402
from tianshou.data import Collector, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv, PettingZooEnv  # noqa: E402

import azgames  # noqa: E402

from .helpers import GAMES, short  # noqa: E402


@pytest.mark.parametrize("game", GAMES)
def test_a_random_collection_of_whole_games(game):
    def make():
        return PettingZooEnv(azgames.make(game, infos="numeric", **short(game)))

    env = make()
    random = MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy
    policy = MultiAgentPolicy({agent: random(env.action_space) for agent in env.agents})
    np.random.seed(0)  # the random policy draws from numpy's global generator
    collector = Collector(policy, DummyVectorEnv([make, make]), VectorReplayBuffer(4000, 2))
    stats = collector.collect(n_episode=4, reset_before_collect=True)
    assert stats.n_collected_episodes == 4
    winners = collector.buffer.info["winners"]
    assert winners.shape[1:] == (len(env.agents),) and set(np.unique(winners)) <= {0, 1}
    # Turns stay 0 until a game ends: the games' final infos reached the buffer.
    assert collector.buffer.info["turns"].max() > 0
