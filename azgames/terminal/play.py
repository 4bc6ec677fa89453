"""One game played in the terminal (``python -m azgames play``): agents and
humans at the keyboard, one line and one board per turn.

A turn is one agent's steps in a row until the game's turn counter moves on:
an Azure Attack mover's turn is every square it steps plus its stop, printed
as ``turn 12: hunter_0 (greedy) plays N N E stop``; in the other games a turn
is one step. ``every_step=True`` prints a line (``action 31: ...``) and a
board after every step instead.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from azgames.agents.match import game_result
from azgames.core.words import count

from .human import Command, Console, board


@dataclass(frozen=True)
class _Step:
    agent: str
    move: str
    turn: int  # the game's turn number (1 = the first turn)
    ends_turn: bool
    rewards: dict[str, float]


def _turn_counter(base) -> int:
    """Turns completed so far: every game reports ``turns`` in its final info,
    which the rules compute from the state at any point of the game."""
    return base.rules.final_info(base.state)[0]["turns"]


def _over(env) -> bool:
    agent = env.agent_selection
    return env.terminations[agent] or env.truncations[agent]


def play_in_terminal(
    env,
    seats: Mapping[str, Any],
    labels: Mapping[str, str],
    *,
    seed: int | None = None,
    boards: bool = True,
    turns: bool = True,
    every_step: bool = False,
    legend: bool = False,
    delay: float = 0.0,
    console: Console | None = None,
    out=None,
) -> dict | None:
    """Play one game from ``env.reset(seed=seed)``, printing it as it goes.

    ``seats``: agent name -> an agent (``act(env) -> int``) or None for a human
    seat, whose moves ``console`` asks for. ``labels``: agent name -> what
    the lines call its player (``greedy``, ``human``). ``boards``: print the
    board at the start and after every turn (the humans see it before their
    moves in any case); ``turns``: print a line for each turn (or step); ``legend``: print the game's legend with the first board.
    ``delay``: seconds to wait after each agent's turn.

    Returns the result as :func:`azgames.agents.match.play_game` does, or
    None when a human quit (or the input ended) before the end.
    """

    def say(text: str) -> None:
        print(text, file=out or sys.stdout, flush=True)

    humans = {a for a, seat in seats.items() if seat is None}
    if humans and console is None:
        raise ValueError(f"human seats {sorted(humans)} need a console")
    base = env.unwrapped
    env.reset(seed=seed)
    steps: list[_Step] = []
    shown = -1  # the ply whose board was printed last
    if legend:
        say(base.rules.legend())
        if console is not None:
            console.legend_shown = True
    if boards:
        say(board(env))
        shown = 0
    while not _over(env):
        agent = env.agent_selection
        if agent in humans:
            assert console is not None  # human seats were refused above without one
            decision = console.ask(env, labels[agent], board_shown=shown == len(steps))
            if decision is Command.UNDO:
                own = [i for i, s in enumerate(steps) if s.agent == agent]
                if not own:
                    console.say("nothing to undo: you have not moved yet")
                    shown = len(steps)  # no need to print the same board again
                    continue
                taken = steps[own[-1] :]
                env.unwrapped.rewind(own[-1])
                del steps[own[-1] :]
                if shown > len(steps):  # that board shows a position taken back
                    shown = -1
                console.say("took back: " + "; ".join(f"{s.agent} {s.move}" for s in taken))
                continue
            if isinstance(decision, Command):  # quit, or the end of the input
                say(
                    f"{agent} stopped the game ({decision.value}) after {count(_turn_counter(base), 'turn')}, "
                    f"before its end"
                )
                return None
            action = decision
        else:
            action = int(seats[agent].act(env))
        turn = _turn_counter(base)
        move = base.action_to_str(action)
        env.step(action)
        ends = _over(env) or env.agent_selection != agent or _turn_counter(base) != turn
        steps.append(_Step(agent, move, turn + 1, ends, dict(env.rewards)))
        if turns and every_step:
            say(f"action {len(steps)}: {agent} ({labels[agent]}) plays {move}")
        elif turns and ends:
            first = len(steps) - 1
            while first > 0 and not steps[first - 1].ends_turn:
                first -= 1
            moves = " ".join(s.move for s in steps[first:])
            say(f"turn {steps[first].turn}: {agent} ({labels[agent]}) plays {moves}")
        if boards and (every_step or ends):
            say(board(env))
            shown = len(steps)
        if delay > 0 and agent not in humans and (every_step or ends):
            time.sleep(delay)
    if humans and shown != len(steps):  # the humans see how it ended
        say(board(env))
    return game_result(env, {a: sum(s.rewards.get(a, 0.0) for s in steps) for a in env.possible_agents})
