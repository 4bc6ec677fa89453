"""How strong the ``mcts`` agent is: win rates against greedy (and random).

    python benchmarks/mcts_strength.py                       # the table only
    python benchmarks/mcts_strength.py --save                # the same, merged into results/mcts_strength.json
    python benchmarks/mcts_strength.py --quick               # 4 games, one seed, 50 simulations
    python benchmarks/mcts_strength.py --games azimuth --num-games 40

Each row is a match (:func:`azgames.agents.match.play_match`) of
``MCTSAgent(simulations=...)`` (default 1,000 a move, and the agent's
defaults: c = 1; Azacru's random playouts to the end, Azure Attack's cut
after 20 plies and estimated; Azimuth guided by its estimate, every leaf
estimated at once) against the opponent on every other seat (with 3-4
players a table of that baseline), seats rotated every game, ``--num-games`` games for
each seed (default 134: 402 over seeds 0, 1, 2). Wins, draws and losses are
pooled over the seeds; the interval is the 95% Wilson interval of the win
rate; "decisive" is wins over wins + losses. ``--jobs 2`` plays the seeds in
parallel processes (the same games: each seed's match is independent).

Each row is merged into the JSON (``--save``: the committed
``benchmarks/results/mcts_strength.json``; ``--json PATH``: PATH) as soon as
it is measured, replacing only
the row of the same game, players, opponent and simulations (with the
command that measured it), so a partial run keeps the other rows and a
stopped run keeps what it measured.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path (runpy)
import results_file  # noqa: E402

COMMITTED = results_file.RESULTS / "mcts_strength.json"
GAMES = ("azacru", "azimuth", "azure")


def score(
    game: str, players: int, opponent: str, simulations: int, games: int, seed: int, policy: str | None = None
) -> dict:
    from azgames.agents.match import play_match
    from azgames.agents.mcts import MCTSAgent

    mcts = MCTSAgent(seed=seed, game=game, simulations=simulations, policy=policy)
    result = play_match(
        game,
        {"mcts": mcts, **{f"{opponent}#{k}": opponent for k in range(1, players)}},
        num_games=games,
        num_players=players,
        seed=seed,
        progress=True,
    )
    return {"wins": result.wins["mcts"], "draws": result.draws["mcts"], "losses": result.losses["mcts"]}


def merge_row(path: Path, row: dict) -> None:
    """Write ``row`` into the JSON at ``path``, replacing the row it re-measures."""
    results_file.merge_row(
        path,
        row,
        ("game", "players", "opponent", "simulations", "policy"),
        order=lambda r: (r["game"], r["players"], r.get("policy") or "", r["opponent"], r["simulations"]),
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--players", nargs="+", type=int, default=[2])
    parser.add_argument(
        "--opponents", nargs="+", choices=["random", "greedy", "mcts", "ppo"], default=["greedy"]
    )
    parser.add_argument(
        "--policy",
        choices=["ppo"],
        default=None,
        help="guide the search by the shipped policy (AlphaZero-style)",
    )
    parser.add_argument("--num-games", type=int, default=134, help="games per seed (default: 134)")
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument("--simulations", type=int, default=1000, help="per move (default: 1,000)")
    parser.add_argument("--jobs", type=int, default=1, help="seeds played in parallel processes")
    parser.add_argument("--quick", action="store_true", help="4 games, seed 0, 50 simulations")
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    path = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    if args.quick:
        args.num_games, args.seeds, args.simulations = 4, [0], 50
    from azgames.agents.match import wilson_interval

    command = "python benchmarks/mcts_strength.py " + shlex.join(sys.argv[1:] if argv is None else argv)
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    print(
        "| game | players | policy | opponent | simulations | games | wins | 95% CI | draws | losses | "
        "decisive wins | per seed (wins) | minutes |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for game in args.games:
        for n in args.players:
            for opponent in args.opponents:
                start = time.perf_counter()
                jobs = [
                    (game, n, opponent, args.simulations, args.num_games, s, args.policy) for s in args.seeds
                ]
                runs = list(pool.map(score, *zip(*jobs)) if pool else (score(*job) for job in jobs))
                wins, draws, losses = (sum(r[k] for r in runs) for k in ("wins", "draws", "losses"))
                total = wins + draws + losses
                lo, hi = wilson_interval(wins, total)
                row = {
                    "game": game,
                    "players": n,
                    "policy": args.policy,
                    "opponent": opponent,
                    "simulations": args.simulations,
                    "games": total,
                    "wins": wins,
                    "draws": draws,
                    "losses": losses,
                    "win_rate": wins / total,
                    "win_rate_lo": lo,
                    "win_rate_hi": hi,
                    "decisive_win_rate": wins / (wins + losses) if wins + losses else None,
                    "per_seed": runs,
                    "seeds": args.seeds,
                    "minutes": round((time.perf_counter() - start) / 60, 1),
                    "jobs": args.jobs,
                    "command": command,
                }
                decisive = (
                    "-" if row["decisive_win_rate"] is None else f"{100 * row['decisive_win_rate']:.1f}%"
                )
                print(
                    f"| {game} | {n} | {args.policy or '-'} | {opponent} | {args.simulations} | {total} | "
                    f"{100 * row['win_rate']:.1f}% | {100 * lo:.1f}-{100 * hi:.1f}% | {draws} | {losses} | "
                    f"{decisive} | " + " / ".join(str(r["wins"]) for r in runs) + f" | {row['minutes']} |",
                    flush=True,
                )
                if path is not None:
                    merge_row(path, row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
