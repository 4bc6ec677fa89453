"""Gumbel AlphaZero's self-play and learning step (issue 29, under way).

Games are played by the batched Gumbel search (:mod:`azgames.agents.az.search`)
with the network being trained: every game of a vector env moves at once,
one search over all of them. Each move keeps the root's observation, legal
actions and the search's improved policy; when a game ends, each of its moves
gets the return its mover earned from there on as the value target. The
learning step fits the network's policy to the improved policies
(cross-entropy over the legal actions) and its value to the returns.

Still to come for the issue: the command line (``train --algo alphazero``),
the replay buffer with symmetries, a convolutional network beside the MLP,
checkpoints and curves, the shipped ``az`` agents, and the dice games.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import torch

import azgames
from azgames.agents.az.search import GumbelSearch

from .net import Net


def evaluator(net: Net):
    """The search's ``evaluate(obs, mask)`` over ``net`` (the suite's
    policy-and-value network, which :class:`~azgames.agents.policy.NumpyPolicy`
    runs without torch), one batched forward pass; values clipped to [-1, 1]."""

    def evaluate(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with torch.no_grad():
            logits, values = net(torch.as_tensor(obs), torch.as_tensor(mask, dtype=torch.bool))
        return logits.double().numpy(), np.clip(values.double().numpy(), -1.0, 1.0)

    return evaluate


class Samples(NamedTuple):
    """Moves of finished games, one row each: what the network learns."""

    obs: np.ndarray  # (M, F) int8: the root's observation, from its mover's side
    mask: np.ndarray  # (M, A) bool: its legal actions
    policy: np.ndarray  # (M, A) float32: the search's improved policy
    value: np.ndarray  # (M,) float32: the mover's return from this move on


def self_play(
    game: str,
    net: Net,
    num_envs: int = 16,
    moves: int = 64,
    simulations: int = 16,
    num_players: int = 2,
    seed: int = 0,
) -> Samples:
    """``moves`` moves of ``num_envs`` games at once, each move the search's
    (``simulations`` a move, Gumbel noise on for exploration); the samples of
    every game that ended on the way (a game cut off by the last move is
    left out). Games of one or two sides (the search's values)."""
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


def learn(net: Net, optimizer: torch.optim.Optimizer, samples: Samples, batch_size: int = 256) -> float:
    """One pass over ``samples`` in shuffled minibatches; the mean loss
    (policy cross-entropy plus value squared error)."""
    order = np.random.default_rng(len(samples.value)).permutation(len(samples.value))
    total = 0.0
    for start in range(0, len(order), batch_size):
        rows = order[start : start + batch_size]
        logits, value = net(torch.as_tensor(samples.obs[rows]), torch.as_tensor(samples.mask[rows]))
        target = torch.as_tensor(samples.policy[rows])
        log_pi = torch.log_softmax(logits, dim=-1)  # illegal actions masked by the network
        loss = (
            -(target * log_pi).sum(-1).mean() + ((value - torch.as_tensor(samples.value[rows])) ** 2).mean()
        )
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(rows)
    return total / max(len(order), 1)


def train(
    game: str,
    iterations: int,
    num_players: int = 2,
    num_envs: int = 16,
    moves: int = 64,
    simulations: int = 16,
    hidden: tuple[int, ...] = (128, 128),
    epochs: int = 4,
    lr: float = 1e-3,
    seed: int = 0,
    report=None,
) -> tuple[Net, dict]:
    """``iterations`` rounds of self-play then ``epochs`` passes of learning
    over that round's samples; the network and its meta (for
    :meth:`Net.to_numpy`). ``report(iteration, samples, loss)`` hears each round."""
    torch.manual_seed(seed)
    env = azgames.make(game, num_players=num_players)
    env.reset(seed=seed)
    shape = env.unwrapped.observe(env.agent_selection)["observation"].shape
    net = Net(int(np.prod(shape)), env.unwrapped.rules.num_actions, hidden)
    meta = {
        "game": game,
        "num_players": num_players,
        "obs_shape": list(shape),
        "hidden": list(hidden),
        "activation": "tanh",
    }
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    for k in range(iterations):
        samples = self_play(game, net, num_envs, moves, simulations, num_players, seed=seed * 100_003 + k)
        loss = 0.0
        for _ in range(epochs):
            loss = learn(net, optimizer, samples)
        if report is not None:
            report(k, samples, loss)
    return net, meta
