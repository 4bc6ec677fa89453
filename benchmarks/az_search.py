"""The batched Gumbel search (issue 29): positions searched a second, and
the share of the time the network takes.

    python benchmarks/az_search.py            # the table only
    python benchmarks/az_search.py --save     # the same, replacing benchmarks/results/az_search.json
    python benchmarks/az_search.py --quick    # a smoke run: one small row

Each row searches ``--moves`` moves of self-play in ``games`` games at once
(:class:`azgames.agents.az.search.GumbelSearch`, ``--simulations`` a move)
with an untrained network of the trainer's shape (the suite's ``Net``, two
tanh layers of 128, in torch on the CPU, one thread per process as torch
chooses). *positions/s* is the moves searched over the seconds in the
search; *network* the part of those seconds in the network's forward passes
(one call a simulation for every game's leaf). The first move of a row is
not timed (numba compiling or loading the search). One seed: the search is
deterministic given its network, its noise and (Azure Attack's fights) its
dice.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path (runpy)
import results_file  # noqa: E402
import tables  # noqa: E402

COMMITTED = results_file.RESULTS / "az_search.json"
ROWS = [(game, games) for game in ("azacru", "azimuth", "azure") for games in (1, 64, 256)]


def measure(game: str, games: int, simulations: int, moves: int) -> dict:
    import numpy as np
    import torch

    import azgames
    from azgames.agents.az.search import GumbelSearch
    from azgames.training.alphazero import evaluator
    from azgames.training.net import Net

    torch.manual_seed(0)
    venv = azgames.make_vec(game, num_envs=games, seed=0, num_players=2)
    obs, _ = venv.reset()
    size = obs[0].size
    net = Net(size, venv.num_actions, (128, 128))
    search = GumbelSearch(venv.rules, evaluator(net), simulations=simulations, seed=0)
    chosen, _ = search.run(venv.state, venv.player.copy(), size)  # compiles or loads the search
    venv.step(chosen)
    search.seconds = {"run": 0.0, "network": 0.0}
    for _ in range(moves):
        chosen, _ = search.run(venv.state, venv.player.copy(), size)
        venv.step(chosen)
    run, network = search.seconds["run"], search.seconds["network"]
    return {
        "game": game,
        "games": games,
        "simulations": simulations,
        "moves": moves,
        "positions_per_s": games * moves / run,
        "network_share": network / run,
        "seconds": run,
        "legal_mean": float(np.mean(venv.action_mask.sum(1))),
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=32, help="a move (default: 32)")
    parser.add_argument("--moves", type=int, default=8, help="moves timed a row (default: 8)")
    parser.add_argument(
        "--quick", action="store_true", help="smoke run: Azacru, 4 games, 2 moves of 4 simulations"
    )
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    rows_wanted = [("azacru", 4)] if args.quick else ROWS
    simulations, moves = (4, 2) if args.quick else (args.simulations, args.moves)
    if simulations < 1 or moves < 1:
        parser.error(f"--simulations {simulations} and --moves {moves} must be at least 1")
    from azgames.core.progress import Progress

    rows = []
    with Progress(len(rows_wanted), "az search", unit="row", enabled=not args.quick) as bar:
        for game, games in rows_wanted:
            rows.append(measure(game, games, simulations, moves))
            bar.update(desc=f"az search: {game}, {games} games")
    results = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "rows": rows,
    }
    print(tables.az_search(results))
    if out is not None:
        results_file.write_json(out, results, indent=2)
    return results


if __name__ == "__main__":
    main()
