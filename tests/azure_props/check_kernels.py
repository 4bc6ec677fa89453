"""Numba checks of Azure Attack games after every step (see test_playouts.py).

They read only the fields of :class:`azure_env.AzureState` (whose meaning is
fixed by its docstring) and the map's geometry as *data* (which squares exist,
which suit tile each lies on, the home squares, where the coins start; see
:func:`checker_tables`), never the rules' kernels, so they hold however the
kernels are written. The checker keeps its own record of each game (the coin
values dealt at set-up, the turn order, who should act, the squares moved
this turn, the turns finished) and predicts what every step does to the
pieces and the coins. Written with plain integer arithmetic on small arrays,
so it also runs as Python under ``NUMBA_DISABLE_JIT=1``.

States are passed as the :class:`~azure_env.AzureState` named tuples themselves;
the map tables and the checker's record as plain tuples (see the entry points
at the bottom).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from azgames.core.jit import njit

# --------------------------------------------------------------- the state's meaning
MONSTER = 0
STOP = 4
#: ``coin_loc``: a square (< S), or S + 0 + p carried by p, S + 4 + p banked by p, S + 8 out.
CARRIED, BANKED, OUT = 0, 4, 8
#: ``fight[:, 4]``.
ATTACKER_WINS, DEFENDER_WINS, BOTH_HOME = 0, 1, 2
#: ``outcome``.
ONGOING, TERMINATED, TRUNCATED = 0, 1, 2
FACES = 6
MONSTER_ALLOWANCE, HUNTER_ALLOWANCE, COIN_COST = 6, 4, 2
#: ``kind`` (per square, :func:`checker_tables`): no square, a map tile, or the suit slot 0-3.
VOID, MAP = -2, -1

# --------------------------------------------------------------- params
P_S = 0  # squares
P_MAX_TURNS = 1
P_RANDOM_ROLES = 2
P_LITERAL = 3  # suit_tiles="literal": the monster may enter hunters' tiles, hunters the monster's
NUM_PARAMS = 4

# --------------------------------------------------------------- the checker's own record, per game
T_TURNS = 0  # turns finished (an extra turn counts)
T_CYCLE = 1  # place in the cycle hunter, hunter, monster (0, 1, 2)
T_HPTR = 2  # index in the hunters' order of the hunter whose turn comes next (or now)
T_ACTOR = 3  # who must act
T_STEPS = 4  # squares moved this turn
T_EXTRA = 5  # 1 while the monster plays an extra turn
NUM_TRACK = 6


class Tables(NamedTuple):
    """The map as data, built by the test (``test_playouts.checker_tables``)."""

    nbr: np.ndarray  # (S, 4) int64: the square N, E, S, W of each square, -1 off the grid or void
    kind: np.ndarray  # (S,) int64: VOID, MAP or the suit slot 0-3
    slot_home: np.ndarray  # (4,) int64: each slot's home square, -1 if absent
    centres: np.ndarray  # (K,) int64: per map tile, the square its coin starts on


class Tracker(NamedTuple):
    """The checker's record of each game (int64 arrays, leading axis: game)."""

    track: np.ndarray  # (B, NUM_TRACK)
    trail: np.ndarray  # (B, 8): squares visited this turn, the start first
    values: np.ndarray  # (B, K): coin values dealt at set-up
    order: np.ndarray  # (B, 3): hunters' order at set-up
    slots: np.ndarray  # (B, 4): suit tile owners at set-up
    homes: np.ndarray  # (B, P): home squares at set-up
    exp_pos: np.ndarray  # (B, P): scratch, predicted piece squares
    exp_loc: np.ndarray  # (B, K): scratch, predicted coin places


def new_tracker(num_envs: int, num_players: int, num_coins: int) -> Tracker:
    z = np.zeros
    return Tracker(
        z((num_envs, NUM_TRACK), np.int64),
        z((num_envs, 8), np.int64),
        z((num_envs, num_coins), np.int64),
        z((num_envs, 3), np.int64),
        z((num_envs, 4), np.int64),
        z((num_envs, num_players), np.int64),
        z((num_envs, num_players), np.int64),
        z((num_envs, num_coins), np.int64),
    )


# --------------------------------------------------------------- counts of what was met
C_STEPS = 0
C_STOPS = 1
C_MOVES = 2
C_PICKUPS = 3  # moves that picked up coins
C_BANKS = 4
C_FIGHTS = 5
C_MONSTER_ATTACKS = 6
C_HUNTER_ATTACKS_MONSTER = 7
C_HUNTER_ATTACKS_HUNTER = 8
C_ATTACKER_WINS = 9
C_DEFENDER_WINS = 10
C_BOTH_HOME = 11
C_EXTRA_TURNS = 12
C_CHAINED_EXTRA_TURNS = 13  # an extra turn won during an extra turn
C_PICKUP_ENDS_TURN = 14  # a pickup cut the allowance to the squares already moved
C_ONE_SQUARE_TURNS = 15  # a move by a piece whose allowance is 1 (carrying 2+ / 3+ coins)
C_COINS_DROPPED = 16
C_LOOT_PICKED = 17  # a winning attacker picked up the loser's coins
C_TERMINATED = 18
C_TRUNCATED = 19
C_MASK_VISITED = 20  # a direction refused as already visited
C_MASK_OTHERS_TILE = 21
C_MASK_OFF_MAP = 22  # off the grid, void, or an unused suit tile
C_HUNTERS_WIN = 23
C_MONSTER_WINS = 24
C_DRAWS = 25
C_TRUNCATED_BY_FIGHT = 26
C_ATTACK_FACES = 27  # 27-32: the attacker's die faces
C_DEFENCE_FACES = 33  # 33-38: the defender's die faces
C_ONTO_OTHERS_TILE = 39  # a move onto another player's suit tile (literal suit tiles)
C_WIN_BANKS = 40  # a winning attacker banked on landing on its own suit tile (literal suit tiles)
C_COINS_ON_SUIT_TILE = 41  # a position with a coin lying on a suit tile (literal suit tiles)
NUM_COUNTS = 42

COUNT_NAMES = {
    C_STEPS: "steps",
    C_STOPS: "stops",
    C_MOVES: "moves",
    C_PICKUPS: "pickups",
    C_BANKS: "banks",
    C_FIGHTS: "fights",
    C_MONSTER_ATTACKS: "monster attacks",
    C_HUNTER_ATTACKS_MONSTER: "hunter attacks monster",
    C_HUNTER_ATTACKS_HUNTER: "hunter attacks hunter",
    C_ATTACKER_WINS: "attacker wins",
    C_DEFENDER_WINS: "defender wins",
    C_BOTH_HOME: "both go home",
    C_EXTRA_TURNS: "extra turns",
    C_CHAINED_EXTRA_TURNS: "chained extra turns",
    C_PICKUP_ENDS_TURN: "pickup ends turn",
    C_ONE_SQUARE_TURNS: "moves with allowance 1",
    C_COINS_DROPPED: "coins dropped",
    C_LOOT_PICKED: "loot picked up by a winner",
    C_TERMINATED: "terminated",
    C_TRUNCATED: "truncated",
    C_MASK_VISITED: "mask: visited",
    C_MASK_OTHERS_TILE: "mask: others' tile",
    C_MASK_OFF_MAP: "mask: off map",
    C_HUNTERS_WIN: "hunters win",
    C_MONSTER_WINS: "monster wins",
    C_DRAWS: "draws",
    C_TRUNCATED_BY_FIGHT: "truncated by a fight",
    C_ONTO_OTHERS_TILE: "moves onto another's suit tile",
    C_WIN_BANKS: "banks by a winning attacker",
    C_COINS_ON_SUIT_TILE: "coins lying on a suit tile",
}


def named_counts(counts: np.ndarray) -> dict[str, int]:
    out = {name: int(counts[k]) for k, name in COUNT_NAMES.items()}
    out["attacker faces"] = counts[C_ATTACK_FACES : C_ATTACK_FACES + FACES].tolist()
    out["defender faces"] = counts[C_DEFENCE_FACES : C_DEFENCE_FACES + FACES].tolist()
    return out


# --------------------------------------------------------------- errors
OK = 0
E_PLAYER_OUT = 1
E_TURN_ORDER = 2
E_OUTCOME = 3
E_TURNS = 4
E_TOO_LONG = 5
E_CONSTANT = 6
E_PIECE_RANGE = 7
E_PIECE_VOID = 8
E_PIECE_TILE = 9
E_PIECES_SHARE = 10
E_COIN_VALUE = 11
E_COIN_PLACE = 12
E_COIN_SQUARE = 13
E_STEPS = 14
E_ALLOWANCE = 15
E_TRAIL = 16
E_TRAIL_REPEAT = 17
E_TRAIL_END = 18
E_MASK_STOP = 19
E_MASK = 20
E_FORCED = 21
E_FRESH = 22
E_SLOTS = 23
E_ORDER = 24
E_HOME = 25
E_FRESH_COINS = 26
E_FRESH_VALUES = 27
E_BOTH_FLAGS = 28
E_ACTION = 29
E_FIGHT = 30
E_TERMINATED = 31
E_TRUNCATED = 32
E_REWARD = 33
E_POS = 34
E_COIN = 35
E_MASK_AFTER_END = 36
E_NOT_ALL_BANKED = 37
E_TRAIL_TAIL = 38
E_COIN_UNDER_PIECE = 39

MESSAGES = {
    E_PLAYER_OUT: "the returned player differs from state.player",
    E_TURN_ORDER: "the wrong piece acts: not the turn order (two hunter turns then the "
    "monster, hunters rotating) nor a monster's extra turn (detail: expected)",
    E_OUTCOME: "state.outcome disagrees with the flags (detail: outcome)",
    E_TURNS: "state.turns differs from the turns finished (detail: expected)",
    E_TOO_LONG: "a game ran past max_turns (detail: turns)",
    E_CONSTANT: "home, suit tiles or hunters' order changed during a game (detail: which)",
    E_PIECE_RANGE: "a piece is off the squares (detail: player)",
    E_PIECE_VOID: "a piece is on a void square (detail: player)",
    E_PIECE_TILE: "a piece is on an unused suit tile, on another player's home square, or on "
    "another player's suit tile where the suit_tiles option bars it (detail: player)",
    E_PIECES_SHARE: "two pieces share a square (detail: square)",
    E_COIN_VALUE: "a coin's value changed since set-up (detail: coin)",
    E_COIN_PLACE: "a coin's place code is not a square, carried or banked by a player (detail: coin)",
    E_COIN_SQUARE: "a coin lies on a void square, a home square, or a suit tile (suit_tiles closed: "
    "only a visitor's gold drops there) (detail: coin)",
    E_STEPS: "state.steps differs from the squares moved this turn (detail: expected)",
    E_ALLOWANCE: "the squares moved reach the allowance (6 / 4 - 2 per coin, min 1) while the "
    "turn goes on (detail: steps * 10 + allowance)",
    E_TRAIL: "the trail differs from the squares visited this turn (detail: index)",
    E_TRAIL_REPEAT: "a square repeats in the trail (detail: index)",
    E_TRAIL_END: "the trail does not end on the actor's square",
    E_MASK_STOP: "stop is not legal",
    E_MASK: "a direction's mask differs from the checker's (neighbour exists, is not void nor "
    "an unused suit tile nor another's suit tile barred by the suit_tiles option (always "
    "its home square), not visited this turn) (detail: direction * 10 + wanted)",
    E_FORCED: "a forced die face is queued in random play",
    E_FRESH: "a new game is not a fresh set-up (detail: what)",
    E_SLOTS: "suit tile owners are wrong at set-up (detail: slot)",
    E_ORDER: "the hunters' order is wrong at set-up (detail: index)",
    E_HOME: "a home square is not its suit tile's home, or a piece starts off it (detail: player)",
    E_FRESH_COINS: "the coins do not start one on each map tile's centre square (detail: square)",
    E_FRESH_VALUES: "coin values are not drawn from the non-suit piecepack tiles (detail: value)",
    E_BOTH_FLAGS: "terminated and truncated at once",
    E_ACTION: "the played action was not legal (detail: action)",
    E_FIGHT: "state.fight disagrees with the fight (detail: what)",
    E_TERMINATED: "terminated differs from every coin being banked (detail: expected)",
    E_TRUNCATED: "truncated differs from reaching max_turns (detail: expected)",
    E_REWARD: "rewards are not 0 during the game, or not the team result at the end (detail: player)",
    E_POS: "a piece is not where the step should leave it (detail: player)",
    E_COIN: "a coin is not where the step should leave it (detail: coin)",
    E_MASK_AFTER_END: "the mask offers an action after the end",
    E_NOT_ALL_BANKED: "the game terminated with a coin not banked (detail: coin)",
    E_COIN_UNDER_PIECE: "a coin lies on a piece's square (entering takes every coin; a loser's "
    "gold drops where it no longer stands) (detail: coin)",
    E_TRAIL_TAIL: "the trail past the squares moved is not cleared to -1 (canonical states) (detail: index)",
}


@njit
def allowance(p, carried):
    base = MONSTER_ALLOWANCE if p == MONSTER else HUNTER_ALLOWANCE
    n = base - COIN_COST * carried
    return n if n > 1 else 1


@njit
def may_enter(kind, slot_home, params, slot_owner, i, p, t):
    """Whether ``p`` may stand on square ``t`` (not void) as far as suit tiles
    go: a map square, its own tile; with literal suit tiles also the others'
    tiles that the book's rule 7 leaves open (monster <-> hunters, never
    hunter <-> hunter), home squares excepted."""
    k = kind[t]
    if k < 0:
        return True
    owner = slot_owner[i, k]
    if owner < 0:
        return False
    if owner == p:
        return True
    if params[P_LITERAL] == 0 or t == slot_home[k]:
        return False
    return (p == MONSTER) != (owner == MONSTER)


@njit
def _check_position(i, s, mask, player_out, params, tab, trk, counts):
    """Game ``i`` is a consistent position, still going on, with ``trk``'s actor to act."""
    nbr, kind, slot_home, centres = tab
    track, trail, values, order, slots, homes, exp_pos, exp_loc = trk
    S = params[P_S]
    P = s.pos.shape[1]
    K = s.coin_loc.shape[1]
    p = int(s.player[i])
    if player_out[i] != p:
        return E_PLAYER_OUT, int(player_out[i])
    if p != track[i, T_ACTOR]:
        return E_TURN_ORDER, int(track[i, T_ACTOR])
    if s.outcome[i] != ONGOING:
        return E_OUTCOME, int(s.outcome[i])
    if s.turns[i] != track[i, T_TURNS]:
        return E_TURNS, int(track[i, T_TURNS])
    if s.turns[i] >= params[P_MAX_TURNS]:
        return E_TOO_LONG, int(s.turns[i])
    for q in range(P):
        if s.home[i, q] != homes[i, q]:
            return E_CONSTANT, 1
    for k in range(4):
        if s.slot_owner[i, k] != slots[i, k]:
            return E_CONSTANT, 2
    for k in range(3):
        if s.order[i, k] != order[i, k]:
            return E_CONSTANT, 3
    for k in range(2):
        if s.forced[i, k] != -1:
            return E_FORCED, k
    # pieces: on a square, not void, not on another's suit tile, one per square
    for q in range(P):
        x = int(s.pos[i, q])
        if x < 0 or x >= S:
            return E_PIECE_RANGE, q
        kd = kind[x]
        if kd == VOID:
            return E_PIECE_VOID, q
        if kd >= 0 and not may_enter(kind, slot_home, params, s.slot_owner, i, q, x):
            return E_PIECE_TILE, q
        for r in range(q + 1, P):
            if s.pos[i, r] == x:
                return E_PIECES_SHARE, x
    # coins: their set-up values; on a map square, carried or banked by a player
    carried = 0
    for c in range(K):
        if s.coin_value[i, c] != values[i, c]:
            return E_COIN_VALUE, c
        loc = int(s.coin_loc[i, c])
        if 0 <= loc < S:
            if kind[loc] != MAP:
                # only a visitor's gold lies on a suit tile: a loser drops it there
                if (
                    params[P_LITERAL] == 0
                    or kind[loc] < 0
                    or loc == slot_home[kind[loc]]
                    or s.slot_owner[i, kind[loc]] < 0
                ):
                    return E_COIN_SQUARE, c
                counts[C_COINS_ON_SUIT_TILE] += 1
            for q in range(P):  # whoever enters a square takes what lies there
                if s.pos[i, q] == loc:
                    return E_COIN_UNDER_PIECE, c
        elif S + CARRIED <= loc < S + CARRIED + P:
            carried += loc == S + CARRIED + p
        elif not (S + BANKED <= loc < S + BANKED + P):
            return E_COIN_PLACE, c
    # this turn: squares moved within the allowance, trail as the checker saw it
    st = int(s.steps[i])
    if st != track[i, T_STEPS]:
        return E_STEPS, int(track[i, T_STEPS])
    allow = allowance(p, carried)
    if st < 0 or st >= allow:
        return E_ALLOWANCE, st * 10 + allow
    for j in range(st + 1):
        if s.trail[i, j] != trail[i, j]:
            return E_TRAIL, j
        for jj in range(j):
            if s.trail[i, j] == s.trail[i, jj]:
                return E_TRAIL_REPEAT, j
    if s.trail[i, st] != s.pos[i, p]:
        return E_TRAIL_END, 0
    for j in range(st + 1, s.trail.shape[1]):
        if s.trail[i, j] != -1:
            return E_TRAIL_TAIL, j
    # the mask
    if mask[i, STOP] == 0:
        return E_MASK_STOP, 0
    x = int(s.pos[i, p])
    for d in range(4):
        t = nbr[x, d]
        want = t >= 0
        if not want or (kind[t] >= 0 and s.slot_owner[i, kind[t]] < 0):
            want = False  # off the grid, a void square or an unused suit tile: no square
            counts[C_MASK_OFF_MAP] += 1
        elif not may_enter(kind, slot_home, params, s.slot_owner, i, p, t):
            want = False
            counts[C_MASK_OTHERS_TILE] += 1
        else:
            for j in range(st + 1):
                if trail[i, j] == t:
                    want = False
            if not want:
                counts[C_MASK_VISITED] += 1
        if (mask[i, d] != 0) != want:
            return E_MASK, d * 10 + int(want)
    return OK, 0


@njit
def _check_fresh(i, s, mask, player_out, params, tab, trk, counts):
    """Game ``i`` is a fresh set-up; starts the checker's record of it."""
    nbr, kind, slot_home, centres = tab
    track, trail, values, order, slots, homes, exp_pos, exp_loc = trk
    P = s.pos.shape[1]
    H = P - 1
    K = s.coin_loc.shape[1]
    if s.outcome[i] != ONGOING:
        return E_FRESH, 1
    if s.turns[i] != 0:
        return E_FRESH, 2
    if s.steps[i] != 0:
        return E_FRESH, 3
    for j in range(5):
        if s.fight[i, j] != -1:
            return E_FRESH, 4
    # suit tiles: the monster's slot 0; hunters on slots 1..H (in order, unless random roles)
    if s.slot_owner[i, 0] != MONSTER:
        return E_SLOTS, 0
    seen = 0
    for k in range(1, 4):
        q = int(s.slot_owner[i, k])
        if k <= H:
            if q < 1 or q > H or (seen >> q) & 1:
                return E_SLOTS, k
            seen |= 1 << q
            if params[P_RANDOM_ROLES] == 0 and q != k:
                return E_SLOTS, k
        elif q != -1:
            return E_SLOTS, k
    seen = 0
    for k in range(3):
        q = int(s.order[i, k])
        if k < H:
            if q < 1 or q > H or (seen >> q) & 1:
                return E_ORDER, k
            seen |= 1 << q
            if params[P_RANDOM_ROLES] == 0 and q != k + 1:
                return E_ORDER, k
        elif q != 0:
            return E_ORDER, k
    for k in range(4):
        q = int(s.slot_owner[i, k])
        if q >= 0:
            if s.home[i, q] != slot_home[k] or s.pos[i, q] != s.home[i, q]:
                return E_HOME, q
    # one coin on each map tile's centre square; values from the 24 - P non-suit tiles
    for k in range(K):
        found = 0
        for c in range(K):
            found += s.coin_loc[i, c] == centres[k]
        if found != 1:
            return E_FRESH_COINS, int(centres[k])
    for v in range(FACES):
        n = 0
        for c in range(K):
            n += s.coin_value[i, c] == v
        if n > (4 - P if v == 0 else 4):
            return E_FRESH_VALUES, v
    for c in range(K):
        if s.coin_value[i, c] < 0 or s.coin_value[i, c] >= FACES:
            return E_FRESH_VALUES, -1
    if s.player[i] != s.order[i, 0]:
        return E_FRESH, 5
    # the record
    for j in range(NUM_TRACK):
        track[i, j] = 0
    track[i, T_ACTOR] = s.order[i, 0]
    trail[i, 0] = s.pos[i, s.order[i, 0]]
    for c in range(K):
        values[i, c] = s.coin_value[i, c]
    for k in range(3):
        order[i, k] = s.order[i, k]
    for k in range(4):
        slots[i, k] = s.slot_owner[i, k]
    for q in range(P):
        homes[i, q] = s.home[i, q]
    return _check_position(i, s, mask, player_out, params, tab, trk, counts)


@njit
def _banked(i, exp_loc, values, S, P, K):
    """Gold banked by the monster and by the hunters, coins at ``exp_loc``."""
    monster, hunters = 0, 0
    for c in range(K):
        loc = exp_loc[i, c]
        if loc == S + BANKED + MONSTER:
            monster += values[i, c]
        elif S + BANKED < loc < S + BANKED + P:
            hunters += values[i, c]
    return monster, hunters


@njit
def _end_error(i, exp_loc, values, S, P, K, terminated, truncated, rewards, turns, max_turns):
    """Whether the step's flags and rewards fit coins at ``exp_loc`` and
    ``turns`` finished turns (OK, or the error), with no side effects."""
    all_banked = True
    for c in range(K):
        all_banked &= exp_loc[i, c] >= S + BANKED
    if terminated[i] != all_banked:
        return E_TERMINATED
    if truncated[i] != (not all_banked and turns >= max_turns):
        return E_TRUNCATED
    monster, hunters = _banked(i, exp_loc, values, S, P, K)
    sign = 0.0
    if terminated[i] or truncated[i]:
        sign = 1.0 if hunters > monster else (-1.0 if hunters < monster else 0.0)
    for r in range(P):
        if rewards[i, r] != (-sign if r == MONSTER else sign):
            return E_REWARD
    return OK


@njit
def _check_step(
    i,
    prev,
    s,
    actions,
    mask,
    rewards,
    terminated,
    truncated,
    player_out,
    params,
    tab,
    trk,
    counts,
    auto_reset,
):
    """Game ``i``'s step from ``prev`` with ``actions[i]``: the pieces and coins
    where the rules put them, the fight, the flags, the rewards, the next actor,
    then the new position (a fresh game if it ended and ``auto_reset``)."""
    nbr, kind, slot_home, centres = tab
    track, trail, values, order, slots, homes, exp_pos, exp_loc = trk
    S = params[P_S]
    P = s.pos.shape[1]
    H = P - 1
    K = s.coin_loc.shape[1]
    p = int(prev.player[i])
    a = int(actions[i])
    if terminated[i] and truncated[i]:
        return E_BOTH_FLAGS, 0
    finished = terminated[i] or truncated[i]
    restarted = finished and auto_reset
    counts[C_STEPS] += 1
    for q in range(P):
        exp_pos[i, q] = prev.pos[i, q]
    for c in range(K):
        exp_loc[i, c] = prev.coin_loc[i, c]
    here = int(prev.pos[i, p])
    turn_end = True
    extra = False
    fought = False
    if a == STOP:
        counts[C_STOPS] += 1
    else:
        if a < 0 or a > STOP:
            return E_ACTION, a
        t = nbr[here, a]
        if t < 0:
            return E_ACTION, a
        q = -1
        for r in range(P):
            if r != p and prev.pos[i, r] == t:
                q = r
        if q < 0:
            # a move: pick up what lies there; bank on entering the own suit tile with gold
            counts[C_MOVES] += 1
            if kind[t] >= 0 and prev.slot_owner[i, kind[t]] != p:
                counts[C_ONTO_OTHERS_TILE] += 1
            exp_pos[i, p] = t
            before = 0
            picked = 0
            for c in range(K):
                if exp_loc[i, c] == S + CARRIED + p:
                    before += 1
                elif exp_loc[i, c] == t:
                    exp_loc[i, c] = S + CARRIED + p
                    picked += 1
            held = before + picked
            if picked > 0:
                counts[C_PICKUPS] += 1
            if allowance(p, before) == 1:
                counts[C_ONE_SQUARE_TURNS] += 1
            moved = track[i, T_STEPS] + 1
            if kind[t] >= 0 and prev.slot_owner[i, kind[t]] == p and held > 0:
                counts[C_BANKS] += 1
                for c in range(K):
                    if exp_loc[i, c] == S + CARRIED + p:
                        exp_loc[i, c] = S + BANKED + p
            else:
                turn_end = moved >= allowance(p, held)
                if turn_end and picked > 0 and moved < allowance(p, before):
                    counts[C_PICKUP_ENDS_TURN] += 1
                if not turn_end:
                    track[i, T_STEPS] = moved
                    trail[i, moved] = t
        else:
            # a fight: both roll; the loser drops its gold where it stood and goes home
            fought = True
            counts[C_FIGHTS] += 1
            if p == MONSTER:
                counts[C_MONSTER_ATTACKS] += 1
            elif q == MONSTER:
                counts[C_HUNTER_ATTACKS_MONSTER] += 1
            else:
                counts[C_HUNTER_ATTACKS_HUNTER] += 1
            if restarted:
                # The record of the fight went with the old game. A fight banks
                # only when an attacker wins onto its own suit tile (literal suit
                # tiles): if the end does not fit a fight that banked nothing,
                # the attacker won and banked its gold and the loser's.
                extra = False
                if params[P_LITERAL] != 0 and kind[t] >= 0 and prev.slot_owner[i, kind[t]] == p:
                    if (
                        _end_error(
                            i,
                            exp_loc,
                            values,
                            S,
                            P,
                            K,
                            terminated,
                            truncated,
                            rewards,
                            track[i, T_TURNS] + 1,
                            params[P_MAX_TURNS],
                        )
                        != OK
                    ):
                        counts[C_WIN_BANKS] += 1
                        for c in range(K):
                            if exp_loc[i, c] == S + CARRIED + p or exp_loc[i, c] == S + CARRIED + q:
                                exp_loc[i, c] = S + BANKED + p
            else:
                if s.fight[i, 0] != p or s.fight[i, 1] != q:
                    return E_FIGHT, 1
                ra = int(s.fight[i, 2])
                rd = int(s.fight[i, 3])
                if ra < 0 or ra >= FACES or rd < 0 or rd >= FACES:
                    return E_FIGHT, 2
                counts[C_ATTACK_FACES + ra] += 1
                counts[C_DEFENCE_FACES + rd] += 1
                if p == MONSTER:
                    res = ATTACKER_WINS if ra >= rd else DEFENDER_WINS
                elif q == MONSTER:
                    res = ATTACKER_WINS if ra > rd else DEFENDER_WINS
                elif ra == rd:
                    res = BOTH_HOME
                else:
                    res = ATTACKER_WINS if ra > rd else DEFENDER_WINS
                if s.fight[i, 4] != res:
                    return E_FIGHT, 3
                counts[C_ATTACKER_WINS + res] += 1
                if res != DEFENDER_WINS:  # the defender loses
                    for c in range(K):
                        if exp_loc[i, c] == S + CARRIED + q:
                            exp_loc[i, c] = t
                            counts[C_COINS_DROPPED] += 1
                    exp_pos[i, q] = prev.home[i, q]
                if res != ATTACKER_WINS:  # the attacker loses
                    for c in range(K):
                        if exp_loc[i, c] == S + CARRIED + p:
                            exp_loc[i, c] = here
                            counts[C_COINS_DROPPED] += 1
                    exp_pos[i, p] = prev.home[i, p]
                else:
                    exp_pos[i, p] = t
                    loot = 0
                    held = 0
                    for c in range(K):
                        if exp_loc[i, c] == t:
                            exp_loc[i, c] = S + CARRIED + p
                            loot += 1
                        held += exp_loc[i, c] == S + CARRIED + p
                    if loot > 0:
                        counts[C_LOOT_PICKED] += 1
                    # landing on its own suit tile with gold banks it (literal suit tiles)
                    if kind[t] >= 0 and prev.slot_owner[i, kind[t]] == p and held > 0:
                        counts[C_WIN_BANKS] += 1
                        for c in range(K):
                            if exp_loc[i, c] == S + CARRIED + p:
                                exp_loc[i, c] = S + BANKED + p
                extra = p == MONSTER and res == ATTACKER_WINS
                turn_end = not extra
    # the end: every coin banked, or the turn limit
    all_banked = True
    for c in range(K):
        all_banked &= exp_loc[i, c] >= S + BANKED
    if terminated[i] != all_banked:
        return E_TERMINATED, int(all_banked)
    if turn_end or extra:  # the banking turn that ends the game counts too
        track[i, T_TURNS] += 1
    turns = track[i, T_TURNS]
    if turns > params[P_MAX_TURNS]:
        return E_TOO_LONG, int(turns)
    want_trunc = not all_banked and turns >= params[P_MAX_TURNS]
    if truncated[i] != want_trunc:
        return E_TRUNCATED, int(want_trunc)
    # rewards: the team result by banked gold at the end, else nothing
    monster, hunters = _banked(i, exp_loc, values, S, P, K)
    sign = 0.0
    if finished:
        sign = 1.0 if hunters > monster else (-1.0 if hunters < monster else 0.0)
        counts[C_TERMINATED if terminated[i] else C_TRUNCATED] += 1
        counts[C_HUNTERS_WIN if sign > 0 else (C_MONSTER_WINS if sign < 0 else C_DRAWS)] += 1
        if truncated[i] and fought:
            counts[C_TRUNCATED_BY_FIGHT] += 1
    for r in range(P):
        want = -sign if r == MONSTER else sign
        if rewards[i, r] != want:
            return E_REWARD, r
    if restarted:
        return _check_fresh(i, s, mask, player_out, params, tab, trk, counts)
    # the pieces, the coins and the fight record as predicted
    for q in range(P):
        if s.pos[i, q] != exp_pos[i, q]:
            return E_POS, q
    for c in range(K):
        if s.coin_loc[i, c] != exp_loc[i, c]:
            return E_COIN, c
    if not fought and s.fight[i, 0] != -1:
        return E_FIGHT, 4
    if finished:  # the AEC env's last position
        want_outcome = TERMINATED if terminated[i] else TRUNCATED
        if s.outcome[i] != want_outcome:
            return E_OUTCOME, int(s.outcome[i])
        if s.turns[i] != turns:
            return E_TURNS, int(turns)
        for c in range(K):
            if terminated[i] and s.coin_loc[i, c] < S + BANKED:
                return E_NOT_ALL_BANKED, c
        for k in range(mask.shape[1]):
            if mask[i, k] != 0:
                return E_MASK_AFTER_END, k
        return OK, 0
    # who acts next
    if extra:
        counts[C_EXTRA_TURNS] += 1
        if track[i, T_EXTRA] == 1:
            counts[C_CHAINED_EXTRA_TURNS] += 1
        track[i, T_EXTRA] = 1
        track[i, T_STEPS] = 0
        trail[i, 0] = exp_pos[i, p]
    elif turn_end:
        track[i, T_EXTRA] = 0
        if p != MONSTER:
            track[i, T_HPTR] = (track[i, T_HPTR] + 1) % H
        track[i, T_CYCLE] = (track[i, T_CYCLE] + 1) % 3
        nxt = MONSTER if track[i, T_CYCLE] == 2 else order[i, track[i, T_HPTR]]
        track[i, T_ACTOR] = nxt
        track[i, T_STEPS] = 0
        trail[i, 0] = exp_pos[i, nxt]
    return _check_position(i, s, mask, player_out, params, tab, trk, counts)


@njit
def _check_batch(
    prev, s, actions, mask, rewards, terminated, truncated, player_out, params, tab, trk, counts, err, detail
):
    """Check every game of a vector-env step (auto-reset); writes an error code
    and detail per game and returns the number of games that failed."""
    bad = 0
    for i in range(s.pos.shape[0]):
        e, d = _check_step(
            i,
            prev,
            s,
            actions,
            mask,
            rewards,
            terminated,
            truncated,
            player_out,
            params,
            tab,
            trk,
            counts,
            True,
        )
        err[i] = e
        detail[i] = d
        if e != OK:
            bad += 1
    return bad


@njit
def _check_resets(s, mask, player_out, params, tab, trk, counts, err, detail):
    """Check every game is a fresh set-up (after reset) and start their records."""
    bad = 0
    for i in range(s.pos.shape[0]):
        e, d = _check_fresh(i, s, mask, player_out, params, tab, trk, counts)
        err[i] = e
        detail[i] = d
        if e != OK:
            bad += 1
    return bad


# --------------------------------------------------------------- entry points
# The tables and the record go to numba as plain tuples: a named tuple's class
# would be pickled into numba's cache index under this module's import name,
# which differs between pytest and a plain import.


def _plain(args):
    return tuple(tuple(a) if isinstance(a, (Tables, Tracker)) else a for a in args)


def check_position(*args):
    """``(i, s, mask, player_out, params, tab, trk, counts) -> (error, detail)``."""
    return _check_position(*_plain(args))


def check_fresh(*args):
    """``(i, s, mask, player_out, params, tab, trk, counts) -> (error, detail)``."""
    return _check_fresh(*_plain(args))


def check_step(*args):
    """``(i, prev, s, actions, mask, rewards, terminated, truncated, player_out, params, tab,
    trk, counts, auto_reset) -> (error, detail)``."""
    return _check_step(*_plain(args))


def check_batch(*args):
    """``(prev, s, actions, mask, rewards, terminated, truncated, player_out, params, tab, trk,
    counts, err, detail) -> failures``."""
    return _check_batch(*_plain(args))


def check_resets(*args):
    """``(s, mask, player_out, params, tab, trk, counts, err, detail) -> failures``."""
    return _check_resets(*_plain(args))
