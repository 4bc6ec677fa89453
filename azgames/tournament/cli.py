"""The ``tournament`` command: a round robin in every seating, ratings, table, plot, JSON."""

from __future__ import annotations

import argparse

from azgames.cli_args import add_game_options, check, check_agents, checked_rules, game_names, game_options
from azgames.core import checks
from azgames.core.extras import require
from azgames.core.inputs import writable_folder

TOURNAMENT_FILES = ("tournament.json", "ratings.png")


def register(sub: argparse._SubParsersAction) -> None:
    tour = sub.add_parser(
        "tournament",
        help="rank agents: a round robin in every seating, ratings, table, plot, JSON",
        description="Play every set of --players distinct agents in all its seatings, --games "
        "games per set, and rate the agents: Bradley-Terry on the Elo scale for 2 "
        "players, OpenSkill for 3-4 players and teams; random = 0 (or, without random, the "
        "first agent listed). Prints a table with each agent's games, draws and win rate; "
        "writes tournament.json (every game) and ratings.png.",
    )
    tour.add_argument("game", choices=game_names(), help="game to play")
    tour.add_argument("--players", "-p", type=int, default=2, help="number of players (default: 2)")
    tour.add_argument(
        "--agents",
        "-a",
        nargs="+",
        metavar="AGENT",
        required=True,
        help="agents, with options after a colon: random greedy mcts:simulations=200",
    )
    tour.add_argument(
        "--games",
        "-n",
        type=int,
        default=100,
        help="games per set of agents, spread over its seatings (default: 100)",
    )
    tour.add_argument("--seed", type=int, default=0, help="seed of the games and agents (default: 0)")
    tour.add_argument(
        "--out", metavar="DIR", default=None, help="output folder (default: runs/tournament_GAME_Np)"
    )
    tour.add_argument(
        "--force",
        action="store_true",
        help="write into an --out folder that holds another tournament, replacing it",
    )
    tour.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_game_options(tour)
    tour.set_defaults(run=cmd_tournament, subparser=tour)


def cmd_tournament(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    require("tournament", "tournament")
    from .run import run_tournament

    options = game_options(parser, args)
    checked_rules(parser, args, options)
    check_agents(parser, args.game, args.agents, args.players)
    if len(set(args.agents)) != len(args.agents):
        parser.error(f"--agents: each agent once, got {' '.join(args.agents)}")
    if len(args.agents) < args.players:
        parser.error(
            f"--agents: a {args.players}-player tournament needs at least {args.players} "
            f"agents, got {len(args.agents)}"
        )
    if args.games < 1:
        parser.error(f"--games {args.games}: give a number >= 1")
    check(parser, checks.seed, "--seed", args.seed)
    # Before the first game: a bad folder must not throw the games away.
    out = check(
        parser,
        writable_folder,
        "--out",
        args.out or f"runs/tournament_{args.game}_{args.players}p",
        TOURNAMENT_FILES,
        args.force,
    )
    result = run_tournament(
        args.game,
        args.agents,
        num_players=args.players,
        games=args.games,
        seed=args.seed,
        progress=not args.quiet,
        env_kwargs=options,
    )
    result.save(out / "tournament.json")
    print(result.table())
    result.plot(out / "ratings.png")  # matplotlib comes with the extra checked above
    print(f"\nevery game in {out / 'tournament.json'}; plot in {out / 'ratings.png'}")
    return 0
