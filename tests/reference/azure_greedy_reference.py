"""A naive reference of Azure Attack's greedy baseline (:mod:`azure_env.greedy`).

The decision rule of the module docstring of ``agents/azure_greedy.py``,
written out in plain Python on plain values (the agent's first
implementation, kept as the test oracle of its numba kernel; one fix, to
the rule as the docstring states it: a piece carrying gold targets its *own*
suit tile, where the first version took every suit tile square it may enter,
and so, with ``suit_tiles="literal"``, could sit on another's tile for good).
Where the rule
breaks a tie at random, this reference keeps every option instead:
:func:`choosable_actions` is the set of actions the rule may play in a
position, the union over every tie of the target choice, then over every tie
of the step.
"""

from __future__ import annotations

import heapq
from collections import deque
from typing import NamedTuple

from azure_env.board import ENTER_HUNTER, ENTER_MONSTER, MAP, STOP
from azure_env.kernels import BANKED, CARRIED, COIN_COST, HUNTER_ALLOWANCE, MONSTER, MONSTER_ALLOWANCE

INF = float("inf")
#: Extra cost of entering a square with coins the piece does not target.
COIN_DETOUR = 4.0
#: Extra cost, for a hunter carrying gold, of a square next to the monster.
MONSTER_SHY = 3.0


class Graph(NamedTuple):
    """A player's view of a map: neighbours, enterable squares, all-pairs distances."""

    nbr: list  # nbr[s][d]: the square one step in direction d of s, -1 none
    enter: list  # enter[s]: may the player stand on s
    dist: list  # dist[a][b]: steps from a to b over enterable squares (INF: no way)


class Target(NamedTuple):
    """One way the rule may choose its target."""

    mode: str  # "bank", "fetch", "attack" or "stop"
    squares: list  # the target squares (empty with "stop")
    attack: int  # the player attacked (-1: none)


class Position(NamedTuple):
    """What the rule reads of one game, in plain Python values."""

    p: int  # the player to move
    pos: list  # each piece's square
    home: int  # the mover's home square
    owners: tuple  # who owns each suit tile slot (-1: none)
    lying: dict  # square -> values of the coins lying there
    load: list  # coins carried by each player
    load_value: list  # their total value
    left: int  # squares the mover may still move this turn


def speed(player: int, carried: int) -> int:
    """The rules' allowance of a piece carrying ``carried`` coins."""
    base = MONSTER_ALLOWANCE if player == MONSTER else HUNTER_ALLOWANCE
    return max(1, base - COIN_COST * carried)


_graphs: dict = {}


def graph(rules, owners: tuple, p: int) -> Graph:
    """Player ``p``'s :class:`Graph` with suit tile owners ``owners``
    (cached by the map's tables: two maps of one name, or one map under both
    suit tile rules, differ)."""
    key = (rules.tables.tobytes(), owners, p)
    if key not in _graphs:
        S, tables = rules.S, rules.tables
        nbr = [[int(tables[4 * s + d]) for d in range(4)] for s in range(S)]
        may = ENTER_MONSTER if p == MONSTER else ENTER_HUNTER  # the suit_tiles option
        enter = []
        for s in range(S):
            slot = int(tables[4 * S + s])
            owner = owners[slot] if slot >= 0 else -1  # -1: a hunter's tile left out
            enter.append(slot == MAP or (owner >= 0 and (owner == p or int(tables[5 * S + s]) & may)))
        dist = [[INF] * S for _ in range(S)]
        for a in range(S):
            if rules.layout.slot[a] < MAP:  # void
                continue
            dist[a][a] = 0
            queue = deque([a])
            while queue:
                u = queue.popleft()
                for v in nbr[u]:
                    if v >= 0 and enter[v] and dist[a][v] == INF:
                        dist[a][v] = dist[a][u] + 1
                        queue.append(v)
        _graphs[key] = Graph(nbr, enter, dist)
    return _graphs[key]


def position_of(rules, state, i: int = 0) -> Position:
    """Game ``i`` of ``state`` as a :class:`Position`."""
    S = rules.S
    p = int(state.player[i])
    lying: dict[int, list[int]] = {}
    load = [0] * rules.num_players
    load_value = [0] * rules.num_players
    for v, loc in zip(state.coin_value[i].tolist(), state.coin_loc[i].tolist()):
        if loc < S:
            lying.setdefault(loc, []).append(v)
        elif loc < S + BANKED:
            q = loc - S - CARRIED
            load[q] += 1
            load_value[q] += v
    return Position(
        p=p,
        pos=state.pos[i].tolist(),
        home=int(state.home[i, p]),
        owners=tuple(state.slot_owner[i].tolist()),
        lying=lying,
        load=load,
        load_value=load_value,
        left=speed(p, load[p]) - int(state.steps[i]),
    )


def coin_options(position: Position, dist, fast: int, slow: int) -> list[int]:
    """The lying coin squares of best value per turn, ``v / (there / fast +
    back / slow)`` (nulls: the least round trip, and only if no valued coin
    lies); empty if none is reachable."""
    here, home = position.pos[position.p], position.home
    scored = {}
    for s, vals in position.lying.items():
        there, back = dist[here][s], dist[s][home]
        if there == INF or back == INF:
            continue
        v = sum(vals)
        turns = there / fast + back / slow
        scored[s] = (0, -v / turns if turns > 0 else -INF) if v > 0 else (1, there + back)
    if not scored:
        return []
    best = min(scored.values())
    return sorted(s for s, k in scored.items() if k == best)


def target_options(rules, position: Position, g: Graph) -> list[Target]:
    """Every target the rule may choose (one per tie of the choice)."""
    p, pos, load, load_value, dist = position.p, position.pos, position.load, position.load_value, g.dist
    here = pos[p]
    own_tile = [
        s for s in range(rules.S) if rules.layout.slot[s] >= 0 and position.owners[rules.layout.slot[s]] == p
    ]
    if p != MONSTER:
        if load[p]:
            return [Target("bank", own_tile, -1)]
        coins = coin_options(position, dist, HUNTER_ALLOWANCE, speed(p, 1))
        if coins:
            return [Target("fetch", [s], -1) for s in coins]
        if load[MONSTER] and dist[here][pos[MONSTER]] < INF:
            return [Target("attack", [pos[MONSTER]], MONSTER)]
        return [Target("stop", [], -1)]
    carriers = [q for q in range(1, rules.num_players) if load[q] and dist[here][pos[q]] < INF]
    near = [q for q in carriers if dist[here][pos[q]] <= position.left]
    if near:
        best = max(load_value[q] for q in near)
        return [Target("attack", [pos[q]], q) for q in near if load_value[q] == best]
    if load[p]:
        return [Target("bank", own_tile, -1)]
    if carriers:
        key = {q: (dist[here][pos[q]], -load_value[q]) for q in carriers}
        best = min(key.values())
        return [Target("attack", [pos[q]], q) for q in carriers if key[q] == best]
    coins = coin_options(position, dist, MONSTER_ALLOWANCE, speed(p, 1))
    if coins:
        return [Target("fetch", [s], -1) for s in coins]
    return [Target("stop", [], -1)]


def entry_costs(position: Position, target: Target, g: Graph) -> list[float]:
    """The cost of entering each square (INF: barred: not enterable, or
    another piece there that is not the target attacked)."""
    p, pos = position.p, position.pos
    occupied = {pos[q]: q for q in range(len(pos)) if q != p}
    targets = set(target.squares)
    shy = set()
    if position.load[p] and p != MONSTER:
        m = pos[MONSTER]
        shy = {m, *(v for v in g.nbr[m] if v >= 0)}
    costs = []
    for s in range(len(g.nbr)):
        if not g.enter[s] or (s in occupied and not (occupied[s] == target.attack and s in targets)):
            costs.append(INF)
            continue
        c = 1.0
        if s in position.lying and s not in targets:
            c += COIN_DETOUR
        if s in shy:
            c += MONSTER_SHY
        costs.append(c)
    return costs


def cost_to_go(target: Target, entry: list[float], nbr) -> list[float]:
    """Backward Dijkstra: ``C[s]``, the least cost of a walk from ``s`` into
    a target square (a walk enters no barred square)."""
    cost = [INF] * len(nbr)
    heap = []
    for t in target.squares:
        cost[t] = 0.0
        heap.append((0.0, t))
    heapq.heapify(heap)
    while heap:
        c, u = heapq.heappop(heap)
        if c > cost[u] or entry[u] == INF:
            continue
        for v in nbr[u]:  # v -> u enters u
            if v >= 0 and c + entry[u] < cost[v]:
                cost[v] = c + entry[u]
                heapq.heappush(heap, (c + entry[u], v))
    return cost


def step_options(here: int, cost, entry, nbr, mask) -> list[int]:
    """The legal steps of least ``entry + C`` among those with ``C`` below
    ``C(here)``; ``[STOP]`` if none."""
    if cost[here] == INF:
        return [STOP]
    best, moves = INF, []
    for d in range(4):
        n = nbr[here][d]
        if not mask[d] or cost[n] >= cost[here] or entry[n] == INF:
            continue
        total = entry[n] + cost[n]
        if total < best:
            best, moves = total, [d]
        elif total == best:
            moves.append(d)
    return moves or [STOP]


def choosable_actions(rules, state, mask, i: int = 0) -> set[int]:
    """Every action the rule may play in game ``i`` of ``state`` (``mask``:
    that game's action mask): the union over the target's ties, then the
    step's."""
    position = position_of(rules, state, i)
    g = graph(rules, position.owners, position.p)
    here = position.pos[position.p]
    actions = set()
    for target in target_options(rules, position, g):
        entry = entry_costs(position, target, g)
        actions.update(step_options(here, cost_to_go(target, entry, g.nbr), entry, g.nbr, mask))
    return actions
