"""Stepping through a saved game (``python -m azgames replay game.json``).

Each position is shown with the step that led there (``ply 12/57: hunter_0
plays N``) and the board. Interactively, Enter goes to the next position,
``b`` back, a number to that ply, ``q`` (or the end of the input) quits;
``every=True`` prints every position without asking (for a pipe).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from .history import Position, positions

KEYS = "Enter: next, b: back, a number: that ply, q: quit"


def _show(say, rules, position: Position, last_ply: int) -> None:
    head = f"ply {position.ply}/{last_ply}: "
    if position.last is None:
        say(head + "the start")
    else:
        say(head + f"{position.last.agent} plays {position.last.move}")
    say(rules.render_ansi(position.state))


def replay(
    env, *, every: bool = False, legend: bool = False, input_fn: Callable[[str], str] = input, out=None
) -> None:
    """Show the positions of ``env``'s game (an env loaded from a record)."""

    def say(text: str = "") -> None:
        print(text, file=out or sys.stdout, flush=True)

    rules = env.unwrapped.rules
    game = positions(env)
    last = len(game) - 1
    say(f"{rules.info.name}, {rules.num_players} players ({', '.join(rules.agents)}): {last} plies")
    if legend:
        say(rules.legend())
    if every:
        for position in game:
            _show(say, rules, position, last)
        return
    ply = 0
    _show(say, rules, game[0], last)
    while True:
        try:
            key = input_fn(f"[{KEYS}] ").strip().casefold()
        except EOFError:
            say()
            return
        if key == "q":
            return
        if key == "":
            target = ply + 1
        elif key == "b":
            target = ply - 1
        elif key.isascii() and key.isdigit() and len(key) <= 9:
            # Not "²" (isdigit() accepts it, int() refuses it), nor thousands of
            # digits (int() refuses them): no game has a billion plies.
            target = int(key)
        elif key.isascii() and key.isdigit():
            say(f"no ply {key[:9]}...: the game has plies 0-{last}")
            continue
        else:
            say(f"{key!r} is not a key of the replay: {KEYS}")
            continue
        if not 0 <= target <= last:
            say(
                f"no ply {target}: the game has plies 0-{last}"
                + (" (this is its end)" if target > last == ply else "")
            )
            continue
        ply = target
        _show(say, rules, game[ply], last)
