"""Cold start: how long a new user waits for the first moves, numba's cache empty.

    python benchmarks/cold_start.py            # every game, 3 runs: the table only
    python benchmarks/cold_start.py --save     # the same, replacing benchmarks/results/cold_start.json
    python benchmarks/cold_start.py --quick    # a smoke run: Azacru's AEC stage, 1 run

Each run of a game starts from an empty ``NUMBA_CACHE_DIR`` and times, each
in a fresh process, the stages a first session goes through in order: the
AEC env's first step, the vector env's (64 games) first step, greedy's first
move (in a game that has one) and ``mcts``'s (50 simulations) first move. A stage runs twice: cold
(its kernels compile, the earlier stages' are already cached) and warm (all
loaded from the cache); its compile time is cold minus warm. The commands
``--help``, ``list`` and ``play --help`` are timed with an empty cache too.
Figures are medians over ``--runs`` runs (seconds, wall clock, interpreter
start-up included).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path (runpy)
import results_file  # noqa: E402
import tables  # noqa: E402

COMMITTED = results_file.RESULTS / "cold_start.json"

_SETUP = """
import numpy as np, azgames
from azgames.agents import make_agent
env = azgames.make({game!r})
env.reset(seed=0)
"""
#: What each stage runs after ``_SETUP`` (the AEC stage is the setup and one step).
STAGES = {
    "aec": "env.step(int(np.flatnonzero(env.last()[0]['action_mask'])[0]))",
    "vector": "v = azgames.make_vec({game!r}, num_envs=64, seed=0); v.reset(); v.step(v.random_actions())",
    "greedy": "env.step(make_agent('greedy', seed=0, game={game!r}).act(env))",
    "mcts": "env.step(make_agent('mcts:simulations=50', seed=0, game={game!r}).act(env))",
}
COMMANDS = {"--help": ["--help"], "list": ["list"], "play --help": ["play", "--help"]}


def timed(argv: list[str], cache: str) -> float:
    """Wall seconds of a fresh ``python argv...`` whose numba cache is ``cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "AZGAMES_COMPILE_NOTICE": "0"}
    env.pop("NUMBA_DISABLE_JIT", None)
    start = time.perf_counter()
    subprocess.run([sys.executable, *argv], env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def game_stages(game: str, stages: list[str]) -> list[str]:
    """``stages`` less the agents ``game`` does not have."""
    from azgames.agents import agent_names

    return [s for s in stages if s not in ("greedy", "mcts") or s in agent_names(game)]


def game_run(game: str, stages: list[str]) -> dict[str, dict[str, float]]:
    """One run of ``game``'s ``stages`` from an empty cache: cold and warm seconds each."""
    out = {}
    with tempfile.TemporaryDirectory() as cache:
        for stage in game_stages(game, stages):
            script = (_SETUP + STAGES[stage]).format(game=game)
            cold = timed(["-c", script], cache)
            warm = timed(["-c", script], cache)
            out[stage] = {"cold_s": cold, "warm_s": warm}
    return out


def command_run(commands: list[str]) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as cache:
        return {name: timed(["-m", "azgames", *COMMANDS[name]], cache) for name in commands}


def median_rows(game: str, runs: list[dict]) -> list[dict]:
    rows = []
    for stage in runs[0]:
        cold = [r[stage]["cold_s"] for r in runs]
        warm = [r[stage]["warm_s"] for r in runs]
        rows.append(
            {
                "game": game,
                "stage": stage,
                "cold_s": statistics.median(cold),
                "warm_s": statistics.median(warm),
                "compile_s": statistics.median(c - w for c, w in zip(cold, warm)),
                "runs": len(runs),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    import azgames

    games = [e.name for e in azgames.list_games()]
    parser.add_argument("--games", nargs="+", default=games, choices=games)
    parser.add_argument("--stages", nargs="+", default=list(STAGES), choices=list(STAGES))
    parser.add_argument("--runs", type=int, default=3, help="runs from an empty cache (default: 3)")
    parser.add_argument("--quick", action="store_true", help="smoke run: Azacru's AEC stage, 1 run")
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    if args.runs < 1:
        parser.error(f"--runs {args.runs}: give at least 1")
    if args.quick:
        args.games, args.stages, args.runs = ["azacru"], ["aec"], 1
    from azgames.core.progress import Progress

    rows, command_runs = [], []
    with Progress(len(args.games) * args.runs, "cold start", unit="run") as bar:
        for game in args.games:
            runs = []
            for k in range(args.runs):
                runs.append(game_run(game, args.stages))
                bar.update(desc=f"cold start: {game}, run {k + 1}")
            rows += median_rows(game, runs)
    for _ in range(args.runs):
        command_runs.append(command_run(list(COMMANDS)))
    results = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "runs": args.runs,
        "rows": rows,
        "commands": {name: statistics.median(r[name] for r in command_runs) for name in COMMANDS},
    }
    print(tables.cold_start(results) + "\n\n" + tables.cold_start_commands(results))
    if out is not None:
        results_file.write_json(out, results, indent=2)
    return results


if __name__ == "__main__":
    main()
