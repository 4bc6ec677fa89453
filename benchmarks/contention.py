"""Do the envs' threads hurt when something else runs? The vector env beside busy processes.

    python benchmarks/contention.py [--games ...] [--busy 0 1 3] [--sizes 1 64 4096]
                                    [--seconds 1.5] [--no-sb3] [--quick] [--json PATH | --save]

A user's script is "something else" as often as not: a learner's torch
threads, a second seed, a notebook kernel. For every game, batch size N and
number of competing busy processes (each a Python loop spinning on one
core), ``make_vec(game, num_envs=N)`` is stepped with ``random_actions()``
in a fresh plain script, once with the suite's defaults and once with
``NUMBA_NUM_THREADS=1``; the table gives both rates (medians of
``--rounds``) and their ratio. The target: with 1 and 3 busy processes the
defaults run at 0.9x or more of one thread, and on a quiet machine N = 4096
still gains from the second core.

The two settings' processes take turns, 0.05 s at a time, until each has
run ``--seconds`` (:mod:`benchmarks.turns`), while the busy processes spin
throughout: timed one after the other, the same code came out 25% apart
beside busy processes, and the ratio said nothing at 0.9x.

The same for a Stable-Baselines3 loop (``MaskablePPO`` on ``SB3VecEnv``,
the ``train`` extra) in a plain script: the defaults beside one numba and one
torch thread.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import results_file  # noqa: E402
from benchmarks.turns import taking_turns  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = results_file.RESULTS / "contention.json"

#: What both probes run: a warm probe says ``ready``, then for every
#: ``slice S`` it reads makes calls until S seconds have passed and prints
#: the steps and the seconds they took; ``stop`` ends it.
SLICES = r"""
import sys, time
def timed(call, steps_a_call):
    print("ready", flush=True)
    for line in sys.stdin:
        if line.startswith("stop"):
            break
        budget, steps, began = float(line.split()[1]), 0, time.perf_counter()
        while True:
            call()
            steps += steps_a_call
            took = time.perf_counter() - began
            if took >= budget:
                break
        print(steps, took, flush=True)
"""

VECTOR = (
    SLICES
    + r"""
import azgames
game, n = sys.argv[1], int(sys.argv[2])
venv = azgames.make_vec(game, num_envs=n, seed=0)
for _ in range(3):
    venv.step(venv.random_actions())
timed(lambda: venv.step(venv.random_actions()), n)
"""
)

SB3 = (
    SLICES
    + r"""
from sb3_contrib import MaskablePPO
from stable_baselines3.common.logger import Logger
from azgames.training.sb3 import SB3VecEnv
game, n = sys.argv[1], int(sys.argv[2])
venv = SB3VecEnv(game, num_envs=n, opponents=["random"], seed=0)
model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=256, n_epochs=1, verbose=0, seed=0)
# a logger of its own: SB3 would make an empty SB3-<date> folder in /tmp at every learn(), each slice
model.set_logger(Logger(None, []))
model.learn(n * 32)  # compiled and warmed before the clock starts
timed(lambda: model.learn(n * 32, reset_num_timesteps=False), n * 32)
"""
)

BUSY = "while True: pass"

#: The settings compared: the suite's defaults, and the best hand-set one.
SETTINGS = {
    "default": {},
    "one thread": {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
}


def probe(script: str, args: list[str], extra_env: dict[str, str]) -> subprocess.Popen:
    """A probe process, started; it says ``ready`` once warm."""
    env = {**os.environ, "AZGAMES_COMPILE_NOTICE": "0", **extra_env}
    for name in SETTINGS["one thread"]:  # the defaults are the suite's, not this shell's
        if name not in extra_env:
            env.pop(name, None)
    return subprocess.Popen(
        [sys.executable, "-c", script, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )


def reply(p: subprocess.Popen) -> str:
    line = p.stdout.readline()  # type: ignore[union-attr]
    if not line:
        raise RuntimeError(f"a probe failed:\n{p.communicate()[1][-2000:]}")
    return line


def probes_taking_turns(probes: list[subprocess.Popen], seconds: float) -> list[float]:
    """Each warm probe's steps/s, the probes running in turn (:mod:`benchmarks.turns`)."""

    def turn(p: subprocess.Popen) -> Callable[[float], tuple[int, float]]:
        def run(slice_s: float) -> tuple[int, float]:
            p.stdin.write(f"slice {slice_s}\n")  # type: ignore[union-attr]
            p.stdin.flush()  # type: ignore[union-attr]
            done, spent = reply(p).split()
            return int(done), float(spent)

        return run

    try:
        for p in probes:
            if reply(p).strip() != "ready":
                raise RuntimeError("a probe said something before it was ready")
        rates = taking_turns([turn(p) for p in probes], seconds)
        for p in probes:
            p.communicate("stop\n")
    finally:
        for p in probes:
            p.kill()
    return rates


def one_round(script: str, args: list[str], busy: int, seconds: float) -> dict[str, float]:
    """Each setting's steps/s beside ``busy`` busy processes, the settings taking turns."""
    spinners = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(busy)]
    try:
        time.sleep(0.3 if busy else 0)
        return dict(
            zip(SETTINGS, probes_taking_turns([probe(script, args, e) for e in SETTINGS.values()], seconds))
        )
    finally:
        for p in spinners:
            p.kill()
            p.wait()


def row(kind: str, script: str, game: str, n: int, busy: int, seconds: float, rounds: int) -> dict:
    rates: dict[str, list[float]] = {name: [] for name in SETTINGS}
    for _ in range(rounds):
        for name, rate in one_round(script, [game, str(n)], busy, seconds).items():
            rates[name].append(rate)
    default, single = (statistics.median(rates[name]) for name in SETTINGS)
    out = {"loop": kind, "game": game, "num_envs": n, "busy": busy, "default": default, "one_thread": single}
    out["ratio"] = default / single
    print(
        f"{kind} {game} N={n} busy={busy}: default {default:,.0f}/s, one thread {single:,.0f}/s "
        f"({out['ratio']:.2f}x)",
        file=sys.stderr,
        flush=True,
    )
    return out


def table(rows: list[dict]) -> str:
    lines = [
        "| loop | game | busy processes | N | default steps/s | one thread steps/s | default / one thread |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['loop']} | {r['game']} | {r['busy']} | {r['num_envs']} | {r['default']:,.0f} | "
            f"{r['one_thread']:,.0f} | {r['ratio']:.2f}x |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    import azgames

    games = [e.name for e in azgames.list_games()]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=games, choices=games, metavar="GAME")
    parser.add_argument(
        "--busy", nargs="+", type=int, default=[0, 1, 3], help="busy processes (default: 0 1 3)"
    )
    parser.add_argument("--sizes", nargs="+", type=int, default=[1, 64, 4096], help="batch sizes N")
    parser.add_argument(
        "--seconds", type=float, default=1.5, help="seconds each setting runs in a round (default: 1.5)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds; a cell is their median (default: 3)")
    parser.add_argument("--no-sb3", action="store_true", help="leave out the Stable-Baselines3 loop")
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: one game, N=1, 0 and 1 busy process, one round"
    )
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    if args.quick:
        args.games, args.busy, args.sizes, args.seconds, args.no_sb3 = args.games[:1], [0, 1], [1], 0.2, True
        args.rounds = 1
    rows = [
        row("vector", VECTOR, game, n, busy, args.seconds, args.rounds)
        for game in args.games
        for busy in args.busy
        for n in args.sizes
    ]
    if not args.no_sb3:
        rows += [row("sb3", SB3, "azacru", 16, busy, 3 * args.seconds, args.rounds) for busy in args.busy]
    print(table(rows))
    if out is not None:
        results = {
            "date": time.strftime("%Y-%m-%d"),
            "cpus": os.cpu_count(),
            "seconds": args.seconds,
            "rounds": args.rounds,
            "rows": rows,
        }
        results_file.write_json(out, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
