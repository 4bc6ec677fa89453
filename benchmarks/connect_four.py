"""Connect Four, the yardstick of the kernel contract, beside its peers in one run.

    python benchmarks/connect_four.py [--seconds 2] [--rounds 3] [--quick] [--json PATH | --save]

- AEC env: agent-steps/s of random legal play, ``azgames.make("connect_four")``
  beside PettingZoo's ``connect_four_v3`` (the ``bench`` extra; left out
  where it is not installed), the same loop for both.
- Vector env: steps/s of ``step(random_actions())`` at N = 1, 64 and 4096,
  ``azgames.make_vec("connect_four")`` beside the hand-written bitboard
  kernel of ``benchmarks/connect_four_bitboard.py``, which does the same
  work (check, play, restart, observe, random actions), and beside a loop
  written by hand over the same rule functions without the contract
  (:class:`DirectVec`): what the contract itself costs. Both run on the
  threads the suite's batches get (:class:`SameThreads`).

The two sides of a row take turns, 0.05 s at a time, until each has run
``--seconds`` (:mod:`benchmarks.turns`: both see the machine's drift alike).
A row's ratio is the median of ``--rounds`` such timings'
ratios, its rates the medians of each side's. The targets:
the AEC env at least 10x PettingZoo's, the vector env at N = 4096 at least
0.5x the bitboards (the contract costs at most 2x).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import azgames  # noqa: E402
from azgames.core.threads import with_threads  # noqa: E402
from benchmarks import results_file  # noqa: E402
from benchmarks.connect_four_bitboard import BitboardVec  # noqa: E402
from benchmarks.connect_four_direct import DirectVec  # noqa: E402
from benchmarks.turns import SLICE_S, taking_turns  # noqa: E402

COMMITTED = results_file.RESULTS / "connect_four.json"
SIZES = (1, 64, 4096)


class SameThreads:
    """A hand-written kernel's batches on the team the suite's own get
    (``azgames.core.threads``): the comparison is of kernels, not of thread policies
    (numba's defaults with sleeping threads ran the bitboards at N = 64 at a
    tenth of their one-thread rate)."""

    def __init__(self, hand) -> None:
        self.hand, self.n = hand, len(hand.random_actions())

    def random_actions(self) -> np.ndarray:
        return with_threads(self.n, self.hand.random_actions)

    def step(self, actions: np.ndarray):
        return with_threads(self.n, self.hand.step, actions)


def aec_player(env) -> Callable[[float], tuple[int, float]]:
    """Random legal play in ``env``, in slices: ``play(seconds)`` runs about
    that long and returns (agent-steps, seconds taken); the game goes on
    where the last slice left it, restarting ended games."""
    rng = random.Random(0)
    env.reset(seed=0)

    def play(seconds: float) -> tuple[int, float]:
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(50):
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.reset(seed=rng.randrange(2**31))
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return steps, time.perf_counter() - start

    return play


def vector_player(venv) -> Callable[[float], tuple[int, float]]:
    """``step(random_actions())`` in slices, as :func:`aec_player`; steps are games x batches."""
    n = len(venv.random_actions())
    venv.step(venv.random_actions())  # compiled before the clock starts

    def play(seconds: float) -> tuple[int, float]:
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(5):
                venv.step(venv.random_actions())
            steps += 5 * n
        return steps, time.perf_counter() - start

    return play


def pettingzoo_env():
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError:  # the bench extra (pettingzoo[classic]) is not installed
        return None
    return connect_four_v3.env()


def paired(ours, theirs, seconds: float, rounds: int) -> dict[str, float]:
    """``rounds`` timings taking turns: each side's median rate and the median ratio."""
    timings = [taking_turns((ours, theirs), seconds) for _ in range(rounds)]
    return {
        "ours": statistics.median(a for a, _ in timings),
        "theirs": statistics.median(b for _, b in timings),
        "ratio": statistics.median(a / b for a, b in timings),
    }


def measure(seconds: float, rounds: int, sizes=SIZES) -> list[dict]:
    rows = []
    peer = pettingzoo_env()
    if peer is not None:
        ours, theirs = aec_player(azgames.make("connect_four")), aec_player(peer)
        rows.append({"env": "AEC", "num_envs": 1, "peer": "pettingzoo connect_four_v3"})
        rows[-1].update(paired(ours, theirs, seconds, rounds))
    for n in sizes:
        ours = vector_player(azgames.make_vec("connect_four", num_envs=n, seed=0))
        for peer_name, hand in (
            ("hand-written bitboards", SameThreads(BitboardVec(n))),
            ("the same rules, no contract", SameThreads(DirectVec(n))),
        ):
            rows.append({"env": "vector", "num_envs": n, "peer": peer_name})
            rows[-1].update(paired(ours, vector_player(hand), seconds, rounds))
    return rows


def rate(x: float) -> str:
    return f"{x / 1e6:.2f}M" if x >= 1e6 else f"{x / 1e3:.0f}k"


def table(rows: list[dict]) -> str:
    lines = ["| env | N | peer | connect_four steps/s | peer steps/s | ratio |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(
            f"| {r['env']} | {r['num_envs']} | {r['peer']} | {rate(r['ours'])} | {rate(r['theirs'])} | {r['ratio']:.2f}x |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds a timing (default: 2)")
    parser.add_argument("--rounds", type=int, default=3, help="timings of each side (default: 3)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 0.1 s, one round, N = 1 and 64")
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    if args.quick:
        rows = measure(0.1, 1, sizes=(1, 64))
    else:
        rows = measure(args.seconds, args.rounds)
    print(table(rows))
    if out is not None:
        results = {
            "date": time.strftime("%Y-%m-%d"),
            "cpus": os.cpu_count(),
            "seconds": args.seconds,
            "rounds": args.rounds,
            "slice_s": SLICE_S,
            "rows": rows,
        }
        results_file.write_json(out, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
