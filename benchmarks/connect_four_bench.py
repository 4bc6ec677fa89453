"""Connect Four, the trainer's test bench: how good a trained network's moves
are, against the solver and against alpha-beta, over its training minutes.

    python benchmarks/connect_four_bench.py RUN_DIR [RUN_DIR ...] [--games 100] [--save]
    python benchmarks/connect_four_bench.py --train 95 --games 60 --save   # train seeds 0-2, then score

Each RUN_DIR is one seed's ``train connect_four --algo alphazero`` run. For
every checkpoint along it (``checkpoints/*.npz``, then ``policy.npz``), at
its training minutes (the run's own clock, compiling and evaluations left
out):

- **optimal moves**: the share of the committed test positions
  (``connect_four_env/data/test_positions.json``, solved) where the network
  alone (its most likely move) and the ``az`` agent at 8, 32 and 64
  simulations choose an optimal move (no win turned into a draw or a loss,
  no draw into a loss), with its 95% Wilson interval;
- for the last network of each run, **games against** ``alphabeta:depth=N``
  for N from 1 to 7: the network alone and ``az`` at 64 simulations, seats
  alternating, each game opened by two uniformly random moves (49
  openings, drawn by the game's seed) so that deterministic players do not
  replay one game.

The runs are scored side by side, one process a core (``--jobs``). Seeds
pool: the shares over every seed's positions, the games over every seed's
games. The table goes to stdout; ``--save`` writes
``benchmarks/results/connect_four_bench.json`` and the curve
``docs/images/connect_four_curve.png`` is drawn from it
(``python benchmarks/connect_four_bench.py --plot``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import azgames  # noqa: E402
from azgames.agents import make_agent  # noqa: E402
from azgames.agents.az.search import GumbelSearch  # noqa: E402
from azgames.agents.az.settings import SearchSettings  # noqa: E402
from azgames.agents.policy import NumpyPolicy  # noqa: E402
from azgames.core.stats import wilson_interval  # noqa: E402
from azgames.training.recipes import CONNECT_FOUR  # noqa: E402
from benchmarks import results_file, tables  # noqa: E402
from connect_four_env import positions as test_set  # noqa: E402

COMMITTED = results_file.RESULTS / "connect_four_bench.json"
CURVE = Path(__file__).resolve().parents[1] / "docs" / "images" / "connect_four_curve.png"
SIMULATIONS = (0, 8, 32, 64)  # 0: the network alone
DEPTHS = range(1, 8)
OPENING_PLIES = 2


def batch_state(rules, found: list[test_set.Position]):
    """The test positions as one batch of the game's state."""
    s = rules.blank_state(len(found))
    for k, p in enumerate(found):
        s.board[k] = p.board()
        s.player[k] = p.stones % 2
        s.ply[k] = p.stones
    return s


def chosen_moves(policy: NumpyPolicy, rules, state, simulations: int) -> np.ndarray:
    """Each position's move: the network's most likely, or its search's at ``simulations``."""
    n = len(state.player)
    obs = np.zeros((n, *rules.observation_shape(0)), np.int8)
    mask = np.zeros((n, rules.num_actions), np.int8)
    movers = np.zeros(n, np.int64)
    rules.vec_observe(state, obs, mask, movers)
    if simulations == 0:
        return policy.act(obs, mask.astype(bool))

    def evaluate(o, m):
        logits, values = policy.evaluate(o, m)
        return logits, np.clip(values, -1.0, 1.0)

    settings = SearchSettings.from_dict(policy.meta.get("search", {}), "the network's search")
    search = GumbelSearch(rules, evaluate, simulations, gumbel_scale=0.0, seed=0, settings=settings)
    chosen, _ = search.run(state, movers, obs[0].size)
    return chosen


def optimal_shares(path: Path, rules, state, found) -> dict[str, dict]:
    policy = NumpyPolicy.load(path)
    shares = {}
    for simulations in SIMULATIONS:
        moves = chosen_moves(policy, rules, state, simulations)
        hits = int(sum(p.optimal(int(c)) for p, c in zip(found, moves)))
        shares[str(simulations)] = {"optimal": hits, "positions": len(found)}
    return shares


def play(spec: str, depth: int, games: int, seed: int) -> dict:
    """``games`` games of ``spec`` against ``alphabeta:depth=depth``, seats
    alternating, each opened by two random moves; counts from ``spec``'s side."""
    rng = np.random.default_rng([seed, depth])
    ours = make_agent(spec, seed=seed, game="connect_four")
    theirs = make_agent("alphabeta", seed=seed + 1, game="connect_four", depth=depth)
    tally = {"wins": 0, "draws": 0, "losses": 0}
    env = azgames.make("connect_four")
    for g in range(games):
        env.reset(seed=int(rng.integers(2**31)))
        for _ in range(OPENING_PLIES):
            env.step(int(rng.choice(env.unwrapped.legal_actions())))
        seat = g % 2  # our agent's seat
        while not any(env.terminations.values()):
            mover = env.possible_agents.index(env.agent_selection)
            env.step(int((ours if mover == seat else theirs).act(env)))
        result = env.unwrapped.rules.final_info(env.unwrapped.state)[seat]
        won = result["winners"] == [env.possible_agents[seat]]
        lost = bool(result["winners"]) and not won
        tally["wins" if won else "losses" if lost else "draws"] += 1
    return tally


def run_rows(run: Path, rules, state, found, games: int, progress) -> dict:
    record = json.loads((run / "policy.json").read_text())
    seed = int(record["config"]["seed"])
    checkpoints = sorted((run / "checkpoints").glob("*.npz")) + [run / "policy.npz"]
    curve = []
    for path in checkpoints:
        trained = NumpyPolicy.load(path).meta.get("trained", {})
        seconds = trained.get("seconds", record["training_seconds"] if path.name == "policy.npz" else None)
        curve.append(
            {
                "checkpoint": path.name,
                "steps": trained.get("steps", record["steps"]),
                "minutes": None if seconds is None else round(seconds / 60, 2),
                "shares": optimal_shares(path, rules, state, found),
            }
        )
        progress(
            f"seed {seed} {path.name}: "
            + ", ".join(f"{k} {v['optimal']}" for k, v in curve[-1]["shares"].items())
        )
    final = run / "policy.npz"
    matches = []
    for simulations in (0, 64):
        for depth in DEPTHS:
            spec = f"az:path={final},simulations={simulations}"
            matches.append({"simulations": simulations, "depth": depth, **play(spec, depth, games, seed)})
            progress(f"seed {seed} az@{simulations} vs alphabeta:depth={depth}: {matches[-1]}")
    return {"seed": seed, "run": str(run), "command": record["command"], "curve": curve, "matches": matches}


def score_run(run: Path, games: int, quick: bool) -> dict:
    """:func:`run_rows` of one run, the test positions loaded here."""
    found = test_set.load()[: 100 if quick else None]
    rules = azgames.make("connect_four").unwrapped.rules
    say = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    return run_rows(run, rules, batch_state(rules, found), found, games, say)


def score_runs(runs: list[Path], games: int, quick: bool, jobs: int) -> list[dict]:
    """Each run's rows, ``jobs`` runs at a time: each in a process of its
    own (this script again, on that run alone, with one BLAS and numba
    thread, so that they do not take each other's cores)."""
    jobs = max(1, min(jobs, len(runs)))
    if jobs == 1:
        return [score_run(run, games, quick) for run in runs]
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1"}
    with tempfile.TemporaryDirectory() as tmp:

        def one(k: int) -> dict:
            out = Path(tmp) / f"{k}.json"
            command = [sys.executable, __file__, str(runs[k]), "--games", str(games), "--jobs", "1"]
            command += ["--quick"] * quick + ["--json", str(out)]
            if subprocess.run(command, env=env, stdout=subprocess.DEVNULL).returncode:
                raise SystemExit(f"scoring {runs[k]} failed: see its output above")
            return json.loads(out.read_text())["seeds"][0]

        with ThreadPoolExecutor(jobs) as pool:
            return list(pool.map(one, range(len(runs))))


def pooled(seeds: list[dict]) -> dict:
    """The last network's shares and games, summed over seeds, with intervals."""
    shares = {}
    for simulations in map(str, SIMULATIONS):
        hits = sum(s["curve"][-1]["shares"][simulations]["optimal"] for s in seeds)
        total = sum(s["curve"][-1]["shares"][simulations]["positions"] for s in seeds)
        lo, hi = wilson_interval(hits, total)
        shares[simulations] = {
            "optimal": hits,
            "positions": total,
            "share": hits / total,
            "low": lo,
            "high": hi,
        }
    games = []
    for simulations in (0, 64):
        for depth in DEPTHS:
            rows = [
                m
                for s in seeds
                for m in s["matches"]
                if (m["simulations"], m["depth"]) == (simulations, depth)
            ]
            w, d, lost = (sum(r[k] for r in rows) for k in ("wins", "draws", "losses"))
            lo, hi = wilson_interval(w, w + lost) if w + lost else (float("nan"), float("nan"))
            games.append(
                {
                    "simulations": simulations,
                    "depth": depth,
                    "wins": w,
                    "draws": d,
                    "losses": lost,
                    "decisive_share": w / (w + lost) if w + lost else None,
                    "low": lo,
                    "high": hi,
                }
            )
    return {"shares": shares, "games": games}


def plot(results: dict, out: Path = CURVE) -> Path:
    """Each seed's share of optimal moves over its training minutes, one panel a player."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(SIMULATIONS), figsize=(3.2 * len(SIMULATIONS), 3.2), sharey=True)
    for ax, simulations in zip(axes, map(str, SIMULATIONS)):
        for s in results["seeds"]:
            pts = [(c["minutes"], c["shares"][simulations]) for c in s["curve"] if c["minutes"] is not None]
            xs = [m for m, _ in pts]
            ys = [100 * v["optimal"] / v["positions"] for _, v in pts]
            ax.plot(xs, ys, marker=".", label=f"seed {s['seed']}")
        ax.set_title("network alone" if simulations == "0" else f"az@{simulations}")
        ax.set_xlabel("training minutes")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("optimal moves (%)")
    axes[0].legend(fontsize=8)
    fig.suptitle("Connect Four: optimal moves on the solved test positions")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def train_seeds(minutes: float, seeds: list[int], folder: Path) -> list[Path]:
    """One run of the recipe a seed, side by side (each its own process, one
    torch and one numba thread), ``minutes`` on each run's clock; their folders."""
    runs = [folder / f"az_connect_four_seed{seed}" for seed in seeds]
    command = [sys.executable, "-m", "azgames", "train", "connect_four", "--algo", "alphazero", *CONNECT_FOUR]
    common = [
        "--minutes",
        str(minutes),
        "--torch-threads",
        "1",
        "--eval-every",
        "40",
        "--eval-games",
        "50",
        "--final-eval-games",
        "100",
        "--eval-against",
        "random",
        "--force",
        "-q",
    ]
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    jobs = [
        subprocess.Popen([*command, "--seed", str(seed), *common, "--out", str(run)], env=env)
        for seed, run in zip(seeds, runs)
    ]
    if any(job.wait() for job in jobs):
        raise SystemExit("a training run failed: see its output above")
    return runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="*", type=Path, help="training runs' folders, one a seed")
    parser.add_argument("--games", type=int, default=100, help="games against each depth, per run and player")
    parser.add_argument("--plot", action="store_true", help="draw the curve from the committed JSON and stop")
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: 100 positions, 2 games (one a seat)"
    )
    parser.add_argument(
        "--train",
        type=float,
        metavar="MINUTES",
        help="first train the recipe for seeds 0, 1 and 2 side by side, this many minutes each, "
        "into runs/ (the committed figures: --train 95 --games 60 --save)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="runs scored at once, each in its own process (default: one a core)",
    )
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs {args.jobs}: give at least 1")
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    if args.plot:
        print(plot(json.loads(COMMITTED.read_text())))
        return 0
    if args.train is not None:
        args.runs = train_seeds(args.train, [0, 1, 2], Path("runs"))
    if not args.runs:
        parser.error("give at least one run folder, or --train MINUTES")
    began = time.perf_counter()
    seeds = score_runs(args.runs, 2 if args.quick else args.games, args.quick, args.jobs)
    results = {"seeds": seeds, "pooled": pooled(seeds), "seconds": round(time.perf_counter() - began, 1)}
    print(tables.connect_four_bench(results))
    print(tables.connect_four_games(results))
    print(tables.connect_four_targets(results))
    if out is not None:
        results_file.write_json(out, results)
        if out == COMMITTED:
            plot(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
