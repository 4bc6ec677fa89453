"""The co-op mode's picture: the base game's (:mod:`azimuth_env.picture`)
with the round, the die, who rolls next, sleeping castaways, the sea turtle
and the wave candidates the team is ordering."""

from __future__ import annotations

from azgames.core.drawing import INK, Drawing

from ..board import AT_HOME, COLOUR_NAMES, DIRECTIONS, NUM_POINTS, point_name
from ..picture import LEGEND_ROWS, colour_lines, draw, point_xy
from .faces import FACE_NAMES


def status_lines(state, rules) -> list[str]:
    """The co-op facts above the colours' blocks (the text render's, one per line)."""
    rnd = int(state.round[0])
    home = int((state.castaway[0] == AT_HOME).sum())
    if state.outcome[0] != 0:  # the round and turn counters have run past the last turn
        lines = [f"game over in round {min(rnd, rules.rounds)}/{rules.rounds}"]
    elif not rnd:
        lines = [f"lighthouses being placed ({rules.rounds} rounds to play)"]
    elif state.wave[0] >= 0:
        lines = [f"round {rnd}/{rules.rounds}, its die rolled"]
    else:
        lines = [f"round {rnd}/{rules.rounds}, turn {int(state.turn[0]) + 1}/4"]
    lines.append(f"castaways home {home}/4")
    face = int(state.face[0])
    lines.append(f"last die: {FACE_NAMES[face] if face >= 0 else '- (not rolled yet)'}")
    if state.outcome[0] == 0 and rnd and state.wave[0] < 0:
        roller = (int(state.first[0]) + rnd - 1) % 4
        lines.append(f"{COLOUR_NAMES[roller]} rolls the die at the round's end")
    if state.turtle[0] >= 0:
        lines.append(f"sea turtle in {COLOUR_NAMES[int(state.turtle[0])]}'s portion")
    if state.wave[0] >= 0:
        lines.append(f"waves blowing {DIRECTIONS[int(state.wave[0])]}: the team orders them")
    return lines


def coop_colour_lines(state, rules, q: int) -> list[str]:
    lines = colour_lines(state, rules, q)
    if state.asleep[0, q]:
        lines[-1] += ", asleep (mermaid)"
    return lines


def rolled_words(state, rules) -> str:
    """What the last step caused: the Ocean Die's roll at a round's end."""
    info = rules.chance_info(state)
    if info is None:
        return ""
    return f"then {info['die']['roller']} rolled the Ocean Die: {info['die']['face']}"


def picture(state, rules, last=None) -> Drawing:
    """Game 0 of a co-op state drawn; ``last`` is the step that led to it."""
    d = draw(
        state,
        rules,
        last,
        caused=rolled_words(state, rules),
        status=status_lines(state, rules),
        lines_of=coop_colour_lines,
        legend_rows=LEGEND_ROWS + (("wave", "wave candidate the team orders"),),
    )
    for p in range(NUM_POINTS):
        if state.pending[0, p]:
            x, y = point_xy(p)
            d.rect(
                x - 33,
                y - 33,
                66,
                66,
                stroke=INK,
                width=2.5,
                target=point_name(p),
                tip=f"wave candidate on {point_name(p)}: its stack moves "
                f"{DIRECTIONS[int(state.wave[0])]} when chosen",
            )
    return d
