"""Connect Four's rules: 6 rows of 7 columns, stones dropped from the top,
four in a row (across, up or diagonal) wins, a full board draws. Action i
drops the actor's stone in column i, 0 the leftmost.

The state is five arrays with a batch axis; the kernels are the contract's
(:mod:`azgames.core.contract`): the core writes every entry point from them."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from azgames.core.contract import ContractRules, Kernels
from azgames.core.game import ONGOING, TERMINATED, GameInfo, pack_status
from azgames.core.jit import njit_inline, njit_shared

from . import view
from .state_check import check_values, fours

ROWS, COLUMNS = 6, 7
EMPTY = -1
COLUMN_FULL = 1  # illegal_code's one reason


class ConnectFourState(NamedTuple):
    board: np.ndarray  # (B, 6, 7) int8: -1 empty, else the player whose stone it is; row 0 the bottom
    player: np.ndarray  # (B,) int8: to move
    ply: np.ndarray  # (B,) int16: stones played
    outcome: np.ndarray  # (B,) int8: ONGOING or TERMINATED
    rng: np.ndarray  # (B,) uint64: each game's generator (random agents)


@njit_shared
def reset_game(s, cfg, i):
    s.board[i] = EMPTY
    s.player[i] = 0
    s.ply[i] = 0
    s.outcome[i] = ONGOING


@njit_inline
def run_length(board, i, row, column, dr, dc, p):
    """Stones of player ``p`` in a line from (row, column), one way, not counting it."""
    n = 0
    r, c = row + dr, column + dc
    while 0 <= r < ROWS and 0 <= c < COLUMNS and board[i, r, c] == p:
        n, r, c = n + 1, r + dr, c + dc
    return n


@njit_shared
def play(s, cfg, i, action, rewards):
    board, p = s.board, s.player[i]  # the board as a local: numba counts no reference per use
    row = 0
    while board[i, row, action] != EMPTY:  # the mask keeps full columns out
        row += 1
    board[i, row, action] = p
    s.ply[i] += 1
    rewards[i, 0] = rewards[i, 1] = 0.0
    # The four lines through the new stone: across, up and the two diagonals.
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        if (
            1 + run_length(board, i, row, action, dr, dc, p) + run_length(board, i, row, action, -dr, -dc, p)
            >= 4
        ):
            s.outcome[i] = TERMINATED
            rewards[i, p], rewards[i, 1 - p] = 1.0, -1.0
            return pack_status(TERMINATED, True, p)
    if s.ply[i] == ROWS * COLUMNS:
        s.outcome[i] = TERMINATED
        return pack_status(TERMINATED, False, p)
    s.player[i] = 1 - p
    return pack_status(ONGOING, False, 1 - p)


@njit_shared
def write_observation(s, cfg, i, viewer, obs, j):
    """Two planes, rows top first as the board stands: the viewer's stones, then the other's."""
    board, out, other = s.board[i], obs[j], 1 - viewer
    for r in range(ROWS):
        row = board[ROWS - 1 - r]
        for c in range(COLUMNS):
            out[r * COLUMNS + c] = row[c] == viewer
            out[ROWS * COLUMNS + r * COLUMNS + c] = row[c] == other


@njit_shared
def write_mask(s, cfg, i, mask, j):
    for c in range(COLUMNS):
        mask[j, c] = s.board[i, ROWS - 1, c] == EMPTY


@njit_shared
def illegal_code(s, cfg, i, action):
    return COLUMN_FULL if s.board[i, ROWS - 1, action] != EMPTY else 0


class ConnectFourRules(ContractRules):
    info = GameInfo(
        name="connect_four",
        long_name="Connect Four",
        min_players=2,
        max_players=2,
        chance="deterministic",
        information="perfect",
        utility="zero_sum",
        reward_model="terminal",
        version=1,
    )
    state_type = ConnectFourState
    kernels = Kernels(reset_game, play, write_observation, write_mask, illegal_code)
    inline = True
    ILLEGAL = {COLUMN_FULL: "its column is full"}
    agents = ("player_0", "player_1")
    num_actions = COLUMNS
    search_hooks = "connect_four_env.search"
    symmetries = "connect_four_env.symmetry"

    def observation_shape(self, player: int) -> tuple[int, ...]:
        return (2, ROWS, COLUMNS)

    def blank_state(self, batch: int) -> ConnectFourState:
        return ConnectFourState(
            np.full((batch, ROWS, COLUMNS), EMPTY, np.int8),
            np.zeros(batch, np.int8),
            np.zeros(batch, np.int16),
            np.zeros(batch, np.int8),
            np.zeros(batch, np.uint64),
        )

    def final_info(self, state) -> list[dict]:
        """The last mover wins if four of its stones are in a row (it stays the
        actor when the game ends), else the full board is a draw."""
        p = int(state.player[0])
        # A game ends at a four or at the full board (check_values holds a
        # state from outside to that): only a full board needs looking at.
        # The numpy check at every end was over a quarter of the AEC env's time.
        won = state.outcome[0] == TERMINATED and (
            state.ply[0] < ROWS * COLUMNS or bool(fours(state.board[:1] == p)[0])
        )
        winner = self.agents[p] if won else None
        scores = {a: int(a == winner) for a in self.agents}
        info = {"scores": scores, "winners": [winner] if winner else [], "turns": int(state.ply[0])}
        return [{"score": scores[a], **info} for a in self.agents]

    def check_values(self, state) -> None:
        check_values(state)

    # The notation and the pictures: view.py.
    def action_to_str(self, state, action: int) -> str:
        return view.column_name(action)

    def str_to_action(self, state, text: str) -> int:
        return view.parse_column(text)

    def render_ansi(self, state) -> str:
        return view.render(state)

    def legend(self) -> str:
        return view.LEGEND

    def picture(self, state, last=None):
        return view.picture(state, last)

    def action_targets(self, state, action: int) -> tuple[str, ...]:
        return (view.column_name(action),)
