"""A greedy Azure Attack baseline: fetch gold, carry it home, chase carriers.

The agent plays whichever piece is to move (the monster or a hunter), one
step per call, in plain Python (a few shortest-path searches over the map's
at most 112 squares: well under a millisecond a decision). Heuristic,
exactly:

**Squares and distances.** A square is *enterable* for player ``p`` when it
is a map square or a square of ``p``'s own suit tile (never another
player's suit tile). ``dist(a, b)`` is the number of steps from ``a`` to
``b`` over enterable squares, pieces ignored (cached per layout, tile owners
and player). Each piece's *speed* is the rules' allowance: 6 (monster) or 4
(hunter), 2 fewer per coin carried, at least 1.

**The target.** Coins "lying" are coins on squares (not carried, not
banked); *valued* coins are those of value 1-5, and null coins (value 0)
count only when no valued coin lies on the map.

- A hunter carrying gold targets its own suit tile (any of its four
  squares: entering one banks everything and ends the turn).
- A hunter carrying nothing targets the square ``c`` of lying coins (their
  values summed: ``v``) with the best *value per turn*
  ``v / (dist(here, c) / 4 + dist(c, home) / 2)`` (the fetch at speed 4, the
  trip home at speed 2); with only null coins lying, the nearest one
  (least ``dist(here, c) + dist(c, home)``). With no coin lying, it attacks
  the monster if the monster carries gold (a fight won takes it), else it
  stops.
- The monster attacks a hunter carrying gold that it can reach this turn
  (``dist`` within its squares left), the most valuable load first. Otherwise,
  carrying gold, it heads for its own suit tile to bank; carrying nothing, it
  chases the nearest hunter carrying gold (not on its own suit tile, where
  the monster cannot go; ties: the larger load), and with none it takes the
  lying coins of best value per turn as a hunter does, with its own speeds
  ``v / (dist(here, c) / 6 + dist(c, home) / 4)``.

Remaining ties of the target choice are broken uniformly at random with the
agent's own generator.

**The step.** A cost-to-go ``C`` to the target squares is computed by a
shortest-path search backwards from them over enterable squares, where
entering a square costs 1, plus 4 if coins lie on it that the piece does not
mean to pick up (every coin on a square entered is taken, and each costs 2
squares of allowance), plus 3 for a hunter carrying gold on a square next to
the monster (a shy detour). Squares holding another piece are barred, except
the piece attacked as the target. The agent plays the legal step (the
action mask: on the map, not back onto a square visited this turn) with the
least ``cost(step) + C(step)`` provided ``C(step) < C(here)``, ties at
random; when no legal step brings it nearer (or no target is reachable), it
stops (``4``). A step onto another piece is only ever the attack on the
target: hunters never attack each other, and a hunter never steps onto the
monster unless it means to.

Measured against random play (``benchmarks/azure_agents.py``, 500 games a
row, seats by role, ``roles="fixed"``, ``max_turns=300``; results in
``benchmarks/results/azure_agents.json``): greedy hunter(s) against a random
monster win 500/500 in every configuration (2-4 players; maps standard, long,
ring; 95 % Wilson interval 99.2-100 %); a greedy monster against random
hunters wins 499/500 (2 players, standard map) and 500/500 elsewhere; no
game reaches the turn limit (games of 73-122 turns with greedy hunters,
96-147 with the greedy monster, the random side rarely banking anything).
Greedy against greedy, the monster wins 27 % (2 players), 47 % (3) and 64 %
(4) on the standard map. About 0.06 ms a decision (mean; p99 0.1 ms; the
first call on a new map builds its distance table, 2-3 ms).
"""

from __future__ import annotations

import heapq
from collections import deque

import numpy as np

from azure_env.board import ENTER_HUNTER, ENTER_MONSTER, MAP, STOP
from azure_env.kernels import BANKED, CARRIED, COIN_COST, HUNTER_ALLOWANCE, MONSTER, MONSTER_ALLOWANCE

from .base import agent_rng, suite_env

INF = float("inf")
#: Extra cost of entering a square with coins the piece does not target.
COIN_DETOUR = 4.0
#: Extra cost, for a hunter carrying gold, of a square next to the monster.
MONSTER_SHY = 3.0


def speed(player: int, carried: int) -> int:
    """The rules' allowance of a piece carrying ``carried`` coins."""
    base = MONSTER_ALLOWANCE if player == MONSTER else HUNTER_ALLOWANCE
    return max(1, base - COIN_COST * carried)


class AzureGreedy:
    """The greedy Azure Attack baseline (see the module docstring).

    ``seed`` seeds the agent's own generator, which only breaks ties; the
    choice is otherwise a function of the position.
    """

    name = "greedy"

    def __init__(self, seed: int | np.random.SeedSequence | None = None):
        self.rng = agent_rng(seed)
        self._dist_cache: dict = {}

    def __repr__(self) -> str:
        return "AzureGreedy()"

    # ------------------------------------------------------------ geometry
    def _graph(self, rules, owners: tuple, p: int):
        """(neighbours, enterable, all-pairs distances) for player ``p``
        with suit tile owners ``owners`` (cached by the map's tables: two
        maps of one name, or one map under both suit tile rules, differ)."""
        key = (rules.tables.tobytes(), owners, p)
        hit = self._dist_cache.get(key)
        if hit is not None:
            return hit
        S, tables = rules.S, rules.tables
        nbr = [[int(tables[4 * s + d]) for d in range(4)] for s in range(S)]
        may = ENTER_MONSTER if p == MONSTER else ENTER_HUNTER  # the suit_tiles option
        enter = []
        for s in range(S):
            slot = int(tables[4 * S + s])
            owner = owners[slot] if slot >= 0 else -1  # -1: a hunter's tile left out
            enter.append(slot == MAP or (owner >= 0 and (owner == p or int(tables[5 * S + s]) & may)))
        dist = np.full((S, S), INF)
        for a in range(S):
            if rules.layout.slot[a] < MAP:  # void
                continue
            dist[a, a] = 0
            queue = deque([a])
            while queue:
                u = queue.popleft()
                for v in nbr[u]:
                    if v >= 0 and enter[v] and dist[a, v] == INF:
                        dist[a, v] = dist[a, u] + 1
                        queue.append(v)
        hit = (nbr, enter, dist)
        self._dist_cache[key] = hit
        return hit

    # ------------------------------------------------------------ decision
    def plan(self, env) -> dict:
        """The agent's view of the position: its target squares, what for,
        and the cost-to-go of each square (see the module docstring)."""
        base = suite_env(env, "azure")
        rules, st = base.rules, base.state
        S = rules.S
        p = int(st.player[0])
        pos = [int(x) for x in st.pos[0]]
        here = pos[p]
        owners = tuple(int(x) for x in st.slot_owner[0])
        nbr, enter, dist = self._graph(rules, owners, p)
        values = [int(v) for v in st.coin_value[0]]
        locs = [int(x) for x in st.coin_loc[0]]
        lying: dict[int, list[int]] = {}
        load = [0] * rules.num_players  # coins carried
        load_value = [0] * rules.num_players
        for v, loc in zip(values, locs):
            if loc < S:
                lying.setdefault(loc, []).append(v)
            elif loc < S + BANKED:
                q = loc - S - CARRIED
                load[q] += 1
                load_value[q] += v
        own_tile = [s for s in range(S) if enter[s] and rules.layout.slot[s] >= 0]
        home = int(st.home[0, p])
        left = speed(p, load[p]) - int(st.steps[0])

        targets: list[int] = []
        mode = "stop"
        attack = -1  # the piece the agent means to step onto, if any
        if p != MONSTER:
            if load[p]:
                targets, mode = own_tile, "bank"
            else:
                pick = self._best_coin(lying, dist, here, home, HUNTER_ALLOWANCE,
                                       speed(p, 1))
                if pick is not None:
                    targets, mode = [pick], "fetch"
                elif load[MONSTER] and dist[here, pos[MONSTER]] < INF:
                    targets, mode, attack = [pos[MONSTER]], "attack", MONSTER
        else:
            carriers = [q for q in range(1, rules.num_players)
                        if load[q] and dist[here, pos[q]] < INF]
            near = [q for q in carriers if dist[here, pos[q]] <= left]
            if near:
                best = max(load_value[q] for q in near)
                q = self._tie([q for q in near if load_value[q] == best])
                targets, mode, attack = [pos[q]], "attack", q
            elif load[p]:
                targets, mode = own_tile, "bank"
            elif carriers:
                key = {q: (dist[here, pos[q]], -load_value[q]) for q in carriers}
                best = min(key.values())
                q = self._tie([q for q in carriers if key[q] == best])
                targets, mode, attack = [pos[q]], "attack", q
            else:
                pick = self._best_coin(lying, dist, here, home, MONSTER_ALLOWANCE, speed(p, 1))
                if pick is not None:
                    targets, mode = [pick], "fetch"

        cost, enter_cost = self._cost_to_go(targets, nbr, enter, lying, pos, p, attack, load[p] > 0)
        return {"player": p, "here": here, "mode": mode, "targets": targets, "attack": attack,
                "cost": cost, "enter_cost": enter_cost, "nbr": nbr}

    def _tie(self, options):
        if len(options) == 1:
            return options[0]
        return options[int(self.rng.integers(len(options)))]

    def _best_coin(self, lying, dist, here, home, fast, slow):
        """The lying coin square of best value per turn (nulls: the nearest
        round trip, and only if no valued coin lies); None if none reachable."""
        scored = {}
        for s, vals in lying.items():
            there, back = dist[here, s], dist[s, home]
            if there == INF or back == INF:
                continue
            v = sum(vals)
            turns = there / fast + back / slow
            scored[s] = (0, -v / turns if turns > 0 else -INF) if v > 0 else (1, there + back)
        if not scored:
            return None
        best = min(scored.values())
        return self._tie(sorted(s for s, k in scored.items() if k == best))

    @staticmethod
    def _cost_to_go(targets, nbr, enter, lying, pos, p, attack, carrying):
        """Backward Dijkstra: ``(C, enter_cost)``, ``C[s]`` the least cost of
        a walk from ``s`` into a target, ``enter_cost(s)`` the cost of
        entering ``s`` (INF: barred: not enterable, or another piece there
        that is not the target attacked)."""
        cost = [INF] * len(nbr)
        occupied = {pos[q]: q for q in range(len(pos)) if q != p}
        target_set = set(targets)
        shy = set()
        if carrying and p != MONSTER:
            m = pos[MONSTER]
            shy = {m, *(v for v in nbr[m] if v >= 0)}

        def enter_cost(s):
            if not enter[s]:
                return INF
            if s in occupied and not (occupied[s] == attack and s in target_set):
                return INF
            c = 1.0
            if s in lying and s not in target_set:
                c += COIN_DETOUR
            if s in shy:
                c += MONSTER_SHY
            return c

        heap = []
        for t in targets:
            cost[t] = 0.0
            heap.append((0.0, t))
        heapq.heapify(heap)
        while heap:
            c, u = heapq.heappop(heap)
            if c > cost[u]:
                continue
            if u not in target_set and u in occupied:
                continue  # a walk may not pass through a piece
            step = enter_cost(u)
            if step == INF:
                continue
            for v in nbr[u]:  # v -> u enters u
                if v >= 0 and c + step < cost[v]:
                    cost[v] = c + step
                    heapq.heappush(heap, (c + step, v))
        return cost, enter_cost

    def act(self, env) -> int:
        raw = suite_env(env, "azure")
        mask = raw.observe(raw.agent_selection)["action_mask"]
        plan = self.plan(env)
        cost, here, nbr = plan["cost"], plan["here"], plan["nbr"]
        if not plan["targets"] or cost[here] == INF:
            return STOP
        enter_cost = plan["enter_cost"]
        best, moves = INF, []
        for d in range(4):
            if not mask[d]:
                continue
            n = nbr[here][d]
            if cost[n] >= cost[here]:
                continue
            c = enter_cost(n)
            if c == INF:
                continue
            total = c + cost[n]
            if total < best - 1e-9:
                best, moves = total, [d]
            elif abs(total - best) <= 1e-9:
                moves.append(d)
        if not moves:
            return STOP
        return int(self._tie(moves))
