"""Search speed: MCTS simulations a second, per game, beside OpenSpiel's MCTS bot.

    python benchmarks/mcts_speed.py           # the table only
    python benchmarks/mcts_speed.py --save    # the same, replacing benchmarks/results/mcts_speed.json
    python benchmarks/mcts_speed.py --quick   # a smoke run: a few moves a row

Each row plays self-play games with the same search on every seat (1,000
simulations a move, uniformly random playouts to the end of the game, UCT
c = 2 as in OpenSpiel's row, one thread unless the row says 2; rows marked
"default playouts" use the game's own cut and estimate instead, as the
agent does by default for Azure Attack and Azimuth, Azimuth's guided by its
estimate; "ppo" rows are guided by the shipped policy, AlphaZero-style, with
no playouts) and divides the simulations run by the seconds spent searching.
Games are cut after ``--moves`` searched moves (forced moves are not
searched); three seeds, one game each. Our rows call
:meth:`azgames.agents.mcts.MCTSAgent.search`; the first search of a process
(numba compiling the search, or loading it from the cache) is timed apart
as ``first_search_s`` and not counted. The OpenSpiel row is
``open_spiel.python.algorithms.mcts.MCTSBot`` (Python search) with
``RandomRolloutEvaluator`` over OpenSpiel's C++ ``connect_four``, played to
the end (the issue's reference point; needs the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path (runpy)
import results_file  # noqa: E402

COMMITTED = results_file.RESULTS / "mcts_speed.json"
GAMES = [
    "azacru:2",
    "azacru:2:2",
    "azacru:4",
    "azacru:2:1:ppo",
    "azure:2",
    "azure:2:1:default",
    "azimuth:2",
    "azimuth:2:1:default",
    "azimuth_coop:2",
]
#: What a row's fourth field sets: the game's own playouts, cut and guide
#: (the agent's defaults), or the shipped policy's guide (AlphaZero-style).
MODES = {"": "random to the end", "default": "game default", "ppo": "policy-guided (ppo)"}
SIMULATIONS = 1000


def ours(game: str, players: int, moves: int, seeds: int, threads: int = 1, mode: str = "") -> dict:
    import azgames
    from azgames.agents.mcts import MCTSAgent

    env = azgames.make(game, num_players=players)
    env.reset(seed=0)
    plain = mode == ""
    options = dict(
        game=game,
        c=2.0,
        threads=threads,
        max_playout=-1 if plain else None,
        prior_temperature=0 if plain else None,
        policy="ppo" if mode == "ppo" else None,
    )
    start = time.perf_counter()
    MCTSAgent(seed=0, simulations=10, **options).search(env)
    first = time.perf_counter() - start
    sims, seconds, searched = 0, 0.0, 0
    for seed in range(seeds):
        env.reset(seed=seed)
        agent = MCTSAgent(seed=seed, simulations=SIMULATIONS, **options)
        for _ in range(moves):
            if any(env.terminations.values()) or any(env.truncations.values()):
                break
            legal = env.unwrapped.legal_actions()
            if len(legal) == 1:
                env.step(legal[0])
                continue
            result = agent.search(env)
            sims += result.simulations
            seconds += result.seconds
            searched += 1
            env.step(result.best())
    name = (
        f"{game} {players}p (ours, numba{', 2 threads' if threads > 1 else ''}"
        f"{', ' + MODES[mode] if mode else ''})"
    )
    return {
        "name": name,
        "game": game,
        "players": players,
        "threads": threads,
        "playouts": MODES[mode],
        "searched_moves": searched,
        "simulations": sims,
        "seconds": round(seconds, 3),
        "sims_per_s": round(sims / seconds),
        "first_search_s": round(first, 2),
    }


def openspiel(moves: int, seeds: int) -> dict:
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("connect_four")
    sims, seconds, searched = 0, 0.0, 0
    for seed in range(seeds):
        rng = np.random.RandomState(seed)
        bot = mcts.MCTSBot(
            game,
            uct_c=2,
            max_simulations=SIMULATIONS,
            evaluator=mcts.RandomRolloutEvaluator(1, rng),
            random_state=rng,
        )
        state = game.new_initial_state()
        for _ in range(moves):
            if state.is_terminal():
                break
            start = time.perf_counter()
            action = bot.step(state)
            seconds += time.perf_counter() - start
            sims += SIMULATIONS
            searched += 1
            state.apply_action(action)
    return {
        "name": "connect_four (OpenSpiel MCTSBot, Python)",
        "game": "connect_four",
        "players": 2,
        "searched_moves": searched,
        "simulations": sims,
        "seconds": round(seconds, 3),
        "sims_per_s": round(sims / seconds),
        "first_search_s": None,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 moves, 1 seed a row (a smoke run)")
    parser.add_argument("--moves", type=int, default=20, help="searched moves per game (default: 20)")
    parser.add_argument("--seeds", type=int, default=3, help="games per row (default: 3)")
    parser.add_argument(
        "--games", nargs="+", default=GAMES, help="GAME:PLAYERS[:THREADS[:default|ppo]] rows (default: all)"
    )
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel row")
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    moves, seeds = (2, 1) if args.quick else (args.moves, args.seeds)
    rows = []
    if not args.no_openspiel:
        try:
            rows.append(openspiel(moves, seeds))
        except ImportError:
            print(
                "open_spiel is not installed (pip install -e '.[bench]'): no OpenSpiel row", file=sys.stderr
            )
    for spec in args.games:
        game, *rest = spec.split(":")
        players, threads = (int(x) for x in (rest + ["2", "1"][len(rest) :])[:2])
        mode = rest[2] if len(rest) > 2 else ""
        if mode not in MODES:
            parser.error(f"row {spec!r}: the fourth field is 'default' or 'ppo', not {mode!r}")
        rows.append(ours(game, players, moves, seeds, threads, mode))
        print(f"  {rows[-1]['name']}: {rows[-1]['sims_per_s']:,} sims/s", file=sys.stderr)
    base = (
        rows[0]["sims_per_s"]
        if not args.no_openspiel and rows and rows[0]["game"] == "connect_four"
        else None
    )
    print(
        f"\n| search | simulations/s | searched moves | first search (s) |{' vs OpenSpiel |' if base else ''}"
    )
    print(f"|---|---|---|---|{'---|' if base else ''}")
    for r in rows:
        ratio = f" {r['sims_per_s'] / base:.1f}x |" if base else ""
        first = "-" if r["first_search_s"] is None else f"{r['first_search_s']:.1f}"
        print(f"| {r['name']} | {r['sims_per_s']:,} | {r['searched_moves']} | {first} |{ratio}")
    if out is not None:
        results_file.write_json(
            out,
            {
                "benchmark": "mcts_speed",
                "simulations_per_move": SIMULATIONS,
                "moves": moves,
                "seeds": seeds,
                "machine": platform.platform(),
                "processor": platform.processor(),
                "python": sys.version.split()[0],
                "rows": rows,
            },
            indent=2,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
