"""Random playouts of Azacru, checked after every step.

Vector env (:func:`test_vector_playouts`): thousands of games per player
count, random legal actions drawn in numba; after every step a numba kernel
(:mod:`.check_kernels`) compares each game against an independent reference
model of the step and checks the whole mask against the rules' validator
``move_code`` (pass legal exactly when no move is), the board's
consistency, the monotone counts (pieces never increase, coloured tiles never
turn neutral), the final round, rewards, auto-resets and the observation
planes. Every game must end by ``max_turns``.

AEC env (:func:`test_aec_playouts_step_accepts_exactly_the_mask`): fewer
games through the real ``step``: every masked action is accepted by ``step``
on a clone, every unmasked one is refused with ValueError and changes nothing.
"""

from __future__ import annotations

import numpy as np
import pytest

import azacru_env
from azacru_env.diagram import to_diagram
from azgames.core import state as state_ops

from . import check_kernels as C

# (num_players, opening, games): 10,200 games in the default run.
DEFAULT_RUNS = [(2, "standard", 3000), (3, "standard", 3000), (4, "standard", 3000), (2, "classic", 1200)]
SLOW_RUNS = [
    (2, "standard", 50_000),
    (3, "standard", 50_000),
    (4, "standard", 50_000),
    (2, "classic", 20_000),
]


def _describe_failure(venv, prev, actions, err, detail, finished):
    i = int(np.flatnonzero(err)[0])
    code = int(err[i])
    before = state_ops.select(prev, i)
    a = int(actions[i]) if actions is not None else None
    move = venv.rules.action_to_str(before, a) if a is not None else "(reset)"
    return (
        f"{int((err != 0).sum())} game(s) failed; game {i}: {C.MESSAGES[code]} "
        f"[code {code}, detail {int(detail[i])}]\n"
        f"action {a} = {move} by player_{int(before.player[0])}"
        f"{' (game ended and restarted)' if finished is not None and finished[i] else ''}\n"
        f"before:\n{to_diagram(before)}\nafter:\n{to_diagram(venv.game(i))}"
    )


def run_checked_playout(num_players, opening, games, num_envs=512, seed=0, max_turns=1000, max_steps=None):
    """Play random games in a vector env until ``games`` have finished, checking
    every step. Returns (finished games, truncated games, steps)."""
    venv = azacru_env.VectorEnv(
        num_envs=num_envs, seed=seed, num_players=num_players, opening=opening, max_turns=max_turns
    )
    obs, mask = venv.reset()
    rules = venv.rules
    n = num_envs
    err = np.zeros(n, np.int64)
    detail = np.zeros(n, np.int64)
    game_len = np.zeros(n, np.int64)
    s = venv.state
    player = np.asarray(s.player, np.int64)
    bad = C.check_positions(
        s.tiles,
        s.occupant,
        s.piece_field,
        s.piece_facing,
        s.player,
        s.turns_left,
        s.ply,
        obs,
        mask,
        player,
        rules.opening_field,
        max_turns,
        err,
        detail,
    )
    assert bad == 0, _describe_failure(venv, venv.state, None, err, detail, None)
    finished = truncated_games = steps = 0
    while finished < games:
        if max_steps is not None and steps >= max_steps:
            break
        prev = state_ops.clone(venv.state)
        actions = venv.random_actions()
        obs, mask, rewards, term, trunc, player = venv.step(actions)
        steps += 1
        s = venv.state
        bad = C.check_batch(
            prev.tiles,
            prev.occupant,
            prev.piece_field,
            prev.piece_facing,
            prev.player,
            prev.turns_left,
            s.tiles,
            s.occupant,
            s.piece_field,
            s.piece_facing,
            s.player,
            s.turns_left,
            s.ply,
            s.outcome,
            actions,
            obs,
            mask,
            rewards,
            term,
            trunc,
            player,
            game_len,
            rules.opening_field,
            rules.opening_facing,
            max_turns,
            err,
            detail,
        )
        assert bad == 0, _describe_failure(venv, prev, actions, err, detail, term | trunc)
        finished += int(term.sum() + trunc.sum())
        truncated_games += int(trunc.sum())
    return finished, truncated_games, steps


@pytest.mark.parametrize(
    "num_players,opening,games", DEFAULT_RUNS, ids=[f"{p}p-{o}" for p, o, _ in DEFAULT_RUNS]
)
def test_vector_playouts(num_players, opening, games):
    finished, truncated, steps = run_checked_playout(num_players, opening, games)
    print(f"\n{num_players}p {opening}: {finished} games in {steps} steps, {truncated} truncated")
    assert finished >= games
    # Random games end long before the 1000-turn limit: someone gets stuck.
    assert truncated <= finished // 100, f"{truncated} of {finished} games hit the turn limit"


@pytest.mark.slow
@pytest.mark.parametrize("num_players,opening,games", SLOW_RUNS, ids=[f"{p}p-{o}" for p, o, _ in SLOW_RUNS])
def test_vector_playouts_many(num_players, opening, games):
    finished, truncated, steps = run_checked_playout(num_players, opening, games, num_envs=4096, seed=1)
    print(f"\n{num_players}p {opening}: {finished} games in {steps} steps, {truncated} truncated")
    assert truncated <= finished // 100


@pytest.mark.parametrize("num_players", [2, 4])
def test_vector_playouts_truncate_exactly_at_max_turns(num_players):
    """With a short turn limit games are cut off at exactly ``max_turns`` steps
    with zero rewards (the checker counts each game's steps itself)."""
    finished, truncated, _ = run_checked_playout(num_players, "standard", 300, num_envs=64, max_turns=12)
    # 12 turns are too few for random play to get a player stuck: nearly all are cut off.
    assert truncated > 0 and truncated >= 0.9 * finished


def test_vector_playout_smoke():
    """A few short games (also run with NUMBA_DISABLE_JIT=1 by test_nojit)."""
    for num_players in (2, 3):
        _, _, steps = run_checked_playout(num_players, "standard", 10**9, num_envs=4, seed=7, max_steps=40)
        assert steps == 40
    finished, truncated, _ = run_checked_playout(2, "standard", 4, num_envs=4, seed=3, max_turns=8)
    assert finished >= 4 and truncated >= 1


# ---------------------------------------------------------------------- AEC env


def expected_rewards(tiles, num_players):
    scores = [int((tiles == p).sum()) for p in range(num_players)]
    return scores, [
        sum(np.sign(scores[p] - scores[q]) for q in range(num_players) if q != p) / (num_players - 1)
        for p in range(num_players)
    ]


def play_aec_checked(num_players, seed, opening="standard"):
    """One random game through the AEC env; at every turn every action is
    tried with ``step``. Returns the number of turns."""
    env = azacru_env.raw_env(num_players=num_players, opening=opening)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    turns = 0
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"].copy()
        legal = np.flatnonzero(mask)
        assert len(legal) > 0, "an unfinished game has no legal action"
        # Unmasked actions: refused with ValueError, and refusing changes nothing.
        probe = env.clone()
        for a in np.flatnonzero(mask == 0):
            try:
                probe.step(int(a))
            except ValueError:
                continue
            raise AssertionError(
                f"step accepted unmasked action {a} ({env.action_to_str(a)}) at turn {turns}\n"
                f"{to_diagram(env.state)}"
            )
        assert state_ops.equal(probe.state, env.state), "a refused action changed the state"
        assert probe.agent_selection == agent
        assert np.array_equal(probe.observe(agent)["action_mask"], mask)
        # Masked actions: accepted, and the turn passes on (or the game ends).
        for a in legal:
            c = env.clone()
            try:
                c.step(int(a))
            except ValueError as e:
                raise AssertionError(
                    f"step refused masked action {a} ({env.action_to_str(a)}) at turn {turns}: {e}\n"
                    f"{to_diagram(env.state)}"
                ) from None
            assert int(c.state.ply[0]) == turns + 1
            over = c.terminations[agent] or c.truncations[agent]
            assert (
                over
                or c.agent_selection
                == env.possible_agents[(env.possible_agents.index(agent) + 1) % num_players]
            )
        env.step(int(rng.choice(legal)))
        turns += 1
    # The end: rewards and infos follow from the final tiles.
    assert all(env.terminations.values()), f"game truncated after {turns} turns"
    scores, rewards = expected_rewards(env.state.tiles[0], num_players)
    assert [env.rewards[a] for a in env.possible_agents] == pytest.approx(rewards)
    for p, a in enumerate(env.possible_agents):
        assert env.infos[a]["score"] == scores[p]
        assert env.infos[a]["scores"] == dict(zip(env.possible_agents, scores))
        assert env.infos[a]["winners"] == [b for b, s in zip(env.possible_agents, scores) if s == max(scores)]
        assert env.infos[a]["turns"] == turns
    return turns


AEC_DEFAULT = [(2, "standard", 40), (3, "standard", 25), (4, "standard", 25), (2, "classic", 10)]


@pytest.mark.parametrize(
    "num_players,opening,games", AEC_DEFAULT, ids=[f"{p}p-{o}" for p, o, _ in AEC_DEFAULT]
)
def test_aec_playouts_step_accepts_exactly_the_mask(num_players, opening, games):
    for g in range(games):
        play_aec_checked(num_players, seed=1000 * num_players + g, opening=opening)


@pytest.mark.slow
@pytest.mark.parametrize(
    "num_players,opening", [(2, "standard"), (3, "standard"), (4, "standard"), (2, "classic")]
)
def test_aec_playouts_step_accepts_exactly_the_mask_many(num_players, opening):
    for g in range(300):
        play_aec_checked(num_players, seed=50_000 + 1000 * num_players + g, opening=opening)


def test_observation_shape_is_the_documented_layout():
    """The checker reads the planes as documented: K own-piece planes, 3 per
    player (tiles, facing east, facing north), 1 final-round flag."""
    for p in (2, 3, 4):
        venv = azacru_env.VectorEnv(num_envs=1, num_players=p)
        k = venv.rules.pieces
        obs, _ = venv.reset()
        assert obs.shape == (1, k + 3 * p + 1, 9, 9)  # channels first (version 2)
