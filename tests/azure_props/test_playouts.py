"""Random playouts of Azure Attack, checked after every step.

Vector env (:func:`test_vector_playouts`): thousands of games per variant,
random legal actions drawn in numba (``VectorEnv.random_actions``). After
every step a numba checker (:mod:`.check_kernels`), which keeps its own
record of each game, checks every game:

- set-up: pieces on their suit tiles' home squares (monster slot 0, hunters
  slots 1..H, in order unless roles are random), one coin on each map tile's
  centre square, values drawn from the piecepack's non-suit tiles, the first
  hunter of the order to act; the checker copies the coin values then;
- coins are conserved: exactly K, each on a map square (never a void
  square; never a suit tile either, unless ``suit_tiles="literal"`` let a
  visitor drop its gold there, and never a home square), carried or banked
  by a player, with their set-up values;
- pieces stand on non-void squares, never on an unused suit tile nor on
  another player's suit tile (with ``suit_tiles="literal"``: only where the
  book's rule 7 bars them, hunters from each other's tiles, and never on
  another's home square), never two on one square;
- each step does what the rules say to the pieces and the coins: a move
  picks up everything on the square entered and banks all carried gold on
  entering the own suit tile; a fight's rolls (state.fight) decide by the
  rules (monster wins ties; hunters tie: both home), the loser drops its gold
  where it stood and goes home, a winning attacker takes the square and what
  lies there (and banks it if that square is on its own suit tile, which
  only literal suit tiles allow); so a piece carries only what it picked up;
- squares moved this turn stay below the allowance (6 / 4 minus 2 per coin
  carried, at least 1) while the turn goes on, and the trail is the distinct
  squares visited this turn;
- the turn order: two hunter turns, then the monster, hunters rotating,
  tracked by the checker from the turn ends it predicts (stop, allowance
  used up, banking, fights), and a monster that wins an attack plays on;
- the step's flags and rewards: terminated exactly when every coin is
  banked; turns counted by the checker, never past ``max_turns``, truncated
  exactly at it; rewards zero during the game, +1 / -1 by team (the side
  with more banked gold; 0 on equal totals) at the end;
- the mask: stop always legal, each direction legal exactly when the
  neighbour exists, is not another player's suit tile barred to the mover
  (as above) and was not visited this turn.

AEC env (:func:`test_aec_playouts`): fewer games through ``env.step``, the
same checker on every step, every action checked against
``rules.illegal_reason`` (None iff masked legal), every masked-illegal action
stepped on a clone (ValueError), fights reported in the infos, and at the end
the rewards and infos.
"""

from __future__ import annotations

import numpy as np
import pytest

import azure_env
from azgames.core import state as state_ops
from tests.azimuth.helpers import numba_threads

from . import check_kernels as C

VARIANTS = {
    "2p": (2, {}),
    "3p": (3, {}),
    "4p": (4, {}),
    "4p-long": (4, {"map": "long"}),
    "4p-ring": (4, {"map": "ring"}),
    "3p-random-roles": (3, {"roles": "random"}),
}
#: More variants in the slow runs.
SLOW_VARIANTS = {
    **VARIANTS,
    "2p-ring": (2, {"map": "ring"}),
    "2p-long": (2, {"map": "long"}),
    "4p-random-roles": (4, {"roles": "random"}),
    "4p-ring-random-roles": (4, {"map": "ring", "roles": "random"}),
}
DEFAULT_GAMES = 2000
SLOW_GAMES = 30_000


# --------------------------------------------------------------------------- the map as data


def checker_tables(rules) -> tuple[np.ndarray, C.Tables]:
    """``(params, tables)`` for the checker, from the layout's data only: its
    grid of squares (void, map tile, suit slot) and home squares. Neighbours
    and coin start squares are worked out here."""
    layout = rules.layout
    w, h = layout.width, layout.height
    kind = np.asarray(layout.slot, np.int64)
    S = w * h
    assert kind.shape == (S,)
    nbr = np.full((S, 4), -1, np.int64)
    for s in range(S):
        if kind[s] == C.VOID:
            continue
        x, y = s % w, s // w
        for d, (dx, dy) in enumerate([(0, 1), (1, 0), (0, -1), (-1, 0)]):  # N E S W
            if 0 <= x + dx < w and 0 <= y + dy < h and kind[(y + dy) * w + x + dx] != C.VOID:
                nbr[s, d] = (y + dy) * w + x + dx
    # map tiles: 2 x 2 blocks at even coordinates; a coin starts on the square
    # the map names for it, or else on the square nearest the centre of the
    # map tiles (ties: north, then west)
    tiles = []
    for y0 in range(0, h, 2):
        for x0 in range(0, w, 2):
            squares = [(y0 + dy) * w + x0 + dx for dy in (0, 1) for dx in (0, 1)]
            kinds = {int(kind[q]) for q in squares}
            assert len(kinds) == 1, f"tile at {x0},{y0} mixes kinds {kinds}"
            if kinds == {C.MAP}:
                tiles.append(squares)
    xs = [q % w + 0.5 for t in tiles for q in t]
    ys = [q // w + 0.5 for t in tiles for q in t]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    centres = [
        min(t, key=lambda q: ((q % w + 0.5 - cx) ** 2 + (q // w + 0.5 - cy) ** 2, -(q // w), q % w))
        for t in tiles
    ]
    spec = rules.options["map"]
    if isinstance(spec, dict) and "coins" in spec:
        named = {"abcdefghijklmnopqrstuvwxyz".index(c[0]) + (int(c[1:]) - 1) * w for c in spec["coins"]}
        centres = [next(q for q in t if q in named) for t in tiles]
    slot_home = np.asarray(layout.home, np.int64)
    for k in range(4):
        if slot_home[k] >= 0:
            assert kind[slot_home[k]] == k, f"home of slot {k} is not on its tile"
    params = np.zeros(C.NUM_PARAMS, np.int64)
    params[C.P_S] = S
    params[C.P_MAX_TURNS] = rules.max_turns
    params[C.P_RANDOM_ROLES] = int(rules.options["roles"] == "random")
    params[C.P_LITERAL] = int(rules.options["suit_tiles"] == "literal")
    return params, C.Tables(nbr, kind, slot_home, np.asarray(centres, np.int64))


def describe(rules, one) -> str:
    """Game 0 of ``one`` as the text diagram and its raw fields."""
    fields = ", ".join(
        f"{name} {np.asarray(v[0]).tolist()}" for name, v in zip(one._fields, one) if name not in ("rng",)
    )
    return f"{rules.diagram(one)}\n{fields}"


def _failure(rules, prev, after, actions, err, detail, finished) -> str:
    i = int(np.flatnonzero(err)[0])
    code = int(err[i])
    text = (
        f"{int((err != 0).sum())} game(s) failed; game {i}: {C.MESSAGES[code]} "
        f"[code {code}, detail {int(detail[i])}]\n"
    )
    if actions is not None:
        before = state_ops.select(prev, i)
        a = int(actions[i])
        text += (
            f"action {a} = {rules.action_to_str(before, a)} by {rules.agents[int(before.player[0])]}"
            f"{' (game ended and restarted)' if finished[i] else ''}\n"
            f"before:\n{describe(rules, before)}\n"
        )
    return text + f"after:\n{describe(rules, state_ops.select(after, i))}"


def check_sampled_actions(rules, venv, mask, rng, games: int, stats) -> None:
    """``illegal_reason`` accepts masked actions and refuses the others, in a few games."""
    for i in rng.choice(venv.num_envs, size=games, replace=False).tolist():
        one = venv.game(i)
        for a in range(rules.num_actions):
            why = rules.illegal_reason(one, a)
            assert (why is None) == bool(mask[i, a]), (
                f"action {a} ({rules.action_to_str(one, a)}): mask {mask[i, a]}, reason {why!r}\n"
                f"{describe(rules, one)}"
            )
            stats["actions validated"] += 1


def run_checked_playout(
    num_players, options, games, num_envs=1024, seed=0, max_steps=None, sample_games=2
) -> dict:
    """Random games in a vector env until ``games`` have finished, checking
    every game after every step. Returns counts of what was met."""
    venv = azure_env.VectorEnv(num_envs=num_envs, seed=seed, num_players=num_players, **options)
    rules = venv.rules
    params, tab = checker_tables(rules)
    trk = C.new_tracker(num_envs, num_players, rules.layout.num_tiles)
    counts = np.zeros(C.NUM_COUNTS, np.int64)
    rng = np.random.default_rng(seed)
    err = np.zeros(num_envs, np.int64)
    detail = np.zeros(num_envs, np.int64)
    stats = {"games": 0, "actions validated": 0}
    obs, mask = venv.reset()
    player = venv.state.player.astype(np.int64)
    bad = C.check_resets(venv.state, mask, player, params, tab, trk, counts, err, detail)
    assert bad == 0, _failure(rules, None, venv.state, None, err, detail, None)
    steps = 0
    while stats["games"] < games and (max_steps is None or steps < max_steps):
        prev = state_ops.clone(venv.state)
        actions = venv.random_actions()
        obs, mask, rewards, term, trunc, player = venv.step(actions)
        steps += 1
        bad = C.check_batch(
            prev,
            venv.state,
            actions,
            mask,
            rewards,
            term,
            trunc,
            player,
            params,
            tab,
            trk,
            counts,
            err,
            detail,
        )
        assert bad == 0, _failure(rules, prev, venv.state, actions, err, detail, term | trunc)
        if sample_games:
            check_sampled_actions(rules, venv, mask, rng, sample_games, stats)
        stats["games"] += int((term | trunc).sum())
    stats.update(C.named_counts(counts))
    return stats


def assert_coverage(stats: dict, num_players: int) -> None:
    """The playout met every case the checker distinguishes."""
    kinds = [
        "stops",
        "moves",
        "pickups",
        "banks",
        "fights",
        "monster attacks",
        "hunter attacks monster",
        "attacker wins",
        "defender wins",
        "extra turns",
        "pickup ends turn",
        "moves with allowance 1",
        "coins dropped",
        "loot picked up by a winner",
        "terminated",
        "truncated",
        "mask: visited",
        "mask: others' tile",
        "mask: off map",
        "hunters win",
        "monster wins",
    ]
    if num_players > 2:
        kinds += ["hunter attacks hunter", "both go home", "chained extra turns"]
    missing = [k for k in kinds if stats[k] == 0]
    assert not missing, f"the playouts never met {missing}: {stats}"
    # fair dice: each face about a sixth of the rolls
    for who in ("attacker faces", "defender faces"):
        faces = np.asarray(stats[who], float)
        share = faces / faces.sum()
        assert faces.sum() >= 600 and share.min() > 0.12 and share.max() < 0.22, (who, faces)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_vector_playouts(variant):
    num_players, options = VARIANTS[variant]
    # One numba thread: on two busy cores each parallel call can wait
    # milliseconds for a descheduled worker.
    with numba_threads(1):
        stats = run_checked_playout(num_players, options, DEFAULT_GAMES, seed=len(variant))
    print(f"\n{variant}: {stats}")
    assert stats["games"] >= DEFAULT_GAMES
    assert_coverage(stats, num_players)


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(SLOW_VARIANTS))
def test_vector_playouts_many(variant):
    num_players, options = SLOW_VARIANTS[variant]
    stats = run_checked_playout(
        num_players, options, SLOW_GAMES, num_envs=4096, seed=100, sample_games=8
    )  # on every thread
    print(f"\n{variant}: {stats}")
    assert_coverage(stats, num_players)


@pytest.mark.parametrize(
    "num_players,max_turns,options",
    [
        (2, 1, {}),
        (3, 2, {}),
        (4, 3, {"map": "ring"}),
        (4, 7, {"roles": "random"}),
        (2, 40, {"map": "long"}),
    ],
)
def test_vector_playouts_truncate_exactly_at_max_turns(num_players, max_turns, options):
    """Short games are cut off at exactly ``max_turns`` finished turns (the
    checker counts them itself, extra turns included)."""
    with numba_threads(1):
        stats = run_checked_playout(
            num_players, {**options, "max_turns": max_turns}, 500, num_envs=128, sample_games=4
        )
    assert stats["truncated"] >= 500 and stats["terminated"] == 0


def test_random_roles_draw_every_order_and_seating():
    """roles="random": every hunters' order and every seating on suit tiles
    1..H occurs over many set-ups, roughly evenly; roles="fixed" keeps
    hunter_k first-but-k and on tile k + 1."""
    for num_players, combos in [(3, 4), (4, 36)]:
        venv = azure_env.VectorEnv(num_envs=2000, seed=9, num_players=num_players, roles="random")
        venv.reset()
        s = venv.state
        seen = {}
        for i in range(venv.num_envs):
            key = (tuple(s.order[i].tolist()), tuple(s.slot_owner[i].tolist()))
            seen[key] = seen.get(key, 0) + 1
        assert len(seen) == combos, sorted(seen)
        assert min(seen.values()) > 0.4 * venv.num_envs / combos, seen
        firsts = np.bincount(s.order[:, 0], minlength=num_players)[1:]
        assert firsts.min() > 0.7 * venv.num_envs / (num_players - 1), firsts
    fixed = azure_env.VectorEnv(num_envs=64, seed=9, num_players=4)
    fixed.reset()
    assert (fixed.state.order == [1, 2, 3]).all() and (fixed.state.slot_owner == [0, 1, 2, 3]).all()


def test_vector_playout_smoke():
    """A few short games (quick enough to run as plain Python with NUMBA_DISABLE_JIT=1)."""
    for num_players, options in [(2, {}), (4, {"map": "ring"}), (3, {"roles": "random"})]:
        with numba_threads(1):
            stats = run_checked_playout(
                num_players,
                {**options, "max_turns": 12},
                10**9,
                num_envs=4,
                seed=7,
                max_steps=60,
                sample_games=1,
            )
        assert stats["steps"] == 4 * 60 and stats["truncated"] >= 4


# ---------------------------------------------------------------------- AEC env


def play_aec_checked(num_players, options, seed, start=None, moves=()) -> dict:
    """A random game through the AEC env (from ``start``, a one-game state, if
    given, playing ``moves`` first), checked at every step. Returns counts."""
    env = azure_env.env(num_players=num_players, **options)
    env.reset(seed=seed)
    raw = env.unwrapped
    rules = raw.rules
    params, tab = checker_tables(rules)
    trk = C.new_tracker(1, num_players, rules.layout.num_tiles)
    counts = np.zeros(C.NUM_COUNTS, np.int64)
    if start is not None:
        raw.set_state(start)
    agents = env.possible_agents
    rng = np.random.default_rng(seed)
    moves = list(moves)
    # as bools, the vector env's mask type: the checks compile once for both envs
    mask = env.observe(env.agent_selection)["action_mask"].reshape(1, -1).astype(bool)
    player_out = raw.state.player.astype(np.int64)
    if start is None:
        e, d = C.check_fresh(0, raw.state, mask, player_out, params, tab, trk, counts)
        assert e == C.OK, f"set-up: {C.MESSAGES[e]} [detail {d}]\n{describe(rules, raw.state)}"
        info = env.infos[agents[0]]
        assert info["turn_order"] == [agents[q] for q in raw.state.order[0] if q > 0]
        assert info["suit_tiles"] == {
            agents[q]: rules.layout.name_of(int(raw.state.home[0, q])) for q in range(num_players)
        }
    else:  # a mid-game position: take its record from the state
        s = raw.state
        trk.track[0, C.T_TURNS] = s.turns[0]
        trk.track[0, C.T_ACTOR] = s.player[0]
        trk.track[0, C.T_STEPS] = s.steps[0]
        trk.track[0, C.T_CYCLE] = 2 if s.player[0] == 0 else int(s.hunter_turns[0])
        trk.track[0, C.T_HPTR] = (int(s.next_hunter[0]) - (s.player[0] != 0)) % (num_players - 1)
        trk.trail[0] = s.trail[0]
        trk.values[0], trk.order[0], trk.slots[0], trk.homes[0] = (
            s.coin_value[0],
            s.order[0],
            s.slot_owner[0],
            s.home[0],
        )
    term = np.zeros(1, bool)
    trunc = np.zeros(1, bool)
    rewards = np.zeros((1, num_players), np.float32)
    actions = np.zeros(1, np.int64)
    refused: dict[str, int] = {}
    turn = 0
    while True:
        agent = env.agent_selection
        state = raw.state
        mask = env.observe(agent)["action_mask"].copy()
        assert agent == agents[int(state.player[0])]
        assert mask[4] == 1, "stop is not legal"
        for a in range(rules.num_actions):
            why = rules.illegal_reason(state, a)
            assert (why is None) == bool(mask[a]), (
                f"turn {turn}: action {a} ({raw.action_to_str(a)}) mask {mask[a]}, "
                f"reason {why!r}\n{describe(rules, state)}"
            )
            if why is not None:
                refused[f"refused: {why}"] = refused.get(f"refused: {why}", 0) + 1
                other = raw.clone()
                with pytest.raises(ValueError, match="illegal action"):
                    other.step(a)
                assert state_ops.equal(other.state, state), "a refused action changed the state"
        prev = state_ops.clone(state)
        a = moves.pop(0) if moves else int(rng.choice(np.flatnonzero(mask)))
        actions[0] = a
        env.step(a)
        turn += 1
        s = raw.state
        term[0] = env.terminations[agent]
        trunc[0] = env.truncations[agent]
        rewards[0] = [env.rewards[x] for x in agents]
        next_mask = env.observe(env.agent_selection)["action_mask"].reshape(1, -1).astype(bool)
        player_out = s.player.astype(np.int64)
        e, d = C.check_step(
            0, prev, s, actions, next_mask, rewards, term, trunc, player_out, params, tab, trk, counts, False
        )
        assert e == C.OK, (
            f"turn {turn}, action {a} ({rules.action_to_str(prev, a)}) by {agent}: "
            f"{C.MESSAGES[e]} [detail {d}]\nbefore:\n{describe(rules, prev)}\n"
            f"after:\n{describe(rules, s)}"
        )
        # fights in the infos
        for x in agents if not (term[0] or trunc[0]) else []:
            chance = env.infos[x].get("chance")
            if s.fight[0, 0] < 0:
                assert chance is None, f"{x}: chance info {chance} without a fight"
            else:
                f = s.fight[0]
                want = {
                    "attacker": agents[f[0]],
                    "defender": agents[f[1]],
                    "rolls": [int(f[2]), int(f[3])],
                    "result": ["attacker wins", "defender wins", "both go home"][f[4]],
                }
                assert chance == {"fight": want}, f"{x}: {chance} != {want}"
        if term[0] or trunc[0]:
            break
        assert not any(env.terminations.values()) and not any(env.truncations.values())
    # the end: flags for everyone, no legal action, rewards and infos
    assert all(env.terminations.values()) == bool(term[0])
    assert all(env.truncations.values()) == bool(trunc[0])
    assert raw.legal_actions() == []
    assert all(rules.illegal_reason(raw.state, a) for a in range(rules.num_actions))
    S = rules.S
    loc, val = raw.state.coin_loc[0], raw.state.coin_value[0]
    scores = [int(val[loc == S + C.BANKED + q].sum()) for q in range(num_players)]
    hunters, monster = sum(scores[1:]), scores[0]
    sign = (hunters > monster) - (hunters < monster)
    assert [env.rewards[x] for x in agents] == [float(-sign)] + [float(sign)] * (num_players - 1)
    winners = [] if sign == 0 else (list(agents[1:]) if sign > 0 else ["monster"])
    top = [x for x, sc in zip(agents[1:], scores[1:]) if sc == max(scores[1:])]
    for q, x in enumerate(agents):
        info = env.infos[x]
        assert info["score"] == scores[q]
        assert info["scores"] == dict(zip(agents, scores))
        assert info["winners"] == winners
        assert info["hunters_total"] == hunters and info["monster_total"] == monster
        assert info["top_hunter"] == top
        assert info["turns"] == int(raw.state.turns[0])
    stats = C.named_counts(counts)
    stats.update(refused)
    stats["turns"] = turn
    return stats


AEC_GAMES = 3


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_aec_playouts(variant):
    num_players, options = VARIANTS[variant]
    ended = fights = 0
    reasons = set()
    for g in range(AEC_GAMES):
        stats = play_aec_checked(num_players, options, seed=1000 * num_players + g)
        ended += stats["terminated"] + stats["truncated"]
        fights += stats["fights"]
        reasons |= {k for k in stats if k.startswith("refused")}
    assert ended == AEC_GAMES
    assert fights > 0
    assert len(reasons) == 3, reasons  # off the map, another's suit tile, visited


def ending_moves(num_players, options, count, seed, max_turns=None):
    """``count`` (position, action) pairs where random vector play ended a game
    (terminated; truncated too with ``max_turns``)."""
    opts = {**options, **({"max_turns": max_turns} if max_turns else {})}
    venv = azure_env.VectorEnv(num_envs=512, seed=seed, num_players=num_players, **opts)
    venv.reset()
    found = []
    with numba_threads(1):
        while len(found) < count:
            prev = state_ops.clone(venv.state)
            actions = venv.random_actions()
            _, _, _, term, trunc, _ = venv.step(actions)
            ended = term | trunc if max_turns else term
            for i in np.flatnonzero(ended):
                found.append((state_ops.select(prev, i), int(actions[i])))
    return found[:count]


@pytest.mark.parametrize("variant", ["2p", "4p-ring", "3p-random-roles"])
def test_aec_endings(variant):
    """Positions where random vector play banked the last coin (or hit the
    turn limit), replayed in the AEC env: the same move ends the game there,
    with the team rewards and the infos."""
    num_players, options = VARIANTS[variant]
    for k, (position, action) in enumerate(ending_moves(num_players, options, 4, seed=5)):
        stats = play_aec_checked(num_players, options, seed=k, start=position, moves=[action])
        assert stats["terminated"] == 1 and stats["turns"] == 1
    for k, (position, action) in enumerate(ending_moves(num_players, options, 4, seed=6, max_turns=20)):
        stats = play_aec_checked(
            num_players, {**options, "max_turns": 20}, seed=k, start=position, moves=[action]
        )
        assert stats["terminated"] + stats["truncated"] == 1 and stats["turns"] == 1


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(SLOW_VARIANTS))
def test_aec_playouts_many(variant):
    num_players, options = SLOW_VARIANTS[variant]
    for g in range(40):
        play_aec_checked(num_players, options, seed=50_000 + 1000 * num_players + g)
