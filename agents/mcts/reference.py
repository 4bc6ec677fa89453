"""The search of :mod:`.tree`, written plainly in Python over the AEC env.

Slow (an env clone per simulation, Python objects for the tree), and meant to
be: it is the readable statement of the algorithm that the numba search is
tested against. Given the same seed word it draws the same random numbers in
the same order, so both searches build the same tree and return the same
visit counts.
"""

from __future__ import annotations

import math

import numpy as np

from azgames.core.rng import below, next_u64

from .games import hooks_of, search_config
from .interface import estimate
from .network import forward
from .tree import CHANCE, DECISION, TERMINAL


class Edge:
    def __init__(self, label: int):
        self.label, self.n, self.w = label, 0, 0.0
        self.child: Node | None = None
        self.p, self.v0 = 0.0, 0.0  # guided selection's prior and estimate


class Node:
    def __init__(self, kind: int, mover: int):
        self.kind, self.mover, self.visits = kind, mover, 0
        self.edges: list[Edge] | None = None  # decision node: one per legal action, in order
        self.outcomes: dict[int, Edge] = {}  # chance node: by outcome code

    @property
    def decisions(self) -> list[Edge]:
        """A decision node's edges, set on its first visit."""
        assert self.edges is not None, "a decision node is given its edges on its first visit"
        return self.edges


def reference_search(
    env,
    simulations: int,
    seed_word: int,
    c: float = 1.0,
    max_playout: int = -1,
    temperature: float = 0.0,
    net=None,
):
    """Run ``simulations`` UCT simulations from the env's position (guided by
    the policy ``net``, a :class:`~.network.Net`, if given, else by the game's
    estimate if ``temperature`` > 0); returns ``(actions, visits, values)``
    at the root, like ``SearchResult``. The policy sees the env's own
    observations, through the search's forward pass."""
    raw = env.unwrapped
    agents = raw.possible_agents
    mrng = np.array([seed_word], np.uint64)
    root = Node(DECISION, agents.index(raw.agent_selection))
    cut = (max_playout, search_config(raw.rules))
    for _ in range(simulations):
        simulate(raw, root, mrng, c, agents, cut, temperature, net)
    actions = np.array([e.label for e in root.decisions])
    visits = np.array([e.n for e in root.decisions])
    return actions, visits, np.array([e.w / max(e.n, 1) for e in root.decisions])


def simulate(raw, root: Node, mrng, c: float, agents, cut, temperature: float, net) -> None:
    sim = raw.clone()
    sim.state.rng[0] = next_u64(mrng, 0)
    forced = getattr(sim.state, "forced", None)
    ret = np.zeros(len(agents))
    path = []  # (node, edge, the step's rewards)
    node = root
    while node.kind != TERMINAL:
        if node.edges is None:
            node.edges = [Edge(a) for a in sim.legal_actions()]
            if net is not None:
                evaluate_node(sim, node, agents, net)
            elif temperature > 0:
                score_edges(sim, node, agents, cut[1], temperature)
        guided = net is not None or temperature > 0
        edge = select_guided(node, c) if guided else select(node, c, mrng)
        code = play_drawing(sim, forced, edge.label, mrng)
        path.append((node, edge, step_rewards(sim, agents)))
        if code:
            if edge.child is None:
                edge.child = Node(CHANCE, -1)
            chance = edge.child
            edge = chance.outcomes.setdefault(code, Edge(code))
            path.append((chance, edge, np.zeros(len(agents))))
        ongoing = not game_over(sim)
        if edge.child is None:
            edge.child = Node(DECISION if ongoing else TERMINAL, agents.index(sim.agent_selection))
            if ongoing and net is not None:
                edge.child.edges = [Edge(a) for a in sim.legal_actions()]
                ret += evaluate_node(sim, edge.child, agents, net)
            elif ongoing:
                playout(sim, mrng, ret, agents, cut)
            break
        node = edge.child
    for node, edge, rewards in reversed(path):
        ret += rewards
        node.visits += 1
        edge.n += 1
        if node.mover >= 0:
            edge.w += ret[node.mover]


def select(node: Node, c: float, mrng) -> Edge:
    unvisited = [e for e in node.decisions if e.n == 0]
    if unvisited:
        return unvisited[below(mrng, 0, len(unvisited))]
    log_n = math.log(node.visits)
    return max(node.decisions, key=lambda e: e.w / e.n + c * math.sqrt(log_n / e.n))


def score_edges(sim, node: Node, agents, cfg, temperature: float) -> None:
    """Each edge's ``v0`` (the step's reward plus the estimate after it, for
    the node's mover) and prior ``p = softmax(v0 / temperature)``."""
    for edge in node.decisions:
        scratch = sim.clone()
        scratch.step(edge.label)
        edge.v0 = step_rewards(scratch, agents)[node.mover]
        if not game_over(scratch):
            values = np.zeros(len(agents))
            estimate(scratch.state, cfg, 0, values)
            edge.v0 += values[node.mover]
    softmax_priors(node.decisions, [e.v0 for e in node.decisions], temperature)


def evaluate_node(sim, node: Node, agents, net) -> np.ndarray:
    """The policy's priors (softmax of its logits over the legal actions)
    and value ``v`` (every edge's ``v0``) for ``node``, from its mover's
    observation; returns each agent's value (``v`` for the mover)."""
    net.obs[:] = sim.observe(agents[node.mover])["observation"].reshape(-1)
    v = forward(net)
    for edge in node.decisions:
        edge.v0 = v
    softmax_priors(node.decisions, [net.logits[e.label] for e in node.decisions], 1.0)
    values = np.full(len(agents), net.others * v)
    values[node.mover] = v
    return values


def softmax_priors(edges: list[Edge], scores: list[float], temperature: float) -> None:
    """Each edge's prior: ``softmax(score / temperature)`` over ``edges``."""
    top = max(scores)
    for edge, score in zip(edges, scores):
        edge.p = math.exp((score - top) / temperature)
    total = sum(e.p for e in edges)
    for edge in edges:
        edge.p /= total


def select_guided(node: Node, c: float) -> Edge:
    root_n = math.sqrt(node.visits + 1.0)
    return max(node.decisions, key=lambda e: (e.w + e.v0) / (e.n + 1) + c * e.p * root_n / (e.n + 1))


def play_drawing(sim, forced, action: int, mrng) -> int:
    """Step with faces queued from the search's generator; the outcome code."""
    if forced is None:
        sim.step(action)
        return 0
    faces = hooks_of(sim.rules).die_faces
    drawn = [below(mrng, 0, faces) for _ in range(forced.shape[1])]
    sim.state.forced[0, :] = drawn
    sim.step(action)
    rolled = [d for d, left in zip(drawn, sim.state.forced[0]) if left < 0]
    sim.state.forced[0, :] = -1
    if not rolled:
        return 0
    code = 0
    for d in rolled:
        code = code * faces + d
    return len(rolled) + (len(drawn) + 1) * code


def playout(sim, mrng, ret, agents, cut) -> None:
    """Random moves to the end, or for ``max_playout`` plies and then the
    game's estimate of the position."""
    max_playout, cfg = cut
    plies = 0
    while not game_over(sim):
        if plies == max_playout:
            values = np.zeros(len(agents))
            estimate(sim.state, cfg, 0, values)
            ret += values
            return
        legal = sim.legal_actions()
        sim.step(legal[below(mrng, 0, len(legal))])
        ret += step_rewards(sim, agents)
        plies += 1


def step_rewards(sim, agents) -> np.ndarray:
    return np.array([sim.rewards.get(a, 0.0) for a in agents], np.float64)


def game_over(sim) -> bool:
    return any(sim.terminations.values()) or any(sim.truncations.values())
