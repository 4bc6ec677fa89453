"""The Connect Four solver (connect_four_env/solver.py) against plain
minimax on late positions, on positions of Pons' test sets, and on its
input checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from connect_four_env import solver
from connect_four_env.rules import ConnectFourState
from tests.connect_four import brute_force
from tests.connect_four.helpers import position

ROOT = Path(__file__).resolve().parents[2]


def careful_game(rng: np.random.Generator, stones: int) -> list[int] | None:
    """``stones`` moves of a player that wins when it can and otherwise plays
    at random a move that does not lose at once (None if it ran out of them):
    late positions still open, unlike random play's."""
    moves: list[int] = []
    while len(moves) < stones:
        pos, mask, _ = solver.bits(solver.board_from_moves(moves))
        safe = 0 if solver.can_win_next(pos, mask) else solver.non_losing_moves(pos, mask)
        columns = [c for c in range(7) if safe & solver.column_bit(c)]
        if not columns:
            return None
        moves.append(int(rng.choice(columns)))
    return moves


def late_positions(count: int, stones: tuple[int, ...], seed: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    found: list[list[int]] = []
    while len(found) < count:
        moves = careful_game(rng, stones[len(found) % len(stones)])
        if moves is not None:
            found.append(moves)
    return found


@pytest.mark.parametrize("seed", [0, 1])
def test_every_move_value_matches_plain_minimax_on_late_positions(seed):
    for moves in late_positions(30, (28, 30, 32, 34, 36), seed):
        board = solver.board_from_moves(moves)
        expected = brute_force.move_values(board)
        assert solver.move_values(board).tolist() == expected.tolist(), moves
        assert solver.solve(board) == expected.max(), moves


# Positions of Pascal Pons' test sets (Test_L3_R1, "end easy"), with their scores.
PONS = [("2252576253462244111563365343671351441", -1), ("7422341735647741166133573473242566", 1)]


@pytest.mark.parametrize("moves, score", PONS)
def test_positions_of_pons_test_set(moves, score):
    assert solver.solve(solver.board_from_moves(moves)) == score


def test_scores_count_the_winners_stones():
    # X (to move, 3 stones each) wins at once with its 4th stone: 22 - 4.
    board = position("""
        .......
        .......
        .......
        .......
        O......
        OXXX.O.
    """)
    assert solver.solve(board) == 18
    values = solver.move_values(board)
    assert values[4] == 18 and (np.delete(values, 4) < 18).all()  # the three's open end
    # O to move must block; if it does not, X wins with its 4th stone: -18.
    assert solver.move_values(solver.board_from_moves([1, 0, 2, 0, 3]))[5] == -18


def test_a_state_and_its_board_give_the_same_values():
    (moves,) = late_positions(1, (24,), seed=3)
    board = solver.board_from_moves(moves)
    state = ConnectFourState(
        board[None],
        np.array([0], np.int8),
        np.array([24], np.int16),
        np.zeros(1, np.int8),
        np.zeros(1, np.uint64),
    )
    assert solver.move_values(state).tolist() == solver.move_values(board).tolist()
    assert solver.solve(state) == solver.solve(board)


def test_full_columns_are_marked_illegal():
    board = solver.board_from_moves([0] * 6 + [6] * 6)
    values = solver.move_values(board)
    assert values[0] == values[6] == solver.ILLEGAL
    assert (values[1:6] > solver.ILLEGAL).all()


@pytest.mark.parametrize(
    "board, words",
    [
        (np.zeros((6, 6), np.int8), "6x7"),
        (solver.board_from_moves([0, 1, 0, 1, 0, 1, 0]), "game is over"),
        (np.where(np.arange(42).reshape(6, 7) == 0, 1, -1).astype(np.int8), "player 0 has 0 stones"),
        (np.where(np.arange(42).reshape(6, 7) == 7, 0, -1).astype(np.int8), "gap"),
        (np.full((6, 7), 2, np.int8), r"-1 \(empty\), 0 or 1"),
    ],
)
def test_bad_boards_are_refused_by_name(board, words):
    with pytest.raises(ValueError, match=words):
        solver.solve(board)


@pytest.mark.parametrize("moves, words", [("448", "column 7 is not 0-6"), ("1111111", "column 0 is full")])
def test_bad_move_sequences_are_refused_by_name(moves, words):
    with pytest.raises(ValueError, match=words):
        solver.board_from_moves(moves)


def test_the_solver_runs_as_plain_python():
    """The kernels stay valid Python (NUMBA_DISABLE_JIT=1) with the same results, on a late position."""
    moves = "2252576253462244111563365343671351441"
    code = (
        f"from connect_four_env import solver as s; b = s.board_from_moves({moves!r}); "
        "print(s.solve(b), list(s.move_values(b)))"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    board = solver.board_from_moves(moves)
    assert out.stdout.split(maxsplit=1) == [
        str(solver.solve(board)),
        str(list(solver.move_values(board))) + "\n",
    ]
