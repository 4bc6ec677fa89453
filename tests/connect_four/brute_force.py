"""Connect Four's exact scores by plain minimax: every move sequence to the
end, no pruning, no table, no bitboards: the yardstick of the solver
(:mod:`connect_four_env.solver`), in its score convention (the side to
move's; ``22 - k`` for a win with its ``k``-th stone, negative a loss, 0 a
draw). Only late positions finish in time."""

from __future__ import annotations

import numpy as np

from azgames.core.jit import njit

ROWS, COLUMNS = 6, 7


@njit
def _fours_through(board, r, c, p):
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        n = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < ROWS and 0 <= cc < COLUMNS and board[rr, cc] == p:
                n += 1
                rr, cc = rr + sign * dr, cc + sign * dc
        if n >= 4:
            return True
    return False


@njit
def _score(board, heights, p, stones):
    best = -100
    for c in range(COLUMNS):
        r = heights[c]
        if r == ROWS:
            continue
        board[r, c] = p
        heights[c] += 1
        if _fours_through(board, r, c, p):
            v = (ROWS * COLUMNS + 1 - stones) // 2
        elif stones + 1 == ROWS * COLUMNS:
            v = 0
        else:
            v = -_score(board, heights, 1 - p, stones + 1)
        board[r, c] = -1
        heights[c] -= 1
        if v > best:
            best = v
    return best


@njit
def _values(board, heights, p, stones, out):
    for c in range(COLUMNS):
        r = heights[c]
        if r == ROWS:
            out[c] = -1000
            continue
        board[r, c] = p
        heights[c] += 1
        if _fours_through(board, r, c, p):
            out[c] = (ROWS * COLUMNS + 1 - stones) // 2
        elif stones + 1 == ROWS * COLUMNS:
            out[c] = 0
        else:
            out[c] = -_score(board, heights, 1 - p, stones + 1)
        board[r, c] = -1
        heights[c] -= 1


def _setup(board: np.ndarray) -> tuple[np.ndarray, np.ndarray, int, int]:
    b = np.array(board, np.int8)
    heights = (b != -1).sum(axis=0).astype(np.int64)
    stones = int(heights.sum())
    return b, heights, stones % 2, stones


def score(board: np.ndarray) -> int:
    """The exact score of a (6, 7) board (the game not over) for the side to move."""
    b, heights, p, stones = _setup(board)
    return int(_score(b, heights, p, stones))


def move_values(board: np.ndarray) -> np.ndarray:
    """Each column's value for the side to move (-1000: full)."""
    b, heights, p, stones = _setup(board)
    out = np.zeros(COLUMNS, np.int64)
    _values(b, heights, p, stones, out)
    return out
