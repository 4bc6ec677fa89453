"""Gumbel AlphaZero's self-play and learning step (azgames/training/alphazero.py)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import azgames  # noqa: E402
from azgames.training.alphazero import learn, self_play  # noqa: E402
from azgames.training.net import Net  # noqa: E402


@pytest.fixture(scope="module")
def played():
    torch.manual_seed(0)
    env = azgames.make("azacru", num_players=2)
    env.reset(seed=0)
    size = env.last()[0]["observation"].size
    net = Net(size, env.unwrapped.rules.num_actions, hidden=(64, 64))
    return net, self_play("azacru", net, num_envs=4, moves=120, simulations=4, seed=0)


def test_self_play_keeps_each_finished_games_moves_with_their_targets(played):
    _, samples = played
    assert len(samples.value) > 0
    # The improved policy is a distribution over the legal actions only.
    assert np.allclose(samples.policy.sum(1), 1.0, atol=1e-5)
    assert not samples.policy[~samples.mask].any()
    # Azacru pays +1 / -1 / 0 at the end only: each move's target is its mover's result.
    assert set(np.unique(samples.value)) <= {-1.0, 0.0, 1.0}
    assert samples.obs.shape[0] == samples.mask.shape[0] == samples.value.size


def test_the_learning_step_fits_the_targets_it_is_given(played):
    net, samples = played
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-3)
    first = learn(net, optimizer, samples)
    for _ in range(30):
        last = learn(net, optimizer, samples)
    assert last < 0.7 * first


def test_self_play_of_more_than_two_sides_is_refused_by_name(played):
    net, _ = played
    with pytest.raises(ValueError, match="3 sides"):
        self_play("azacru", net, num_players=3)
