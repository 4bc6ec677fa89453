"""Each game's ``legal`` and ``play`` for the search, over its own kernels.

Every function here is a thin call into the game's rules kernels (the same
ones the envs step), so the search plays exactly the game's rules. Importing
this module registers the four games with :mod:`.interface`.
"""

from __future__ import annotations

import numpy as np

from azacru_env import kernels as azacru
from azacru_env.rules import AzacruState
from azgames.jit import njit, njit_inline
from azimuth_env import kernels as azimuth
from azimuth_env.coop import kernels as coop
from azimuth_env.coop.rules import CoopState
from azimuth_env.rules import AzimuthState
from azure_env import kernels as azure
from azure_env.rules import AzureState

from ..azimuth_greedy import position_cost
from .interface import implement


@njit_inline
def azacru_legal(s, cfg, i, mask):
    azacru.write_mask(s.tiles, s.occupant, s.piece_field, s.piece_facing, i, s.player[i], mask, 0)


@njit_inline
def azacru_play(s, cfg, i, action, rewards):
    return azacru.play(s.tiles, s.occupant, s.piece_field, s.piece_facing, s.player, s.turns_left,
                       s.ply, s.outcome, i, action, cfg[0], rewards)


@njit_inline
def azure_legal(s, cfg, i, mask):
    azure.write_mask(cfg[0], s.pos, s.slot_owner, s.trail, s.steps, i, s.player[i], cfg[1], mask[0])


@njit_inline
def azure_play(s, cfg, i, action, rewards):
    return azure.play(s.pos, s.home, s.slot_owner, s.order, s.coin_value, s.coin_loc, s.player,
                      s.steps, s.trail, s.next_hunter, s.hunter_turns, s.turns, s.outcome,
                      s.forced, s.fight, s.rng, i, action, cfg[0], cfg[1], cfg[2], rewards)


@njit_inline
def azacru_observe(s, cfg, i, viewer, obs):
    azacru.write_observation(s.tiles, s.occupant, s.piece_field, s.piece_facing, s.turns_left, i,
                             viewer, obs.reshape((1, obs.size)), 0)


@njit_inline
def azure_observe(s, cfg, i, viewer, obs):
    azure.write_observation(s.pos, s.slot_owner, s.order, s.coin_value, s.coin_loc, s.player,
                            s.steps, s.trail, s.next_hunter, s.hunter_turns, i, viewer, cfg[0],
                            cfg[1], obs)


@njit
def azimuth_legal(s, cfg, i, mask):
    azimuth.write_mask(s.stack, s.height, s.wind_colour, s.wind_owner, s.wind_dir, s.hand,
                       s.coconuts, s.castaway, s.beach, i, s.player[i], cfg, mask, 0)


@njit
def azimuth_play(s, cfg, i, action, rewards):
    return azimuth.play(s.stack, s.height, s.wind_colour, s.wind_owner, s.wind_dir, s.hand,
                        s.coconuts, s.castaway, s.beach, s.player, s.ply, s.outcome, i, action,
                        cfg, rewards)


@njit
def azimuth_observe(s, cfg, i, viewer, obs):
    azimuth.write_observation(s.stack, s.height, s.wind_colour, s.wind_owner, s.wind_dir, s.hand,
                              s.coconuts, s.castaway, s.beach, s.player, i, viewer, cfg,
                              obs.reshape((1, obs.size)), 0)


@njit
def coop_legal(s, cfg, i, mask):
    coop.write_mask_coop(s.stack, s.height, s.wind_colour, s.wind_owner, s.wind_dir, s.hand,
                         s.coconuts, s.castaway, s.beach, s.turtle, s.wave, s.asleep, s.pending,
                         i, s.player[i], cfg, mask, 0)


@njit
def coop_play(s, cfg, i, action, rewards):
    return coop.play(s.stack, s.height, s.wind_colour, s.wind_owner, s.wind_dir, s.hand,
                     s.coconuts, s.castaway, s.beach, s.player, s.ply, s.outcome, s.rng, s.first,
                     s.round, s.turn, s.face, s.rolled, s.asleep, s.turtle, s.wave, s.pending,
                     s.forced, i, action, cfg, rewards)


#: Actions of lead, in the greedy's estimate of actions still needed to land,
#: that make an Azimuth position worth tanh(1) = 0.76 of the estimate's most.
AZIMUTH_LEAD_SCALE = 4.0
#: The most an Azimuth estimate is worth: less than a landing (1), however
#: far ahead, so that the search still tells the landing from the moves
#: around it (uncapped, a won race read 0.99999 whatever was played).
AZIMUTH_ESTIMATE_CAP = 0.9


@njit
def azimuth_estimate(s, cfg, i, values):
    """Each player's lead in :func:`~azgames.agents.azimuth_greedy.position_cost`
    (the greedy's estimate of the actions its castaway still needs) over its
    nearest rival, squashed by tanh into [-0.9, 0.9] (:data:`AZIMUTH_ESTIMATE_CAP`)."""
    n = values.shape[0]
    cost = np.empty(n)
    for q in range(n):
        cost[q] = position_cost(s.stack[i:i + 1], s.height[i:i + 1], s.wind_colour[i:i + 1],
                                s.wind_owner[i:i + 1], s.wind_dir[i:i + 1], s.hand[i:i + 1],
                                s.coconuts[i:i + 1], s.castaway[i:i + 1], s.beach[i:i + 1], q, cfg)
    for q in range(n):
        rival = np.inf
        for r in range(n):
            if r != q:
                rival = min(rival, cost[r])
        values[q] = AZIMUTH_ESTIMATE_CAP * np.tanh((rival - cost[q]) / AZIMUTH_LEAD_SCALE)


#: Gold of lead that makes an Azure Attack position worth tanh(1) = 0.76 of a win.
AZURE_LEAD_SCALE = 5.0


@njit
def azure_estimate(s, cfg, i, values):
    """The hunters' lead in gold over the monster (banked, plus half of what
    each side carries), squashed by tanh: the hunters' value, the monster's
    its negative."""
    S = cfg[1]
    lead = 0.0
    for k in range(s.coin_loc.shape[1]):
        loc = np.int64(s.coin_loc[i, k])
        v = np.float64(s.coin_value[i, k])
        if loc == S + azure.BANKED + azure.MONSTER:
            lead -= v
        elif S + azure.BANKED < loc < S + azure.OUT:
            lead += v
        elif loc == S + azure.CARRIED + azure.MONSTER:
            lead -= 0.5 * v
        elif S + azure.CARRIED < loc < S + azure.BANKED:
            lead += 0.5 * v
    x = np.tanh(lead / AZURE_LEAD_SCALE)
    values[0] = 0.0 - x  # not -x: no -0.0
    for q in range(1, values.shape[0]):
        values[q] = x


implement(AzacruState, azacru_legal, azacru_play, observe=azacru_observe, inline=True)
implement(AzureState, azure_legal, azure_play, azure_estimate, azure_observe, inline=True)
implement(AzimuthState, azimuth_legal, azimuth_play, azimuth_estimate, azimuth_observe)
implement(CoopState, coop_legal, coop_play)

#: Plies a playout runs before the game's estimate takes over, by default
#: (-1: to the end). Azimuth's random playouts mostly reach the 400-action
#: limit undecided; its estimate at the leaf played best against greedy.
#: Azure Attack's random games last about 450 steps: cut at 20, the search
#: runs 20 times as many simulations and beat greedy in a first 10 games.
DEFAULT_MAX_PLAYOUT = {AzimuthState: 0, AzureState: 20}

#: Guided selection's prior temperature by default (0: plain UCT; see
#: :mod:`.tree`). Azimuth's actions are too many for plain UCT's 1,000
#: simulations to look past two plies.
DEFAULT_PRIOR_TEMPERATURE = {AzimuthState: 0.1}

#: The die each chance game rolls (faces); games absent here roll none.
DIE_FACES = {AzureState: azure.DIE_FACES, CoopState: coop.FACES}


def search_config(rules):
    """What the game's ``legal`` and ``play`` above take as ``cfg``."""
    state_type = rules.state_type
    if state_type is AzacruState:
        return (np.int64(rules.max_turns),)
    if state_type is AzureState:
        return (rules.tables, np.int64(rules.S), np.int64(rules.max_turns))
    if state_type in (AzimuthState, CoopState):
        return rules.config
    raise ValueError(f"no search support for {rules.info.name} ({state_type.__name__})")


def chance_queue(state) -> tuple[np.ndarray, int]:
    """The state's forced-faces queue (``azgames.chance``) and its die's
    faces; an empty (B, 0) queue and 0 faces for a game without chance."""
    faces = DIE_FACES.get(type(state), 0)
    if faces:
        return state.forced, faces
    return np.zeros((len(state.rng), 0), np.int8), 0
