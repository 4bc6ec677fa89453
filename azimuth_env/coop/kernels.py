"""The co-op mode's rules as numba kernels: the round, the Ocean Die and its
effects, over the base game's kernels (:mod:`azimuth_env.kernels`), which
do every sailing, stacking, castaway and landing move.

The state (:class:`azimuth_env.coop.rules.CoopState`) is the base game's
arrays for 4 colours followed by the co-op's fields; ``player`` is the agent
to act (as the core's contract has it), ``colour`` the colour it plays now.
Agents and colours differ with 2-3 players: ``cfg`` (:mod:`.config`) maps
each colour to its agent (``o_controller``), and statuses and rewards speak
of agents. The five kernels of the contract (:mod:`azgames.core.contract`) are at
the bottom; the core writes every entry point from them.
"""

from __future__ import annotations

import numpy as np

from azgames.core.chance import roll_die
from azgames.core.game import DREW, ONGOING, TERMINATED, pack_status
from azgames.core.jit import njit, njit_inline, njit_shared
from azgames.core.rng import below

from ..board import (
    AT_HOME,
    CHOOSE,
    DX,
    DY,
    NUM_MARKS,
    NUM_POINTS,
    POINT_NEIGHBOUR,
)
from ..kernels import (
    DEPTH,
    LEGAL,
    MODE_CODES,
    PASS_WHILE_ABLE,
    SETUP_FIRST,
    act,
    castaway_on,
    illegal_absolute,
    ix,
    legal_mask,
    move_part,
    place_beach,
    relative,
    rotation,
    set_up_beach,
    setup_sea,
    top_is,
    write_planes,
)
from .config import WAVES_BACK_FIRST, WAVES_CHOOSE, WAVES_FRONT_FIRST, base_of

COLOURS = 4

# The Ocean Die's faces, in the order of their draws (0 to 5).
SUNNY, MERMAID, WAVE_AWAY, WAVE_TOWARDS, GUST, TURTLE = range(6)
FACES = 6

# Why an action is illegal, after the base game's codes (rules.ILLEGAL_REASONS).
WAVES_TO_ORDER = MODE_CODES
NOT_A_CANDIDATE = MODE_CODES + 1
NO_WAVES = MODE_CODES + 2
ASLEEP = MODE_CODES + 3
NO_TURTLE = MODE_CODES + 4
TURTLE_AWAY = MODE_CODES + 5
NO_RAFT_TWO_LEGS = MODE_CODES + 6

#: Planes the co-op adds after the base game's ``11 * 4 + 5`` (env docstring).
BASE_PLANES = (DEPTH + 8) * COLOURS + 5
EXTRA_PLANES = 23
NUM_PLANES = BASE_PLANES + EXTRA_PLANES


# ---------------------------------------------------------------- small queries


@njit_inline
def agent_of(cfg, colour):
    return cfg.tables[cfg.o_controller + np.int64(colour)]


@njit_inline
def in_portion(cfg, colour, point):
    """True if ``point`` lies in ``colour``'s ocean portion."""
    return cfg.tables[cfg.o_portion_points + np.int64(colour) * NUM_POINTS + np.int64(point)] != 0


@njit_inline
def roller_of(first, round_, i):
    """The colour that rolls the die at the end of the current round."""
    return (np.int64(first[i]) + np.int64(round_[i]) - 1) % COLOURS


@njit_inline
def turtle_target(stack, height, castaway, turtle, i, p, d, cfg):
    """The point castaway ``p`` reaches swimming two legs ``d`` with the sea
    turtle, or -1 if it may not (no turtle on offer, not on a raft of the
    turtle's portion, no raft of its colour on top there)."""
    here = np.int64(castaway[i, p])
    if turtle[i] < 0 or here < 0 or here >= NUM_POINTS or not in_portion(cfg, turtle[i], here):
        return -1
    mid = POINT_NEIGHBOUR[here, d]
    if mid < 0:
        return -1
    there = POINT_NEIGHBOUR[mid, d]
    if there < 0 or not top_is(stack, height, i, there, p):
        return -1
    return there


# ---------------------------------------------------------------- the waves


@njit_inline
def in_chain(pending, i, point, d):
    """True if the wave candidate on ``point`` moves onto another candidate's
    point, or another moves onto its: their order can change the outcome."""
    ahead = POINT_NEIGHBOUR[point, d]
    behind = POINT_NEIGHBOUR[point, (d + 2) % 4]
    return (ahead >= 0 and pending[i, ahead] != 0) or (behind >= 0 and pending[i, behind] != 0)


@njit_inline
def wave_move(stack, height, castaway, beach, pending, i, point, d, cfg):
    """The candidate at the bottom of ``point`` carries its whole stack one leg
    ``d`` by the base game's rules, never landing anyone; it is resolved."""
    pending[i, point] = 0
    ahead = POINT_NEIGHBOUR[point, d]
    if (
        ahead >= 0
        and height[i, ahead] == 1
        and castaway_on(castaway, i, ahead) >= 0
        and castaway_on(castaway, i, point) < 0
    ):
        # The stack slides in beneath a lone raft carrying a castaway, which is
        # no longer at the bottom: if it was a candidate, it is skipped.
        pending[i, ahead] = 0
    move_part(stack, height, castaway, beach, i, point, 0, d, False, cfg)


@njit_shared
def resolve_waves(stack, height, castaway, beach, pending, i, d, mode, cfg):
    """Move every candidate whose order does not matter, then, unless the
    team chooses (``mode`` WAVES_CHOOSE), the chains in the mode's order.
    Returns how many candidates are left for the team to order (0: done).

    A candidate at the edge the wave blows towards stays whatever comes
    first, so it is resolved at once; the one behind it is then no chain.
    Called, not inlined: it is rare, and inlined at its two call sites it
    made the co-op's play compile twice as long."""
    while True:
        moved = True
        while moved:
            moved = False
            for pt in range(NUM_POINTS):
                if pending[i, pt] != 0 and (POINT_NEIGHBOUR[pt, d] < 0 or not in_chain(pending, i, pt, d)):
                    wave_move(stack, height, castaway, beach, pending, i, pt, d, cfg)
                    moved = True
        left = 0
        pick = -1
        for pt in range(NUM_POINTS):
            if pending[i, pt] != 0:
                left += 1
                ahead = POINT_NEIGHBOUR[pt, d]
                behind = POINT_NEIGHBOUR[pt, (d + 2) % 4]
                if mode == WAVES_FRONT_FIRST and (ahead < 0 or pending[i, ahead] == 0):
                    pick = pt
                elif mode == WAVES_BACK_FIRST and (behind < 0 or pending[i, behind] == 0):
                    pick = pt
        if left == 0 or mode == WAVES_CHOOSE:
            return left
        wave_move(stack, height, castaway, beach, pending, i, pick, d, cfg)


# ---------------------------------------------------------------- the round and the die


@njit_inline
def next_round(colour, first, round_, turn, i):
    round_[i] += 1
    turn[i] = 0
    colour[i] = first[i]


@njit_inline
def ocean(
    stack,
    height,
    wind_colour,
    wind_dir,
    castaway,
    beach,
    colour,
    rng,
    first,
    round_,
    turn,
    face,
    rolled,
    asleep,
    turtle,
    wave,
    pending,
    forced,
    i,
    cfg,
):
    """The end of a round: last round's mermaid and turtle expire, the roller
    rolls the Ocean Die, its face acts; then the next round starts, unless the
    team must first order the waves (``wave[i]`` set, the roller to act)."""
    for q in range(COLOURS):
        asleep[i, q] = 0
    turtle[i] = -1
    roller = roller_of(first, round_, i)
    f = roll_die(rng, forced, i, FACES)
    face[i] = f
    rolled[i] = f
    tab = cfg.tables
    if f == MERMAID:
        for q in range(COLOURS):
            here = np.int64(castaway[i, q])
            if 0 <= here < NUM_POINTS and in_portion(cfg, roller, here):
                asleep[i, q] = 1
    elif f == WAVE_AWAY or f == WAVE_TOWARDS:
        side = tab[cfg.o_default_side + roller]  # the direction from its landing spots to its beach
        d = side if f == WAVE_TOWARDS else (side + 2) % 4
        for pt in range(NUM_POINTS):
            pending[i, pt] = height[i, pt] > 0 and stack[i, pt, 0] == roller
        if resolve_waves(stack, height, castaway, beach, pending, i, d, cfg.wave_mode, cfg) > 0:
            wave[i] = d
            colour[i] = roller
            return
    elif f == GUST:
        opposite = (roller + 2) % COLOURS
        for m in range(NUM_MARKS):
            c = np.int64(wind_colour[i, m])
            if c == roller or c == opposite:
                if tab[cfg.o_portion_marks + c * NUM_MARKS + m] != 0:
                    wind_dir[i, m] = (wind_dir[i, m] + 2) % 4
    elif f == TURTLE:
        turtle[i] = roller
    next_round(colour, first, round_, turn, i)


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
    colour,
    ply,
    outcome,
    rng,
    first,
    round_,
    turn,
    face,
    rolled,
    asleep,
    turtle,
    wave,
    pending,
    forced,
    i,
    action,
    cfg,
    rewards,
):
    """Play legal ``action`` (in the actor's view) of the colour to act
    (``colour[i]``) in game ``i``: a lighthouse, a colour's turn (then, after
    the round's fourth, the die), or one move of the waves' order. Writes
    every agent's reward into row ``i``; returns a packed status naming the
    next agent."""
    p = np.int64(colour[i])
    for q in range(cfg.num_agents):
        rewards[i, q] = 0.0
    rolled[i] = -1
    a = cfg.tables[cfg.o_from_view + rotation(beach, i, p, cfg) * cfg.num_actions + action]
    ply[i] += 1
    if wave[i] >= 0:
        wave_move(stack, height, castaway, beach, pending, i, a - cfg.a_wave, wave[i], cfg)
        if (
            resolve_waves(stack, height, castaway, beach, pending, i, np.int64(wave[i]), cfg.wave_mode, cfg)
            == 0
        ):
            wave[i] = -1
            next_round(colour, first, round_, turn, i)
        return pack_status(ONGOING, False, agent_of(cfg, colour[i]))
    if a < cfg.a_place:
        place_beach(stack, height, castaway, beach, i, p, a, cfg)
        nxt = (p + 1) % COLOURS
        if beach[i, nxt] >= 0:  # placement went round from the first colour
            round_[i] = 1
            turn[i] = 0
            colour[i] = first[i]
        else:
            colour[i] = nxt
        return pack_status(ONGOING, False, agent_of(cfg, colour[i]))
    if a >= cfg.a_turtle:
        d = a - cfg.a_turtle
        castaway[i, p] = POINT_NEIGHBOUR[POINT_NEIGHBOUR[castaway[i, p], d], d]
        turtle[i] = -1
    else:
        act(stack, height, wind_colour, wind_owner, wind_dir, hand, coconuts, castaway, beach, i, p, a, cfg)
    home = 0
    for q in range(COLOURS):
        home += castaway[i, q] == AT_HOME
    if home == COLOURS:
        outcome[i] = TERMINATED
        for q in range(cfg.num_agents):
            rewards[i, q] = 1.0
        return pack_status(TERMINATED, True, agent_of(cfg, p))
    turn[i] += 1
    if turn[i] < COLOURS:
        colour[i] = (p + 1) % COLOURS
        return pack_status(ONGOING, False, agent_of(cfg, colour[i]))
    if round_[i] >= cfg.rounds:  # the last round's die is not rolled: it could land no one
        outcome[i] = TERMINATED
        for q in range(cfg.num_agents):
            rewards[i, q] = -1.0
        return pack_status(TERMINATED, True, agent_of(cfg, p))
    ocean(
        stack,
        height,
        wind_colour,
        wind_dir,
        castaway,
        beach,
        colour,
        rng,
        first,
        round_,
        turn,
        face,
        rolled,
        asleep,
        turtle,
        wave,
        pending,
        forced,
        i,
        cfg,
    )
    return pack_status(ONGOING, False, agent_of(cfg, colour[i]))


# ---------------------------------------------------------------- legal actions


@njit_inline
def finish_mask_coop(stack, height, castaway, beach, turtle, wave, asleep, pending, i, p, cfg, row, count):
    """The co-op's mask of colour ``p`` in game ``i`` made from the base
    game's in ``row`` (``count``: its legal actions but pass): only the wave
    choices while waves are ordered; else the base game's less castaway
    actions while asleep, plus the turtle swims. Returns the number of legal
    actions other than pass."""
    tab = cfg.tables
    view = cfg.o_to_view + rotation(beach, i, p, cfg) * cfg.num_actions
    if wave[i] >= 0:
        row[:] = 0
        count = 0
        for pt in range(NUM_POINTS):
            if pending[i, pt] != 0:
                row[ix(tab[ix(view + cfg.a_wave + pt)])] = 1
                count += 1
        return count
    if beach[i, p] < 0:
        return count
    if asleep[i, p] != 0:
        for a in range(cfg.a_board, cfg.a_pass):
            v = ix(tab[ix(view + a)])
            count -= row[v]
            row[v] = 0
    elif turtle[i] >= 0:
        for d in range(4):
            if turtle_target(stack, height, castaway, turtle, i, p, d, cfg) >= 0:
                row[ix(tab[ix(view + cfg.a_turtle + d)])] = 1
                count += 1
    row[ix(tab[ix(view + cfg.a_pass)])] = count == 0
    return count


@njit
def illegal_absolute_coop(
    stack,
    height,
    wind_colour,
    wind_owner,
    wind_dir,
    hand,
    coconuts,
    castaway,
    beach,
    turtle,
    wave,
    asleep,
    pending,
    i,
    p,
    a,
    cfg,
):
    """Why absolute action ``a`` of colour ``p`` is illegal (LEGAL if it is
    not), from the rules rather than the mask; a pass outside the waves'
    order is checked by the caller."""
    if wave[i] >= 0:
        if a < cfg.a_wave:
            return WAVES_TO_ORDER
        return LEGAL if pending[i, a - cfg.a_wave] != 0 else NOT_A_CANDIDATE
    if a >= cfg.a_wave:
        return NO_WAVES
    castaway_action = cfg.a_board <= a < cfg.a_pass or a >= cfg.a_turtle
    if castaway_action and beach[i, p] >= 0 and asleep[i, p] != 0:
        return ASLEEP
    if a >= cfg.a_turtle:
        if beach[i, p] < 0:
            return SETUP_FIRST
        if turtle[i] < 0:
            return NO_TURTLE
        here = np.int64(castaway[i, p])
        if here < 0 or here >= NUM_POINTS or not in_portion(cfg, turtle[i], here):
            return TURTLE_AWAY
        if turtle_target(stack, height, castaway, turtle, i, p, a - cfg.a_turtle, cfg) < 0:
            return NO_RAFT_TWO_LEGS
        return LEGAL
    return illegal_absolute(
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
        a,
        base_of(cfg),
    )


# ---------------------------------------------------------------- observation


@njit_inline
def write_coop_planes(
    castaway,
    beach,
    first,
    round_,
    turn,
    face,
    asleep,
    turtle,
    wave,
    pending,
    i,
    viewer,
    cfg,
    obs,
    j,
):
    """The co-op's planes of game ``i`` from colour ``viewer``'s side (the env
    docstring lists them), after the base game's in row ``j`` of ``obs``."""
    tab = cfg.tables
    row = obs[j]
    base = BASE_PLANES * NUM_POINTS
    row[base:] = 0
    r = rotation(beach, i, viewer, cfg)
    points = cfg.o_view_points + r * NUM_POINTS
    mine = agent_of(cfg, viewer)
    for q in range(COLOURS):
        rel = relative(q, viewer, COLOURS)
        if agent_of(cfg, q) == mine:
            row[base + rel * NUM_POINTS : base + (rel + 1) * NUM_POINTS] = 1
        here = np.int64(castaway[i, q])
        if here == AT_HOME:
            row[base + (4 + rel) * NUM_POINTS : base + (5 + rel) * NUM_POINTS] = 1
        elif asleep[i, q] != 0 and 0 <= here < NUM_POINTS:
            row[ix(base + 8 * NUM_POINTS + tab[ix(points + here)])] = 1
    # The portions' planes: rare loops guarded, each a pass over the points.
    if turtle[i] >= 0:
        for pt in range(NUM_POINTS):
            if in_portion(cfg, turtle[i], pt):
                row[ix(base + 9 * NUM_POINTS + tab[ix(points + pt)])] = 1
    if round_[i] >= 1:
        roller = roller_of(first, round_, i)
        for pt in range(NUM_POINTS):
            if in_portion(cfg, roller, pt):
                row[ix(base + 16 * NUM_POINTS + tab[ix(points + pt)])] = 1
    if face[i] >= 0:
        f = np.int64(face[i])
        row[base + (10 + f) * NUM_POINTS : base + (11 + f) * NUM_POINTS] = 1
    left = cfg.rounds - max(np.int64(round_[i]), 1) + 1
    row[base + 17 * NUM_POINTS : base + 18 * NUM_POINTS] = left
    row[base + 18 * NUM_POINTS : base + 19 * NUM_POINTS] = COLOURS - turn[i] if round_[i] >= 1 else 0
    if wave[i] >= 0:
        d = (np.int64(wave[i]) + r) & 3
        row[base + 19 * NUM_POINTS : base + 20 * NUM_POINTS] = 1
        row[base + 20 * NUM_POINTS : base + 21 * NUM_POINTS] = DX[d]
        row[base + 21 * NUM_POINTS : base + 22 * NUM_POINTS] = DY[d]
        for pt in range(NUM_POINTS):
            if pending[i, pt] != 0:
                row[ix(base + 22 * NUM_POINTS + tab[ix(points + pt)])] = 1


# ---------------------------------------------------------------- set-up


@njit_inline
def act_as(s, cfg, i):
    """The agent to act in game ``i``: the one playing the colour to act."""
    s.player[i] = agent_of(cfg, s.colour[i])


@njit
def set_up_game(s, cfg, i):
    """Game ``i`` set up afresh: the base game's sea, the first colour (drawn
    when ``cfg.first_player`` is -1), then the lighthouse phase from the first
    colour clockwise, or beaches placed at once in that order."""
    stack, height, castaway, beach, rng, first = s.stack, s.height, s.castaway, s.beach, s.rng, s.first
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
    first[i] = cfg.first_player if cfg.first_player >= 0 else below(rng, i, COLOURS)
    s.round[i] = 0
    s.turn[i] = 0
    s.face[i] = -1
    s.rolled[i] = -1
    s.asleep[i, :] = 0
    s.turtle[i] = -1
    s.wave[i] = -1
    s.pending[i, :] = 0
    s.forced[i, :] = -1
    s.colour[i] = first[i]
    act_as(s, cfg, i)
    if cfg.lighthouse_mode == CHOOSE:
        return
    for k in range(COLOURS):
        set_up_beach(stack, height, castaway, beach, rng, i, (np.int64(first[i]) + k) % COLOURS, cfg)
    s.round[i] = 1


# ---------------------------------------------------------------- the contract's kernels
# Over the state tuple (azgames.core.contract), as the base game's: each calls the
# kernel doing the work with int64 indices (the core passes int64s; the casts
# keep one compile of that kernel for any other caller). ``s.player`` is the
# agent to act (the core's), ``s.colour`` the colour it plays now.


@njit
def reset_game(s, cfg, i):
    set_up_game(s, cfg, np.int64(i))


@njit_shared
def play(s, cfg, i, action, rewards):
    """Play legal ``action`` (in the actor's view) in game ``i``
    (:func:`play_turn`); a packed status naming the next agent, with
    :data:`~azgames.core.game.DREW` if the die was rolled."""
    i = np.int64(i)
    code = play_turn(
        s.stack,
        s.height,
        s.wind_colour,
        s.wind_owner,
        s.wind_dir,
        s.hand,
        s.coconuts,
        s.castaway,
        s.beach,
        s.colour,
        s.ply,
        s.outcome,
        s.rng,
        s.first,
        s.round,
        s.turn,
        s.face,
        s.rolled,
        s.asleep,
        s.turtle,
        s.wave,
        s.pending,
        s.forced,
        i,
        np.int64(action),
        cfg,
        rewards,
    )
    act_as(s, cfg, i)
    return code + DREW if s.rolled[i] >= 0 else code


@njit_inline
def seen_as(s, cfg, i, viewer):
    """The colour agent ``viewer`` sees game ``i`` as: the colour to act if
    it plays it, else the first colour it plays."""
    colour = np.int64(s.colour[i])
    if agent_of(cfg, colour) != viewer:
        for c in range(COLOURS - 1, -1, -1):  # ends on the viewer's first colour
            if agent_of(cfg, c) == viewer:
                colour = c
    return colour


@njit_shared
def observe_as(s, cfg, i, viewer, obs, j):
    """Agent ``viewer``'s planes of game ``i`` into row ``j`` of ``obs``: the
    base game's, then the co-op's (:func:`write_coop_planes`), from the side
    of the colour it is seen as (:func:`seen_as`)."""
    colour = seen_as(s, cfg, i, viewer)
    castaway, beach = s.castaway, s.beach
    write_planes(
        s.stack,
        s.height,
        s.wind_colour,
        s.wind_owner,
        s.wind_dir,
        s.hand,
        s.coconuts,
        castaway,
        beach,
        s.colour,
        i,
        colour,
        base_of(cfg),
        obs,
        j,
    )
    write_coop_planes(
        castaway,
        beach,
        s.first,
        s.round,
        s.turn,
        s.face,
        s.asleep,
        s.turtle,
        s.wave,
        s.pending,
        i,
        colour,
        cfg,
        obs,
        j,
    )


@njit_shared
def colour_mask(s, cfg, i, mask, j):
    """Every legal action of the colour to act in game ``i``, in its view,
    into row ``j`` of ``mask``: the base game's (:func:`~azimuth_env.kernels.legal_mask`)
    made the co-op's (:func:`finish_mask_coop`). The number of them but pass."""
    p = np.int64(s.colour[i])
    stack, height, castaway, beach = s.stack, s.height, s.castaway, s.beach
    count = legal_mask(
        stack,
        height,
        s.wind_colour,
        s.wind_owner,
        s.wind_dir,
        s.hand,
        s.coconuts,
        castaway,
        beach,
        i,
        p,
        base_of(cfg),
        mask,
        j,
    )
    return finish_mask_coop(
        stack, height, castaway, beach, s.turtle, s.wave, s.asleep, s.pending, i, p, cfg, mask[j], count
    )


@njit
def illegal_code(s, cfg, i, action):
    """Why ``action`` (in the actor's view) is illegal in game ``i`` (LEGAL if it is not)."""
    i = np.int64(i)
    stack, height, wind_colour, wind_owner, wind_dir = (
        s.stack,
        s.height,
        s.wind_colour,
        s.wind_owner,
        s.wind_dir,
    )
    hand, coconuts, castaway, beach = s.hand, s.coconuts, s.castaway, s.beach
    turtle, wave, asleep, pending = s.turtle, s.wave, s.asleep, s.pending
    p = np.int64(s.colour[i])
    a = cfg.tables[cfg.o_from_view + rotation(beach, i, p, cfg) * cfg.num_actions + action]
    if a != cfg.a_pass or wave[i] >= 0:
        return illegal_absolute_coop(
            stack,
            height,
            wind_colour,
            wind_owner,
            wind_dir,
            hand,
            coconuts,
            castaway,
            beach,
            turtle,
            wave,
            asleep,
            pending,
            i,
            p,
            a,
            cfg,
        )
    for other in range(cfg.num_actions):
        if (
            other != cfg.a_pass
            and illegal_absolute_coop(
                stack,
                height,
                wind_colour,
                wind_owner,
                wind_dir,
                hand,
                coconuts,
                castaway,
                beach,
                turtle,
                wave,
                asleep,
                pending,
                i,
                p,
                other,
                cfg,
            )
            == LEGAL
        ):
            return PASS_WHILE_ABLE
    return LEGAL


@njit_shared
def write_observation(s, cfg, i, viewer, obs, j):
    observe_as(s, cfg, np.int64(i), np.int64(viewer), obs, np.int64(j))


@njit_shared
def write_mask(s, cfg, i, mask, j):
    return colour_mask(s, cfg, np.int64(i), mask, np.int64(j))
