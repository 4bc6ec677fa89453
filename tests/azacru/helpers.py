"""Small helpers for Azacru scenario tests: set up a position from a diagram,
play moves in notation, and compare boards as diagrams."""

from __future__ import annotations

import textwrap

import azgames
from azacru_env.diagram import to_diagram


def position(
    diagram: str, num_players: int = 2, to_move: str = "A", final_round_turns: int | None = None, **options
):
    """An AEC env (PettingZoo API) at the position drawn in ``diagram``.

    ``to_move`` is the piece letter of the player who acts (``"A"``:
    player_0); ``final_round_turns``, if given, says the final round has
    begun with that many turns left."""
    env = azgames.make("azacru", num_players=num_players, **options)
    env.reset(seed=0)
    rules = env.unwrapped.rules
    env.unwrapped.set_state(
        rules.state_from_diagram(diagram, to_move=to_move, final_round_turns=final_round_turns)
    )
    return env


def play(env, *moves: str) -> None:
    """Play each move, written in notation (``"a3-b4:NE"``, ``"pass"``), in turn."""
    for move in moves:
        env.step(env.unwrapped.str_to_action(move))


def board(env) -> str:
    """The diagram of the env's current position."""
    return to_diagram(env.unwrapped.state)


def legal_moves(env) -> set[str]:
    """The acting player's legal actions, in notation."""
    return {env.unwrapped.action_to_str(a) for a in env.unwrapped.legal_actions()}


def board_rows(diagram: str) -> list[str]:
    """The nine numbered rows of a diagram, each with runs of whitespace made
    single (so diagrams may be indented and aligned freely; tokens must match)."""
    rows = [" ".join(line.split()) for line in textwrap.dedent(diagram).splitlines()]
    return [r for r in rows if r[:1].isdigit()]


def same_board(a: str, b: str) -> bool:
    return board_rows(a) == board_rows(b)


def assert_board(env, expected: str) -> None:
    """The env's board is exactly ``expected`` (tiles, pieces and facings)."""
    actual = board(env)
    assert board_rows(expected) and len(board_rows(expected)) == 9, "expected diagram needs 9 rows"
    assert same_board(actual, expected), (
        f"board differs\n--- expected\n{textwrap.dedent(expected).strip()}\n--- actual\n{actual}"
    )
