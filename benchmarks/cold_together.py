"""Processes that start together on an empty cache: each function compiled once, or in every one.

    python benchmarks/cold_together.py           # Azacru, 1, 2 and 4 processes, 3 runs: the table only
    python benchmarks/cold_together.py --save    # the same, replacing benchmarks/results/cold_together.json
    python benchmarks/cold_together.py --quick   # a smoke run: Connect Four, 2 processes, 1 run

A vector env in each of SB3's subprocesses, Ray's self-play actors, pytest-xdist's
workers: ``--processes`` processes start at once with one empty
``NUMBA_CACHE_DIR`` and each steps a vector env (64 games) once. With the
suite's compile lock (``azgames/core/kernel_cache.py``), one process compiles
each function while the others wait and load it; without it (numba's own
``Dispatcher.compile`` put back), every process compiles everything. The
table gives the wall seconds until the last process is done and the CPU
seconds of all of them, medians over ``--runs`` runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path (runpy)
import results_file  # noqa: E402
import tables  # noqa: E402

COMMITTED = results_file.RESULTS / "cold_together.json"
MODES = ("one process compiles", "every process compiles")

_PROCESS = """
import json, resource, sys
import azgames, azgames.core.jit  # the cache's lock is installed before the first kernel
from numba.core import dispatcher
if sys.argv[2] == "every process compiles":
    dispatcher.Dispatcher.compile = dispatcher.Dispatcher.compile.__wrapped__
venv = azgames.make_vec(sys.argv[1], num_envs=64, seed=0)
venv.step(venv.random_actions())
used = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps(used.ru_utime + used.ru_stime))
"""


def together(game: str, processes: int, mode: str) -> tuple[float, float]:
    """Wall seconds until the last of ``processes`` is done, and their CPU seconds."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "AZGAMES_COMPILE_NOTICE": "0"}
        env.pop("NUMBA_DISABLE_JIT", None)
        start = time.perf_counter()
        started = [
            subprocess.Popen([sys.executable, "-c", _PROCESS, game, mode], env=env, stdout=subprocess.PIPE)
            for _ in range(processes)
        ]
        cpu = sum(json.loads(p.communicate()[0].splitlines()[-1]) for p in started)
        wall = time.perf_counter() - start
        if any(p.returncode for p in started):
            raise RuntimeError(f"a process of {game} x {processes} ({mode}) failed")
    return wall, cpu


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="azacru", help="the game whose vector env starts (default: azacru)")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4], help="default: 1 2 4")
    parser.add_argument("--runs", type=int, default=3, help="runs of each row (default: 3)")
    parser.add_argument("--quick", action="store_true", help="smoke run: Connect Four, 2 processes, 1 run")
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    if args.runs < 1 or min(args.processes) < 1:
        parser.error("--runs and --processes: give at least 1")
    if args.quick:
        args.game, args.processes, args.runs = "connect_four", [2], 1
    from azgames.core.progress import Progress

    rows = []
    with Progress(len(args.processes) * len(MODES) * args.runs, "cold together", unit="run") as bar:
        for n in args.processes:
            for mode in MODES:
                runs = []
                for _ in range(args.runs):
                    runs.append(together(args.game, n, mode))
                    bar.update()
                rows.append(
                    {
                        "game": args.game,
                        "processes": n,
                        "mode": mode,
                        "wall_s": statistics.median(w for w, _ in runs),
                        "cpu_s": statistics.median(c for _, c in runs),
                        "runs": args.runs,
                    }
                )
    results = {"date": time.strftime("%Y-%m-%d"), "cpus": os.cpu_count(), "rows": rows}
    print(tables.cold_together(results))
    if out is not None:
        results_file.write_json(out, results, indent=2)
    return results


if __name__ == "__main__":
    main()
