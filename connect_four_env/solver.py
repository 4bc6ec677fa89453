"""A Connect Four solver: the exact game-theoretic score of a position.

Pascal Pons' method (http://blog.gamesolver.org): bitboards of 7 bits a
column (six cells and a guard), ``mask`` the stones on the board and
``position`` the mover's; a negamax alpha-beta over the moves that do not
lose at once, a transposition table of score bounds, moves ordered by the
threats they make (ties: centre first), and an iterative null-window search
for the exact score.

Scores are Pons': 0 a draw; positive if the side to move wins, ``22 - k``
when it wins with its ``k``-th stone of the game (larger: sooner); negative
if it loses, the same count for the opponent. A move's value is the score
of the position after it, from the mover's view.

The transposition table lives in the module and is kept between calls: an
entry is a bound on a position's score, true whatever search stored it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from azgames.core.jit import njit

ROWS, COLUMNS = 6, 7
H1 = ROWS + 1  # bits a column: its cells and a guard bit on top
CELLS = ROWS * COLUMNS
#: A stored bound is the score plus one of these: an upper bound, or a lower one.
UPPER, LOWER = 100, 200
#: What :func:`move_values` gives a full column.
ILLEGAL = -1000
#: Entries of the transposition table (a prime: the key modulo it is the slot).
TABLE_SIZE = 8388593
#: The column order of equal moves: centre first.
ORDER = np.array([3, 2, 4, 1, 5, 0, 6], np.int64)

BOTTOM = 0
for _c in range(COLUMNS):
    BOTTOM |= 1 << (_c * H1)
BOARD = BOTTOM * ((1 << ROWS) - 1)  # every playable cell


@njit
def popcount(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@njit
def winning_cells(position, mask):
    """The empty cells where ``position``'s stones would make four (playable
    now or not). Left shifts past bit 63 wrap in numba; the cells they make
    up are outside the board and masked off."""
    # up
    r = (position << 1) & (position << 2) & (position << 3)
    # across (7), and the two diagonals (6, 8)
    for s in (H1, H1 - 1, H1 + 1):
        p = (position << s) & (position << (2 * s))
        r |= p & (position << (3 * s))
        r |= p & (position >> s)
        p = (position >> s) & (position >> (2 * s))
        r |= p & (position << s)
        r |= p & (position >> (3 * s))
    return r & (BOARD ^ mask)


@njit
def possible(mask):
    """The cells where a stone can go now, one per column that is not full."""
    return (mask + BOTTOM) & BOARD


@njit
def column_bit(c):
    """Every cell of column ``c``."""
    return ((1 << ROWS) - 1) << (c * H1)


@njit
def can_win_next(position, mask):
    return (winning_cells(position, mask) & possible(mask)) != 0


@njit
def non_losing_moves(position, mask):
    """The cells the mover may play without letting the opponent win next
    move (0: every move loses). Precondition: the mover cannot win at once."""
    moves = possible(mask)
    threats = winning_cells(position ^ mask, mask)
    forced = moves & threats
    if forced:
        if forced & (forced - 1):  # two threats to block: lost
            return 0
        moves = forced
    return moves & ~(threats >> 1)  # never play just below the opponent's winning cell


@njit
def negamax(position, mask, moves, alpha, beta, keys, values, counter):
    """The score of the position if it lies in (alpha, beta); else a bound
    on the same side of the window. Precondition: the mover cannot win next
    move."""
    counter[0] += 1
    nxt = non_losing_moves(position, mask)
    if nxt == 0:
        return -((CELLS - moves) // 2)
    if moves >= CELLS - 2:
        return 0
    lo = -((CELLS - 2 - moves) // 2)  # the opponent cannot win on its next move
    if alpha < lo:
        alpha = lo
        if alpha >= beta:
            return alpha
    hi = (CELLS - 1 - moves) // 2  # the mover cannot win on this move
    key = position + mask
    slot = key % TABLE_SIZE
    if keys[slot] == key:
        v = np.int64(values[slot])
        if v >= LOWER:  # a lower bound
            lo = v - LOWER
            if alpha < lo:
                alpha = lo
                if alpha >= beta:
                    return alpha
        else:  # an upper bound
            hi = v - UPPER
    if beta > hi:
        beta = hi
        if alpha >= beta:
            return beta
    # Order the moves by the threats they make (an insertion sort; ties keep centre first).
    order = np.empty(COLUMNS, np.int64)
    rank = np.empty(COLUMNS, np.int64)
    n = 0
    for k in range(COLUMNS):
        move = nxt & column_bit(ORDER[k])
        if move:
            score = popcount(winning_cells(position | move, mask))
            j = n
            while j > 0 and rank[j - 1] < score:
                order[j], rank[j] = order[j - 1], rank[j - 1]
                j -= 1
            order[j], rank[j] = move, score
            n += 1
    for k in range(n):
        move = order[k]
        score = -negamax(position ^ mask, mask | move, moves + 1, -beta, -alpha, keys, values, counter)
        if score >= beta:
            keys[slot] = key
            values[slot] = score + LOWER
            return score
        if score > alpha:
            alpha = score
    keys[slot] = key
    values[slot] = alpha + UPPER
    return alpha


@njit
def solve_bits(position, mask, moves, keys, values, counter):
    """The exact score of the position (the game not over), by null-window
    searches that halve the range of possible scores each time."""
    if can_win_next(position, mask):
        return (CELLS + 1 - moves) // 2
    lo = -((CELLS - moves) // 2)
    hi = (CELLS + 1 - moves) // 2
    while lo < hi:
        med = lo + (hi - lo) // 2
        # Try the draw and small wins or losses first: they end the search quickest.
        if med <= 0 and -(-lo // 2) < med:
            med = -(-lo // 2)  # lo / 2 rounded towards 0
        elif med >= 0 and hi // 2 > med:
            med = hi // 2
        r = negamax(position, mask, moves, med, med + 1, keys, values, counter)
        if r <= med:
            hi = r
        else:
            lo = r
    return lo


@njit
def move_values_bits(position, mask, moves, keys, values, counter, out):
    """Each column's value for the mover (``ILLEGAL`` if it is full)."""
    for c in range(COLUMNS):
        move = possible(mask) & column_bit(c)
        if move == 0:
            out[c] = ILLEGAL
        elif winning_cells(position, mask) & move:
            out[c] = (CELLS + 1 - moves) // 2
        elif moves + 1 == CELLS:
            out[c] = 0
        else:
            out[c] = -solve_bits(position ^ mask, mask | move, moves + 1, keys, values, counter)


# ---------------------------------------------------------------- Python entry points

_table: tuple[np.ndarray, np.ndarray] | None = None
#: Positions searched by the calls so far (negamax calls).
nodes = np.zeros(1, np.int64)


def _tables() -> tuple[np.ndarray, np.ndarray]:
    global _table
    if _table is None:
        _table = (np.full(TABLE_SIZE, -1, np.int64), np.zeros(TABLE_SIZE, np.int16))
    return _table


def clear_table() -> None:
    """Forget every stored bound (to time a solve from nothing)."""
    keys, _ = _tables()
    keys[:] = -1


def _board_of(board: Any) -> np.ndarray:
    """The (6, 7) board of a ``ConnectFourState`` (its first game) or of the array itself."""
    b = getattr(board, "board", board)
    b = np.asarray(b)
    if b.ndim == 3 and b.shape[1:] == (ROWS, COLUMNS):
        b = b[0]
    if b.shape != (ROWS, COLUMNS):
        raise ValueError(f"a board is {ROWS}x{COLUMNS} (row 0 the bottom), got shape {b.shape}")
    return b


def bits(board: Any) -> tuple[int, int, int]:
    """``(position, mask, moves)``: the mover's stones, all stones and their
    count, of a board (-1 empty, else the player whose stone it is; row 0
    the bottom). The mover is the player with fewer stones (player 0 on a
    tie). ValueError if the board cannot arise in play or the game is over."""
    b = _board_of(board)
    if not np.isin(b, (-1, 0, 1)).all():
        raise ValueError("a board's cells are -1 (empty), 0 or 1")
    counts = [int((b == p).sum()) for p in (0, 1)]
    if counts[0] - counts[1] not in (0, 1):
        raise ValueError(f"player 0 has {counts[0]} stones and player 1 {counts[1]}: not a position of play")
    mover = int(counts[0] > counts[1])
    position = mask = 0
    for c in range(COLUMNS):
        column = b[:, c]
        filled = int((column != -1).sum())
        if (column[:filled] == -1).any() or (column[filled:] != -1).any():
            raise ValueError(f"column {c} has a gap under a stone")
        for r in range(filled):
            bit = 1 << (c * H1 + r)
            mask |= bit
            if column[r] == mover:
                position |= bit
    moves = counts[0] + counts[1]
    if _four(position ^ mask) or _four(position):
        raise ValueError("the game is over: four in a row on the board")
    if moves == CELLS:
        raise ValueError("the game is over: the board is full")
    return position, mask, moves


def _four(m: int) -> bool:
    for s in (1, H1, H1 - 1, H1 + 1):
        pairs = m & (m >> s)
        if pairs & (pairs >> (2 * s)):
            return True
    return False


def board_from_moves(moves: str | list[int]) -> np.ndarray:
    """The (6, 7) board after ``moves``: a list of columns 0-6, or a string
    of digits 1-7 (Pons' notation: ``"4453"``, 1 the leftmost column).
    ValueError on a full column or a move after four in a row."""
    columns = [int(ch) - 1 for ch in moves] if isinstance(moves, str) else list(moves)
    b = np.full((ROWS, COLUMNS), -1, np.int8)
    for k, c in enumerate(columns):
        if not 0 <= c < COLUMNS:
            raise ValueError(f"move {k + 1}: column {c} is not 0-6")
        filled = int((b[:, c] != -1).sum())
        if filled == ROWS:
            raise ValueError(f"move {k + 1}: column {c} is full")
        if k and _won(b):
            raise ValueError(f"move {k + 1}: the game is over")
        b[filled, c] = k % 2
    return b


def _won(b: np.ndarray) -> bool:
    return any(
        _four(sum(1 << (c * H1 + r) for r in range(ROWS) for c in range(COLUMNS) if b[r, c] == p))
        for p in (0, 1)
    )


def solve(board: Any) -> int:
    """The score of the position for the side to move (Pons' convention:
    positive a win, larger sooner; 0 a draw; negative a loss), of a
    ``ConnectFourState`` (its first game) or a (6, 7) board."""
    position, mask, moves = bits(board)
    keys, values = _tables()
    return int(solve_bits(position, mask, moves, keys, values, nodes))


def move_values(board: Any) -> np.ndarray:
    """Each column's value for the side to move (the score after the move,
    from the mover's view: :func:`solve`'s convention), ``ILLEGAL`` (-1000)
    for a full column."""
    position, mask, moves = bits(board)
    keys, values = _tables()
    out = np.zeros(COLUMNS, np.int64)
    move_values_bits(position, mask, moves, keys, values, nodes, out)
    return out


def outcome(score: int) -> int:
    """A score's sign class: 1 a win, 0 a draw, -1 a loss."""
    return (score > 0) - (score < 0)
