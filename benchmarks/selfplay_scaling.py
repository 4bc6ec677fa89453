"""How fast AlphaZero self-play and its learner run, and on what.

    python benchmarks/selfplay_scaling.py [--games connect_four azacru] [--devices cpu cuda] [--rounds 24] [--save]

Each row trains the suite's Gumbel AlphaZero (``azgames.training.alphazero``,
the local trainer) for ``--rounds`` rounds of 256 games x 16 moves from
scratch, no evaluation along the way, on one device: the learner's updates
and the search's batched network calls run there, the tree walks on the
CPU cores. From the run's record: self-play moves a second (the moves over
the seconds not spent in the learner, numba's compiling left out), learner
updates a second (256 samples each), the learner's share of the time, and
moves a second overall. Connect Four trains its shipped recipe (a 16 x 1
conv trunk), Azacru the default MLP. The machine's cores and, on cuda, the
card are named in each row. Rows of one machine at a time: ``--save``
merges them into ``benchmarks/results/selfplay_scaling.json`` by machine.
"""

from __future__ import annotations

import argparse
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


def row(game: str, device: str, rounds: int, seed: int) -> dict:
    from azgames.training.alphazero import Config, train
    from azgames.training.flags import config_from_flags

    with tempfile.TemporaryDirectory() as out:
        cfg = config_from_flags(Config, RECIPES[game], game=game, out=out, progress=False)
        cfg.seed, cfg.steps, cfg.device = seed, rounds * cfg.num_envs * cfg.num_steps, device
        cfg.eval_every, cfg.final_eval_games, cfg.eval_against = 0, 2, ("random",)
        cfg.torch_threads = min(os.cpu_count() or 1, 8)
        record = train(cfg)
    selfplay = record["training_seconds"] - record["learner_seconds"]
    return {
        "game": game,
        "device": device,
        "machine": machine(device),
        "rounds": record["rounds"],
        "moves": record["steps"],
        "selfplay_moves_per_s": round(record["steps"] / selfplay),
        "updates_per_s": round(record["updates"] / max(record["learner_seconds"], 1e-9), 1),
        "learner_share": round(record["learner_seconds"] / record["training_seconds"], 3),
        "moves_per_s": record["training_steps_per_s"],
        "compile_seconds": record["compile_seconds"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(RECIPES), choices=list(RECIPES))
    parser.add_argument("--devices", nargs="+", default=["cpu"], choices=["cpu", "cuda"])
    parser.add_argument("--rounds", type=int, default=24, help="rounds of 4,096 moves a row (default: 24)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2 rounds of Connect Four")
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    games, rounds = (["connect_four"], 2) if args.quick else (args.games, args.rounds)
    rows = []
    for game in games:
        for device in args.devices:
            rows.append(row(game, device, rounds, args.seed))
            print(tables.selfplay_scaling({"rows": rows[-1:]}).splitlines()[-1], file=sys.stderr, flush=True)
    print(tables.selfplay_scaling({"rows": rows}))
    if out is not None:
        kept = json.loads(out.read_text())["rows"] if out.exists() else []
        here = {r["machine"] for r in rows}
        results_file.write_json(out, {"rows": [r for r in kept if r["machine"] not in here] + rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
