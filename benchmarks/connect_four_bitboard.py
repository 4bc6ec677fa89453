"""Connect Four written by hand for speed, the yardstick of the kernel contract.

Bitboards as in Pascal Pons' solver: each game is two 64-bit words, every
column seven bits (six cells and a guard), ``mask`` the stones on the board
and ``position`` those of the player to move. A move adds the column's
bottom bit to ``mask`` (the carry finds the free cell); four in a row is
four shifted copies of the mover's stones ANDed together. One batched step
does what ``connect_four_env``'s vector env does: check the actions, play,
restart ended games, write the next actor's observation planes (int8, the
viewer's stones then the other's, the top row first), mask, rewards and
flags; a second call draws random legal actions from each game's generator.
No Python loop over games; nothing shared with the suite but numba.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import prange

ROWS, COLUMNS, HEIGHT = 6, 7, 7  # HEIGHT: bits per column, the guard bit on top
FULL = ROWS * COLUMNS


@numba.njit(cache=True, inline="always")
def bottom(c):
    return np.uint64(1) << np.uint64(c * HEIGHT)


@numba.njit(cache=True, inline="always")
def top(c):
    return np.uint64(1) << np.uint64(c * HEIGHT + ROWS - 1)


@numba.njit(cache=True, inline="always")
def four(m):
    """Whether the stones ``m`` hold four in a row (up, across, both diagonals)."""
    for shift in (1, HEIGHT, HEIGHT - 1, HEIGHT + 1):
        s = np.uint64(shift)
        pairs = m & (m >> s)
        if pairs & (pairs >> (s + s)):
            return True
    return False


@numba.njit(cache=True, inline="always")
def observe(position, mask, i, obs, legal):
    other = position ^ mask
    for c in range(COLUMNS):
        legal[i, c] = (mask & top(c)) == 0
        for r in range(ROWS):
            bit = np.uint64(1) << np.uint64(c * HEIGHT + ROWS - 1 - r)
            obs[i, 0, r, c] = (position & bit) != 0
            obs[i, 1, r, c] = (other & bit) != 0


@numba.njit(cache=True, parallel=True)
def step(position, mask, moves, player, actions, obs, legal, rewards, terminated, player_out):
    n = actions.shape[0]
    for i in range(n):  # refuse a bad batch before anything moves
        a = actions[i]
        if a < 0 or a >= COLUMNS or mask[i] & top(a):
            return i
    for i in prange(n):
        a = actions[i]
        mover = player[i]
        position[i] ^= mask[i]  # now the mover's opponent's stones
        mask[i] |= mask[i] + bottom(a)
        moves[i] += 1
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        won = four(position[i] ^ mask[i])
        ended = won or moves[i] == FULL
        if won:
            rewards[i, mover] = 1.0
            rewards[i, 1 - mover] = -1.0
        terminated[i] = ended
        if ended:
            position[i], mask[i], moves[i], player[i] = 0, 0, 0, 0
        else:
            player[i] = 1 - mover
        player_out[i] = player[i]
        observe(position[i], mask[i], i, obs, legal)
    return -1


@numba.njit(cache=True, parallel=True)
def random_actions(rng, legal, out):
    for i in prange(legal.shape[0]):
        # splitmix64, the game's own word
        rng[i] += np.uint64(0x9E3779B97F4A7C15)
        z = rng[i]
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
        count = 0
        for c in range(COLUMNS):
            count += legal[i, c]
        pick = np.int64(z % np.uint64(count))
        for c in range(COLUMNS):
            if legal[i, c]:
                if pick == 0:
                    out[i] = c
                    break
                pick -= 1


class BitboardVec:
    """``num_envs`` games with the vector env's outputs."""

    def __init__(self, num_envs: int, seed: int = 0) -> None:
        n = num_envs
        self.position = np.zeros(n, np.uint64)
        self.mask = np.zeros(n, np.uint64)
        self.moves = np.zeros(n, np.int64)
        self.player = np.zeros(n, np.int8)
        self.rng = np.random.default_rng(seed).integers(0, 2**63, n).astype(np.uint64)
        self.obs = np.zeros((n, 2, ROWS, COLUMNS), np.int8)
        self.legal = np.ones((n, COLUMNS), np.bool_)
        self.rewards = np.zeros((n, 2), np.float32)
        self.terminated = np.zeros(n, np.bool_)
        self.player_out = np.zeros(n, np.int8)
        self.actions = np.zeros(n, np.int64)

    def random_actions(self) -> np.ndarray:
        random_actions(self.rng, self.legal, self.actions)
        return self.actions

    def step(self, actions: np.ndarray):
        bad = step(
            self.position, self.mask, self.moves, self.player, actions,
            self.obs, self.legal, self.rewards, self.terminated, self.player_out,
        )  # fmt: skip
        if bad >= 0:
            raise ValueError(f"game {bad}: action {actions[bad]} is illegal")
        return self.obs, self.legal, self.rewards, self.terminated, self.player_out
