"""Connect Four positions from diagrams: six rows of seven cells, the top
row first, ``X`` player_0's stones, ``O`` player_1's, ``.`` empty."""

from __future__ import annotations

import textwrap

import numpy as np

import azgames
from azgames.core.game import ONGOING
from connect_four_env.rules import ConnectFourState

STONE = {".": -1, "X": 0, "O": 1}


def position(diagram: str) -> ConnectFourState:
    """A one-game state of the diagram; the player to move is the one with fewer stones (X on a tie)."""
    rows = [row.split() if " " in row else list(row) for row in textwrap.dedent(diagram).strip().splitlines()]
    board = np.array([[STONE[c] for c in row] for row in reversed(rows)], np.int8)[None]
    x, o = int((board == 0).sum()), int((board == 1).sum())
    return ConnectFourState(
        board,
        np.array([int(x > o)], np.int8),
        np.array([x + o], np.int16),
        np.array([ONGOING], np.int8),
        np.zeros(1, np.uint64),
    )


def diagram(state) -> str:
    letters = {v: k for k, v in STONE.items()}
    return "\n".join("".join(letters[int(v)] for v in row) for row in state.board[0][::-1])


def env_at(text: str):
    """An AEC env set to the diagram's position."""
    env = azgames.make("connect_four")
    env.reset(seed=0)
    env.unwrapped.set_state(position(text))
    return env
