"""Gumbel search over a batch of games at once, the network called once a
simulation for every game's leaf (issue 29).

Each of ``G`` games has its own tree in the rows of :class:`Trees`. A
simulation is three steps:

1. :func:`descend` (numba, every game): copy the root position over the
   game's work slot, walk down its tree (Sequential Halving's choice at the
   root, the deterministic improved-policy choice below, :mod:`.gumbel`),
   playing each edge's action with the game's own ``play``, until an edge
   with no node yet; make the node, and if its game goes on write its
   mover's observation and legal actions into row ``g`` of ``obs`` and
   ``mask``.
2. The caller's network evaluates those rows in one batch: prior logits
   over the actions and a value for the mover.
3. :func:`expand_and_backup` (numba, every game): give the leaf its legal
   edges with their logits and value, then add the return to every edge
   walked: the step rewards on the way, and at the leaf the value for its
   mover, for its mover's side-mates, and minus it for the other side.

**Chance.** As in :mod:`azgames.agents.mcts.tree`: before every step of a
walk the work game's forced-faces queue is filled with faces from the
game's own search generator, and an action that rolled leads to a *chance
node* whose edges are the outcomes met so far (keyed by the faces rolled,
linked by ``sibling``). Outcomes are met as often as their probability, so
the Q-value of the action above is the probability-weighted mean of its
outcomes'. Azure Attack's fights and the co-op's die are searched this way.

**Playouts.** With ``playout_weight`` > 0 each new leaf is also played out (as
``mcts`` plays out: random moves, then the game's estimate), and its value
is the network's and the playout's mixed (AlphaGo's lambda): where the
network's value sees little (a game whose self-play has few wins to learn
from), the game's own estimate guides the search. With
``heuristic_playouts`` every player's playout moves are the game's
heuristic agent's instead (``SearchHooks.heuristic``; Azure Attack's and
Azacru's greedy): a leaf is judged by how the game goes on between greedy
players.

**An estimate prior.** With ``prior_temperature`` > 0 each new node's
actions are also played one by one on a scratch game, and each edge's prior
logit gains ``v0 / prior_temperature``: ``v0`` is the step's reward plus
the game's estimate after it, for the mover (``mcts``'s guided prior). In a
game of many actions whose network has learnt little (Azimuth), the game's
own judgement of each move steers the few simulations the search has.

**Repeats.** With ``repetition_draws`` (a game whose positions come
back, Azimuth's winds turned back and forth) a walk that returns to a
position already on its path ends there, scored as a draw: a leader whose
walks meet the undoing of its move looks for another, and the trailer
welcomes the undoing. A position is known by a hash of
its mover's observation (:func:`position_key`), kept for every node.

**Values.** A network gives the mover's value, or one for each player
(counted in seats from the mover). With the mover's alone, every agent of
the mover's side gets it and every agent of the other side its negative:
right for two sides (two players, Azure Attack's monster against its
hunters) and for one (the co-op crew). 3-4 players each on their own side
(Azacru, Azimuth) need a value for each player.

The search plays the suite's rules exactly, through the hooks of
:mod:`azgames.agents.mcts.interface`.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
from numba import prange, typeof
from numba.core import types
from numba.experimental import structref

from azgames.core.game import ONGOING
from azgames.core.jit import JIT_DISABLED, njit, njit_parallel
from azgames.core.rng import next_u64

from ..mcts.games import chance_queue, hooks_of
from ..mcts.interface import copy_game, legal, observe
from ..mcts.tree import action_value, play_drawing, playout
from .gumbel import (
    EPSILON,
    considered_visits,
    improved_policy,
    interior_choice,
    root_choice,
    top_k,
)
from .settings import SearchSettings

#: The fewest games whose walks are shared among threads. Below it they run
#: on one: handing a parallel region to the threads costs more than a few
#: walks, and on a busy machine it can wait a whole time slice of the
#: scheduler (one Azure game: 7 ms a move on one thread, 740 ms on two
#: while other jobs ran).
PARALLEL_FROM = 8
#: A tree's root node.
ROOT = np.int64(0)


class Trees(NamedTuple):
    """``G`` search trees: nodes (G, N), edges (G, E); a node's edges are contiguous."""

    mover: np.ndarray  # (G, N) int64: the agent choosing at the node (-1: a chance node)
    over: np.ndarray  # (G, N) bool: the game has ended there
    first: np.ndarray  # (G, N) int64: its first edge, -1 while not expanded
    num_edges: np.ndarray  # (G, N) int64: its edges (a chance node's: outcomes met)
    value: np.ndarray  # (G, N) float64: the network's value, for its mover
    action: np.ndarray  # (G, E) int64: the edge's action (outcome code below a chance node)
    sibling: np.ndarray  # (G, E) int64: a chance node's next outcome edge, -1 last
    logit: np.ndarray  # (G, E) float64: its prior logit
    child: np.ndarray  # (G, E) int64: the node it leads to, -1 not yet made
    n: np.ndarray  # (G, E) float64: visits
    w: np.ndarray  # (G, E) float64: summed return, for the parent's mover
    used: np.ndarray  # (G, 2) int64: nodes and edges in use
    gumbel: np.ndarray  # (G, A) float64: the root edges' noise
    considered: np.ndarray  # (G, A) bool: the root edges Sequential Halving considers
    path_node: np.ndarray  # (G, D) int64: the last walk, node by node
    path_edge: np.ndarray  # (G, D) int64
    path_reward: np.ndarray  # (G, D, P) float64: each step's rewards
    depth: np.ndarray  # (G,) int64: the last walk's length
    leaf: np.ndarray  # (G,) int64: the node it made (-1: none, the tree was full)
    mrng: np.ndarray  # (G,) uint64: each game's search generator (dice and the work game's)
    drawn: np.ndarray  # (G, Q) int64: the faces queued for a step
    min_spread: np.ndarray  # (1,) float64: the least spread Q-values are rescaled over (gumbel.py)
    playout_weight: np.ndarray  # (1,) float64: a playout's weight in a leaf's value (0: none)
    max_playout: np.ndarray  # (1,) int64: a playout's plies before the game's estimate (-1: to the end)
    heuristic_playouts: np.ndarray  # (1,) bool: playouts follow the game's heuristic agent
    played_out: np.ndarray  # (G, P) float64: the last leaf's playout return, for each agent
    playout_mask: np.ndarray  # (G, 1, A) int8: each game's playout scratch
    estimates: np.ndarray  # (G, P) float64: each game's estimate scratch
    prior_temperature: np.ndarray  # (1,) float64: the estimate prior's temperature (0: none)
    scores: np.ndarray  # (G, A) float64: the last node's actions' estimate prior logits
    key: np.ndarray  # (G, N) uint64: each node's position_key, where repeats are draws
    repetition_draws: np.ndarray  # (1,) bool: a walk's return to a position on its path is a draw


def new_trees(games: int, simulations: int, actions: int, agents: int, depth: int, queue: int) -> Trees:
    """Trees for ``games`` searches of ``simulations`` simulations (each adds
    at most a chance node, its outcome edge and a node of at most ``actions``
    edges), walks of up to ``depth`` steps and dice queues of ``queue`` faces;
    :meth:`GumbelSearch.run` seeds their generators."""
    nodes = 2 * simulations + 1
    edges = (simulations + 1) * actions + simulations
    return Trees(
        mover=np.zeros((games, nodes), np.int64),
        over=np.zeros((games, nodes), np.bool_),
        first=np.full((games, nodes), -1, np.int64),
        num_edges=np.zeros((games, nodes), np.int64),
        value=np.zeros((games, nodes)),
        action=np.zeros((games, edges), np.int64),
        sibling=np.full((games, edges), -1, np.int64),
        logit=np.zeros((games, edges)),
        child=np.full((games, edges), -1, np.int64),
        n=np.zeros((games, edges)),
        w=np.zeros((games, edges)),
        used=np.zeros((games, 2), np.int64),
        gumbel=np.zeros((games, actions)),
        considered=np.zeros((games, actions), np.bool_),
        path_node=np.zeros((games, depth), np.int64),
        path_edge=np.zeros((games, depth), np.int64),
        path_reward=np.zeros((games, depth, agents)),
        depth=np.zeros(games, np.int64),
        leaf=np.full(games, -1, np.int64),
        mrng=np.zeros(games, np.uint64),
        drawn=np.zeros((games, queue), np.int64),
        min_spread=np.full(1, EPSILON),
        playout_weight=np.zeros(1),
        max_playout=np.full(1, -1, np.int64),
        heuristic_playouts=np.zeros(1, np.bool_),
        played_out=np.zeros((games, agents)),
        playout_mask=np.zeros((games, 1, actions), np.int8),
        estimates=np.zeros((games, agents)),
        prior_temperature=np.zeros(1),
        scores=np.zeros((games, actions)),
        key=np.zeros((games, nodes), np.uint64),
        repetition_draws=np.zeros(1, np.bool_),
    )


@structref.register
class TreesType(types.StructRef):
    """numba's type of :class:`Trees` passed by reference (:func:`by_reference`).

    The search's kernels take the trees as one pointer, not a tuple of 32
    arrays: numba writes code for every array of a tuple argument in every
    function that takes it. Connect Four's first ``az`` move compiled 22%
    faster, the functions over the trees about twice as fast
    (``docs/experiments.md``, 2026-11-29), and searched as fast."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class TreesRef(structref.StructRefProxy):
    """What Python holds of a :class:`TreesType` struct: a handle to pass
    back to the kernels (read the arrays through the :class:`Trees`)."""


structref.define_boxing(TreesType, TreesRef)
#: The type of every search's trees: the arrays' types do not depend on the sizes.
TREES_TYPE = TreesType(list(zip(Trees._fields, map(typeof, new_trees(1, 1, 1, 1, 1, 1)))))


@njit
def _by_reference(t):
    r = structref.new(TREES_TYPE)
    r.mover = t.mover
    r.over = t.over
    r.first = t.first
    r.num_edges = t.num_edges
    r.value = t.value
    r.action = t.action
    r.sibling = t.sibling
    r.logit = t.logit
    r.child = t.child
    r.n = t.n
    r.w = t.w
    r.used = t.used
    r.gumbel = t.gumbel
    r.considered = t.considered
    r.path_node = t.path_node
    r.path_edge = t.path_edge
    r.path_reward = t.path_reward
    r.depth = t.depth
    r.leaf = t.leaf
    r.mrng = t.mrng
    r.drawn = t.drawn
    r.min_spread = t.min_spread
    r.playout_weight = t.playout_weight
    r.max_playout = t.max_playout
    r.heuristic_playouts = t.heuristic_playouts
    r.played_out = t.played_out
    r.playout_mask = t.playout_mask
    r.estimates = t.estimates
    r.prior_temperature = t.prior_temperature
    r.scores = t.scores
    r.key = t.key
    r.repetition_draws = t.repetition_draws
    return r


def by_reference(t: Trees):
    """``t``'s arrays (shared, not copied) as the one struct the search's
    kernels take; ``t`` itself where numba's JIT is off."""
    return t if JIT_DISABLED else _by_reference(t)


@njit
def new_node(t, g, mover, over):
    node = t.used[g, 0]
    t.used[g, 0] += 1
    t.mover[g, node] = mover
    t.over[g, node] = over
    t.first[g, node] = -1
    t.num_edges[g, node] = 0
    return node


#: FNV-1a's 64-bit offset basis and prime.
FNV_BASIS = np.uint64(0xCBF29CE484222325)
FNV_PRIME = np.uint64(0x100000001B3)


@njit
def position_key(obs_row, mover):
    """A 64-bit FNV-1a hash of a position: its mover and the mover's
    observation (which holds no move count, so a position come back hashes alike)."""
    h = (FNV_BASIS ^ np.uint64(mover + 1)) * FNV_PRIME
    for x in obs_row:
        h = (h ^ np.uint64(np.int64(x) + 128)) * FNV_PRIME
    return h


@njit
def observe_node(s, cfg, t, g, work, node, obs):
    """Row ``g`` of ``obs``: the work game's position, from the side of
    ``node``'s mover; and, where repeats are draws, its key (:func:`position_key`)."""
    observe(s, cfg, work, t.mover[g, node], obs[g])
    if t.repetition_draws[0]:
        t.key[g, node] = position_key(obs[g], t.mover[g, node])


@njit
def repeats(t, g, node, depth):
    """Whether ``node``'s position is one of the decision nodes' on game ``g``'s path."""
    for d in range(depth):
        on_path = t.path_node[g, d]
        if t.mover[g, on_path] >= 0 and t.key[g, on_path] == t.key[g, node]:
            return True
    return False


@njit
def prepare_leaf(s, cfg, t, g, work, node, mask, rewards):
    """Row ``g`` of ``mask``: the legal actions of ``node``'s mover in the work
    game; and its actions' estimate prior (:func:`score_actions`)."""
    legal(s, cfg, work, mask[g : g + 1])
    score_actions(s, cfg, t, g, work, t.mover[g, node], mask[g], rewards)


@njit
def score_actions(s, cfg, t, g, work, mover, mask_row, rewards):
    """Where the estimate prior is on (``t.prior_temperature``): each legal
    action of game ``g``'s work position played on its scratch slot and
    scored for ``mover``, the step's reward plus the estimate after it, over
    the temperature, into ``t.scores[g]``."""
    temperature = t.prior_temperature[0]
    if temperature <= 0.0:
        return
    scratch = work + t.used.shape[0]
    for a in range(mask_row.shape[0]):
        if mask_row[a]:
            v = action_value(s, cfg, work, scratch, a, mover, rewards, t.estimates[g])
            t.scores[g, a] = v / temperature


@njit
def play_leaf_out(s, cfg, t, g, work, rewards):
    """Where leaves are mixed with playouts (``t.playout_weight``): play game ``g``'s
    work position out (random moves, or the game's heuristic agent's with
    ``t.heuristic_playouts``; the game's estimate after ``t.max_playout``
    plies) into ``t.played_out[g]``."""
    if t.playout_weight[0] > 0.0:
        t.played_out[g, :] = 0.0
        playout(
            s,
            cfg,
            work,
            t.playout_mask[g],
            rewards,
            t.played_out[g],
            t.mrng,
            g,
            t.max_playout[0],
            t.estimates[g],
            t.heuristic_playouts[0],
        )


@njit
def start(s, cfg, t, movers, obs, mask, rewards):
    """Every game's root (games 0..G-1 of the batch ``s``; G..2G-1 are their
    work slots, 2G..3G-1 the estimate prior's scratch slots where it is on):
    one node for its actor (agent ``movers[g]``), whose observation and legal
    actions go to row ``g`` of ``obs`` and ``mask``."""
    games = t.used.shape[0]
    for g in range(games):
        t.used[g, 0] = 0
        t.used[g, 1] = 0
        copy_game(s, g, games + g)
        t.leaf[g] = new_node(t, g, movers[g], False)
        t.depth[g] = 0
        observe_node(s, cfg, t, g, games + g, 0, obs)
        prepare_leaf(s, cfg, t, g, games + g, 0, mask, rewards)
        play_leaf_out(s, cfg, t, g, games + g, rewards)


@njit
def q_row(t, g, f, c):
    """The edges' mean returns for their parent's mover (0 where unvisited)."""
    q = np.zeros(c)
    for k in range(c):
        if t.n[g, f + k] > 0:
            q[k] = t.w[g, f + k] / t.n[g, f + k]
    return q


@njit
def outcome_edge(t, g, chance, code):
    """The edge of ``chance`` for outcome ``code``, added if new."""
    e = t.first[g, chance]
    while e >= 0:
        if t.action[g, e] == code:
            return e
        e = t.sibling[g, e]
    e = t.used[g, 1]
    t.used[g, 1] += 1
    t.action[g, e] = code
    t.child[g, e] = -1
    t.n[g, e] = 0.0
    t.w[g, e] = 0.0
    t.sibling[g, e] = t.first[g, chance]
    t.first[g, chance] = e
    t.num_edges[g, chance] += 1
    return e


@njit
def choose(t, g, node, wanted):
    """The edge a walk takes at decision ``node``: Sequential Halving's at
    the root (``wanted``: the visits it asks of the edge), the deterministic
    improved-policy choice below."""
    f = t.first[g, node]
    c = t.num_edges[g, node]
    q = q_row(t, g, f, c)
    visits = t.n[g, f : f + c]
    logits = t.logit[g, f : f + c]
    if node == 0:
        considered = t.considered[g, :c]
        k = root_choice(
            t.gumbel[g, :c], logits, q, visits, t.value[g, 0], considered, wanted, t.min_spread[0]
        )
        if k < 0:  # no considered edge has the visits asked: the least visited
            k = np.argmin(np.where(considered, visits, np.inf))
        return f + k
    return f + interior_choice(logits, q, visits, t.value[g, node], t.min_spread[0])


@njit
def record_step(t, g, depth, node, e, rewards, work):
    t.path_node[g, depth] = node
    t.path_edge[g, depth] = e
    for p in range(t.path_reward.shape[2]):
        t.path_reward[g, depth, p] = rewards[work, p]


@njit
def walk(s, cfg, forced, faces, t, g, wanted, rewards, obs, mask, needs):
    """Game ``g``'s walk of :func:`descend`."""
    games = t.used.shape[0]
    nodes = t.mover.shape[1]
    longest = t.path_node.shape[1] - 1  # a step may add two entries (a chance node's)
    work = games + g
    copy_game(s, g, work)
    s.rng[work] = next_u64(t.mrng, g)
    node = ROOT
    depth = 0
    needs[g] = False
    t.leaf[g] = -1
    while True:
        e = choose(t, g, node, wanted)
        status, code = play_drawing(
            s, cfg, forced, faces, work, t.action[g, e], rewards, t.mrng, g, t.drawn[g]
        )
        record_step(t, g, depth, node, e, rewards, work)
        depth += 1
        if code != 0:
            chance = t.child[g, e]
            if chance < 0:
                if t.used[g, 0] >= nodes:
                    break  # full: the walk adds its rewards only
                chance = new_node(t, g, -1, False)
                t.child[g, e] = chance
            e = outcome_edge(t, g, chance, code)
            rewards[work, :] = 0.0
            record_step(t, g, depth, chance, e, rewards, work)
            depth += 1
        child = t.child[g, e]
        if child < 0:
            if t.used[g, 0] >= nodes or depth >= longest:
                break  # full: the walk adds its rewards only
            over = status & 3 != ONGOING
            child = new_node(t, g, status >> 4, over)
            t.child[g, e] = child
            t.leaf[g] = child
            if not over:
                observe_node(s, cfg, t, g, work, child, obs)
                if t.repetition_draws[0] and repeats(t, g, child, depth):
                    t.over[g, child] = True  # a draw: no value, its return the path's rewards
                    break
                prepare_leaf(s, cfg, t, g, work, child, mask, rewards)
                play_leaf_out(s, cfg, t, g, work, rewards)
                needs[g] = True
            break
        if t.over[g, child] or depth >= longest:
            break
        node = child
    t.depth[g] = depth


@njit_parallel
def descend(s, cfg, forced, faces, t, wanted, rewards, obs, mask, needs):
    """One walk in every game's tree (see the module docstring, step 1), the
    games shared among the threads (each touches its own rows only);
    ``wanted[g]`` is the visit count Sequential Halving asks of game ``g``'s
    root edge. ``needs[g]``: game ``g``'s leaf awaits the network.
    ``forced`` is the batch's dice queue ((2G, 0) for a game without dice)."""
    for g in prange(t.used.shape[0]):
        walk(s, cfg, forced, faces, t, np.int64(g), wanted[g], rewards, obs, mask, needs)


@njit
def descend_serially(s, cfg, forced, faces, t, wanted, rewards, obs, mask, needs):
    """:func:`descend` on one thread, for a few games (:data:`PARALLEL_FROM`)."""
    for g in range(t.used.shape[0]):
        walk(s, cfg, forced, faces, t, np.int64(g), wanted[g], rewards, obs, mask, needs)


@njit
def expand(t, g, node, mask_row, logits_row, value):
    """Give ``node`` an edge for each legal action, with its prior logit (the
    network's, plus the estimate prior's where it is on) and the node's value."""
    f = t.used[g, 1]
    c = 0
    scored = t.prior_temperature[0] > 0.0
    for a in range(mask_row.shape[0]):
        if mask_row[a]:
            e = f + c
            t.action[g, e] = a
            t.logit[g, e] = logits_row[a] + (t.scores[g, a] if scored else 0.0)
            t.child[g, e] = -1
            t.n[g, e] = 0.0
            t.w[g, e] = 0.0
            c += 1
    t.used[g, 1] = f + c
    t.first[g, node] = f
    t.num_edges[g, node] = c
    t.value[g, node] = value


@njit
def leaf_returns(t, g, mover, values, kin, ret):
    """Every agent's return from game ``g``'s leaf, whose mover is ``mover``,
    into ``ret``: the network's ``values[g]`` (see :func:`expand_and_backup`),
    mixed with the leaf's playout by ``t.playout_weight``."""
    agents = ret.shape[0]
    for p in range(agents):
        if values.shape[1] == 1:
            ret[p] = kin[mover, p] * values[g, 0]
        else:
            ret[p] = values[g, (p - mover) % agents]
        ret[p] = (1.0 - t.playout_weight[0]) * ret[p] + t.playout_weight[0] * t.played_out[g, p]


@njit
def expand_and_backup(t, needs, mask, logits, values, kin):
    """Step 3 of the module docstring for every game: ``logits`` and
    ``values`` are the network's for the rows ``needs`` marks. ``values``
    is (G, 1), the mover's, which ``kin[m, p]`` (1 or -1) turns into agent
    ``p``'s; or (G, P), one a player counted in seats from the mover."""
    games = t.used.shape[0]
    agents = t.path_reward.shape[2]
    ret = np.zeros(agents)
    for g in range(games):
        ret[:] = 0.0
        leaf = t.leaf[g]
        if needs[g]:
            mover = t.mover[g, leaf]
            leaf_returns(t, g, mover, values, kin, ret)
            expand(t, g, leaf, mask[g], logits[g], ret[mover])
        for d in range(t.depth[g] - 1, -1, -1):
            for p in range(agents):
                ret[p] += t.path_reward[g, d, p]
            e = t.path_edge[g, d]
            t.n[g, e] += 1.0
            mover = t.mover[g, t.path_node[g, d]]
            if mover >= 0:  # not a chance node's outcome
                t.w[g, e] += ret[mover]


@njit
def expand_roots(t, mask, logits, values, kin, gumbel, considered_max):
    """Expand every root with the network's output and choose the edges
    Sequential Halving considers: the ``considered_max`` largest
    ``gumbel + logits`` (``gumbel`` (G, A), noise per action)."""
    ret = np.zeros(t.path_reward.shape[2])
    for g in range(t.used.shape[0]):
        mover = t.mover[g, 0]
        leaf_returns(t, g, mover, values, kin, ret)
        expand(t, g, ROOT, mask[g], logits[g], ret[mover])
        c = t.num_edges[g, 0]
        for k in range(c):
            t.gumbel[g, k] = gumbel[g, t.action[g, k]]
        t.considered[g, :c] = top_k(t.gumbel[g, :c], t.logit[g, :c], considered_max)


@njit
def root_results(t, policy, chosen):
    """Each game's move (the considered root edge of most visits and best
    score, as the last simulation would choose) into ``chosen``, and its
    improved policy over the actions into row ``g`` of ``policy``."""
    for g in range(t.used.shape[0]):
        c = t.num_edges[g, 0]
        visits = t.n[g, :c]
        logits = t.logit[g, :c]
        q = q_row(t, g, 0, c)
        most = np.int64(np.max(np.where(t.considered[g, :c], visits, -1)))  # the int64 choose passes
        spread = t.min_spread[0]
        k = root_choice(t.gumbel[g, :c], logits, q, visits, t.value[g, 0], t.considered[g, :c], most, spread)
        chosen[g] = t.action[g, k]
        pi = improved_policy(logits, q, visits, t.value[g, 0], spread)
        policy[g, :] = 0.0
        for j in range(c):
            policy[g, t.action[g, j]] = pi[j]


def side_signs(sides: list[list[int]], num_players: int) -> np.ndarray:
    """``kin[m, p]``: 1 if agents ``m`` and ``p`` are on one side, else -1."""
    side = np.zeros(num_players, np.int64)
    for k, seats in enumerate(sides):
        side[seats] = k
    return np.where(side[:, None] == side[None, :], 1.0, -1.0)


class GumbelSearch:
    """A Gumbel search of ``simulations`` a move over a batch of positions of
    one game, with ``evaluate(obs, mask) -> (logits, values)`` as its network
    (obs (B, F) int8 and mask (B, A) int8 rows; logits (B, A); values (B,)
    for each row's mover, or (B, P) with ``values=P``: one a player, counted
    in seats from the mover). ``considered``: root actions Sequential Halving
    starts with; ``gumbel_scale`` 0 plays for strength, 1 explores (self-play).
    ``settings`` (:class:`.settings.SearchSettings`): how leaves and priors
    are judged: the Q-values' least spread in sigma (:mod:`.gumbel`), a
    playout's weight in every leaf's value (AlphaGo's lambda:
    ``(1 - w) * network + w * playout``, random moves for ``max_playout``
    plies then the game's estimate, or with ``heuristic_playouts`` the
    game's heuristic agent's moves for every player), and the estimate
    prior's temperature (0: none). With the mover's value alone, games of
    one or two sides (:attr:`Rules.sides`): the mover's side gets it, the
    other its negative. ``repetition_draws`` scores a walk's return to a
    position on its path as a draw (see Repeats above)."""

    def __init__(
        self,
        rules,
        evaluate,
        simulations: int = 32,
        considered: int = 16,
        gumbel_scale: float = 1.0,
        seed: int = 0,
        max_depth: int = 512,
        values: int = 1,
        settings: SearchSettings | None = None,
        repetition_draws: bool = False,
    ):
        hooks = hooks_of(rules)
        settings = settings or SearchSettings()
        if values not in (1, rules.num_players):
            raise ValueError(f"values={values}: give 1 (the mover's) or {rules.num_players} (one a player)")
        if len(rules.sides) > 2 and values == 1:
            raise ValueError(
                f"{rules.info.name} with {rules.num_players} players has {len(rules.sides)} sides: "
                f"the search needs a value for each player (values={rules.num_players})"
            )
        if hooks.observe is None:
            raise ValueError(f"{rules.info.name}'s search hooks give no observation for a network")
        if simulations < 1 or considered < 1:
            raise ValueError(f"simulations={simulations} and considered={considered} must be >= 1")
        if settings.heuristic_playouts and hooks.heuristic is None:
            raise ValueError(f"{rules.info.name} has no heuristic agent for playouts (heuristic_playouts)")
        self.rules, self.evaluate = rules, evaluate
        self.cfg = hooks.config(rules)
        self.simulations, self.considered = simulations, considered
        self.gumbel_scale, self.max_depth = gumbel_scale, max_depth
        self.settings = settings
        #: A playout's plies: the settings', or the game's default.
        self.max_playout = hooks.max_playout if settings.max_playout is None else settings.max_playout
        self.repetition_draws = bool(repetition_draws)
        self.kin = side_signs(rules.sides, rules.num_players)
        self.values = values
        self.table = considered_visits(considered, simulations)
        self.rng = np.random.default_rng(seed)
        #: Seconds spent so far: in all of :meth:`run`, and in the network alone.
        self.seconds = {"run": 0.0, "network": 0.0}
        #: The last :meth:`run`'s trees, to look into (and to search in again).
        self.trees: Trees | None = None

    def run(self, state, movers: np.ndarray, obs_size: int) -> tuple[np.ndarray, np.ndarray]:
        """Search each game of the batch ``state`` (agent ``movers[g]`` to
        act, observations of ``obs_size`` cells); returns each game's move
        and its improved policy over the actions (the training target)."""
        began = time.perf_counter()
        games = len(movers)
        actions = self.rules.num_actions
        # Roots, then work slots, then (for the estimate prior) scratch slots.
        settings = self.settings
        copies = 3 if settings.prior_temperature > 0.0 else 2
        s = type(state)(*(np.concatenate([a] * copies) for a in state))
        forced, faces = chance_queue(s)
        # The trees of the last batch of this size serve again: every field a
        # search reads it writes first, and fresh pages cost more than the search.
        t = self.trees
        if t is None or t.used.shape[0] != games:
            t = new_trees(
                games,
                self.simulations,
                actions,
                self.rules.num_players,
                self.max_depth,
                forced.shape[1],
            )
        ref = by_reference(t)
        t.mrng[:] = self.rng.integers(0, 2**63, size=games, dtype=np.uint64)
        t.min_spread[0] = settings.min_spread
        obs = np.zeros((games, obs_size), np.int8)
        mask = np.zeros((games, actions), np.int8)
        rewards = np.zeros((copies * games, self.rules.num_players), np.float32)
        needs = np.zeros(games, np.bool_)
        t.playout_weight[0] = settings.playout_weight
        t.max_playout[0] = self.max_playout
        t.heuristic_playouts[0] = settings.heuristic_playouts
        t.prior_temperature[0] = settings.prior_temperature
        t.repetition_draws[0] = self.repetition_draws
        start(s, self.cfg, ref, np.asarray(movers, np.int64), obs, mask, rewards)
        logits, values = self._evaluate(obs, mask, np.ones(games, np.bool_))
        gumbel = self.gumbel_scale * self.rng.gumbel(size=(games, actions))
        expand_roots(ref, mask, logits, values, self.kin, gumbel, self.considered)
        num_considered = np.minimum(self.considered, t.num_edges[:, 0])
        walks = descend if games >= PARALLEL_FROM else descend_serially
        for k in range(self.simulations):
            walks(s, self.cfg, forced, faces, ref, self.table[num_considered, k], rewards, obs, mask, needs)
            logits, values = self._evaluate(obs, mask, needs, logits, values)
            expand_and_backup(ref, needs, mask, logits, values, self.kin)
        policy = np.zeros((games, actions))
        chosen = np.zeros(games, np.int64)
        root_results(ref, policy, chosen)
        self.trees = t
        self.seconds["run"] += time.perf_counter() - began
        return chosen, policy

    def root_values(self) -> np.ndarray:
        """Each root's value for its mover after the last :meth:`run`: the
        network's value and every simulation's return, averaged (AlphaZero's
        root value). Only for one value, the mover's (``values=1``)."""
        t = self.trees
        if t is None or self.values != 1:
            raise ValueError("root_values needs a finished run of a search with values=1")
        edges = np.arange(t.n.shape[1])
        first, count = t.first[:, :1], t.num_edges[:, :1]
        root = (edges >= first) & (edges < first + count)
        return (t.value[:, 0] + (t.w * root).sum(1)) / (1.0 + (t.n * root).sum(1))

    def _evaluate(self, obs, mask, rows, logits=None, values=None):
        """The network's logits and values for ``rows`` (one batched call), in full-size arrays."""
        if logits is None:
            logits = np.zeros(mask.shape)
            values = np.zeros((mask.shape[0], self.values))
        if rows.any():
            began = time.perf_counter()
            got_logits, got_values = self.evaluate(obs[rows], mask[rows])
            self.seconds["network"] += time.perf_counter() - began
            logits[rows] = got_logits
            values[rows] = np.asarray(got_values).reshape(-1, self.values)
        return logits, values
