"""Azacru's rules as numba kernels: the five of the kernel contract
(:mod:`azgames.core.contract`) over the state tuple ``s``
(:class:`~azacru_env.rules.AzacruState`) and the config ``cfg``
(:class:`~azacru_env.rules.AzacruConfig`); the core writes every entry point
from them.

The helpers they call take the state's arrays and a game index ``i``: the
greedy agent runs them on its scratch copies of one game, and the property
tests check a mask against :func:`move_code`. The five are compiled without
reference counting (``njit_shared``: they allocate nothing, nor does any
helper they call), so the core's entry points and the search pass them the
tuple for free, in the vector env's threads too; each reads the tuple's
arrays into locals once.

Action encoding (``K`` pieces per player)::

    action = ((slot * 3 + turn) * 8 + (distance - 1)) * 3 + twist      (< 72 K)
    action = 72 K                                                      pass

``turn`` picks the move direction relative to the piece's facing (0 straight
ahead, 1 45 degrees left, 2 45 degrees right), ``distance`` is 1-8 fields and
``twist`` the final facing relative to the move (0 as moved, 1 twisted 45
degrees left, 2 right; 1 and 2 only after crossing a border). Each legal
(piece field, destination, final facing) has exactly one action.
"""

from __future__ import annotations

import numpy as np

from azgames.core.game import ONGOING, TERMINATED, TRUNCATED, pack_status
from azgames.core.jit import njit, njit_inline, njit_shared

from .board import BORDERLAND, BORDERLAND_FIELDS, DX, DY

ACTIONS_PER_PIECE = 72
#: Direction offsets for turn 0/1/2 and twist 0/1/2: none, 45 left, 45 right.
TURN = np.array([0, -1, 1], dtype=np.int64)

# Why an action is illegal (see rules.ILLEGAL_REASONS for the words).
LEGAL = 0
PIECE_OFF_BOARD = 1
LEAVES_BOARD = 2
BEYOND_POWER = 3
OTHER_PLAYERS_TILE = 4
FIELD_OCCUPIED = 5
JUMP_WITHOUT_CONNECTION = 6
TWIST_WITHOUT_BORDER = 7
PASS_WHILE_ABLE = 8


# ---------------------------------------------------------------- helpers over arrays


@njit
def power_of_movement(tiles, i, player, field):
    """The owner's tiles in the borderland of ``field``, and at least 1."""
    n = 0
    for g in BORDERLAND_FIELDS[BORDERLAND[field]]:
        if tiles[i, g] == player:
            n += 1
    return max(n, 1)


@njit
def mark_moves(tiles, occupant, piece_field, piece_facing, i, player, mask, j):
    """Mark every legal action of ``player`` in game ``i`` in row ``j`` of
    ``mask``; returns how many moves there are (the pass action is marked,
    alone, when there are none)."""
    for a in range(mask.shape[1]):
        mask[j, a] = 0
    count = 0
    for k in range(piece_field.shape[2]):
        f = piece_field[i, player, k]
        if f < 0:
            continue
        x0 = f % 9
        y0 = f // 9
        power = power_of_movement(tiles, i, player, f)
        own_start = tiles[i, f] == player
        for turn in range(3):
            d = (piece_facing[i, player, k] + TURN[turn]) & 7
            x = x0
            y = y0
            jumped = False
            for dist in range(1, power + 1):
                x += DX[d]
                y += DY[d]
                if x < 0 or x > 8 or y < 0 or y > 8:
                    break
                g = y * 9 + x
                t = tiles[i, g]
                if occupant[i, g] < 0 and (t < 0 or t == player):
                    # Jumping needs a connection: own tile to own tile.
                    if not jumped or (own_start and t == player):
                        a = ((k * 3 + turn) * 8 + dist - 1) * 3
                        mask[j, a] = 1
                        count += 1
                        if BORDERLAND[g] != BORDERLAND[f]:
                            mask[j, a + 1] = 1
                            mask[j, a + 2] = 1
                            count += 2
                elif occupant[i, g] >= 0:
                    jumped = True
                    if not own_start:
                        break
    if count == 0:
        mask[j, mask.shape[1] - 1] = 1
    return count


@njit
def move_code(tiles, occupant, piece_field, piece_facing, i, player, action):
    """Why ``player`` may not make the move ``action`` (not the pass) in game
    ``i``, LEGAL if it may: checked from first principles, independent of
    :func:`mark_moves`."""
    k = action // ACTIONS_PER_PIECE
    turn = (action // 24) % 3
    dist = (action // 3) % 8 + 1
    twist = action % 3
    f = piece_field[i, player, k]
    if f < 0:
        return PIECE_OFF_BOARD
    d = (piece_facing[i, player, k] + TURN[turn]) & 7
    x = f % 9 + dist * DX[d]
    y = f // 9 + dist * DY[d]
    if x < 0 or x > 8 or y < 0 or y > 8:
        return LEAVES_BOARD
    if dist > power_of_movement(tiles, i, player, f):
        return BEYOND_POWER
    g = y * 9 + x
    if tiles[i, g] >= 0 and tiles[i, g] != player:
        return OTHER_PLAYERS_TILE
    if occupant[i, g] >= 0:
        return FIELD_OCCUPIED
    connection = tiles[i, f] == player and tiles[i, g] == player
    for s in range(1, dist):
        h = (f // 9 + s * DY[d]) * 9 + f % 9 + s * DX[d]
        if occupant[i, h] >= 0 and not connection:
            return JUMP_WITHOUT_CONNECTION
    if twist != 0 and BORDERLAND[g] == BORDERLAND[f]:
        return TWIST_WITHOUT_BORDER
    return LEGAL


@njit
def apply_move(tiles, occupant, piece_field, piece_facing, i, player, action):
    """Move a piece (the action must be legal): the landing tile turns the
    mover's colour; a connection change recolours the fields passed over and
    takes the piece off the board if any of them was another player's."""
    k = action // ACTIONS_PER_PIECE
    turn = (action // 24) % 3
    dist = (action // 3) % 8 + 1
    twist = action % 3
    f = piece_field[i, player, k]
    d = (piece_facing[i, player, k] + TURN[turn]) & 7
    step = DY[d] * 9 + DX[d]
    g = f + dist * step
    removed = False
    if dist > 1 and tiles[i, f] == player and tiles[i, g] == player:
        jump = False
        for s in range(1, dist):
            if occupant[i, f + s * step] >= 0:
                jump = True
        if not jump:  # a connection change is compulsory
            for s in range(1, dist):
                h = f + s * step
                if tiles[i, h] >= 0 and tiles[i, h] != player:
                    removed = True
                tiles[i, h] = player
    tiles[i, g] = player
    occupant[i, f] = -1
    piece_facing[i, player, k] = (d + TURN[twist]) & 7
    if removed:
        piece_field[i, player, k] = -1
    else:
        piece_field[i, player, k] = g
        occupant[i, g] = player * 4 + k


@njit_inline
def count_tiles(tiles, i, scores):
    """Add each player's tiles in game ``i`` to ``scores``."""
    for f in range(tiles.shape[1]):
        if tiles[i, f] >= 0:
            scores[tiles[i, f]] += 1


@njit
def tiles_of(tiles, i, p):
    """Player ``p``'s tiles in game ``i``."""
    n = 0
    for f in range(tiles.shape[1]):
        if tiles[i, f] == p:
            n += 1
    return n


@njit
def write_rewards(tiles, i, num_players, rewards):
    """End-of-game rewards: each player gets the mean, over opponents, of
    +1 (more tiles), 0 (as many) or -1 (fewer). With 2 players: +1 / 0 / -1.
    Counted again per pair, not into an array: :func:`play` may allocate nothing."""
    for p in range(num_players):
        total = 0
        sp = tiles_of(tiles, i, p)
        for q in range(num_players):
            sq = tiles_of(tiles, i, q)
            if sp > sq:
                total += 1
            elif sp < sq:
                total -= 1
        rewards[i, p] = total / (num_players - 1)


# ---------------------------------------------------------------- the contract's kernels


@njit_shared
def reset_game(s, cfg, i):
    """Set game ``i`` to the opening: all fields neutral, pieces placed, player 1 to move."""
    occupant, piece_field, piece_facing = s.occupant, s.piece_field, s.piece_facing
    opening_field, opening_facing = cfg.opening_field, cfg.opening_facing
    s.tiles[i, :] = -1
    occupant[i, :] = -1
    for p in range(opening_field.shape[0]):
        for k in range(opening_field.shape[1]):
            piece_field[i, p, k] = opening_field[p, k]
            piece_facing[i, p, k] = opening_facing[p, k]
            occupant[i, opening_field[p, k]] = p * 4 + k
    s.player[i] = 0
    s.turns_left[i] = -1
    s.ply[i] = 0
    s.outcome[i] = ONGOING


@njit_shared
def play(s, cfg, i, action, rewards):
    """Play a legal action in game ``i`` and advance the turn; write this step's
    rewards into row ``i`` of ``rewards``. Returns a packed status."""
    tiles, piece_field, player, turns_left, ply = s.tiles, s.piece_field, s.player, s.turns_left, s.ply
    num_players = piece_field.shape[1]
    p = player[i]
    for q in range(num_players):
        rewards[i, q] = 0.0
    if action == piece_field.shape[2] * ACTIONS_PER_PIECE:
        # Passing is only legal when stuck; the first such pass starts the
        # final round, in which every other player gets exactly one more turn.
        if turns_left[i] < 0:
            turns_left[i] = num_players
    else:
        apply_move(tiles, s.occupant, piece_field, s.piece_facing, i, p, action)
    if turns_left[i] > 0:
        turns_left[i] -= 1
    ply[i] += 1
    player[i] = (p + 1) % num_players
    if turns_left[i] == 0:
        s.outcome[i] = TERMINATED
        write_rewards(tiles, i, num_players, rewards)
        return pack_status(TERMINATED, True, player[i])
    if ply[i] >= cfg.max_turns:
        s.outcome[i] = TRUNCATED
        return pack_status(TRUNCATED, False, player[i])
    return pack_status(ONGOING, False, player[i])


@njit_shared
def write_observation(s, cfg, i, viewer, obs, j):
    """Planes of game ``i`` from ``viewer``'s side into row ``j`` of ``obs``,
    an (N, C * 81) view of the (N, C, 9, 9) observations, channels first as
    every game's (see the env docstring): plane ``c`` of field ``f`` is
    ``c * 81 + f``."""
    tiles, piece_field, piece_facing = s.tiles, s.piece_field, s.piece_facing
    num_players = piece_field.shape[1]
    num_pieces = piece_field.shape[2]
    for c in range(obs.shape[1]):
        obs[j, c] = 0
    for f in range(81):
        # Branch-free (tiles are unpredictable): a neutral field writes a 0
        # into some player's tile plane, which is 0 there anyway.
        t = tiles[i, f]
        q = t - viewer
        q += num_players * (q < 0)
        obs[j, (num_pieces + 3 * q) * 81 + f] = t >= 0
    for p in range(num_players):
        q = p - viewer
        q += num_players * (q < 0)
        for k in range(num_pieces):
            # int64: plain Python (NUMBA_DISABLE_JIT) would wrap int8 products.
            f = np.int64(piece_field[i, p, k])
            if f >= 0:
                d = piece_facing[i, p, k]
                c = num_pieces + 3 * q
                obs[j, (c + 1) * 81 + f] = DX[d]
                obs[j, (c + 2) * 81 + f] = DY[d]
                if p == viewer:
                    obs[j, k * 81 + f] = 1
    if s.turns_left[i] >= 0:
        last = (num_pieces + 3 * num_players) * 81
        obs[j, last : last + 81] = 1


@njit_shared
def write_mask(s, cfg, i, mask, j):
    """The actor's legal actions of game ``i`` into row ``j`` of ``mask`` (:func:`mark_moves`)."""
    mark_moves(s.tiles, s.occupant, s.piece_field, s.piece_facing, i, s.player[i], mask, j)


@njit_shared
def illegal_code(s, cfg, i, action):
    """Why the actor of game ``i`` may not play ``action`` (LEGAL if it may):
    a move by :func:`move_code`; the pass only when no move is legal."""
    tiles, occupant, piece_field, piece_facing = s.tiles, s.occupant, s.piece_field, s.piece_facing
    p = s.player[i]
    pass_action = piece_field.shape[2] * ACTIONS_PER_PIECE
    if action != pass_action:
        return move_code(tiles, occupant, piece_field, piece_facing, i, p, action)
    for move in range(pass_action):
        if move_code(tiles, occupant, piece_field, piece_facing, i, p, move) == LEGAL:
            return PASS_WHILE_ABLE
    return LEGAL
