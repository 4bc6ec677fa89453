"""The learner's view of a vector env: every game returned waits on the
learner, opponents move inside the step, and the reward is always the
learner's own seat's, even when an opponent's move ends the game."""

import numpy as np
import pytest

import azgames
from azgames.core import state as state_ops
from azgames.core.batch import SKIP
from azgames.training import LearnerVecEnv

GAMES = [
    ("azacru", 2),
    ("azacru", 3),
    ("azimuth", 2),
    ("azimuth", 4),
    ("azure", 2),
    ("azure", 4),
    ("azimuth_coop", 2),
]


class Recording:
    """Wraps a vector env's step and step_some to record every ply's rewards and movers."""

    def __init__(self, venv):
        self.venv = venv
        self.plies = []  # (movers (N,), rewards (N, P), ended (N,))
        for name in ("step", "step_some"):
            self._wrap(name)

    def _wrap(self, name):
        inner = getattr(self.venv, name)

        def recorded(actions):
            moved = np.asarray(actions) != SKIP
            out = inner(actions)
            self.plies.append((moved, out[2].copy(), (out[3] | out[4]).copy()))
            return out

        setattr(self.venv, name, recorded)


@pytest.mark.parametrize("game,players", GAMES)
def test_every_game_returned_waits_on_the_learner(game, players):
    env = LearnerVecEnv(game, 32, num_players=players, seed=1)
    obs, mask = env.reset()
    for _ in range(60):
        if not env.team:
            assert (env.venv.player == env.seat).all()
        assert mask.any(axis=1).all()
        obs, mask, reward, terminated, truncated = env.step(env.venv.random_actions())
    assert obs.shape == (32, *env.single_observation_space.shape)


@pytest.mark.parametrize("game,players", GAMES)
def test_the_reward_is_the_learners_seats_summed_over_the_opponents_replies(game, players):
    env = LearnerVecEnv(game, 16, num_players=players, seed=2)
    env.reset()
    rec = Recording(env.venv)
    ended_by_opponent = 0
    for _ in range(400):  # random Azimuth games last about 200 learner steps
        seat = env.seat.copy()
        rec.plies.clear()
        plies = env.plies
        _, _, reward, terminated, truncated = env.step(env.venv.random_actions())
        expected = np.zeros(16, np.float32)
        over = np.zeros(16, bool)
        for k, (moved, rewards, ended) in enumerate(rec.plies):
            mine = rewards[:, 0] if env.team else rewards[np.arange(16), seat]
            expected[~over] += mine[~over]
            if k > 0:  # plies after the learner's own
                ended_by_opponent += int((ended & moved & ~over & (mine != 0)).sum())
            over |= ended
        np.testing.assert_array_equal(terminated | truncated, over)
        assert env.plies - plies == sum(int(moved.sum()) for moved, _, _ in rec.plies)
        np.testing.assert_allclose(reward, expected)
    if not env.team:  # opponents did end games, and those rewards were counted above
        assert ended_by_opponent > 0


def find_game_ended_by_opponent(game, players, want_reward):
    """An AEC game whose last move is an opponent's, leaving the previous mover
    (the learner) with ``want_reward``: its state before the learner's last
    move, the learner's action, the opponent's replies, and the learner."""
    env = azgames.make(game, num_players=players)
    rng = np.random.default_rng(0)
    for seed in range(500):
        env.reset(seed=seed)
        states, movers, actions = [], [], []
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            states.append(state_ops.clone(env.unwrapped.state))
            movers.append(env.agent_selection)
            actions.append(int(rng.choice(env.unwrapped.legal_actions())))
            env.step(actions[-1])
        last_mover, final = movers[-1], dict(env.rewards)
        # the last move that was not the final mover's: the learner's
        k = max(k for k, m in enumerate(movers) if m != last_mover)
        learner = movers[k]
        if final[learner] == want_reward:
            return states[k], actions[k], actions[k + 1 :], learner, final[learner]
    raise AssertionError("no such game found")


class Scripted:
    """Plays ``moves`` in game 0, then (in the next game) at random."""

    name = "scripted"

    def __init__(self, moves):
        self.moves = list(moves)

    def actions(self, env, games):
        if self.moves:
            return np.array([self.moves.pop(0)])
        return env.venv.random_actions()[games]


# Azure Attack's fights draw from the game's generator, which the replay does
# not share: its attribution is checked by the recording test above.
@pytest.mark.parametrize(
    "game,players,want", [("azacru", 2, -1.0), ("azacru", 2, 1.0), ("azacru", 3, -1.0), ("azimuth", 2, -1.0)]
)
def test_a_game_ended_by_the_opponents_move_pays_the_learner_its_own_final_reward(game, players, want):
    state, action, replies, learner, final = find_game_ended_by_opponent(game, players, want)
    env = LearnerVecEnv(game, 1, num_players=players, seed=0)
    env.reset()
    env.set_opponents([Scripted(replies)])
    env.venv.set_game(0, state)
    env.seat[0] = env.venv.agents.index(learner)
    _, mask, reward, terminated, truncated = env.step(np.array([action]))
    assert terminated[0] and not truncated[0]
    assert reward[0] == final == want
    # auto-reset: the observation and mask are the new game's, at the learner's turn
    assert env.venv.player[0] == env.seat[0]
    assert mask[0].any()


def test_the_same_seed_plays_the_same_games():
    def run(seed):
        env = LearnerVecEnv("azacru", 8, seed=seed, opponents=["random", "greedy"])
        obs, _ = env.reset()
        seen = [obs.copy()]
        for _ in range(40):
            obs, *_ = env.step(env.venv.random_actions())
            seen.append(obs.copy())
        return np.stack(seen), env.seat.copy()

    a, b, c = run(5), run(5), run(6)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert not np.array_equal(a[0], c[0])


def test_opponents_are_drawn_by_weight_and_the_pool_is_checked():
    env = LearnerVecEnv("azacru", 2000, seed=0, opponents=["random", "greedy"], weights=[3, 1])
    env.reset()
    assert abs((env.opponent == 0).mean() - 0.75) < 0.04
    with pytest.raises(ValueError, match="weights"):
        env.set_opponents(["random"], [-1])
    with pytest.raises(ValueError, match="empty"):
        env.set_opponents([])
    with pytest.raises(TypeError, match="opponent 3"):
        env.set_opponents([3])
    with pytest.raises(ValueError, match="seat"):
        LearnerVecEnv("azacru", 2, seat=5)


def test_step_some_moves_only_the_games_not_skipped_and_step_refuses_skip():
    venv = azgames.make_vec("azacru", num_envs=4, seed=0)
    actions = venv.random_actions()  # draws from each game's generator
    actions[[1, 3]] = SKIP
    before = state_ops.clone(venv.state)
    _, _, rewards, terminated, truncated, _ = venv.step_some(actions)
    for g in (1, 3):
        assert state_ops.equal(state_ops.select(before, g), venv.game(g))
        assert not rewards[g].any() and not terminated[g] and not truncated[g]
    for g in (0, 2):
        assert not state_ops.equal(state_ops.select(before, g), venv.game(g))
    with pytest.raises(ValueError, match="illegal action -1"):
        venv.step(np.full(4, SKIP))
    with pytest.raises(ValueError, match="18446744073709551615"):
        venv.step_some(np.full(4, 2**64 - 1, np.uint64))


def test_the_leagues_greedy_games_can_go_to_an_agent_spec_with_options():
    """``--league-greedy greedy:lookahead=1``: the league's greedy group is
    that agent, built with its options, and it answers every game batched."""
    from azgames.training.league import League

    league = League({"greedy": 1.0}, greedy="greedy:lookahead=1")
    opponents, weights = league.pool(latest=None)
    assert opponents == ["greedy:lookahead=1"] and weights == [1.0]
    env = LearnerVecEnv("azimuth", 16, seed=0, opponents=opponents)
    (agent,) = [o.agent for o in env.opponents]
    assert agent.lookahead == 1 and env.opponents[0].name == "greedy:lookahead=1"
    env.reset()
    for _ in range(20):
        _, mask, *_ = env.step(env.venv.random_actions())
        assert mask.any(axis=1).all()
