"""The co-op kernels against the plain-Python reference (:mod:`.reference`).

Random positions at the round's fourth turn (random stacks, castaways on top
rafts of their colour or on the island or home, random winds and hands,
beaches on each colour's side, a random first colour and round, last round's
mermaid or turtle still in force) are put into the AEC env with
``set_state``. Then, for each one:

(a) the acting colour's mask, read through the notation, is exactly the
    reference's legal set (the base game's less castaway actions while
    asleep, plus the turtle's swims), and ``illegal_reason`` is None exactly
    for the masked actions (every action on some positions);
(b) one of its actions (a random kind, then a random action of that kind;
    a winning one where a castaway can complete the team) is played with
    ``step_outcome(action, (face,))`` for every face of the die, and the
    state, rewards, flags, next agent and the die's info must be the
    reference's: the round's end, the roll and its face (mermaid, waves,
    gust, turtle), the team's win (no roll) or loss after the last round;
(c) with ``wave_order="choose"``, every ordering of the waves the mask
    offers is played (all of them while there are few, else a random
    sample) and each must give the reference's result for that order
    (the choices first, then the candidates the env moved by itself); the
    outcomes of all orders the mask offers must be exactly the outcomes of
    all orders of the candidates (every order the book allows can be made,
    and no other result);
(d) after the roll, the new round's first colour's mask is the reference's
    (sleeping castaways cannot act, the turtle's swims are offered), and
    every turtle swim offered gives the reference's position.

The cases the sample met are counted, and each kind (chains, skips,
castaway collisions, both edges, gusts, sleeping castaways, turtle swims,
wins, losses) must have occurred.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from azgames.core import state as state_ops
from azimuth_env.board import COLOUR_NAMES, parse_point
from azimuth_env.coop import env as coop_env
from azimuth_env.coop.rules import CoopRules
from tests.azimuth import reference as base_ref

from . import reference as ref

CONFIGS = {
    "4p-choose": (4, {"wave_order": "choose"}),
    "2p-choose": (2, {"wave_order": "choose", "rounds": 6}),
    "4p-front-first": (4, {"wave_order": "front_first"}),
    "3p-back-first": (3, {"wave_order": "back_first", "rounds": 3}),
}
#: How many orderings of one roll's waves are played at most, all of them below.
ORDER_BUDGET = 150


# =========================================================================== the reference itself


def sea(**points) -> list[list[int]]:
    stacks = [[] for _ in range(36)]
    for name, colours in points.items():
        stacks[parse_point(name)] = ["RKYB".index(c) for c in colours]
    return stacks


def test_reference_examples():
    """The reference on cases worked out by hand from the rules text."""
    p = parse_point
    home, island = ref.AT_HOME, ref.ON_ISLAND
    Y, R, K, B = ref.BLONDIE, ref.RED, ref.BLACK, ref.BLUE
    # The book's example: blondie rolls a wave towards her lighthouse (north).
    # The raft on the closest row stays; the middle stack moves, carried by
    # her raft; the raft carrying her castaway on top of a red raft stays.
    stacks = sea(e6="Y", c4="YKR", b3="RY")
    cast = [island, island, p("b3"), island]
    s, c = ref.waves(stacks, cast, Y, ref.WAVE_TOWARDS, "front_first")
    assert s == sea(e6="Y", c5="YKR", b3="RY") and c == cast
    # Away from her lighthouse (south): on the bottom row, rafts stay.
    s, _ = ref.waves(sea(a1="Y", a2="K"), cast, Y, ref.WAVE_AWAY, "front_first")
    assert s == sea(a1="Y", a2="K")
    # A chain: front first they advance one each; back first they pile up and move on.
    s, _ = ref.waves(sea(c1="R", c2="R"), [island] * 4, R, ref.WAVE_AWAY, "front_first")
    assert s == sea(c2="R", c3="R")
    s, _ = ref.waves(sea(c1="R", c2="R"), [island] * 4, R, ref.WAVE_AWAY, "back_first")
    assert s == sea(c3="RR")
    # An explicit order, by the candidates' points at the roll.
    s, _ = ref.waves(sea(c1="R", c2="R"), [island] * 4, R, ref.WAVE_AWAY, [p("c1"), p("c2")])
    assert s == sea(c3="RR")
    # A stack with a castaway does not move onto a castaway (red's on c2 blocks black's on c1,
    # whose raft is a red one under a black one); one without slides in beneath the castaway.
    cast = [p("c2"), p("c1"), island, island]
    s, c = ref.waves(sea(c1="RK", c2="BR"), cast, R, ref.WAVE_AWAY, [p("c1")])
    assert s == sea(c1="RK", c2="BR") and c == cast
    cast = [p("c2"), island, island, island]
    s, c = ref.waves(sea(c1="RK", c2="BR"), cast, R, ref.WAVE_AWAY, [p("c1")])
    assert s == sea(c2="BRKR") and c == cast
    # Back first, the raft sliding in beneath a lone candidate carrying a castaway
    # makes it skip its move: the castaway stays. Front first, the castaway moves on.
    cast = [p("c2"), island, island, island]
    s, c = ref.waves(sea(c1="R", c2="R"), cast, R, ref.WAVE_AWAY, "back_first")
    assert s == sea(c2="RR") and c == cast
    s, c = ref.waves(sea(c1="R", c2="R"), cast, R, ref.WAVE_AWAY, "front_first")
    assert s == sea(c2="R", c3="R") and c[R] == p("c3")
    # Back first, the candidate on c3 carries c2's (moved onto it) on to c4.
    s, _ = ref.waves(sea(c2="R", c3="RK"), [island] * 4, R, ref.WAVE_AWAY, "back_first")
    assert s == sea(c4="RKR")
    # Black's waves go east / west, and leave rafts above the bottom alone.
    s, _ = ref.waves(sea(a1="K", b2="RK", f3="K"), [island] * 4, K, ref.WAVE_AWAY, "front_first")
    assert s == sea(b1="K", b2="RK", f3="K")
    s, _ = ref.waves(sea(a1="K", f3="K"), [island] * 4, K, ref.WAVE_TOWARDS, "front_first")
    assert s == sea(a1="K", e3="K")
    # Mermaid: red's portion is rows 1-3; the island and home are not in the ocean.
    assert ref.mermaid([p("f3"), p("a4"), island, home], R) == [1, 0, 0, 0]
    assert ref.mermaid([p("f3"), p("a4"), p("c6"), p("c1")], B) == [1, 0, 0, 0]
    # Gust by blondie (north): her winds on marks rows 4-5, red's on rows 1-2.
    winds = {20: (Y, Y, 0), 10: (Y, Y, 1), 0: (R, R, 2), 15: (R, R, 3), 5: (K, K, 1)}
    assert ref.gust(winds, Y) == {20: (Y, Y, 2), 10: (Y, Y, 1), 0: (R, R, 0), 15: (R, R, 3), 5: (K, K, 1)}
    # Gust by black (west): his on mark columns a-b, blue's on d-e.
    winds = {0: (K, K, 0), 2: (K, K, 0), 3: (B, B, 1), 1: (B, B, 1), 4: (R, R, 0)}
    assert ref.gust(winds, K) == {0: (K, K, 2), 2: (K, K, 0), 3: (B, B, 3), 1: (B, B, 1), 4: (R, R, 0)}
    # Rollers: the first colour, then clockwise.
    assert [ref.roller(2, r) for r in range(1, 6)] == [2, 3, 0, 1, 2]


def test_reference_portions_match_the_layout_data():
    """The portions and sides are data in the layout; the reference writes them out."""
    layout = CoopRules(4).layout
    for c in range(4):
        points = layout.portion_points[c].astype(bool).tolist()
        marks = layout.portion_marks[c].astype(bool).tolist()
        assert [ref.point_in_portion(c, p) for p in range(36)] == points
        assert [ref.mark_in_portion(c, m) for m in range(25)] == marks
        assert int(layout.default_side[c]) == ref.SIDE[c]
        for b in range(len(layout.beach_side)):
            if (int(layout.beach_players[b]) >> c) & 1:
                assert int(layout.beach_side[b]) == ref.SIDE[c]


# =========================================================================== random positions


def random_beaches(layout, rng) -> list[int]:
    beaches = [-1] * 4
    for c in rng.permutation(4).tolist():
        free = [b for b in range(len(layout.beach_side)) if base_ref.beach_allowed(layout, beaches, c, b)]
        beaches[c] = int(rng.choice(free))
    return beaches


def random_position(rules: CoopRules, rng) -> ref.CoopPosition:
    """A position at the fourth turn of a round (see the module docstring).
    Half the time the roller's rafts are lined up along its waves' axis, so
    that chains, collisions and edges are common."""
    layout = rules.layout
    rounds = rules.rounds
    beaches = random_beaches(layout, rng)
    first = int(rng.integers(4))
    round_ = rounds if rng.random() < 0.06 else int(rng.integers(1, rounds)) if rounds > 1 else 1
    player = (first + 3) % 4
    who = ref.roller(first, round_)
    stacks: list[list[int]] = [[] for _ in range(36)]
    left = [6] * 4
    lane: set[int] = set()
    if rng.random() < 0.6:
        # up to 5 rafts of the roller's colour in a row along its waves' axis
        d = ref.SIDE[who]
        start = int(rng.integers(36))
        pt = start
        for _ in range(int(rng.integers(2, 6))):
            if pt is None:
                break
            if rng.random() < 0.85:
                stacks[pt].append(who)
                left[who] -= 1
                lane.add(pt)
            pt = ref.step(pt, d)
    hot = [int(x) for x in rng.choice(36, size=int(rng.integers(5, 26)), replace=False)]
    hot += sorted(lane)
    for c in rng.permutation(4).tolist():
        for _ in range(left[c]):
            pt = hot[int(rng.integers(len(hot)))] if rng.random() < 0.9 else int(rng.integers(36))
            s = stacks[pt]
            lowest = 1 if (pt in lane and rng.random() < 0.8) else 0
            s.insert(int(rng.integers(min(lowest, len(s)), len(s) + 1)), c)
    castaways = [ref.ON_ISLAND] * 4
    taken: set[int] = set()
    near_win = rng.random() < 0.08
    for q in rng.permutation(4).tolist():
        free = [pt for pt in range(36) if base_ref.top(stacks[pt]) == q and pt not in taken]
        if near_win and q != player:
            castaways[q] = ref.AT_HOME
        elif near_win:
            # the last castaway out on one of its landing spots
            spot = int(rng.choice(sorted(base_ref.landing_spots(layout, beaches[q]))))
            if base_ref.top(stacks[spot]) != q:
                donors = [pt for pt in range(36) if q in stacks[pt] and pt != spot]
                stacks[int(rng.choice(donors))].remove(q)
                stacks[spot].append(q)
            castaways[q] = spot
            taken.add(spot)
        elif free and rng.random() < 0.8:
            castaways[q] = int(rng.choice(free))
            taken.add(castaways[q])
        else:
            castaways[q] = ref.AT_HOME if rng.random() < 0.3 else ref.ON_ISLAND
    if all(c == ref.AT_HOME for c in castaways):
        castaways[player] = ref.ON_ISLAND
    # a castaway can only stand where its colour is on top: the removals above keep that
    for q, c in enumerate(castaways):
        assert not 0 <= c < 36 or base_ref.top(stacks[c]) == q
    winds: dict[int, tuple[int, int, int]] = {}
    free_marks = [m for m in range(25) if m != layout.island]
    rng.shuffle(free_marks)
    hands = []
    for c in range(4):
        k = int(rng.integers(0, 5)) if rng.random() < 0.7 else 4
        for _ in range(k):
            winds[free_marks.pop()] = (c, c, int(rng.integers(4)))
        hands.append([4 - k, 0])
    face, asleep, turtle = -1, [0] * 4, -1
    if round_ > 1:
        face = int(rng.integers(6))
        if face == ref.MERMAID:
            asleep = [int(0 <= c < 36 and rng.random() < 0.6) for c in castaways]
        elif face == ref.TURTLE and rng.random() < 0.8:
            turtle = ref.roller(first, round_ - 1)
    pos = base_ref.Position(stacks, winds, hands, [0] * 4, castaways, beaches, player)
    return ref.CoopPosition(pos, first, round_, 3, face, asleep, turtle)


def make_state(rules: CoopRules, cp: ref.CoopPosition, rng):
    state = rules.blank_state(1)
    ref.write_coop_position(cp, state, rules.controller)
    state.ply[0] = 4 + 4 * (cp.round - 1) + cp.turn + int(rng.integers(0, 3))
    state.rng[0] = int(rng.integers(1, 2**63))
    return state


# =========================================================================== checks


def decoded_mask(rules, state, mask) -> dict[tuple, int]:
    out = {}
    for a in np.flatnonzero(mask).tolist():
        act = ref.parse_action(rules.action_to_str(state, a), rules)
        assert act not in out, f"actions {out[act]} and {a} are both {act}"
        out[act] = a
    return out


def check_mask(env, cp: ref.CoopPosition, rng, stats: Counter, every_action: bool) -> dict:
    """(a): the mask is the reference's legal set, and illegal_reason agrees."""
    raw = env.unwrapped
    rules = raw.rules
    state = raw.state
    mask = env.observe(env.agent_selection)["action_mask"]
    got = decoded_mask(rules, state, mask)
    want = ref.legal_actions(cp, rules.layout)
    assert set(got) == want, (
        f"kernel only {sorted(set(got) - want)}, reference only "
        f"{sorted(want - set(got))}\n{describe(rules, state, cp)}"
    )
    stats["masks checked"] += 1
    stats.update(f"legal {kind}" for kind in {a[0] for a in want})
    if cp.asleep[cp.pos.player] and cp.pos.castaways[cp.pos.player] < 36:
        stats["mask of a sleeping castaway's colour"] += 1
    if every_action:
        probe = range(rules.num_actions)
    else:
        others = np.flatnonzero(mask == 0)
        probe = list(got.values()) + rng.choice(others, size=min(10, len(others)), replace=False).tolist()
    for a in probe:
        why = rules.illegal_reason(state, int(a))
        assert (why is None) == bool(mask[a]), (
            f"action {a} ({rules.action_to_str(state, int(a))}): mask {mask[a]}, reason {why!r}\n"
            f"{describe(rules, state, cp)}"
        )
        if why is not None:
            stats[f"reason: {why}"] += 1
    return got


def describe(rules, state, cp=None) -> str:
    text = (
        f"{rules.render_ansi(state)}\nfirst {int(state.first[0])} round {int(state.round[0])} "
        f"turn {int(state.turn[0])} colour {int(state.colour[0])} face {int(state.face[0])} "
        f"asleep {state.asleep[0].tolist()} turtle {int(state.turtle[0])} wave "
        f"{int(state.wave[0])} pending {np.flatnonzero(state.pending[0]).tolist()}"
    )
    if cp is not None:
        text += f"\nreference position {cp}"
    return text


def check_after(env, before_state, want: ref.Result, where: str):
    """The env after one step (or a whole wave order) is the reference's ``want``."""
    raw = env.unwrapped
    rules = raw.rules
    s = raw.state
    agents = env.possible_agents
    got = ref.coop_position_of(s)
    exp = want.after
    for field in ("stacks", "winds", "hands", "castaways", "beaches"):
        assert getattr(got.pos, field) == getattr(exp.pos, field), (
            f"{field} differ {where}\nkernel    {getattr(got.pos, field)}\n"
            f"reference {getattr(exp.pos, field)}\nafter:\n{describe(rules, s)}"
        )
    assert int(s.wave[0]) == -1 and not s.pending[0].any(), f"waves still pending {where}"
    if want.over is None:
        for field in ("first", "round", "turn", "face", "asleep", "turtle"):
            assert getattr(got, field) == getattr(exp, field), (
                f"{field}: kernel {getattr(got, field)}, reference {getattr(exp, field)} {where}\n"
                f"{describe(rules, s)}"
            )
        assert got.pos.player == exp.pos.player, f"colour to act {where}"
        assert env.agent_selection == agents[int(rules.controller[exp.pos.player])], where
        assert not any(env.terminations.values()) and not any(env.truncations.values()), where
        assert all(r == 0.0 for r in env.rewards.values()), f"rewards {env.rewards} {where}"
        assert int(s.outcome[0]) == 0
    else:
        assert all(env.terminations.values()) and not any(env.truncations.values()), where
        assert [env.rewards[a] for a in agents] == [want.rewards] * len(agents), (
            f"rewards {env.rewards}, want {want.rewards} {where}"
        )
        won = want.over == "won"
        for a in agents:
            info = env.infos[a]
            assert info["winners"] == (list(agents) if won else []), where
            assert info["score"] == sum(c == ref.AT_HOME for c in exp.pos.castaways), where
            assert "chance" not in info, f"a die was rolled at the end {where}"
        assert int(s.round[0]) == exp.round, where
    assert int(s.ply[0]) > int(before_state.ply[0]), where


def explore_orders(env, state, chosen, leaves, rng, budget):
    """Play every order of the waves the mask offers from ``state`` (a
    wave sub-phase), or a random sample once ``budget[0]`` runs out.
    ``leaves`` gets ``(chosen points, state, agent, rewards)`` for each."""
    raw = env.unwrapped
    rules = raw.rules
    raw.set_state(state)
    if state.wave[0] < 0:
        leaves.append((tuple(chosen), state, env.agent_selection, dict(env.rewards)))
        return
    mask = env.observe(env.agent_selection)["action_mask"].copy()
    actions = np.flatnonzero(mask).tolist()
    assert actions, "a wave sub-phase with nothing to choose"
    if budget[0] <= 0:
        actions = [actions[int(rng.integers(len(actions)))]]
        budget[1] = True  # the exploration is a sample
    budget[0] -= len(actions) - 1
    for a in actions:
        raw.set_state(state)
        text = rules.action_to_str(state, a)
        assert text.startswith("wave "), text
        env.step(a)
        s = state_ops.clone(raw.state)
        if s.wave[0] >= 0:
            assert s.rolled[0] == -1 and s.round[0] == state.round[0] and s.turn[0] == 4
        explore_orders(env, s, chosen + [parse_point(text.split()[1])], leaves, rng, budget)


def check_wave_phase(env, pre: ref.CoopPosition, face: int, stats: Counter, rng, where: str):
    """The state right after the roll of waves that the team must order."""
    raw = env.unwrapped
    rules = raw.rules
    s = raw.state
    who = ref.roller(pre.first, pre.round)
    assert int(s.wave[0]) == ref.wave_direction(who, face), where
    assert int(s.colour[0]) == who, f"the roller orders the waves {where}"
    assert env.agent_selection == env.possible_agents[int(rules.controller[who])], where
    assert int(s.round[0]) == pre.round and int(s.turn[0]) == 4 and int(s.face[0]) == face, where
    cands = set(ref.candidates(pre.pos.stacks, who))
    pending = set(np.flatnonzero(s.pending[0]).tolist())
    assert pending and pending <= cands, f"pending {pending} not among the candidates {cands} {where}"
    for pt in pending:  # not moved yet: still at the bottom of the same point
        assert int(s.height[0, pt]) > 0 and int(s.stack[0, pt, 0]) == who, where
    mask = env.observe(env.agent_selection)["action_mask"]
    offered = {parse_point(rules.action_to_str(s, a).split()[1]) for a in np.flatnonzero(mask)}
    assert offered == pending, f"mask offers {offered}, pending {pending} {where}"
    # every action on the first sub-phases, then the wave actions and a sample of the others
    probe = range(rules.num_actions)
    if stats["wave sub-phases"] >= 20:
        probe = (
            list(range(rules.actions.wave, rules.num_actions))
            + rng.choice(rules.actions.wave, size=12, replace=False).tolist()
        )
    for a in probe:
        why = rules.illegal_reason(s, a)
        assert (why is None) == bool(mask[a]), f"action {a}: mask {mask[a]}, reason {why!r} {where}"
    info = env.infos[env.agent_selection]["chance"]["die"]
    assert info == {"face": ref.FACE_NAMES[face], "roller": COLOUR_NAMES[who]}, where
    stats["wave sub-phases"] += 1


def pick_action(cp, legal: dict, rules, rng, stats) -> int:
    """A random kind of action, then a random one of it; a winning one if any (mostly)."""
    if cp.pos.castaways.count(ref.AT_HOME) == 3 and rng.random() < 0.8:
        wins = [act for act in legal if ref.play(cp, act, rules.layout, rules.rounds, 0).over == "won"]
        if wins:
            return legal[wins[int(rng.integers(len(wins)))]]
    kinds = sorted({act[0] for act in legal})
    kind = kinds[int(rng.integers(len(kinds)))]
    acts = [act for act in legal if act[0] == kind]
    stats[f"played {kind}"] += 1
    return legal[acts[int(rng.integers(len(acts)))]]


def run_reference_checks(config: str, positions: int, seed: int, exhaustive: int = 60) -> Counter:
    num_players, options = CONFIGS[config]
    env = coop_env(num_players=num_players, **options)
    env.reset(seed=seed)
    raw = env.unwrapped
    rules = raw.rules
    layout = rules.layout
    order_mode = options["wave_order"]
    rng = np.random.default_rng(seed)
    stats: Counter = Counter()
    agents = env.possible_agents
    for k in range(positions):
        cp = random_position(rules, rng)
        start = make_state(rules, cp, rng)
        raw.set_state(start)
        assert env.agent_selection == agents[int(rules.controller[cp.pos.player])]
        legal = check_mask(env, cp, rng, stats, every_action=k % 25 == 0)
        a = pick_action(cp, legal, rules, rng, stats)
        act = ref.parse_action(rules.action_to_str(start, a), rules)
        where0 = f"position {k} of {config}, action {rules.action_to_str(start, a)} by colour {cp.pos.player}"
        ending = ref.play(cp, act, layout, rules.rounds, face=ref.SUNNY)
        if ending.over is not None:
            # no roll: the team won, or the last round is over
            assert env.chance_outcomes(a) == [], where0
            raw.set_state(start)
            env.step(a)
            check_after(env, start, ending, where0)
            stats[f"game {ending.over}"] += 1
            continue
        assert [o.draws for o in env.chance_outcomes(a, merge=False)] == [(f,) for f in range(6)]
        # the position just before the roll: the reference's, with the turn played
        pre_roll = cp._replace(pos=ref.play_action(cp, act, layout)[0], turn=4)
        for face in range(6):
            where = f"{where0}, face {ref.FACE_NAMES[face]}"
            raw.set_state(start)
            env.step_outcome(a, (face,))
            stats[f"face {ref.FACE_NAMES[face]}"] += 1
            if face in (ref.WAVE_AWAY, ref.WAVE_TOWARDS):
                run_wave_checks(
                    env,
                    start,
                    a,
                    pre_roll,
                    face,
                    order_mode,
                    stats,
                    rng,
                    where,
                    exhaustive=stats["exhaustive wave checks"] < exhaustive,
                )
                continue
            want = ref.play(cp, act, layout, rules.rounds, face=face)
            check_after(env, start, want, where)
            info = env.infos[env.agent_selection]["chance"]["die"]
            assert info == {
                "face": ref.FACE_NAMES[face],
                "roller": COLOUR_NAMES[ref.roller(cp.first, cp.round)],
            }, where
            count_face_effects(pre_roll, want.after, face, stats)
            # (d) the next round's first colour
            check_new_round(env, want.after, rng, stats, where, every_action=k % 25 == 0)
    return stats


def run_wave_checks(env, start, a, pre_roll, face, order_mode, stats, rng, where, exhaustive):
    raw = env.unwrapped
    who = ref.roller(pre_roll.first, pre_roll.round)
    stacks, castaways = pre_roll.pos.stacks, pre_roll.pos.castaways
    cands = ref.candidates(stacks, who)

    def expected(order, events=None):
        s, c = ref.waves(stacks, castaways, who, face, order, events)
        pos = pre_roll.pos._replace(stacks=s, castaways=c, player=pre_roll.first)
        after = ref.CoopPosition(pos, pre_roll.first, pre_roll.round + 1, 0, face, [0] * 4, -1)
        return ref.Result(after, None, face, 0.0)

    if order_mode != "choose":
        events: list[str] = []
        want = expected(order_mode, events)
        assert raw.state.wave[0] == -1, f"a wave sub-phase with wave_order={order_mode} {where}"
        check_after(env, start, want, where)
        stats.update(set(events))
        stats["wave rolls"] += 1
        return
    if raw.state.wave[0] < 0:
        leaves = [((), state_ops.clone(raw.state), env.agent_selection, dict(env.rewards))]
        complete = True
    else:
        check_wave_phase(env, pre_roll, face, stats, rng, where)
        leaves = []
        budget = [ORDER_BUDGET, False]
        explore_orders(env, state_ops.clone(raw.state), [], leaves, rng, budget)
        complete = not budget[1]
        stats["orderings played"] += len(leaves)
    seen = set()
    for chosen, state, agent, rewards in leaves:
        # the choices first, then every candidate the env moved (or skipped) by itself: by
        # the rules, a candidate whose neighbours along the wave are not (or no longer)
        # candidates yet to move commutes with every later move, and one skipped stays
        # skipped, so they may all come last
        order = list(chosen) + [pt for pt in cands if pt not in chosen]
        events: list[str] = []
        want = expected(order, events)
        raw.set_state(state)
        check_after(env, start, want, f"{where}, wave order chosen {list(chosen)}")
        stats.update(set(events))
        stats["wave rolls"] += 1
        got = ref.coop_position_of(state)
        seen.add(ref.freeze(got.pos.stacks, got.pos.castaways))
    if complete and exhaustive:
        outcomes = ref.all_wave_outcomes(stacks, castaways, who, face)
        assert seen == set(outcomes), (
            f"the mask's orders give {len(seen)} outcome(s), the candidates' orders "
            f"{len(outcomes)}; missing orders e.g. "
            f"{[v[0] for k, v in outcomes.items() if k not in seen][:3]} {where}"
        )
        stats["exhaustive wave checks"] += 1
        if len(outcomes) > 1:
            stats["waves whose order matters"] += 1
        if len(leaves) > 1 and len(outcomes) == 1:
            stats["orders offered that did not matter"] += 1


def count_face_effects(before: ref.CoopPosition, after: ref.CoopPosition, face, stats):
    if face == ref.MERMAID:
        for q in range(4):
            here = before.pos.castaways[q]
            if after.asleep[q]:
                stats["mermaid: castaway asleep"] += 1
            elif 0 <= here < 36:
                stats["mermaid: castaway outside the portion awake"] += 1
    if face == ref.GUST:
        who = ref.roller(before.first, before.round)
        for m, (c, _, d) in before.pos.winds.items():
            turned = after.pos.winds[m][2] != d
            stats[
                f"gust: {'roller' if c == who else 'opposite' if c == ref.opposite(who) else 'other'}"
                f" wind {'turned' if turned else 'kept'}"
            ] += 1
    if face == ref.TURTLE:
        stats["turtle offered"] += 1


def check_new_round(env, cp: ref.CoopPosition, rng, stats, where, every_action):
    """(d) The first colour's mask after the roll, and its turtle swims."""
    raw = env.unwrapped
    rules = raw.rules
    start = state_ops.clone(raw.state)
    legal = check_mask(env, cp, rng, stats, every_action)
    for act, a in legal.items():
        if act[0] != "turtle":
            continue
        raw.set_state(start)
        env.step(a)
        want = ref.play(cp, act, rules.layout, rules.rounds)
        check_after(env, start, want, f"{where}, then {rules.action_to_str(start, a)}")
        assert raw.state.turtle[0] == -1
        stats["turtle swims"] += 1
    raw.set_state(start)


COMMON_EVENTS = [
    "chain",
    "castaway blocked by castaway",
    "slid under a castaway",
    "stacked on top",
    "onto open sea",
    "carried a castaway",
    "carried a stack",
    "edge: towards, stays",
    "edge: away, stays",
    "edge with a castaway",
    "carries another candidate",
    "roller raft above the bottom stays",
    "no candidate",
    "mermaid: castaway asleep",
    "mermaid: castaway outside the portion awake",
    "gust: roller wind turned",
    "gust: roller wind kept",
    "gust: opposite wind turned",
    "gust: opposite wind kept",
    "gust: other wind kept",
    "turtle offered",
    "turtle swims",
    "legal turtle",
    "mask of a sleeping castaway's colour",
    "game won",
    "game lost",
    "reason: the mermaid sang your castaway to sleep: no castaway action this round",
    "reason: no sea turtle is on offer this round (or it was used)",
]
EVENTS = {
    "4p-choose": COMMON_EVENTS
    + ["skipped: no longer at the bottom", "wave sub-phases", "waves whose order matters"],
    "2p-choose": COMMON_EVENTS + ["skipped: no longer at the bottom", "wave sub-phases"],
    # front first, nothing lands on a candidate yet to move, so none is carried or skipped
    "4p-front-first": [e for e in COMMON_EVENTS if e != "carries another candidate"],
    "3p-back-first": COMMON_EVENTS + ["skipped: no longer at the bottom"],
}


@pytest.mark.parametrize("config", list(CONFIGS))
def test_die_matches_reference(config):
    stats = run_reference_checks(config, positions=300, seed=sum(map(ord, config)))
    print(f"\n{config}: {dict(sorted(stats.items()))}")
    missing = [e for e in EVENTS[config] if stats[e] == 0]
    assert not missing, f"the sample never met {missing}: {dict(stats)}"


@pytest.mark.slow
@pytest.mark.parametrize("config", list(CONFIGS))
def test_die_matches_reference_many(config):
    stats = run_reference_checks(config, positions=8000, seed=7 + sum(map(ord, config)), exhaustive=2000)
    missing = [e for e in EVENTS[config] if stats[e] == 0]
    assert not missing, f"the sample never met {missing}: {dict(stats)}"


def test_die_matches_reference_smoke():
    """A few positions (quick enough to run as plain Python with NUMBA_DISABLE_JIT=1)."""
    for config in ("4p-choose", "3p-back-first"):
        stats = run_reference_checks(config, positions=8, seed=3, exhaustive=4)
        assert stats["masks checked"] >= 8
