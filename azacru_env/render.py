"""Azacru's ansi text board (the picture is :mod:`azacru_env.picture`)."""

from __future__ import annotations

from azgames.core.words import count

from .diagram import PLAYER_LETTERS, to_diagram


def header(state) -> str:
    """Who acts (or how the game ended) in game 0, one line."""
    if state.outcome[0] == 0:
        final = " (final round)" if state.turns_left[0] >= 0 else ""
        return f"Azacru, turn {int(state.ply[0]) + 1}, player_{int(state.player[0])} to move{final}"
    status = ("playing", "game over", "turn limit reached")[int(state.outcome[0])]
    return f"Azacru, {status} after {count(int(state.ply[0]), 'turn')}"


def ansi(state, rules) -> str:
    """Header (who acts, turn, scores, piece letters) above the board diagram of game 0."""
    scores = ", ".join(f"{a} {s}" for a, s in zip(rules.agents, rules.scores(state)))
    letters = ", ".join(f"{PLAYER_LETTERS[p]} = {a}" for p, a in enumerate(rules.agents))
    return f"{header(state)}\ntiles: {scores}\npieces: {letters}\n{to_diagram(state)}\n"
