"""Every setting of an RLlib run, typed (the command line's ``train
--backend rllib``, its flags built from the fields: :mod:`azgames.training.flags`).
Needs neither Ray nor torch, so the command line is built without them."""

from __future__ import annotations

from dataclasses import dataclass, field

from azgames.core.checks import MAX_SEED
from azgames.training.config import (
    ADDRESS,
    EVAL_AGAINST,
    EVAL_EVERY,
    EVAL_GAMES,
    FINAL_EVAL_GAMES,
    MAX_COUNT,
    MINUTES,
    SEED,
)
from azgames.training.flags import option


def parse_opponents(specs: list[str]) -> dict[str, float]:
    """The baselines named on the command line, each as often as the others."""
    return dict.fromkeys(specs, 1.0)


@dataclass
class RllibConfig:
    game: str
    num_players: int = 2
    options: dict = field(default_factory=dict)
    seed: int = option(0, help=SEED, range=(0, MAX_SEED))
    # Actions through env.step; the built-in opponents' are not counted.
    steps: int = option(1_000_000, help="env steps sampled", range=(1, MAX_COUNT))
    minutes: float | None = option(None, help=MINUTES, above=0)
    out: str = "runs/rllib"
    address: str | None = option(None, help=ADDRESS)
    num_env_runners: int = option(
        2, help="sampling processes (RLlib's default; 0 samples in the driver)", range=(0, 4096)
    )
    num_envs_per_env_runner: int = option(
        8, help="games each sampling process steps in turn", range=(1, 4096)
    )
    builtin_opponents: dict = option(
        help="the baselines that play half the games, equally often, e.g. random greedy ppo mcts:simulations=50",
        default_factory=lambda: {"random": 1.0, "greedy": 1.0},
        parse=parse_opponents,
        nargs="+",
        metavar="AGENT",
    )
    builtin_share: float = 0.5
    win_rate_threshold: float = 0.8
    snapshot_min_games: int = 50  # games against the gate between snapshots
    # PPO as the suite's trainer has it (azgames.training.config.PPOConfig), RLlib's names
    hidden: tuple[int, ...] = (128, 128)
    lr: float = 1e-3
    gamma: float = 0.995  # rewards come at the end; games last tens of turns
    lambda_: float = 0.95
    entropy_coeff: float = 0.01
    clip_param: float = 0.2
    grad_clip: float = 0.5
    train_batch_size: int = 4000  # env steps an iteration, all runners together
    minibatch_size: int = 1000
    num_epochs: int = 4
    eval_every: int = option(5, help="iterations " + EVAL_EVERY, range=(0, MAX_COUNT))
    eval_games: int = option(200, help=EVAL_GAMES, range=(1, MAX_COUNT))
    final_eval_games: int = option(400, help=FINAL_EVAL_GAMES, range=(1, MAX_COUNT))
    eval_against: tuple[str, ...] = option(
        ("random", "greedy"), help=EVAL_AGAINST, choices=("random", "greedy")
    )
    progress: bool = True


__all__ = ["RllibConfig"]
