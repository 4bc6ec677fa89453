"""UCT over a game's own kernels, in numba, with the tree in preallocated arrays.

One simulation: copy the root game (slot 0 of a three-game batch) over the
work game (slot 1), walk down the tree playing each edge's action with the game's
``play``, add one node, finish the game with uniformly random moves (a
playout), and add the rewards gathered on the way to every edge walked. A
playout cut at ``max_playout`` plies adds the game's ``estimate`` of where it
stopped instead of the rest (:mod:`.interface`).

- **Values per mover.** An edge's value sum ``w`` is in the eyes of the agent
  who chose it (the ``mover`` of its parent node): 2-4 players, each picks for
  itself; teams and the co-op need nothing more, their members' rewards agree.
  Rewards count from the edge on (a reward earned before a node does not
  change its choice).
- **Chance.** Before every step of the walk, the work game's forced-faces queue
  (:mod:`azgames.core.chance`) is filled with faces drawn from the search's own
  generator; a step that rolls takes its faces from there. An action that
  rolled leads to a *chance node*, whose children are the outcomes met so far
  (keyed by the faces rolled). Outcomes are met as often as their probability,
  so the chance node's value is the probability-weighted mean of its
  outcomes'. Faces not taken are cleared after the step; playouts roll with
  the work game's generator, reseeded from the search's for every simulation.
- **Selection.** An unvisited edge first (uniformly among them); else the
  largest ``w / n + c * sqrt(ln N / n)`` (ties: the first edge).
- **Guided selection** (``temperature`` not None, AlphaZero's PUCT with the game's
  ``estimate`` in place of a network). When a node is expanded, each of its
  actions is played on a scratch game (slot 2) and scored ``v0``: the step's
  reward plus the estimate after it, for the node's mover. The edge's prior
  is ``p = softmax(v0 / temperature)`` over the node's edges, and ``v0``
  counts as one visit already made: selection takes the largest
  ``(w + v0) / (n + 1) + c * p * sqrt(N + 1) / (n + 1)``. An expansion costs
  one step per action, but the search stops trying every action of a node
  before it looks deeper: with Azimuth's 40-190 actions, plain UCT's 1,000
  simulations barely see two plies.
- **Policy-guided** (a trained policy's network ``net``, AlphaZero's way).
  A node is expanded as soon as it is made: the policy sees its position
  from its mover's side (the game's ``observe``) and gives the edges' priors
  (softmax of its logits over the legal actions) and a value ``v``, which is
  every edge's ``v0`` and, instead of a playout, the simulation's return
  (``v`` for the mover, ``net.others * v`` for the others). Selection is the
  guided one's.
- **Arrays.** Nodes hold ``kind``, ``mover``, ``first`` (first edge, -1 while
  unexpanded) and ``visits``; edges ``label`` (action, or outcome code under a
  chance node), ``child``, ``next`` (the sibling list), ``n`` and ``w``.
  :func:`run` stops early when the next simulation might not fit; the caller
  grows the arrays (:meth:`Tree.grow`) and calls again.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from azgames.core.batch import pick_legal
from azgames.core.game import ONGOING
from azgames.core.jit import njit
from azgames.core.rng import below, next_u64

from .interface import copy_game, estimate, heuristic, legal, observe, play
from .network import forward

DECISION, CHANCE, TERMINAL = 0, 1, 2
#: Longest walk down the tree; deeper, the simulation plays out from there.
MAX_DEPTH = 1024
#: The work game's slot in the search's batch, and the search's generator word
#: (typed int64 as the Gumbel search passes them to the shared play_drawing).
WORK, SEARCH_RNG = np.int64(1), np.int64(0)


class TreeArrays(NamedTuple):
    kind: np.ndarray  # (nodes,) int8: DECISION, CHANCE or TERMINAL
    mover: np.ndarray  # (nodes,) int8: the agent choosing here (-1 at a chance node)
    first: np.ndarray  # (nodes,) int64: first edge, -1 while unexpanded
    visits: np.ndarray  # (nodes,) int64
    label: np.ndarray  # (edges,) int64: the action (or outcome code below a chance node)
    child: np.ndarray  # (edges,) int64: the node it leads to, -1 not yet made
    next: np.ndarray  # (edges,) int64: next sibling, -1 last
    n: np.ndarray  # (edges,) int64: simulations through the edge
    w: np.ndarray  # (edges,) float64: their summed return for the parent's mover
    p: np.ndarray  # (edges,) float64: prior (guided selection only)
    v0: np.ndarray  # (edges,) float64: the estimate after the edge's action (guided only)
    used: np.ndarray  # (2,) int64: nodes and edges in use


class Tree:
    """The search tree's arrays, grown by doubling when :func:`run` asks."""

    def __init__(self, root_mover: int, nodes: int = 1024, edges: int = 16384):
        self.arrays = TreeArrays(
            kind=np.zeros(nodes, np.int8),
            mover=np.zeros(nodes, np.int8),
            first=np.full(nodes, -1, np.int64),
            visits=np.zeros(nodes, np.int64),
            label=np.zeros(edges, np.int64),
            child=np.full(edges, -1, np.int64),
            next=np.full(edges, -1, np.int64),
            n=np.zeros(edges, np.int64),
            w=np.zeros(edges, np.float64),
            p=np.zeros(edges, np.float64),
            v0=np.zeros(edges, np.float64),
            used=np.array([1, 0], np.int64),
        )
        self.arrays.mover[0] = root_mover

    def grow(self) -> None:
        """Double the arrays, keeping the tree."""
        t = self.arrays
        grown = {}
        for name, a in zip(t._fields, t):
            if name == "used":
                grown[name] = a
                continue
            b = np.full(2 * len(a), -1 if name in ("first", "child", "next") else 0, a.dtype)
            b[: len(a)] = a
            grown[name] = b
        self.arrays = TreeArrays(**grown)

    def root_edges(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The root's actions, their visits and mean values (for the root's mover)."""
        t = self.arrays
        e = int(t.first[0])
        if e < 0:
            return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
        k = 0
        while t.next[e + k] >= 0:  # a decision node's edges are contiguous
            k += 1
        sl = slice(e, e + k + 1)
        n = t.n[sl].copy()
        return t.label[sl].copy(), n, t.w[sl] / np.maximum(n, 1)


@njit
def new_node(t, kind, mover):
    node = t.used[0]
    t.used[0] += 1
    t.kind[node] = kind
    t.mover[node] = mover
    t.first[node] = -1
    t.visits[node] = 0
    return node


@njit
def expand(s, cfg, t, node, mask):
    """Give decision ``node`` one edge per legal action of the work game."""
    legal(s, cfg, 1, mask)
    first = t.used[1]
    e = first
    for a in range(mask.shape[1]):
        if mask[0, a]:
            t.label[e] = a
            t.child[e] = -1
            t.next[e] = e + 1
            t.n[e] = 0
            t.w[e] = 0.0
            e += 1
    t.next[e - 1] = -1
    t.used[1] = e
    t.first[node] = first


@njit
def softmax_priors(t, node, temperature):
    """Turn the scores held in ``p`` by ``node``'s edges into the priors
    ``softmax(score / temperature)``."""
    top = -np.inf
    e = t.first[node]
    while e >= 0:
        top = max(top, t.p[e])
        e = t.next[e]
    total = 0.0
    e = t.first[node]
    while e >= 0:
        t.p[e] = np.exp((t.p[e] - top) / temperature)
        total += t.p[e]
        e = t.next[e]
    e = t.first[node]
    while e >= 0:
        t.p[e] /= total
        e = t.next[e]


@njit
def action_value(s, cfg, src, scratch, action, mover, rewards, values):
    """Game ``src``'s ``action`` played on slot ``scratch``: the step's reward
    plus the game's estimate after it, for ``mover`` (guided selection's ``v0``)."""
    copy_game(s, src, scratch)
    status = play(s, cfg, scratch, action, rewards)
    v = rewards[scratch, mover]
    if status & 3 == ONGOING:
        estimate(s, cfg, scratch, values)
        v += values[mover]
    return v


@njit
def score_edges(s, cfg, t, node, temperature, rewards, values):
    """Guided selection's ``v0`` and prior ``p`` for every edge of ``node``
    (just expanded from the work game), playing each action on slot 2."""
    mover = np.int64(t.mover[node])  # the int64 the az search passes: one compile for both
    e = t.first[node]
    while e >= 0:
        v = action_value(s, cfg, 1, 2, t.label[e], mover, rewards, values)
        t.v0[e] = v
        t.p[e] = v
        e = t.next[e]
    softmax_priors(t, node, temperature)


@njit
def evaluate_node(s, cfg, t, node, net, values):
    """The policy's priors and value for ``node`` (just expanded from the
    work game) into its edges' ``p`` and ``v0``, and the value for every
    agent into ``values``."""
    mover = t.mover[node]
    observe(s, cfg, 1, mover, net.obs)
    v = forward(net)
    e = t.first[node]
    while e >= 0:
        t.v0[e] = v
        t.p[e] = net.logits[t.label[e]]
        e = t.next[e]
    softmax_priors(t, node, 1.0)
    for q in range(values.shape[0]):
        values[q] = net.others * v
    values[mover] = v


@njit
def select_guided(t, node, c):
    """The edge guided selection picks at decision ``node`` (ties: the first)."""
    root_n = np.sqrt(t.visits[node] + 1.0)
    best, best_e = -np.inf, -1
    e = t.first[node]
    while e >= 0:
        n1 = t.n[e] + 1.0
        u = (t.w[e] + t.v0[e]) / n1 + c * t.p[e] * root_n / n1
        if u > best:
            best, best_e = u, e
        e = t.next[e]
    return best_e


@njit
def outcome_edge(t, node, code):
    """The edge of chance ``node`` for outcome ``code``, added if new."""
    e = t.first[node]
    while e >= 0:
        if t.label[e] == code:
            return e
        e = t.next[e]
    e = t.used[1]
    t.used[1] += 1
    t.label[e] = code
    t.child[e] = -1
    t.next[e] = t.first[node]
    t.n[e] = 0
    t.w[e] = 0.0
    t.first[node] = e
    return e


@njit
def select(t, node, c, mrng):
    """The edge UCT picks at decision ``node`` (see the module docstring)."""
    unvisited = 0
    e = t.first[node]
    while e >= 0:
        unvisited += t.n[e] == 0
        e = t.next[e]
    if unvisited > 0:
        k = below(mrng, 0, unvisited)
        e = t.first[node]
        while True:
            if t.n[e] == 0:
                if k == 0:
                    return e
                k -= 1
            e = t.next[e]
    log_n = np.log(t.visits[node])
    best, best_e = -np.inf, -1
    e = t.first[node]
    while e >= 0:
        n = t.n[e]
        u = t.w[e] / n + c * np.sqrt(log_n / n)
        if u > best:
            best, best_e = u, e
        e = t.next[e]
    return best_e


@njit
def play_drawing(s, cfg, forced, faces, work, action, rewards, mrng, r, drawn):
    """Play ``action`` in game ``work`` of ``s`` with faces from the search's
    generator ``mrng[r]`` queued; returns ``(status, outcome code)``, code 0
    if nothing was rolled (the Gumbel search shares it)."""
    queue = forced.shape[1]
    for k in range(queue):
        drawn[k] = below(mrng, r, faces)
        forced[work, k] = drawn[k]
    status = play(s, cfg, work, action, rewards)
    rolled = 0
    code = 0
    for k in range(queue):
        if forced[work, k] < 0:
            rolled += 1
            code = code * faces + drawn[k]
        forced[work, k] = -1
    if rolled == 0:
        return status, 0
    return status, rolled + (queue + 1) * code


@njit
def playout(s, cfg, work, mask, rewards, ret, mrng, r, max_plies, values, heuristic_moves=None):
    """Random moves (from generator ``mrng[r]``; with ``heuristic_moves``
    true, the game's heuristic agent's) in game ``work`` until it ends,
    adding their rewards to ``ret``; after ``max_plies`` (if >= 0) the
    game's ``estimate`` of the position is added instead of the rest.
    ``mask`` is a (1, A) scratch row. Left out (``mcts``), ``heuristic_moves``
    is None and numba drops its branch: ``mcts`` compiles no heuristic."""
    plies = 0
    while max_plies < 0 or plies < max_plies:
        if heuristic_moves is not None and heuristic_moves:
            action = heuristic(s, cfg, work, mask, mrng, r)
        else:
            legal(s, cfg, work, mask)
            action = pick_legal(mrng, r, mask[0])
        status = play(s, cfg, work, action, rewards)
        for q in range(ret.shape[0]):
            ret[q] += rewards[work, q]
        plies += 1
        if status & 3 != ONGOING:
            return
    estimate(s, cfg, work, values)
    for q in range(ret.shape[0]):
        ret[q] += values[q]


@njit
def simulate(
    s,
    cfg,
    forced,
    faces,
    t,
    c,
    max_playout,
    temperature,
    net,
    mrng,
    mask,
    rewards,
    ret,
    values,
    path_node,
    path_edge,
    path_reward,
    drawn,
):
    """One simulation from the root (see the module docstring)."""
    copy_game(s, 0, 1)
    s.rng[1] = next_u64(mrng, 0)
    for q in range(ret.shape[0]):
        ret[q] = 0.0
    node = 0
    depth = 0
    while t.kind[node] != TERMINAL:
        if depth >= MAX_DEPTH - 2:  # too deep: play it out from here
            playout(s, cfg, WORK, mask, rewards, ret, mrng, SEARCH_RNG, max_playout, values)
            break
        if net is not None:
            if t.first[node] < 0:  # the root; other nodes are expanded when made
                expand(s, cfg, t, node, mask)
                evaluate_node(s, cfg, t, node, net, values)
            e = select_guided(t, node, c)
        elif temperature is not None:
            if t.first[node] < 0:
                expand(s, cfg, t, node, mask)
                score_edges(s, cfg, t, node, temperature, rewards, values)
            e = select_guided(t, node, c)
        else:
            if t.first[node] < 0:
                expand(s, cfg, t, node, mask)
            e = select(t, node, c, mrng)
        status, code = play_drawing(s, cfg, forced, faces, WORK, t.label[e], rewards, mrng, SEARCH_RNG, drawn)
        path_node[depth] = node
        path_edge[depth] = e
        for q in range(ret.shape[0]):
            path_reward[depth, q] = rewards[1, q]
        depth += 1
        if code != 0:
            chance = t.child[e]
            if chance < 0:
                chance = new_node(t, CHANCE, -1)
                t.child[e] = chance
            e = outcome_edge(t, chance, code)
            path_node[depth] = chance
            path_edge[depth] = e
            for q in range(ret.shape[0]):
                path_reward[depth, q] = 0.0
            depth += 1
        ongoing = status & 3 == ONGOING
        child = t.child[e]
        if child < 0:
            child = new_node(t, DECISION if ongoing else TERMINAL, status >> 4)
            t.child[e] = child
            if ongoing:
                if net is not None:
                    expand(s, cfg, t, child, mask)
                    evaluate_node(s, cfg, t, child, net, values)
                    for q in range(ret.shape[0]):
                        ret[q] += values[q]
                else:
                    playout(s, cfg, WORK, mask, rewards, ret, mrng, SEARCH_RNG, max_playout, values)
            break
        node = child
    for d in range(depth - 1, -1, -1):
        for q in range(ret.shape[0]):
            ret[q] += path_reward[d, q]
        parent = path_node[d]
        e = path_edge[d]
        t.visits[parent] += 1
        t.n[e] += 1
        if t.mover[parent] >= 0:
            t.w[e] += ret[t.mover[parent]]


class Workspace(NamedTuple):
    """Scratch arrays of one search (:func:`workspace`)."""

    mask: np.ndarray  # (1, A) int8
    # (3, P) float32: a step's rewards, row 1 the work game's, 2 the scratch's; float32 as
    # the envs write them, so one compile of a game's play serves its env and its search
    rewards: np.ndarray
    ret: np.ndarray  # (P,) float64: the simulation's return
    values: np.ndarray  # (P,) float64: the estimate where a playout is cut
    path_node: np.ndarray  # (MAX_DEPTH,) int64
    path_edge: np.ndarray  # (MAX_DEPTH,) int64
    path_reward: np.ndarray  # (MAX_DEPTH, P) float64
    drawn: np.ndarray  # (queue,) int64: the faces queued for a step
    mrng: np.ndarray  # (1,) uint64: the search's generator


def workspace(num_actions: int, num_players: int, queue: int, seed_word: int) -> Workspace:
    return Workspace(
        mask=np.zeros((1, num_actions), np.int8),
        rewards=np.zeros((3, num_players), np.float32),
        ret=np.zeros(num_players),
        values=np.zeros(num_players),
        path_node=np.zeros(MAX_DEPTH, np.int64),
        path_edge=np.zeros(MAX_DEPTH, np.int64),
        path_reward=np.zeros((MAX_DEPTH, num_players)),
        drawn=np.zeros(queue, np.int64),
        mrng=np.array([seed_word], np.uint64),
    )


@njit
def run(s, cfg, forced, faces, t, w, c, max_playout, temperature, net, simulations):
    """Up to ``simulations`` simulations (guided by the policy ``net`` unless
    it is None, else by the estimate if ``temperature`` is not None);
    returns how many were run (fewer when the arrays might not hold the next
    one: grow them and call again). ``s`` holds three games: the root, the
    work game and the scratch game of guided selection.
    ``temperature`` and ``net`` are None, or not, at compile time: numba
    prunes the guides' branches from a search that has none (a plain
    search carrying them ran 25% slower in Azacru)."""
    for k in range(simulations):
        # A simulation adds at most two nodes (a chance node and its outcome)
        # and two nodes' edges (the root's and a new node's) plus an outcome edge.
        if t.used[0] + 2 > t.kind.shape[0] or t.used[1] + 2 * w.mask.shape[1] + 1 > t.label.shape[0]:
            return k
        simulate(
            s,
            cfg,
            forced,
            faces,
            t,
            c,
            max_playout,
            temperature,
            net,
            w.mrng,
            w.mask,
            w.rewards,
            w.ret,
            w.values,
            w.path_node,
            w.path_edge,
            w.path_reward,
            w.drawn,
        )
    return simulations
