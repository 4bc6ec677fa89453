"""Minimax with alpha-beta pruning to a fixed depth, over any 2-player
game's search hooks (:mod:`azgames.core.search_hooks`), in numba.

The search walks a batch of games, one slot a ply: slot 0 holds the root,
slot ``d`` the position ``d`` plies below it, and the last slot is scratch.
It keeps its own stack (no recursion), so it compiles once per game like
the other searches (:mod:`azgames.agents.mcts.interface` picks the game's
hooks from the type of the state).

- **Values** are the root player's: the rewards of the plies walked, plus
  at the leaves the game's ``estimate`` (0 in a game without one). A game
  that ends on the way scores its rewards times ``WIN - plies``: a decided
  game outweighs any estimate, and a win sooner (a loss later) is worth more.
- **Who moves** is what ``play`` returns, not an alternation: a node is a
  max node when the root player is to act there.
- **Ordering.** Where two plies or more are left, the moves are ordered by
  the value after one ply (its rewards and estimate): the best first, so
  that the rest are cut sooner.
"""

from __future__ import annotations

import numpy as np

from azgames.core.game import ONGOING
from azgames.core.jit import njit

from ..mcts.interface import copy_game, estimate, legal, play

#: A decided game's weight: rewards times (WIN - plies from the root).
WIN = 100.0
INF = 1e18


@njit
def _child_value(s, cfg, parent, child, action, r, root_player, depth, rewards, values):
    """Play ``action`` from slot ``parent`` into slot ``child``; return
    ``(value, mover, open)``: the value where the walk stops here (a decided
    game, or the depth reached) else the rewards so far, the agent to act,
    and whether the walk may go on below."""
    copy_game(s, parent, child)
    status = play(s, cfg, child, action, rewards)
    r = r + rewards[child, root_player]
    if status & 3 != ONGOING:
        return r * (WIN - depth), -1, False
    mover = status >> 4
    return r, mover, True


@njit
def _leaf(s, cfg, i, r, root_player, values):
    estimate(s, cfg, i, values)
    return r + values[root_player]


@njit
def _expand(s, cfg, d, depth, maxing, r, root_player, max_depth, scratch, mask, rewards, values, moves, keys):
    """Write slot ``d``'s legal moves into ``moves[d]`` (best first where
    two plies or more are left); return how many."""
    legal(s, cfg, d, mask)
    n = 0
    for a in range(mask.shape[1]):
        if mask[0, a]:
            moves[d, n] = a
            n += 1
    if max_depth - depth >= 2:
        for k in range(n):
            v, mover, more = _child_value(
                s, cfg, d, scratch, moves[d, k], r, root_player, depth + 1, rewards, values
            )
            if more:
                v = _leaf(s, cfg, scratch, v, root_player, values)
            keys[k] = v if maxing else -v
        for k in range(1, n):  # insertion sort, best first; ties keep the action order
            key, a = keys[k], moves[d, k]
            j = k
            while j > 0 and keys[j - 1] < key:
                keys[j], moves[d, j] = keys[j - 1], moves[d, j - 1]
                j -= 1
            keys[j], moves[d, j] = key, a
    return n


@njit
def root_values(s, cfg, root_player, max_depth, num_actions, out, counter):
    """Each legal action's minimax value for ``root_player`` (to act in slot
    0) at ``max_depth`` plies, ``-inf`` for the others. An action tied with
    the best is exact; one below it may be an upper bound."""
    slots = max_depth + 2
    scratch = slots - 1
    mask = np.zeros((1, num_actions), np.int8)
    rewards = np.zeros((slots, 2), np.float64)
    values = np.zeros(2, np.float64)
    moves = np.zeros((slots, num_actions), np.int64)
    keys = np.zeros(num_actions, np.float64)
    count = np.zeros(slots, np.int64)
    cursor = np.zeros(slots, np.int64)
    alpha = np.zeros(slots, np.float64)
    beta = np.zeros(slots, np.float64)
    best = np.zeros(slots, np.float64)
    maxing = np.zeros(slots, np.bool_)
    racc = np.zeros(slots, np.float64)
    out[:] = -np.inf
    n_root = _expand(
        s, cfg, 0, 0, True, 0.0, root_player, max_depth, scratch, mask, rewards, values, moves, keys
    )
    root_moves = moves[0, :n_root].copy()
    top = -INF
    for k in range(n_root):
        action = root_moves[k]
        counter[0] += 1
        v, mover, more = _child_value(s, cfg, 0, 1, action, 0.0, root_player, 1, rewards, values)
        if more and max_depth == 1:
            v = _leaf(s, cfg, 1, v, root_player, values)
        elif more:
            # The node in slot 1, searched with the window (top - eps, inf): an
            # action tied with the best so far comes back exact.
            racc[1] = v
            maxing[1] = mover == root_player
            alpha[1], beta[1] = top - 1e-9, INF
            d = 1
            count[1] = _expand(
                s,
                cfg,
                1,
                1,
                maxing[1],
                v,
                root_player,
                max_depth,
                scratch,
                mask,
                rewards,
                values,
                moves,
                keys,
            )
            cursor[1] = 0
            best[1] = -INF if maxing[1] else INF
            if count[1] == 0:  # no legal move, the game on: the estimate
                best[1] = _leaf(s, cfg, 1, v, root_player, values)
            while True:
                if cursor[d] < count[d] and alpha[d] < beta[d]:
                    a = moves[d, cursor[d]]
                    cursor[d] += 1
                    counter[0] += 1
                    c = d + 1
                    w, mover, more = _child_value(s, cfg, d, c, a, racc[d], root_player, c, rewards, values)
                    if more and c < max_depth:
                        maxing[c] = mover == root_player
                        count[c] = _expand(
                            s,
                            cfg,
                            c,
                            c,
                            maxing[c],
                            w,
                            root_player,
                            max_depth,
                            scratch,
                            mask,
                            rewards,
                            values,
                            moves,
                            keys,
                        )
                    if more and (c == max_depth or count[c] == 0):  # a leaf (or no move: the estimate)
                        w = _leaf(s, cfg, c, w, root_player, values)
                    elif more:
                        racc[c] = w
                        alpha[c], beta[c] = alpha[d], beta[d]
                        cursor[c] = 0
                        best[c] = -INF if maxing[c] else INF
                        d = c
                        continue
                else:
                    w = best[d]
                    if d == 1:
                        break
                    d -= 1
                # Back the value w up into node d.
                if maxing[d]:
                    if w > best[d]:
                        best[d] = w
                    if w > alpha[d]:
                        alpha[d] = w
                else:
                    if w < best[d]:
                        best[d] = w
                    if w < beta[d]:
                        beta[d] = w
            v = best[1]
        out[action] = v
        if v > top:
            top = v
