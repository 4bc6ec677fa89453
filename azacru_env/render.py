"""Azacru renderers: the ansi text board and the rgb_array image."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from azgames.render import LINE_RGB, NEUTRAL_RGB, PIECE_RGB, PLAYER_RGB, paint, polygon_mask, rotate

from .diagram import to_diagram

CELL = 40
MARGIN = 6


def ansi(state, rules) -> str:
    """Header (who acts, turn, scores) above the board diagram of game 0."""
    scores = ", ".join(f"{a} {s}" for a, s in zip(rules.agents, rules.scores(state)))
    status = ("playing", "game over", "turn limit reached")[int(state.outcome[0])]
    final = " (final round)" if state.turns_left[0] >= 0 and state.outcome[0] == 0 else ""
    head = (f"Azacru, turn {int(state.ply[0]) + 1}, player_{int(state.player[0])} to move{final}"
            if state.outcome[0] == 0 else f"Azacru, {status} after {int(state.ply[0])} turns")
    return f"{head}\ntiles: {scores}\n{to_diagram(state)}\n"


@lru_cache(maxsize=None)
def _chevrons(size: int) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """(body, outline) masks of a chevron for each facing, drawn once."""
    s = size
    arrow = np.array([[0.5, 0.12], [0.86, 0.82], [0.5, 0.62], [0.14, 0.82]]) * s
    border = np.array([[0.5, 0.02], [0.96, 0.9], [0.5, 0.7], [0.04, 0.9]]) * s
    return tuple(
        (polygon_mask(rotate(arrow, 45 * d, s / 2), s), polygon_mask(rotate(border, 45 * d, s / 2), s))
        for d in range(8)
    )


def rgb(state, rules) -> np.ndarray:
    """An (H, W, 3) uint8 image of game 0: tiles, borders and chevrons."""
    side = 9 * CELL + 2 * MARGIN
    image = np.full((side, side, 3), 250, np.uint8)
    chevrons = _chevrons(CELL)
    for f in range(81):
        x, y = f % 9, f // 9
        top, left = MARGIN + (8 - y) * CELL, MARGIN + x * CELL
        t = int(state.tiles[0, f])
        image[top : top + CELL, left : left + CELL] = PLAYER_RGB[t] if t >= 0 else NEUTRAL_RGB[(x + y) % 2]
        image[top, left : left + CELL] = image[top : top + CELL, left] = LINE_RGB // 2 + 100
        o = int(state.occupant[0, f])
        if o >= 0:
            body, outline = chevrons[int(state.piece_facing[0, o // 4, o % 4])]
            paint(image, top, left, outline, (255, 255, 255))
            paint(image, top, left, body, PIECE_RGB[o // 4])
    for b in range(4):  # borders between borderlands, thick
        at = MARGIN + 3 * b * CELL
        image[max(at - 2, 0) : at + 2, MARGIN : side - MARGIN] = LINE_RGB
        image[MARGIN : side - MARGIN, max(at - 2, 0) : at + 2] = LINE_RGB
    return image
