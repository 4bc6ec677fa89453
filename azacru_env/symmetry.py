"""Azacru's symmetries: the square's four rotations and four reflections.

The board is a 9 x 9 square of 3 x 3 borderlands, and no rule names a
compass point: a move is straight ahead, 45 degrees left or right of the
piece's facing, and a twist turns left or right. So a rotated or reflected
position is a position of the same game. Fields and facings move with the
transformation; the actions, which are relative to the piece, do not move
under a rotation, and under a reflection left and right trade places.
``tests/azacru/test_symmetry.py`` checks this against the kernels: the
observation and the legal moves of a transformed position are the
transformed ones, and a transformed move leads to the transformed position.
"""

from __future__ import annotations

import itertools

import numpy as np

from azgames.core.symmetry import Symmetry

from .board import DX, DY

CENTRE = 4


def transforms() -> list[np.ndarray]:
    """The eight 2 x 2 signed permutation matrices acting on (east, north),
    the identity first."""
    out = []
    for (a, b), sa, sb in itertools.product(((0, 1), (1, 0)), (1, -1), (1, -1)):
        m = np.zeros((2, 2), np.int64)
        m[0, a], m[1, b] = sa, sb
        out.append(m)
    return out


def field_map(m: np.ndarray) -> np.ndarray:
    """(81,): the field each field goes to (field = 9 * row + column)."""
    x, y = np.arange(81) % 9 - CENTRE, np.arange(81) // 9 - CENTRE
    nx, ny = m @ np.stack([x, y])
    return (ny + CENTRE) * 9 + nx + CENTRE


def facing_map(m: np.ndarray) -> np.ndarray:
    """(8,): the facing each facing (0 = N, clockwise) goes to."""
    nx, ny = m @ np.stack([DX, DY])
    return np.array([np.flatnonzero((DX == a) & (DY == b))[0] for a, b in zip(nx, ny)])


def action_map(m: np.ndarray, num_actions: int) -> np.ndarray:
    """(A,): the action each action goes to: a reflection (determinant -1)
    swaps left and right, in the turn and in the twist."""
    if round(np.linalg.det(m)) == 1:
        return np.arange(num_actions)
    action = np.arange(num_actions - 1)  # the last, the pass, stays
    twist, rest = action % 3, action // 3
    turn = (rest // 8) % 3
    swap = np.array([0, 2, 1])
    moved = ((rest // 24 * 3 + swap[turn]) * 8 + rest % 8) * 3 + swap[twist]
    return np.append(moved, num_actions - 1)


def symmetry(m: np.ndarray, planes: int, pieces: int, players: int, num_actions: int) -> Symmetry:
    cells = field_map(m)
    source_cell = np.argsort(cells)  # the field that lands on each field
    index = np.empty((planes, 81), np.int64)
    sign = np.ones((planes, 81), np.int8)
    for c in range(planes):
        index[c] = c * 81 + source_cell
    for q in range(players):
        east, north = pieces + 3 * q + 1, pieces + 3 * q + 2
        # (east', north') = m (east, north): each row of m has one nonzero.
        for plane, row in ((east, m[0]), (north, m[1])):
            source = east if row[0] else north
            index[plane] = source * 81 + source_cell
            sign[plane] = row[0] + row[1]
    moved = action_map(m, num_actions)
    return Symmetry(index.ravel(), sign.ravel(), np.argsort(moved))


def symmetries(rules) -> list[Symmetry]:
    """The seven transformations besides the identity, for ``rules``'s
    player count."""
    planes = rules.observation_shape(0)[0]
    return [symmetry(m, planes, rules.pieces, rules.num_players, rules.num_actions) for m in transforms()[1:]]


__all__ = ["action_map", "facing_map", "field_map", "symmetries", "transforms"]
