"""Azimuth's picture: game 0 of a state drawn as an :class:`azgames.core.drawing.Drawing`.

The sea's 36 raft points are tiles (targets named as the notation names
points, ``c4``); the 25 wind marks sit at the tiles' corners (targets
``mark c4``: a mark and a point share names, and a move may name either);
the island is the target ``island`` and a free beach position during the
lighthouse phase its name (``a1-b1``). Every piece carries its colour letter:
a raft is a box in its stack's column (bottom raft lowest, so order and
height read directly), a castaway a ringed disc on its top raft, a wind an
arrow with its owner's badge at its tail. The panel on the right lists each
colour's beach, hand, coconuts and castaway; the header says whose turn it
is and what the last step did. The co-op mode (:mod:`azimuth_env.coop.picture`)
draws on this one through :func:`draw`.
"""

from __future__ import annotations

from collections.abc import Sequence

from azgames.core.drawing import FAINT, INK, Drawing

from .board import (
    AT_HOME,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    DIRECTIONS,
    MARKS,
    NUM_MARKS,
    NUM_POINTS,
    ON_ISLAND,
    SIZE,
    beach_name,
    mark_name,
    point_name,
)
from .kernels import beach_free
from .render import castaway_place

#: Red, black, blondie, blue. Vermillion, blue and yellow are Okabe & Ito's
#: (told apart with the common colour-vision deficiencies); blondie is a
#: saturated yellow with a dark outline, far in lightness and hue from the
#: muted tan of the beaches. Every piece also carries its letter.
COLOURS = ("#d55e00", "#262626", "#f0e442", "#0072b2")
#: Letters and outlines readable on each colour.
COLOUR_INK = ("#ffffff", "#ffffff", INK, "#ffffff")
OUTLINE = (INK, "#b0b0b0", INK, INK)
SEA = "#d6eaf5"
GRID = "#a9cbe0"
MARK = "#b3d4e8"
SAND = "#bca78a"
ISLAND = "#6aa764"

WIDTH, HEIGHT = 920, 640
GAP = 76  # between neighbouring points
SEA_X, SEA_Y = 48, 112  # the sea's top-left corner
PANEL_X = 580
LINE = 14  # panel line height
BEACH_DEPTH = 18  # the sand bar beyond the sea's edge

# Screen steps (x, y down) of the directions N E S W.
_STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))


def point_xy(p: int) -> tuple[float, float]:
    x, y = p % SIZE, p // SIZE
    return SEA_X + GAP / 2 + x * GAP, SEA_Y + GAP / 2 + (SIZE - 1 - y) * GAP


def mark_xy(m: int) -> tuple[float, float]:
    x, y = m % MARKS, m // MARKS
    px, py = point_xy(y * SIZE + x)
    return px + GAP / 2, py - GAP / 2


def mark_target(m: int) -> str:
    """The picture's name of wind mark ``m`` (``mark c4``)."""
    return f"mark {mark_name(m)}"


def colour_label(rules, q: int) -> str:
    """``red (player_0)``: a colour and the agent playing it."""
    return f"{COLOUR_NAMES[q]} ({rules.agents[rules.agent_of_colour(q)]})"


# ------------------------------------------------------------------ pieces
def raft_box(d: Drawing, x, y, w, h, q: int, *, target=None, tip=None) -> None:
    """A raft of colour ``q``: a box ``w`` x ``h`` at (x, y) with its letter."""
    d.rect(x, y, w, h, fill=COLOURS[q], stroke=OUTLINE[q], width=1, target=target, tip=tip)
    size = min(11.0, h * 0.85)
    if size >= 5:
        d.text(
            x + w / 2,
            y + h / 2 + size * 0.36,
            COLOUR_LETTERS[q],
            size=size,
            fill=COLOUR_INK[q],
            bold=True,
            tip=tip,
        )


def castaway_disc(d: Drawing, x, y, q: int, *, target=None, tip=None) -> None:
    """Castaway ``q``: a disc with a dark ring (so blondie and black stand out on any raft)."""
    d.circle(x, y, 8, fill=INK, stroke="#ffffff", width=1, target=target, tip=tip)
    d.circle(x, y, 6, fill=COLOURS[q], target=target, tip=tip)
    d.text(x, y + 3.5, COLOUR_LETTERS[q], size=9, fill=COLOUR_INK[q], bold=True, tip=tip)


def wind_arrow(d: Drawing, x, y, colour: int, owner: int, direction: int, *, target=None, tip=None) -> None:
    """A wind: an arrow of its colour pointing where it blows, its letter in
    the middle, its owner's badge (colour, lower-case letter) at its tail."""
    shape = ((0, -18), (13, -4), (7, -4), (7, 12), (-7, 12), (-7, -4), (-13, -4))
    dx, dy = _STEP[direction]

    def turned(u, v):  # (u, v) in the north-pointing frame, turned to face (dx, dy)
        return x - v * dx - u * dy, y - v * dy + u * dx

    d.polygon(
        [turned(u, v) for u, v in shape],
        fill=COLOURS[colour],
        stroke=OUTLINE[colour],
        width=1.2,
        target=target,
        tip=tip,
    )
    d.text(x, y + 4, COLOUR_LETTERS[colour], size=10, fill=COLOUR_INK[colour], bold=True, tip=tip)
    bx, by = turned(0, 18)
    d.circle(bx, by, 6, fill=COLOURS[owner], stroke=OUTLINE[owner], width=1, target=target, tip=tip)
    d.text(bx, by + 3, COLOUR_LETTERS[owner].lower(), size=8, fill=COLOUR_INK[owner], bold=True, tip=tip)


def beach_marker(d: Drawing, x, y, q: int | None, *, target=None, tip=None) -> None:
    """A lighthouse: a beach position, in its owner's colour once placed, open while free."""
    if q is None:
        d.rect(x - 7, y - 7, 14, 14, fill="#ffffff", stroke=INK, width=1.2, target=target, tip=tip, round=2)
        d.line(x - 3, y, x + 3, y, stroke=INK, width=1.2)
        d.line(x, y - 3, x, y + 3, stroke=INK, width=1.2)
    else:
        d.rect(
            x - 8,
            y - 8,
            16,
            16,
            fill=COLOURS[q],
            stroke=OUTLINE[q],
            width=1.2,
            target=target,
            tip=tip,
            round=2,
        )
        d.text(x, y + 4, COLOUR_LETTERS[q], size=10, fill=COLOUR_INK[q], bold=True, tip=tip)


# ------------------------------------------------------------------- board
def _beach_box(layout, b: int) -> tuple[float, float, float, float, float, float]:
    """The sand bar of beach position ``b``: (x, y, w, h) and its centre."""
    spots = [int(p) for p in layout.beach_spots[b] if p >= 0]
    dx, dy = _STEP[int(layout.beach_side[b])]
    xs = [point_xy(p)[0] for p in spots]
    ys = [point_xy(p)[1] for p in spots]
    reach = GAP / 2 + 3 + BEACH_DEPTH / 2  # from a spot to the bar's middle line
    cx, cy = (min(xs) + max(xs)) / 2 + dx * reach, (min(ys) + max(ys)) / 2 + dy * reach
    w: float
    h: float
    if dx:  # a bar on the west or east edge runs north-south
        w, h = BEACH_DEPTH, max(ys) - min(ys) + GAP - 12
    else:
        w, h = max(xs) - min(xs) + GAP - 12, BEACH_DEPTH
    return cx - w / 2, cy - h / 2, w, h, cx, cy


def _sea(d: Drawing, state, rules) -> None:
    """Tiles (the points), mark crossings and coordinates."""
    layout = rules.layout
    shallows = {int(p) for p in layout.shallows if p >= 0}
    for p in range(NUM_POINTS):
        x, y = point_xy(p)
        h = int(state.height[0, p])
        what = "empty" if h == 0 else stack_words(state, p)
        where = " (the island's shallows)" if p in shallows else ""
        d.rect(
            x - GAP / 2,
            y - GAP / 2,
            GAP,
            GAP,
            fill=SEA,
            stroke=GRID,
            width=1,
            target=point_name(p),
            tip=f"point {point_name(p)}{where}: {what}",
        )
        if h == 0:
            d.circle(x, y, 2.5, fill=FAINT)
    for m in range(NUM_MARKS):
        if m == layout.island or state.wind_colour[0, m] >= 0:
            continue
        x, y = mark_xy(m)
        d.polygon(
            ((x, y - 8), (x + 8, y), (x, y + 8), (x - 8, y)),
            fill=MARK,
            target=mark_target(m),
            tip=f"wind mark {mark_name(m)}: empty",
        )
        d.text(x, y + 18, mark_name(m), size=8, fill=FAINT)
    right, bottom = SEA_X + SIZE * GAP, SEA_Y + SIZE * GAP
    for k in range(SIZE):
        x, _ = point_xy(k)
        _, y = point_xy(k * SIZE)
        for tx, ty, label in (
            (x, SEA_Y - 28, "abcdef"[k]),
            (x, bottom + 38, "abcdef"[k]),
            (SEA_X - 32, y + 5, str(k + 1)),
            (right + 32, y + 5, str(k + 1)),
        ):
            d.text(tx, ty, label, size=13, fill=FAINT, bold=True)


def stack_words(state, p: int) -> str:
    h = int(state.height[0, p])
    colours = ", ".join(COLOUR_NAMES[int(c)] for c in state.stack[0, p, :h])
    rider = [q for q in range(state.castaway.shape[1]) if state.castaway[0, q] == p]
    words = f"{h} raft{'s' if h > 1 else ''}, bottom to top: {colours}"
    return words + (f"; {COLOUR_NAMES[rider[0]]}'s castaway on top" if rider else "")


def _island(d: Drawing, state, rules) -> None:
    layout = rules.layout
    if layout.island < 0:
        return
    x, y = mark_xy(layout.island)
    on = [q for q in range(state.castaway.shape[1]) if state.castaway[0, q] == ON_ISLAND]
    tip = (
        "the island; castaways on it: "
        + (", ".join(COLOUR_NAMES[q] for q in on) or "none")
        + "; shallows "
        + ", ".join(point_name(int(p)) for p in layout.shallows)
    )
    d.rect(x - 24, y - 24, 48, 48, fill=ISLAND, stroke=INK, width=1.2, target="island", tip=tip, round=10)
    d.text(x, y - 12, "island", size=8, fill="#ffffff", bold=True, tip=tip)
    for k, q in enumerate(on):  # up to 4, in a 2 x 2 block
        castaway_disc(
            d,
            x - 9 + 18 * (k % 2),
            y + 1 + 14 * (k // 2),
            q,
            target="island",
            tip=f"{COLOUR_NAMES[q]}'s castaway on the island",
        )


def _beaches(d: Drawing, state, rules) -> None:
    layout = rules.layout
    colours = state.castaway.shape[1]
    for q in range(colours):
        b = int(state.beach[0, q])
        if b < 0:
            continue
        x, y, w, h, cx, cy = _beach_box(layout, b)
        tip = f"{colour_label(rules, q)}'s beach {beach_name(layout, b)}"
        d.rect(x, y, w, h, fill=SAND, stroke=COLOURS[q], width=3, tip=tip)
        if w > h:  # room for the colour's name beside the lighthouse
            beach_marker(d, cx - 24, cy, q, tip=tip)
            d.text(cx - 12, cy + 4, COLOUR_NAMES[q], size=10, fill=INK, anchor="start", tip=tip)
        else:
            beach_marker(d, cx, cy, q, tip=tip)
    p = rules.colour_to_act(state)
    if state.outcome[0] == 0 and state.beach[0, p] < 0:  # the lighthouse phase: free positions
        for b in range(len(layout.beach_side)):
            if beach_free(state.beach, 0, p, b, rules.cfg):
                *_, cx, cy = _beach_box(layout, b)
                name = beach_name(layout, b)
                beach_marker(
                    d,
                    cx,
                    cy,
                    None,
                    target=name,
                    tip=f"free beach position {name}: {COLOUR_NAMES[p]} may place its lighthouse",
                )


def _stacks(d: Drawing, state, rules) -> None:
    colours = state.castaway.shape[1]
    for p in range(NUM_POINTS):
        h = int(state.height[0, p])
        if h == 0:
            continue
        x, y = point_xy(p)
        box = min(14.0, 56.0 / h)  # a tall stack shrinks its boxes, never its column
        top = y - h * box / 2 + 6
        name = point_name(p)
        for level in range(h):
            q = int(state.stack[0, p, level])
            place = "bottom" if level == 0 else "top" if level == h - 1 else f"level {level + 1}"
            raft_box(
                d,
                x - 13,
                top + (h - 1 - level) * box,
                26,
                box,
                q,
                target=name,
                tip=f"{name}: {COLOUR_NAMES[q]} raft, {place} ({level + 1} of {h})",
            )
        if h > 1:
            d.text(
                x + 16,
                top + 9,
                str(h),
                size=11,
                fill=INK,
                anchor="start",
                bold=True,
                tip=f"{name}: {h} rafts",
            )
        for q in range(colours):
            if state.castaway[0, q] == p:
                castaway_disc(d, x, top - 9, q, target=name, tip=f"{COLOUR_NAMES[q]}'s castaway on {name}")


def _winds(d: Drawing, state, rules) -> None:
    for m in range(NUM_MARKS):
        c = int(state.wind_colour[0, m])
        if c < 0:
            continue
        owner, way = int(state.wind_owner[0, m]), int(state.wind_dir[0, m])
        tip = (
            f"wind on mark {mark_name(m)}: {COLOUR_NAMES[c]}, placed by {colour_label(rules, owner)}, "
            f"blowing {('north', 'east', 'south', 'west')[way]} ({DIRECTIONS[way]})"
        )
        wind_arrow(d, *mark_xy(m), c, owner, way, target=mark_target(m), tip=tip)


# ------------------------------------------------------------------- texts
def played_by(rules, agent: str) -> str:
    """``red (player_0)``, or with the co-op ``red and blondie (player_0)``."""
    k = rules.agents.index(agent)
    colours = [COLOUR_NAMES[q] for q in range(rules.num_colours) if rules.agent_of_colour(q) == k]
    return f"{' and '.join(colours)} ({agent})"


def landing_words(state, rules) -> str:
    """What the last step of a finished base game caused: the landing that ended it."""
    landed = [COLOUR_NAMES[q] for q in range(rules.num_colours) if state.castaway[0, q] == AT_HOME]
    if state.outcome[0] != 1 or not landed:
        return ""
    return f"it landed {' and '.join(landed)} on {'their beaches' if len(landed) > 1 else 'its beach'}"


def last_words(rules, last, caused: str) -> str:
    """Who played the last step, its notation and what it ``caused``."""
    if last is None:
        return "Last step: none yet"
    return f"Last step: {played_by(rules, last.agent)} played {last.move}" + (f"; {caused}" if caused else "")


def colour_lines(state, rules, q: int) -> list[str]:
    """The panel's lines about colour ``q`` after its name."""
    b = int(state.beach[0, q])
    beach = f"beach {beach_name(rules.layout, b) if b >= 0 else '- (not placed)'}"
    if rules.layout.coconuts:
        beach += f"   coconuts {int(state.coconuts[0, q])}"
    own, other = (int(v) for v in state.hand[0, q])
    hand = f"winds in hand: {own} {COLOUR_NAMES[q]}"
    if rules.actions.slots == 2:
        hand += f", {other} {COLOUR_NAMES[1 - q]}"
    where = int(state.castaway[0, q])
    return [beach, hand, f"castaway {castaway_place(where) or 'on ' + point_name(where)}"]


def _panel(d: Drawing, state, rules, y: float, lines_of) -> float:
    """Each colour's block (``lines_of(state, rules, q)`` under its name);
    returns where the next block starts."""
    actor = rules.colour_to_act(state) if state.outcome[0] == 0 else -1
    for q in range(rules.num_colours):
        lines = lines_of(state, rules, q)
        height = LINE * (len(lines) + 1) + 4
        if q == actor:
            d.rect(
                PANEL_X - 6,
                y - 3,
                WIDTH - PANEL_X - 4,
                height,
                stroke=INK,
                width=2,
                round=4,
                tip=f"{colour_label(rules, q)} acts",
            )
        label = colour_label(rules, q)
        raft_box(d, PANEL_X, y, 16, 14, q, tip=label)
        d.text(
            PANEL_X + 22,
            y + 11,
            label + ("   <- to act" if q == actor else ""),
            size=11,
            bold=True,
            anchor="start",
        )
        for k, text in enumerate(lines):
            d.text(
                PANEL_X + 22, y + 11 + LINE * (k + 1), text, size=11, anchor="start", tip=f"{label}: {text}"
            )
        y += height + 6
    return y


LEGEND_ROWS = (
    ("raft", "raft: colour letter; a stack bottom to top"),
    ("castaway", "castaway, on its stack's top raft"),
    ("wind", "wind: colour, owner's badge, blowing way"),
    ("mark", "empty wind mark (mark c4: NE of point c4)"),
    ("island", "the island, castaways on it"),
    ("beach", "beach, outlined in its colour"),
    ("free", "free beach position (lighthouse phase)"),
)


def _legend(d: Drawing, y: float, rows) -> None:
    d.text(PANEL_X, y + 11, "Legend (R red, K black, Y blondie, B blue)", size=11, bold=True, anchor="start")
    y += LINE + 8
    for kind, words in rows:
        cx, cy = PANEL_X + 14, y + 6
        if kind == "raft":
            raft_box(d, cx - 22, cy - 6, 14, 12, 0)
            raft_box(d, cx - 6, cy - 12, 14, 12, 2)
            raft_box(d, cx - 6, cy, 14, 12, 1)
        elif kind == "castaway":
            castaway_disc(d, cx, cy, 3)
        elif kind == "wind":
            wind_arrow(d, cx - 4, cy, 0, 1, 1)
        elif kind == "mark":
            d.polygon(((cx, cy - 7), (cx + 7, cy), (cx, cy + 7), (cx - 7, cy)), fill=MARK)
        elif kind == "island":
            d.rect(cx - 10, cy - 8, 20, 16, fill=ISLAND, stroke=INK, width=1, round=4)
        elif kind == "beach":
            d.rect(cx - 14, cy - 6, 28, 12, fill=SAND, stroke=COLOURS[3], width=3)
        elif kind == "free":
            beach_marker(d, cx, cy, None)
        elif kind == "wave":
            d.rect(cx - 11, cy - 11, 22, 22, stroke=INK, width=2)
        # 11 as the panel's other words: at 10 they were under 12 px high in the browser at 1280 px.
        d.text(PANEL_X + 40, cy + 4, words, size=11, anchor="start")
        y += LINE + 6


# ------------------------------------------------------------------- whole
def draw(
    state,
    rules,
    last=None,
    *,
    caused: str = "",
    status: Sequence[str] = (),
    lines_of=colour_lines,
    legend_rows=LEGEND_ROWS,
) -> Drawing:
    """The picture, ``last`` named with what it ``caused``, a mode's
    ``status`` lines above the colours' blocks (``lines_of`` their lines);
    the mode may draw more on it (:func:`point_xy` says where)."""
    d = Drawing(WIDTH, HEIGHT, title=rules.info.long_name)
    d.text(12, 24, rules.headline(state), size=15, bold=True, anchor="start")
    d.text(12, 46, last_words(rules, last, caused), size=12, anchor="start")
    if state.outcome[0] != 0:
        scores = rules.final_info(state)[0]["scores"]
        d.text(
            12,
            66,
            "Scores: " + ", ".join(f"{a} {s}" for a, s in scores.items()),
            size=12,
            bold=True,
            anchor="start",
        )
    _sea(d, state, rules)
    d.rect(SEA_X, SEA_Y, SIZE * GAP, SIZE * GAP, stroke=INK, width=1.5)
    _beaches(d, state, rules)
    _island(d, state, rules)
    _stacks(d, state, rules)
    _winds(d, state, rules)
    y: float = SEA_Y - 28
    for line in status:
        d.text(PANEL_X, y + 11, line, size=11, bold=True, anchor="start")
        y += LINE
    y = _panel(d, state, rules, y + (6 if status else 0), lines_of)
    _legend(d, max(y + 4, HEIGHT - (len(legend_rows) + 1) * (LINE + 6) - 14), legend_rows)
    return d


def picture(state, rules, last=None) -> Drawing:
    """Game 0 of ``state`` drawn (see the module docstring); ``last`` is the
    :class:`azgames.core.game.LastStep` that led to it, if any."""
    return draw(state, rules, last, caused=landing_words(state, rules))
