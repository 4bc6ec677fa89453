"""``azgames train --backend rllib``: RLlib's PPO with a league of snapshots,
locally or on a Ray cluster (the ``rllib`` extra; see :mod:`.selfplay`)."""

from __future__ import annotations

import argparse

from azgames.cli_args import check_agents
from azgames.training.cli import check_run_arguments, run_folder


def train_rllib(args: argparse.Namespace, parser: argparse.ArgumentParser, options: dict) -> int:
    """``train --backend rllib``: the arguments checked (the game and its
    ``options`` already are), then :func:`.selfplay.train`."""
    for name in ("steps", "eval_games", "final_eval_games", "num_envs_per_env_runner"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} {getattr(args, name)}: give a number >= 1")
    if args.num_env_runners < 0:
        parser.error(f"--num-env-runners {args.num_env_runners}: give a number >= 0")
    check_run_arguments(parser, args)
    check_agents(parser, args.game, args.builtin_opponents, args.players)
    from azgames.rllib.selfplay import Config, train

    out = run_folder(parser, args)
    cfg = Config(
        game=args.game,
        num_players=args.players,
        options=options,
        seed=args.seed,
        steps=args.steps,
        minutes=args.minutes,
        out=out,
        address=args.address,
        num_env_runners=args.num_env_runners,
        num_envs_per_env_runner=args.num_envs_per_env_runner,
        builtin_opponents=dict.fromkeys(args.builtin_opponents, 1.0),
        eval_every=args.eval_every,
        eval_games=args.eval_games,
        final_eval_games=args.final_eval_games,
        eval_against=tuple(args.eval_against),
        progress=not args.quiet,
    )
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
        f"policy, logs, curve and RLlib checkpoint in {out}/ (policy.npz plays as: "
        f"python -m azgames play {args.game} --agents ppo:path={out}/policy.npz random)"
    )
    return 0
