"""Random playouts of Azimuth, checked after every step.

Vector env (:func:`test_vector_playouts`): thousands of games per variant,
random legal actions drawn in numba (``VectorEnv.random_actions``). After
every step a numba checker (:mod:`.check_kernels`) checks every game:

- each colour keeps its rafts (``rafts_per_colour``; with 4 players one
  fewer until its beach, and so its fifth raft, is placed); stack entries at
  or above a point's height are -1 and those below are colours;
- each castaway is on the island (only where there is one), not yet placed
  (4 players, before its beach), or on the top raft of its point, which is
  its colour; no two share a point; none is home while the game goes on;
- winds in hand are never negative, and winds in hand plus winds on the
  board are conserved per (owner, colour); winds sit off the island, with an
  owner of their colour (3-4 players);
- coconuts stay in ``[0, start]`` and only the actor pays one, one at a time;
- beaches are placed in reverse seat order and the actor is the next to place;
- rewards are 0 except on termination: +1 to one player, whose castaway stood
  on one of its landing spots, -1 to the others;
- ``ply`` counts the game's steps, the turn passes in seat order (reverse
  order while the lighthouses are placed), a game is truncated exactly at
  ``max_turns`` and none runs longer; a finished game restarts from a fresh set-up;
- the mask offers an action, and pass only alone.

Besides, in a few games per step (numpy-chosen), a sample of the masked
actions must be legal and a sample of the others illegal for
``rules.illegal_reason``.

AEC env (:func:`test_aec_playouts`): fewer games through ``env.step``, the
same checks on every step, the masked actions checked against
``illegal_reason`` (all actions every few turns), and at the end the
rewards, infos and the winner's castaway at home.
"""

from __future__ import annotations

import numpy as np
import pytest

import azimuth_env
from azgames.core import state as state_ops
from tests.azimuth.helpers import numba_threads

from . import check_kernels as C

VARIANTS = {
    "2p": (2, {}),
    "3p": (3, {}),
    "4p": (4, {}),
    "4p-island": (4, {"island": True}),
    "2p-coconuts": (2, {"coconuts": True}),
    "3p-no-coconuts": (3, {"coconuts": False}),
    "3p-random-lighthouses": (3, {"lighthouses": "random"}),
    "4p-random-lighthouses": (4, {"lighthouses": "random"}),
}
#: Vector-env runs of the default test (the eighth variant runs in the AEC and slow tests).
DEFAULT_VARIANTS = ["2p", "3p", "4p", "4p-island", "2p-coconuts", "3p-no-coconuts", "4p-random-lighthouses"]
DEFAULT_GAMES = 2000
SLOW_GAMES = 30_000


def describe(rules, one) -> str:
    """Game 0 of ``one`` as the text diagram and its raw fields."""
    return (
        f"{rules.render_ansi(one)}\ncastaway {one.castaway[0].tolist()} beach "
        f"{one.beach[0].tolist()} hand {one.hand[0].tolist()} coconuts "
        f"{one.coconuts[0].tolist()} player {int(one.player[0])} ply {int(one.ply[0])}"
    )


def _failure(venv, prev, actions, err, detail, finished) -> str:
    i = int(np.flatnonzero(err)[0])
    code = int(err[i])
    before = state_ops.select(prev, i)
    text = (
        f"{int((err != 0).sum())} game(s) failed; game {i}: {C.MESSAGES[code]} "
        f"[code {code}, detail {int(detail[i])}]\n"
    )
    if actions is not None:
        a = int(actions[i])
        text += (
            f"action {a} = {venv.rules.action_to_str(before, a)} by player_{int(before.player[0])}"
            f"{' (game ended and restarted)' if finished[i] else ''}\n"
            f"before:\n{describe(venv.rules, before)}\n"
        )
    return text + f"after:\n{describe(venv.rules, venv.game(i))}"


def check_sampled_actions(rules, venv, mask, rng, games: int, per_game: int, stats) -> None:
    """``illegal_reason`` accepts masked actions and refuses others, on a sample."""
    for i in rng.choice(venv.num_envs, size=games, replace=False).tolist():
        one = venv.game(i)
        row = mask[i]
        legal = np.flatnonzero(row)
        illegal = np.flatnonzero(~row)
        for a in rng.choice(legal, size=min(per_game, len(legal)), replace=False).tolist():
            why = rules.illegal_reason(one, a)
            assert why is None, (
                f"masked action {a} ({rules.action_to_str(one, a)}) is illegal: {why}\n{describe(rules, one)}"
            )
            stats["masked actions validated"] += 1
        for a in rng.choice(illegal, size=min(per_game, len(illegal)), replace=False).tolist():
            why = rules.illegal_reason(one, a)
            assert isinstance(why, str) and why, (
                f"unmasked action {a} ({rules.action_to_str(one, a)}) is legal\n{describe(rules, one)}"
            )
            stats["unmasked actions refused"] += 1


def checker_tables(rules):
    """``(params, setup_points, beach_spots, beach_raft)`` for the numba checker."""
    layout = rules.layout
    return (
        C.make_params(rules),
        np.ascontiguousarray(layout.setup_points, np.int64),
        np.ascontiguousarray(layout.beach_spots, np.int64),
        np.ascontiguousarray(layout.beach_raft, np.int64),
    )


def run_checked_playout(
    num_players, options, games, num_envs=1024, seed=0, max_steps=None, sample_games=2, sample_actions=4
):
    """Random games in a vector env until ``games`` have finished, checking
    every step. Returns a dict of counts."""
    venv = azimuth_env.VectorEnv(num_envs=num_envs, seed=seed, num_players=num_players, **options)
    rules = venv.rules
    params, setup_points, beach_spots, beach_raft = checker_tables(rules)
    rng = np.random.default_rng(seed)
    n = num_envs
    err = np.zeros(n, np.int64)
    detail = np.zeros(n, np.int64)
    game_len = np.zeros(n, np.int64)
    stats = {
        "games": 0,
        "terminated": 0,
        "truncated": 0,
        "steps": 0,
        "wins by another player": 0,
        "masked actions validated": 0,
        "unmasked actions refused": 0,
    }
    obs, mask = venv.reset()
    s = venv.state
    player = s.player.astype(np.int64)
    bad = C.check_positions(
        s.stack,
        s.height,
        s.wind_colour,
        s.wind_owner,
        s.wind_dir,
        s.hand,
        s.coconuts,
        s.castaway,
        s.beach,
        s.player,
        s.ply,
        mask,
        player,
        params,
        err,
        detail,
    )
    assert bad == 0, _failure(venv, venv.state, None, err, detail, None)
    while stats["games"] < games and (max_steps is None or stats["steps"] < max_steps):
        prev = state_ops.clone(venv.state)
        actions = venv.random_actions()
        obs, mask, rewards, term, trunc, player = venv.step(actions)
        stats["steps"] += 1
        s = venv.state
        bad = C.check_batch(
            prev.castaway,
            prev.beach,
            prev.player,
            prev.coconuts,
            s.stack,
            s.height,
            s.wind_colour,
            s.wind_owner,
            s.wind_dir,
            s.hand,
            s.coconuts,
            s.castaway,
            s.beach,
            s.player,
            s.ply,
            s.outcome,
            mask,
            rewards,
            term,
            trunc,
            player,
            game_len,
            params,
            setup_points,
            beach_spots,
            beach_raft,
            err,
            detail,
        )
        assert bad == 0, _failure(venv, prev, actions, err, detail, term | trunc)
        if sample_games:
            check_sampled_actions(rules, venv, mask, rng, sample_games, sample_actions, stats)
        ended = term | trunc
        if ended.any():
            stats["games"] += int(ended.sum())
            stats["terminated"] += int(term.sum())
            stats["truncated"] += int(trunc.sum())
            winners = np.flatnonzero(term)
            stats["wins by another player"] += int(
                (rewards[winners].argmax(axis=1) != prev.player[winners]).sum()
            )
    return stats


@pytest.mark.parametrize("variant", DEFAULT_VARIANTS)
def test_vector_playouts(variant):
    num_players, options = VARIANTS[variant]
    # One numba thread: on two busy cores each parallel call can wait
    # milliseconds for a descheduled worker (3x slower in all).
    with numba_threads(1):
        stats = run_checked_playout(num_players, options, DEFAULT_GAMES, seed=len(variant))
    print(f"\n{variant}: {stats}")
    assert stats["games"] >= DEFAULT_GAMES
    # Random castaways sometimes do get home (most games run to the 400-turn limit).
    assert stats["terminated"] > 0, stats


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_vector_playouts_many(variant):
    num_players, options = VARIANTS[variant]
    stats = run_checked_playout(
        num_players, options, SLOW_GAMES, num_envs=4096, seed=100, sample_games=8, sample_actions=8
    )  # on every thread
    print(f"\n{variant}: {stats}")
    assert stats["terminated"] > SLOW_GAMES // 100


@pytest.mark.parametrize("num_players,max_turns", [(2, 7), (3, 12), (4, 25)])
def test_vector_playouts_truncate_exactly_at_max_turns(num_players, max_turns):
    """Short games are cut off at exactly ``max_turns`` steps with zero rewards
    (the checker counts each game's steps itself)."""
    with numba_threads(1):
        stats = run_checked_playout(num_players, {"max_turns": max_turns}, 300, num_envs=64, sample_games=4)
    assert stats["truncated"] >= 0.9 * stats["games"]


@pytest.mark.parametrize("num_players,max_turns", [(4, 2), (3, 1)])
def test_lighthouse_placements_count_towards_max_turns(num_players, max_turns):
    """``max_turns`` counts lighthouse placements too (env docstring): with
    fewer turns than players the game ends during the lighthouse phase."""
    env = azimuth_env.env(num_players=num_players, max_turns=max_turns)
    env.reset(seed=1)
    for turn in range(max_turns):
        assert not any(env.truncations.values()), f"truncated after {turn} of {max_turns} turns"
        env.step(env.unwrapped.legal_actions()[0])
    ply = int(env.unwrapped.state.ply[0])
    assert all(env.truncations.values()), (
        f"not truncated after {max_turns} lighthouse placements (max_turns={max_turns}, ply {ply})"
    )
    assert all(r == 0 for r in env.rewards.values())


def test_vector_playout_smoke():
    """A few short games (quick enough to run as plain Python with NUMBA_DISABLE_JIT=1)."""
    for num_players, options in [(2, {}), (4, {}), (3, {"lighthouses": "random"})]:
        with numba_threads(1):
            stats = run_checked_playout(
                num_players,
                {**options, "max_turns": 20},
                10**9,
                num_envs=4,
                seed=7,
                max_steps=45,
                sample_games=1,
            )
        assert stats["steps"] == 45 and stats["truncated"] >= 4


# ---------------------------------------------------------------------- AEC env


def play_aec_checked(num_players, options, seed, full_every=25, start=None, moves=()):
    """A random game through the AEC env (from ``start``, a one-game state, if
    given; playing ``moves`` first), checked at every step. Returns the
    (first) winner, -1 when truncated."""
    env = azimuth_env.env(num_players=num_players, **options)
    env.reset(seed=seed)
    raw = env.unwrapped
    if start is not None:
        raw.set_state(start)
    rules = raw.rules
    params, setup_points, beach_spots, beach_raft = checker_tables(rules)
    rng = np.random.default_rng(seed)
    moves = list(moves)
    agents = env.possible_agents
    game_len = raw.state.ply.astype(np.int64)
    term = np.zeros(1, bool)
    trunc = np.zeros(1, bool)
    rewards = np.zeros((1, num_players), np.float32)
    turn = 0
    while True:
        agent = env.agent_selection
        state = raw.state
        mask = env.observe(agent)["action_mask"].copy()
        assert agent == agents[int(state.player[0])]
        assert raw.legal_actions() == np.flatnonzero(mask).tolist()
        legal = np.flatnonzero(mask)
        # illegal_reason: every masked action legal; all actions every few turns, else a sample
        if turn % full_every == 0:
            probe = range(rules.num_actions)
        else:
            others = np.flatnonzero(mask == 0)
            probe = legal.tolist() + rng.choice(others, size=min(16, len(others)), replace=False).tolist()
        for a in probe:
            why = rules.illegal_reason(state, int(a))
            assert (why is None) == bool(mask[a]), (
                f"turn {turn}: action {a} ({raw.action_to_str(a)}) mask {mask[a]}, "
                f"reason {why!r}\n{describe(rules, state)}"
            )
        prev = state_ops.clone(state)
        a = moves.pop(0) if moves else int(rng.choice(legal))
        env.step(a)
        turn += 1
        s = raw.state
        term[0] = env.terminations[agent]
        trunc[0] = env.truncations[agent]
        rewards[0] = [env.rewards[x] for x in agents]
        next_mask = env.observe(env.agent_selection)["action_mask"].reshape(1, -1).astype(bool)
        player_out = s.player.astype(np.int64)
        e, d = C.check_step(
            0,
            prev.castaway,
            prev.beach,
            prev.player,
            prev.coconuts,
            s.stack,
            s.height,
            s.wind_colour,
            s.wind_owner,
            s.wind_dir,
            s.hand,
            s.coconuts,
            s.castaway,
            s.beach,
            s.player,
            s.ply,
            s.outcome,
            next_mask,
            rewards,
            term,
            trunc,
            player_out,
            game_len,
            params,
            setup_points,
            beach_spots,
            beach_raft,
            False,
        )
        assert e == C.OK, (
            f"turn {turn}, action {a} ({rules.action_to_str(prev, a)}): "
            f"{C.MESSAGES[e]} [detail {d}]\nbefore:\n{describe(rules, prev)}\n"
            f"after:\n{describe(rules, s)}"
        )
        if term[0] or trunc[0]:
            break
        assert not any(env.terminations.values()) and not any(env.truncations.values())
    # the end: flags for everyone, no legal action, rewards and infos
    assert all(env.terminations.values()) == bool(term[0])
    assert all(env.truncations.values()) == bool(trunc[0])
    assert raw.legal_actions() == []
    assert all(rules.illegal_reason(raw.state, a) for a in range(rules.num_actions))
    home = [q for q in range(num_players) if raw.state.castaway[0, q] == C.AT_HOME]
    ply = int(raw.state.ply[0])
    if term[0]:
        # castaways landed by the same wind share the win; all of them: a draw
        assert home, "terminated with no castaway home"
        everyone = len(home) == num_players
        assert [env.rewards[x] for x in agents] == [
            0.0 if everyone else 1.0 if q in home else -1.0 for q in range(num_players)
        ]
        for q, x in enumerate(agents):
            assert env.infos[x]["winners"] == [agents[w] for w in home]
            assert env.infos[x]["score"] == int(q in home)
            assert env.infos[x]["turns"] == ply
        return home[0]
    assert home == [] and ply == rules.max_turns
    assert all(env.rewards[x] == 0 for x in agents)
    return -1


AEC_GAMES = 3


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_aec_playouts(variant):
    num_players, options = VARIANTS[variant]
    for g in range(AEC_GAMES):
        play_aec_checked(num_players, options, seed=1000 * num_players + g)


def winning_moves(num_players, options, count, seed):
    """``count`` (position, action) pairs where random vector play won a game."""
    venv = azimuth_env.VectorEnv(num_envs=256, seed=seed, num_players=num_players, **options)
    venv.reset()
    found = []
    with numba_threads(1):
        while len(found) < count:
            prev = state_ops.clone(venv.state)
            actions = venv.random_actions()
            term = venv.step(actions)[3]
            found += [(state_ops.select(prev, i), int(actions[i])) for i in np.flatnonzero(term)]
    return found[:count]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_aec_wins(variant):
    """Positions where random vector play won, replayed in the AEC env: the
    same move wins there, with the winner's castaway home, +1 / -1 rewards and
    the infos."""
    num_players, options = VARIANTS[variant]
    for k, (position, action) in enumerate(winning_moves(num_players, options, 4, seed=5)):
        winner = play_aec_checked(num_players, options, seed=k, start=position, moves=[action])
        assert winner >= 0


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_aec_playouts_many(variant):
    num_players, options = VARIANTS[variant]
    for g in range(60):
        play_aec_checked(num_players, options, seed=50_000 + 1000 * num_players + g, full_every=5)
