"""Azimuth renderers: the ansi text sea and the rgb_array image."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from azgames.render import LINE_RGB, paint, polygon_mask, rotate

from .board import (AT_HOME, COLOUR_LETTERS, COLOUR_NAMES, MARKS, NOT_PLACED, NUM_MARKS, ON_ISLAND,
                    SIZE, beach_name)
from .diagram import format_sea

#: The game's colours: red, black, blondie (beige), blue.
RAFT_RGB = np.array([[200, 40, 40], [30, 30, 30], [225, 200, 150], [40, 90, 200]], np.uint8)
SEA_RGB = np.array([120, 180, 220], np.uint8)
SAND_RGB = np.array([240, 220, 150], np.uint8)
ISLAND_RGB = np.array([70, 150, 70], np.uint8)
GAP = 64  # pixels between points
MARGIN = 48


def _where(code: int) -> str:
    if code == ON_ISLAND:
        return "on the island"
    if code == AT_HOME:
        return "home"
    if code == NOT_PLACED:
        return "waiting for its beach"
    return ""


def ansi(state, rules) -> str:
    """Status lines (who acts, hands, beaches, castaways off the rafts) above the sea diagram."""
    n = rules.num_players
    p = int(state.player[0])
    setup = state.beach[0, p] < 0
    if state.outcome[0] == 0:
        head = (f"Azimuth, turn {int(state.ply[0]) + 1}, {COLOUR_NAMES[p]} (player_{p}) to "
                f"{'place a lighthouse' if setup else 'act'}")
    elif state.outcome[0] == 1:
        home = " and ".join(f"{COLOUR_NAMES[q]} (player_{q})" for q in range(n)
                            if state.castaway[0, q] == AT_HOME)
        head = f"Azimuth, {home} {'is' if ' and ' not in home else 'are'} home after {int(state.ply[0])} turns"
    else:
        head = f"Azimuth, turn limit reached after {int(state.ply[0])} turns: a draw"
    lines = [head]
    for q in range(n):
        b = int(state.beach[0, q])
        parts = [f"{COLOUR_LETTERS[q]} {COLOUR_NAMES[q]:<8}"]
        parts.append(f"beach {beach_name(rules.layout, b) if b >= 0 else '-'}")
        own, other = state.hand[0, q]
        hand = f"winds in hand {own}" + (f"+{other}" if rules.actions.slots == 2 else "")
        parts.append(hand)
        if rules.layout.coconuts:
            parts.append(f"coconuts {int(state.coconuts[0, q])}")
        where = _where(int(state.castaway[0, q]))
        if where:
            parts.append(f"castaway {where}")
        lines.append("  ".join(parts))
    sea = format_sea(state.stack, state.height, state.wind_colour, state.wind_owner, state.wind_dir,
                     state.castaway, rules.layout.island)
    return "\n".join(lines) + "\n" + sea + "\n"


@lru_cache(maxsize=None)
def _sprites(size: int):
    """Wind arrows (one per direction) and the castaway disc, drawn once."""
    arrow = np.array([[0.5, 0.05], [0.9, 0.6], [0.62, 0.6], [0.62, 0.95], [0.38, 0.95],
                      [0.38, 0.6], [0.1, 0.6]]) * size
    winds = tuple(polygon_mask(rotate(arrow, 90 * d, size / 2), size) for d in range(4))
    ys, xs = np.mgrid[0:size, 0:size] + 0.5
    disc = (xs - size / 2) ** 2 + (ys - size / 2) ** 2 <= (size * 0.22) ** 2
    ring = (xs - size / 2) ** 2 + (ys - size / 2) ** 2 <= (size * 0.3) ** 2
    return winds, disc, ring


def _point_xy(p: int) -> tuple[int, int]:
    """Pixel centre (row, column) of point ``p``."""
    return MARGIN + (SIZE - 1 - p // SIZE) * GAP, MARGIN + (p % SIZE) * GAP


def rgb(state, rules) -> np.ndarray:
    """An (H, W, 3) uint8 image of game 0: sea, island, beaches, stacks, winds, castaways."""
    side = 2 * MARGIN + (SIZE - 1) * GAP
    image = np.empty((side, side, 3), np.uint8)
    image[:] = SEA_RGB
    winds, disc, ring = _sprites(GAP // 2)
    layout = rules.layout
    colours = state.castaway.shape[1]
    for q in range(colours):  # beaches: a sand bar beyond the landing spots
        b = int(state.beach[0, q])
        if b < 0:
            continue
        d = int(layout.beach_side[b])
        for spot in layout.beach_spots[b]:
            if spot < 0:
                continue
            r, c = _point_xy(int(spot))
            dr, dc = (-1, 0, 1, 0)[d], (0, 1, 0, -1)[d]
            r0, c0 = r + dr * (GAP // 2 + 4), c + dc * (GAP // 2 + 4)
            image[r0 - 10 : r0 + 10, c0 - 14 : c0 + 14] = SAND_RGB
            image[r0 - 5 : r0 + 5, c0 - 5 : c0 + 5] = RAFT_RGB[q]
    if layout.island >= 0:
        x, y = layout.island % MARKS, layout.island // MARKS
        r, c = _point_xy(y * SIZE + x)
        image[r - GAP + 12 : r - 12, c + 12 : c + GAP - 12] = ISLAND_RGB
    for p in range(SIZE * SIZE):  # grid crosses, then stacks drawn bottom first, offset upwards
        r, c = _point_xy(p)
        image[r - 1 : r + 2, c - 6 : c + 7] = LINE_RGB
        image[r - 6 : r + 7, c - 1 : c + 2] = LINE_RGB
        h = int(state.height[0, p])
        for level in range(h):
            top = r - 8 - 4 * level
            image[top : top + 14, c - 11 : c + 11] = 255
            image[top + 1 : top + 13, c - 10 : c + 10] = RAFT_RGB[int(state.stack[0, p, level])]
    size = GAP // 2
    for m in range(NUM_MARKS):
        colour = int(state.wind_colour[0, m])
        if colour < 0:
            continue
        x, y = m % MARKS, m // MARKS
        r, c = _point_xy(y * SIZE + x)
        top, left = r - GAP // 2 - size // 2, c + GAP // 2 - size // 2
        paint(image, top, left, winds[int(state.wind_dir[0, m])], RAFT_RGB[colour])
    for q in range(colours):
        where = int(state.castaway[0, q])
        if 0 <= where < SIZE * SIZE:
            r, c = _point_xy(where)
            top = r - 8 - 4 * (int(state.height[0, where]) - 1) - size // 2 + 7
            paint(image, top, c - size // 2, ring, (255, 255, 255))
            paint(image, top, c - size // 2, disc, RAFT_RGB[q])
        elif where == ON_ISLAND and layout.island >= 0:
            x, y = layout.island % MARKS, layout.island // MARKS
            r, c = _point_xy(y * SIZE + x)
            top, left = r - GAP // 2 - size // 2, c + GAP // 2 - size // 2 + (q - 1) * 8
            paint(image, top, left, ring, (255, 255, 255))
            paint(image, top, left, disc, RAFT_RGB[q])
    return image
