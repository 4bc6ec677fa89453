"""Step rates of two revisions side by side: did a change slow the envs?

    python benchmarks/side_by_side.py BASE [HEAD] [--pairs 7] [--json out.json]

Each revision is checked out into a temporary git worktree and measured in
fresh processes (``PYTHONPATH`` at the worktree), the two alternating,
``--pairs`` times: a machine that slows down for a while weighs on both
alike. Measured, with random legal actions: the AEC env's agent-steps/s
(2 players), the vector env's steps/s at N = 1024, and the greedy's moves/s
in 2-player Azimuth. Run it on a quiet machine: the vector env's threads
suffer most from a busy one. The table gives each side's median and the median of
the per-pair ratios (HEAD over BASE) with their range; a ratio is only worth
reading beside its range on a noisy machine. The probe imports nothing but
``azgames`` and the games, so it runs on any revision that has them.
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

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import json, random, sys, time
import azgames

def aec_rate(game, seconds):
    env = azgames.make(game, num_players=2); env.reset(seed=0); rng = random.Random(0)
    steps = 0; end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for _ in range(200):
            obs, r, term, trunc, info = env.last()
            if term or trunc:
                env.reset(seed=rng.randrange(2**31)); continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))])); steps += 1
    return steps / seconds

def vector_rate(game, seconds, n=1024):
    venv = azgames.make_vec(game, num_envs=n, seed=0, num_players=2)
    steps = 0; end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        venv.step(venv.random_actions()); steps += n
    return steps / seconds

def greedy_rate(seconds):
    try:
        from azimuth_env.greedy import AzimuthGreedy
    except ImportError:  # before the greedy agents moved into their games
        from azgames.agents import AzimuthGreedy
    env = azgames.make("azimuth", num_players=2); env.reset(seed=0); agent = AzimuthGreedy(seed=0)
    moves = 0; end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        if not env.unwrapped.legal_actions():
            env.reset(seed=moves); continue
        env.step(agent.act(env)); moves += 1
    return moves / seconds

seconds = float(sys.argv[1])
games = [e.name for e in azgames.list_games()]
for g in games:  # compiled (or loaded from the cache) before the clock starts
    aec_rate(g, 0.1); vector_rate(g, 0.1)
greedy_rate(0.3)
out = {f"aec {g}": aec_rate(g, seconds) for g in games}
out.update({f"vector {g}": vector_rate(g, seconds) for g in games})
out["greedy azimuth"] = greedy_rate(2 * seconds)
print(json.dumps(out))
"""


def measure(tree: Path, seconds: float) -> dict[str, float]:
    run = subprocess.run(
        [sys.executable, "-c", PROBE, str(seconds)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tree)},
        cwd=tree,
        check=True,
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


def table(base: str, head: str, runs: dict[str, list[dict]]) -> tuple[str, list[dict]]:
    rows, lines = (
        [],
        [f"| measure | {base} | {head} | ratio (median of pairs) | range |", "|---|---|---|---|---|"],
    )
    for key in runs["base"][0]:
        ratios = [h[key] / b[key] for b, h in zip(runs["base"], runs["head"])]
        row = {
            "measure": key,
            "base": statistics.median(r[key] for r in runs["base"]),
            "head": statistics.median(r[key] for r in runs["head"]),
            "ratio": statistics.median(ratios),
            "low": min(ratios),
            "high": max(ratios),
        }
        rows.append(row)
        lines.append(
            f"| {key} | {row['base']:,.0f} | {row['head']:,.0f} | {row['ratio']:.3f} | "
            f"{row['low']:.2f}-{row['high']:.2f} |"
        )
    return "\n".join(lines), rows


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the revision to compare against, e.g. main~3 or a commit")
    parser.add_argument("head", nargs="?", default="HEAD", help="the revision measured (default HEAD)")
    parser.add_argument("--pairs", type=int, default=7, help="alternating runs of each (default 7)")
    parser.add_argument("--seconds", type=float, default=1.5, help="length of each timed run")
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    args = parser.parse_args(argv)
    if args.pairs < 1 or not args.seconds > 0:
        parser.error("--pairs must be >= 1 and --seconds > 0")
    with tempfile.TemporaryDirectory() as tmp:
        trees = {}
        for side, rev in (("base", args.base), ("head", args.head)):
            trees[side] = Path(tmp) / side
            subprocess.run(
                ["git", "worktree", "add", "--detach", "-q", str(trees[side]), rev], cwd=ROOT, check=True
            )
        try:
            for side in trees:  # fill each tree's numba cache first
                measure(trees[side], 0.1)
            runs: dict[str, list[dict]] = {"base": [], "head": []}
            for k in range(args.pairs):
                for side in trees:
                    runs[side].append(measure(trees[side], args.seconds))
                print(f"pair {k + 1}/{args.pairs} done", file=sys.stderr, flush=True)
        finally:
            for tree in trees.values():
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
    text, rows = table(args.base, args.head, runs)
    print(text)
    results = {
        "base": args.base,
        "head": args.head,
        "pairs": args.pairs,
        "seconds": args.seconds,
        "date": time.strftime("%Y-%m-%d"),
        "rows": rows,
        "runs": runs,
    }
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1) + "\n")
        print(f"wrote {args.json}", file=sys.stderr)
    return results


if __name__ == "__main__":
    main()
