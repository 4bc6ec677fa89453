"""RLlib learning: the recipe's win rates after a fixed budget, over 3 seeds.

    python benchmarks/rllib_learning.py                  # the table only
    python benchmarks/rllib_learning.py --save           # the same, replacing benchmarks/results/rllib_learning.json
    python benchmarks/rllib_learning.py --steps 20000    # a shorter budget

Each seed runs ``python -m azgames train GAME --backend rllib --steps STEPS
--seed S`` (in-process: :func:`azgames.rllib.selfplay.train`, local Ray,
2 env runners, the recipe's defaults) and keeps the final
evaluation of its ``policy.npz``: 400 games against random and 400 against
greedy, seats alternating, the policy's most likely action (the suite's
batched evaluator). The table gives each seed and the mean over seeds; the
interval is the 95% Wilson interval of all seeds' games pooled. Needs the
``rllib`` extra.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "passive")

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path (runpy)
import results_file  # noqa: E402

COMMITTED = results_file.RESULTS / "rllib_learning.json"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="azacru")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=240_000, help="env steps a seed (default 240,000)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--games", type=int, default=400, help="evaluation games per opponent")
    parser.add_argument("--num-env-runners", type=int, default=2, help="sampling processes (default 2)")
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    path = results_file.destination(parser, args, COMMITTED)
    import ray

    from azgames.agents.match import wilson_interval
    from azgames.rllib.selfplay import Config, train

    ray.init(include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in args.seeds:
            record = train(
                Config(
                    game=args.game,
                    num_players=args.players,
                    seed=seed,
                    steps=args.steps,
                    num_env_runners=args.num_env_runners,
                    eval_every=0,
                    final_eval_games=args.games,
                    out=f"{tmp}/seed{seed}",
                    progress=True,
                )
            )
            runs.append(
                {
                    "seed": seed,
                    "steps": record["steps"],
                    "seconds": record["seconds"],
                    "steps_per_s": record["steps_per_s"],
                    "league_size": record["league_size"],
                    "final_evaluation": record["final_evaluation"],
                }
            )
            print(
                f"seed {seed}: {record['steps']:,} steps in {record['seconds']:.0f} s; "
                + "; ".join(
                    f"vs {o} {100 * e['win_rate']:.1f}%" for o, e in record["final_evaluation"].items()
                ),
                flush=True,
            )
    ray.shutdown()
    summary = {}
    for opponent in runs[0]["final_evaluation"]:
        evals = [r["final_evaluation"][opponent] for r in runs]
        wins, games = sum(e["wins"] for e in evals), sum(e["games"] for e in evals)
        lo, hi = wilson_interval(wins, games)
        summary[opponent] = {
            "mean_win_rate": round(sum(e["win_rate"] for e in evals) / len(evals), 4),
            "pooled_lo": round(lo, 4),
            "pooled_hi": round(hi, 4),
            "per_seed": [round(e["win_rate"], 4) for e in evals],
        }
    out = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "ray": ray.__version__,
        "game": args.game,
        "players": args.players,
        "steps": args.steps,
        "seeds": args.seeds,
        "num_env_runners": args.num_env_runners,
        "command": "python benchmarks/rllib_learning.py " + " ".join(argv or sys.argv[1:]),
        "summary": summary,
        "runs": runs,
    }
    print(f"\n{args.game}, {args.players} players, {args.steps:,} env steps a seed, seeds {args.seeds}")
    print(f"{'opponent':<10} {'mean win rate':>14} {'pooled 95%':>16}   per seed")
    for o, s in summary.items():
        print(
            f"{o:<10} {100 * s['mean_win_rate']:>13.1f}% {100 * s['pooled_lo']:>7.1f}-{100 * s['pooled_hi']:.1f}%"
            f"   {', '.join(f'{100 * w:.1f}%' for w in s['per_seed'])}"
        )
    if path is not None:
        results_file.write_json(path, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
