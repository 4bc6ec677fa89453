"""The numba rules against the plain-Python reference (:mod:`.reference`).

On positions reached by random play (vector env, fixed seeds) and on random
synthetic boards (random tiles, random pieces in random slots), check that

(a) the legal actions of the mask, read through the notation, are exactly the
    reference's legal (from, to, final facing) outcomes, one action each, and
    pass is legal exactly when there is none;
(b) playing each legal action (on a copy) leaves the tiles and pieces the
    reference predicts, and hands the turn to the next player;
(c) ``rules.illegal_reason`` is None exactly for the masked actions.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import azgames
from azacru_env.board import COMPASS, parse_field
from azacru_env.rules import AzacruRules
from azgames.core import state as state_ops
from azgames.core.game import ONGOING, TERMINATED, unpack_status

from . import reference as ref

# --------------------------------------------------------------------------- positions


def playout_states(num_players: int, num_envs: int, seed: int, snapshots: list[int]):
    """Positions of ``num_envs`` random games after each number of steps in ``snapshots``."""
    venv = azgames.make_vec("azacru", num_envs=num_envs, seed=seed, num_players=num_players)
    states = []
    for t in range(1, max(snapshots) + 1):
        venv.step(venv.random_actions())
        if t in snapshots:
            states.extend(venv.game(i) for i in range(num_envs))
    return states


def synthetic_state(rules: AzacruRules, rng: np.random.Generator):
    """A random position: random tiles (the mover's colour common, to make
    power and connections), random pieces of every player in random slots."""
    n, k = rules.num_players, rules.pieces
    mover = int(rng.integers(n))
    state = rules.initial_state(np.zeros(1, np.uint64))
    weights = np.full(n + 1, 0.0)
    weights[0] = rng.uniform(0.2, 0.6)  # neutral
    weights[mover + 1] = rng.uniform(0.2, 0.7)
    for p in range(n):
        if p != mover:
            weights[p + 1] = rng.uniform(0.0, 0.3)
    weights /= weights.sum()
    state.tiles[0] = rng.choice(np.arange(-1, n), size=81, p=weights)
    state.occupant[0] = -1
    state.piece_field[0] = -1
    state.piece_facing[0] = 0
    counts = [int(rng.integers(0, k + 1)) for _ in range(n)]
    if rng.random() < 0.8:
        counts[mover] = max(counts[mover], 1)
    fields = rng.choice(81, size=sum(counts), replace=False)
    i = 0
    for p in range(n):
        for slot in rng.choice(k, size=counts[p], replace=False):
            f = int(fields[i])
            i += 1
            state.piece_field[0, p, slot] = f
            state.piece_facing[0, p, slot] = int(rng.integers(8))
            state.occupant[0, f] = p * 4 + slot
    state.player[0] = mover
    # now and then the final round has begun, with 1 to n-1 turns left
    state.turns_left[0] = int(rng.integers(1, n)) if rng.random() < 0.3 else -1
    state.ply[0] = 0
    state.outcome[0] = ONGOING
    return state


# --------------------------------------------------------------------------- comparing


def board_of(state) -> tuple[list[int], list[tuple[int, int, int]]]:
    """Tiles and pieces ``(player, field, facing)`` of game 0, checking that the
    occupant map agrees with the pieces."""
    tiles = [int(t) for t in state.tiles[0]]
    pieces = []
    occupant = np.full(81, -1)
    players, slots = state.piece_field.shape[1:]
    for p in range(players):
        for k in range(slots):
            f = int(state.piece_field[0, p, k])
            if f >= 0:
                assert occupant[f] == -1, f"two pieces on field {f}"
                occupant[f] = p * 4 + k
                pieces.append((p, f, int(state.piece_facing[0, p, k])))
    assert np.array_equal(occupant, state.occupant[0]), "occupant map disagrees with the pieces"
    return tiles, pieces


def decode(rules: AzacruRules, state, action: int) -> tuple[int, int, int]:
    """``(from, to, facing)`` of an action, through the documented notation."""
    text = rules.action_to_str(state, action)
    move, facing = text.split(":")
    src, dst = move.split("-")
    return parse_field(src), parse_field(dst), COMPASS.index(facing)


def check_position(rules: AzacruRules, state, stats: Counter) -> None:
    n, pass_action = rules.num_players, rules.pass_action
    obs = np.empty(rules.observation_shape(0), np.int8)
    mask = np.empty(rules.num_actions, np.int8)
    outcome, _, actor = unpack_status(rules.observe(state, -1, obs, mask))
    assert outcome == ONGOING
    player = int(state.player[0])
    assert actor == player
    tiles, pieces = board_of(state)
    expected = ref.legal_outcomes(tiles, pieces, player)
    where = f"player {player + 1} to move in\n{rules.render_ansi(state)}"

    # (a) the mask is exactly the reference's moves, one action each
    moves = [a for a in np.flatnonzero(mask).tolist() if a != pass_action]
    decoded = {a: decode(rules, state, a) for a in moves}
    assert len(set(decoded.values())) == len(moves), f"two actions for one move: {where}"
    assert set(decoded.values()) == set(expected), (
        f"kernel-only {sorted(set(decoded.values()) - set(expected))}, "
        f"reference-only {sorted(set(expected) - set(decoded.values()))}: {where}"
    )
    assert bool(mask[pass_action]) == (not expected), f"pass mask wrong: {where}"

    # (c) illegal_reason is None exactly for the masked actions
    for a in range(rules.num_actions):
        why = rules.illegal_reason(state, a)
        assert (why is None) == bool(mask[a]), f"action {a} mask {mask[a]} reason {why!r}: {where}"
        if why is not None:
            assert isinstance(why, str) and why

    # (b) each legal action leads where the reference says
    rewards = np.zeros(n, np.float32)
    mask2 = np.empty_like(mask)
    for a in np.flatnonzero(mask).tolist():
        after = state_ops.clone(state)
        code = rules.step(after, a, obs, mask2, rewards)
        new_tiles, new_pieces = board_of(after)
        if a == pass_action:
            assert (new_tiles, sorted(new_pieces)) == (tiles, sorted(pieces))
            stats["pass"] += 1
        else:
            move = decoded[a]
            out = expected[move]
            assert new_tiles == list(out.tiles), f"tiles after {rules.action_to_str(state, a)}: {where}"
            assert set(new_pieces) == ref.pieces_after(pieces, player, move, out), (
                f"pieces after {rules.action_to_str(state, a)}: {where}"
            )
            start, dest, final = move
            stats["moves"] += 1
            stats["removed"] += out.removed
            stats["long"] += max(abs(dest % 9 - start % 9), abs(dest // 9 - start // 9)) >= 2
            changed = sum(x != y for x, y in zip(tiles, out.tiles))
            stats["connection change"] += changed > 1
            stats["connection change kept"] += changed > 1 and not out.removed
            stats["twist"] += final != ref.STEPS.index(
                (int(np.sign(dest % 9 - start % 9)), int(np.sign(dest // 9 - start // 9)))
            )
        assert int(after.ply[0]) == int(state.ply[0]) + 1
        left = ref.turns_left_after(int(state.turns_left[0]), a == pass_action, n)
        outcome, _, _ = unpack_status(code)
        if left == 0:
            assert outcome == TERMINATED, f"game should end after {a}: {where}"
            assert rewards.tolist() == pytest.approx(ref.rewards(new_tiles, n), abs=1e-6), where
            stats["ended"] += 1
        else:
            assert outcome == ONGOING, f"game should go on after {a}: {where}"
            assert int(after.turns_left[0]) == left, f"turns left after {a}: {where}"
            assert int(after.player[0]) == (player + 1) % n, f"turn after {a}: {where}"
    stats["positions"] += 1
    stats["jump positions"] += any(
        not o.removed
        and max(abs(m[1] % 9 - m[0] % 9), abs(m[1] // 9 - m[0] // 9)) >= 2
        and any(f in {pf for _, pf, _ in pieces} for f in _between(m[0], m[1]))
        for m, o in expected.items()
    )


def _between(a: int, b: int) -> list[int]:
    dx, dy = b % 9 - a % 9, b // 9 - a // 9
    n = max(abs(dx), abs(dy))
    return [a + k * (dy // n) * 9 + k * (dx // n) for k in range(1, n)]


def run_checks(
    num_players: int, playout_envs: int, snapshots: list[int], synthetic: int, seed: int
) -> Counter:
    rules = AzacruRules(num_players)
    stats: Counter = Counter()
    for state in playout_states(num_players, playout_envs, seed, snapshots):
        check_position(rules, state, stats)
    rng = np.random.default_rng(seed)
    for _ in range(synthetic):
        check_position(rules, synthetic_state(rules, rng), stats)
    return stats


def assert_coverage(stats: Counter) -> None:
    """The sample really exercised every kind of move (so (a)-(c) were not vacuous)."""
    for kind in (
        "moves",
        "pass",
        "removed",
        "long",
        "connection change",
        "connection change kept",
        "twist",
        "jump positions",
        "ended",
    ):
        assert stats[kind] > 0, f"no {kind} in the sample: {dict(stats)}"


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_kernel_matches_reference(num_players):
    stats = run_checks(
        num_players,
        playout_envs=32,
        snapshots=[2, 10, 40, 100, 250, 500],
        synthetic=600,
        seed=100 + num_players,
    )
    assert stats["positions"] == 32 * 6 + 600
    assert_coverage(stats)


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_kernel_matches_reference_many(num_players):
    stats = run_checks(
        num_players,
        playout_envs=128,
        snapshots=[1, 3, 7, 20, 60, 150, 300, 600, 900],
        synthetic=5000,
        seed=1000 + num_players,
    )
    assert_coverage(stats)
