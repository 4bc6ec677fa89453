"""The numba rules against the plain-Python reference (:mod:`.reference`).

Positions come from random play in a vector env (snapshots after various
numbers of steps, and the positions just before random play banked the last
coin), plus copies of some of them changed in ways the rules allow: the turn
limit one turn away, coins lying about given to the actor, every other coin
banked (so the actor's next banking ends the game), another piece put next to
the actor (so that it can attack). For each position, every variant:

(a) the mask of the acting player (``rules.observe``, the AEC path, and
    ``rules.vec_observe``, the vector path) is exactly the reference's legal
    set, and ``rules.illegal_reason`` is None exactly for the legal actions;
(b) every legal action is played through the AEC env (``env.step`` on a
    clone, after ``set_state``); a fight is played with forced dice
    (``rules.force_draws``): one roll where the attacker is higher, one where
    the defender is, one tie. The result must be the reference's step: the
    pieces, the coins, who acts, the squares visited this turn, the turn
    order counters, the turns, the rewards, terminated/truncated, the fight
    record and the ``chance`` info;
(c) a fighting step's ``chance_outcomes`` are the reference's results and
    probabilities.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import azure_env
from azgames.core import state as state_ops
from azgames.core.game import ONGOING, TERMINATED, TRUNCATED
from tests.azimuth.helpers import numba_threads

from . import reference as ref

CONFIGS = {
    "2p": (2, {}),
    "3p": (3, {}),
    "4p": (4, {}),
    "4p-long": (4, {"map": "long"}),
    "4p-ring": (4, {"map": "ring"}),
    "3p-random-roles": (3, {"roles": "random"}),
    "2p-ring": (2, {"map": "ring"}),
    "4p-literal": (4, {"suit_tiles": "literal"}),
    "3p-ring-literal-random-roles": (3, {"map": "ring", "suit_tiles": "literal", "roles": "random"}),
}

RESULT_CODES = {ref.ATTACKER_WINS: 0, ref.DEFENDER_WINS: 1, ref.BOTH_HOME: 2}


# =========================================================================== positions


def playout_positions(num_players, options, num_envs, seed, snapshots, endings):
    """One-game states from random vector play: every game after each number of
    steps in ``snapshots``, and up to ``endings`` positions just before a game
    was won by banking its last coin."""
    venv = azure_env.VectorEnv(num_envs=num_envs, seed=seed, num_players=num_players, **options)
    venv.reset()
    out, last = [], []
    with numba_threads(1):
        for t in range(1, max(snapshots) + 1):
            prev = state_ops.clone(venv.state) if len(last) < endings else None
            term = venv.step(venv.random_actions())[3]
            if prev is not None:
                last += [state_ops.select(prev, i) for i in np.flatnonzero(term)]
            if t in snapshots:
                out += [state_ops.select(venv.state, i) for i in range(num_envs)]
    return out, last[:endings]


def free_neighbours(board, pos, square):
    """Map squares next to ``square`` with no piece and no coin."""
    out = []
    for d in range(4):
        t = ref.neighbour(board, square, d)
        if t is not None and board.kind[t] == "map" and t not in pos.pos and ("square", t) not in pos.coins:
            out.append(t)
    return out


def altered(rules, board, one, rng):
    """A copy of ``one`` changed in a way the rules allow (or None): turn limit
    next, coins given to the actor, all other coins banked, or a piece moved
    next to the actor."""
    S = rules.S
    pos = ref.position_of(one, rules.layout)
    p = pos.player
    s = state_ops.clone(one)
    kind = int(rng.integers(4))
    if kind == 0:
        s.turns[0] = rules.max_turns - 1
    elif kind == 1:  # coins lying about now carried by the actor, within its allowance
        lying = [k for k, c in enumerate(pos.coins) if c[0] == "square"]
        if not lying:
            return None
        give = rng.choice(lying, size=min(len(lying), int(rng.integers(1, 4))), replace=False)
        if len(pos.visited) - 1 >= ref.allowance(p, ref.carried_by(pos, p) + len(give)):
            return None
        s.coin_loc[0, give] = S + 0 + p
    elif kind == 2:  # everything not carried by the actor banked by somebody
        if ref.carried_by(pos, p) == 0:
            lying = [k for k, c in enumerate(pos.coins) if c[0] == "square"]
            if not lying or len(pos.visited) - 1 >= ref.allowance(p, 1):
                return None
            s.coin_loc[0, lying[0]] = S + 0 + p
        for k in range(len(pos.coins)):
            if s.coin_loc[0, k] != S + 0 + p:
                s.coin_loc[0, k] = S + 4 + int(rng.integers(rules.num_players))
    else:  # another piece next to the actor, on a square it has not visited
        spots = [t for t in free_neighbours(board, pos, pos.pos[p]) if t not in pos.visited]
        if not spots:
            return None
        q = int(rng.choice([q for q in range(rules.num_players) if q != p]))
        s.pos[0, q] = int(rng.choice(spots))
    return s


def positions_for(num_players, options, num_envs, snapshots, endings, extra, seed):
    rules = azure_env.AzureRules(num_players, **options)
    board = ref.board_of(rules.layout, rules.options["suit_tiles"])
    rng = np.random.default_rng(seed)
    played, last = playout_positions(num_players, options, num_envs, seed, snapshots, endings)
    changed = []
    while len(changed) < extra:
        s = altered(rules, board, played[int(rng.integers(len(played)))], rng)
        if s is not None:
            changed.append(s)
    return played + last + changed


# =========================================================================== checks


def describe(rules, one) -> str:
    fields = ", ".join(
        f"{name} {np.asarray(v[0]).tolist()}" for name, v in zip(one._fields, one) if name != "rng"
    )
    return f"{rules.diagram(one)}\n{fields}"


def dice_for(rng, attacker, defender):
    """Three rolls: the attacker higher, the defender higher, a tie."""
    a = int(rng.integers(1, 6))
    d = int(rng.integers(0, a))
    t = int(rng.integers(6))
    return [(a, d), (d, a), (t, t)]


def check_position(env, board, one, rng, stats: Counter) -> None:
    raw = env.unwrapped
    rules = raw.rules
    pos = ref.position_of(one, rules.layout)
    where = lambda: describe(rules, one)  # noqa: E731

    # (a) masks and reasons
    obs = np.empty(rules.observation_shape(0), np.int8)
    mask = np.empty(rules.num_actions, np.int8)
    rules.observe(one, -1, obs, mask)
    vobs = np.empty((1, *rules.observation_shape(0)), np.int8)
    vmask = np.empty((1, rules.num_actions), np.int8)
    vplayer = np.empty(1, np.int64)
    rules.vec_observe(one, vobs, vmask, vplayer)
    assert np.array_equal(mask, vmask[0]) and vplayer[0] == pos.player, (
        f"AEC and vector masks differ: {where()}"
    )
    got = set(np.flatnonzero(mask).tolist())
    want = ref.legal_actions(board, pos)
    assert got == want, f"kernel legal {sorted(got)}, reference {sorted(want)}: {where()}"
    for a in range(rules.num_actions):
        why = rules.illegal_reason(one, a)
        assert (why is None) == (a in want), f"action {a}: illegal_reason {why!r}: {where()}"
        if why is not None:
            stats[f"refused: {ref.why_illegal(board, pos, a)}"] += 1
    stats["positions"] += 1

    # (b) every legal action through the AEC env; (c) chance outcomes
    raw.set_state(one)
    for a in sorted(want):
        fights = ref.is_fight(board, pos, a)
        if fights:
            defender = pos.pos.index(ref.neighbour(board, pos.pos[pos.player], a))
            rolls = dice_for(rng, pos.player, defender)
            outcomes = {o.label: o.probability for o in rules.chance_outcomes(one, a)}
            want_out = ref.chance_outcomes(board, pos, a)
            assert outcomes.keys() == want_out.keys() and all(
                abs(outcomes[k] - want_out[k]) < 1e-12 for k in want_out
            ), (outcomes, want_out)
            assert len(rules.chance_outcomes(one, a, merge=False)) == 36
        else:
            rolls = [None]
            assert rules.chance_outcomes(one, a) == []
        for dice in rolls:
            check_step(env, board, one, pos, a, dice, stats)


def check_step(env, board, one, pos, a, dice, stats: Counter) -> None:
    raw = env.unwrapped
    rules = raw.rules
    agents = raw.possible_agents
    c = raw.clone()
    if dice is not None:
        c.rules.force_draws(c.state, dice)
    actor = c.agent_selection
    c.step(a)
    want = ref.step(board, pos, a, rules.max_turns, dice)
    s = c.state
    got = ref.position_of(s, rules.layout)

    def what():
        return (
            f"{rules.action_to_str(one, a)} by {agents[pos.player]}"
            f"{f' with dice {dice}' if dice else ''}:\n{describe(rules, one)}\n"
            f"after:\n{describe(rules, s)}"
        )

    for field in ref.Position._fields:
        assert getattr(got, field) == getattr(want.position, field), (
            f"{field} after {what()}\nkernel    {getattr(got, field)}\n"
            f"reference {getattr(want.position, field)}"
        )
    assert (s.trail[0, len(got.visited) :] == -1).all(), f"trail not cleared after {what()}"
    assert (s.forced[0] == -1).all(), f"forced dice left over after {what()}"
    assert s.rng[0] == one.rng[0], f"forced dice drew from the generator: {what()}"
    assert [c.rewards[x] for x in agents] == want.rewards, (
        f"rewards {c.rewards} != {want.rewards} after {what()}"
    )
    outcome = {"ongoing": ONGOING, "terminated": TERMINATED, "truncated": TRUNCATED}[want.outcome]
    assert int(s.outcome[0]) == outcome, f"outcome {int(s.outcome[0])} != {want.outcome} after {what()}"
    assert c.terminations[actor] == (want.outcome == "terminated"), what()
    assert c.truncations[actor] == (want.outcome == "truncated"), what()
    if want.outcome == "ongoing":
        assert c.agent_selection == agents[want.position.player], f"next agent after {what()}"
    else:
        scores = [
            sum(v for v, place in zip(got.values, got.coins) if place == ("banked", q))
            for q in range(rules.num_players)
        ]
        for q, x in enumerate(agents):
            assert c.infos[x]["score"] == scores[q], what()
            assert c.infos[x]["scores"] == dict(zip(agents, scores)), what()
    # the fight record and its report
    if want.fight is None:
        assert s.fight[0, 0] == -1, f"a fight recorded after {what()}"
        assert all("chance" not in c.infos[x] for x in c.agents), what()
    else:
        att, dfn, ra, rd, result = want.fight
        assert s.fight[0].tolist() == [att, dfn, ra, rd, RESULT_CODES[result]], (
            f"fight {s.fight[0].tolist()} after {what()}"
        )
        report = {
            "fight": {"attacker": agents[att], "defender": agents[dfn], "rolls": [ra, rd], "result": result}
        }
        for x in c.agents:
            assert c.infos[x].get("chance") == report, f"{x}: {c.infos[x].get('chance')} after {what()}"
    # what the sample met
    stats["steps"] += 1
    if a == ref.STOP:
        stats["step stop"] += 1
    elif want.fight is not None:
        att, dfn = want.fight[:2]
        stats[f"fight {'monster' if att == 0 else 'hunter'} v {'monster' if dfn == 0 else 'hunter'}"] += 1
        stats[f"fight: {want.fight[4]}"] += 1
        if want.extra_turn:
            stats["monster extra turn"] += 1
        if any(place == ("carried", q) for place in pos.coins for q in (att, dfn)):
            stats["fight with gold"] += 1
    else:
        stats["step move"] += 1
        before = ref.carried_by(pos, pos.player)
        now = ref.carried_by(want.position, pos.player)
        if now > before:
            stats["step pickup"] += 1
            if want.turn_over and len(pos.visited) < ref.allowance(pos.player, before):
                stats["pickup ended the turn"] += 1
        if any(place == ("banked", pos.player) for place in want.position.coins) and sum(
            place == ("banked", pos.player) for place in want.position.coins
        ) > sum(place == ("banked", pos.player) for place in pos.coins):
            stats["step bank"] += 1
        elif want.turn_over:
            stats["allowance used up"] += 1
    stats[want.outcome] += 1
    if want.outcome == "ongoing" and want.turn_over:
        stats["monster next" if want.position.player == 0 else "hunter next"] += 1


def run_position_checks(num_players, options, num_envs, snapshots, endings, extra, seed) -> Counter:
    env = azure_env.env(num_players=num_players, **options)
    env.reset(seed=0)
    board = ref.board_of(env.unwrapped.rules.layout, env.unwrapped.rules.options["suit_tiles"])
    rng = np.random.default_rng(seed)
    stats: Counter = Counter()
    for one in positions_for(num_players, options, num_envs, snapshots, endings, extra, seed):
        check_position(env, board, one, rng, stats)
    return stats


def assert_coverage(stats: Counter, num_players: int) -> None:
    kinds = [
        "step stop",
        "step move",
        "step pickup",
        "step bank",
        "pickup ended the turn",
        "allowance used up",
        "fight monster v hunter",
        "fight hunter v monster",
        "fight: attacker wins",
        "fight: defender wins",
        "fight with gold",
        "monster extra turn",
        "terminated",
        "truncated",
        "monster next",
        "hunter next",
        "refused: off the map",
        "refused: visited this turn",
        "refused: another player's suit tile",
    ]
    if num_players > 2:
        kinds += ["fight hunter v hunter", "fight: both go home"]
    missing = [k for k in kinds if stats[k] == 0]
    assert not missing, f"the sample never met {missing}: {dict(stats)}"


@pytest.mark.parametrize("config", list(CONFIGS))
def test_masks_and_steps_match_reference(config):
    num_players, options = CONFIGS[config]
    stats = run_position_checks(
        num_players,
        options,
        num_envs=128,
        snapshots=[1, 2, 5, 12, 30, 80, 200, 400, 700, 1000],
        endings=24,
        extra=600,
        seed=100 + num_players,
    )
    print(f"\n{config}: {dict(stats)}")
    assert stats["positions"] >= 128 * 10 + 600
    assert_coverage(stats, num_players)


@pytest.mark.slow
@pytest.mark.parametrize("config", list(CONFIGS))
def test_masks_and_steps_match_reference_many(config):
    num_players, options = CONFIGS[config]
    stats = run_position_checks(
        num_players,
        options,
        num_envs=512,
        snapshots=[1, 2, 3, 5, 8, 13, 21, 40, 80, 150, 300, 500, 800, 1200],
        endings=200,
        extra=4000,
        seed=900 + num_players,
    )
    assert_coverage(stats, num_players)
