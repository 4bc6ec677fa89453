"""Gumbel AlphaZero learns (issue 29): a short self-play run per seed, and
each seed's network beats its untrained self against a fixed opponent.

Measured on this 2-core machine: 150 rounds of Azacru self-play (32 games,
64 moves, 16 simulations a move) take about 100 s a seed, 3 minutes with the
evaluation; seed 0's network alone then won 48 of 60 games against random
(untrained: 27)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from azgames.agents.az.agent import AZAgent  # noqa: E402
from azgames.agents.match import play_match, wilson_interval  # noqa: E402
from azgames.training.alphazero import train  # noqa: E402

GAMES = 100


def wins_against_random(net, meta, seed: int) -> tuple[int, tuple[float, float]]:
    agent = AZAgent(net.to_numpy(meta), simulations=0)  # the network alone
    result = play_match(
        "azacru", {"az": agent, "random": "random"}, num_games=GAMES, seed=seed, progress=False
    )
    return result.wins["az"], wilson_interval(result.wins["az"], GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_seeds_trained_network_beats_its_untrained_self_against_random(seed):
    untrained, meta = train("azacru", 0, seed=seed)
    trained, _ = train("azacru", 150, num_envs=32, moves=64, simulations=16, seed=seed)
    before, (_, before_high) = wins_against_random(untrained, meta, seed)
    after, (after_low, _) = wins_against_random(trained, meta, seed)
    assert after_low > before_high, f"seed {seed}: {after} wins of {GAMES} after training, {before} before"
