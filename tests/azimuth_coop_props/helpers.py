"""Shared bits of the co-op property tests: describing a game, and positions
one move from the team's win (random play almost never gets all four
castaways home in time)."""

from __future__ import annotations

import numpy as np

from azgames.core import state as state_ops
from azgames.core.game import TERMINATED, unpack_status
from azimuth_env.board import AT_HOME, MARKS, mark_corners


def describe(rules, one) -> str:
    """Game 0 of ``one`` as the text diagram and its co-op fields."""
    return (
        f"{rules.render_ansi(one)}\ncastaway {one.castaway[0].tolist()} beach "
        f"{one.beach[0].tolist()} hand {one.hand[0, :, 0].tolist()} player "
        f"{int(one.colour[0])} ply {int(one.ply[0])} first {int(one.first[0])} round "
        f"{int(one.round[0])} turn {int(one.turn[0])} face {int(one.face[0])} rolled "
        f"{int(one.rolled[0])} asleep {one.asleep[0].tolist()} turtle {int(one.turtle[0])} "
        f"wave {int(one.wave[0])} pending {np.flatnonzero(one.pending[0]).tolist()}"
    )


def near_win(rules, one, rng):
    """A copy of one-game state ``one`` (a colour's turn in a round) where
    the three other castaways are home and the acting colour's stands on one
    of its landing spots, with a wind of its colour beside it that it can
    place or turn to land it; None if ``one`` is not at a colour's turn."""
    s = state_ops.clone(one)
    if s.round[0] < 1 or s.wave[0] >= 0 or s.outcome[0] != 0:
        return None
    p = int(s.colour[0])
    layout = rules.layout
    b = int(s.beach[0, p])
    spot = int(rng.choice([int(x) for x in layout.beach_spots[b] if x >= 0]))
    side = int(layout.beach_side[b])
    for q in range(4):
        if q != p:
            s.castaway[0, q] = AT_HOME
    stacks = [list(map(int, s.stack[0, pt, : s.height[0, pt]])) for pt in range(36)]
    if not stacks[spot] or stacks[spot][-1] != p:
        donor = next(pt for pt in rng.permutation(36).tolist() if pt != spot and p in stacks[pt])
        stacks[donor].remove(p)
        stacks[spot].append(p)
    s.stack[0] = -1
    for pt, st in enumerate(stacks):
        s.height[0, pt] = len(st)
        s.stack[0, pt, : len(st)] = st
    s.castaway[0, p] = spot
    # (a sleeping castaway stays asleep: a wind may still land it)
    marks = [m for m in range(MARKS * MARKS) if spot in mark_corners(m) and m != layout.island]
    if s.hand[0, p, 0] == 0:
        # one of its winds moves beside the castaway, a quarter turn from the beach
        own = [m for m in range(25) if s.wind_colour[0, m] == p]
        src = int(rng.choice(own))
        free = [m for m in marks if s.wind_colour[0, m] < 0 or m == src]
        if not free:
            return None
        dst = int(rng.choice(free))
        s.wind_colour[0, src] = s.wind_owner[0, src] = -1
        s.wind_dir[0, src] = 0
        s.wind_colour[0, dst] = s.wind_owner[0, dst] = p
        s.wind_dir[0, dst] = (side + 1) % 4
    return s


def winning_actions(rules, one) -> list[int]:
    """The acting colour's legal actions that win the game at once."""
    obs = np.empty(rules.observation_shape(), np.int8)
    mask = np.empty(rules.num_actions, np.int8)
    rules.observe(one, -1, obs, mask)
    rewards = np.zeros(rules.num_players, np.float32)
    wins = []
    for a in np.flatnonzero(mask).tolist():
        trial = state_ops.clone(one)
        code = rules.step(trial, a, obs.copy(), mask.copy(), rewards)
        if unpack_status(code)[0] == TERMINATED and rewards[0] == 1.0:
            wins.append(a)
    return wins
