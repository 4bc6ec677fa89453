"""Azure Attack renderers: the ansi text map and the rgb_array image."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from azgames.render import LINE_RGB, PIECE_RGB, PLAYER_RGB, paint, polygon_mask

from . import kernels as K
from .board import MAP, VOID
from .diagram import PIECE_LETTERS

CELL = 40  # pixels per square
MAP_RGB = np.array([[214, 226, 236], [190, 206, 222]], np.uint8)  # two shades, tiles alternating like a chessboard
GOLD_RGB = np.array([[150, 140, 110], [255, 214, 60]], np.uint8)  # null coins dull, others gold
VISITED_RGB = np.array([150, 200, 150], np.uint8)


def _status(state, rules) -> list[str]:
    agents = rules.agents
    S = rules.S
    p = int(state.player[0])
    banked = rules.banked(state)
    if state.outcome[0] == K.ONGOING:
        carried = int((state.coin_loc[0] == S + K.CARRIED + p).sum())
        left = K.allowance(p, carried) - int(state.steps[0])
        head = (f"Azure Attack, turn {int(state.turns[0]) + 1}: {agents[p]} "
                f"({PIECE_LETTERS[p]}) to move, {left} square(s) left")
    else:
        head = "Azure Attack: " + ("game over" if state.outcome[0] == K.TERMINATED else "turn limit reached")
    lines = [head]
    lines.append("banked: " + ", ".join(f"{a} {b}" for a, b in zip(agents, banked))
                 + f" (hunters {sum(banked[1:])} vs monster {banked[0]})")
    f = state.fight[0]
    if f[0] >= 0:
        lines.append(f"fight: {agents[f[0]]} rolled {f[2]}, {agents[f[1]]} rolled {f[3]}: "
                     f"{rules.chance_info(state)['fight']['result']}")
    return lines


def ansi(state, rules) -> str:
    """Status lines above the map diagram (:mod:`azure_env.diagram`)."""
    return "\n".join(_status(state, rules) + [rules.diagram(state)])


@lru_cache(maxsize=8)
def _sprites(cell: int):
    """Piece disc and coin disc masks (built once per size)."""
    yy, xx = np.mgrid[0:cell, 0:cell] + 0.5
    piece = np.hypot(xx - cell / 2, yy - cell / 2) < cell * 0.38
    c = cell // 3
    yy, xx = np.mgrid[0:c, 0:c] + 0.5
    coin = np.hypot(xx - c / 2, yy - c / 2) < c * 0.42
    diamond = polygon_mask(np.array([[cell / 2, 4], [cell - 4, cell / 2], [cell / 2, cell - 4],
                                     [4, cell / 2]], float), cell)
    return piece, coin, diamond


def rgb(state, rules) -> np.ndarray:
    """An image of the map: tiles in two shades, suit tiles in their player's
    colour, visited squares tinted, pieces as discs (the monster a diamond),
    coins as gold dots (one per coin, brighter for value > 0)."""
    layout = rules.layout
    w, h, S = layout.width, layout.height, rules.S
    piece, coin, diamond = _sprites(CELL)
    img = np.full((h * CELL, w * CELL, 3), 255, np.uint8)
    owner = state.slot_owner[0]
    visited = set(int(s) for s in state.trail[0, : int(state.steps[0]) + 1])
    for s in range(S):
        y, x = (h - 1 - s // w) * CELL, (s % w) * CELL
        slot = int(layout.slot[s])
        if slot == VOID or (slot >= 0 and owner[slot] < 0):
            continue
        colour = MAP_RGB[(s % w // 2 + s // w // 2) % 2] if slot == MAP else \
            (PLAYER_RGB[owner[slot]].astype(int) + 255 * 2) // 3
        if s in visited:
            colour = VISITED_RGB
        img[y:y + CELL, x:x + CELL] = colour
        img[y, x:x + CELL] = LINE_RGB
        img[y:y + CELL, x] = LINE_RGB
    for k in range(len(state.coin_loc[0])):
        loc = int(state.coin_loc[0, k])
        if loc >= S:
            continue
        j = int((state.coin_loc[0, :k] == loc).sum()) % 9  # up to 9 dots a square
        y = (h - 1 - loc // w) * CELL + (j // 3) * (CELL // 3)
        x = (loc % w) * CELL + (j % 3) * (CELL // 3)
        paint(img, y, x, coin, GOLD_RGB[int(state.coin_value[0, k] > 0)])
    for p in range(rules.num_players):
        s = int(state.pos[0, p])
        paint(img, (h - 1 - s // w) * CELL, (s % w) * CELL, diamond if p == K.MONSTER else piece, PIECE_RGB[p])
    return img
