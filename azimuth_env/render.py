"""Azimuth's text render: status lines above the sea diagram (the picture,
for ``rgb_array`` and the browser, is :mod:`azimuth_env.picture`)."""

from __future__ import annotations

from azgames.core.words import count

from .board import AT_HOME, COLOUR_LETTERS, COLOUR_NAMES, NOT_PLACED, ON_ISLAND, beach_name
from .diagram import format_sea


def castaway_place(code: int) -> str:
    """Where a castaway off the rafts is ("" when it stands on a point)."""
    if code == ON_ISLAND:
        return "on the island"
    if code == AT_HOME:
        return "home"
    if code == NOT_PLACED:
        return "waiting for its beach"
    return ""


def headline(state, rules) -> str:
    """The first status line: the turn and who acts doing what, or the result."""
    n = rules.num_players
    p = int(state.player[0])
    setup = state.beach[0, p] < 0
    if state.outcome[0] == 0:
        return (
            f"Azimuth, turn {int(state.ply[0]) + 1}, {COLOUR_NAMES[p]} (player_{p}) to "
            f"{'place a lighthouse' if setup else 'act'}"
        )
    if state.outcome[0] == 1:
        home = " and ".join(
            f"{COLOUR_NAMES[q]} (player_{q})" for q in range(n) if state.castaway[0, q] == AT_HOME
        )
        return f"Azimuth, {home} {'is' if ' and ' not in home else 'are'} home after {count(int(state.ply[0]), 'turn')}"
    return f"Azimuth, turn limit reached after {count(int(state.ply[0]), 'turn')}: a draw"


def ansi(state, rules) -> str:
    """Status lines (who acts, hands, beaches, castaways off the rafts) above the sea diagram."""
    n = rules.num_players
    lines = [headline(state, rules)]
    for q in range(n):
        b = int(state.beach[0, q])
        parts = [f"{COLOUR_LETTERS[q]} {COLOUR_NAMES[q]:<8}"]
        parts.append(f"beach {beach_name(rules.layout, b) if b >= 0 else '-'}")
        own, other = state.hand[0, q]
        hand = f"winds in hand {own}" + (f"+{other}" if rules.actions.slots == 2 else "")
        parts.append(hand)
        if rules.layout.coconuts:
            parts.append(f"coconuts {int(state.coconuts[0, q])}")
        where = castaway_place(int(state.castaway[0, q]))
        if where:
            parts.append(f"castaway {where}")
        lines.append("  ".join(parts))
    sea = format_sea(
        state.stack,
        state.height,
        state.wind_colour,
        state.wind_owner,
        state.wind_dir,
        state.castaway,
        rules.layout.island,
    )
    return "\n".join(lines) + "\n" + sea + "\n"
