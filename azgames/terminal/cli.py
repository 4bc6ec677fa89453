"""The terminal's commands: ``play`` (agents against each other, or you at
the keyboard) and ``replay`` (step through a saved game)."""

from __future__ import annotations

import argparse
import math

from azgames.cli_args import (
    HUMAN,
    add_game_options,
    check,
    check_agents,
    checked_rules,
    game_names,
    game_options,
)
from azgames.core import checks
from azgames.core.inputs import writable_file
from azgames.core.words import count

#: The longest wait after a turn (``play --delay``): an hour is a typo already.
MAX_DELAY = 3600.0


def register(sub: argparse._SubParsersAction) -> None:
    games = game_names()
    play = sub.add_parser(
        "play",
        help="play agents against each other (default: the greedy vs random demo)",
        description=f"Play agents against each other. With no arguments: the demo, {games[0]} with "
        "2 players, greedy vs random, seed 0, a board after every turn. With "
        "--games N > 1 a match is played silently and its table printed.",
    )
    play.add_argument(
        "game", nargs="?", default=games[0], choices=games, help=f"game to play (default: {games[0]})"
    )
    play.add_argument("--players", "-p", type=int, default=2, help="number of players (default: 2)")
    play.add_argument(
        "--agents",
        "-a",
        nargs="+",
        metavar="AGENT",
        default=None,
        help="agent per seat in seat order (or one for all seats), e.g. greedy random; "
        f"{HUMAN}: you play that seat at the keyboard (a single game); "
        "default: greedy then random for the other seats",
    )
    play.add_argument("--seed", type=int, default=0, help="seed of the game(s) and the agents (default: 0)")
    play.add_argument(
        "--render",
        choices=["ansi", "none"],
        default="ansi",
        help="ansi: print the board after every turn (single game only); "
        "none: print only the moves (default: ansi)",
    )
    play.add_argument(
        "--every-step",
        action="store_true",
        help="a line and a board after every step, not every turn (a turn of some games is several steps)",
    )
    play.add_argument("--legend", action="store_true", help="print what the board's symbols mean first")
    play.add_argument(
        "--delay",
        type=float,
        default=0.0,
        help="seconds to wait after each agent's turn of a single game (default: 0)",
    )
    play.add_argument(
        "--games",
        "-n",
        type=int,
        default=1,
        help="number of games (default: 1); more than 1 plays a match (seats rotated "
        "every game) and prints its table instead of rendering",
    )
    play.add_argument(
        "--record",
        metavar="PATH",
        default=None,
        help="save the JSON game record of the (last) game here; load it with azgames.load_record(PATH)",
    )
    play.add_argument("--force", action="store_true", help="replace the --record file if it exists")
    play.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="a match: no progress line; a single game: only its result line (no boards, no turns)",
    )
    add_game_options(play)
    play.set_defaults(run=cmd_play, subparser=play)

    replay = sub.add_parser(
        "replay",
        help="step through a saved game (a record from play --record or save_record)",
        description="Show a game record's positions one at a time, each with the step that led "
        "there: Enter for the next, b to go back, a number to jump to that ply, q to "
        "quit. The record is replayed and checked first.",
    )
    replay.add_argument("record", metavar="RECORD.json", help="the game record")
    replay.add_argument(
        "--all",
        action="store_true",
        help="print every position at once, without waiting for keys (for a pipe)",
    )
    replay.add_argument("--legend", action="store_true", help="print what the board's symbols mean first")
    replay.set_defaults(run=cmd_replay, subparser=replay)


def _agent_list(parser, game: str, names: list[str] | None, players: int) -> list[str]:
    from azgames.agents import agent_names

    if names is None:  # the demo: greedy (where it exists) against random
        first = "greedy" if "greedy" in agent_names(game) else "random"
        return [first] + ["random"] * (players - 1)
    check_agents(parser, game, names, players, humans=True)
    if len(names) == 1:
        return names * players
    if len(names) != players:
        parser.error(
            f"--agents: give one agent per player ({players}) or a single agent for all, got {len(names)}"
        )
    return names


def result_line(result: dict, labels: dict[str, str]) -> str:
    """The one line that says how a game ended."""
    scores = ", ".join(f"{a} {s}" for a, s in result["scores"].items())
    turns = count(result["turns"], "turn")
    rewards = result["rewards"]
    if not any(rewards.values()) and (result["truncated"] or not result["winners"]):
        ended = "turn limit reached" if result["truncated"] else "draw"
        return f"Result: {ended} after {turns}, no winner (scores: {scores})"
    head = "Result: turn limit reached; " if result["truncated"] else "Result: "
    if len(rewards) > 1 and len(set(rewards.values())) == 1:  # one team (a co-op game)
        verdict = "the team wins" if next(iter(rewards.values())) > 0 else "the team loses"
        return f"{head}{verdict} after {turns} (scores: {scores})"
    winners = result["winners"]
    parts = [f"{w} ({labels[w]})" for w in winners]
    named = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    if all(rewards[w] >= 1.0 for w in winners):  # a sole winner, or a whole side
        return f"{head}{named} {'wins' if len(winners) == 1 else 'win'} after {turns} (scores: {scores})"
    return f"{head}draw between {named} after {turns} (scores: {scores})"


def cmd_play(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import numpy as np

    import azgames
    from azgames.agents import make_agent
    from azgames.agents.match import play_match

    from . import Console, play_in_terminal

    options = game_options(parser, args)
    checked_rules(parser, args, options)
    if args.games < 1:
        parser.error(f"--games {args.games}: play at least one game")
    check(parser, checks.seed, "--seed", args.seed)
    if not (math.isfinite(args.delay) and 0 <= args.delay <= MAX_DELAY):
        parser.error(f"--delay {args.delay}: give a number of seconds from 0 to {MAX_DELAY:g}")
    if args.record is not None:  # before playing: a long match must not end in a traceback
        check(parser, writable_file, "--record", args.record, args.force)
    names = _agent_list(parser, args.game, args.agents, args.players)
    if HUMAN in names and args.games > 1:
        parser.error(f"--games {args.games}: a human seat ({HUMAN}) plays a single game; leave out --games")
    env = azgames.make(args.game, num_players=args.players, **options)

    if args.games > 1:
        result = play_match(
            args.game,
            names,
            num_games=args.games,
            num_players=args.players,
            seed=args.seed,
            progress=not args.quiet,
            env=env,
        )
        print(result)
    else:
        seeds = np.random.SeedSequence(args.seed).spawn(args.players)
        seats = {
            a: None if n == HUMAN else make_agent(n, seed=s, game=args.game)
            for a, n, s in zip(env.possible_agents, names, seeds)
        }
        labels = dict(zip(env.possible_agents, names))
        print(
            f"{args.game}: " + ", ".join(f"{a} = {n}" for a, n in labels.items()) + f" (seed {args.seed})",
            flush=True,
        )
        boards = args.render == "ansi" and not args.quiet
        if boards and not args.legend:
            print("(--legend explains the board's symbols)", flush=True)
        result = play_in_terminal(
            env,
            seats,
            labels,
            seed=args.seed,
            boards=boards,
            turns=not args.quiet,
            every_step=args.every_step,
            legend=args.legend,
            delay=args.delay,
            console=Console() if HUMAN in names else None,
        )
        if result is not None:  # None: a human stopped the game
            print(result_line(result, labels))
    if args.record:
        env.unwrapped.save_record(args.record)
        print(f"record of the {'last ' if args.games > 1 else ''}game saved to {args.record}")
    return 0


def cmd_replay(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from azgames.core.records import load_record

    from . import replay

    try:
        env = load_record(args.record)
    except (TypeError, ValueError) as e:
        parser.error(str(e) if args.record in str(e) else f"{args.record}: {e}")
    replay(env, every=args.all, legend=args.legend)
    return 0
