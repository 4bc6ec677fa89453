"""Step rates of the suite's envs, with PettingZoo connect-four as reference.

    python -m azgames bench                        # full run, prints the table
    python -m azgames bench --quick                # a smoke run
    python -m azgames bench --games GAME --players 2 3 --json rates.json
    python benchmarks/step_rate.py --save          # in a source checkout: replaces benchmarks/results/step_rate.json

The measuring lives here, in the package, so that ``azgames bench`` runs
from an installed wheel; ``benchmarks/step_rate.py`` adds ``--save`` of the
committed results the README quotes.

Measured, per game and player count, with random legal actions:
- AEC ``env()`` agent-steps/s in an RL loop: ``last()``, sample from the mask
  (``mask.nonzero()[0]`` and ``random.randrange``: 1.2 us, against 3 us for
  ``np.flatnonzero`` with a numpy Generator), ``step``;
- vector env steps/s at N = 1, 64, 1024, 4096: ``step(random_actions())``,
  observation and mask included (one env-step = one action in one game);
- PettingZoo ``connect_four_v3`` ``env()`` in the same RL loop, in the same run,
  and OpenSpiel's C++ connect_four through pyspiel (the ``bench`` extra).

Each rate is the median of ``--repeats`` timed runs; each repeat times every
configuration in turn, so that a machine slowing down for a while weighs on
all alike. Machines are noisy: compare ratios within one run rather than
absolute numbers across runs. ``--relative-to azimuth`` adds each other game's
rates over that game's at the same player count, as the median of the
ratios measured side by side in each repeat:

    python benchmarks/step_rate.py --games azimuth azimuth_coop --relative-to azimuth \
        --json benchmarks/results/step_rate_azimuth_coop.json
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

VECTOR_SIZES = (1, 64, 1024, 4096)
#: Printed above a --quick run's table: its figures are no measurements.
QUICK_NOTE = (
    "smoke run (--quick): each figure below is one 0.05 s sample, first calls included; it shows "
    "that every env steps, not how fast (run without --quick to measure)"
)


def aec_rate(make_env, seconds: float, seed: int = 0) -> float:
    """Agent-steps/s of an RL loop over an AEC env, resetting finished games."""
    env = make_env()
    env.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            if time.perf_counter() > deadline:
                break
            env.reset()
            continue
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
        if steps & 1023 == 0 and time.perf_counter() > deadline:
            break
    return steps / (time.perf_counter() - start)


def vector_rate(make_vec, num_envs: int, seconds: float) -> float:
    """Env-steps/s of ``step(random_actions())`` over ``num_envs`` games."""
    venv = make_vec(num_envs)
    venv.reset()
    for _ in range(3):
        venv.step(venv.random_actions())
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(8):
            venv.step(venv.random_actions())
        calls += 8
    return calls * num_envs / (time.perf_counter() - start)


def median_rate(fn, repeats: int) -> float:
    return statistics.median(fn() for _ in range(repeats))


#: The rows' key of the AEC rate over PettingZoo's connect_four_v3 rate.
VERSUS_PETTINGZOO = "aec_vs_connect_four"


def pettingzoo_connect_four_env():
    """PettingZoo's connect_four_v3 ``env`` constructor, or None without the bench extra."""
    try:
        from pettingzoo.classic import connect_four_v3 as pettingzoo_connect_four
    except ImportError:
        return None
    return pettingzoo_connect_four.env


def openspiel_connect_four_rate(seconds: float, seed: int = 0) -> float | None:
    """OpenSpiel's C++ connect_four through pyspiel, in the same loop: numpy
    mask and observation each step, the same sampler. None without open-spiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            mask = np.asarray(state.legal_actions_mask(), np.int8)
            np.asarray(state.observation_tensor(), np.float32)
            legal = mask.nonzero()[0]
            state.apply_action(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - start)


def run(
    games: list[str],
    players: list[int],
    seconds: float,
    repeats: int,
    quick: bool,
    relative_to: str | None = None,
) -> dict:
    import azgames

    results: dict = {
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
        },
        "settings": {"seconds": seconds, "repeats": repeats},
        "reference": {},
        "games": [],
    }
    pettingzoo_env = pettingzoo_connect_four_env()
    pettingzoo_rate = (
        median_rate(lambda: aec_rate(pettingzoo_env, seconds), repeats) if pettingzoo_env else None
    )
    results["reference"]["pettingzoo_connect_four_v3_env"] = pettingzoo_rate
    print(
        f"PettingZoo connect_four_v3 env(): {pettingzoo_rate:,.0f} agent-steps/s"
        if pettingzoo_rate
        else "PettingZoo connect_four_v3 not installed (pip install -e .[bench])",
        flush=True,
    )
    osp = openspiel_connect_four_rate(0.01)
    if osp is not None:
        osp = median_rate(lambda: openspiel_connect_four_rate(seconds), repeats)
        print(f"OpenSpiel connect_four (pyspiel): {osp:,.0f} steps/s", flush=True)
    results["reference"]["openspiel_connect_four"] = osp
    configs = []
    for game in games:
        for n in players:
            try:
                azgames.make(game, num_players=n)
            except ValueError:
                continue  # this game has no such player count
            configs.append((game, n))
    rows: dict[tuple[str, int], dict[str, Any]] = {
        cfg: {"game": cfg[0], "num_players": cfg[1]} for cfg in configs
    }
    # Repeats go round every configuration in turn, so that a machine slowing
    # down for a while weighs on all of them alike: ratios stay comparable.
    samples = {cfg: {"aec": [], **{size: [] for size in VECTOR_SIZES}} for cfg in configs}
    for r in range(repeats):
        if not quick:
            print(f"timing: repeat {r + 1} of {repeats}", flush=True)
        for game, n in configs:
            got = samples[game, n]
            got["aec"].append(aec_rate(lambda: azgames.make(game, num_players=n), seconds))
            for size in VECTOR_SIZES:
                got[size].append(
                    vector_rate(
                        lambda k: azgames.make_vec(game, num_envs=k, seed=0, num_players=n), size, seconds
                    )
                )
    for cfg in configs:
        row = rows[cfg]
        row["aec_steps_per_s"] = statistics.median(samples[cfg]["aec"])
        row["vector_steps_per_s"] = {
            str(size): statistics.median(samples[cfg][size]) for size in VECTOR_SIZES
        }
        if pettingzoo_rate:
            row[VERSUS_PETTINGZOO] = row["aec_steps_per_s"] / pettingzoo_rate
        if relative_to and cfg[0] != relative_to and (relative_to, cfg[1]) in samples:
            row[f"vs_{relative_to}"] = _ratios(samples[cfg], samples[relative_to, cfg[1]])
        results["games"].append(row)
        print_row(row, flush=True)
    return results


def _ratios(mine: dict, base: dict) -> dict[str, float]:
    """Median over repeats of each rate over the base game's, measured
    side by side in the same repeat."""
    return {str(k): statistics.median(a / b for a, b in zip(mine[k], base[k])) for k in mine}


def _fmt(rate: float) -> str:
    if rate >= 1e6:
        return f"{rate / 1e6:.2f}M"
    return f"{rate / 1e3:.0f}k" if rate >= 1e4 else f"{rate:,.0f}"


def table(results: dict) -> str:
    """A Markdown table of the results (the README shows this)."""
    sizes = VECTOR_SIZES
    head = (
        "| game | players | AEC steps/s | x connect-four | "
        + " | ".join(f"vector N={s}" for s in sizes)
        + " |"
    )
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in results["games"]:
        ratio = f"{r[VERSUS_PETTINGZOO]:.1f}x" if VERSUS_PETTINGZOO in r else "-"
        vec = " | ".join(_fmt(r["vector_steps_per_s"][str(s)]) for s in sizes)
        lines.append(f"| {r['game']} | {r['num_players']} | {_fmt(r['aec_steps_per_s'])} | {ratio} | {vec} |")
    relative = [(r, k) for r in results["games"] for k in r if k.startswith("vs_")]
    if relative:
        lines += [
            "",
            "| game | players | rates over | AEC | " + " | ".join(f"vector N={s}" for s in sizes) + " |",
            "|---|---|---|---|" + "---|" * len(sizes),
        ]
        for r, k in relative:
            ratios = " | ".join(f"{r[k][str(s)]:.2f}" for s in sizes)
            lines.append(f"| {r['game']} | {r['num_players']} | {k[3:]} | {r[k]['aec']:.2f} | {ratios} |")
    ref = results["reference"]
    named = [
        (ref.get("pettingzoo_connect_four_v3_env"), "PettingZoo connect_four_v3 `env()`"),
        (
            ref.get("openspiel_connect_four"),
            "OpenSpiel connect_four (C++ via pyspiel, numpy mask and observation)",
        ),
    ]
    found = [f"{label} {_fmt(rate)} steps/s" for rate, label in named if rate]
    if found:
        lines.append("\nReferences in the same run: " + "; ".join(found) + ".")
    return "\n".join(lines)


def print_row(row: dict, flush: bool = False) -> None:
    vec = ", ".join(f"N={k}: {_fmt(v)}" for k, v in row["vector_steps_per_s"].items())
    print(
        f"{row['game']} {row['num_players']}p: AEC {_fmt(row['aec_steps_per_s'])}/s; vector {vec}",
        flush=flush,
    )


def register(sub: argparse._SubParsersAction) -> None:
    """The ``bench`` command; ``azgames.cli`` hands it every argument after ``bench``."""
    bench = sub.add_parser(
        "bench",
        help="step rates of every game's envs (a table; --json PATH)",
        description="Measure the step rates of the envs (azgames.bench); "
        "further arguments are the benchmark's own "
        "(bench -- --help lists them).",
    )
    bench.add_argument(
        "bench_args", nargs="*", metavar="ARG", help="arguments for the benchmark, e.g. --quick"
    )
    bench.set_defaults(run=lambda args, parser: main(args.bench_args), subparser=bench)


def build_parser() -> argparse.ArgumentParser:
    """The benchmark's arguments (a script adds where its results go)."""
    import azgames

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=[e.name for e in azgames.list_games()])
    parser.add_argument("--players", nargs="+", type=int, default=[2, 3, 4])
    parser.add_argument("--seconds", type=float, default=1.5, help="length of each timed run")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per figure (median)")
    parser.add_argument("--quick", action="store_true", help="tiny runs (smoke test)")
    parser.add_argument(
        "--relative-to",
        metavar="GAME",
        default=None,
        help="also report each other game's rates over GAME's at the same player "
        "count (median of per-repeat ratios), e.g. a game's base for its mode",
    )
    return parser


def measure(args: argparse.Namespace) -> dict:
    """Run the benchmark ``args`` describe and print its table."""
    if args.quick:
        args.seconds, args.repeats = 0.05, 1
    results = run(args.games, args.players, args.seconds, args.repeats, args.quick, args.relative_to)
    print()
    if args.quick:
        print(QUICK_NOTE)
    print(table(results))
    return results


def main(argv: list[str] | None = None) -> int:
    """``python -m azgames bench [ARGS]``: the table, and ``--json PATH`` if given."""
    import json

    from azgames.core.inputs import writable_file

    parser = build_parser()
    parser.prog = "azgames bench"
    parser.add_argument(
        "--json",
        metavar="PATH",
        default=None,
        help="write the results to PATH (default: no file, the table only)",
    )
    args = parser.parse_args(argv)
    if args.json is not None:
        try:
            writable_file("--json", args.json, force=True)
        except ValueError as e:
            parser.error(str(e))
    results = measure(args)
    if args.json is not None:
        from azgames.core.registry import versions

        results["versions"] = versions()  # which rules were measured, as every results file says
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
        print(f"wrote {args.json}", file=sys.stderr)
    return 0
