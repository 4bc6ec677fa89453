"""The co-op mode's text render: the round, the die and each colour's state
above the base game's sea diagram (the picture is :mod:`azimuth_env.coop.picture`)."""

from __future__ import annotations

from ..board import AT_HOME, COLOUR_LETTERS, COLOUR_NAMES, DIRECTIONS, ON_ISLAND, beach_name, point_name
from ..diagram import format_sea
from .faces import FACE_NAMES

#: What the co-op status lines add to the base game's legend.
STATUS_LEGEND = """\
Co-op status lines: the round (of the rounds option) and the colour turns played in it, who acts
and who rolls the Ocean Die at the round's end; castaways home; the last face rolled: sunny
(nothing), mermaid (castaways in the roller's ocean portion sleep a round: "asleep"), wave away /
wave towards (the roller's bottom rafts drift one leg from / towards its beach; while their order
matters the team orders them: "wave c3"), gust (the roller's and the opposite colour's winds, each
in its own portion, turn around), turtle (a sea turtle in the roller's portion: one two-leg swim,
"turtle N")."""


def headline(state, rules) -> str:
    """The first status line: the round, who acts and who rolls next, or the result."""
    p = int(state.colour[0])
    agent = rules.agents[int(rules.controller[p])]
    rnd = int(state.round[0])
    home = int((state.castaway[0] == AT_HOME).sum())
    if state.outcome[0] == 1:
        verdict = (
            "all four castaways are home: the team wins"
            if home == 4
            else (f"the ocean wins: {home} of 4 castaways home after {rules.rounds} rounds")
        )
        return f"Azimuth co-op, {verdict} ({int(state.ply[0])} actions)"
    if state.wave[0] >= 0:
        return (
            f"Azimuth co-op, round {rnd}/{rules.rounds}: waves {DIRECTIONS[int(state.wave[0])]}, "
            f"{COLOUR_NAMES[p]} ({agent}) orders them"
        )
    if rnd == 0:
        return f"Azimuth co-op, {COLOUR_NAMES[p]} ({agent}) to place a lighthouse"
    roller = (int(state.first[0]) + rnd - 1) % 4
    return (
        f"Azimuth co-op, round {rnd}/{rules.rounds}, turn {int(state.turn[0]) + 1}/4: "
        f"{COLOUR_NAMES[p]} ({agent}) to act; {COLOUR_NAMES[roller]} rolls next"
    )


def die_line(state) -> str:
    """The second status line: castaways home, the last face, an unused sea turtle."""
    home = int((state.castaway[0] == AT_HOME).sum())
    face = int(state.face[0])
    return f"castaways home {home}/4, last die: {FACE_NAMES[face] if face >= 0 else '-'}" + (
        f", sea turtle in {COLOUR_NAMES[int(state.turtle[0])]}'s portion" if state.turtle[0] >= 0 else ""
    )


def ansi(state, rules) -> str:
    """Status lines (round, die, who acts, each colour) above the sea diagram."""
    lines = [headline(state, rules), die_line(state)]
    for q in range(4):
        b = int(state.beach[0, q])
        where = int(state.castaway[0, q])
        parts = [
            f"{COLOUR_LETTERS[q]} {COLOUR_NAMES[q]:<8}",
            f"{rules.agents[int(rules.controller[q])]:<9}",
            f"beach {beach_name(rules.layout, b) if b >= 0 else '-':<6}",
            f"winds in hand {int(state.hand[0, q, 0])}",
            "castaway "
            + ("home" if where == AT_HOME else "on the island" if where == ON_ISLAND else point_name(where)),
        ]
        if state.asleep[0, q]:
            parts.append("asleep")
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
