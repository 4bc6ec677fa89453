"""Azure Attack's rules as numba kernels over its state tuple.

The five functions at the bottom are the kernel contract's
(:mod:`azgames.core.contract`): ``reset_game``, ``play``, ``write_observation``,
``write_mask`` and ``illegal_code``, each over the state ``s``
(:class:`azure_env.rules.AzureState`), the config ``cfg``
(:class:`azure_env.rules.AzureConfig`: ``tables``, the layout's table array
(:func:`azure_env.board.kernel_tables`), ``S`` its number of squares,
``max_turns`` and ``random_roles``) and a game index ``i``; the core writes
every entry point from them. The helpers above them take the arrays they
read, and a game index.

Players: 0 is the monster, 1-3 the hunters. A coin's place ``coin_loc`` is a
square (``< S``), or ``S + CARRIED + p`` (carried by p), ``S + BANKED + p``
(banked in p's suit tile) or ``S + OUT`` (not in the game: test diagrams).

Actions: 0-3 step north, east, south, west; 4 stops (ends the turn).
"""

from __future__ import annotations

import numpy as np

from azgames.core.chance import roll_die
from azgames.core.game import DREW, ONGOING, TERMINATED, TRUNCATED, pack_status
from azgames.core.jit import njit_inline, njit_shared
from azgames.core.rng import below

from .board import ENTER_HUNTER, ENTER_MONSTER, MAP, STOP

MONSTER = 0
MONSTER_ALLOWANCE, HUNTER_ALLOWANCE, COIN_COST = 6, 4, 2
DIE_FACES = 6
CARRIED, BANKED, OUT = 0, 4, 8
#: Piecepack tiles: 4 suits x values 0-5; each player's suit tile is its
#: suit's null, so the map draws from the rest.
SUITS, VALUES = 4, 6

# Fight results, in fight[i, 4].
ATTACKER_WINS, DEFENDER_WINS, BOTH_HOME = 0, 1, 2

# Why a step is illegal (rules.ILLEGAL_REASONS has the words).
LEGAL, OFF_MAP, OTHERS_TILE, VISITED = 0, 1, 2, 3

# Observation planes (each S squares, in square order).
OWN, ALLIES, ENEMIES, CARRIED_COINS, CARRIED_VALUE = 0, 1, 2, 3, 4
COINS = 5  # 5-10: coins of value 0-5 lying on the square
MAP_PLANE, OWN_TILE, ALLY_TILES, ENEMY_TILES = 11, 12, 13, 14
VISITED_PLANE, ACTOR, NEXT, ALLOWANCE, OWN_BANKED, OTHER_BANKED = 15, 16, 17, 18, 19, 20
NUM_PLANES = 21


@njit_inline
def allowance(p, carried):
    """Squares a piece may move this turn: 6 (monster) or 4 (hunter), 2 fewer
    per coin carried, but never below 1."""
    base = MONSTER_ALLOWANCE if p == MONSTER else HUNTER_ALLOWANCE
    return max(1, base - COIN_COST * carried)


@njit_inline
def carried_by(coin_loc, i, S, p):
    n = 0
    code = S + CARRIED + np.int64(p)  # widened: an int8 p overflows past 127 squares in plain Python
    for k in range(coin_loc.shape[1]):
        n += coin_loc[i, k] == code
    return n


@njit_inline
def step_code(tables, pos, slot_owner, trail, steps, i, p, S, d):
    """LEGAL, or why player ``p`` may not step in direction ``d`` now."""
    t = tables[pos[i, p] * 4 + d]
    if t < 0:
        return OFF_MAP
    slot = tables[4 * S + t]
    if slot >= 0:
        owner = slot_owner[i, slot]
        if owner < 0:  # a hunter's tile left out with fewer hunters
            return OFF_MAP
        # Another's suit tile: open only where the access table (option
        # suit_tiles) lets a monster / a hunter in; never on a home square.
        if owner != p and (tables[5 * S + t] & (ENTER_MONSTER if p == MONSTER else ENTER_HUNTER)) == 0:
            return OTHERS_TILE
    for k in range(steps[i] + 1):
        if trail[i, k] == t:
            return VISITED
    return LEGAL


@njit_inline
def mark_legal(tables, pos, slot_owner, trail, steps, i, p, S, row):
    """Player ``p``'s legal actions in game ``i`` into ``row``: the steps open, and ``STOP``."""
    for d in range(4):
        row[d] = step_code(tables, pos, slot_owner, trail, steps, i, p, S, d) == LEGAL
    row[STOP] = 1


@njit_inline
def following(order, next_hunter, hunter_turns, i, p):
    """Who plays after ``p``'s turn ends (two hunter turns, then the monster)."""
    if p != MONSTER and hunter_turns[i] == 1:
        return MONSTER
    return order[i, next_hunter[i]]


@njit_inline
def num_hunters(order, i):
    h = 0
    for k in range(order.shape[1]):
        h += order[i, k] > 0
    return h


@njit_inline
def drop_coins(coin_loc, i, S, p, square):
    for k in range(coin_loc.shape[1]):
        if coin_loc[i, k] == S + CARRIED + p:
            coin_loc[i, k] = square


@njit_inline
def bank_if_home(tables, slot_owner, coin_loc, i, S, p, square, carried):
    """Bank everything ``p`` carries if ``square`` is on its own suit tile;
    returns whether it banked."""
    slot = tables[4 * S + square]
    if carried == 0 or slot < 0 or slot_owner[i, slot] != p:
        return False
    for k in range(coin_loc.shape[1]):
        if coin_loc[i, k] == S + CARRIED + p:
            coin_loc[i, k] = S + BANKED + p
    return True


@njit_inline
def pick_up(coin_loc, i, S, p, square):
    """Pick up every coin on ``square``; returns the coins ``p`` now carries."""
    n = 0
    for k in range(coin_loc.shape[1]):
        if coin_loc[i, k] == square:
            coin_loc[i, k] = S + CARRIED + p
        n += coin_loc[i, k] == S + CARRIED + p
    return n


@njit_inline
def side_totals(coin_value, coin_loc, i, S):
    """Banked value of the monster and of all hunters together."""
    monster, hunters = 0, 0
    for k in range(coin_loc.shape[1]):
        loc = coin_loc[i, k]
        v = np.int64(coin_value[i, k])
        if loc == S + BANKED + MONSTER:
            monster += v
        elif S + BANKED < loc < S + OUT:
            hunters += v
    return monster, hunters


@njit_inline
def write_team_rewards(coin_value, coin_loc, i, S, rewards):
    """+1 to each agent of the side with more banked gold, -1 to the other;
    0 to all on equal totals. Returns whether any reward is non-zero."""
    monster, hunters = side_totals(coin_value, coin_loc, i, S)
    sign = 1.0 if hunters > monster else (-1.0 if hunters < monster else 0.0)
    rewards[i, 0] = 0.0 - sign  # not -sign: a draw gives 0.0, never -0.0
    for q in range(1, rewards.shape[1]):
        rewards[i, q] = sign
    return sign != 0.0


# ---------------------------------------------------------------- the rules, shared
# The bodies of the large kernels: compiled once (the game index and the
# action as int64, whatever type each entry point passes) and called without
# numba's reference counting (``njit_shared``: each array is read into a local).


@njit_shared
def set_up(s, cfg, i):
    """Set up game ``i``: suit tiles, pieces at home, the map's K tiles drawn
    from the piecepack's tiles that are not suit tiles, each tile's coin on it."""
    tables, S = cfg.tables, cfg.S
    pos, home, slot_owner, order = s.pos, s.home, s.slot_owner, s.order
    coin_value, coin_loc, rng, trail = s.coin_value, s.coin_loc, s.rng, s.trail
    players = pos.shape[1]
    hunters = players - 1
    K = coin_loc.shape[1]
    for k in range(order.shape[1]):
        order[i, k] = k + 1 if k < hunters else 0
    slot_owner[i, 0] = MONSTER
    for k in range(1, slot_owner.shape[1]):
        slot_owner[i, k] = k if k <= hunters else -1
    if cfg.random_roles:  # the book's set-up roll: hunters' turn order and seats
        for k in range(hunters - 1, 0, -1):
            j = below(rng, i, k + 1)
            order[i, k], order[i, j] = order[i, j], order[i, k]
        for k in range(hunters, 1, -1):
            j = 1 + below(rng, i, k)
            slot_owner[i, k], slot_owner[i, j] = slot_owner[i, j], slot_owner[i, k]
    for k in range(slot_owner.shape[1]):
        q = slot_owner[i, k]
        if q >= 0:
            home[i, q] = tables[6 * S + K + k]
            pos[i, q] = home[i, q]
    # Draw K of the pool's tiles (selection sampling), then shuffle them over the map.
    pool = SUITS * VALUES - players
    need = K
    k = 0
    for t in range(SUITS * VALUES):
        suit, value = t // VALUES, t % VALUES
        if suit < players and value == 0:
            continue
        if below(rng, i, pool) < need:
            coin_value[i, k] = value
            k += 1
            need -= 1
        pool -= 1
    for k in range(K - 1, 0, -1):
        j = below(rng, i, k + 1)
        coin_value[i, k], coin_value[i, j] = coin_value[i, j], coin_value[i, k]
    for k in range(K):
        coin_loc[i, k] = tables[6 * S + k]
    s.player[i] = order[i, 0]
    s.steps[i] = 0
    trail[i, :] = -1
    trail[i, 0] = pos[i, s.player[i]]
    s.next_hunter[i] = 1 % hunters
    s.hunter_turns[i] = 0
    s.turns[i] = 0
    s.outcome[i] = ONGOING
    s.forced[i, :] = -1
    s.fight[i, :] = -1


@njit_shared
def take_step(s, cfg, i, action, rewards):
    """Apply the legal ``action`` of game ``i``'s actor; returns a packed
    status, plus ``DREW`` if it fought (the dice rolled)."""
    tables, S = cfg.tables, cfg.S
    pos, slot_owner, coin_loc, player = s.pos, s.slot_owner, s.coin_loc, s.player
    steps, trail, fight, outcome, turns = s.steps, s.trail, s.fight, s.outcome, s.turns
    p = np.int64(player[i])
    for q in range(rewards.shape[1]):
        rewards[i, q] = 0.0
    fight[i, 0] = -1
    turn_over = action == STOP
    fresh_turn = turn_over
    if not turn_over:
        here = pos[i, p]
        there = tables[here * 4 + action]
        q = -1
        for r in range(pos.shape[1]):
            if r != p and pos[i, r] == there:
                q = r
        if q >= 0:
            # Combat: both roll a die; the monster wins ties against a hunter.
            roll_p = roll_die(s.rng, s.forced, i, DIE_FACES)
            roll_q = roll_die(s.rng, s.forced, i, DIE_FACES)
            if p == MONSTER:
                result = ATTACKER_WINS if roll_p >= roll_q else DEFENDER_WINS
            elif q == MONSTER:
                result = ATTACKER_WINS if roll_p > roll_q else DEFENDER_WINS
            elif roll_p == roll_q:
                result = BOTH_HOME
            else:
                result = ATTACKER_WINS if roll_p > roll_q else DEFENDER_WINS
            fight[i, 0], fight[i, 1], fight[i, 2], fight[i, 3], fight[i, 4] = p, q, roll_p, roll_q, result
            # A loser drops its gold on the square it stood on and goes home.
            home = s.home
            if result != DEFENDER_WINS:
                drop_coins(coin_loc, i, S, q, there)
                pos[i, q] = home[i, q]
            if result != ATTACKER_WINS:
                drop_coins(coin_loc, i, S, p, here)
                pos[i, p] = home[i, p]
            else:
                pos[i, p] = there
                # Winning onto its own suit tile (open suit tiles only: the
                # loser stood there) banks what it now carries.
                bank_if_home(tables, slot_owner, coin_loc, i, S, p, there, pick_up(coin_loc, i, S, p, there))
            fresh_turn = True
            # The monster's win starts an extra turn; every other fight ends the turn.
            turn_over = not (p == MONSTER and result == ATTACKER_WINS)
        else:
            pos[i, p] = there
            steps[i] += 1
            trail[i, steps[i]] = there
            carried = pick_up(coin_loc, i, S, p, there)
            if bank_if_home(tables, slot_owner, coin_loc, i, S, p, there, carried):
                turn_over = True
            else:
                turn_over = steps[i] >= allowance(p, carried)
            fresh_turn = turn_over
    rewarded = False
    everything_banked = True
    for k in range(coin_loc.shape[1]):
        everything_banked &= coin_loc[i, k] >= S + BANKED
    if everything_banked:  # banking ended the turn: it counts as finished
        turns[i] += 1
        outcome[i] = TERMINATED
        rewarded = write_team_rewards(s.coin_value, coin_loc, i, S, rewards)
    elif fresh_turn:
        if turn_over:
            order, next_hunter, hunter_turns = s.order, s.next_hunter, s.hunter_turns
            nxt = following(order, next_hunter, hunter_turns, i, p)
            if p != MONSTER:
                hunter_turns[i] = (hunter_turns[i] + 1) % 2
            if nxt != MONSTER:
                next_hunter[i] = (next_hunter[i] + 1) % num_hunters(order, i)
            player[i] = nxt
            p = nxt
        steps[i] = 0
        trail[i, :] = -1  # canonical: equal positions have equal states
        trail[i, 0] = pos[i, p]
        turns[i] += 1
        if turns[i] >= cfg.max_turns:
            outcome[i] = TRUNCATED
            rewarded = write_team_rewards(s.coin_value, coin_loc, i, S, rewards)
    code = pack_status(outcome[i], rewarded, player[i])
    return code + DREW if fight[i, 0] >= 0 else code


@njit_shared
def write_planes(s, cfg, i, viewer, row):
    """``viewer``'s planes of game ``i`` into the flat ``row`` (NUM_PLANES * S)."""
    tables, S = cfg.tables, cfg.S
    pos, slot_owner, coin_value, coin_loc = s.pos, s.slot_owner, s.coin_value, s.coin_loc
    steps, trail = s.steps, s.trail
    row[:] = 0
    team = viewer != MONSTER
    for q in range(pos.shape[1]):
        plane = OWN if q == viewer else (ALLIES if (q != MONSTER) == team else ENEMIES)
        row[plane * S + pos[i, q]] = 1
    own_banked, other_banked = 0, 0
    for k in range(coin_loc.shape[1]):
        # Widened: int8/int16 arithmetic would wrap in plain Python (NUMBA_DISABLE_JIT).
        loc = np.int64(coin_loc[i, k])
        v = np.int64(coin_value[i, k])
        if loc < S:
            row[(COINS + v) * S + loc] += 1
        elif loc < S + BANKED:
            sq = pos[i, loc - S - CARRIED]
            row[CARRIED_COINS * S + sq] += 1
            row[CARRIED_VALUE * S + sq] += v
        elif loc < S + OUT:
            if (loc - S - BANKED != MONSTER) == team:
                own_banked += v
            else:
                other_banked += v
    slots = 4 * S
    for sq in range(S):
        row[MAP_PLANE * S + sq] = tables[slots + sq] == MAP
    squares = 6 * S + coin_loc.shape[1] + 4
    for k in range(4):
        owner = slot_owner[i, k]
        if owner >= 0:
            plane = (
                OWN_TILE if owner == viewer else (ALLY_TILES if (owner != MONSTER) == team else ENEMY_TILES)
            )
            for j in range(4):
                row[plane * S + tables[squares + 4 * k + j]] = 1
    p = s.player[i]
    for k in range(steps[i] + 1):
        row[VISITED_PLANE * S + trail[i, k]] = 1
    row[ACTOR * S + pos[i, p]] = 1
    row[NEXT * S + pos[i, following(s.order, s.next_hunter, s.hunter_turns, i, p)]] = 1
    left = allowance(p, carried_by(coin_loc, i, S, p)) - steps[i]
    row[ALLOWANCE * S : (ALLOWANCE + 1) * S] = left
    row[OWN_BANKED * S : (OWN_BANKED + 1) * S] = own_banked
    row[OTHER_BANKED * S : (OTHER_BANKED + 1) * S] = other_banked


@njit_shared
def fill_mask(s, cfg, i, row):
    """The actor's legal actions in game ``i`` into ``row``. Shared, not inlined
    into every entry point: the vector env's first step compiled 2 s faster
    (6.7-7.1 s against 8.7-9.2), and it stepped no slower."""
    mark_legal(cfg.tables, s.pos, s.slot_owner, s.trail, s.steps, i, s.player[i], cfg.S, row)


# ---------------------------------------------------------------- the kernel contract


@njit_inline
def reset_game(s, cfg, i):
    set_up(s, cfg, np.int64(i))


@njit_inline
def play(s, cfg, i, action, rewards):
    return take_step(s, cfg, np.int64(i), np.int64(action), rewards)


@njit_inline
def write_observation(s, cfg, i, viewer, obs, j):
    write_planes(s, cfg, np.int64(i), np.int64(viewer), obs[j])


@njit_inline
def write_mask(s, cfg, i, mask, j):
    fill_mask(s, cfg, np.int64(i), mask[j])


@njit_inline
def illegal_code(s, cfg, i, action):
    """LEGAL, or why the actor of game ``i`` may not play ``action``."""
    if action == STOP:
        return LEGAL
    return step_code(cfg.tables, s.pos, s.slot_owner, s.trail, s.steps, i, s.player[i], cfg.S, action)
