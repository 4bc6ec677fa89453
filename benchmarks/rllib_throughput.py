"""RLlib throughput: env steps a second of collection and of training, local mode.

    python benchmarks/rllib_throughput.py           # the table only
    python benchmarks/rllib_throughput.py --save    # the same, replacing benchmarks/results/rllib_throughput.json
    python benchmarks/rllib_throughput.py --quick   # one short iteration a row (a smoke run)

Rows, Azacru with 2 players (needs the ``rllib`` extra):

- ``TurnBasedEnv alone``: the RLlib env stepped in a Python loop with random
  legal actions, no RLlib: the most one sampling process could collect;
- ``RLlib PPO, N env runners``: the recipe of ``azgames train --backend
  rllib`` (league and built-in greedy/random opponents, 8 games a runner,
  batches of 4,000 env steps, 4 epochs of minibatches of 1,000, MLP 128x128).
  *Collection* is the runners sampling alone (``EnvRunner.sample``, in
  parallel), no update; *training* is steps over the wall time of whole
  iterations (sampling, the PPO update, weight sync); *learner* is what the
  rest of an iteration alone would allow, from ``1/training = 1/collection
  + 1/learner`` (PPO samples, then updates);
- ``azgames train (suite backend)``: the suite's own trainer on the numba
  vector env (``benchmarks/learning_throughput.py``'s first row), for scale.

An env step is one action played through ``env.step`` of the RLlib env (a
learner's action; built-in opponents' replies happen inside it and are not
counted). Each RLlib row is timed after a first iteration that it does not
count (Ray's workers starting, torch and numba warming up); the process
starts a local Ray once (``ray_init_s``).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "passive")

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path (runpy)
import results_file  # noqa: E402

COMMITTED = results_file.RESULTS / "rllib_throughput.json"


def env_alone(seconds: float) -> dict:
    import numpy as np

    from azgames.rllib.env import TurnBasedEnv

    env = TurnBasedEnv(
        {
            "game": "azacru",
            "builtin_share": 0.5,
            "builtin_opponents": {"random": 1.0, "greedy": 1.0},
            "seed": 0,
        }
    )
    rng = np.random.default_rng(0)
    obs, _ = env.reset()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        ((agent, seen),) = obs.items()
        obs, _, terminated, truncated, _ = env.step(
            {agent: int(rng.choice(np.flatnonzero(seen["action_mask"])))}
        )
        steps += 1
        if terminated["__all__"] or truncated["__all__"]:
            obs, _ = env.reset()
    return {
        "row": "TurnBasedEnv alone (random legal actions)",
        "env_steps_per_s": round(steps / (time.perf_counter() - start)),
    }


def rllib_row(runners: int, iterations: int, batch: int) -> dict:
    from ray.rllib.utils.metrics import NUM_ENV_STEPS_SAMPLED_LIFETIME

    from azgames.rllib.selfplay import Config, build_config

    algo = build_config(Config(game="azacru", num_env_runners=runners, train_batch_size=batch)).build_algo()
    algo.train()  # warm-up: not counted
    collected, collecting = 0, 0.0
    for _ in range(iterations):  # collection alone, the runners sampling in parallel
        start = time.perf_counter()
        if runners == 0:
            episodes = algo.env_runner.sample(num_timesteps=batch)
        else:
            share = batch // runners
            episodes = [
                e
                for part in algo.env_runner_group.foreach_env_runner(
                    lambda r: r.sample(num_timesteps=share), local_env_runner=False
                )
                for e in part
            ]
        collecting += time.perf_counter() - start
        collected += sum(e.env_steps() for e in episodes)
    counted_from = algo.train()[NUM_ENV_STEPS_SAMPLED_LIFETIME]
    wall = 0.0
    for _ in range(iterations):  # whole iterations: sampling, PPO update, weight sync
        start = time.perf_counter()
        result = algo.train()
        wall += time.perf_counter() - start
    sampled = result[NUM_ENV_STEPS_SAMPLED_LIFETIME] - counted_from
    algo.stop()
    return {
        "row": f"RLlib PPO, {runners} env runner{'s' if runners != 1 else ''}"
        + (" (sampling in the driver)" if runners == 0 else ""),
        "env_runners": runners,
        "iterations": iterations,
        "env_steps": int(sampled),
        "collection_env_steps_per_s": round(collected / collecting),
        "training_env_steps_per_s": round(sampled / wall),
        # PPO samples, then updates: 1/training = 1/collection + 1/learner
        "learner_env_steps_per_s": round(1 / (wall / sampled - collecting / collected))
        if wall / sampled > collecting / collected
        else None,
    }


def suite_row(quick: bool) -> dict:
    from learning_throughput import ours  # benchmarks/ is on sys.path (see the imports)

    learner, env_steps = ours(16_384 if quick else 163_840, quick=quick)
    return {
        "row": "azgames train (suite backend, numba vector env)",
        "learner_steps_per_s": round(learner),
        "env_steps_per_s": round(env_steps),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one short iteration a row")
    parser.add_argument("--runners", type=int, nargs="+", default=[0, 1, 2], help="env runner counts")
    parser.add_argument("--iterations", type=int, default=5, help="timed iterations a row (default 5)")
    parser.add_argument("--no-suite", action="store_true", help="leave out the suite backend's row")
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    path = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    import ray
    import torch

    start = time.perf_counter()
    ray.init(include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    ray_init = time.perf_counter() - start
    iterations, batch = (1, 1000) if args.quick else (args.iterations, 4000)
    rows = [env_alone(2 if args.quick else 20)]
    for runners in args.runners:
        rows.append(rllib_row(runners, iterations, batch))
        print(rows[-1], flush=True)
    ray.shutdown()
    if not args.no_suite:
        rows.append(suite_row(args.quick))
    out = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "ray": ray.__version__,
        "torch": torch.__version__,
        "quick": args.quick,
        "ray_init_s": round(ray_init, 1),
        "train_batch_size": batch,
        "rows": rows,
    }
    print(f"\n{'row (env steps/s)':<52} {'collection':>12} {'training':>10} {'learner':>9}")
    for r in rows:
        if "collection_env_steps_per_s" in r:  # an RLlib row
            collect, trained = r["collection_env_steps_per_s"], r["training_env_steps_per_s"]
        elif "learner_steps_per_s" in r:  # the suite's trainer: collection and updates together
            collect, trained = "", r["env_steps_per_s"]
        else:  # the env alone
            collect, trained = r["env_steps_per_s"], ""
        print(f"{r['row']:<52} {collect!s:>12} {trained!s:>10} {r.get('learner_env_steps_per_s') or ''!s:>9}")
    if path is not None:
        results_file.write_json(path, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
