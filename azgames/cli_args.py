"""What the apps' commands share: the game and its options as arguments,
one-line refusals, and agent specs checked before the first move.

Every option a game declares (``Rules.OPTIONS``) becomes an argument of
every command that plays it (``--max-turns``, ``--map``, ``--island``, ...),
with each game's help; a command names no game. A bad argument ends the
command with a one-line error and exit status 2 (``parser.error``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, TypeVar

from .core.registry import list_games, rules_type

#: The ``--agents`` name of a seat played at the keyboard (not a registered
#: agent: a tournament or a training run cannot wait for a person).
HUMAN = "human"

T = TypeVar("T")


def check(parser: argparse.ArgumentParser, check: Callable[..., T], *args: Any) -> T:
    """``check(*args)`` (an :mod:`azgames.core.checks` or :mod:`azgames.core.inputs`
    check), its refusal as a one-line usage error."""
    try:
        return check(*args)
    except (TypeError, ValueError) as e:
        parser.error(str(e))
        raise  # parser.error exits; this tells a type checker so


def game_names() -> list[str]:
    return [e.name for e in list_games()]


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """An argument for every option of every registered game, with each
    game's help (the value is checked against the chosen game later:
    :func:`game_options`)."""
    declared: dict[str, list] = {}
    for game in game_names():
        for option in rules_type(game).OPTIONS:
            declared.setdefault(option.name, []).append((game, option))
    group = parser.add_argument_group("game options", "the variant options each game declares")
    for name, uses in declared.items():
        metavars = {option.metavar for _, option in uses}
        helps = "; ".join(f"{game}: {option.help}" for game, option in uses)
        group.add_argument(
            f"--{name.replace('_', '-')}",
            dest=f"option_{name}",
            default=None,
            metavar=metavars.pop() if len(metavars) == 1 else "VALUE",
            help=helps,
        )


def game_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, Any]:
    """The game options given on the command line, parsed by the chosen
    game's declarations; a usage error for an option the game does not take."""
    own = {option.name: option for option in rules_type(args.game).OPTIONS}
    options = {}
    for key, text in vars(args).items():
        if not key.startswith("option_") or text is None:
            continue
        name = key[len("option_") :]
        flag = f"--{name.replace('_', '-')}"
        if name not in own:
            takers = [g for g in game_names() if any(o.name == name for o in rules_type(g).OPTIONS)]
            parser.error(f"{flag} is an option of {', '.join(takers)}, not of {args.game}")
        try:
            options[name] = own[name].parse(text)
        except ValueError as e:
            parser.error(f"{flag} {text}: {e}")
    return options


def checked_rules(
    parser: argparse.ArgumentParser, args: argparse.Namespace, options: dict[str, Any] | None = None
):
    """The game's rules for ``--players`` and ``options`` (every value
    checked by the game), or a one-line usage error."""
    info = rules_type(args.game).info
    if not info.min_players <= args.players <= info.max_players:
        parser.error(
            f"--players {args.players}: {args.game} is for {info.min_players}-{info.max_players} players"
        )
    return check(parser, lambda: rules_type(args.game)(args.players, **(options or {})))


def check_agents(
    parser: argparse.ArgumentParser, game: str, specs: list[str], players: int, humans: bool = False
) -> None:
    """Build every agent spec once, so that every option is checked (by
    ``make_agent``, the one parser of every command) before the first move;
    ``humans``: a seat may be ``human`` too."""
    from azgames.agents import UnknownAgent, make_agent, unknown_name

    for spec in specs:
        if spec == HUMAN and humans:
            continue
        try:
            agent = make_agent(spec, game=game)
            if hasattr(agent, "policy_for"):  # a trained policy: of this player count too
                agent.policy_for(players)
        except UnknownAgent as e:
            if not humans:
                parser.error(str(e))
            keyboard = f" (or {HUMAN} for a keyboard seat)"
            parser.error(unknown_name("agent", e.name, f" for {game}", e.valid, keyboard, [HUMAN]))
        except (OSError, ValueError) as e:
            parser.error(str(e))
