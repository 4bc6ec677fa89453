"""A greedy Azimuth baseline: steer the castaway home.

Heuristic (exactly what :func:`greedy_scores` computes). A position is scored,
for a player ``q``, by ``h(q)`` (:func:`position_cost`): an estimate of the
actions ``q`` still needs to land its castaway, lower is better,

    h = legs + wind_cost

- ``legs``, the castaway on a raft at point ``P``: 1 (the last push, onto the
  beach) plus the legs from ``P`` to the nearest *usable* landing spot of its
  beach (one touching a wind mark that is free or holds a wind of its colour,
  so that a wind can still push it home), counted along orthogonal steps that
  never cross nor end on a point where another castaway stands (a raft
  carrying a castaway cannot sail there). Every spot counts if none is usable
  or free; a castaway walled in by others counts 5 + the plain distance.
  The castaway on the island: the legs of its best raft ``R`` (one of its
  colour; + 2 if that is not on top of its stack) to a point of the shallows,
  + 1 to board, + the legs from there to the nearest landing spot, + 1 to land.
  0 once home; 30 without a beach (or without a raft of its colour).
- ``wind_cost``: the actions, besides the push itself, before the *vehicle*
  (the castaway's raft, or ``R``) can move one leg nearer its target along
  those paths (onto the beach from a landing spot; ``R``: to the shallows,
  where the next action boards it, 0). It is 0 when a swim to a raft of its
  colour does it, and, while winds of its colour are in hand, when a mark from
  which a wind would push the vehicle that way is free (placing one there
  pushes at once). Once all winds are placed: the fewest actions to bring one
  of its own winds of its colour onto such a free mark (a breadth-first search
  of king moves over free marks, a diagonal blocked by a raft on the point it
  crosses, as the rules have it) plus the quarter turns (1 or 2) to blow that
  way, or to turn a wind of its colour already on such a mark (any owner's it
  may turn: coconuts where they are in play; 2 if it already blows that way:
  out and back in). At most 6 (no wind can do it).

For every legal action ``a`` of the player to act, ``a`` is played on a scratch
copy of the position with the rules' own ``azimuth_env.kernels.play``, and so
are plans of the agent's own further actions, as if it moved again (the
others' replies ignored; only actions that sail a raft of its colour, and
castaway actions, are tried: others cannot bring its castaway nearer):

- ``now``: ``h`` after ``a``;
- ``reach``: the least ``h`` at any point of a plan that starts with ``a``,
  a plan landing the castaway with its ``k``-th action counting ``k - 10``;
- ``est``: the least number of actions after ``a`` plus ``h`` then.

Plans are two actions long (``a`` and one more); three when no action's
``reach`` is below ``h`` now (``lookahead=3``, the default: a landing spot
whose only wind mark is taken by a wind of its colour, say, needs the wind
out and back in). The agent plays an action that is first in the order

    (penalty, reach, est, now, -opponent)

where ``opponent`` is the least ``h`` of the other players after ``a`` (leave
them far from home), and breaks the remaining ties uniformly at random with
its own generator. ``penalty`` is 0, 1 for ``THREAT`` (after ``a`` the next
player can land a castaway other than ours with one action; ``threats=False``
skips that look) and 2 for ``LANDS_OPPONENT`` (``a`` itself lands another
castaway, with a wind of that colour): such actions are played only when
nothing else is legal. An action that lands its own castaway (``WINS``) has
the least ``reach`` and is always played. Lighthouse placement is scored by
``now`` alone: a beach whose landing spots are nearest the island's shallows
(with 4 players, its fifth raft) through its best raft.

Measured against random players (``play_match(..., seed=0)``, seats rotating,
default ``max_turns=400``): 2 players, 400 games, 400 wins (95 % Wilson
interval 99.0-100 %), games of 17.6 actions on average (median 15); 3 players
201/201 (25.3 actions); 4 players 200/200 (50.8); 4 players with the island
200/200 (35.7); none truncated. About 7 ms a decision with 2 players (the
placements of phase 1 are many), 2 ms with 4. ``lookahead=1`` (``now`` alone)
still wins every 2-player game but draws 3 of 200 4-player games at the turn
limit, and needs twice the actions there.

:meth:`AzimuthGreedy.act_batch` plays many games of a vector env at once (the
training league's greedy opponent): the same choice, games spread over
numba's threads, its last ties broken with each game's own generator. Timed
by hand on 256 two-player games 30 random plies in (2 cores, another process
busy): about 2.5 ms a decision with the default ``lookahead=3``, 2.1 ms with
2 and 0.25 ms with 1, which ``--league-greedy greedy:lookahead=1`` trains
against.

The agent holds no rules of its own: the legal actions of its plans are the
rules' ``azimuth_env.kernels.write_mask`` (in the actor's view, as
``kernels.play`` takes them; a position is an ``AzimuthState`` of one game),
and the small rule queries (``rotation``, ``top_is``, ``controls``,
``castaway_on``) are the kernels' too. Board data
(shallows, landing spots, beach sides, the island, action numbering and the
view tables) are read from the rules' kernel config ``rules.cfg`` (its
``tables`` at the ``o_*`` offsets), wind moves from ``azimuth_env.board``'s
``MOVE_TARGET`` / ``MOVE_CROSSED``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from azgames.core.agent import BestOfGreedy, agent_rng
from azgames.core.jit import njit, njit_inline, njit_parallel, prange
from azgames.core.rng import below
from azimuth_env.board import (
    AT_HOME,
    DX,
    DY,
    MARKS,
    MOVE_CROSSED,
    MOVE_TARGET,
    NUM_MARKS,
    NUM_POINTS,
    ON_ISLAND,
    SIZE,
)
from azimuth_env.kernels import castaway_on, controls, play, rotation, top_is, write_mask
from azimuth_env.rules import AzimuthRules, AzimuthState

#: ``h`` of a player with nothing to steer (no beach yet, no raft of its colour).
FAR = 30
#: wind_cost when no wind can push the vehicle the right way.
NO_WIND = 6

# Flags per action (greedy_scores' ``flags``).
WINS = 1
LANDS_OPPONENT = 2
THREAT = 4

#: ``reach`` of a plan that lands the castaway with its ``k``-th action: ``k - LANDED``.
LANDED = 10


# ---------------------------------------------------------------- position scoring


@njit
def _distance(pt, targets):
    """Legs from point ``pt`` to the nearest of ``targets`` (points, -1 padded)."""
    x = np.int64(pt) % SIZE
    y = np.int64(pt) // SIZE
    best = 99
    for k in range(targets.shape[0]):
        t = np.int64(targets[k])
        if t < 0:
            continue
        d = abs(x - t % SIZE) + abs(y - t // SIZE)
        if d < best:
            best = d
    return best


@njit
def _has_colour(stack, height, pt, colour):
    for level in range(height[0, pt]):
        if stack[0, pt, level] == colour:
            return True
    return False


@njit
def _blocked(castaway, q, point):
    """True if a castaway other than ``q``'s stands on ``point`` (a raft
    carrying ``q`` cannot sail or swim there)."""
    who = castaway_on(castaway, 0, point)
    return who >= 0 and who != q


@njit
def _usable_spots(wind_colour, q, spots, island):
    """``spots`` less those from which no wind can push ``q`` home now (each
    mark touching it holds a wind of another colour), unless that leaves none."""
    usable = spots.copy()
    left = 0
    for k in range(spots.shape[0]):
        t = spots[k]
        if t < 0:
            continue
        x = t % SIZE
        y = t // SIZE
        ok = False
        for mx in range(x - 1, x + 1):
            for my in range(y - 1, y + 1):
                if 0 <= mx < MARKS and 0 <= my < MARKS:
                    m = my * MARKS + mx
                    if m != island and (wind_colour[0, m] < 0 or wind_colour[0, m] == q):
                        ok = True
        if ok:
            left += 1
        else:
            usable[k] = -1
    return usable if left > 0 else spots


@njit
def _path_distances(castaway, q, targets, blocking, pd):
    """``pd[p]``: legs from point ``p`` to the nearest of ``targets`` (-1
    padded), 99 where there is no way. With ``blocking``, the points other
    castaways stand on cannot be crossed nor reached (unless every target is
    taken: then the targets count anyway)."""
    pd[:] = 99
    queue = np.empty(NUM_POINTS, np.int64)
    tail = 0
    for k in range(targets.shape[0]):
        t = targets[k]
        if t >= 0 and not (blocking and _blocked(castaway, q, t)):
            pd[t] = 0
            queue[tail] = t
            tail += 1
    if tail == 0:
        for k in range(targets.shape[0]):
            t = targets[k]
            if t >= 0:
                pd[t] = 0
                queue[tail] = t
                tail += 1
    head = 0
    while head < tail:
        u = queue[head]
        head += 1
        ux = u % SIZE
        uy = u // SIZE
        for d in range(4):
            nx = ux + DX[d]
            ny = uy + DY[d]
            if nx < 0 or nx >= SIZE or ny < 0 or ny >= SIZE:
                continue
            v = ny * SIZE + nx
            if pd[v] <= pd[u] + 1 or (blocking and _blocked(castaway, q, v)):
                continue
            pd[v] = pd[u] + 1
            queue[tail] = v
            tail += 1


@njit
def _island_legs(stack, height, q, shallows, spots):
    """``(legs, vehicle)`` of a castaway on the island: see the module
    docstring; vehicle -1 without a raft of its colour."""
    best = FAR
    vehicle = -1
    for k in range(4):
        s = shallows[k]
        if s < 0:
            continue
        onward = 2 + _distance(s, spots)
        sx = s % SIZE
        sy = s // SIZE
        for pt in range(NUM_POINTS):
            if not _has_colour(stack, height, pt, q):
                continue
            cost = abs(pt % SIZE - sx) + abs(pt // SIZE - sy) + onward
            if not top_is(stack, height, 0, pt, q):
                cost += 2
            if cost < best:
                best = cost
                vehicle = pt
    return best, vehicle


@njit
def _quarter_turns(direction, d):
    """Turns of 90 degrees (0, 1 or 2) from ``direction`` to ``d``."""
    rot = (np.int64(direction) - d) % 4
    return 1 if rot == 3 else rot


@njit
def _wind_cost(
    stack,
    height,
    wind_colour,
    wind_owner,
    wind_dir,
    hand,
    coconuts,
    q,
    vehicle,
    pd,
    landing_side,
    can_swim,
    island,
    coconut_limit,
):
    """Extra actions before ``vehicle`` can move one leg nearer its targets
    (along ``pd``, see :func:`_path_distances`) or, from a target, towards
    ``landing_side``; see the module docstring."""
    vx = vehicle % SIZE
    vy = vehicle // SIZE
    d0 = pd[vehicle]
    if d0 == 0 and landing_side < 0:  # a raft in the shallows: the castaway boards next
        return 0
    in_hand = np.int64(hand[0, q, 0]) + np.int64(hand[0, q, 1])
    best = NO_WIND + 1
    dist = np.empty(NUM_MARKS, np.int64)
    queue = np.empty(NUM_MARKS, np.int64)
    for d in range(4):
        nx = vx + DX[d]
        ny = vy + DY[d]
        on = 0 <= nx < SIZE and 0 <= ny < SIZE
        if on:
            if pd[ny * SIZE + nx] >= d0:
                continue
            if can_swim and top_is(stack, height, 0, ny * SIZE + nx, q):
                return 0
        elif not (landing_side == d and d0 == 0):
            continue
        # Marks from which a wind blowing d pushes the vehicle that way: the
        # sources of a search, over empty marks, for the nearest own wind.
        tail = 0
        for mx in range(vx - 1, vx + 1):
            for my in range(vy - 1, vy + 1):
                if mx < 0 or my < 0 or mx >= MARKS or my >= MARKS:
                    continue
                if on and not (mx <= nx <= mx + 1 and my <= ny <= my + 1):
                    continue
                m = my * MARKS + mx
                if m == island:
                    continue
                if in_hand > 0:
                    cost = 1 if hand[0, q, 0] > 0 and wind_colour[0, m] < 0 else in_hand + 2
                    if cost < best:
                        best = cost
                    continue
                if wind_colour[0, m] < 0:
                    if tail == 0:
                        dist[:] = 99
                    dist[m] = 0
                    queue[tail] = m
                    tail += 1
                elif wind_colour[0, m] == q and (
                    wind_owner[0, m] == q or coconut_limit == 0 or coconuts[0, q] > 0
                ):
                    rot = _quarter_turns(wind_dir[0, m], d)  # it may be turned (not moved)
                    cost = rot if rot > 0 else 2
                    if cost < best:
                        best = cost
        head = 0
        while head < tail:
            u = queue[head]
            head += 1
            for k in range(8):
                v = MOVE_TARGET[u, k]
                if v < 0 or v == island or dist[v] <= dist[u] + 1:
                    continue
                x = MOVE_CROSSED[u, k]
                if x >= 0 and height[0, x] > 0:
                    continue  # a raft blocks the diagonal (either way)
                dist[v] = dist[u] + 1
                if wind_colour[0, v] < 0:
                    queue[tail] = v
                    tail += 1
                elif wind_colour[0, v] == q and wind_owner[0, v] == q:
                    cost = dist[v] + _quarter_turns(wind_dir[0, v], d)
                    if cost < best:
                        best = cost
    if best > NO_WIND:
        return NO_WIND
    return best - 1


@njit
def position_cost(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach, q, cfg):
    """``h(q)`` of game 0 (see the module docstring)."""
    b = np.int64(beach[0, q])  # int64: see kernels.rotation
    if b < 0:
        return FAR
    here = np.int64(castaway[0, q])
    if here == AT_HOME:
        return 0
    tab = cfg.tables
    spots = tab[cfg.o_beach_spots + b * 3 : cfg.o_beach_spots + b * 3 + 3]
    pd = np.empty(NUM_POINTS, np.int64)
    if 0 <= here < NUM_POINTS:
        # np.bool_ and np.int64 arguments, not literals: one compile serves both calls.
        _path_distances(castaway, q, _usable_spots(wind_colour, q, spots, cfg.island), np.bool_(True), pd)
        legs = 1 + pd[here]
        if pd[here] >= 99:  # walled in by castaways for now
            legs = 5 + _distance(here, spots)
        return legs + _wind_cost(
            stack,
            height,
            wind_colour,
            wind_owner,
            wind_dir,
            hand,
            coconuts,
            q,
            here,
            pd,
            tab[cfg.o_beach_side + b],
            np.bool_(True),
            cfg.island,
            cfg.coconuts,
        )
    if here != ON_ISLAND:
        return FAR
    shallows = tab[cfg.o_shallows : cfg.o_shallows + 4]
    legs, vehicle = _island_legs(stack, height, q, shallows, spots)
    if vehicle < 0:
        return legs
    _path_distances(castaway, q, shallows, np.bool_(False), pd)
    return legs + _wind_cost(
        stack,
        height,
        wind_colour,
        wind_owner,
        wind_dir,
        hand,
        coconuts,
        q,
        vehicle,
        pd,
        np.int64(-1),
        np.bool_(False),
        cfg.island,
        cfg.coconuts,
    )


# ---------------------------------------------------------------- actions


@njit
def _actions(pos, cfg, mask, out):
    """The legal actions of the player to act in position ``pos`` (the rules'
    ``write_mask``, in its view; the pass left out) into ``out``; returns
    their number. ``mask`` is a scratch (1, num_actions) int8 row; the
    actor's beach must be placed."""
    if write_mask(pos, cfg, np.int64(0), mask, np.int64(0)) == 0:
        return 0  # only the pass is marked
    count = 0
    row = mask[0]
    for a in range(row.shape[0]):
        if row[a]:
            out[count] = a
            count += 1
    return count


@njit
def _sails_colour(stack, height, wind_colour, p, a, cfg):
    """False if wind action ``a`` (absolute) of player ``p`` cannot sail a raft
    of colour ``p`` (a wind of another colour, or none of its rafts at the
    mark it acts on); True for castaway actions."""
    if a < cfg.a_place or a >= cfg.a_board:
        return True
    if a < cfg.a_turn:
        k = a - cfg.a_place
        if k % cfg.slots != 0:
            return False
        return controls(stack, height, 0, k // cfg.slots // 4, p)
    if a < cfg.a_move:
        m = (a - cfg.a_turn) // 2
        return wind_colour[0, m] == p and controls(stack, height, 0, m, p)
    m = (a - cfg.a_move) // 8
    t = MOVE_TARGET[m, (a - cfg.a_move) % 8]
    return wind_colour[0, m] == p and controls(stack, height, 0, t, p)


# A position of the search is an AzimuthState of one game (game 0).


@njit
def _copy(src, dst):
    """Position ``src`` into the scratch position ``dst``."""
    dst.stack[:] = src.stack
    dst.height[:] = src.height
    dst.wind_colour[:] = src.wind_colour
    dst.wind_owner[:] = src.wind_owner
    dst.wind_dir[:] = src.wind_dir
    dst.hand[:] = src.hand
    dst.coconuts[:] = src.coconuts
    dst.castaway[:] = src.castaway
    dst.beach[:] = src.beach
    dst.player[:] = src.player
    dst.ply[:] = src.ply
    dst.outcome[:] = src.outcome
    dst.rng[:] = src.rng


@njit
def _scratch(src):
    """A copy of position ``src``."""
    return AzimuthState(
        src.stack.copy(),
        src.height.copy(),
        src.wind_colour.copy(),
        src.wind_owner.copy(),
        src.wind_dir.copy(),
        src.hand.copy(),
        src.coconuts.copy(),
        src.castaway.copy(),
        src.beach.copy(),
        src.player.copy(),
        src.ply.copy(),
        src.outcome.copy(),
        src.rng.copy(),
    )


@njit
def one_game(s, g):
    """Game ``g`` of the batch ``s`` as a position (views of its arrays)."""
    return AzimuthState(
        s.stack[g : g + 1],
        s.height[g : g + 1],
        s.wind_colour[g : g + 1],
        s.wind_owner[g : g + 1],
        s.wind_dir[g : g + 1],
        s.hand[g : g + 1],
        s.coconuts[g : g + 1],
        s.castaway[g : g + 1],
        s.beach[g : g + 1],
        s.player[g : g + 1],
        s.ply[g : g + 1],
        s.outcome[g : g + 1],
        s.rng[g : g + 1],
    )


@njit
def _play(pos, action, cfg, rewards):
    """The rules' ``play`` of ``action`` (in the actor's view) in position ``pos``."""
    return play(pos, cfg, np.int64(0), action, rewards)


@njit
def _h(pos, q, cfg):
    """``h`` of player ``q`` in position ``pos`` (:func:`position_cost`)."""
    return position_cost(
        pos.stack,
        pos.height,
        pos.wind_colour,
        pos.wind_owner,
        pos.wind_dir,
        pos.hand,
        pos.coconuts,
        pos.castaway,
        pos.beach,
        q,
        cfg,
    )


@njit
def _others_home(castaway, me):
    for q in range(castaway.shape[1]):
        if q != me and castaway[0, q] == AT_HOME:
            return True
    return False


@njit
def _someone_at_landing(castaway, beach, me, cfg):
    """True if a castaway other than ``me``'s stands on one of its landing spots."""
    for q in range(castaway.shape[1]):
        b = np.int64(beach[0, q])
        if q == me or b < 0:
            continue
        for s in range(3):
            spot = cfg.tables[cfg.o_beach_spots + b * 3 + s]
            if spot >= 0 and spot == castaway[0, q]:
                return True
    return False


@njit
def _plans(pos, after, me, step, cfg, mask, actions, rewards):
    """``(est, reach)`` of ``me``'s next action from ``pos`` (``me`` to act),
    action ``step`` of the whole plan: ``est`` the least 1 + ``h`` after it,
    ``reach`` the least ``h`` after it, a landing counting ``est`` 1 and
    ``reach`` ``step - LANDED``; ``(99, 99)`` if no action sails a raft of its
    colour (only those are tried, see :func:`_sails_colour`). ``after``,
    ``mask`` and ``actions`` are scratch."""
    est = 99
    reach = 99
    from_view = cfg.o_from_view + rotation(pos.beach, 0, me, cfg) * cfg.num_actions
    count = _actions(pos, cfg, mask, actions)
    for k in range(count):
        if not _sails_colour(
            pos.stack, pos.height, pos.wind_colour, me, cfg.tables[from_view + actions[k]], cfg
        ):
            continue
        _copy(pos, after)
        _play(after, actions[k], cfg, rewards)
        if after.castaway[0, me] == AT_HOME:
            return 1, step - LANDED
        if _others_home(after.castaway, me):
            continue
        h = _h(after, me, cfg)
        est = min(est, 1 + h)
        reach = min(reach, h)
    return est, reach


@njit
def _plans2(pos, after, after2, me, step, cfg, mask, actions, actions2, rewards):
    """As :func:`_plans`, over plans of one or two more actions (``est``: the
    least 1 + min(``h`` after one, ``est`` of the next); numba caches no
    recursive function, so this is written out)."""
    est = 99
    reach = 99
    from_view = cfg.o_from_view + rotation(pos.beach, 0, me, cfg) * cfg.num_actions
    count = _actions(pos, cfg, mask, actions)
    for k in range(count):
        if not _sails_colour(
            pos.stack, pos.height, pos.wind_colour, me, cfg.tables[from_view + actions[k]], cfg
        ):
            continue
        _copy(pos, after)
        _play(after, actions[k], cfg, rewards)
        if after.castaway[0, me] == AT_HOME:
            return 1, step - LANDED
        if _others_home(after.castaway, me):
            continue
        h = _h(after, me, cfg)
        e = h
        if h > 0 and after.outcome[0] == 0:
            after.player[0] = me
            e2, r2 = _plans(after, after2, me, step + 1, cfg, mask, actions2, rewards)
            e = min(e, e2)
            reach = min(reach, r2)
        est = min(est, 1 + e)
        reach = min(reach, h)
    return est, reach


@njit
def greedy_scores(start, cfg, legal, depth, threats, est, reach, now, opponent, flags):
    """Score every action of ``legal`` (in the actor's view) in game 0 (see the
    module docstring): ``est`` and ``reach`` of its plans of up to ``depth``
    actions of the actor's own, ``now`` (``h`` of the actor after it),
    ``opponent`` (least ``h`` of the others after it) and ``flags`` (WINS,
    LANDS_OPPONENT, THREAT; ``threats``: look at the next player's replies).
    Returns ``h`` of the actor now."""
    me = np.int64(start.player[0])
    n = start.castaway.shape[1]
    setup = start.beach[0, me] < 0
    # Scratch positions after each action of a plan, a mask row and action buffers.
    pos = _scratch(start)
    after = _scratch(start)
    after2 = _scratch(start)
    mask = np.zeros((1, cfg.num_actions), np.int8)
    actions = np.empty(cfg.num_actions, np.int64)
    actions2 = np.empty(cfg.num_actions, np.int64)
    rewards = np.zeros((1, n), np.float32)
    for j in range(legal.shape[0]):
        _copy(start, pos)
        _play(pos, legal[j], cfg, rewards)
        flags[j] = 0
        opponent[j] = FAR
        if pos.castaway[0, me] == AT_HOME:
            flags[j] = WINS
            est[j] = 0
            reach[j] = 1 - LANDED
            now[j] = 0
            continue
        if _others_home(pos.castaway, me):
            flags[j] = LANDS_OPPONENT
            est[j] = reach[j] = now[j] = FAR
            continue
        h = _h(pos, me, cfg)
        now[j] = est[j] = reach[j] = h
        for q in range(n):
            if q != me:
                opponent[j] = min(opponent[j], _h(pos, q, cfg))
        if pos.outcome[0] != 0 or setup:  # the game is over (truncated), or beaches are being placed
            continue
        nxt = np.int64(pos.player[0])
        if depth > 1 and h > 0:
            pos.player[0] = me
            if depth == 2:
                e, r = _plans(pos, after, me, np.int64(2), cfg, mask, actions, rewards)
            else:
                e, r = _plans2(pos, after, after2, me, np.int64(2), cfg, mask, actions, actions2, rewards)
            est[j] = min(h, e)
            reach[j] = min(h, r)
            pos.player[0] = nxt
        if threats and _someone_at_landing(pos.castaway, pos.beach, me, cfg):
            reply = after
            count = _actions(pos, cfg, mask, actions)
            for k in range(count):
                _copy(pos, reply)
                _play(reply, actions[k], cfg, rewards)
                if _others_home(reply.castaway, me):
                    flags[j] |= THREAT
                    break
    return _h(start, me, cfg)


@njit
def scores_to_depth(s, cfg, legal, lookahead, threats, est, reach, now, opponent, flags):
    """:func:`greedy_scores` with plans of two actions, or three where no plan
    of two gets nearer home (``lookahead`` 3); returns ``(h, depth)``."""
    depth = min(lookahead, 2)
    while True:
        h = greedy_scores(s, cfg, legal, depth, threats, est, reach, now, opponent, flags)
        if depth >= lookahead or reach.min() < h:
            return h, depth
        depth += 1


@njit
def _penalty(flags):
    if flags & LANDS_OPPONENT:
        return 2
    return 1 if flags & THREAT else 0


@njit
def best_of(est, reach, now, opponent, flags, best):
    """``best[j]``: True for the actions first in the order ``(penalty, reach,
    est, now, -opponent)`` (see the module docstring); returns their number."""
    top = 0
    for j in range(1, est.shape[0]):
        a = (_penalty(flags[j]), reach[j], est[j], now[j], -opponent[j])
        b = (_penalty(flags[top]), reach[top], est[top], now[top], -opponent[top])
        if a < b:
            top = j
    key = (_penalty(flags[top]), reach[top], est[top], now[top], -opponent[top])
    count = 0
    for j in range(est.shape[0]):
        best[j] = (_penalty(flags[j]), reach[j], est[j], now[j], -opponent[j]) == key
        count += best[j]
    return count


@njit_inline
def greedy_action(s, cfg, g, mask_row, lookahead, threats):
    """Game ``g``'s greedy action alone (``mask_row``: its actor's mask), its
    ties from that game's generator, a single legal action played at once: a
    batch's, and a search playout's (``azimuth_env.search.heuristic``)."""
    n = 0
    for a in range(mask_row.shape[0]):
        n += mask_row[a] != 0
    legal = np.empty(n, np.int64)
    n = 0
    for a in range(mask_row.shape[0]):
        if mask_row[a]:
            legal[n] = a
            n += 1
    if n == 1:
        return legal[0]
    est, reach, now, opponent, flags = (
        np.empty(n, np.int64),
        np.empty(n, np.int64),
        np.empty(n, np.int64),
        np.empty(n, np.int64),
        np.empty(n, np.int64),
    )
    scores_to_depth(one_game(s, g), cfg, legal, lookahead, threats, est, reach, now, opponent, flags)
    best = np.empty(n, np.bool_)
    pick = below(s.rng, g, best_of(est, reach, now, opponent, flags, best))
    for j in range(n):
        if best[j]:
            if pick == 0:
                return legal[j]
            pick -= 1
    return legal[0]  # unreachable: best_of marks pick + 1 actions at least


@njit_parallel
def greedy_batch(s, cfg, mask, games, lookahead, threats, out):
    """The greedy action of each game ``games[k]`` of a batch into ``out[k]``
    (``mask``: the actors' action masks), its ties broken with that game's
    generator."""
    for k in prange(games.shape[0]):
        g = games[k]
        out[k] = greedy_action(s, cfg, g, mask[g], lookahead, threats)


# ---------------------------------------------------------------- the agent


class AzimuthGreedy(BestOfGreedy):
    """Steers its castaway home one action at a time (see the module docstring).

    ``seed`` seeds the generator that breaks ties. ``lookahead``: the most
    actions of its own in a plan (1 to 3); with 3, plans of three actions are
    searched only where no plan of two gets nearer home. ``threats``: avoid
    actions after which the next player can land at once.
    """

    name = "greedy"
    game = "azimuth"

    def __init__(
        self, seed: int | np.random.SeedSequence | None = None, lookahead: int = 3, threats: bool = True
    ):
        if lookahead not in (1, 2, 3):
            raise ValueError(f"lookahead={lookahead!r}; choose 1, 2 or 3")
        self.rng = agent_rng(seed)
        self.lookahead = int(lookahead)
        self.threats = bool(threats)

    def evaluate(self, env) -> dict[str, Any]:
        """Per legal action of the player to act (``legal``, in its view):
        ``rank`` (the agent plays one of rank 0, marked by ``best``), ``est``, ``reach``, ``now``,
        ``opponent`` and ``flags`` (see the module docstring), and ``h`` (the
        actor's ``h`` now) and ``depth`` (the plan length searched)."""
        base = env.unwrapped
        rules = base.rules
        if not isinstance(rules, AzimuthRules):
            raise TypeError(f"AzimuthGreedy plays only Azimuth, not {rules.info.name}")
        legal = np.asarray(base.legal_actions(), np.int64)
        k = len(legal)
        est, reach, now, opponent, flags = (np.empty(k, np.int64) for _ in range(5))
        s = base.state
        h, depth = scores_to_depth(
            s,
            rules.cfg,
            legal,
            self.lookahead,
            self.threats,
            est,
            reach,
            now,
            opponent,
            flags,
        )
        penalty = np.where(flags & LANDS_OPPONENT, 2, np.where(flags & THREAT, 1, 0))
        order = np.lexsort((-opponent, now, est, reach, penalty))  # last key first
        keys = np.stack([penalty, reach, est, now, -opponent])
        rank = np.empty(k, np.int64)
        rank[order] = np.cumsum(np.r_[0, (keys[:, order[1:]] != keys[:, order[:-1]]).any(axis=0)])
        best = np.empty(k, np.bool_)
        best_of(est, reach, now, opponent, flags, best)
        return {
            "legal": legal,
            "rank": rank,
            "best": best,
            "est": est,
            "reach": reach,
            "now": now,
            "opponent": opponent,
            "flags": flags,
            "h": int(h),
            "depth": int(depth),
        }

    def best_actions(self, env) -> np.ndarray:
        """The actions the agent chooses among at random (all optimal for it)."""
        e = self.evaluate(env)
        return e["legal"][e["best"]]

    def act_batch(self, rules, state, mask: np.ndarray, games: np.ndarray) -> np.ndarray:
        """The greedy actions of games ``games`` of a vector env's ``state``
        (``mask``: its action masks), computed in parallel, ties broken with
        each game's own generator."""
        if not isinstance(rules, AzimuthRules):
            raise TypeError(f"AzimuthGreedy plays only Azimuth, not {rules.info.name}")
        out = np.empty(len(games), np.int64)
        greedy_batch(
            state,
            rules.cfg,
            mask.view(np.int8),
            np.ascontiguousarray(games, np.int64),
            self.lookahead,
            self.threats,
            out,
        )
        return out

    def __repr__(self) -> str:
        return f"AzimuthGreedy(lookahead={self.lookahead}, threats={self.threats})"
