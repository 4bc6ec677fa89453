"""Azimuth's rules as numba kernels over batched state arrays.

The rules are the five kernels of the core's contract at the bottom
(:mod:`azgames.core.contract`: ``reset_game``, ``play``, ``write_observation``,
``write_mask``, ``illegal_code``), each over the state tuple ``s``
(:class:`azimuth_env.rules.AzimuthState`); the core writes every entry point
from them. They hand the state's arrays to the per-game functions above them,
which take arrays and a game index ``i`` (the co-op mode, :mod:`azimuth_env.coop`,
calls those too). Board data arrive in one :class:`azimuth_env.board.Config`
argument ``cfg``, whose only array is ``cfg.tables`` (read at the ``cfg.o_*``
offsets); fixed neighbour tables (``MOVE_TARGET`` ...) replace edge tests.

Stacks are stored bottom to top: ``stack[i, p, :height[i, p]]`` are the raft
colours on point ``p``. A castaway always stands on the top raft of its point,
which is of its colour; ``castaway[i, q]`` is that point, or ``ON_ISLAND``,
``AT_HOME`` or ``NOT_PLACED``.

Actions arrive and masks leave in the actor's *view*: turned so that its beach
is at the bottom (the ``to_view`` / ``from_view`` tables); inside, every action
is absolute.
"""

from __future__ import annotations

import numpy as np

from azgames.core.game import ONGOING, TERMINATED, TRUNCATED, pack_status
from azgames.core.jit import njit, njit_inline, njit_shared
from azgames.core.rng import below

from .board import (
    AT_HOME,
    CHOOSE,
    DX,
    DY,
    FIXED,
    MARK_AHEAD,
    MARK_CORNER_BITS,
    MARK_CORNERS,
    MARKS,
    MOVE_CROSSED,
    MOVE_TARGET,
    NOT_PLACED,
    NUM_MARKS,
    NUM_POINTS,
    ON_ISLAND,
    POINT_NEIGHBOUR,
    SIZE,
)

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
MODE_CODES = 21  # the co-op mode's reasons (azimuth_env.coop) are numbered from here


# ---------------------------------------------------------------- small queries


@njit
def ix(index):
    """A non-negative index as unsigned: numba then skips its negative-index
    wrap-around test on each access (measured: 15-20% of an observation)."""
    return np.uint64(index)


@njit_inline
def rotation(beach, i, p, cfg):
    """Quarter turns clockwise that bring player ``p``'s beach (or, before it
    has one, its default side) to the bottom of its view."""
    # int64: in plain Python (NUMBA_DISABLE_JIT) int8 + a large offset overflows.
    b = np.int64(beach[i, p])
    tab = cfg.tables
    side = tab[cfg.o_default_side + np.int64(p)] if b < 0 else tab[cfg.o_beach_side + b]
    return (2 - side) % 4


@njit_inline
def castaway_on(castaway, i, point):
    """The player whose castaway stands on ``point``, or -1."""
    for q in range(castaway.shape[1]):
        if castaway[i, q] == point:
            return q
    return -1


@njit_inline
def top_is(stack, height, i, point, colour):
    h = height[i, point]
    return h > 0 and stack[i, point, h - 1] == colour


@njit_inline
def controls(stack, height, i, m, colour):
    """True if a raft of ``colour`` is anywhere in a stack next to mark ``m``."""
    for k in range(4):
        pt = MARK_CORNERS[m, k]
        for level in range(height[i, pt]):
            if stack[i, pt, level] == colour:
                return True
    return False


@njit_inline
def head_to_head(wind_colour, wind_dir, i, m, colour, d):
    """True if a wind of ``colour`` on the mark ahead of ``m`` (pointing ``d``) points back at it."""
    n = MARK_AHEAD[m, d]
    return n >= 0 and wind_colour[i, n] == colour and wind_dir[i, n] == (d + 2) % 4


@njit_inline
def beach_free(beach, i, p, b, cfg):
    """May player ``p`` put its beach on position ``b``: its zone, and no
    landing spot shared with a beach already placed."""
    tab = cfg.tables
    if (tab[cfg.o_beach_players + b] >> p) & 1 == 0:
        return False
    for q in range(beach.shape[1]):
        other = np.int64(beach[i, q])
        if other < 0:
            continue
        for s in range(3):
            spot = tab[cfg.o_beach_spots + b * 3 + s]
            if spot < 0:
                continue
            for t in range(3):
                if tab[cfg.o_beach_spots + other * 3 + t] == spot:
                    return False
    return True


@njit
def wind_colour_of_slot(p, slot):
    """Slot 0 holds the player's own colour; slot 1 (2 players) the opponent's."""
    return p if slot == 0 else 1 - p


# ---------------------------------------------------------------- sailing


@njit_inline
def lands(beach, i, q, point, d, cfg):
    """True if castaway ``q`` pushed from ``point`` in direction ``d`` reaches its beach."""
    b = np.int64(beach[i, q])
    tab = cfg.tables
    if b < 0 or tab[cfg.o_beach_side + b] != d:
        return False
    for s in range(3):
        if tab[cfg.o_beach_spots + b * 3 + s] == point:
            return True
    return False


@njit_inline
def move_part(stack, height, castaway, beach, i, src, level, d, may_land, cfg):
    """Move the rafts of point ``src`` from ``level`` up one leg in direction
    ``d``. Returns the castaway that landed as a bit set (0 if none).

    The part arriving under a castaway slides in beneath its raft; one
    carrying a castaway never joins another castaway; one pushed off the board
    stays, unless (``may_land``) it carries a castaway from one of its landing
    spots towards its beach, whatever moved it: that castaway is home (the
    book's "last push to shore")."""
    h = height[i, src]
    rider = castaway_on(castaway, i, src)
    dst = POINT_NEIGHBOUR[src, d]
    if dst < 0:
        if may_land and rider >= 0 and lands(beach, i, rider, src, d, cfg):
            castaway[i, rider] = AT_HOME
            return 1 << rider
        return 0
    hd = height[i, dst]
    n = h - level
    if castaway_on(castaway, i, dst) >= 0:
        if rider >= 0:
            return 0
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
    return 0


@njit_inline
def sail(stack, height, castaway, beach, i, m, colour, d, cfg):
    """The wind on mark ``m`` (``colour``, pointing ``d``) sails the top-most
    raft of its colour at each of its 4 points one leg, with every raft above
    it, all at once (:func:`move_part`). Returns the castaways that landed as
    a bit set (bit q: player q's), 0 if none.

    Rafts sail all together: the two points at the front (in the wind's
    direction) go first, so the two behind find the front points as the
    simultaneous move leaves them.
    """
    mx = m % MARKS
    my = m // MARKS
    landed = 0
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
            level = height[i, src] - 1
            while level >= 0 and stack[i, src, level] != colour:
                level -= 1
            if level >= 0:
                landed |= move_part(stack, height, castaway, beach, i, src, level, d, True, cfg)
    return landed


# ---------------------------------------------------------------- legal actions


@njit
def write_beach_mask(beach, i, p, cfg, view, row):
    """The lighthouse phase's mask (beach actions come first in the action
    space). Kept out of line: it is rare, and inlined it slowed every mask."""
    count = 0
    tab = cfg.tables
    for b in range(cfg.num_beaches):
        if beach_free(beach, i, p, b, cfg):
            row[tab[view + b]] = 1
            count += 1
    if count == 0:
        row[tab[view + cfg.a_pass]] = 1
    return count


@njit_shared
def legal_mask(
    stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach, i, p, cfg, mask, j
):
    """Mark every legal action of player ``p`` in game ``i``, in ``p``'s view,
    in row ``j`` of ``mask``. The pass action is marked, alone, when nothing
    else is legal. Returns the number of legal actions other than pass."""
    tab = cfg.tables
    island = cfg.island
    row = mask[j]  # a row view: its loops index from 0, which numba can vectorise
    for a in range(row.shape[0]):
        row[a] = 0
    view = cfg.o_to_view + rotation(beach, i, p, cfg) * cfg.num_actions  # tab[view + a]: a in the view
    if beach[i, p] < 0:
        return write_beach_mask(beach, i, p, cfg, view, row)
    count = 0
    here = castaway[i, p]
    if here == ON_ISLAND:
        for k in range(4):
            if top_is(stack, height, i, tab[cfg.o_shallows + k], p):
                row[ix(tab[ix(view + cfg.a_board + k)])] = 1
                count += 1
    elif here >= 0 and here < NUM_POINTS:
        for k in range(4):
            if tab[cfg.o_shallows + k] == here:
                row[ix(tab[ix(view + cfg.a_home)])] = 1
                count += 1
            t = POINT_NEIGHBOUR[here, k]
            if t >= 0 and top_is(stack, height, i, t, p):
                row[ix(tab[ix(view + cfg.a_swim + k)])] = 1
                count += 1
    if hand[i, p, 0] + hand[i, p, 1] > 0:
        slots = cfg.slots
        place = view + cfg.a_place
        for s in range(slots):
            if hand[i, p, s] == 0:
                continue
            colour = wind_colour_of_slot(p, s)
            for m in range(NUM_MARKS):
                if m == island or wind_colour[i, m] >= 0:
                    continue
                for d in range(4):
                    if not head_to_head(wind_colour, wind_dir, i, m, colour, d):
                        row[ix(tab[ix(place + (m * 4 + d) * slots + s)])] = 1
                        count += 1
    else:
        may_control = cfg.coconuts == 0 or coconuts[i, p] > 0
        turn_at = view + cfg.a_turn
        move_at = view + cfg.a_move
        # Is a raft of the player's colour next to another player's wind? With
        # 3-4 players (8-12 such winds) one pass over the points into a bit
        # set beats scanning the 4 corners of each wind (measured: 14% of the mask).
        by_point = may_control and castaway.shape[1] > 2
        mine = np.int64(0)
        if by_point:
            for pt in range(NUM_POINTS):
                h = height[i, pt]
                has = (h > 0) & (stack[i, pt, max(h - 1, 0)] == p)  # top first, as in the observation
                if h > 1:
                    for level in range(h - 1):
                        has |= stack[i, pt, level] == p
                mine |= np.int64(has) << pt
        for m in range(NUM_MARKS):
            present = wind_colour[i, m] >= 0
            own = present & (wind_owner[i, m] == p)
            if by_point:
                turn = own | (present & ((mine & MARK_CORNER_BITS[m]) != 0))
            elif own or not present:
                turn = own
            else:
                near = False
                for k in range(4):
                    pt = ix(MARK_CORNERS[m, k])
                    for level in range(height[i, pt]):
                        near |= stack[i, pt, level] == p
                turn = may_control & near
            row[ix(tab[ix(turn_at + m * 2)])] = turn
            row[ix(tab[ix(turn_at + m * 2 + 1)])] = turn
            count += 2 * turn
            if own:
                for k in range(8):
                    t = MOVE_TARGET[m, k]
                    x = MOVE_CROSSED[m, k]
                    ok = (
                        (t >= 0)
                        & (t != island)
                        & (wind_colour[i, ix(max(t, 0))] < 0)
                        & ((x < 0) | (height[i, ix(max(x, 0))] == 0))
                    )
                    row[ix(tab[ix(move_at + m * 8 + k)])] = ok
                    count += ok
    if count == 0:
        row[ix(tab[ix(view + cfg.a_pass)])] = 1
    return count


@njit
def illegal_absolute(
    stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach, i, p, a, cfg
):
    """Check absolute action ``a`` of player ``p`` from first principles
    (independent of ``write_mask``; pass is checked by the caller)."""
    tab = cfg.tables
    setup = beach[i, p] < 0
    if a < cfg.a_place:
        if not setup:
            return SETUP_OVER
        if (tab[cfg.o_beach_players + a] >> p) & 1 == 0:
            return NOT_YOUR_ZONE
        return LEGAL if beach_free(beach, i, p, a, cfg) else BEACH_OVERLAPS
    if setup:
        return SETUP_FIRST
    if a < cfg.a_turn:
        k = a - cfg.a_place
        s = k % cfg.slots
        m = k // cfg.slots // 4
        d = k // cfg.slots % 4
        if hand[i, p, s] == 0:
            return NO_WIND_IN_HAND
        if m == cfg.island or wind_colour[i, m] >= 0:
            return MARK_TAKEN
        if head_to_head(wind_colour, wind_dir, i, m, wind_colour_of_slot(p, s), d):
            return HEAD_TO_HEAD
        return LEGAL
    if a < cfg.a_board:
        if hand[i, p, 0] + hand[i, p, 1] > 0:
            return WINDS_IN_HAND
        if a < cfg.a_move:
            m = (a - cfg.a_turn) // 2
            if wind_colour[i, m] < 0:
                return NO_WIND
            if wind_owner[i, m] == p:
                return LEGAL
            if not controls(stack, height, i, m, p):
                return NO_CONTROL
            if cfg.coconuts > 0 and coconuts[i, p] == 0:
                return NO_COCONUT
            return LEGAL
        m = (a - cfg.a_move) // 8
        k = (a - cfg.a_move) % 8
        if wind_colour[i, m] < 0:
            return NO_WIND
        if wind_owner[i, m] != p:
            return NOT_YOUR_WIND
        t = MOVE_TARGET[m, k]
        if t < 0:
            return MOVE_OFF_BOARD
        if t == cfg.island or wind_colour[i, t] >= 0:
            return MARK_TAKEN
        if MOVE_CROSSED[m, k] >= 0 and height[i, MOVE_CROSSED[m, k]] > 0:
            return MOVE_BLOCKED
        return LEGAL
    here = castaway[i, p]
    if a < cfg.a_home:
        if here != ON_ISLAND:
            return NOT_ON_ISLAND
        if not top_is(stack, height, i, tab[cfg.o_shallows + a - cfg.a_board], p):
            return NO_RAFT_TO_BOARD
        return LEGAL
    if here < 0 or here >= NUM_POINTS:
        return NOT_ON_RAFT
    if a == cfg.a_home:
        for k in range(4):
            if tab[cfg.o_shallows + k] == here:
                return LEGAL
        return NOT_IN_SHALLOWS
    t = POINT_NEIGHBOUR[here, a - cfg.a_swim]
    if t < 0 or not top_is(stack, height, i, t, p):
        return NO_RAFT_TO_SWIM
    return LEGAL


# ---------------------------------------------------------------- playing


@njit_inline
def place_beach(stack, height, castaway, beach, i, p, b, cfg):
    """Player ``p`` takes beach position ``b``; with 4 players its fifth raft
    goes to the far side, carrying its castaway unless that is on the island."""
    beach[i, p] = b
    raft = cfg.tables[cfg.o_beach_raft + b]
    if raft >= 0:
        stack[i, raft, height[i, raft]] = p
        height[i, raft] += 1
        if not cfg.start_on_island:
            castaway[i, p] = raft


@njit_inline
def act(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach, i, p, a, cfg):
    """Player ``p`` plays legal absolute action ``a`` (no beach action; a pass
    does nothing) in game ``i``. Returns the castaways that landed, a bit set."""
    if a >= cfg.a_board:
        if a < cfg.a_home:
            castaway[i, p] = cfg.tables[cfg.o_shallows + a - cfg.a_board]
        elif a == cfg.a_home:
            castaway[i, p] = ON_ISLAND
        elif a < cfg.a_pass:
            castaway[i, p] = POINT_NEIGHBOUR[castaway[i, p], a - cfg.a_swim]
        return 0
    # A wind action: one call of sail for the three kinds keeps its inlined
    # body once in every kernel (compile time).
    if a < cfg.a_turn:
        k = a - cfg.a_place
        s = k % cfg.slots
        m = k // cfg.slots // 4
        hand[i, p, s] -= 1
        wind_colour[i, m] = wind_colour_of_slot(p, s)
        wind_owner[i, m] = p
        wind_dir[i, m] = k // cfg.slots % 4
    elif a < cfg.a_move:
        m = (a - cfg.a_turn) // 2
        if wind_owner[i, m] != p and cfg.coconuts > 0:
            coconuts[i, p] -= 1
        wind_dir[i, m] = (wind_dir[i, m] + (1 if (a - cfg.a_turn) % 2 == 0 else 3)) % 4
    else:
        src = (a - cfg.a_move) // 8
        m = MOVE_TARGET[src, (a - cfg.a_move) % 8]
        wind_colour[i, m] = wind_colour[i, src]
        wind_owner[i, m] = wind_owner[i, src]
        wind_dir[i, m] = wind_dir[i, src]
        wind_colour[i, src] = -1
        wind_owner[i, src] = -1
        wind_dir[i, src] = 0
    return sail(stack, height, castaway, beach, i, m, wind_colour[i, m], wind_dir[i, m], cfg)


@njit_shared
def play_turn(
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
    i,
    action,
    cfg,
    rewards,
):
    """Play legal ``action`` (in the actor's view) in game ``i`` and pass the
    turn; write this step's rewards into row ``i``. Returns a packed status."""
    num_players = castaway.shape[1]
    p = player[i]
    for q in range(num_players):
        rewards[i, q] = 0.0
    a = cfg.tables[cfg.o_from_view + rotation(beach, i, p, cfg) * cfg.num_actions + action]
    ply[i] += 1
    if a < cfg.a_place:
        place_beach(stack, height, castaway, beach, i, p, a, cfg)
        # Play order is the reverse of placement order: the last to place starts.
        player[i] = p - 1 if p > 0 else 0
        if ply[i] >= cfg.max_turns:
            outcome[i] = TRUNCATED
            return pack_status(TRUNCATED, False, player[i])
        return pack_status(ONGOING, False, player[i])
    landed = act(
        stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach, i, p, a, cfg
    )
    player[i] = (p + 1) % num_players
    if landed:
        # Castaways landed by one wind share the win; all of them: a draw.
        outcome[i] = TERMINATED
        everyone = landed == (1 << num_players) - 1
        for q in range(num_players):
            rewards[i, q] = 0.0 if everyone else (1.0 if (landed >> q) & 1 else -1.0)
        return pack_status(TERMINATED, not everyone, player[i])
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


@njit_shared
def write_planes(
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
    i,
    viewer,
    cfg,
    obs,
    j,
):
    """Planes of game ``i`` from ``viewer``'s side, turned so that its beach is
    at the bottom, into row ``j`` of ``obs`` (an (N, C * 36) view of the
    (N, C, 6, 6) observations; the env docstring lists the planes).

    Channels come first so that the planes holding one number everywhere
    are contiguous runs; winds are written branch-free (an empty mark writes
    zeros into planes that are zero there anyway)."""
    tab = cfg.tables
    n = castaway.shape[1]
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
    row = obs[j]
    # The planes filled below hold one number everywhere: clear only the others.
    row[: island_castaway_ch * NUM_POINTS] = 0
    row[island_ch * NUM_POINTS : hand_ch * NUM_POINTS] = 0
    r = rotation(beach, i, viewer, cfg)
    points = cfg.o_view_points + r * NUM_POINTS  # tab[points + pt]: pt's cell in the view
    marks = cfg.o_view_marks + r * NUM_MARKS
    for pt in range(NUM_POINTS):
        h = np.int64(height[i, pt])
        cell = tab[ix(points + pt)]
        # The top raft branch-free (an empty point writes 0 into a plane that
        # is 0 there anyway): most points hold 0 or 1 raft, and a loop whose
        # length is 0 or 1 at random mispredicts. Deeper rafts are rarer.
        top = relative(max(np.int64(stack[i, pt, max(h - 1, 0)]), 0), viewer, n)
        row[ix(top * NUM_POINTS + cell)] = h > 0
        row[ix((count_ch + top) * NUM_POINTS + cell)] += h > 0
        if h > 1:
            for level in range(1, h):
                q = relative(np.int64(stack[i, pt, h - 1 - level]), viewer, n)
                if level < DEPTH:
                    row[ix((level * n + q) * NUM_POINTS + cell)] = 1
                row[ix((count_ch + q) * NUM_POINTS + cell)] += 1
    for player_ in range(n):
        q = relative(player_, viewer, n)
        here = castaway[i, player_]
        if here >= 0 and here < NUM_POINTS:
            row[ix((castaway_ch + q) * NUM_POINTS + tab[ix(points + here)])] = 1
        b = np.int64(beach[i, player_])
        if b >= 0:
            for s in range(3):
                spot = tab[ix(cfg.o_beach_spots + b * 3 + s)]
                if spot >= 0:
                    row[ix((landing_ch + q) * NUM_POINTS + tab[ix(points + spot)])] = 1
        # This player's planes that hold one number everywhere, in one pass.
        on_island = here == ON_ISLAND
        own = hand[i, player_, 0]
        other = hand[i, player_, 1]
        nuts = coconuts[i, player_]
        at_island = (island_castaway_ch + q) * NUM_POINTS
        at_own = (hand_ch + q) * NUM_POINTS
        at_other = (hand_ch + n + q) * NUM_POINTS
        at_nuts = (coconut_ch + q) * NUM_POINTS
        for cell in range(NUM_POINTS):
            row[ix(at_island + cell)] = on_island
            row[ix(at_own + cell)] = own
            row[ix(at_other + cell)] = other
            row[ix(at_nuts + cell)] = nuts
    row[setup_ch * NUM_POINTS : (setup_ch + 1) * NUM_POINTS] = beach[i, player[i]] < 0
    if cfg.island >= 0:
        row[ix(island_ch * NUM_POINTS + tab[ix(marks + cfg.island)])] = 1
    for m in range(NUM_MARKS):
        colour = np.int64(wind_colour[i, m])
        present = colour >= 0
        cell = tab[ix(marks + m)]
        d = (wind_dir[i, m] + r) & 3
        row[ix((wind_ch + relative(max(colour, 0), viewer, n)) * NUM_POINTS + cell)] = present
        row[ix(mine_ch * NUM_POINTS + cell)] = present & (wind_owner[i, m] == viewer)
        row[ix((mine_ch + 1) * NUM_POINTS + cell)] = present * DX[d]
        row[ix((mine_ch + 2) * NUM_POINTS + cell)] = present * DY[d]


# ---------------------------------------------------------------- set-up


@njit_inline
def setup_sea(
    stack,
    height,
    wind_colour,
    wind_owner,
    wind_dir,
    hand,
    coconuts,
    castaway,
    beach,
    ply,
    outcome,
    rng,
    i,
    cfg,
):
    """Game ``i``'s sea set up afresh: raft colours shuffled onto the set-up
    points from the game's generator, winds and coconuts in hand, no beach."""
    tab = cfg.tables
    stack[i, :, :] = -1
    height[i, :] = 0
    wind_colour[i, :] = -1
    wind_owner[i, :] = -1
    wind_dir[i, :] = 0
    points = tab[cfg.o_setup_points : cfg.o_setup_points + cfg.num_setup]
    colours = tab[cfg.o_setup_colours : cfg.o_setup_colours + cfg.num_setup].copy()
    for k in range(cfg.num_setup):  # Fisher-Yates, as the face-down shuffle
        pick = k + below(rng, i, cfg.num_setup - k)
        c = colours[pick]
        colours[pick] = colours[k]
        stack[i, points[k], 0] = c
        height[i, points[k]] = 1
    for p in range(castaway.shape[1]):
        hand[i, p, 0] = cfg.winds_own
        hand[i, p, 1] = cfg.winds_other
        coconuts[i, p] = cfg.coconuts
        beach[i, p] = -1
        castaway[i, p] = ON_ISLAND if cfg.start_on_island else NOT_PLACED
    ply[i] = 0
    outcome[i] = ONGOING


@njit_inline
def set_up_beach(stack, height, castaway, beach, rng, i, p, cfg):
    """Player ``p``'s beach placed at set-up (``lighthouses`` fixed or random:
    a uniform draw among the positions still free for it)."""
    if cfg.lighthouse_mode == FIXED:
        b = cfg.tables[cfg.o_fixed_beaches + p]
    else:
        free = 0
        for b in range(cfg.num_beaches):
            free += beach_free(beach, i, p, b, cfg)
        pick = below(rng, i, free)
        for b in range(cfg.num_beaches):
            if beach_free(beach, i, p, b, cfg):
                if pick == 0:
                    break
                pick -= 1
    place_beach(stack, height, castaway, beach, i, p, b, cfg)


# ---------------------------------------------------------------- the contract's kernels
# What the core calls (azgames.core.contract): each takes the state tuple ``s``
# and calls the kernel doing the work with int64 indices (the core passes
# int64s; the casts keep one compile of that kernel for any other caller).


@njit
def reset_game(s, cfg, i):
    set_up_game(s, cfg, np.int64(i))


@njit
def set_up_game(s, cfg, i):
    """Game ``i`` set up afresh (:func:`setup_sea`); then the lighthouse
    phase, or beaches placed at once when the configuration says so."""
    stack, height, castaway, beach, rng = s.stack, s.height, s.castaway, s.beach, s.rng
    n = castaway.shape[1]
    setup_sea(
        stack,
        height,
        s.wind_colour,
        s.wind_owner,
        s.wind_dir,
        s.hand,
        s.coconuts,
        castaway,
        beach,
        s.ply,
        s.outcome,
        rng,
        i,
        cfg,
    )
    s.player[i] = n - 1
    if cfg.lighthouse_mode == CHOOSE:
        return
    for p in range(n - 1, -1, -1):
        set_up_beach(stack, height, castaway, beach, rng, i, p, cfg)
    s.player[i] = 0


@njit_shared
def play(s, cfg, i, action, rewards):
    """Play legal ``action`` (in the actor's view) in game ``i``
    (:func:`play_turn`); a packed status."""
    return play_turn(
        s.stack,
        s.height,
        s.wind_colour,
        s.wind_owner,
        s.wind_dir,
        s.hand,
        s.coconuts,
        s.castaway,
        s.beach,
        s.player,
        s.ply,
        s.outcome,
        np.int64(i),
        np.int64(action),
        cfg,
        rewards,
    )


@njit_shared
def write_observation(s, cfg, i, viewer, obs, j):
    """``viewer``'s planes of game ``i`` into row ``j`` of ``obs`` (:func:`write_planes`)."""
    write_planes(
        s.stack,
        s.height,
        s.wind_colour,
        s.wind_owner,
        s.wind_dir,
        s.hand,
        s.coconuts,
        s.castaway,
        s.beach,
        s.player,
        np.int64(i),
        np.int64(viewer),
        cfg,
        obs,
        np.int64(j),
    )


@njit_shared
def write_mask(s, cfg, i, mask, j):
    """The actor's legal actions of game ``i``, in its view, into row ``j``
    of ``mask`` (:func:`legal_mask`); the number of them but pass."""
    return legal_mask(
        s.stack,
        s.height,
        s.wind_colour,
        s.wind_owner,
        s.wind_dir,
        s.hand,
        s.coconuts,
        s.castaway,
        s.beach,
        np.int64(i),
        np.int64(s.player[i]),
        cfg,
        mask,
        np.int64(j),
    )


@njit
def illegal_code(s, cfg, i, action):
    """Why ``action`` (in the actor's view) is illegal in game ``i`` (LEGAL if
    it is not): :func:`illegal_absolute`, and a pass only when nothing else is legal."""
    i = np.int64(i)
    stack, height, wind_colour, wind_owner, wind_dir = (
        s.stack,
        s.height,
        s.wind_colour,
        s.wind_owner,
        s.wind_dir,
    )
    hand, coconuts, castaway, beach = s.hand, s.coconuts, s.castaway, s.beach
    p = np.int64(s.player[i])
    a = cfg.tables[cfg.o_from_view + rotation(beach, i, p, cfg) * cfg.num_actions + action]
    if a != cfg.a_pass:
        return illegal_absolute(
            stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach, i, p, a, cfg
        )
    for other in range(cfg.a_pass):
        if (
            illegal_absolute(
                stack,
                height,
                wind_colour,
                wind_owner,
                wind_dir,
                hand,
                coconuts,
                castaway,
                beach,
                i,
                p,
                other,
                cfg,
            )
            == LEGAL
        ):
            return PASS_WHILE_ABLE
    return LEGAL
