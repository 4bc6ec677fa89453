"""The trainer on a solved game: Connect Four's network learns to choose
optimal moves (``connect_four_env.positions``, solved test positions).

The slow test trains the shipped recipe for each of seeds 0, 1 and 2, on
the local trainer and on Ray (two self-play actors), and asks each network
alone to choose optimal moves more often than its untrained self, beyond
both 95% intervals; the default run's smoke test trains a few rounds and
checks the scoring reads the network's own moves.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

import azgames  # noqa: E402
from azgames.agents.policy import NumpyPolicy  # noqa: E402
from azgames.training.alphazero import Config, train  # noqa: E402
from azgames.training.flags import config_from_flags  # noqa: E402
from azgames.training.net import Net  # noqa: E402
from azgames.training.recipes import CONNECT_FOUR  # noqa: E402
from connect_four_env import positions as test_set  # noqa: E402


def recipe(**fields) -> Config:
    """The shipped network's recipe (azgames.training.recipes) with these fields."""
    cfg = config_from_flags(Config, CONNECT_FOUR, game="connect_four", progress=False)
    for name, value in fields.items():
        setattr(cfg, name, value)
    return cfg


def network_alone_score(policy: NumpyPolicy, found: list[test_set.Position]) -> test_set.Score:
    """The share of ``found`` where the network's most likely move is optimal."""
    env = azgames.make("connect_four")

    def choose(p: test_set.Position) -> int:
        env.reset(seed=0)
        for column in p.columns:
            env.step(column)
        seen = env.observe(env.agent_selection)
        return int(policy.act(seen["observation"][None], seen["action_mask"][None].astype(bool))[0])

    return test_set.score(choose, found)


def untrained(cfg: Config) -> NumpyPolicy:
    """The network a run of ``cfg`` starts from (its seed's initial weights)."""
    import torch

    torch.manual_seed(cfg.seed)
    rules = azgames.make("connect_four").unwrapped.rules
    net = Net(rules.observation_shape(0), rules.num_actions, cfg.hidden, 1, cfg.conv)
    meta = {"game": "connect_four", "num_players": 2, "obs_shape": list(rules.observation_shape(0))}
    return net.to_numpy({**meta, "conv": cfg.conv})


def test_a_few_rounds_train_and_the_score_reads_the_networks_moves(tmp_path):
    cfg = recipe(
        steps=2048,
        num_envs=64,
        simulations=4,
        hidden=(32,),
        eval_every=0,
        final_eval_games=2,
        eval_against=("random",),
        out=str(tmp_path),
    )
    train(cfg)
    policy = NumpyPolicy.load(tmp_path / "policy.npz")
    found = test_set.load()[:60]
    got = network_alone_score(policy, found)
    # The score counts exactly the positions whose network move is optimal.
    rules = azgames.make("connect_four").unwrapped.rules
    obs = np.stack(
        [np.stack([(p.board()[::-1] == p.stones % 2), (p.board()[::-1] == 1 - p.stones % 2)]) for p in found]
    )
    mask = np.stack([p.board()[-1] == -1 for p in found])
    moves = policy.act(obs.reshape(len(found), -1).astype(np.int8), mask)
    assert got.optimal == sum(p.optimal(int(m)) for p, m in zip(found, moves))
    assert got.positions == len(found) and rules.num_actions == 7


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["suite", "ray"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_connect_four_training_chooses_optimal_moves_more_often_than_its_untrained_self(
    seed, backend, tmp_path
):
    """On either backend: the local trainer, or self-play in two Ray actors."""
    cfg = recipe(
        seed=seed,
        steps=400_000,
        eval_every=0,
        final_eval_games=50,
        eval_against=("random",),
        out=str(tmp_path),
    )
    found = test_set.load()
    before = network_alone_score(untrained(cfg), found)
    if backend == "ray":
        pytest.importorskip("ray")
        from azgames.training import alphazero_ray
        from azgames.training.config import AlphaZeroRayConfig

        alphazero_ray.train(AlphaZeroRayConfig(**cfg.__dict__, actors=2))
    else:
        train(cfg)
    after = network_alone_score(NumpyPolicy.load(tmp_path / "policy.npz"), found)
    print(f"seed {seed}, {backend}: untrained {before}, trained {after}")
    assert after.low > before.high, (before, after)
