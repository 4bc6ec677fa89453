"""Learning throughput: learner steps a second, collection and PPO updates together.

    python benchmarks/learning_throughput.py           # the table only
    python benchmarks/learning_throughput.py --save    # the same, replacing benchmarks/results/learning_throughput.json
    python benchmarks/learning_throughput.py --quick   # a few seconds a row (a smoke run)

Rows, all on Azacru with 2 players unless named, each timed in one process
after a warm-up (numba compilation, torch start-up) it does not count:

- ``azgames train``: the suite's training command, default configuration
  (256 games x 64 steps an update, MLP 128x128, 4 epochs of 4 minibatches,
  the default league: latest / snapshots / greedy / random), evaluations off;
- ``azgames train, random opponents only``: the same without the league
  (what the greedy opponent and the policy snapshots cost);
- ``SB3 MaskablePPO on SB3VecEnv``: sb3-contrib's MaskablePPO on the vector
  env's SB3 adapter, the same batch shape (256 games x 64 steps, minibatch
  4096, 4 epochs, net 128x128), random opponents;
- ``SB3 MaskablePPO on SingleAgentEnv``: the README's old recipe, one game
  at a time (n_steps 512, batch 128, net 256x256), random opponents;
- ``PettingZoo SB3 tutorial (connect_four_v3)``: PettingZoo's "SB3: Action
  Masked PPO for Connect Four" set-up: the AEC env wrapped as a gymnasium
  env, ``ActionMasker``, ``MaskablePPO`` with SB3's defaults.

A learner step is one action of the learner, a sample it trains on
(opponents' replies are not counted; the tutorial's self-play counts both
sides, as it trains on both). For the suite's trainer the table also gives
env steps: every action played in every game, the opponents' included.
The timed part is repeated ``--repeats`` times and the median kept.
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "passive")  # before torch and numba start their threads

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path (runpy)
import results_file  # noqa: E402

COMMITTED = results_file.RESULTS / "learning_throughput.json"


def ours(steps: int, quick: bool = False, mix: dict | None = None) -> tuple[float, float]:
    """Learner steps/s and env steps/s (every game's actions, opponents' included)."""
    from azgames.training.ppo import Config, train

    shape = {"num_envs": 32, "num_steps": 16} if quick else {}
    with tempfile.TemporaryDirectory() as out:
        cfg = Config(
            game="azacru",
            steps=16_384,
            eval_every=0,
            final_eval_games=2,
            eval_games=2,
            out=out,
            progress=True,
            **shape,
            **({"mix": mix} if mix else {}),
        )
        train(cfg)  # warm-up: compiles, first league
        cfg.steps, cfg.out = steps, out + "/timed"
        train(cfg)
        # the final evaluation is not learning: take the training's own clock
        last = list(csv.DictReader((Path(cfg.out) / "train.csv").open()))[-1]
        return int(last["steps"]) / float(last["seconds"]), int(last["plies"]) / float(last["seconds"])


def ours_random(steps: int, quick: bool = False) -> tuple[float, float]:
    return ours(steps, quick, mix={"random": 1.0})


def sb3_vec(steps: int, quick: bool = False) -> float:
    from sb3_contrib import MaskablePPO

    from azgames.training.sb3 import SB3VecEnv

    n = 32 if quick else 256
    venv = SB3VecEnv("azacru", num_envs=n, seed=0)
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=64,
        batch_size=16 * n,
        n_epochs=4,
        seed=0,
        verbose=0,
        policy_kwargs={"net_arch": [128, 128]},
    )
    model.learn(64 * n)
    start = time.perf_counter()
    model.learn(steps, reset_num_timesteps=False)
    return steps / (time.perf_counter() - start)


def single_agent(steps: int, quick: bool = False) -> float:
    from sb3_contrib import MaskablePPO

    from azgames.training.single_agent import SingleAgentEnv

    env = SingleAgentEnv("azacru", opponent="random", seat="random", num_players=2)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=512,
        batch_size=128,
        gamma=1.0,
        learning_rate=1e-3,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=0,
        verbose=0,
    )
    model.learn(512 if quick else 1024)
    start = time.perf_counter()
    model.learn(steps, reset_num_timesteps=False)
    return steps / (time.perf_counter() - start)


def pettingzoo_tutorial(steps: int, quick: bool = False) -> float:
    import gymnasium
    from pettingzoo.classic import connect_four_v3
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from sb3_contrib.common.wrappers import ActionMasker

    class AECAsGym(gymnasium.Env):
        """The tutorial's SB3ActionMaskWrapper (one model plays both seats), as a
        gymnasium.Env: gymnasium 1.x refuses wrappers of other classes."""

        def __init__(self):
            self.env = connect_four_v3.env()
            self.env.reset(seed=0)
            a = self.env.possible_agents[0]
            self.observation_space = self.env.observation_space(a)["observation"]
            self.action_space = self.env.action_space(a)

        def reset(self, seed=None, options=None):
            self.env.reset(seed, options)
            return self.env.observe(self.env.agent_selection)["observation"], {}

        def step(self, action):
            current = self.env.agent_selection
            self.env.step(action)
            return (
                self.env.observe(self.env.agent_selection)["observation"],
                self.env._cumulative_rewards[current],
                self.env.terminations[current],
                self.env.truncations[current],
                self.env.infos[current],
            )

        def action_mask(self):
            return self.env.observe(self.env.agent_selection)["action_mask"]

    env = ActionMasker(AECAsGym(), lambda e: e.action_mask())
    model = MaskablePPO(MaskableActorCriticPolicy, env, verbose=0, seed=0)
    model.learn(512 if quick else 2048)
    start = time.perf_counter()
    model.learn(steps, reset_num_timesteps=False)
    return steps / (time.perf_counter() - start)


ROWS = {
    "azgames train": (ours, 163_840, 1_024),
    "azgames train, random opponents only": (ours_random, 163_840, 1_024),
    "SB3 MaskablePPO on SB3VecEnv": (sb3_vec, 65_536, 2_048),
    "SB3 MaskablePPO on SingleAgentEnv (old README recipe)": (single_agent, 8_192, 512),
    "PettingZoo SB3 tutorial (connect_four_v3)": (pettingzoo_tutorial, 8_192, 512),
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short rows, one repeat (a smoke run)")
    parser.add_argument("--repeats", type=int, default=3)
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    repeats = 1 if args.quick else args.repeats
    results = []
    for name, (fn, steps, quick_steps) in ROWS.items():
        try:
            runs = [fn(quick_steps, quick=True) if args.quick else fn(steps) for _ in range(repeats)]
        except ImportError as e:  # connect_four_v3 needs pygame: the bench extra
            print(f"{name}: skipped ({e}; install the bench extra)", flush=True)
            continue
        rates = [r[0] if isinstance(r, tuple) else r for r in runs]
        row = {
            "row": name,
            "learner_steps": quick_steps if args.quick else steps,
            "rates": [round(r) for r in rates],
            "steps_per_s": round(statistics.median(rates)),
        }
        if isinstance(runs[0], tuple):
            row["env_steps_per_s"] = round(statistics.median(r[1] for r in runs))
        results.append(row)
        print(f"{name}: {row['steps_per_s']:,} learner steps/s", flush=True)
    base = results[0]["steps_per_s"]
    print()
    print("| set-up | learner steps/s | env steps/s | azgames train is |")
    print("|---|---|---|---|")
    for r in results:
        ratio = "-" if r is results[0] else f"{base / r['steps_per_s']:.1f}x as fast"
        env_steps = f"{r['env_steps_per_s']:,}" if "env_steps_per_s" in r else "-"
        print(f"| {r['row']} | {r['steps_per_s']:,} | {env_steps} | {ratio} |")
    if out is not None:
        import torch

        results_file.write_json(
            out,
            {
                "date": time.strftime("%Y-%m-%d"),
                "machine": platform.processor() or platform.machine(),
                "cpus": os.cpu_count(),
                "python": platform.python_version(),
                "torch": torch.__version__,
                "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY"),
                "quick": args.quick,
                "repeats": repeats,
                "rows": results,
            },
            indent=2,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
