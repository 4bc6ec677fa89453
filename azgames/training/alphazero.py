"""Gumbel AlphaZero's self-play and learning step (issue 29, under way).

Games are played by the batched Gumbel search (:mod:`azgames.agents.az.search`)
with the network being trained: every game of a vector env moves at once,
one search over all of them. Each move keeps the root's observation, legal
actions and the search's improved policy; when a game ends, each of its moves
gets the return its mover earned from there on as the value target. The
learning step fits the network's policy to the improved policies
(cross-entropy over the legal actions) and its value to the returns.

Still to come for the issue: the command line (``train --algo alphazero``),
the replay buffer with symmetries, a convolutional network beside this MLP,
checkpoints and curves, the shipped ``az`` agents, and the dice games.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import torch
from torch import nn

import azgames
from azgames.agents.az.search import GumbelSearch


class AZNet(nn.Module):
    """An MLP over the flat observation: prior logits over the actions and a
    value in [-1, 1] for the agent to move."""

    def __init__(self, obs_size: int, actions: int, hidden: int = 256):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(obs_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.policy = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.trunk(obs)
        return self.policy(h), torch.tanh(self.value(h)).squeeze(-1)


def evaluator(net: AZNet):
    """The search's ``evaluate(obs, mask)`` over ``net``, one batched forward pass."""

    def evaluate(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with torch.no_grad():
            logits, values = net(torch.as_tensor(obs, dtype=torch.float32))
        return logits.double().numpy(), values.double().numpy()

    return evaluate


class Samples(NamedTuple):
    """Moves of finished games, one row each: what the network learns."""

    obs: np.ndarray  # (M, F) int8: the root's observation, from its mover's side
    mask: np.ndarray  # (M, A) bool: its legal actions
    policy: np.ndarray  # (M, A) float32: the search's improved policy
    value: np.ndarray  # (M,) float32: the mover's return from this move on


def self_play(
    game: str,
    net: AZNet,
    num_envs: int = 16,
    moves: int = 64,
    simulations: int = 16,
    num_players: int = 2,
    seed: int = 0,
) -> Samples:
    """``moves`` moves of ``num_envs`` games at once, each move the search's
    (``simulations`` a move, Gumbel noise on for exploration); the samples of
    every game that ended on the way (a game cut off by the last move is
    left out)."""
    venv = azgames.make_vec(game, num_envs=num_envs, seed=seed, num_players=num_players)
    obs, mask = venv.reset()
    search = GumbelSearch(venv.rules, evaluator(net), simulations=simulations, seed=seed)
    size = obs[0].size
    n, players = num_envs, venv.num_players
    kept_obs = np.zeros((moves, n, size), np.int8)
    kept_mask = np.zeros((moves, n, venv.num_actions), bool)
    kept_policy = np.zeros((moves, n, venv.num_actions), np.float32)
    mover = np.zeros((moves, n), np.int64)
    before = np.zeros((moves, n))  # the mover's return so far in its game, at the move
    episode = np.zeros((moves, n), np.int64)
    returns = np.zeros((n, players))  # each slot's game so far
    finals = np.full((n, moves + 1, players), np.nan)  # each slot's finished games' returns
    current = np.zeros(n, np.int64)
    slots = np.arange(n)
    for m in range(moves):
        mover[m] = venv.player
        kept_obs[m] = obs.reshape(n, size)
        kept_mask[m] = mask
        chosen, kept_policy[m] = search.run(venv.state, mover[m], size)
        before[m] = returns[slots, mover[m]]
        episode[m] = current
        obs, mask, rewards, terminated, truncated, _ = venv.step(chosen)
        returns += rewards
        done = terminated | truncated
        finals[slots[done], current[done]] = returns[done]
        returns[done] = 0.0
        current[done] += 1
    final = finals[slots[None, :], episode, mover]  # nan: the game did not end
    kept = ~np.isnan(final)
    return Samples(
        kept_obs[kept],
        kept_mask[kept],
        kept_policy[kept],
        (final - before)[kept].astype(np.float32),
    )


def learn(net: AZNet, optimizer: torch.optim.Optimizer, samples: Samples, batch_size: int = 256) -> float:
    """One pass over ``samples`` in shuffled minibatches; the mean loss
    (policy cross-entropy plus value squared error)."""
    order = np.random.default_rng(len(samples.value)).permutation(len(samples.value))
    total = 0.0
    for start in range(0, len(order), batch_size):
        rows = order[start : start + batch_size]
        obs = torch.as_tensor(samples.obs[rows], dtype=torch.float32)
        mask = torch.as_tensor(samples.mask[rows])
        target = torch.as_tensor(samples.policy[rows])
        logits, value = net(obs)
        log_pi = torch.log_softmax(logits.masked_fill(~mask, -1e9), dim=-1)
        loss = (
            -(target * log_pi).sum(-1).mean() + ((value - torch.as_tensor(samples.value[rows])) ** 2).mean()
        )
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += float(loss) * len(rows)
    return total / max(len(order), 1)
