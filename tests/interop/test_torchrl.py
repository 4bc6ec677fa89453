"""TorchRL's PettingZoo wrapper batches every agent's infos into tensors of
the shapes it saw at reset: ``infos="numeric"`` gives it such infos."""

import pytest

torch = pytest.importorskip("torch")  # the interop extra
pytest.importorskip("torchrl")

from torchrl.envs.libs.pettingzoo import PettingZooWrapper  # noqa: E402

import azgames  # noqa: E402

from .helpers import GAMES, short  # noqa: E402


@pytest.mark.parametrize("game", GAMES)
def test_a_masked_rollout(game):
    env = PettingZooWrapper(
        env=azgames.make(game, infos="numeric", **short(game)), use_mask=True, categorical_actions=True
    )
    torch.manual_seed(0)
    # Random actions from the masked action spec (legal ones), until the game ends.
    rollout = env.rollout(max_steps=2000)
    assert rollout.batch_size[0] > 1
    groups = list(env.group_map)
    for group in groups:
        info = rollout["next", group, "info"]
        agents = len(env.group_map[group])
        assert info["winners"].shape[-2:] == (agents, len(env.possible_agents))
        assert info["won"].shape[-1] == agents
    assert bool(rollout["next", "done"].any()), "the rollout ended before its game"
    last = rollout[-1]  # the game's end: its winners are counted once each
    won = torch.cat([last["next", g, "info", "won"].flatten() for g in groups])
    winners = last["next", groups[0], "info", "winners"][0]
    assert int(won.sum()) == int(winners.sum())
    assert int(last["next", groups[0], "info", "turns"].max()) > 0
