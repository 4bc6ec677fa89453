"""How strong the shipped ``ppo`` policies are: win rates against random and greedy.

    python benchmarks/ppo_strength.py            # 400 games x seeds 0, 1, 2 a row, the table only
    python benchmarks/ppo_strength.py --save     # the same, written to results/ppo_strength.json
    python benchmarks/ppo_strength.py --quick    # 20 games, one seed, 2 players only
    python benchmarks/ppo_strength.py --games azacru --players 2
    python benchmarks/ppo_strength.py --games azimuth --opponents greedy --json /tmp/azimuth.json

For each shipped policy (``agents/policies/<game>_<n>p.npz``) and each
opponent, ``--num-games`` games per seed are played batched
(:func:`azgames.training.evaluate.evaluate`): the policy's seat alternates
over the games, every other seat is the opponent (all random, or all
greedy: with 3-4 players that is the table of baselines), and the policy
plays its most likely legal action, as the ``ppo`` agent does. Wins, draws
and losses are summed over the seeds; the interval is the 95% Wilson
interval of the pooled win rate; "decisive" is wins over wins + losses.
In the co-op mode the policy is the whole team and there is no opponent:
the row is the team's win rate against the Ocean Die.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # results_file, also when run by path (runpy)

import results_file  # noqa: E402

from azgames.agents.match import wilson_interval  # noqa: E402
from azgames.agents.policy import NumpyPolicy, shipped_policy_path  # noqa: E402
from azgames.core.progress import Progress  # noqa: E402
from azgames.training.evaluate import evaluate  # noqa: E402

COMMITTED = results_file.RESULTS / "ppo_strength.json"
GAMES = ("azacru", "azimuth", "azure", "azimuth_coop")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--players", nargs="+", type=int, default=[2, 3, 4])
    parser.add_argument("--num-games", type=int, default=400, help="games per seed and opponent (2 players)")
    parser.add_argument(
        "--num-games-many",
        type=int,
        default=None,
        help="games per seed and opponent with 3-4 players (default: --num-games)",
    )
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument("--opponents", nargs="+", choices=["random", "greedy"], default=["random", "greedy"])
    parser.add_argument("--quick", action="store_true", help="20 games, seed 0, 2 players")
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    if args.quick:
        args.num_games, args.seeds, args.players = 20, [0], [2]
    many = args.num_games if args.num_games_many is None else args.num_games_many
    rows = []
    print("| game | players | opponent | games | wins | 95% CI | draws | losses | decisive wins | per seed |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for game in args.games:
        for n in args.players:
            try:
                policy = NumpyPolicy.load(shipped_policy_path(game, n))
            except ValueError as e:
                print(f"skipped: {e}", file=sys.stderr)
                continue
            opponents = ["random"] if game == "azimuth_coop" else args.opponents
            for opponent in opponents:
                games = args.num_games if n == 2 else many
                runs = []
                with Progress(games * len(args.seeds), f"{game} {n}p vs {opponent}") as bar:
                    for s in args.seeds:
                        runs.append(evaluate(policy, opponent, games, seed=s, progress=bar.update))
                wins, draws, losses = (sum(getattr(r, k) for r in runs) for k in ("wins", "draws", "losses"))
                total = wins + draws + losses
                lo, hi = wilson_interval(wins, total)
                row = {
                    "game": game,
                    "players": n,
                    "opponent": "Ocean Die" if game == "azimuth_coop" else opponent,
                    "games": total,
                    "wins": wins,
                    "draws": draws,
                    "losses": losses,
                    "win_rate": wins / total,
                    "win_rate_lo": lo,
                    "win_rate_hi": hi,
                    "decisive_win_rate": wins / (wins + losses) if wins + losses else None,
                    "per_seed": [r.win_rate for r in runs],
                    "seeds": args.seeds,
                    "trained": policy.meta.get("trained"),
                }
                rows.append(row)
                decisive = (
                    "-" if row["decisive_win_rate"] is None else f"{100 * row['decisive_win_rate']:.1f}%"
                )
                print(
                    f"| {game} | {n} | {row['opponent']} | {total} | {100 * row['win_rate']:.1f}% | "
                    f"{100 * lo:.1f}-{100 * hi:.1f}% | {draws} | {losses} | {decisive} | "
                    + " / ".join(f"{100 * w:.1f}" for w in row["per_seed"])
                    + " |",
                    flush=True,
                )
                if out is not None:  # after every row: a stopped run keeps what it measured
                    results_file.write_json(
                        out,
                        {
                            "date": time.strftime("%Y-%m-%d"),
                            "num_games": args.num_games,
                            "num_games_many": many,
                            "seeds": args.seeds,
                            "rows": rows,
                        },
                        indent=2,
                    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
