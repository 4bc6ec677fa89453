"""A batched checker for Azacru playouts: an independent reference model of
one step, written from the rule book and the env documentation, compared
with what the vector env did, for every game of the batch, after every step.

The reference re-derives everything the step should do (where the piece
lands, how it faces, which tiles change, whether the piece is taken off,
the final round, the end of the game, the rewards, the observation planes)
from the position *before* the step, and checks every action of the mask
against ``azacru_env.kernels.move_code`` (the rules' move validator, which
is independent of ``mark_moves``). It shares no code with the kernels beyond
``move_code`` and ``ACTIONS_PER_PIECE``; directions and the action layout
are spelled out again here from the documentation.

Everything is plain loops over numpy arrays, so it also runs as Python under
``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import numpy as np

from azacru_env.kernels import ACTIONS_PER_PIECE, LEGAL, move_code
from azgames.core.jit import njit

# Compass facings clockwise from north: N NE E SE S SW W NW (env docstring).
EAST = np.array([0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)
NORTH = np.array([1, 1, 0, -1, -1, -1, 0, 1], dtype=np.int64)
# turn / twist 0, 1, 2: none, 45 degrees left (anticlockwise), 45 degrees right.
ROTATE = np.array([0, -1, 1], dtype=np.int64)

ONGOING = 0

OK = 0
E_BOTH_FLAGS = 1
E_PIECES_INCREASED = 2
E_TILE_NEUTRALISED = 3
E_MARKED_DECREASED = 4
E_TILE = 5
E_PIECE_FIELD = 6
E_PIECE_FACING = 7
E_PLAYER = 8
E_TURNS_LEFT = 9
E_PLY = 10
E_OUTCOME = 11
E_TERMINATED = 12
E_TRUNCATED = 13
E_REWARD = 14
E_NOT_OPENING = 15
E_PLAYER_OUT = 16
E_RANGE = 17
E_OCCUPANT_TO_PIECE = 18
E_PIECE_TO_OCCUPANT = 19
E_TILE_UNDER_PIECE = 20
E_MASK_MOVE = 21
E_MASK_PASS = 22
E_OBSERVATION = 23
E_GAME_TOO_LONG = 24

MESSAGES = {
    E_BOTH_FLAGS: "terminated and truncated at once",
    E_PIECES_INCREASED: "a player has more pieces on the board than before the step (detail: player)",
    E_TILE_NEUTRALISED: "a coloured tile turned neutral (detail: field)",
    E_MARKED_DECREASED: "the number of non-neutral tiles decreased",
    E_TILE: "a tile differs from the reference step (detail: field)",
    E_PIECE_FIELD: "a piece's field differs from the reference step (detail: player * 4 + slot)",
    E_PIECE_FACING: "a piece's facing differs from the reference step (detail: player * 4 + slot)",
    E_PLAYER: "the next player is not the next in turn order",
    E_TURNS_LEFT: "turns_left differs from the final-round rule (detail: expected)",
    E_PLY: "state.ply differs from the number of steps played in this game (detail: expected)",
    E_OUTCOME: "an unfinished game's state.outcome is not ONGOING",
    E_TERMINATED: "terminated differs from the final-round rule (detail: expected)",
    E_TRUNCATED: "truncated differs from the turn limit (detail: expected)",
    E_REWARD: "a reward differs from the reference (detail: player)",
    E_NOT_OPENING: "a finished game did not restart from the opening (detail: what)",
    E_PLAYER_OUT: "the returned player differs from state.player",
    E_RANGE: "a state value is out of its range (detail: what)",
    E_OCCUPANT_TO_PIECE: "occupant names a piece that is elsewhere (detail: field)",
    E_PIECE_TO_OCCUPANT: "a piece's field does not name it as occupant (detail: player * 4 + slot)",
    E_TILE_UNDER_PIECE: "a piece stands on a tile that is neither its owner's nor the neutral tile "
    "of its opening field (detail: player * 4 + slot)",
    E_MASK_MOVE: "mask disagrees with move_code (detail: action)",
    E_MASK_PASS: "pass is masked wrongly: legal exactly when no move is (detail: mask value)",
    E_OBSERVATION: "an observation plane differs from the documentation (detail: field * 100 + plane)",
    E_GAME_TOO_LONG: "a game ran past max_turns",
}


@njit
def _sign(x):
    if x > 0:
        return 1
    if x < 0:
        return -1
    return 0


@njit
def _check_position(
    i,
    tiles,
    occupant,
    piece_field,
    piece_facing,
    player,
    turns_left,
    ply,
    obs,
    mask,
    player_out,
    opening_field,
    max_turns,
):
    """Game ``i``'s position is consistent, and its mask and observation are right."""
    num_players = piece_field.shape[1]
    num_pieces = piece_field.shape[2]
    pass_action = num_pieces * ACTIONS_PER_PIECE
    v = int(player[i])
    if player_out[i] != v:
        return E_PLAYER_OUT, int(player_out[i])
    if v < 0 or v >= num_players:
        return E_RANGE, 1
    if not (turns_left[i] == -1 or 1 <= turns_left[i] <= num_players - 1):
        return E_RANGE, 2
    if ply[i] >= max_turns or ply[i] < 0:
        return E_RANGE, 3
    for f in range(81):
        t = tiles[i, f]
        if t < -1 or t >= num_players:
            return E_RANGE, 4
        o = occupant[i, f]
        if o >= 0:
            q = o // 4
            k = o % 4
            if q >= num_players or k >= num_pieces or piece_field[i, q, k] != f:
                return E_OCCUPANT_TO_PIECE, f
        elif o != -1:
            return E_RANGE, 5
    for q in range(num_players):
        for k in range(num_pieces):
            f = piece_field[i, q, k]
            if f < -1 or f > 80:
                return E_RANGE, 6
            if f < 0:
                continue
            if piece_facing[i, q, k] < 0 or piece_facing[i, q, k] > 7:
                return E_RANGE, 7
            if occupant[i, f] != q * 4 + k:
                return E_PIECE_TO_OCCUPANT, q * 4 + k
            # A piece's tile is its owner's once it has moved (landing colours
            # it, and nothing recolours a field with a piece on it); before its
            # first move it stands on the neutral tile of its opening field.
            t = tiles[i, f]
            if not (t == q or (t == -1 and f == opening_field[q, k])):
                return E_TILE_UNDER_PIECE, q * 4 + k

    # ---------------------------------------------------------- mask
    any_move = False
    for act in range(pass_action):
        legal = move_code(tiles, occupant, piece_field, piece_facing, i, v, act) == LEGAL
        if legal:
            any_move = True
        if (mask[i, act] != 0) != legal:
            return E_MASK_MOVE, act
    if (mask[i, pass_action] != 0) == any_move:
        return E_MASK_PASS, int(mask[i, pass_action])

    # ---------------------------------------------------------- observation
    # Planes (env docstring): own piece per slot; then per player, viewer
    # first, its tiles and its pieces' facing as east and north components;
    # then the final-round flag.
    base = num_pieces
    for f in range(81):
        y = f // 9
        x = f % 9
        for k in range(num_pieces):
            want = 1 if piece_field[i, v, k] == f else 0
            if obs[i, k, y, x] != want:
                return E_OBSERVATION, f * 100 + k
        o = occupant[i, f]
        for q in range(num_players):
            who = (v + q) % num_players
            c = base + 3 * q
            want_tile = 1 if tiles[i, f] == who else 0
            want_e = 0
            want_n = 0
            if o >= 0 and o // 4 == who:
                fd = piece_facing[i, who, o % 4]
                want_e = EAST[fd]
                want_n = NORTH[fd]
            if obs[i, c, y, x] != want_tile:
                return E_OBSERVATION, f * 100 + c
            if obs[i, c + 1, y, x] != want_e:
                return E_OBSERVATION, f * 100 + c + 1
            if obs[i, c + 2, y, x] != want_n:
                return E_OBSERVATION, f * 100 + c + 2
        want_final = 1 if turns_left[i] >= 0 else 0
        if obs[i, base + 3 * num_players, y, x] != want_final:
            return E_OBSERVATION, f * 100 + base + 3 * num_players
    return OK, 0


@njit
def _check_game(
    i,
    prev_tiles,
    prev_occupant,
    prev_field,
    prev_facing,
    prev_player,
    prev_turns_left,
    tiles,
    occupant,
    piece_field,
    piece_facing,
    player,
    turns_left,
    ply,
    outcome,
    actions,
    obs,
    mask,
    rewards,
    terminated,
    truncated,
    player_out,
    game_len,
    opening_field,
    opening_facing,
    max_turns,
    scratch,
):
    num_players = piece_field.shape[1]
    num_pieces = piece_field.shape[2]
    pass_action = num_pieces * ACTIONS_PER_PIECE
    finished = terminated[i] or truncated[i]
    if terminated[i] and truncated[i]:
        return E_BOTH_FLAGS, 0
    game_len[i] += 1
    if game_len[i] > max_turns:
        return E_GAME_TOO_LONG, int(game_len[i])

    # ---------------------------------------------------------- reference step
    p = int(prev_player[i])
    a = int(actions[i])
    for f in range(81):
        scratch[f] = prev_tiles[i, f]
    moved_slot = -1
    dest = -1
    new_facing = -1
    removed = False
    if a != pass_action:
        moved_slot = a // ACTIONS_PER_PIECE
        turn = (a // 24) % 3
        dist = (a // 3) % 8 + 1
        twist = a % 3
        f0 = int(prev_field[i, p, moved_slot])
        d = (int(prev_facing[i, p, moved_slot]) + ROTATE[turn]) % 8
        x0 = f0 % 9
        y0 = f0 // 9
        g = (y0 + dist * NORTH[d]) * 9 + x0 + dist * EAST[d]
        connection = dist >= 2 and prev_tiles[i, f0] == p and prev_tiles[i, g] == p
        jump = False
        for s in range(1, dist):
            h = (y0 + s * NORTH[d]) * 9 + x0 + s * EAST[d]
            if prev_occupant[i, h] >= 0:
                jump = True
        if connection and not jump:  # connection change: compulsory
            for s in range(1, dist):
                h = (y0 + s * NORTH[d]) * 9 + x0 + s * EAST[d]
                if scratch[h] >= 0 and scratch[h] != p:
                    removed = True
                scratch[h] = p
        scratch[g] = p
        dest = g
        new_facing = (d + ROTATE[twist]) % 8
    tl = int(prev_turns_left[i])
    if a == pass_action and tl < 0:
        tl = num_players  # the final round: every other player one more turn
    if tl > 0:
        tl -= 1
    expect_end = tl == 0
    expect_trunc = (not expect_end) and game_len[i] >= max_turns
    if terminated[i] != expect_end:
        return E_TERMINATED, int(expect_end)
    if truncated[i] != expect_trunc:
        return E_TRUNCATED, int(expect_trunc)

    # ---------------------------------------------------------- rewards
    for q in range(num_players):
        want = 0.0
        if expect_end:
            own = 0
            for f in range(81):
                if scratch[f] == q:
                    own += 1
            total = 0
            for r in range(num_players):
                if r != q:
                    other = 0
                    for f in range(81):
                        if scratch[f] == r:
                            other += 1
                    total += _sign(own - other)
            want = total / (num_players - 1)
        if abs(rewards[i, q] - want) > 1e-6:
            return E_REWARD, q

    if finished:
        # ------------------------------------------------------ auto-reset
        game_len[i] = 0
        for f in range(81):
            if tiles[i, f] != -1:
                return E_NOT_OPENING, 1
        for q in range(num_players):
            for k in range(num_pieces):
                if piece_field[i, q, k] != opening_field[q, k]:
                    return E_NOT_OPENING, 2
                if piece_facing[i, q, k] != opening_facing[q, k]:
                    return E_NOT_OPENING, 3
        if player[i] != 0:
            return E_NOT_OPENING, 4
        if turns_left[i] != -1:
            return E_NOT_OPENING, 5
        if ply[i] != 0:
            return E_NOT_OPENING, 6
        if outcome[i] != ONGOING:
            return E_NOT_OPENING, 7
    else:
        # ------------------------------------------------------ monotone counts
        for q in range(num_players):
            before = 0
            after = 0
            for k in range(num_pieces):
                if prev_field[i, q, k] >= 0:
                    before += 1
                if piece_field[i, q, k] >= 0:
                    after += 1
            if after > before:
                return E_PIECES_INCREASED, q
        marked_before = 0
        marked_after = 0
        for f in range(81):
            if prev_tiles[i, f] >= 0:
                marked_before += 1
                if tiles[i, f] < 0:
                    return E_TILE_NEUTRALISED, f
            if tiles[i, f] >= 0:
                marked_after += 1
        if marked_after < marked_before:
            return E_MARKED_DECREASED, int(marked_after)
        # ------------------------------------------------------ reference comparison
        for f in range(81):
            if tiles[i, f] != scratch[f]:
                return E_TILE, f
        for q in range(num_players):
            for k in range(num_pieces):
                want_field = prev_field[i, q, k]
                want_facing = prev_facing[i, q, k]
                if q == p and k == moved_slot:
                    want_field = -1 if removed else dest
                    want_facing = new_facing
                if piece_field[i, q, k] != want_field:
                    return E_PIECE_FIELD, q * 4 + k
                # a piece off the board has no facing to check
                if want_field >= 0 and piece_facing[i, q, k] != want_facing:
                    return E_PIECE_FACING, q * 4 + k
        if player[i] != (p + 1) % num_players:
            return E_PLAYER, int(player[i])
        if turns_left[i] != tl:
            return E_TURNS_LEFT, tl
        if ply[i] != game_len[i]:
            return E_PLY, int(game_len[i])
        if outcome[i] != ONGOING:
            return E_OUTCOME, int(outcome[i])

    return _check_position(
        i,
        tiles,
        occupant,
        piece_field,
        piece_facing,
        player,
        turns_left,
        ply,
        obs,
        mask,
        player_out,
        opening_field,
        max_turns,
    )


@njit
def check_batch(
    prev_tiles,
    prev_occupant,
    prev_field,
    prev_facing,
    prev_player,
    prev_turns_left,
    tiles,
    occupant,
    piece_field,
    piece_facing,
    player,
    turns_left,
    ply,
    outcome,
    actions,
    obs,
    mask,
    rewards,
    terminated,
    truncated,
    player_out,
    game_len,
    opening_field,
    opening_facing,
    max_turns,
    err,
    detail,
):
    """Check every game of a vector-env step (see the module docstring).

    ``prev_*``: the state before the step; the rest: after it and what the
    step returned. ``game_len`` counts each slot's steps since its game began
    (updated here). Writes an error code and detail per game; returns the
    number of games that failed."""
    scratch = np.empty(81, np.int64)
    bad = 0
    for i in range(tiles.shape[0]):
        e, d = _check_game(
            i,
            prev_tiles,
            prev_occupant,
            prev_field,
            prev_facing,
            prev_player,
            prev_turns_left,
            tiles,
            occupant,
            piece_field,
            piece_facing,
            player,
            turns_left,
            ply,
            outcome,
            actions,
            obs,
            mask,
            rewards,
            terminated,
            truncated,
            player_out,
            game_len,
            opening_field,
            opening_facing,
            max_turns,
            scratch,
        )
        err[i] = e
        detail[i] = d
        if e != OK:
            bad += 1
    return bad


@njit
def check_positions(
    tiles,
    occupant,
    piece_field,
    piece_facing,
    player,
    turns_left,
    ply,
    obs,
    mask,
    player_out,
    opening_field,
    max_turns,
    err,
    detail,
):
    """Check every game's position, mask and observation (e.g. right after reset)."""
    bad = 0
    for i in range(tiles.shape[0]):
        e, d = _check_position(
            i,
            tiles,
            occupant,
            piece_field,
            piece_facing,
            player,
            turns_left,
            ply,
            obs,
            mask,
            player_out,
            opening_field,
            max_turns,
        )
        err[i] = e
        detail[i] = d
        if e != OK:
            bad += 1
    return bad
