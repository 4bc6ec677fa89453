"""Gumbel AlphaZero learns (issue 29): a short self-play run per seed, and
each seed's network beats its untrained self against a fixed opponent.

Measured on this 2-core machine: 150 rounds of Azacru self-play (32 games,
64 moves, 16 simulations a move) take about 100 s a seed, 3 minutes with the
evaluation; seed 0's network alone then won 48 of 60 games against random
(untrained: 27). Greedy's moves teach too: 60 rounds of them (245,760
moves) took a fresh Azure Attack network from 0 to 17 wins of 100 games
alone against greedy (seed 0; about 20 s a seed with the games)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import azgames  # noqa: E402
from azgames.agents.az.agent import AZAgent  # noqa: E402
from azgames.agents.match import play_match, wilson_interval  # noqa: E402
from azgames.agents.policy import NumpyPolicy  # noqa: E402
from azgames.training.alphazero import Config, train  # noqa: E402
from azgames.training.net import Net  # noqa: E402

GAMES = 100


def wins_alone(policy: NumpyPolicy, opponent: str, seed: int) -> tuple[int, tuple[float, float]]:
    """The network alone against ``opponent``: its wins of GAMES, with their interval."""
    agent = AZAgent(policy, simulations=0)
    game = policy.meta["game"]
    result = play_match(game, {"az": agent, opponent: opponent}, num_games=GAMES, seed=seed, progress=False)
    return result.wins["az"], wilson_interval(result.wins["az"], GAMES)


def before_and_after(cfg: Config, opponent: str) -> tuple[int, float, int, float]:
    """Train ``cfg``; the wins alone against ``opponent`` of the network it
    started from and of the one it made: (before, its interval's top, after,
    its interval's bottom)."""
    train(cfg)
    trained = NumpyPolicy.load(Path(cfg.out) / "policy.npz")
    torch.manual_seed(cfg.seed)  # the network the run started from
    rules = azgames.make(cfg.game).unwrapped.rules
    untrained = Net(int(np.prod(rules.observation_shape(0))), rules.num_actions, cfg.hidden).to_numpy(
        trained.meta
    )
    before, (_, before_high) = wins_alone(untrained, opponent, cfg.seed)
    after, (after_low, _) = wins_alone(trained, opponent, cfg.seed)
    return before, before_high, after, after_low


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_seeds_trained_network_beats_its_untrained_self_against_random(seed, tmp_path):
    cfg = Config(
        "azacru",
        steps=150 * 32 * 64,
        num_envs=32,
        num_steps=64,
        simulations=16,
        seed=seed,
        eval_every=0,
        final_eval_games=10,
        out=str(tmp_path),
        progress=False,
    )
    before, before_high, after, after_low = before_and_after(cfg, "random")
    assert after_low > before_high, f"seed {seed}: {after} wins of {GAMES} after training, {before} before"


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_greedys_moves_teach_every_seeds_network_to_beat_its_untrained_self_against_greedy(seed, tmp_path):
    """--teacher-rounds: a fresh network that has learnt greedy's moves wins
    games against greedy that it lost untaught, in Azure Attack (whose
    network's search cannot find greedy's routes by itself)."""
    cfg = Config(
        "azure",
        steps=60 * 64 * 64,
        num_envs=64,
        num_steps=64,
        hidden=(64, 64),
        teacher_rounds=60,
        seed=seed,
        eval_every=0,
        eval_games=2,
        final_eval_games=2,
        eval_against=("greedy",),
        out=str(tmp_path),
        progress=False,
    )
    before, before_high, after, after_low = before_and_after(cfg, "greedy")
    assert after_low > before_high, f"seed {seed}: {after} wins of {GAMES} taught, {before} untaught"
