"""A greedy Azure Attack baseline: fetch gold, carry it home, chase carriers.

The agent plays whichever piece is to move (the monster or a hunter), one
step per call, in one numba kernel (:func:`decide`: a few shortest-path
searches over the map's squares). Heuristic, exactly:

**Squares and distances.** A square is *enterable* for player ``p`` when it
is a map square, a square of ``p``'s own suit tile, or a square of another
player's suit tile that the ``suit_tiles`` option opens to ``p``
(``"literal"``; never with ``"closed"``). ``dist(a, b)`` is the number of
steps from ``a`` to ``b`` over enterable squares, pieces ignored (searched
afresh each decision, from the piece's square and from its home). Each
piece's *speed* is the rules' allowance: 6 (monster) or 4 (hunter), 2 fewer
per coin carried, at least 1.

**The target.** Coins "lying" are coins on squares (not carried, not
banked); *valued* coins are those of value 1-5, and null coins (value 0)
count only when no valued coin lies within reach (``dist`` there and back
home finite).

- A hunter carrying gold targets its own suit tile (any of its four
  squares: entering one banks everything and ends the turn).
- A hunter carrying nothing targets the square ``c`` of lying coins (their
  values summed: ``v``) with the best *value per turn*
  ``v / (dist(here, c) / 4 + dist(c, home) / 2)`` (the fetch at speed 4, the
  trip home at speed 2); with only null coins lying, the nearest one
  (least ``dist(here, c) + dist(c, home)``). With no coin within reach, it
  attacks the monster if the monster carries gold and is within reach (a
  fight won takes it), else it stops.
- The monster attacks a hunter carrying gold that it can reach this turn
  (``dist`` within its squares left), the most valuable load first. Otherwise,
  carrying gold, it heads for its own suit tile to bank; carrying nothing, it
  chases the nearest hunter carrying gold (not on its own suit tile, where
  the monster cannot go; ties: the larger load), and with none it takes the
  lying coins of best value per turn as a hunter does, with its own speeds
  ``v / (dist(here, c) / 6 + dist(c, home) / 4)``.

Remaining ties of the target choice are broken uniformly at random, then
those of the step: with the agent's own generator (``act``) or the game's
(``act_batch``).

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
(4) on the standard map.

:meth:`AzureGreedy.act_batch` decides for many games of a vector env at once
(the training league's greedy opponent), in parallel over games, each
game's ties drawn from its own generator; :meth:`AzureGreedy.act` runs the
same per-game kernel on the AEC env's state (a batch of one), its ties
drawn from the agent's own generator word. About 10 us a decision through
``act`` (mean, AEC env, two players, standard map; about 100 us in the
plain Python it replaced) and 4-6 us a game through ``act_batch`` on 256
games, after warm-up (measured on two cores busy with training). The plain
Python rule is kept as the tests' reference
(``tests/reference/azure_greedy_reference.py``).
"""

from __future__ import annotations

import numpy as np

from azgames.core.agent import agent_rng, suite_env
from azgames.core.jit import njit, njit_inline, njit_parallel, prange
from azgames.core.rng import below
from azure_env.board import ENTER_HUNTER, ENTER_MONSTER, MAP, MAX_MAP_TILES, STOP
from azure_env.kernels import BANKED, CARRIED, MONSTER, allowance
from azure_env.rules import AzureRules, AzureState

#: Distance or cost of a square there is no way to.
NO_WAY = np.int64(1 << 40)
#: Extra cost of entering a square with coins the piece does not target.
COIN_DETOUR = 4
#: Extra cost, for a hunter carrying gold, of a square next to the monster.
MONSTER_SHY = 3
#: What the piece is after (``plan(env)["mode"]``), by the code the kernel returns.
MODES = ("stop", "bank", "fetch", "attack")
STOPPED, BANK, FETCH, ATTACK = 0, 1, 2, 3
#: The monster's chase key ``(distance, -load value)`` is packed in one number,
#: ``distance * LOAD_SPAN - load value``: a load is worth at most 5 a coin.
LOAD_SPAN = 5 * MAX_MAP_TILES + 1


# ---------------------------------------------------------------- geometry
@njit_inline
def enterable_squares(tables, S, slot_owner, i, p, enter):
    """``enter[s]``: may player ``p`` of game ``i`` stand on square ``s``: a
    map square, a square of its own suit tile, or one of another's tile that
    the ``suit_tiles`` option opens to it."""
    may = ENTER_MONSTER if p == MONSTER else ENTER_HUNTER
    for s in range(S):
        slot = tables[4 * S + s]
        owner = slot_owner[i, slot] if slot >= 0 else -1  # -1: no suit tile, or a hunter's left out
        enter[s] = slot == MAP or (owner >= 0 and (owner == p or (tables[5 * S + s] & may) != 0))


@njit_inline
def distances_from(tables, enter, start, dist, queue):
    """``dist[s]``: the steps from ``start`` to ``s`` over enterable squares,
    pieces ignored (``NO_WAY``: none), breadth-first."""
    dist[:] = NO_WAY
    dist[start] = 0
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        for d in range(4):
            v = tables[4 * u + d]
            if v >= 0 and enter[v] and dist[v] == NO_WAY:
                dist[v] = dist[u] + 1
                queue[tail] = v
                tail += 1


@njit_inline
def count_coins(coin_value, coin_loc, i, S, lying, lying_value, load, load_value):
    """Per square, the coins lying there and their value; per player, the
    coins it carries and their value."""
    lying[:] = 0
    lying_value[:] = 0
    load[:] = 0
    load_value[:] = 0
    for k in range(coin_loc.shape[1]):
        loc = np.int64(coin_loc[i, k])  # widened: S + codes overflow int16 arithmetic without the JIT
        v = np.int64(coin_value[i, k])
        if loc < S:
            lying[loc] += 1
            lying_value[loc] += v
        elif loc < S + BANKED:
            load[loc - S - CARRIED] += 1
            load_value[loc - S - CARRIED] += v


# ---------------------------------------------------------------- ties
@njit_inline
def draw_least(keys, rng, i):
    """The index of a least key, drawn uniformly among equal ones with
    generator ``rng[i]`` (no draw when one alone is least); -1 when every key
    is ``inf`` (nothing to choose)."""
    best = np.inf
    count = 0
    for k in range(keys.shape[0]):
        if keys[k] < best:
            best, count = keys[k], 1
        elif keys[k] == best and best < np.inf:
            count += 1
    if count == 0:
        return -1
    pick = below(rng, i, count) if count > 1 else 0
    for k in range(keys.shape[0]):
        if keys[k] == best:
            if pick == 0:
                return k
            pick -= 1
    return -1  # not reached: ``pick`` < the count of least keys


# ---------------------------------------------------------------- the target
@njit_inline
def best_coin(lying, lying_value, dist_here, dist_home, fast, slow, keys, rng, i):
    """The square of lying coins of best value per turn, ``v / (there / fast
    + back / slow)``; with only null coins within reach, the least round trip
    ``there + back``; ties at random; -1 if no coin is within reach."""
    S = lying.shape[0]
    valued = False
    for s in range(S):
        valued |= lying_value[s] > 0 and dist_here[s] != NO_WAY and dist_home[s] != NO_WAY
    for s in range(S):
        keys[s] = np.inf
        there, back = dist_here[s], dist_home[s]
        if lying[s] == 0 or there == NO_WAY or back == NO_WAY:
            continue
        if valued and lying_value[s] > 0:
            # The reference's float formula, term by term, so that equal rates tie alike.
            turns = there / fast + back / slow
            keys[s] = -lying_value[s] / turns if turns > 0 else -np.inf
        elif not valued:
            keys[s] = there + back
    return draw_least(keys, rng, i)


@njit_inline
def mark_own_tile(tables, S, slot_owner, i, p, is_target):
    """Marks the four squares of player ``p``'s own suit tile as targets
    (entering one banks: another's tile, even where open, does not)."""
    for s in range(S):
        slot = tables[4 * S + s]
        if slot >= 0 and slot_owner[i, slot] == p:
            is_target[s] = True


@njit_inline
def hunter_target(
    tables, S, pos, slot_owner, i, p, lying, lying_value, load, dist_here, dist_home, keys, rng, is_target
):
    """A hunter's target squares into ``is_target``; returns ``(mode, attack)``."""
    if load[p] > 0:
        mark_own_tile(tables, S, slot_owner, i, p, is_target)
        return BANK, -1
    c = best_coin(lying, lying_value, dist_here, dist_home, allowance(p, 0), allowance(p, 1), keys, rng, i)
    if c >= 0:
        is_target[c] = True
        return FETCH, -1
    m = pos[i, MONSTER]
    if load[MONSTER] > 0 and dist_here[m] != NO_WAY:
        is_target[m] = True
        return ATTACK, MONSTER
    return STOPPED, -1


@njit_inline
def monster_target(
    tables,
    S,
    pos,
    slot_owner,
    i,
    left,
    lying,
    lying_value,
    load,
    load_value,
    dist_here,
    dist_home,
    keys,
    rng,
    is_target,
):
    """The monster's target squares into ``is_target``; returns ``(mode, attack)``."""
    P = pos.shape[1]
    carriers = keys[:P]  # per hunter carrying gold within reach: its key; inf for the others
    chase = False
    for q in range(P):
        carriers[q] = np.inf
        d = dist_here[pos[i, q]]
        if q != MONSTER and load[q] > 0 and d != NO_WAY:
            chase = True
            if d <= left:  # within this turn's squares: the largest load first
                carriers[q] = -load_value[q]
    q = draw_least(carriers, rng, i)
    if q < 0 and load[MONSTER] > 0:
        mark_own_tile(tables, S, slot_owner, i, MONSTER, is_target)
        return BANK, -1
    if q < 0 and chase:  # the nearest hunter carrying gold, then the largest load
        for r in range(P):
            d = dist_here[pos[i, r]]
            far = r == MONSTER or load[r] == 0 or d == NO_WAY
            carriers[r] = np.inf if far else d * LOAD_SPAN - load_value[r]
        q = draw_least(carriers, rng, i)
    if q >= 0:
        is_target[pos[i, q]] = True
        return ATTACK, q
    c = best_coin(
        lying, lying_value, dist_here, dist_home, allowance(MONSTER, 0), allowance(MONSTER, 1), keys, rng, i
    )
    if c >= 0:
        is_target[c] = True
        return FETCH, -1
    return STOPPED, -1


# ---------------------------------------------------------------- the step
@njit_inline
def entry_costs(tables, S, pos, i, p, enter, lying, is_target, attack, carrying, entry):
    """``entry[s]``: the cost of entering ``s`` (the module docstring);
    ``NO_WAY`` where it is barred."""
    for s in range(S):
        if not enter[s]:
            entry[s] = NO_WAY
        elif lying[s] > 0 and not is_target[s]:  # every coin entered is taken: 2 squares each
            entry[s] = 1 + COIN_DETOUR
        else:
            entry[s] = 1
    for q in range(pos.shape[1]):  # other pieces bar their squares, but for the one attacked
        s = pos[i, q]
        if q != p and not (q == attack and is_target[s]):
            entry[s] = NO_WAY
    if carrying and p != MONSTER:  # a shy detour round the monster
        m = pos[i, MONSTER]
        for d in range(5):
            s = m if d == 4 else tables[4 * m + d]
            if s >= 0 and entry[s] != NO_WAY:
                entry[s] += MONSTER_SHY


@njit_inline
def heap_push(heap, size, key):
    """Push ``key`` on the binary min-heap ``heap[:size]``; returns the new size."""
    k = size
    heap[k] = key
    while k > 0 and heap[(k - 1) // 2] > heap[k]:
        parent = (k - 1) // 2
        heap[parent], heap[k] = heap[k], heap[parent]
        k = parent
    return size + 1


@njit_inline
def heap_pop(heap, size):
    """The least key of the binary min-heap ``heap[:size]``, removed (the
    heap is ``heap[:size - 1]`` after)."""
    top = heap[0]
    size -= 1
    heap[0] = heap[size]
    k = 0
    while 2 * k + 1 < size:
        c = 2 * k + 1
        if c + 1 < size and heap[c + 1] < heap[c]:
            c += 1
        if heap[k] <= heap[c]:
            break
        heap[k], heap[c] = heap[c], heap[k]
        k = c
    return top


@njit_inline
def cost_to_go(tables, S, is_target, entry, cost, heap):
    """``cost[s]``: the least sum of entry costs of a walk from ``s`` into a
    target square (``NO_WAY``: none): Dijkstra backwards from the targets.
    A heap key packs ``(cost, square)`` as ``cost * S + square``; ``heap``
    holds 5 S keys (each square settles once and pushes its 4 neighbours)."""
    cost[:] = NO_WAY
    size = 0
    for s in range(S):
        if is_target[s]:
            cost[s] = 0
            size = heap_push(heap, size, s)
    while size > 0:
        key = heap_pop(heap, size)
        size -= 1
        c, u = key // S, key % S
        if c > cost[u] or entry[u] == NO_WAY:
            continue
        for d in range(4):
            v = tables[4 * u + d]  # the step v -> u enters u
            if v >= 0 and c + entry[u] < cost[v]:
                cost[v] = c + entry[u]
                size = heap_push(heap, size, cost[v] * S + v)


@njit_inline
def choose_step(tables, here, mask_row, entry, cost, keys, rng, i):
    """The legal step of least ``entry + cost`` among those whose ``cost`` is
    below ``cost[here]`` (ties at random); ``STOP`` when none is."""
    if cost[here] == NO_WAY:
        return STOP
    for d in range(4):
        n = tables[4 * here + d]
        keys[d] = np.inf
        if mask_row[d] and cost[n] < cost[here] and entry[n] != NO_WAY:
            keys[d] = entry[n] + cost[n]
    d = draw_least(keys[:4], rng, i)
    return STOP if d < 0 else d


# ---------------------------------------------------------------- entry points
@njit
def decide(s, cfg, i, rng, mask_row, is_target, cost):
    """Game ``i``'s greedy decision (``s`` the state, ``cfg`` the rules'
    config; its ties drawn from ``rng[i]``; ``mask_row`` its action mask):
    returns ``(action, mode, attack)`` and leaves the target squares in
    ``is_target`` and the cost-to-go in ``cost``."""
    tables, S, pos, slot_owner = cfg.tables, cfg.S, s.pos, s.slot_owner
    P = pos.shape[1]
    p = np.int64(s.player[i])
    here = np.int64(pos[i, p])
    enter = np.empty(S, np.bool_)
    enterable_squares(tables, S, slot_owner, i, p, enter)
    dist_here, dist_home, queue = np.empty(S, np.int64), np.empty(S, np.int64), np.empty(S, np.int64)
    distances_from(tables, enter, here, dist_here, queue)
    # From home, for every coin's trip back: the map's paths run both ways.
    distances_from(tables, enter, np.int64(s.home[i, p]), dist_home, queue)
    lying, lying_value = np.empty(S, np.int64), np.empty(S, np.int64)
    load, load_value = np.empty(P, np.int64), np.empty(P, np.int64)
    count_coins(s.coin_value, s.coin_loc, i, S, lying, lying_value, load, load_value)
    keys = np.empty(S, np.float64)
    is_target[:] = False
    if p == MONSTER:
        left = allowance(p, load[p]) - np.int64(s.steps[i])
        mode, attack = monster_target(
            tables,
            S,
            pos,
            slot_owner,
            i,
            left,
            lying,
            lying_value,
            load,
            load_value,
            dist_here,
            dist_home,
            keys,
            rng,
            is_target,
        )
    else:
        mode, attack = hunter_target(
            tables,
            S,
            pos,
            slot_owner,
            i,
            p,
            lying,
            lying_value,
            load,
            dist_here,
            dist_home,
            keys,
            rng,
            is_target,
        )
    entry = np.empty(S, np.int64)
    entry_costs(tables, S, pos, i, p, enter, lying, is_target, attack, load[p] > 0, entry)
    cost_to_go(tables, S, is_target, entry, cost, np.empty(5 * S, np.int64))
    return choose_step(tables, here, mask_row, entry, cost, keys, rng, i), mode, attack


@njit_inline
def greedy_action(s, cfg, g, mask_row):
    """Game ``g``'s greedy action alone (:func:`decide` with scratch of its
    own, its ties from the game's generator): a batch's, and a search
    playout's (``azure_env.search.heuristic``)."""
    is_target = np.empty(cfg.S, np.bool_)
    cost = np.empty(cfg.S, np.int64)
    return decide(s, cfg, np.int64(g), s.rng, mask_row, is_target, cost)[0]


@njit_parallel
def greedy_batch(s, cfg, mask, games, out):
    """The greedy action of each game ``games[k]`` into ``out[k]``, its ties
    from that game's generator (``games`` distinct: each draws on its own)."""
    for k in prange(games.shape[0]):
        g = games[k]
        out[k] = greedy_action(s, cfg, g, mask[g])


class AzureGreedy:
    """The greedy Azure Attack baseline (see the module docstring).

    ``seed`` seeds the generator word that breaks the ties of :meth:`act`;
    the choice is otherwise a function of the position.
    """

    name = "greedy"

    def __init__(self, seed: int | np.random.SeedSequence | None = None):
        # One word of SplitMix64 state, as a vector env game's: act and act_batch share the kernel.
        self.rng_word = agent_rng(seed).integers(0, 2**64, size=1, dtype=np.uint64)

    def __repr__(self) -> str:
        return "AzureGreedy()"

    def _decide(self, env) -> tuple[int, int, int, np.ndarray, np.ndarray]:
        """:func:`decide` on ``env``'s game: ``(action, mode, attack, is_target, cost)``."""
        raw = suite_env(env, "azure")
        rules, s = raw.rules, raw.state
        assert isinstance(rules, AzureRules) and isinstance(s, AzureState)  # an Azure Attack game going on
        mask = raw.observe(raw.agent_selection)["action_mask"]
        is_target = np.empty(rules.S, np.bool_)
        cost = np.empty(rules.S, np.int64)
        action, mode, attack = decide(s, rules.cfg, np.int64(0), self.rng_word, mask, is_target, cost)
        return int(action), int(mode), int(attack), is_target, cost

    def act(self, env) -> int:
        """The greedy action of the agent to act in ``env`` (an AEC env of Azure Attack)."""
        return self._decide(env)[0]

    def plan(self, env) -> dict:
        """The decision :meth:`act` would make now (it draws on the same
        generator): ``action``, ``mode`` (``"stop"``, ``"bank"``, ``"fetch"``
        or ``"attack"``), ``targets`` (squares), ``attack`` (the player
        attacked, -1 none) and ``cost`` (each square's cost-to-go, ``inf``
        where there is no way)."""
        action, mode, attack, is_target, cost = self._decide(env)
        return {
            "action": action,
            "mode": MODES[mode],
            "targets": np.flatnonzero(is_target).tolist(),
            "attack": attack,
            "cost": np.where(cost == NO_WAY, np.inf, cost),
        }

    def act_batch(self, rules, state, mask: np.ndarray, games: np.ndarray) -> np.ndarray:
        """The greedy actions of games ``games`` (distinct indices) of a vector
        env's ``state`` (``mask``: its action masks), computed in parallel,
        ties broken with each game's own generator."""
        if not isinstance(rules, AzureRules):
            raise TypeError(f"AzureGreedy plays only Azure Attack, not {rules.info.name}")
        out = np.empty(len(games), np.int64)
        greedy_batch(state, rules.cfg, mask.view(np.int8), np.ascontiguousarray(games, np.int64), out)
        return out
