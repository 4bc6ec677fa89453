"""Numba checks of Azimuth games after every step (see test_playouts.py).

They read only the state fields of :class:`azimuth_env.AzimuthState` (whose
meaning is fixed) and a few numbers of the layout, never the rules' kernels,
so they hold however the kernels are written. Written with plain integer
arithmetic on small arrays, so they also run as Python under
``NUMBA_DISABLE_JIT=1``.

``params`` is an int64 array (see :func:`make_params`); the layout's set-up
points, beach landing spots and fifth-raft points come as arrays.
"""

from __future__ import annotations

import numpy as np

from azgames.core.jit import njit

ON_ISLAND = 36
AT_HOME = 37
NOT_PLACED = -1

# params indices
P_RAFTS = 0  # rafts of each colour on the board once set up
P_FIFTH = 1  # 1 if the fifth raft arrives with the beach (4 players)
P_START_ISLAND = 2  # castaways start on the island
P_ISLAND = 3  # the island's mark, -1 without
P_WINDS_OWN = 4
P_WINDS_OTHER = 5
P_COCONUTS = 6
P_MAX_TURNS = 7
P_PASS = 8  # the pass action (the same in every view)
P_CHOOSE = 9  # 1 if the lighthouses are placed by the players (else at set-up)
NUM_PARAMS = 10

OK = 0
E_RANGE = 1
E_STACK_ABOVE = 2
E_RAFT_COUNT = 3
E_CASTAWAY_NOT_PLACED = 4
E_CASTAWAY_ISLAND = 5
E_CASTAWAY_HOME = 6
E_CASTAWAY_TOP = 7
E_CASTAWAYS_SHARE = 8
E_WIND = 9
E_HAND_NEGATIVE = 10
E_WINDS_CONSERVED = 11
E_COCONUTS = 12
E_BEACH_ORDER = 13
E_MASK_EMPTY = 14
E_MASK_PASS = 15
E_PLAYER_OUT = 16
E_BOTH_FLAGS = 17
E_GAME_TOO_LONG = 18
E_REWARD = 19
E_WINNER = 20
E_TRUNCATED = 21
E_NOT_FRESH = 22
E_PLY = 23
E_PLAYER = 24
E_COCONUTS_CHANGED = 25
E_OUTCOME = 26

MESSAGES = {
    E_RANGE: "a state value is out of its range (detail: which)",
    E_STACK_ABOVE: "a stack entry above the height is not -1, or one below it not a colour "
    "(detail: point * 100 + level)",
    E_RAFT_COUNT: "a colour has the wrong number of rafts on the board (detail: colour)",
    E_CASTAWAY_NOT_PLACED: "a castaway is not placed although its beach is, or the layout starts "
    "castaways on the island (detail: player)",
    E_CASTAWAY_ISLAND: "a castaway is on the island of a layout without one (detail: player)",
    E_CASTAWAY_HOME: "a castaway is home in an unfinished game, or the wrong one is home (detail: player)",
    E_CASTAWAY_TOP: "a castaway does not stand on a top raft of its colour (detail: player)",
    E_CASTAWAYS_SHARE: "two castaways stand on one point (detail: point)",
    E_WIND: "a wind's colour, owner or direction is inconsistent, or it is on the island (detail: mark)",
    E_HAND_NEGATIVE: "a player holds a negative number of winds (detail: player * 2 + slot)",
    E_WINDS_CONSERVED: "winds on the board plus winds in hand changed for an (owner, colour) "
    "(detail: player * 2 + slot)",
    E_COCONUTS: "coconuts are negative or above the starting number (detail: player)",
    E_BEACH_ORDER: "beaches are not placed in reverse seat order, or the player to act is not "
    "the next to place one (detail: player)",
    E_MASK_EMPTY: "an unfinished game has no legal action",
    E_MASK_PASS: "pass is legal together with another action",
    E_PLAYER_OUT: "the returned player differs from state.player",
    E_BOTH_FLAGS: "terminated and truncated at once",
    E_GAME_TOO_LONG: "a game ran past max_turns (detail: its length)",
    E_REWARD: "a reward is not 0 without a winner, or not +1 / -1 with one (detail: player)",
    E_WINNER: "the winner's castaway was not on one of its landing spots before the winning "
    "step (detail: player)",
    E_TRUNCATED: "truncated differs from reaching max_turns (detail: expected)",
    E_NOT_FRESH: "a finished game did not restart from a fresh set-up (detail: what)",
    E_PLY: "state.ply differs from the steps played in this game (detail: expected)",
    E_PLAYER: "the next player is not the next in turn (or lighthouse) order (detail: expected)",
    E_COCONUTS_CHANGED: "coconuts changed other than the actor paying one (detail: player)",
    E_OUTCOME: "state.outcome disagrees with the step's flags (detail: outcome)",
}


def make_params(rules) -> np.ndarray:
    layout = rules.layout
    params = np.zeros(NUM_PARAMS, np.int64)
    params[P_RAFTS] = layout.rafts_per_colour
    params[P_FIFTH] = int((layout.beach_raft >= 0).any())
    params[P_START_ISLAND] = int(layout.start_on_island)
    params[P_ISLAND] = layout.island
    params[P_WINDS_OWN] = layout.winds_own
    params[P_WINDS_OTHER] = layout.winds_other
    params[P_COCONUTS] = layout.coconuts
    params[P_MAX_TURNS] = rules.max_turns
    params[P_PASS] = rules.str_to_action(rules.initial_state(np.zeros(1, np.uint64)), "pass")
    params[P_CHOOSE] = int(rules.options["lighthouses"] == "choose")
    return params


@njit
def check_position(
    i,
    stack,
    height,
    wind_colour,
    wind_owner,
    wind_dir,
    hand,
    coconuts,
    castaway,
    beach,
    player,
    ply,
    mask,
    player_out,
    params,
    over,
    landed,
):
    """Game ``i`` is a consistent position. ``over``: the game has just ended
    (the AEC env's last state), with the castaways in bit set ``landed`` home;
    otherwise it goes on and ``mask`` (row ``i``) must offer an action."""
    n = castaway.shape[1]
    depth = stack.shape[2]
    if player_out[i] != player[i]:
        return E_PLAYER_OUT, int(player_out[i])
    p = int(player[i])
    if p < 0 or p >= n:
        return E_RANGE, 1
    if ply[i] < 0 or ply[i] > params[P_MAX_TURNS]:
        return E_RANGE, 2
    # stacks: colours below the height, -1 above
    counts = np.zeros(n, np.int64)
    for pt in range(36):
        h = int(height[i, pt])
        if h < 0 or h > depth:
            return E_RANGE, 100 + pt
        for level in range(depth):
            c = int(stack[i, pt, level])
            if level < h:
                if c < 0 or c >= n:
                    return E_STACK_ABOVE, pt * 100 + level
                counts[c] += 1
            elif c != -1:
                return E_STACK_ABOVE, pt * 100 + level
    # every colour keeps its rafts (the fifth arrives with the beach)
    for c in range(n):
        want = params[P_RAFTS]
        if params[P_FIFTH] == 1 and beach[i, c] < 0:
            want -= 1
        if counts[c] != want:
            return E_RAFT_COUNT, c
    # castaways
    for q in range(n):
        v = int(castaway[i, q])
        if v == NOT_PLACED:
            if params[P_START_ISLAND] == 1 or beach[i, q] >= 0:
                return E_CASTAWAY_NOT_PLACED, q
        elif v == ON_ISLAND:
            if params[P_ISLAND] < 0:
                return E_CASTAWAY_ISLAND, q
        elif v == AT_HOME:
            if not (landed >> q) & 1:
                return E_CASTAWAY_HOME, q
        elif 0 <= v < 36:
            h = int(height[i, v])
            if h == 0 or stack[i, v, h - 1] != q:
                return E_CASTAWAY_TOP, q
            for r in range(q + 1, n):
                if castaway[i, r] == v:
                    return E_CASTAWAYS_SHARE, v
        else:
            return E_RANGE, 200 + q
        if params[P_START_ISLAND] == 0 and beach[i, q] < 0 and v != NOT_PLACED:
            return E_CASTAWAY_NOT_PLACED, q
    for q in range(n):
        if (landed >> q) & 1 and castaway[i, q] != AT_HOME:
            return E_CASTAWAY_HOME, q
    # winds on the board
    for m in range(25):
        c = int(wind_colour[i, m])
        o = int(wind_owner[i, m])
        if c < 0:
            if c != -1 or o != -1:
                return E_WIND, m
            continue
        if c >= n or o < 0 or o >= n or wind_dir[i, m] < 0 or wind_dir[i, m] > 3:
            return E_WIND, m
        if m == params[P_ISLAND]:
            return E_WIND, m
        if n > 2 and c != o:
            return E_WIND, m
    # winds in hand + on the board, per (owner, colour slot)
    for q in range(n):
        for s in range(2):
            held = int(hand[i, q, s])
            if held < 0:
                return E_HAND_NEGATIVE, q * 2 + s
            colour = q if s == 0 else 1 - q
            placed = 0
            if s == 0 or n == 2:
                for m in range(25):
                    if wind_owner[i, m] == q and wind_colour[i, m] == colour:
                        placed += 1
            want = params[P_WINDS_OWN] if s == 0 else params[P_WINDS_OTHER]
            if held + placed != want:
                return E_WINDS_CONSERVED, q * 2 + s
        nuts = int(coconuts[i, q])
        if nuts < 0 or nuts > params[P_COCONUTS]:
            return E_COCONUTS, q
    # beaches: placed from the last seat down; the actor is the next to place one
    for q in range(n):
        if beach[i, q] >= 0:
            for r in range(q + 1, n):
                if beach[i, r] < 0:
                    return E_BEACH_ORDER, q
    if beach[i, p] < 0:
        for r in range(p + 1, n):
            if beach[i, r] < 0:
                return E_BEACH_ORDER, p
    if over:
        return OK, 0
    # the mask offers something, and pass only alone
    legal = 0
    for a in range(mask.shape[1]):
        if mask[i, a] != 0:
            legal += 1
            if legal == 2:
                break
    if legal == 0:
        return E_MASK_EMPTY, 0
    if mask[i, params[P_PASS]] != 0 and legal > 1:
        return E_MASK_PASS, legal
    return OK, 0


@njit
def _landing_spot(beach_spots, b, point):
    for s in range(beach_spots.shape[1]):
        if beach_spots[b, s] == point:
            return True
    return False


@njit
def check_step(
    i,
    prev_castaway,
    prev_beach,
    prev_player,
    prev_coconuts,
    stack,
    height,
    wind_colour,
    wind_owner,
    wind_dir,
    hand,
    coconuts,
    castaway,
    beach,
    player,
    ply,
    outcome,
    mask,
    rewards,
    terminated,
    truncated,
    player_out,
    game_len,
    params,
    setup_points,
    beach_spots,
    beach_raft,
    auto_reset,
):
    """One step of game ``i``: rewards, flags, turn order, coconuts, and the
    position after it (a fresh game when it ended and ``auto_reset``; the
    final position otherwise). ``game_len`` counts the game's steps."""
    n = castaway.shape[1]
    p = int(prev_player[i])
    if terminated[i] and truncated[i]:
        return E_BOTH_FLAGS, 0
    game_len[i] += 1
    if game_len[i] > params[P_MAX_TURNS]:
        return E_GAME_TOO_LONG, int(game_len[i])
    # rewards: zero, except on a landing: +1 to each castaway just home and -1
    # to the others, or zero to all when every castaway landed at once (a
    # draw); each castaway that landed stood on one of its landing spots
    winners = 0
    landed = 0
    for q in range(n):
        r = rewards[i, q]
        if terminated[i] and r == 1.0:
            winners += 1
            landed |= 1 << q
        elif r != 0.0 and not (terminated[i] and r == -1.0):
            return E_REWARD, q
    if terminated[i]:
        draw = winners == 0
        if draw:
            landed = (1 << n) - 1
        for q in range(n):
            if draw and rewards[i, q] != 0.0:
                return E_REWARD, q
            if draw or rewards[i, q] == 1.0:
                v = int(prev_castaway[i, q])
                b = int(prev_beach[i, q])
                if v < 0 or v >= 36 or b < 0 or not _landing_spot(beach_spots, b, v):
                    return E_WINNER, q
    if truncated[i] != (not terminated[i] and game_len[i] == params[P_MAX_TURNS]):
        return E_TRUNCATED, int(not terminated[i] and game_len[i] == params[P_MAX_TURNS])
    finished = terminated[i] or truncated[i]
    if finished and auto_reset:
        # ------------------------------------------------------ a fresh game
        game_len[i] = 0
        if ply[i] != 0:
            return E_NOT_FRESH, 1
        if outcome[i] != 0:
            return E_NOT_FRESH, 2
        for m in range(25):
            if wind_colour[i, m] != -1:
                return E_NOT_FRESH, 3
        for q in range(n):
            if hand[i, q, 0] != params[P_WINDS_OWN] or hand[i, q, 1] != params[P_WINDS_OTHER]:
                return E_NOT_FRESH, 4
            if coconuts[i, q] != params[P_COCONUTS]:
                return E_NOT_FRESH, 5
            b = int(beach[i, q])
            if params[P_CHOOSE] == 1 and b != -1:
                return E_NOT_FRESH, 6
            if params[P_CHOOSE] == 0 and b < 0:
                return E_NOT_FRESH, 7
            if params[P_START_ISLAND] == 1:
                if castaway[i, q] != ON_ISLAND:
                    return E_NOT_FRESH, 8
            elif b >= 0 and castaway[i, q] != beach_raft[b]:
                return E_NOT_FRESH, 9
        placed_all = params[P_CHOOSE] == 0
        if player[i] != (0 if placed_all else n - 1):
            return E_NOT_FRESH, 10
        for k in range(setup_points.shape[0]):
            pt = setup_points[k]
            extra = 0
            if placed_all:
                for q in range(n):
                    if beach[i, q] >= 0 and beach_raft[beach[i, q]] == pt:
                        extra += 1
            if height[i, pt] != 1 + extra:
                return E_NOT_FRESH, 100 + pt
        return check_position(
            i,
            stack,
            height,
            wind_colour,
            wind_owner,
            wind_dir,
            hand,
            coconuts,
            castaway,
            beach,
            player,
            ply,
            mask,
            player_out,
            params,
            False,
            0,
        )
    # ---------------------------------------------------------- the game goes on (or just ended)
    if ply[i] != game_len[i]:
        return E_PLY, int(game_len[i])
    want_outcome = 1 if terminated[i] else 2 if truncated[i] else 0
    if outcome[i] != want_outcome:
        return E_OUTCOME, int(outcome[i])
    if not finished:
        if prev_beach[i, p] < 0:
            want = p - 1 if p > 0 else 0
        else:
            want = (p + 1) % n
        if player[i] != want:
            return E_PLAYER, want
    for q in range(n):
        spent = int(prev_coconuts[i, q]) - int(coconuts[i, q])
        if spent < 0 or spent > 1 or (spent == 1 and q != p):
            return E_COCONUTS_CHANGED, q
    if finished:
        return check_position(
            i,
            stack,
            height,
            wind_colour,
            wind_owner,
            wind_dir,
            hand,
            coconuts,
            castaway,
            beach,
            player,
            ply,
            mask,
            player_out,
            params,
            True,
            landed,
        )
    return check_position(
        i,
        stack,
        height,
        wind_colour,
        wind_owner,
        wind_dir,
        hand,
        coconuts,
        castaway,
        beach,
        player,
        ply,
        mask,
        player_out,
        params,
        False,
        0,
    )


@njit
def check_batch(
    prev_castaway,
    prev_beach,
    prev_player,
    prev_coconuts,
    stack,
    height,
    wind_colour,
    wind_owner,
    wind_dir,
    hand,
    coconuts,
    castaway,
    beach,
    player,
    ply,
    outcome,
    mask,
    rewards,
    terminated,
    truncated,
    player_out,
    game_len,
    params,
    setup_points,
    beach_spots,
    beach_raft,
    err,
    detail,
):
    """Check every game of a vector-env step; writes an error code and detail
    per game and returns the number of games that failed."""
    bad = 0
    for i in range(castaway.shape[0]):
        e, d = check_step(
            i,
            prev_castaway,
            prev_beach,
            prev_player,
            prev_coconuts,
            stack,
            height,
            wind_colour,
            wind_owner,
            wind_dir,
            hand,
            coconuts,
            castaway,
            beach,
            player,
            ply,
            outcome,
            mask,
            rewards,
            terminated,
            truncated,
            player_out,
            game_len,
            params,
            setup_points,
            beach_spots,
            beach_raft,
            True,
        )
        err[i] = e
        detail[i] = d
        if e != OK:
            bad += 1
    return bad


@njit
def check_positions(
    stack,
    height,
    wind_colour,
    wind_owner,
    wind_dir,
    hand,
    coconuts,
    castaway,
    beach,
    player,
    ply,
    mask,
    player_out,
    params,
    err,
    detail,
):
    """Check every game's position (e.g. right after reset)."""
    bad = 0
    for i in range(castaway.shape[0]):
        e, d = check_position(
            i,
            stack,
            height,
            wind_colour,
            wind_owner,
            wind_dir,
            hand,
            coconuts,
            castaway,
            beach,
            player,
            ply,
            mask,
            player_out,
            params,
            False,
            0,
        )
        err[i] = e
        detail[i] = d
        if e != OK:
            bad += 1
    return bad
