"""TorchRL's PettingZoo wrapper batches every agent's infos into tensors of
the shapes it saw at reset: ``infos="numeric"`` gives it such infos."""

import pytest
import torch
from torchrl.envs.libs.pettingzoo import PettingZooWrapper

import azgames

from .helpers import GAMES, short


@pytest.mark.parametrize("game", GAMES)
def test_a_masked_rollout(game):
    env = PettingZooWrapper(
        env=azgames.make(game, infos="numeric", **short(game)), use_mask=True, categorical_actions=True
    )
    torch.manual_seed(0)
    rollout = env.rollout(max_steps=200)  # random actions from the masked action spec: legal ones
    assert rollout.batch_size[0] > 1
    groups = list(env.group_map)
    for group in groups:
        info = rollout["next", group, "info"]
        agents = len(env.group_map[group])
        assert info["winners"].shape[-2:] == (agents, len(env.possible_agents))
        assert info["won"].shape[-1] == agents
    if bool(rollout["next", "done"].any()):  # a game ended: its winners are counted once each
        last = rollout[-1]
        won = torch.cat([last["next", g, "info", "won"].flatten() for g in groups])
        winners = last["next", groups[0], "info", "winners"][0]
        assert int(won.sum()) == int(winners.sum())
