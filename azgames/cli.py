"""The ``azgames`` command line (``python -m azgames ...``): a dispatch table.

    python -m azgames --version                 the installed version
    python -m azgames list                      games, player counts, action spaces, agents
    python -m azgames play [GAME] [...]         agents against each other, or you (azgames.terminal)
    python -m azgames replay game.json          step through a saved game (azgames.terminal)
    python -m azgames serve                     the browser app (azgames.web)
    python -m azgames train GAME [...]          self-play training (azgames.training, azgames.rllib)
    python -m azgames tournament GAME -a ...    rating ladders (azgames.tournament)
    python -m azgames bench [ARGS ...]          step rates (azgames.bench)
    python -m azgames compile [GAME ...]        fill numba's cache ahead of time (azgames.compiling)

Each app adds its own command (its module's ``register(subparsers)``); this
module only lists them. A bad argument ends the command with a one-line
error and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import os
import sys

from .core.registry import list_games, rules_type

#: The modules that add a command each (``register(subparsers)``), in the order --help lists them.
COMMANDS = (
    "azgames.terminal.cli",
    "azgames.web.cli",
    "azgames.training.cli",
    "azgames.tournament.cli",
    "azgames.bench",
    "azgames.compiling.cli",
)


def _action_sizes(rules_cls) -> str:
    """``289 (2 players), 217 (3-4 players)``: sizes grouped by player count."""
    info = rules_cls.info
    groups: list[tuple[int, int, int]] = []
    for n in range(info.min_players, info.max_players + 1):
        size = rules_cls(n).num_actions
        if groups and groups[-1][2] == size:
            groups[-1] = (groups[-1][0], n, size)
        else:
            groups.append((n, n, size))
    return ", ".join(f"{s} ({a} players)" if a == b else f"{s} ({a}-{b} players)" for a, b, s in groups)


def cmd_list(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from azgames.agents import agent_names

    for entry in list_games():
        rules_cls = rules_type(entry.name)
        info = rules_cls.info
        players = (
            f"{info.min_players}"
            if info.min_players == info.max_players
            else f"{info.min_players}-{info.max_players}"
        )
        print(f"{entry.name}: {entry.summary}")
        print(f"    players: {players}; actions: Discrete {_action_sizes(rules_cls)}")
        print(f"    agents: {', '.join(agent_names(entry.name))}")
        if rules_cls.OPTIONS:
            print(f"    options: {', '.join('--' + o.name.replace('_', '-') for o in rules_cls.OPTIONS)}")
    return 0


def installed_version() -> str:
    """The version pip installed (pyproject.toml's when it ran)."""
    try:
        return importlib.metadata.version("azgames")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout pip never installed
        return "(not installed)"


class _Parser(argparse.ArgumentParser):
    """argparse, with every usage error on one line (exit status 2)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="azgames",
        description="Azgames RL environments: list the games, watch or play matches, train, "
        "rank agents, serve the browser app, benchmark the step rate.",
    )
    parser.add_argument("--version", action="version", version=f"azgames {installed_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    listing = sub.add_parser(
        "list",
        help="the registered games with player counts, action spaces, agents and options",
        description="List the registered games: one-line summary, player counts, "
        "action-space sizes, the agents that can play them and "
        "their options.",
    )
    listing.set_defaults(run=cmd_list, subparser=listing)
    for module in COMMANDS:
        importlib.import_module(module).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m azgames`` and the ``azgames`` script; returns the exit code."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _main(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["bench"] and argv[1:] not in (["-h"], ["--help"]):
        # Everything after "bench" belongs to the benchmark, options included.
        from .bench import main as bench_main

        rest = argv[1:]
        return bench_main(rest[1:] if rest[:1] == ["--"] else rest)
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = argv
    if args.command is None:
        parser.print_help()
        return 0
    return args.run(args, args.subparser)


if __name__ == "__main__":
    sys.exit(main())
