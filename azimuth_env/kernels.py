"""Azimuth's rules as numba kernels over batched state arrays.

Every per-game function takes state arrays and a game index ``i``; the batch
entry points at the bottom (game 0 for the AEC env, ranges of games for
the vector env, run on slices by ``azgames.batch.run_in_chunks`` since
``prange`` cannot capture the configuration tuple) are the only ones called
from Python. Board data arrive in one
:class:`azimuth_env.board.Config` argument ``cfg``.

Stacks are stored bottom to top: ``stack[i, p, :height[i, p]]`` are the raft
colours on point ``p``. A castaway always stands on the top raft of its point,
which is of its colour; ``castaway[i, q]`` is that point, or ``ON_ISLAND``,
``AT_HOME`` or ``NOT_PLACED``.

Actions arrive and masks leave in the actor's *view*: turned so that its beach
is at the bottom (``cfg.to_view`` / ``cfg.from_view``); inside, every action
is absolute.
"""

from __future__ import annotations

import numpy as np

from azgames.game import ONGOING, TERMINATED, TRUNCATED, pack_status
from azgames.jit import njit
from azgames.rng import below

from .board import (AT_HOME, CHOOSE, DX, DX8, DY, DY8, FIXED, MARKS, NOT_PLACED, NUM_MARKS,
                    NUM_POINTS, ON_ISLAND, RANDOM, SIZE)

#: Stack levels, counted from the top, that the observation shows one by one.
DEPTH = 3

# Why an action is illegal (see rules.ILLEGAL_REASONS for the words).
LEGAL = 0
SETUP_FIRST = 1
NOT_YOUR_ZONE = 2
BEACH_OVERLAPS = 3
SETUP_OVER = 4
NO_WIND_IN_HAND = 5
MARK_TAKEN = 6
HEAD_TO_HEAD = 7
WINDS_IN_HAND = 8
NO_WIND = 9
NOT_YOUR_WIND = 10
NO_CONTROL = 11
NO_COCONUT = 12
MOVE_OFF_BOARD = 13
MOVE_BLOCKED = 14
NOT_ON_ISLAND = 15
NO_RAFT_TO_BOARD = 16
NOT_IN_SHALLOWS = 17
NOT_ON_RAFT = 18
NO_RAFT_TO_SWIM = 19
PASS_WHILE_ABLE = 20


# ---------------------------------------------------------------- small queries


@njit
def rotation(beach, i, p, layout):
    """Quarter turns clockwise that bring player ``p``'s beach (or, before it
    has one, its default side) to the bottom of its view."""
    b = beach[i, p]
    side = layout.default_side[p] if b < 0 else layout.beach_side[b]
    return (2 - side) % 4


@njit
def castaway_on(castaway, i, point):
    """The player whose castaway stands on ``point``, or -1."""
    for q in range(castaway.shape[1]):
        if castaway[i, q] == point:
            return q
    return -1


@njit
def top_is(stack, height, i, point, colour):
    h = height[i, point]
    return h > 0 and stack[i, point, h - 1] == colour


@njit
def controls(stack, height, i, m, colour):
    """True if a raft of ``colour`` is anywhere in a stack next to mark ``m``."""
    x = m % MARKS
    y = m // MARKS
    for k in range(4):
        pt = (y + k // 2) * SIZE + x + k % 2
        for level in range(height[i, pt]):
            if stack[i, pt, level] == colour:
                return True
    return False


@njit
def head_to_head(wind_colour, wind_dir, i, m, colour, d):
    """True if a wind of ``colour`` on the mark ahead of ``m`` (pointing ``d``) points back at it."""
    x = m % MARKS + DX[d]
    y = m // MARKS + DY[d]
    if x < 0 or x >= MARKS or y < 0 or y >= MARKS:
        return False
    n = y * MARKS + x
    return wind_colour[i, n] == colour and wind_dir[i, n] == (d + 2) % 4


@njit
def beach_free(beach, i, p, b, layout):
    """May player ``p`` put its beach on position ``b``: its zone, and no
    landing spot shared with a beach already placed."""
    if (layout.beach_players[b] >> p) & 1 == 0:
        return False
    for q in range(beach.shape[1]):
        other = beach[i, q]
        if other < 0:
            continue
        for s in range(3):
            spot = layout.beach_spots[b, s]
            if spot < 0:
                continue
            for t in range(3):
                if layout.beach_spots[other, t] == spot:
                    return False
    return True


@njit
def wind_colour_of_slot(p, slot):
    """Slot 0 holds the player's own colour; slot 1 (2 players) the opponent's."""
    return p if slot == 0 else 1 - p


@njit
def move_target(m, k):
    """The mark one step from ``m`` in compass direction ``k``, or -1 off the board."""
    x = m % MARKS + DX8[k]
    y = m // MARKS + DY8[k]
    if x < 0 or x >= MARKS or y < 0 or y >= MARKS:
        return -1
    return y * MARKS + x


@njit
def crossed_point(m, k):
    """The point a diagonal wind move from ``m`` in direction ``k`` passes over."""
    return (m // MARKS + (DY8[k] > 0)) * SIZE + m % MARKS + (DX8[k] > 0)


# ---------------------------------------------------------------- sailing


@njit
def lands(beach, i, q, point, d, layout):
    """True if castaway ``q`` pushed from ``point`` in direction ``d`` reaches its beach."""
    b = beach[i, q]
    if b < 0 or layout.beach_side[b] != d:
        return False
    for s in range(3):
        if layout.beach_spots[b, s] == point:
            return True
    return False


@njit
def sail(stack, height, castaway, beach, i, m, colour, d, layout):
    """The wind on mark ``m`` (``colour``, pointing ``d``) sails the top-most
    raft of its colour at each of its 4 points one leg, with every raft above
    it, all at once. Returns the player whose castaway landed, or -1.

    Rafts sail all together: the two points at the front (in the wind's
    direction) go first, so the two behind find the front points as the
    simultaneous move leaves them. A stack arriving under a castaway slides in
    beneath its raft; one carrying a castaway never joins another castaway;
    one pushed off the board stays, unless that is its castaway's landing.
    """
    mx = m % MARKS
    my = m // MARKS
    lander = -1
    for rank in range(2):
        for lane in range(2):
            if d == 0:
                cx, cy = mx + lane, my + 1 - rank
            elif d == 2:
                cx, cy = mx + lane, my + rank
            elif d == 1:
                cx, cy = mx + 1 - rank, my + lane
            else:
                cx, cy = mx + rank, my + lane
            src = cy * SIZE + cx
            h = height[i, src]
            level = h - 1
            while level >= 0 and stack[i, src, level] != colour:
                level -= 1
            if level < 0:
                continue
            rider = castaway_on(castaway, i, src)
            nx = cx + DX[d]
            ny = cy + DY[d]
            if nx < 0 or nx >= SIZE or ny < 0 or ny >= SIZE:
                if rider == colour and lands(beach, i, rider, src, d, layout):
                    castaway[i, rider] = AT_HOME
                    lander = rider
                continue
            dst = ny * SIZE + nx
            hd = height[i, dst]
            n = h - level
            if castaway_on(castaway, i, dst) >= 0:
                if rider >= 0:
                    continue
                top = stack[i, dst, hd - 1]
                for k in range(n):
                    stack[i, dst, hd - 1 + k] = stack[i, src, level + k]
                stack[i, dst, hd - 1 + n] = top
            else:
                for k in range(n):
                    stack[i, dst, hd + k] = stack[i, src, level + k]
            for k in range(n):
                stack[i, src, level + k] = -1
            height[i, dst] = hd + n
            height[i, src] = level
            if rider >= 0:
                castaway[i, rider] = dst
    return lander


# ---------------------------------------------------------------- legal actions


@njit
def write_mask(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach,
               i, p, cfg, mask, j):
    """Mark every legal action of player ``p`` in game ``i``, in ``p``'s view,
    in row ``j`` of ``mask``. The pass action is marked, alone, when nothing
    else is legal. Returns the number of legal actions other than pass.

    The hot loops are written out in full: numba helper calls taking arrays
    cost reference counting on every call."""
    layout = cfg.layout
    al = cfg.actions
    shallows = layout.shallows
    island = layout.island
    for a in range(mask.shape[1]):
        mask[j, a] = 0
    view = cfg.to_view[rotation(beach, i, p, layout)]
    count = 0
    if beach[i, p] < 0:
        for b in range(layout.beach_side.shape[0]):
            if beach_free(beach, i, p, b, layout):
                mask[j, view[al.beach + b]] = 1
                count += 1
        if count == 0:
            mask[j, view[al.pass_]] = 1
        return count
    here = castaway[i, p]
    if here == ON_ISLAND:
        for k in range(4):
            s = shallows[k]
            h = height[i, s]
            if h > 0 and stack[i, s, h - 1] == p:
                mask[j, view[al.board + k]] = 1
                count += 1
    elif here >= 0 and here < NUM_POINTS:
        for k in range(4):
            if shallows[k] == here:
                mask[j, view[al.home]] = 1
                count += 1
        x = here % SIZE
        y = here // SIZE
        for d in range(4):
            nx = x + DX[d]
            ny = y + DY[d]
            if 0 <= nx < SIZE and 0 <= ny < SIZE:
                t = ny * SIZE + nx
                h = height[i, t]
                if h > 0 and stack[i, t, h - 1] == p:
                    mask[j, view[al.swim + d]] = 1
                    count += 1
    if hand[i, p, 0] + hand[i, p, 1] > 0:
        for s in range(al.slots):
            if hand[i, p, s] == 0:
                continue
            colour = wind_colour_of_slot(p, s)
            for m in range(NUM_MARKS):
                if m == island or wind_colour[i, m] >= 0:
                    continue
                mx = m % MARKS
                my = m // MARKS
                for d in range(4):
                    # Head to head: the wind on the mark ahead has this colour and points back.
                    nx = mx + DX[d]
                    ny = my + DY[d]
                    if 0 <= nx < MARKS and 0 <= ny < MARKS:
                        n = ny * MARKS + nx
                        if wind_colour[i, n] == colour and wind_dir[i, n] == (d + 2) % 4:
                            continue
                    mask[j, view[al.place + (m * 4 + d) * al.slots + s]] = 1
                    count += 1
    else:
        can_control = layout.coconuts == 0 or coconuts[i, p] > 0
        for m in range(NUM_MARKS):
            if wind_colour[i, m] < 0:
                continue
            mx = m % MARKS
            my = m // MARKS
            if wind_owner[i, m] == p:
                mask[j, view[al.turn + m * 2]] = 1
                mask[j, view[al.turn + m * 2 + 1]] = 1
                count += 2
                for k in range(8):
                    tx = mx + DX8[k]
                    ty = my + DY8[k]
                    if tx < 0 or tx >= MARKS or ty < 0 or ty >= MARKS:
                        continue
                    t = ty * MARKS + tx
                    if t == island or wind_colour[i, t] >= 0:
                        continue
                    if k % 2 == 1 and height[i, (my + (DY8[k] > 0)) * SIZE + mx + (DX8[k] > 0)] > 0:
                        continue
                    mask[j, view[al.move + m * 8 + k]] = 1
                    count += 1
            elif can_control:
                near = False
                for k in range(4):
                    pt = (my + k // 2) * SIZE + mx + k % 2
                    for level in range(height[i, pt]):
                        if stack[i, pt, level] == p:
                            near = True
                if near:
                    mask[j, view[al.turn + m * 2]] = 1
                    mask[j, view[al.turn + m * 2 + 1]] = 1
                    count += 2
    if count == 0:
        mask[j, view[al.pass_]] = 1
    return count


@njit
def illegal_code(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach,
                 i, p, a, cfg):
    """Check absolute action ``a`` of player ``p`` from first principles
    (independent of ``write_mask``; pass is checked by the caller)."""
    layout = cfg.layout
    al = cfg.actions
    setup = beach[i, p] < 0
    if a < al.place:
        if not setup:
            return SETUP_OVER
        if (layout.beach_players[a] >> p) & 1 == 0:
            return NOT_YOUR_ZONE
        return LEGAL if beach_free(beach, i, p, a, layout) else BEACH_OVERLAPS
    if setup:
        return SETUP_FIRST
    if a < al.turn:
        k = a - al.place
        s = k % al.slots
        m = k // al.slots // 4
        d = k // al.slots % 4
        if hand[i, p, s] == 0:
            return NO_WIND_IN_HAND
        if m == layout.island or wind_colour[i, m] >= 0:
            return MARK_TAKEN
        if head_to_head(wind_colour, wind_dir, i, m, wind_colour_of_slot(p, s), d):
            return HEAD_TO_HEAD
        return LEGAL
    if a < al.board:
        if hand[i, p, 0] + hand[i, p, 1] > 0:
            return WINDS_IN_HAND
        if a < al.move:
            m = (a - al.turn) // 2
            if wind_colour[i, m] < 0:
                return NO_WIND
            if wind_owner[i, m] == p:
                return LEGAL
            if not controls(stack, height, i, m, p):
                return NO_CONTROL
            if layout.coconuts > 0 and coconuts[i, p] == 0:
                return NO_COCONUT
            return LEGAL
        m = (a - al.move) // 8
        k = (a - al.move) % 8
        if wind_colour[i, m] < 0:
            return NO_WIND
        if wind_owner[i, m] != p:
            return NOT_YOUR_WIND
        t = move_target(m, k)
        if t < 0:
            return MOVE_OFF_BOARD
        if t == layout.island or wind_colour[i, t] >= 0:
            return MARK_TAKEN
        if k % 2 == 1 and height[i, crossed_point(m, k)] > 0:
            return MOVE_BLOCKED
        return LEGAL
    here = castaway[i, p]
    if a < al.home:
        if here != ON_ISLAND:
            return NOT_ON_ISLAND
        if not top_is(stack, height, i, layout.shallows[a - al.board], p):
            return NO_RAFT_TO_BOARD
        return LEGAL
    if here < 0 or here >= NUM_POINTS:
        return NOT_ON_RAFT
    if a == al.home:
        for k in range(4):
            if layout.shallows[k] == here:
                return LEGAL
        return NOT_IN_SHALLOWS
    d = a - al.swim
    x = here % SIZE + DX[d]
    y = here // SIZE + DY[d]
    if x < 0 or x >= SIZE or y < 0 or y >= SIZE or not top_is(stack, height, i, y * SIZE + x, p):
        return NO_RAFT_TO_SWIM
    return LEGAL


# ---------------------------------------------------------------- playing


@njit
def place_beach(stack, height, castaway, beach, i, p, b, layout):
    """Player ``p`` takes beach position ``b``; with 4 players its fifth raft
    goes to the far side, carrying its castaway unless that is on the island."""
    beach[i, p] = b
    raft = layout.beach_raft[b]
    if raft >= 0:
        stack[i, raft, height[i, raft]] = p
        height[i, raft] += 1
        if not layout.start_on_island:
            castaway[i, p] = raft


@njit
def play(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach,
         player, ply, outcome, i, action, cfg, rewards):
    """Play legal ``action`` (in the actor's view) in game ``i`` and pass the
    turn; write this step's rewards into row ``i``. Returns a packed status."""
    layout = cfg.layout
    al = cfg.actions
    num_players = castaway.shape[1]
    p = player[i]
    for q in range(num_players):
        rewards[i, q] = 0.0
    a = cfg.from_view[rotation(beach, i, p, layout), action]
    ply[i] += 1
    if a < al.place:
        place_beach(stack, height, castaway, beach, i, p, a, layout)
        # Play order is the reverse of placement order: the last to place starts.
        player[i] = p - 1 if p > 0 else 0
        return pack_status(ONGOING, False, player[i])
    lander = -1
    if a < al.turn:
        k = a - al.place
        s = k % al.slots
        m = k // al.slots // 4
        d = k // al.slots % 4
        colour = wind_colour_of_slot(p, s)
        hand[i, p, s] -= 1
        wind_colour[i, m] = colour
        wind_owner[i, m] = p
        wind_dir[i, m] = d
        lander = sail(stack, height, castaway, beach, i, m, colour, d, layout)
    elif a < al.move:
        m = (a - al.turn) // 2
        if wind_owner[i, m] != p and layout.coconuts > 0:
            coconuts[i, p] -= 1
        d = (wind_dir[i, m] + (1 if (a - al.turn) % 2 == 0 else 3)) % 4
        wind_dir[i, m] = d
        lander = sail(stack, height, castaway, beach, i, m, wind_colour[i, m], d, layout)
    elif a < al.board:
        m = (a - al.move) // 8
        t = move_target(m, (a - al.move) % 8)
        wind_colour[i, t] = wind_colour[i, m]
        wind_owner[i, t] = wind_owner[i, m]
        wind_dir[i, t] = wind_dir[i, m]
        wind_colour[i, m] = -1
        wind_owner[i, m] = -1
        wind_dir[i, m] = 0
        lander = sail(stack, height, castaway, beach, i, t, wind_colour[i, t], wind_dir[i, t], layout)
    elif a < al.home:
        castaway[i, p] = layout.shallows[a - al.board]
    elif a == al.home:
        castaway[i, p] = ON_ISLAND
    elif a < al.pass_:
        d = a - al.swim
        castaway[i, p] += DY[d] * SIZE + DX[d]
    player[i] = (p + 1) % num_players
    if lander >= 0:
        outcome[i] = TERMINATED
        for q in range(num_players):
            rewards[i, q] = 1.0 if q == lander else -1.0
        return pack_status(TERMINATED, True, player[i])
    if ply[i] >= cfg.max_turns:
        outcome[i] = TRUNCATED
        return pack_status(TRUNCATED, False, player[i])
    return pack_status(ONGOING, False, player[i])


# ---------------------------------------------------------------- observation


@njit
def relative(player, viewer, num_players):
    """Seat of ``player`` counted from ``viewer`` (0: the viewer itself)."""
    q = player - viewer
    return q + num_players * (q < 0)


@njit
def write_observation(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway,
                      beach, player, i, viewer, cfg, obs, j):
    """Planes of game ``i`` from ``viewer``'s side, turned so that its beach is
    at the bottom, into row ``j`` of ``obs`` (an (N, 36 * C) view of the
    (N, 6, 6, C) observations; the env docstring lists the planes)."""
    layout = cfg.layout
    view_points = cfg.view_points
    view_marks = cfg.view_marks
    spots = layout.beach_spots
    n = castaway.shape[1]
    channels = obs.shape[1] // NUM_POINTS
    count_ch = DEPTH * n
    castaway_ch = count_ch + n
    island_castaway_ch = castaway_ch + n
    island_ch = island_castaway_ch + n
    landing_ch = island_ch + 1
    wind_ch = landing_ch + n
    mine_ch = wind_ch + n
    hand_ch = mine_ch + 3
    coconut_ch = hand_ch + 2 * n
    setup_ch = coconut_ch + n
    for c in range(obs.shape[1]):
        obs[j, c] = 0
    r = rotation(beach, i, viewer, layout)
    for pt in range(NUM_POINTS):
        h = np.int64(height[i, pt])
        base = view_points[r, pt] * channels
        for level in range(h):
            q = relative(np.int64(stack[i, pt, h - 1 - level]), viewer, n)
            if level < DEPTH:
                obs[j, base + level * n + q] = 1
            obs[j, base + count_ch + q] += 1
    setup = beach[i, player[i]] < 0
    for player_ in range(n):
        q = relative(player_, viewer, n)
        here = castaway[i, player_]
        if here >= 0 and here < NUM_POINTS:
            obs[j, view_points[r, here] * channels + castaway_ch + q] = 1
        b = beach[i, player_]
        if b >= 0:
            for s in range(3):
                spot = spots[b, s]
                if spot >= 0:
                    obs[j, view_points[r, spot] * channels + landing_ch + q] = 1
        on_island = here == ON_ISLAND
        own = hand[i, player_, 0]
        other = hand[i, player_, 1]
        nuts = coconuts[i, player_]
        for cell in range(NUM_POINTS):  # the planes that hold one number everywhere
            base = cell * channels
            obs[j, base + island_castaway_ch + q] = on_island
            obs[j, base + hand_ch + q] = own
            obs[j, base + hand_ch + n + q] = other
            obs[j, base + coconut_ch + q] = nuts
            if player_ == 0:
                obs[j, base + setup_ch] = setup
    if layout.island >= 0:
        obs[j, view_marks[r, layout.island] * channels + island_ch] = 1
    for m in range(NUM_MARKS):
        colour = wind_colour[i, m]
        if colour < 0:
            continue
        base = view_marks[r, m] * channels
        obs[j, base + wind_ch + relative(np.int64(colour), viewer, n)] = 1
        obs[j, base + mine_ch] = wind_owner[i, m] == viewer
        d = (wind_dir[i, m] + r) % 4
        obs[j, base + mine_ch + 1] = DX[d]
        obs[j, base + mine_ch + 2] = DY[d]


# ---------------------------------------------------------------- set-up


@njit
def reset_game(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach,
               player, ply, outcome, rng, i, cfg):
    """Game ``i`` set up afresh: raft colours shuffled onto the set-up points
    from the game's generator, winds and coconuts in hand; then the lighthouse
    phase, or beaches placed at once when the configuration says so."""
    layout = cfg.layout
    n = castaway.shape[1]
    stack[i, :, :] = -1
    height[i, :] = 0
    wind_colour[i, :] = -1
    wind_owner[i, :] = -1
    wind_dir[i, :] = 0
    points = layout.setup_points
    colours = layout.setup_colours.copy()
    for k in range(points.shape[0]):  # Fisher-Yates, as the face-down shuffle
        pick = k + below(rng, i, points.shape[0] - k)
        c = colours[pick]
        colours[pick] = colours[k]
        stack[i, points[k], 0] = c
        height[i, points[k]] = 1
    for p in range(n):
        hand[i, p, 0] = layout.winds_own
        hand[i, p, 1] = layout.winds_other
        coconuts[i, p] = layout.coconuts
        beach[i, p] = -1
        castaway[i, p] = ON_ISLAND if layout.start_on_island else NOT_PLACED
    ply[i] = 0
    outcome[i] = ONGOING
    player[i] = n - 1
    if cfg.lighthouse_mode == CHOOSE:
        return
    for p in range(n - 1, -1, -1):
        if cfg.lighthouse_mode == FIXED:
            b = cfg.fixed_beaches[p]
        else:
            free = 0
            for b in range(layout.beach_side.shape[0]):
                free += beach_free(beach, i, p, b, layout)
            pick = below(rng, i, free)
            for b in range(layout.beach_side.shape[0]):
                if beach_free(beach, i, p, b, layout):
                    if pick == 0:
                        break
                    pick -= 1
        place_beach(stack, height, castaway, beach, i, p, b, layout)
    player[i] = 0


# ---------------------------------------------------------------- entry points


@njit
def reset_batch(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach,
                player, ply, outcome, rng, cfg):
    for i in range(stack.shape[0]):
        reset_game(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway,
                   beach, player, ply, outcome, rng, i, cfg)


@njit
def step_one(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach,
             player, ply, outcome, rng, action, cfg, obs, mask, rewards):
    """AEC step of game 0: play, then write the next actor's observation and mask."""
    code = play(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach,
                player, ply, outcome, 0, action, cfg, rewards.reshape((1, rewards.size)))
    p = player[0]
    write_observation(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway,
                      beach, player, 0, p, cfg, obs.reshape((1, obs.size)), 0)
    if outcome[0] == ONGOING:
        write_mask(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway,
                   beach, 0, p, cfg, mask.reshape((1, mask.size)), 0)
    else:
        mask[:] = 0
    return code


@njit
def observe_one(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach,
                player, ply, outcome, rng, viewer, cfg, obs, mask):
    """``viewer``'s observation and mask of game 0 (viewer -1: the actor)."""
    p = player[0]
    if viewer < 0:
        viewer = p
    write_observation(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway,
                      beach, player, 0, viewer, cfg, obs.reshape((1, obs.size)), 0)
    if viewer == p and outcome[0] == ONGOING:
        write_mask(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway,
                   beach, 0, p, cfg, mask.reshape((1, mask.size)), 0)
    else:
        mask[:] = 0
    return pack_status(outcome[0], False, p)


@njit
def check_action(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach,
                 player, ply, outcome, rng, action, cfg):
    """Why ``action`` (in the actor's view) is illegal in game 0 (LEGAL if it is not)."""
    p = player[0]
    a = cfg.from_view[rotation(beach, 0, p, cfg.layout), action]
    if a != cfg.actions.pass_:
        return illegal_code(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts,
                            castaway, beach, 0, p, a, cfg)
    for other in range(cfg.actions.pass_):
        if illegal_code(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts,
                        castaway, beach, 0, p, other, cfg) == LEGAL:
            return PASS_WHILE_ABLE
    return LEGAL


@njit
def observe_range(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach,
                  player, ply, outcome, rng, start, stop, cfg, obs, mask, player_out):
    """Observation, mask and actor of games ``start`` to ``stop`` (``obs`` is (N, 36 C))."""
    for i in range(start, stop):
        p = player[i]
        player_out[i] = p
        write_mask(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway,
                   beach, i, p, cfg, mask, i)
        write_observation(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts,
                          castaway, beach, player, i, p, cfg, obs, i)


@njit
def step_range(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach,
               player, ply, outcome, rng, start, stop, actions, cfg, obs, mask, rewards, terminated,
               truncated, player_out):
    """Step games ``start`` to ``stop`` (actions already checked); a finished
    game is set up afresh at once (its rewards and flags are reported, its new
    first position observed)."""
    for i in range(start, stop):
        code = play(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway,
                    beach, player, ply, outcome, i, actions[i], cfg, rewards)
        result = code & 3
        terminated[i] = result == TERMINATED
        truncated[i] = result == TRUNCATED
        if result != ONGOING:
            reset_game(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway,
                       beach, player, ply, outcome, rng, i, cfg)
        p = player[i]
        player_out[i] = p
        write_mask(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway,
                   beach, i, p, cfg, mask, i)
        write_observation(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts,
                          castaway, beach, player, i, p, cfg, obs, i)
