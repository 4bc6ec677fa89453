"""Where numba's compile time goes: a per-function table for a game's first session.

    python benchmarks/compile_profile.py azimuth              # one game's table
    python benchmarks/compile_profile.py --save               # every game, into benchmarks/results/
    python benchmarks/compile_profile.py azacru --stages aec  # the AEC env's first step only

In one fresh process a game, with an empty ``NUMBA_CACHE_DIR``, runs the
stages of ``benchmarks/cold_start.py`` (by default all four) and records
numba's ``numba:compile`` events (compiles that missed the cache). A
function's *total* is its compile from start to end, the functions it
compiled on the way included; its *self* time leaves those out; *llvm* is
the part of its total spent in LLVM (numba's own timer, nested compiles
included). Helpers inlined with ``inline="always"`` are no compile of their
own: their cost shows in every caller's self time. One run: the figures vary
by about 10% from run to run on a quiet machine. docs/ARCHITECTURE.md shows
the saved table.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path (runpy)
import results_file  # noqa: E402
from cold_start import _SETUP, STAGES, game_stages  # noqa: E402

COMMITTED = results_file.RESULTS / "compile_profile.json"

_PROBE = """
import json, sys, time
from numba.core import event
records = []
compiled = []  # numba records a compile's LLVM time after its event ends: read at the end
stack = []

class Recorder(event.Listener):
    def on_start(self, e):
        stack.append((e.data["dispatcher"], time.perf_counter(), []))

    def on_end(self, e):
        dispatcher, start, children = stack.pop()
        total = time.perf_counter() - start
        if stack:
            stack[-1][2].append(total)
        f = dispatcher.py_func
        records.append({{
            "function": f.__module__ + "." + f.__qualname__,
            "stage": current,
            "total_s": total,
            "self_s": total - sum(children),
        }})
        compiled.append((dispatcher, e.data["args"]))

event.register("numba:compile", Recorder())
current = "import"
{setup}
for current, code in {stages!r}:
    exec(code)
for record, (dispatcher, args) in zip(records, compiled):
    done = dispatcher.overloads.get(tuple(args))  # absent for a compile that failed typing
    record["llvm_s"] = done.metadata["timers"].get("llvm_lock", 0.0) if done else 0.0
print(json.dumps(records))
"""


def profile(game: str, stages: list[str]) -> list[dict]:
    setup = _SETUP.format(game=game).replace("env.reset(seed=0)", "current = 'aec'\nenv.reset(seed=0)")
    code = [(s, STAGES[s].format(game=game)) for s in game_stages(game, stages)]
    probe = _PROBE.format(setup=setup, stages=code)
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "AZGAMES_COMPILE_NOTICE": "0"}
        env.pop("NUMBA_DISABLE_JIT", None)
        done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the probe process failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(records: list[dict], top: int) -> str:
    merged: dict[tuple[str, str], dict] = {}
    for r in records:
        row = merged.setdefault(
            (r["stage"], r["function"]), {**r, "compiles": 0, "self_s": 0.0, "total_s": 0.0}
        )
        row["compiles"] += 1
        row["self_s"] += r["self_s"]
        row["total_s"] = max(row["total_s"], r["total_s"])
    rows = sorted(merged.values(), key=lambda r: -r["self_s"])
    lines = ["| stage | function | compiles | self s | total s | llvm s |", "|---|---|---|---|---|---|"]
    for r in rows[:top]:
        lines.append(
            f"| {r['stage']} | `{r['function']}` | {r['compiles']} | {r['self_s']:.2f} | "
            f"{r['total_s']:.2f} | {r['llvm_s']:.2f} |"
        )
    by_stage: dict[str, float] = {}
    for r in records:
        by_stage[r["stage"]] = by_stage.get(r["stage"], 0.0) + r["self_s"]
    summary = ", ".join(f"{stage} {s:.1f} s" for stage, s in by_stage.items())
    return "\n".join(lines) + f"\n\ncompile time by stage: {summary}; {len(records)} compiles"


def main(argv: list[str] | None = None) -> dict:
    import azgames

    all_games = [e.name for e in azgames.list_games()]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"of {', '.join(all_games)} (default: all)")
    parser.add_argument("--stages", nargs="+", default=list(STAGES), choices=list(STAGES))
    parser.add_argument("--top", type=int, default=25, help="rows of each game's table (default: 25)")
    parser.add_argument("--quick", action="store_true", help="smoke run: Azacru's AEC stage")
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    unknown = [g for g in args.games if g not in all_games]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}; choose from {', '.join(all_games)}")
    games = args.games or all_games
    if args.quick:
        games, args.stages = ["azacru"], ["aec"]
    results = {"date": time.strftime("%Y-%m-%d"), "cpus": os.cpu_count(), "stages": args.stages, "games": {}}
    for game in games:
        records = profile(game, args.stages)
        results["games"][game] = records
        print(f"{game}:\n{table(records, args.top)}\n", flush=True)
    if out is not None:
        results_file.write_json(out, results, indent=1)
    return results


if __name__ == "__main__":
    main()
