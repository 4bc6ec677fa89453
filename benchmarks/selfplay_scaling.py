"""How fast AlphaZero self-play and its learner run: the local trainer
against self-play on Ray, and on what.

    python benchmarks/selfplay_scaling.py [--games connect_four azacru] [--actors 1 2] [--devices cpu cuda] [--rounds 24] [--save]

Each row trains the suite's Gumbel AlphaZero for ``--rounds`` rounds of 256
games x 16 moves from scratch, no evaluation along the way: the local
trainer (``backend`` suite: self-play and the learner in turn, in one
process) and, for each ``--actors`` N, self-play in N Ray actors with the
learner in the driver (``azgames.training.alphazero_ray``: the learner
learns from one actor's round while the others play). The learner's
updates and the search's batched network calls run on ``--devices``, the
tree walks on the CPU cores. From ``train.csv``, over the rounds after
the first 2 x N (Ray's actors starting and numba's compiling left out):
moves of self-play a second, the whole run's throughput; learner updates a
second (256 samples each, over the learner's own seconds); the learner's
share of the time; and the lag, how many versions behind the learner's
weights each round was played with (the local trainer's is 0). Connect
Four trains its shipped recipe (``azgames.training.recipes``), Azacru the
default MLP. The machine's cores and, on cuda, the card are named in each row.
Rows of one machine at a time: ``--save`` merges them into
``benchmarks/results/selfplay_scaling.json`` by machine.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from azgames.training.recipes import CONNECT_FOUR  # noqa: E402
from benchmarks import results_file, tables  # noqa: E402

COMMITTED = results_file.RESULTS / "selfplay_scaling.json"
#: Each game's flags: Connect Four's shipped recipe, Azacru's defaults.
RECIPES = {"connect_four": CONNECT_FOUR, "azacru": ()}


def machine(device: str) -> str:
    import torch

    cores = os.cpu_count()
    if device == "cuda":
        return f"{torch.cuda.get_device_name(0)}, {cores} cores"
    return f"{platform.machine()}, {cores} cores"


def row(game: str, device: str, rounds: int, seed: int, actors: int, num_envs: int | None = None) -> dict:
    """One run: the local trainer (``actors`` 0) or self-play in ``actors``
    Ray actors; ``num_envs`` games at once (the recipe's by default)."""
    from azgames.training import alphazero, alphazero_ray
    from azgames.training.config import AlphaZeroRayConfig
    from azgames.training.flags import config_from_flags

    with tempfile.TemporaryDirectory() as out:
        cls = AlphaZeroRayConfig if actors else alphazero.Config
        cfg = config_from_flags(cls, RECIPES[game], game=game, out=out, progress=False)
        cfg.num_envs = num_envs or cfg.num_envs
        cfg.seed, cfg.steps, cfg.device = seed, rounds * cfg.num_envs * cfg.num_steps, device
        cfg.eval_every, cfg.final_eval_games, cfg.eval_against = 0, 2, ("random",)
        cfg.torch_threads = min(os.cpu_count() or 1, 8)
        if actors:
            cfg.actors = actors
        record = (alphazero_ray if actors else alphazero).train(cfg)
        with open(Path(out) / "train.csv", newline="") as f:
            log = list(csv.DictReader(f))
    window = log[2 * max(actors, 1) :]
    first, last = window[0], window[-1]
    seconds = float(last["seconds"]) - float(first["seconds"])
    return {
        "game": game,
        "backend": f"ray, {actors} actor{'s' * (actors > 1)}" if actors else "suite",
        "actors": actors,
        "device": device,
        "machine": machine(device),
        "rounds": record["rounds"],
        "moves": record["steps"],
        "moves_per_s": round((int(last["steps"]) - int(first["steps"])) / seconds),
        "updates_per_s": round(record["updates"] / max(record["learner_seconds"], 1e-9), 1),
        "learner_share": round(record["learner_seconds"] / record["seconds"], 3),
        "lag": round(sum(int(r["lag"]) for r in window) / len(window), 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(RECIPES), choices=list(RECIPES))
    parser.add_argument("--devices", nargs="+", default=["cpu"], choices=["cpu", "cuda"])
    parser.add_argument(
        "--actors",
        nargs="+",
        type=int,
        default=[1, 2],
        help="Ray's self-play actors, a row each (default: 1 2)",
    )
    parser.add_argument("--rounds", type=int, default=24, help="rounds of 4,096 moves a row (default: 24)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 4 rounds of 32 Connect Four games")
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    games, rounds, backends = (
        (["connect_four"], 4, [0]) if args.quick else (args.games, args.rounds, [0, *args.actors])
    )
    num_envs = 32 if args.quick else None  # the smoke run's rounds are an eighth of a real one's
    rows = []
    for game in games:
        for device in args.devices:
            for actors in backends:
                rows.append(row(game, device, rounds, args.seed, actors, num_envs))
                print(
                    tables.selfplay_scaling({"rows": rows[-1:]}).splitlines()[-1], file=sys.stderr, flush=True
                )
    print(tables.selfplay_scaling({"rows": rows}))
    if out is not None:
        kept = json.loads(out.read_text())["rows"] if out.exists() else []
        here = {r["machine"] for r in rows}
        results_file.write_json(out, {"rows": [r for r in kept if r["machine"] not in here] + rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
