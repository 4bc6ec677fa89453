"""A greedy team baseline for Azimuth co-op with the Ocean Die (``azimuth_coop``).

One policy plays every colour; it looks one action ahead for the colour to
act and scores the *team*. For every legal action ``a`` of the colour to act
(its lighthouse, a wind or castaway action, a turtle swim, a wave's next
candidate) ``a`` is played on a scratch copy of the position with the co-op
rules' own kernel :func:`azimuth_env.coop.kernels.play`, the Ocean Die forced
to *sunny* (``CoopState.forced``) should ``a`` end the round, and the result is
scored by the key

    (castaways not home,  sum of h(q) over castaways q not home,  h(own colour))

lowest first, where ``h`` is the base greedy's :func:`agents.azimuth_greedy.
position_cost`: an estimate of the actions colour ``q`` still needs to land its
castaway (its raft's legs to a usable landing spot, or from the island its best
raft's legs to the shallows, plus the wind actions before that raft can move;
30 without a beach). The agent plays an action of least key, ties broken
uniformly with its own seeded generator. So, in order:

- an action that brings a castaway home (anyone's: a push from a landing spot
  lands a castaway whatever the wind's colour) is always played;
- then the action that brings the team as a whole nearest home: a colour
  mostly steers its own castaway, but also a stack carrying another castaway
  above its raft, frees a mark another castaway needs (``h`` counts landing
  spots whose marks hold a wind of another colour as unusable), or stays out
  of another's way (``h`` routes around points where castaways stand);
- among those, the one best for its own castaway.

The phases:

- **lighthouses**: the beach after which its own ``h`` is least (landing
  spots nearest the island's shallows through its best raft, as the base
  greedy places; colours yet to place count ``h = 30`` whatever is chosen);
- **wave order** (``wave_order="choose"``, the roller's colour to act): every
  order of the candidates left is played out on scratch rows (a depth-first
  search, at most 6! orders: the roller has 6 rafts) and the first move of an
  order with the least team key after the wave is played;
- **the sea turtle**: its swims are ordinary legal actions, scored alike;
- **sleeping castaways**: the co-op mask already leaves their castaway
  actions out; their colour still sails for the team;
- **a colour whose castaway is home**: its own ``h`` is 0 whatever it does,
  so it plays for the others' sum.

The die is not looked at beyond the forced sunny face: no action is scored by
what a wave, gust or mermaid might do next, and the rounds left are ignored.

Measured (``benchmarks/azimuth_coop_agents.py``: 1500 games a row, 500 from
each of seeds 0, 1, 2; results in ``benchmarks/results/azimuth_coop_agents.json``):
the greedy team saves all four castaways within 10 rounds in 17.3 % (2
players), 19.7 % (3) and 19.3 % (4) of games, 95 % Wilson intervals about
+-2 points, and within 20 rounds in 47.9 %, 47.4 % and 49.0 %; 2.6-2.7
castaways home on average within 10 rounds, 3.3 within 20. The random team
won none of its 9000 games (fewer than 0.1 castaway home on average). The
player count changes only how ties are broken, and the rates agree within
their intervals. The fastest win: the fourth castaway home in round 5 (24
actions, lighthouses included). A decision takes about 0.4 ms on average
(0.85 ms while a colour places its winds, the phase with the most legal
actions; 99th percentile 1.6 ms; a wave order 0.2 ms).

Everything runs in one numba call per decision (:func:`coop_keys`) over a
small scratch batch whose rows are positions (row 0 the position, row
``k + 1`` after one more action than row ``k``): the kernels' game index
``i`` is the row.
"""

from __future__ import annotations

import numpy as np
from numba import literal_unroll

from azgames.core.agent import BestOfGreedy, agent_rng
from azgames.core.jit import njit
from azimuth_env.board import AT_HOME, NUM_POINTS
from azimuth_env.coop.config import base_of
from azimuth_env.coop.kernels import COLOURS, SUNNY, play
from azimuth_env.coop.rules import CoopRules
from azimuth_env.kernels import rotation

from ..greedy import position_cost

#: Rows of the scratch batch: the position, then one per action of a wave order
#: (the roller has 6 rafts, so at most 6 candidates; one more row to spare).
ROWS = 8

# The team key packs (castaways not home, sum of h, own h) into one integer.
_HOME_UNIT = 1_000_000
_TEAM_UNIT = 1_000
#: A key worse than any position's.
WORST = 10 * _HOME_UNIT


# ---------------------------------------------------------------- scratch rows
#
# A position is a row of a CoopState batch (its fields read by name); the
# scratch batch is a CoopState of ROWS games.


@njit
def _copy_row(s, j, k):
    """Game ``j`` of the batch ``s`` over its game ``k``, every field."""
    for a in literal_unroll(s):
        a[k] = a[j]


@njit
def _play_row(s, k, action, cfg, rewards):
    """The co-op kernel's ``play`` of ``action`` (in the actor's view) in row
    ``k``, the die forced to sunny should the action end the round."""
    s.forced[k, 0] = SUNNY
    play(s, cfg, k, action, rewards)
    s.forced[k, 0] = -1


@njit
def castaway_cost(s, k, q, cfg):
    """``h(q)`` of row ``k`` (the base greedy's position_cost)."""
    return position_cost(
        s.stack[k : k + 1],
        s.height[k : k + 1],
        s.wind_colour[k : k + 1],
        s.wind_owner[k : k + 1],
        s.wind_dir[k : k + 1],
        s.hand[k : k + 1],
        s.coconuts[k : k + 1],
        s.castaway[k : k + 1],
        s.beach[k : k + 1],
        q,
        base_of(cfg),
    )


@njit
def team_key(s, k, me, cfg):
    """The team key of row ``k`` for colour ``me`` (lower is better; see the
    module docstring): ``(4 - home) * 10**6 + sum h * 10**3 + h(me)``."""
    away = 0
    team = 0
    own = 0
    for q in range(COLOURS):
        if s.castaway[k, q] == AT_HOME:
            continue
        away += 1
        h = np.int64(castaway_cost(s, k, q, cfg))
        team += h
        if q == me:
            own = h
    return away * _HOME_UNIT + team * _TEAM_UNIT + own


# ---------------------------------------------------------------- the waves


@njit
def _wave_candidates(s, k, cfg, out):
    """The wave actions (in the roller's view) of row ``k`` into ``out``."""
    p = np.int64(s.colour[k])
    view = cfg.o_to_view + rotation(s.beach, k, p, cfg) * cfg.num_actions + cfg.a_wave
    n = 0
    for pt in range(NUM_POINTS):
        if s.pending[k, pt] != 0:
            out[n] = cfg.tables[view + pt]
            n += 1
    return n


@njit
def _wave_best(s, top, me, cfg, rewards, cand, count, index):
    """The least team key over every order of the wave candidates left in
    row ``top`` (waves being ordered there): a depth-first search, row
    ``k + 1`` holding the position after one more move than row ``k``."""
    best = WORST
    rows = s.stack.shape[0]
    level = top
    count[level] = _wave_candidates(s, level, cfg, cand[level])
    index[level] = 0
    while level >= top:
        if index[level] >= count[level]:
            level -= 1
            continue
        a = cand[level, index[level]]
        index[level] += 1
        nxt = level + 1
        _copy_row(s, level, nxt)
        _play_row(s, nxt, a, cfg, rewards)
        if s.wave[nxt] >= 0 and nxt + 1 < rows:
            level = nxt
            count[level] = _wave_candidates(s, level, cfg, cand[level])
            index[level] = 0
            continue
        # The wave is over (or, never with 6 rafts, the rows are: scored as it stands).
        key = team_key(s, nxt, me, cfg)
        if key < best:
            best = key
    return best


# ---------------------------------------------------------------- one decision


@njit
def coop_keys(s, cfg, legal, keys):
    """The team key (see :func:`team_key`) of every action of ``legal`` (in
    the actor's view) of the colour to act in game 0 of ``s``, after it
    (and, while waves are ordered, the best order of the rest) into ``keys``.
    ``s`` is a scratch batch of ``ROWS`` games, the position in row 0.
    Returns the key now."""
    # Row numbers as int64 variables: a literal argument would compile every
    # callee once more for that constant (numba types it Literal[int]).
    zero = np.int64(0)
    one = np.int64(1)
    me = np.int64(s.colour[0])
    rewards = np.zeros((s.stack.shape[0], cfg.num_agents), np.float32)
    rows = s.stack.shape[0]
    cand = np.zeros((rows, NUM_POINTS), np.int64)
    count = np.zeros(rows, np.int64)
    index = np.zeros(rows, np.int64)
    for j in range(legal.shape[0]):
        _copy_row(s, zero, one)
        _play_row(s, one, legal[j], cfg, rewards)
        if s.wave[1] >= 0:  # more of the wave to order
            keys[j] = _wave_best(s, one, me, cfg, rewards, cand, count, index)
        else:
            keys[j] = team_key(s, one, me, cfg)
    return team_key(s, zero, me, cfg)


# ---------------------------------------------------------------- the agent


def split_key(key) -> tuple:
    """``(castaways not home, sum of h, own h)`` of a team key."""
    key = np.asarray(key, np.int64)
    return key // _HOME_UNIT, key % _HOME_UNIT // _TEAM_UNIT, key % _TEAM_UNIT


class AzimuthCoopGreedy(BestOfGreedy):
    """The co-op team's greedy policy, for any colour (see the module docstring).

    ``seed`` seeds the generator that breaks ties among the best actions.
    """

    name = "greedy"
    game = "azimuth_coop"

    def __init__(self, seed: int | np.random.SeedSequence | None = None):
        self.rng = agent_rng(seed)
        self._scratch = None
        self._shapes = None

    def _scratch_for(self, state):
        shapes = tuple((a.shape[1:], a.dtype) for a in state)
        if self._shapes != shapes:
            self._scratch = type(state)(*(np.zeros((ROWS,) + a.shape[1:], a.dtype) for a in state))
            self._shapes = shapes
        return self._scratch

    def evaluate(self, env) -> dict:
        """Per legal action of the colour to act (``legal``, in its view):
        ``key`` (the team key after it), ``away`` (castaways not home),
        ``team`` (their sum of ``h``), ``own`` (``h`` of the actor's colour)
        and ``rank`` (the agent plays one of rank 0); ``now``, the key now."""
        base = env.unwrapped
        rules = base.rules
        if not isinstance(rules, CoopRules):
            raise TypeError(f"AzimuthCoopGreedy plays only azimuth_coop, not {rules.info.name}")
        legal = np.asarray(base.legal_actions(), np.int64)
        keys = np.empty(len(legal), np.int64)
        state = base.state
        scratch = self._scratch_for(state)
        for field, row in zip(state, scratch):
            row[0] = field[0]
        now = coop_keys(scratch, rules.cfg, legal, keys)
        away, team, own = split_key(keys)
        rank = np.searchsorted(np.unique(keys), keys)
        return {
            "legal": legal,
            "key": keys,
            "away": away,
            "team": team,
            "own": own,
            "rank": rank,
            "now": int(now),
        }

    def best_actions(self, env) -> np.ndarray:
        """The actions the agent chooses among at random (all of least key)."""
        e = self.evaluate(env)
        return e["legal"][e["rank"] == 0]

    def __repr__(self) -> str:
        return "AzimuthCoopGreedy()"


__all__ = ["AzimuthCoopGreedy", "coop_keys", "team_key", "split_key"]
