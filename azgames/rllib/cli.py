"""``azgames train --backend rllib``: RLlib's PPO with a league of snapshots,
locally or on a Ray cluster (the ``rllib`` extra; see :mod:`.selfplay`)."""

from __future__ import annotations

import argparse

from .config import RllibConfig


def train_rllib(cfg: RllibConfig, args: argparse.Namespace) -> int:
    """``train --backend rllib`` with its config built and checked: :func:`.selfplay.train`."""
    from azgames.rllib.selfplay import train

    record = train(cfg, argv=args.argv)
    print(
        f"trained {record['steps']:,} env steps in {record['seconds']:.0f} s "
        f"({record['steps_per_s']:,} steps/s); "
        + "; ".join(
            f"vs {o} {100 * e['win_rate']:.1f}% wins ({100 * e['win_rate_lo']:.1f}-"
            f"{100 * e['win_rate_hi']:.1f})"
            for o, e in record["final_evaluation"].items()
        )
    )
    print(
        f"policy, logs, curve and RLlib checkpoint in {cfg.out}/ (policy.npz plays as: "
        f"python -m azgames play {cfg.game} --agents ppo:path={cfg.out}/policy.npz random)"
    )
    return 0
