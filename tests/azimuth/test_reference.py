"""The numba rules against the plain-Python reference (:mod:`.reference`).

(1) Wind resolution: ``azimuth_env.kernels.sail`` against ``reference.sail``
    on random positions (stacks of mixed colours piled near the wind, castaways
    on random top rafts of their colour, random beaches, random wind mark,
    colour and direction; a third of the cases set up a castaway on a landing
    spot with the wind blowing towards its beach), with 2, 3 and 4 players.

(2) Legal actions and their effect, on random synthetic positions and on
    positions reached by random play, for each configuration:
    (a) the mask of the acting player (``rules.observe``, the AEC path, and
        ``rules.vec_observe``, the vector path, which must agree), read
        through the notation, is exactly the reference's legal set;
    (b) ``rules.illegal_reason`` is None exactly for the masked actions (all
        actions on every few positions; the masked ones and a sample of the
        others elsewhere);
    (c) on some positions every legal action (a sample of them during wind
        placement) is played with ``rules.step`` on a copy and must give the
        reference's position, rewards, outcome and next player.
"""

from __future__ import annotations

import inspect
from collections import Counter

import numpy as np
import pytest

import azimuth_env
from azgames.core import state as state_ops
from azgames.core.game import ONGOING, TERMINATED, TRUNCATED, unpack_status
from azimuth_env import board as B
from azimuth_env import kernels as K
from azimuth_env.rules import AzimuthRules

from . import reference as ref
from .helpers import numba_threads

CONFIGS = [
    (2, {}),
    (3, {}),
    (4, {}),
    (4, {"island": True}),
    (2, {"coconuts": True}),
    (3, {"coconuts": False}),
]
CONFIG_IDS = ["2p", "3p", "4p", "4p-island", "2p-coconuts", "3p-no-coconuts"]


# =========================================================================== (1) sailing


def kernel_sail(rules: AzimuthRules):
    """``call(state, i, mark, colour, direction) -> landed`` (bit set) running
    ``kernels.sail`` on game ``i`` in place.

    The kernel's board-data arguments are being reworked, so they are matched
    by name: state fields, then the layout, the configuration, one of its
    fields or a table of :mod:`azimuth_env.board`."""
    fn = getattr(K.sail, "py_func", K.sail)
    fields = set(azimuth_env.AzimuthState._fields)
    plan = []
    for name in inspect.signature(fn).parameters:
        if name in fields:
            plan.append(("state", name))
        elif name in ("i", "m", "mark", "colour", "color", "d", "direction"):
            plan.append(("arg", {"mark": "m", "color": "colour", "direction": "d"}.get(name, name)))
        elif name == "layout":
            plan.append(("const", rules.layout))
        elif name in ("cfg", "config"):
            plan.append(("const", rules.cfg))
        elif name in getattr(rules.cfg, "_fields", ()):
            plan.append(("const", getattr(rules.cfg, name)))
        elif name in rules.layout._fields:
            plan.append(("const", getattr(rules.layout, name)))
        elif hasattr(B, name.upper()):
            plan.append(("const", getattr(B, name.upper())))
        else:
            raise AssertionError(f"kernels.sail takes {name!r}: teach kernel_sail where to find it")

    def call(state, i, m, colour, d):
        given = {"i": i, "m": m, "colour": colour, "d": d}
        args = [
            getattr(state, v) if kind == "state" else given[v] if kind == "arg" else v for kind, v in plan
        ]
        return int(K.sail(*args))

    return call


def random_beaches(layout, n: int, rng, unplaced: float) -> list[int]:
    """Beach positions in placement order (last seat first), each in its zone
    and sharing no landing spot; a player is left without one with
    probability ``unplaced``."""
    beaches = [-1] * n
    for p in range(n - 1, -1, -1):
        if rng.random() < unplaced:
            continue
        free = [b for b in range(len(layout.beach_side)) if ref.beach_allowed(layout, beaches, p, b)]
        if free:
            beaches[p] = int(rng.choice(free))
    return beaches


def near_points(m: int, reach: int) -> list[int]:
    """Points within ``reach`` legs (in x and y) of mark ``m``'s square."""
    x, y = m % 5, m // 5
    return [
        py * 6 + px
        for py in range(max(0, y - reach), min(6, y + 2 + reach))
        for px in range(max(0, x - reach), min(6, x + 2 + reach))
    ]


def random_sail_case(rules: AzimuthRules, rng):
    """``(stacks, castaways, beaches, mark, colour, direction)``."""
    layout, n = rules.layout, rules.num_players
    per_colour = int(layout.rafts_per_colour)
    beaches = random_beaches(layout, n, rng, unplaced=0.15)
    colour = int(rng.integers(n))
    landing = rng.random() < 1 / 3 and beaches[colour] >= 0
    if landing:
        # the castaway of the wind's colour on a landing spot, blown towards its beach
        b = beaches[colour]
        spot = int(rng.choice(sorted(ref.landing_spots(layout, b))))
        d = int(layout.beach_side[b])
        if rng.random() < 0.2:
            d = int(rng.integers(4))  # or not quite
        m = int(rng.choice([m for m in range(25) if spot in ref.corners(m)]))
    else:
        m, d = int(rng.integers(25)), int(rng.integers(4))
    stacks: list[list[int]] = [[] for _ in range(36)]
    hot = near_points(m, int(rng.integers(0, 3)))
    for c in range(n):
        for _ in range(int(rng.integers(0, per_colour + 1)) if rng.random() < 0.5 else per_colour):
            pt = int(rng.choice(hot)) if rng.random() < 0.8 else int(rng.integers(36))
            stacks[pt].insert(int(rng.integers(len(stacks[pt]) + 1)), c)
    castaways = [ref.NOT_PLACED] * n
    taken: set[int] = set()
    if landing:
        if ref.top(stacks[spot]) != colour:
            donors = [pt for pt in range(36) if pt != spot and colour in stacks[pt]]
            if donors:
                stacks[int(rng.choice(donors))].remove(colour)
            stacks[spot].append(colour)
        castaways[colour] = spot
        taken.add(spot)
    for q in range(n):
        if landing and q == colour:
            continue
        free = [pt for pt in range(36) if ref.top(stacks[pt]) == q and pt not in taken]
        if free and rng.random() < 0.8:
            castaways[q] = int(rng.choice(free))
            taken.add(castaways[q])
        else:
            castaways[q] = int(rng.choice([ref.ON_ISLAND, ref.AT_HOME, ref.NOT_PLACED]))
    return stacks, castaways, beaches, m, colour, d


def run_sail_checks(num_players: int, cases: int, seed: int, batch: int = 512) -> Counter:
    rules = AzimuthRules(num_players)
    call = kernel_sail(rules)
    rng = np.random.default_rng(seed)
    stats: Counter = Counter()
    done = 0
    while done < cases:
        size = min(batch, cases - done)
        state = rules.initial_state(np.zeros(size, np.uint64))
        todo = []
        for i in range(size):
            stacks, castaways, beaches, m, colour, d = random_sail_case(rules, rng)
            pos = ref.position_of(state, i)._replace(stacks=stacks, castaways=castaways, beaches=beaches)
            ref.write_position(pos, state, i)
            todo.append((stacks, castaways, beaches, m, colour, d))
        for i, (stacks, castaways, beaches, m, colour, d) in enumerate(todo):
            events: list[str] = []
            want_stacks, want_castaways, want_landed = ref.sail(
                stacks, castaways, beaches, rules.layout, m, colour, d, events=events
            )
            landed = call(state, i, m, colour, d)
            got = ref.position_of(state, i)

            def where():
                return (
                    f"{num_players} players, wind {B.COLOUR_LETTERS[colour]} on "
                    f"{B.mark_name(m)} blowing {B.DIRECTIONS[d]}\nstacks {_show(stacks)}\n"
                    f"castaways {castaways} beaches {beaches}"
                )

            assert got.stacks == want_stacks, (
                f"stacks differ: kernel {_show(got.stacks)}, reference {_show(want_stacks)}: {where()}"
            )
            assert got.castaways == want_castaways, (
                f"castaways: kernel {got.castaways}, reference {want_castaways}: {where()}"
            )
            assert landed == want_landed, f"landed: kernel {landed}, reference {want_landed}: {where()}"
            above = state.stack[i][np.arange(state.stack.shape[2])[None, :] >= state.height[i][:, None]]
            assert (above == -1).all(), f"stack entries above the height are not -1: {where()}"
            stats.update(set(events))
            stats["cases"] += 1
        done += size
    return stats


def _show(stacks) -> str:
    return (
        "{"
        + ", ".join(
            f"{B.point_name(p)}: {''.join(B.COLOUR_LETTERS[c] for c in s)}" for p, s in enumerate(stacks) if s
        )
        + "}"
    )


SAIL_EVENTS = (
    "whole stack",
    "upper part of a stack",
    "landed",
    "off the board",
    "castaway off the board",
    "castaway blocked by castaway",
    "slid under a castaway",
    "stacked on top",
    "onto open sea",
    "carried a castaway",
    "onto a point of the same wind",
)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_sail_matches_reference(num_players):
    stats = run_sail_checks(num_players, cases=2500, seed=10 + num_players)
    assert stats["cases"] == 2500
    missing = [e for e in SAIL_EVENTS if stats[e] == 0]
    assert not missing, f"the sample never met {missing}: {dict(stats)}"


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_sail_matches_reference_many(num_players):
    stats = run_sail_checks(num_players, cases=100_000, seed=1000 + num_players, batch=4096)
    assert all(stats[e] > 0 for e in SAIL_EVENTS), dict(stats)


def test_reference_sail_examples():
    """The reference itself on the rule book's cases (so it is not merely self-consistent)."""
    layout = B.load_layout(2)
    p = B.parse_point
    empty = [[] for _ in range(36)]

    def sea(**stacks):
        s = [list(x) for x in empty]
        for name, colours in stacks.items():
            s[p(name)] = ["RKYB".index(c) for c in colours]
        return s

    # Two red rafts at c2 and d3 under a red wind on c2 blowing east: both sail one leg.
    stacks, cast, landed = ref.sail(
        sea(c2="R", d3="R"), [ref.ON_ISLAND] * 2, [0, 3], layout, B.parse_mark("c2"), 0, 1
    )
    assert stacks == sea(d2="R", e3="R") and landed == 0
    # Only the top-most raft of the colour moves, with everything above it.
    stacks, _, _ = ref.sail(sea(c2="RKRK"), [ref.ON_ISLAND] * 2, [0, 3], layout, B.parse_mark("c2"), 0, 0)
    assert stacks == sea(c2="RK", c3="RK")
    # Simultaneous: c2 blown north onto c3, whose own red raft sails on to c4.
    stacks, _, _ = ref.sail(
        sea(c2="R", c3="R"), [ref.ON_ISLAND] * 2, [0, 3], layout, B.parse_mark("c2"), 0, 0
    )
    assert stacks == sea(c3="R", c4="R")
    # Arriving under a castaway; a castaway may not sail onto another.
    stacks, cast, _ = ref.sail(
        sea(c2="KR", c3="K"), [p("c2"), p("c3")], [0, 3], layout, B.parse_mark("c2"), 0, 0
    )
    assert stacks == sea(c2="KR", c3="K") and cast == [p("c2"), p("c3")]
    stacks, cast, _ = ref.sail(
        sea(c2="R", c3="K"), [ref.ON_ISLAND, p("c3")], [0, 3], layout, B.parse_mark("c2"), 0, 0
    )
    assert stacks == sea(c3="RK") and cast == [ref.ON_ISLAND, p("c3")]
    # Landing: red on a1 (beach a1-b1, south), red wind on a1 blowing south.
    stacks, cast, landed = ref.sail(
        sea(a1="R"), [p("a1"), ref.ON_ISLAND], [0, 3], layout, B.parse_mark("a1"), 0, 2
    )
    assert stacks == sea(a1="R") and cast[0] == ref.AT_HOME and landed == 1
    # A black wind under red's castaway lands it too (the book's "last push to shore").
    stacks, cast, landed = ref.sail(
        sea(b1="KR"), [p("b1"), ref.ON_ISLAND], [0, 3], layout, B.parse_mark("a1"), 1, 2
    )
    assert stacks == sea(b1="KR") and cast[0] == ref.AT_HOME and landed == 1
    # Not from a point that is not a landing spot.
    _, cast, landed = ref.sail(
        sea(c1="R"), [p("c1"), ref.ON_ISLAND], [0, 3], layout, B.parse_mark("b1"), 0, 2
    )
    assert cast[0] == p("c1") and landed == 0


# =========================================================================== (2) legal actions


def random_position(rules: AzimuthRules, rng) -> ref.Position:
    """A random position of ``rules``' configuration, as the rules allow it:
    the right number of rafts of each colour, castaways on top rafts of their
    colour (or on the island, or not yet placed before their beach in the
    4-player game), winds on free marks, hands, coconuts."""
    layout, n = rules.layout, rules.num_players
    has_island = layout.island >= 0
    fifth = bool((layout.beach_raft >= 0).any())
    while True:
        mover = int(rng.integers(n))
        setup = rng.random() < 0.12
        if setup:  # seats after the mover have placed their beaches
            beaches = [-1] * n
            for q in range(n - 1, mover, -1):
                free = [b for b in range(len(layout.beach_side)) if ref.beach_allowed(layout, beaches, q, b)]
                beaches[q] = int(rng.choice(free))
        else:
            beaches = random_beaches(layout, n, rng, unplaced=0.0)
        stacks: list[list[int]] = [[] for _ in range(36)]
        hot = [int(x) for x in rng.choice(36, size=int(rng.integers(3, 20)), replace=False)]
        for c in range(n):
            count = int(layout.rafts_per_colour) - (1 if fifth and beaches[c] < 0 else 0)
            for _ in range(count):
                pt = hot[int(rng.integers(len(hot)))]
                stacks[pt].insert(int(rng.integers(len(stacks[pt]) + 1)), c)
        landing = None
        if not setup and rng.random() < 0.35:
            # a castaway on one of its landing spots (mostly the mover's), to make wins
            q = mover if rng.random() < 0.7 else int(rng.integers(n))
            spot = int(rng.choice(sorted(ref.landing_spots(layout, beaches[q]))))
            if ref.top(stacks[spot]) != q:
                donors = [pt for pt in range(36) if q in stacks[pt]]  # the spot itself too
                stacks[int(rng.choice(donors))].remove(q)
                stacks[spot].append(q)
            landing = q, spot
        castaways = [ref.NOT_PLACED] * n
        taken: set[int] = set()
        ok = True
        for q in rng.permutation(n).tolist():
            if beaches[q] < 0 and not layout.start_on_island:
                continue  # adrift, but not yet placed
            if landing and landing[0] == q:
                castaways[q] = landing[1]
                taken.add(landing[1])
                continue
            free = [pt for pt in range(36) if ref.top(stacks[pt]) == q and pt not in taken]
            if has_island and (not free or rng.random() < 0.25):
                castaways[q] = ref.ON_ISLAND
            elif free:
                shallow = [pt for pt in free if pt in ref.island_shallows(layout)]
                castaways[q] = int(rng.choice(shallow if shallow and rng.random() < 0.3 else free))
                taken.add(castaways[q])
            else:
                ok = False
        if ok:
            break
    winds: dict[int, tuple[int, int, int]] = {}
    hands = [[int(layout.winds_own), int(layout.winds_other)] for _ in range(n)]
    coconuts = [int(layout.coconuts)] * n
    if not setup:
        marks = [m for m in range(25) if m != layout.island]
        for m in rng.choice(marks, size=int(rng.integers(0, 17)), replace=False).tolist():
            owner = int(rng.integers(n))
            colour = owner if n > 2 or rng.random() < 0.75 else 1 - owner
            winds[m] = (colour, owner, int(rng.integers(4)))
        if landing and rng.random() < 0.6:  # a wind of the castaway's colour beside it
            q, spot = landing
            m = int(rng.choice([m for m in marks if spot in ref.corners(m)]))
            owner = q if n > 2 or rng.random() < 0.5 else 1 - q
            winds[m] = (q, owner, int(rng.integers(4)))
        for q in range(n):
            if rng.random() < 0.5:
                hands[q] = [0, 0]  # all placed: turning and moving
            else:
                hands[q] = [
                    int(rng.integers(0, layout.winds_own + 1)),
                    int(rng.integers(0, layout.winds_other + 1)),
                ]
            coconuts[q] = int(rng.integers(0, layout.coconuts + 1)) if rng.random() < 0.6 else 0
    return ref.Position(stacks, winds, hands, coconuts, castaways, beaches, mover)


def playout_positions(num_players, options, num_envs, seed, snapshots):
    """Copies of a vector env's games after each number of random steps in ``snapshots``."""
    venv = azimuth_env.VectorEnv(num_envs=num_envs, seed=seed, num_players=num_players, **options)
    venv.reset()
    states = []
    with numba_threads(1):
        for t in range(1, max(snapshots) + 1):
            venv.step(venv.random_actions())
            if t in snapshots:
                states.append(state_ops.clone(venv.state))
    return states


def decoded_mask(rules, one, mask) -> dict[tuple, int]:
    """The masked actions as reference tuples (checking that no two coincide)."""
    out = {}
    for a in np.flatnonzero(mask).tolist():
        act = ref.parse_action(rules.action_to_str(one, a), rules)
        assert act not in out, f"actions {out[act]} and {a} are both {act}"
        out[act] = a
    return out


def check_position(
    rules: AzimuthRules, batch, i: int, vec_mask, rng, stats: Counter, full_reasons: bool, try_steps: bool
) -> None:
    n, layout = rules.num_players, rules.layout
    one = state_ops.select(batch, i)
    pos = ref.position_of(one)
    obs = np.empty(rules.observation_shape(0), np.int8)
    mask = np.empty(rules.num_actions, np.int8)
    outcome, _, actor = unpack_status(rules.observe(one, -1, obs, mask))
    assert outcome == ONGOING and actor == pos.player

    def where():
        return f"{rules.render_ansi(one)}\nposition {pos}"

    assert np.array_equal(mask.astype(bool), vec_mask[i].astype(bool)), (
        f"AEC and vector masks differ: {where()}"
    )

    # (a) the mask is the reference's legal set
    got = decoded_mask(rules, one, mask)
    want = ref.legal_actions(pos, layout, n)
    assert set(got) == want, (
        f"kernel only {sorted(set(got) - want)}, reference only {sorted(want - set(got))}: {where()}"
    )
    stats["positions"] += 1
    stats.update(f"legal {a[0]}" for a in {a[:1] for a in want})

    # (b) illegal_reason accepts exactly the masked actions
    if full_reasons:
        probe = range(rules.num_actions)
        stats["positions, every action validated"] += 1
    else:
        masked_out = np.flatnonzero(mask == 0)
        probe = (
            list(got.values()) + rng.choice(masked_out, size=min(12, len(masked_out)), replace=False).tolist()
        )
    for a in probe:
        why = rules.illegal_reason(one, int(a))
        assert (why is None) == bool(mask[a]), (
            f"action {a} ({rules.action_to_str(one, int(a))}): mask {mask[a]}, "
            f"illegal_reason {why!r}: {where()}"
        )
        if why is not None:
            assert isinstance(why, str) and why
            stats[f"reason: {why}"] += 1

    # (c) playing each legal action gives the reference's position
    if not try_steps:
        return
    outcomes = {act: ref.play(pos, act, layout, n) for act in got}
    actions = [act for act in got if outcomes[act][1]]  # every win, and a sample of the rest
    rest = [act for act in got if not outcomes[act][1]]
    actions += [rest[k] for k in rng.choice(len(rest), size=min(24, len(rest)), replace=False)]
    rewards = np.zeros(n, np.float32)
    mask2 = np.empty_like(mask)
    for act in actions:
        a = got[act]
        after = state_ops.clone(one)
        code = rules.step(after, a, obs, mask2, rewards)
        want_pos, landed = outcomes[act]
        got_pos = ref.position_of(after)

        def what():
            return f"{rules.action_to_str(one, a)} by player {pos.player}: {where()}"

        for field in ("stacks", "winds", "hands", "coconuts", "castaways", "beaches"):
            assert getattr(got_pos, field) == getattr(want_pos, field), (
                f"{field} after {what()}\nkernel {getattr(got_pos, field)}\n"
                f"reference {getattr(want_pos, field)}"
            )
        assert rewards.tolist() == ref.rewards(landed, n), f"rewards {rewards} after {what()}"
        status, _, _ = unpack_status(code)
        assert int(after.ply[0]) == int(one.ply[0]) + 1
        if landed:
            assert status == TERMINATED and after.outcome[0] == TERMINATED, f"no win after {what()}"
            stats["steps won"] += 1
        elif int(after.ply[0]) >= rules.max_turns:
            assert status == TRUNCATED and after.outcome[0] == TRUNCATED, f"not truncated after {what()}"
            stats["steps truncated"] += 1
        else:
            assert status == ONGOING and after.outcome[0] == ONGOING, f"game ended after {what()}"
            assert int(after.player[0]) == want_pos.player, f"next player after {what()}"
        if act[0] == "turn" and got_pos.coconuts != pos.coconuts:
            stats["steps paid a coconut"] += 1
        stats["steps"] += 1
        stats[f"step {act[0]}"] += 1


def run_position_checks(
    num_players, options, synthetic, playout_envs, snapshots, seed, full_every=8, step_every=3
) -> Counter:
    rules = AzimuthRules(num_players, **options)
    rng = np.random.default_rng(seed)
    batches = playout_positions(num_players, options, playout_envs, seed, snapshots)
    if synthetic:
        batch = rules.initial_state(np.zeros(synthetic, np.uint64))
        for i in range(synthetic):
            ref.write_position(random_position(rules, rng), batch, i)
            if batch.beach[i, batch.player[i]] < 0:  # lighthouses: one placed per turn so far
                batch.ply[i] = int((batch.beach[i] >= 0).sum())
            else:
                batch.ply[i] = rules.max_turns - 1 if rng.random() < 0.1 else int(rng.integers(4, 300))
        batches.append(batch)
    stats: Counter = Counter()
    k = 0
    for batch in batches:
        size = len(batch.player)
        obs = np.zeros((size, *rules.observation_shape(0)), np.int8)
        mask = np.zeros((size, rules.num_actions), np.int8)
        player = np.zeros(size, np.int64)
        rules.vec_observe(batch, obs, mask, player)
        assert np.array_equal(player, batch.player)
        for i in range(size):
            check_position(
                rules,
                batch,
                i,
                mask,
                rng,
                stats,
                full_reasons=k % full_every == 0,
                try_steps=k % step_every == 0,
            )
            k += 1
    return stats


def assert_coverage(stats: Counter, num_players: int, options: dict) -> None:
    layout = AzimuthRules(num_players, **options).layout
    kinds = [
        "legal beach",
        "legal place",
        "legal turn",
        "legal move",
        "legal swim",
        "legal pass",
        "step beach",
        "step place",
        "step turn",
        "step move",
        "step swim",
        "steps won",
        "steps truncated",
        "reason: it would be head to head with a wind of the same colour",
        "reason: a raft stands on the point the diagonal move crosses",
        "reason: none of your rafts is next to that wind, so you do not control it",
        "reason: the lighthouses are being placed: place your beach first",
    ]
    if layout.island >= 0:
        kinds += ["legal board", "legal home", "step board", "step home"]
    if layout.coconuts:
        kinds += [
            "steps paid a coconut",
            "reason: turning another player's wind costs a coconut and you have none left",
        ]
    missing = [k for k in kinds if stats[k] == 0]
    assert not missing, f"the sample never met {missing}: {dict(stats)}"


@pytest.mark.parametrize("num_players,options", CONFIGS, ids=CONFIG_IDS)
def test_mask_and_steps_match_reference(num_players, options):
    stats = run_position_checks(
        num_players,
        options,
        synthetic=300,
        playout_envs=16,
        snapshots=[1, 2, 4, 8, 20, 60, 150, 350],
        seed=200 + num_players,
    )
    assert stats["positions"] == 300 + 16 * 8
    assert_coverage(stats, num_players, options)


@pytest.mark.slow
@pytest.mark.parametrize("num_players,options", CONFIGS, ids=CONFIG_IDS)
def test_mask_and_steps_match_reference_many(num_players, options):
    stats = run_position_checks(
        num_players,
        options,
        synthetic=8000,
        playout_envs=128,
        snapshots=[1, 2, 3, 4, 6, 10, 20, 40, 80, 150, 250, 399],
        seed=3000 + num_players,
        full_every=4,
        step_every=2,
    )
    assert_coverage(stats, num_players, options)


@pytest.mark.parametrize("num_players", [3, 4])
def test_random_lighthouses_mask_matches_reference(num_players):
    """Beaches placed at set-up (``lighthouses='random'``): side beaches, so turned views."""
    stats = run_position_checks(
        num_players,
        {"lighthouses": "random"},
        synthetic=0,
        playout_envs=32,
        snapshots=[1, 3, 10, 40, 120],
        seed=77,
    )
    assert stats["positions"] == 32 * 5
