"""The values a :class:`~connect_four_env.rules.ConnectFourState` may hold,
checked before a state from outside reaches the kernels. For every game of
the batch: stones of player 0 or 1 (-1 empty), none floating above an empty
cell; player 0 has as many stones as player 1 or one more; ``ply`` counts
them; and the player and outcome agree with the board: a game going on has
no four in a row and a free cell, and the player to move is the one with
fewer stones (player 0 on a tie); an ended game was ended by its last mover,
who is ``player``, with four in a row or the last free cell."""

from __future__ import annotations

import numpy as np

from azgames.core.game import ONGOING, TERMINATED
from azgames.core.state_check import fail_where, in_range


def fours(stones: np.ndarray) -> np.ndarray:
    """(B,) whether each (B, 6, 7) bool board holds four in a row, any way."""
    lines = (
        stones[:, :, :-3] & stones[:, :, 1:-2] & stones[:, :, 2:-1] & stones[:, :, 3:],
        stones[:, :-3] & stones[:, 1:-2] & stones[:, 2:-1] & stones[:, 3:],
        stones[:, :-3, :-3] & stones[:, 1:-2, 1:-2] & stones[:, 2:-1, 2:-1] & stones[:, 3:, 3:],
        stones[:, :-3, 3:] & stones[:, 1:-2, 2:-1] & stones[:, 2:-1, 1:-2] & stones[:, 3:, :-3],
    )
    return np.any([line.reshape(len(stones), -1).any(axis=1) for line in lines], axis=0)


def check_values(state) -> None:
    """Raise ValueError naming the field, game, index and value of the first
    value the game cannot hold (see the module docstring)."""
    board = state.board
    in_range(state, "board", -1, 2)
    floating = (board[:, 1:] >= 0) & (board[:, :-1] < 0)
    fail_where(
        state,
        "board",
        np.concatenate([np.zeros_like(floating[:, :1]), floating], axis=1),
        "floats above an empty cell",
    )
    first, second = (board == 0).sum(axis=(1, 2)), (board == 1).sum(axis=(1, 2))
    fail_where(
        state,
        "board",
        ~np.isin(first - second, (0, 1)),
        lambda at: f"holds {first[at[0]]} stones of player 0 and {second[at[0]]} of player 1",
        values=first - second,
    )
    fail_where(state, "ply", state.ply != first + second, "is not the number of stones on the board")
    in_range(state, "outcome", ONGOING, TERMINATED + 1)
    ongoing = state.outcome == ONGOING
    to_move = (first > second).astype(np.int8)  # ongoing: the one behind; ended: the last mover, ahead
    last_mover = np.where(first > second, 0, 1).astype(np.int8)
    expected = np.where(ongoing, to_move, last_mover)
    fail_where(state, "player", state.player != expected, "is not the player the board says")
    mine = fours(board == state.player[:, None, None])
    theirs = fours(board == (1 - state.player)[:, None, None])
    full = first + second == board.shape[1] * board.shape[2]
    fail_where(state, "outcome", ongoing & (mine | theirs | full), "is ONGOING, but the game is over")
    fail_where(state, "outcome", ~ongoing & ~mine & ~full, "is TERMINATED, but nobody won and cells are free")
    fail_where(state, "outcome", theirs, "follows a four in a row of the player not to have moved last")
