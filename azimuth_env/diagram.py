"""Text diagrams of an Azimuth sea: the ansi render and test set-ups share them.

Point rows (numbered 6 down to 1) alternate with wind-mark rows between them::

         a     b     c     d     e     f
    6    .     .     .     .     .     .
            .     .     .     .     .
    5    .     .     .     .     .     .
            .     .     #     .     .
    4    .     .     .     .     .     .
            .     .     R>    .     .
    3    .     .     KR@   .     .     .
            .     .     .     .     .
    2    .     .     .     .     .     .
            .     .     .     .     .
    1    .     .     .     .     .     .

The symbols are :data:`LEGEND`'s. Tokens are separated by spaces; the row
labels and the column header are optional when parsing (a line with 6 tokens
is a point row, one with 5 a mark row).
"""

from __future__ import annotations

import numpy as np

from .board import COLOUR_LETTERS, MARKS, NUM_POINTS, SIZE

ARROWS = "^>v<"

#: What the text render's symbols mean (``Rules.legend``, ``--legend``).
LEGEND = """\
Azimuth's text render: status lines (who acts; each colour's beach, winds in hand (own+other
colour with 2 players), coconuts, where its castaway is when off the rafts), then the sea, north
up: point rows 6 to 1 (columns a-f) alternate with the wind-mark rows between them.
- A point is "." or its stack, bottom raft first, in colour letters (R red, K black, Y blondie,
  B blue); "@" after it: the castaway of the top raft's colour stands there. "KR@" is a black
  raft under a red one carrying the red castaway.
- A mark is ".", "#" for the island, or a wind: its colour letter and an arrow ^ > v < (blowing
  north, east, south, west), then, when its owner is not the player of its colour (2 players),
  the owner's letter in lower case: "R>" is red's red wind blowing east, "R^k" a red wind placed
  by black. Mark c4 lies between the points c4, d4, c5 and d5."""


def format_sea(stack, height, wind_colour, wind_owner, wind_dir, castaway, island: int, i: int = 0) -> str:
    """The diagram of game ``i``'s sea."""
    standing = {int(c): q for q, c in enumerate(castaway[i]) if 0 <= c < NUM_POINTS}
    width = max(5, int(height[i].max()) + 2)
    lines = ["     " + "".join(f"{c:<{width + 1}}" for c in "abcdef").rstrip()]
    for y in range(SIZE - 1, -1, -1):
        cells = []
        for x in range(SIZE):
            p = y * SIZE + x
            h = int(height[i, p])
            token = "".join(COLOUR_LETTERS[c] for c in stack[i, p, :h]) or "."
            if p in standing:
                token += "@"
            cells.append(f"{token:<{width + 1}}")
        lines.append(f"{y + 1}    " + "".join(cells).rstrip())
        if y == 0:
            break
        marks = []
        for x in range(MARKS):
            m = (y - 1) * MARKS + x
            c = int(wind_colour[i, m])
            if m == island:
                token = "#"
            elif c < 0:
                token = "."
            else:
                token = COLOUR_LETTERS[c] + ARROWS[wind_dir[i, m]]
                if wind_owner[i, m] != c:
                    token += COLOUR_LETTERS[wind_owner[i, m]].lower()
            marks.append(f"{token:<{width + 1}}")
        lines.append(" " * (5 + (width + 1) // 2) + "".join(marks).rstrip())
    return "\n".join(lines)


def to_diagram(state, island: int, i: int = 0) -> str:
    """The diagram of game ``i`` of an :class:`~azimuth_env.rules.AzimuthState`
    (``island``: the layout's island mark, -1 without one)."""
    return format_sea(
        state.stack,
        state.height,
        state.wind_colour,
        state.wind_owner,
        state.wind_dir,
        state.castaway,
        island,
        i,
    )


def parse_sea(text: str, num_players: int, depth: int):
    """Parse a diagram into ``(stacks, standing, winds, island)``: ``stacks`` maps
    point -> colours bottom first, ``standing`` player -> point, ``winds`` mark
    -> (colour, owner, direction), ``island`` the ``#`` mark or -1."""
    rows = []
    for raw in text.strip("\n").splitlines():
        tokens = raw.split()
        if tokens and tokens[0] in "123456" and len(tokens) == SIZE + 1:
            tokens = tokens[1:]
        if not tokens or tokens == list("abcdef"):
            continue
        if len(tokens) not in (SIZE, MARKS):
            raise ValueError(f"diagram line {raw!r} has {len(tokens)} cells; expected 6 points or 5 marks")
        rows.append(tokens)
    kinds = [len(r) for r in rows]
    if kinds != [SIZE, MARKS] * (SIZE - 1) + [SIZE]:
        raise ValueError("a diagram alternates 6 point rows with the 5 mark rows between them")
    letters = COLOUR_LETTERS[:num_players]
    stacks: dict[int, list[int]] = {}
    standing: dict[int, int] = {}
    winds: dict[int, tuple[int, int, int]] = {}
    island = -1
    for r, tokens in enumerate(rows):
        if r % 2 == 0:
            y = SIZE - 1 - r // 2
            for x, token in enumerate(tokens):
                p = y * SIZE + x
                if token == ".":
                    continue
                rider = token.endswith("@")
                body = token.rstrip("@")
                if not body or any(ch not in letters for ch in body):
                    raise ValueError(f"point {token!r}: stacks are colour letters from {letters!r}")
                if len(body) > depth:
                    raise ValueError(f"point {token!r} holds more rafts than the game has")
                stacks[p] = [letters.index(ch) for ch in body]
                if rider:
                    q = stacks[p][-1]
                    if q in standing:
                        raise ValueError(f"castaway {letters[q]} stands in two places")
                    standing[q] = p
        else:
            y = SIZE - 1 - (r + 1) // 2
            for x, token in enumerate(tokens):
                m = y * MARKS + x
                if token == ".":
                    continue
                if token == "#":
                    island = m
                    continue
                if len(token) not in (2, 3) or token[0] not in letters or token[1] not in ARROWS:
                    raise ValueError(f"mark {token!r}: a wind is a colour letter and one of {ARROWS!r}")
                owner = letters.index(token[0])
                if len(token) == 3:
                    if token[2].upper() not in letters:
                        raise ValueError(f"mark {token!r}: unknown owner {token[2]!r}")
                    owner = letters.index(token[2].upper())
                winds[m] = (letters.index(token[0]), owner, ARROWS.index(token[1]))
    return stacks, standing, winds, island


def sea_arrays(stacks, depth: int) -> tuple[np.ndarray, np.ndarray]:
    """``(stack, height)`` rows for one game from a point -> colours mapping."""
    stack = np.full((NUM_POINTS, depth), -1, np.int8)
    height = np.zeros(NUM_POINTS, np.int8)
    for p, colours in stacks.items():
        stack[p, : len(colours)] = colours
        height[p] = len(colours)
    return stack, height
