"""Numba checks of co-op (Ocean Die) games after every step (see test_playouts.py).

They read only the fields of :class:`azimuth_env.coop.CoopState` (whose
meaning is fixed by its docstring and the rules) and the layout's data
(portions, sides, beaches, set-up points), never the co-op kernels, so they
hold however those are written. Plain integer arithmetic on small arrays:
they also run as Python under ``NUMBA_DISABLE_JIT=1``.

States are passed whole (numba takes a named tuple of arrays); ``prev`` is a
copy of the batch before the step. ``params`` is an int64 array
(:func:`make_params`), ``tables`` an int64 array of layout data at the
offsets ``T_*``.
"""

from __future__ import annotations

import numpy as np

from azgames.core.jit import njit

ON_ISLAND = 36
AT_HOME = 37
COLOURS = 4
RAFTS = 6  # of each colour, always on the board (a landed castaway's raft stays)
WINDS = 4  # of each colour
MERMAID, WAVE_AWAY, WAVE_TOWARDS, TURTLE = 1, 2, 3, 5
MAX_WAVE_STEPS = 6  # one per candidate at most: a colour has 6 rafts

# params
P_ROUNDS = 0
P_CHOOSE = 1  # lighthouses placed by the players
P_FIRST = 2  # the first colour, -1: drawn
P_ISLAND = 3  # the island's mark
P_A_PLACE = 4  # where action groups start
P_A_BOARD = 5
P_A_PASS = 6
P_A_TURTLE = 7
P_A_WAVE = 8
P_NUM_ACTIONS = 9
P_WAVE_MODE = 10  # 0 choose, 1 front first, 2 back first
P_NUM_AGENTS = 11
P_NUM_BEACHES = 12
NUM_PARAMS = 13

# tables: offsets (each table's length is fixed)
T_PORTION_POINTS = 0  # (4, 36)
T_PORTION_MARKS = T_PORTION_POINTS + 4 * 36  # (4, 25)
T_SIDE = T_PORTION_MARKS + 4 * 25  # (4,) direction from the colour's landing spots to its beach
T_CONTROLLER = T_SIDE + 4  # (4,) agent playing each colour
T_SETUP = T_CONTROLLER + 4  # (36,) 1 on the set-up points
T_BEACH_SIDE = T_SETUP + 36  # (NB,)
# then T_BEACH_SPOTS = T_BEACH_SIDE + NB: (NB, 3), -1 padded; then (NB,) colour bit sets

OK = 0
E_RANGE = 1
E_STACK = 2
E_RAFT_COUNT = 3
E_CASTAWAY = 4
E_CASTAWAYS_SHARE = 5
E_ALL_HOME = 6
E_WIND = 7
E_WINDS_CONSERVED = 8
E_COCONUTS = 9
E_BEACH = 10
E_LIGHTHOUSE_ORDER = 11
E_TURN_ORDER = 12
E_WAVE_PHASE = 13
E_PENDING = 14
E_FACE = 15
E_ASLEEP = 16
E_TURTLE = 17
E_FIRST = 18
E_MASK_EMPTY = 19
E_MASK_PASS = 20
E_MASK_WAVE = 21
E_MASK_TURTLE = 22
E_MASK_ASLEEP = 23
E_MASK_SETUP = 24
E_PLAYER_OUT = 25
E_TRUNCATED = 26
E_REWARD = 27
E_WIN = 28
E_LOSS = 29
E_GAME_TOO_LONG = 30
E_PLY = 31
E_OUTCOME = 32
E_NEXT = 33
E_ROLL = 34
E_MERMAID = 35
E_HAND = 36
E_NOT_FRESH = 37

MESSAGES = {
    E_RANGE: "a state value is out of its range (detail: which)",
    E_STACK: "a stack entry below the height is not a colour, or one above it not -1 "
    "(detail: point * 100 + level)",
    E_RAFT_COUNT: "a colour does not have its 6 rafts on the board (detail: colour)",
    E_CASTAWAY: "a castaway is not on the island, home, or on a top raft of its colour (detail: colour)",
    E_CASTAWAYS_SHARE: "two castaways stand on one point (detail: point)",
    E_ALL_HOME: "all four castaways are home in a game that goes on",
    E_WIND: "a wind's colour, owner or direction is wrong, or it is on the island (detail: mark)",
    E_WINDS_CONSERVED: "a colour's winds in hand plus on the board are not 4, or it holds "
    "another colour's (detail: colour)",
    E_COCONUTS: "a colour holds coconuts (co-op has none) (detail: colour)",
    E_BEACH: "a beach is not on its colour's side, or two share a landing spot (detail: colour)",
    E_LIGHTHOUSE_ORDER: "lighthouses are not placed from the first colour clockwise, or the "
    "colour to act is not the next to place one (detail: colour)",
    E_TURN_ORDER: "the colour to act is not first + turn (clockwise), or turn/round is out of "
    "range (detail: expected colour)",
    E_WAVE_PHASE: "a wave sub-phase that is not right after a wave face rolled by the round's "
    "roller, in its direction, with the roller to act (detail: which check)",
    E_PENDING: "a pending wave candidate outside a sub-phase, or not a bottom raft of the "
    "roller's colour (detail: point)",
    E_FACE: "the last face is set before any roll or out of range (detail: face)",
    E_ASLEEP: "a castaway sleeps without a mermaid last roll, or on the island (detail: colour)",
    E_TURTLE: "a sea turtle is on offer without a turtle last roll, or not in the last "
    "roller's portion (detail: turtle)",
    E_FIRST: "the first colour differs from the first_player option (detail: first)",
    E_MASK_EMPTY: "a game that goes on offers no action",
    E_MASK_PASS: "pass is offered with another action",
    E_MASK_WAVE: "the wave actions offered are not exactly the pending candidates, or another "
    "action is offered while ordering the waves (detail: action)",
    E_MASK_TURTLE: "a turtle swim is offered with no turtle on offer (detail: action)",
    E_MASK_ASLEEP: "a castaway action is offered to a sleeping castaway's colour (detail: action)",
    E_MASK_SETUP: "an action other than a beach is offered while the lighthouses go down (detail: action)",
    E_PLAYER_OUT: "the agent to act is not the controller of the colour to act (detail: reported agent)",
    E_TRUNCATED: "a co-op game was truncated (the rounds end it, as a loss)",
    E_REWARD: "rewards are not the team's: identical, 0 during the game, +1 / -1 at the end (detail: agent)",
    E_WIN: "the team won without all four castaways home, or all four are home and the "
    "game goes on (detail: castaways home)",
    E_LOSS: "the game was lost other than right after the last round's fourth turn, or the "
    "last round's fourth turn did not end it (detail: round)",
    E_GAME_TOO_LONG: "a game ran past its bound: lighthouses + 4 turns and 6 wave steps a "
    "round (detail: its length)",
    E_PLY: "state.ply differs from the steps played (detail: expected)",
    E_OUTCOME: "state.outcome disagrees with the step's flags (detail: outcome)",
    E_NEXT: "the step's bookkeeping is wrong: round, turn, colour to act (detail: which check)",
    E_ROLL: "a die was rolled other than after a round's fourth turn, or none then (detail: rolled face)",
    E_MERMAID: "the castaways asleep after a mermaid are not exactly those on points of the "
    "roller's portion (detail: colour)",
    E_HAND: "winds in hand changed other than the actor placing one (detail: colour)",
    E_NOT_FRESH: "a finished game did not restart from a fresh set-up (detail: which check)",
}


def make_params(rules) -> tuple[np.ndarray, np.ndarray]:
    """``(params, tables)`` of a :class:`~azimuth_env.coop.CoopRules`."""
    layout = rules.layout
    acts = rules.actions
    params = np.zeros(NUM_PARAMS, np.int64)
    params[P_ROUNDS] = rules.rounds
    params[P_CHOOSE] = int(rules.options["lighthouses"] == "choose")
    params[P_FIRST] = rules.first_player
    params[P_ISLAND] = layout.island
    params[P_A_PLACE] = acts.place
    params[P_A_BOARD] = acts.board
    params[P_A_PASS] = acts.pass_
    params[P_A_TURTLE] = acts.turtle
    params[P_A_WAVE] = acts.wave
    params[P_NUM_ACTIONS] = acts.size
    params[P_WAVE_MODE] = {"choose": 0, "front_first": 1, "back_first": 2}[rules.options["wave_order"]]
    params[P_NUM_AGENTS] = rules.num_players
    params[P_NUM_BEACHES] = len(layout.beach_side)
    setup = np.zeros(36, np.int64)
    setup[layout.setup_points] = 1
    tables = np.concatenate(
        [
            np.ravel(a).astype(np.int64)
            for a in (
                layout.portion_points,
                layout.portion_marks,
                layout.default_side,
                rules.controller,
                setup,
                layout.beach_side,
                layout.beach_spots,
                layout.beach_players,
            )
        ]
    )
    return params, tables


@njit
def _spot_of(tables, nb, b, k):
    return tables[T_BEACH_SIDE + nb + b * 3 + k]


@njit
def _roller(s, i):
    return (int(s.first[i]) + int(s.round[i]) - 1) % COLOURS


@njit
def check_position(i, s, mask, player_out, params, tables, over):
    """Game ``i`` of state ``s`` is a consistent co-op position. ``over``:
    the game has just ended (its last state); otherwise ``mask`` (row ``i``)
    must offer exactly the actions the position allows in each phase."""
    nb = params[P_NUM_BEACHES]
    depth = s.stack.shape[2]
    p = int(s.colour[i])
    if p < 0 or p >= COLOURS:
        return E_RANGE, 1
    if player_out[i] != tables[T_CONTROLLER + p]:
        return E_PLAYER_OUT, int(player_out[i])
    rnd = int(s.round[i])
    if rnd < 0 or rnd > params[P_ROUNDS]:
        return E_RANGE, 2
    if s.ply[i] < 0:
        return E_RANGE, 3
    first = int(s.first[i])
    if first < 0 or first >= COLOURS or (params[P_FIRST] >= 0 and first != params[P_FIRST]):
        return E_FIRST, first
    # stacks: 6 rafts of each colour, -1 above the height
    counts = np.zeros(COLOURS, np.int64)
    for pt in range(36):
        h = int(s.height[i, pt])
        if h < 0 or h > depth:
            return E_RANGE, 100 + pt
        for level in range(depth):
            c = int(s.stack[i, pt, level])
            if level < h:
                if c < 0 or c >= COLOURS:
                    return E_STACK, pt * 100 + level
                counts[c] += 1
            elif c != -1:
                return E_STACK, pt * 100 + level
    for c in range(COLOURS):
        if counts[c] != RAFTS:
            return E_RAFT_COUNT, c
    # castaways: island, home, or on a top raft of their colour, one per point
    home = 0
    for q in range(COLOURS):
        v = int(s.castaway[i, q])
        if v == AT_HOME:
            home += 1
        elif v != ON_ISLAND:
            if v < 0 or v >= 36:
                return E_CASTAWAY, q
            h = int(s.height[i, v])
            if h == 0 or s.stack[i, v, h - 1] != q:
                return E_CASTAWAY, q
            for r in range(q + 1, COLOURS):
                if s.castaway[i, r] == v:
                    return E_CASTAWAYS_SHARE, v
    if home == COLOURS and not over:
        return E_ALL_HOME, 0
    # winds: their colour's own, off the island; 4 per colour in hand and on the board
    placed = np.zeros(COLOURS, np.int64)
    for m in range(25):
        c = int(s.wind_colour[i, m])
        if c < 0:
            if c != -1 or s.wind_owner[i, m] != -1:
                return E_WIND, m
            continue
        if c >= COLOURS or s.wind_owner[i, m] != c or s.wind_dir[i, m] < 0 or s.wind_dir[i, m] > 3:
            return E_WIND, m
        if m == params[P_ISLAND]:
            return E_WIND, m
        placed[c] += 1
    for q in range(COLOURS):
        if s.hand[i, q, 0] < 0 or s.hand[i, q, 1] != 0 or s.hand[i, q, 0] + placed[q] != WINDS:
            return E_WINDS_CONSERVED, q
        if s.coconuts[i, q] != 0:
            return E_COCONUTS, q
    # beaches: on the colour's side, no shared landing spot; placed from the first colour
    for q in range(COLOURS):
        b = int(s.beach[i, q])
        if b < -1 or b >= nb:
            return E_RANGE, 300 + q
        if b < 0:
            continue
        if tables[T_BEACH_SIDE + b] != tables[T_SIDE + q]:
            return E_BEACH, q
        if (tables[T_BEACH_SIDE + nb + nb * 3 + b] >> q) & 1 == 0:
            return E_BEACH, q
        for r in range(q + 1, COLOURS):
            o = int(s.beach[i, r])
            if o < 0:
                continue
            for k in range(3):
                spot = _spot_of(tables, nb, b, k)
                for t in range(3):
                    if spot >= 0 and _spot_of(tables, nb, o, t) == spot:
                        return E_BEACH, q
    turn = int(s.turn[i])
    wave = int(s.wave[i])
    face = int(s.face[i])
    if rnd == 0:
        # the lighthouses go down, from the first colour clockwise
        if params[P_CHOOSE] == 0 or turn != 0 or wave >= 0 or face != -1:
            return E_LIGHTHOUSE_ORDER, p
        k = (p - first) % COLOURS
        for j in range(COLOURS):
            q = (first + j) % COLOURS
            if (s.beach[i, q] >= 0) != (j < k):
                return E_LIGHTHOUSE_ORDER, q
    else:
        for q in range(COLOURS):
            if s.beach[i, q] < 0:
                return E_LIGHTHOUSE_ORDER, q
    # round, turn and the colour to act; the waves' sub-phase
    roller = _roller(s, i)
    if face < -1 or face > 5:
        return E_FACE, face
    if rnd <= 1 and wave < 0 and face != -1:
        return E_FACE, face
    if rnd >= 2 and face < 0:
        return E_FACE, face
    if wave >= 0:
        if rnd < 1 or turn != COLOURS:
            return E_WAVE_PHASE, 1
        if p != roller:
            return E_WAVE_PHASE, 2
        side = tables[T_SIDE + roller]
        if face == WAVE_TOWARDS:
            if wave != side:
                return E_WAVE_PHASE, 3
        elif face == WAVE_AWAY:
            if wave != (side + 2) % 4:
                return E_WAVE_PHASE, 4
        else:
            return E_WAVE_PHASE, 5
        pending = 0
        for pt in range(36):
            if s.pending[i, pt] != 0:
                pending += 1
                if s.pending[i, pt] != 1 or s.height[i, pt] == 0 or s.stack[i, pt, 0] != roller:
                    return E_PENDING, pt
        if pending == 0:
            return E_WAVE_PHASE, 6
    else:
        for pt in range(36):
            if s.pending[i, pt] != 0:
                return E_PENDING, pt
        if rnd >= 1 and not over:
            if turn < 0 or turn >= COLOURS:
                return E_TURN_ORDER, turn
            if p != (first + turn) % COLOURS:
                return E_TURN_ORDER, (first + turn) % COLOURS
    # the mermaid's sleep and the turtle's offer last the round after their roll
    for q in range(COLOURS):
        a = int(s.asleep[i, q])
        if a != 0 and (a != 1 or face != MERMAID or s.castaway[i, q] == ON_ISLAND or wave >= 0):
            return E_ASLEEP, q
    t = int(s.turtle[i])
    if t != -1 and (face != TURTLE or wave >= 0 or t != (first + rnd - 2) % COLOURS):
        return E_TURTLE, t
    if over:
        return OK, 0
    # the mask
    legal = 0
    for a in range(mask.shape[1]):
        if mask[i, a] == 0:
            continue
        legal += 1
        if wave >= 0:
            if a < params[P_A_WAVE]:
                return E_MASK_WAVE, a
            continue
        if a >= params[P_A_WAVE]:
            return E_MASK_WAVE, a
        if rnd == 0:
            if a >= params[P_A_PLACE] and a != params[P_A_PASS]:
                return E_MASK_SETUP, a
            continue
        if params[P_A_TURTLE] <= a < params[P_A_WAVE] and t < 0:
            return E_MASK_TURTLE, a
        castaway_action = (params[P_A_BOARD] <= a < params[P_A_PASS]) or (
            params[P_A_TURTLE] <= a < params[P_A_WAVE]
        )
        if castaway_action and s.asleep[i, p] != 0:
            return E_MASK_ASLEEP, a
    if legal == 0:
        return E_MASK_EMPTY, 0
    if legal > 1 and mask[i, params[P_A_PASS]] != 0:
        return E_MASK_PASS, legal
    if wave >= 0:
        pending = 0
        for pt in range(36):
            pending += s.pending[i, pt]
        if legal != pending:
            return E_MASK_WAVE, legal
    return OK, 0


@njit
def check_step(
    i, prev, s, mask, rewards, terminated, truncated, player_out, game_len, params, tables, auto_reset
):
    """One step of game ``i`` from ``prev`` to ``s``: rewards, flags, the
    round's bookkeeping, the die, and the position after it (a fresh game
    when it ended and ``auto_reset``; its final position otherwise).
    ``game_len`` counts each game's steps."""
    rounds = params[P_ROUNDS]
    agents = params[P_NUM_AGENTS]
    if truncated[i]:
        return E_TRUNCATED, 0
    game_len[i] += 1
    bound = 4 * params[P_CHOOSE] + 4 * rounds + MAX_WAVE_STEPS * (rounds - 1)
    if game_len[i] > bound:
        return E_GAME_TOO_LONG, int(game_len[i])
    # the team's rewards: identical, 0 until the end
    r0 = rewards[i, 0]
    for q in range(agents):
        if rewards[i, q] != r0:
            return E_REWARD, q
    if not terminated[i] and r0 != 0.0:
        return E_REWARD, 0
    if terminated[i] and r0 != 1.0 and r0 != -1.0:
        return E_REWARD, 0
    p = int(prev.colour[i])
    prnd = int(prev.round[i])
    pturn = int(prev.turn[i])
    pwave = int(prev.wave[i])
    round_end = prnd >= 1 and pwave < 0 and pturn == COLOURS - 1
    nb = params[P_NUM_BEACHES]
    if terminated[i]:
        if r0 == 1.0:
            if prnd < 1 or pwave >= 0:
                return E_WIN, -1
            if not auto_reset:
                home = 0
                for q in range(COLOURS):
                    home += s.castaway[i, q] == AT_HOME
                if home != COLOURS:
                    return E_WIN, home
            # (the vector env restarts at once) every castaway not yet home stood on
            # one of its landing spots
            for q in range(COLOURS):
                v = int(prev.castaway[i, q])
                if v == AT_HOME:
                    continue
                b = int(prev.beach[i, q])
                on_spot = False
                for k in range(3):
                    on_spot |= v >= 0 and _spot_of(tables, nb, b, k) == v
                if not on_spot:
                    return E_WIN, 10 + q
        else:
            if not round_end or prnd != rounds:
                return E_LOSS, prnd
            if not auto_reset:
                home = 0
                for q in range(COLOURS):
                    home += s.castaway[i, q] == AT_HOME
                if home == COLOURS:
                    return E_LOSS, -1
    elif round_end and prnd == rounds:
        return E_LOSS, prnd
    if terminated[i] and auto_reset:
        return check_fresh(i, s, mask, player_out, game_len, params, tables)
    if s.ply[i] != prev.ply[i] + 1:
        return E_PLY, int(prev.ply[i]) + 1
    if s.outcome[i] != (1 if terminated[i] else 0):
        return E_OUTCOME, int(s.outcome[i])
    # winds in hand: only the actor places one
    for q in range(COLOURS):
        spent = int(prev.hand[i, q, 0]) - int(s.hand[i, q, 0])
        if spent < 0 or spent > 1 or (spent == 1 and (q != p or pwave >= 0 or prnd == 0)):
            return E_HAND, q
    if terminated[i]:
        if s.rolled[i] != -1:
            return E_ROLL, int(s.rolled[i])
        return check_position(i, s, mask, player_out, params, tables, True)
    rnd = int(s.round[i])
    if prnd == 0:
        # a lighthouse: the next colour places, or round 1 starts with the first colour
        if s.beach[i, p] < 0:
            return E_NEXT, 1
        if s.beach[i, (p + 1) % COLOURS] >= 0:
            if rnd != 1 or s.turn[i] != 0 or s.colour[i] != s.first[i]:
                return E_NEXT, 2
        elif rnd != 0 or s.colour[i] != (p + 1) % COLOURS:
            return E_NEXT, 3
        if s.rolled[i] != -1:
            return E_ROLL, int(s.rolled[i])
    elif pwave >= 0:
        # one wave candidate ordered: more to order, or the next round
        if s.rolled[i] != -1:
            return E_ROLL, int(s.rolled[i])
        if s.face[i] != prev.face[i]:
            return E_NEXT, 4
        if s.wave[i] >= 0:
            before = 0
            after = 0
            for pt in range(36):
                before += prev.pending[i, pt]
                after += s.pending[i, pt]
            if s.wave[i] != pwave or rnd != prnd or after >= before or s.colour[i] != p:
                return E_NEXT, 5
        elif rnd != prnd + 1 or s.turn[i] != 0 or s.colour[i] != s.first[i]:
            return E_NEXT, 6
    elif not round_end:
        # a colour's turn: the next colour clockwise
        if rnd != prnd or s.turn[i] != pturn + 1 or s.colour[i] != (p + 1) % COLOURS:
            return E_NEXT, 7
        if s.rolled[i] != -1:
            return E_ROLL, int(s.rolled[i])
        if s.face[i] != prev.face[i]:
            return E_NEXT, 8
        for q in range(COLOURS):
            if s.asleep[i, q] != prev.asleep[i, q]:
                return E_ASLEEP, q
        if s.turtle[i] != prev.turtle[i] and s.turtle[i] != -1:  # only used up
            return E_TURTLE, int(s.turtle[i])
    else:
        # the round's fourth turn: the roller rolls
        f = int(s.rolled[i])
        if f < 0 or f > 5 or s.face[i] != f:
            return E_ROLL, f
        roller = (int(prev.first[i]) + prnd - 1) % COLOURS
        if s.wave[i] >= 0:
            if f != WAVE_AWAY and f != WAVE_TOWARDS:
                return E_ROLL, f
            if rnd != prnd or s.colour[i] != roller:
                return E_NEXT, 9
            if params[P_WAVE_MODE] != 0:
                return E_WAVE_PHASE, 7
        elif rnd != prnd + 1 or s.turn[i] != 0 or s.colour[i] != s.first[i]:
            return E_NEXT, 10
        for q in range(COLOURS):
            v = int(s.castaway[i, q])
            want = 0
            if f == MERMAID and 0 <= v < 36:
                want = tables[T_PORTION_POINTS + roller * 36 + v]
            if s.asleep[i, q] != want:
                return E_MERMAID, q
        if s.turtle[i] != (roller if f == TURTLE else -1):
            return E_TURTLE, int(s.turtle[i])
    return check_position(i, s, mask, player_out, params, tables, False)


@njit
def check_fresh(i, s, mask, player_out, game_len, params, tables):
    """Game ``i`` was just set up afresh."""
    game_len[i] = 0
    if s.ply[i] != 0 or s.outcome[i] != 0:
        return E_NOT_FRESH, 1
    choose = params[P_CHOOSE] == 1
    if s.round[i] != (0 if choose else 1) or s.turn[i] != 0:
        return E_NOT_FRESH, 2
    if s.face[i] != -1 or s.rolled[i] != -1 or s.turtle[i] != -1 or s.wave[i] != -1:
        return E_NOT_FRESH, 3
    for q in range(COLOURS):
        if s.castaway[i, q] != ON_ISLAND or s.asleep[i, q] != 0 or s.hand[i, q, 0] != WINDS:
            return E_NOT_FRESH, 4
        if (s.beach[i, q] >= 0) == choose:
            return E_NOT_FRESH, 5
    for m in range(25):
        if s.wind_colour[i, m] != -1:
            return E_NOT_FRESH, 6
    for pt in range(36):
        if s.height[i, pt] != tables[T_SETUP + pt]:
            return E_NOT_FRESH, 100 + pt
    if s.colour[i] != s.first[i]:
        return E_NOT_FRESH, 7
    return check_position(i, s, mask, player_out, params, tables, False)


@njit
def check_batch(
    prev, s, mask, rewards, terminated, truncated, player_out, game_len, params, tables, err, detail
):
    """Check every game of a vector-env step; returns how many failed."""
    bad = 0
    for i in range(s.castaway.shape[0]):
        e, d = check_step(
            i, prev, s, mask, rewards, terminated, truncated, player_out, game_len, params, tables, True
        )
        err[i] = e
        detail[i] = d
        bad += e != OK
    return bad


@njit
def check_positions(s, mask, player_out, params, tables, err, detail):
    """Check every game's position (e.g. right after reset)."""
    bad = 0
    for i in range(s.castaway.shape[0]):
        e, d = check_position(i, s, mask, player_out, params, tables, False)
        err[i] = e
        detail[i] = d
        bad += e != OK
    return bad
