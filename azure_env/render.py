"""Azure Attack's text render: status lines above the map diagram.

The lines are built one by one so that the picture (:mod:`azure_env.picture`)
writes the same words in its header."""

from __future__ import annotations

from . import kernels as K
from .diagram import PIECE_LETTERS


def squares_left(state, rules) -> int:
    """Squares the piece to move may still move this turn."""
    p = int(state.player[0])
    carried = int((state.coin_loc[0] == rules.S + K.CARRIED + p).sum())
    return K.allowance(p, carried) - int(state.steps[0])


def headline(state, rules) -> str:
    """Whose turn and how far it may go, or how the game stopped."""
    if state.outcome[0] == K.ONGOING:
        p = int(state.player[0])
        return (
            f"Azure Attack, turn {int(state.turns[0]) + 1}: {rules.agents[p]} "
            f"({PIECE_LETTERS[p]}) to move, {squares_left(state, rules)} square(s) left"
        )
    return "Azure Attack: " + ("game over" if state.outcome[0] == K.TERMINATED else "turn limit reached")


def banked_line(state, rules) -> str:
    banked = rules.banked(state)
    return (
        "banked: "
        + ", ".join(f"{a} {b}" for a, b in zip(rules.agents, banked))
        + f" (hunters {sum(banked[1:])} vs monster {banked[0]})"
    )


def fight_line(state, rules) -> str | None:
    """The last step's fight (both rolls and the result), None if it fought none."""
    info = rules.chance_info(state)
    if info is None:
        return None
    f = info["fight"]
    return (
        f"fight: {f['attacker']} rolled {f['rolls'][0]}, {f['defender']} rolled {f['rolls'][1]}: "
        f"{f['result']}"
    )


def ansi(state, rules) -> str:
    """Status lines above the map diagram (:mod:`azure_env.diagram`)."""
    fight = fight_line(state, rules)
    lines = [headline(state, rules), banked_line(state, rules)] + ([fight] if fight else [])
    return "\n".join(lines + [rules.diagram(state)])
