"""Azacru's rules as numba kernels over batched state arrays.

Every per-game function takes the state's arrays and a game index ``i``; the
batch kernels at the bottom (one game for the AEC env, ``prange`` over games
for the vector env) are the only entry points called from Python.

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

from azgames.batch import SKIP, first_illegal, skip_game
from azgames.game import ONGOING, TERMINATED, TRUNCATED, pack_status
from azgames.jit import njit, njit_inline, njit_parallel, prange

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


@njit
def power_of_movement(tiles, i, player, field):
    """The owner's tiles in the borderland of ``field``, and at least 1."""
    n = 0
    for g in BORDERLAND_FIELDS[BORDERLAND[field]]:
        if tiles[i, g] == player:
            n += 1
    return max(n, 1)


@njit
def write_mask(tiles, occupant, piece_field, piece_facing, i, player, mask, j):
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
def illegal_code(tiles, occupant, piece_field, piece_facing, i, player, action):
    """Check one move from first principles (independent of ``write_mask``)."""
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
def write_rewards(tiles, i, num_players, rewards):
    """End-of-game rewards: each player gets the mean, over opponents, of
    +1 (more tiles), 0 (as many) or -1 (fewer). With 2 players: +1 / 0 / -1."""
    scores = np.zeros(num_players, dtype=np.int64)
    count_tiles(tiles, i, scores)
    for p in range(num_players):
        total = 0
        for q in range(num_players):
            if scores[p] > scores[q]:
                total += 1
            elif scores[p] < scores[q]:
                total -= 1
        rewards[i, p] = total / (num_players - 1)


@njit
def play(
    tiles,
    occupant,
    piece_field,
    piece_facing,
    player,
    turns_left,
    ply,
    outcome,
    i,
    action,
    max_plies,
    rewards,
):
    """Play a legal action in game ``i`` and advance the turn; write this step's
    rewards into row ``i`` of ``rewards``. Returns a packed status."""
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
        apply_move(tiles, occupant, piece_field, piece_facing, i, p, action)
    if turns_left[i] > 0:
        turns_left[i] -= 1
    ply[i] += 1
    player[i] = (p + 1) % num_players
    if turns_left[i] == 0:
        outcome[i] = TERMINATED
        write_rewards(tiles, i, num_players, rewards)
        return pack_status(TERMINATED, True, player[i])
    if ply[i] >= max_plies:
        outcome[i] = TRUNCATED
        return pack_status(TRUNCATED, False, player[i])
    return pack_status(ONGOING, False, player[i])


@njit
def write_observation(tiles, occupant, piece_field, piece_facing, turns_left, i, viewer, obs, j):
    """Planes of game ``i`` from ``viewer``'s side into row ``j`` of ``obs``,
    an (N, C * 81) view of the (N, C, 9, 9) observations, channels first as
    every game's (see the env docstring): plane ``c`` of field ``f`` is
    ``c * 81 + f``."""
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
    if turns_left[i] >= 0:
        last = (num_pieces + 3 * num_players) * 81
        obs[j, last : last + 81] = 1


@njit
def reset_game(
    tiles,
    occupant,
    piece_field,
    piece_facing,
    player,
    turns_left,
    ply,
    outcome,
    i,
    opening_field,
    opening_facing,
):
    """Set game ``i`` to the opening: all fields neutral, pieces placed, player 1 to move."""
    tiles[i, :] = -1
    occupant[i, :] = -1
    for p in range(opening_field.shape[0]):
        for k in range(opening_field.shape[1]):
            piece_field[i, p, k] = opening_field[p, k]
            piece_facing[i, p, k] = opening_facing[p, k]
            occupant[i, opening_field[p, k]] = p * 4 + k
    player[i] = 0
    turns_left[i] = -1
    ply[i] = 0
    outcome[i] = ONGOING


# ---------------------------------------------------------------- entry points


@njit
def reset_batch(
    tiles,
    occupant,
    piece_field,
    piece_facing,
    player,
    turns_left,
    ply,
    outcome,
    rng,
    opening_field,
    opening_facing,
):
    for i in range(tiles.shape[0]):
        reset_game(
            tiles,
            occupant,
            piece_field,
            piece_facing,
            player,
            turns_left,
            ply,
            outcome,
            i,
            opening_field,
            opening_facing,
        )


@njit
def step_one(
    tiles,
    occupant,
    piece_field,
    piece_facing,
    player,
    turns_left,
    ply,
    outcome,
    rng,
    action,
    max_plies,
    obs,
    mask,
    rewards,
):
    """AEC step of game 0: play, then write the next actor's observation and mask."""
    code = play(
        tiles,
        occupant,
        piece_field,
        piece_facing,
        player,
        turns_left,
        ply,
        outcome,
        0,
        action,
        max_plies,
        rewards.reshape((1, rewards.size)),
    )
    p = player[0]
    write_observation(
        tiles, occupant, piece_field, piece_facing, turns_left, 0, p, obs.reshape((1, obs.size)), 0
    )
    if outcome[0] == ONGOING:
        write_mask(tiles, occupant, piece_field, piece_facing, 0, p, mask.reshape((1, mask.size)), 0)
    else:
        mask[:] = 0
    return code


@njit
def observe_one(
    tiles, occupant, piece_field, piece_facing, player, turns_left, ply, outcome, rng, viewer, obs, mask
):
    """``viewer``'s observation and mask of game 0 (viewer -1: the actor)."""
    p = player[0]
    if viewer < 0:
        viewer = p
    write_observation(
        tiles, occupant, piece_field, piece_facing, turns_left, 0, viewer, obs.reshape((1, obs.size)), 0
    )
    if viewer == p and outcome[0] == ONGOING:
        write_mask(tiles, occupant, piece_field, piece_facing, 0, p, mask.reshape((1, mask.size)), 0)
    else:
        mask[:] = 0
    return pack_status(outcome[0], False, p)


@njit
def check_action(tiles, occupant, piece_field, piece_facing, player, turns_left, ply, outcome, rng, action):
    """Why ``action`` is illegal for the actor of game 0 (LEGAL if it is not)."""
    p = player[0]
    pass_action = piece_field.shape[2] * ACTIONS_PER_PIECE
    if action != pass_action:
        return illegal_code(tiles, occupant, piece_field, piece_facing, 0, p, action)
    for move in range(pass_action):
        if illegal_code(tiles, occupant, piece_field, piece_facing, 0, p, move) == LEGAL:
            return PASS_WHILE_ABLE
    return LEGAL


@njit_parallel
def vec_observe(
    tiles, occupant, piece_field, piece_facing, player, turns_left, ply, outcome, rng, obs, mask, player_out
):
    flat = obs.reshape((obs.shape[0], obs.size // obs.shape[0]))
    for i in prange(tiles.shape[0]):
        p = player[i]
        player_out[i] = p
        write_mask(tiles, occupant, piece_field, piece_facing, i, p, mask, i)
        write_observation(tiles, occupant, piece_field, piece_facing, turns_left, i, p, flat, i)


@njit_parallel
def vec_step(
    tiles,
    occupant,
    piece_field,
    piece_facing,
    player,
    turns_left,
    ply,
    outcome,
    rng,
    actions,
    max_plies,
    opening_field,
    opening_facing,
    obs,
    mask,
    rewards,
    terminated,
    truncated,
    player_out,
):
    """Step every game; a finished game restarts from the opening at once
    (its rewards and flags are reported, its new first position observed)."""
    n = tiles.shape[0]
    bad = first_illegal(actions, mask)
    if bad >= 0:
        return bad
    flat = obs.reshape((n, obs.size // n))
    for i in prange(n):
        if actions[i] == SKIP:
            skip_game(i, rewards, terminated, truncated)
            continue
        code = play(
            tiles,
            occupant,
            piece_field,
            piece_facing,
            player,
            turns_left,
            ply,
            outcome,
            i,
            actions[i],
            max_plies,
            rewards,
        )
        result = code & 3
        terminated[i] = result == TERMINATED
        truncated[i] = result == TRUNCATED
        if result != ONGOING:
            reset_game(
                tiles,
                occupant,
                piece_field,
                piece_facing,
                player,
                turns_left,
                ply,
                outcome,
                i,
                opening_field,
                opening_facing,
            )
        p = player[i]
        player_out[i] = p
        write_mask(tiles, occupant, piece_field, piece_facing, i, p, mask, i)
        write_observation(tiles, occupant, piece_field, piece_facing, turns_left, i, p, flat, i)
    return -1
