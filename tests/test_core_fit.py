"""The shared core fits what the next games need, shown on a toy game.

"Dice chase": a monster and two hunters (asymmetric roles) race to 10. On
its turn an agent may roll up to twice in a row (acting several times in a
row) or stop; each roll is a chance event from the game's own generator,
reported in ``infos``; each roll pays +0.1 to the roller's side and -0.1 to
the other (intermediate team rewards); the first side to 10 wins +1 / -1.
The toy implements :class:`azgames.core.game.Rules` in plain Python.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from azgames.core.aec import GameAECEnv
from azgames.core.drawing import Drawing
from azgames.core.game import DREW, ONGOING, TERMINATED, TRUNCATED, GameInfo, Rules, pack_status
from azgames.core.rng import below

ROLL, STOP = 0, 1


class DiceState(NamedTuple):
    position: np.ndarray  # (B, 3) int8
    player: np.ndarray  # (B,) int8
    rolls_left: np.ndarray  # (B,) int8
    last_roll: np.ndarray  # (B,) int8, -1 if the last action was a stop
    ply: np.ndarray  # (B,) int32
    outcome: np.ndarray  # (B,) int8
    rng: np.ndarray  # (B,) uint64


class DiceChase(Rules):
    info = GameInfo(
        "dice_chase", "Dice chase (test toy)", 3, 3, "explicit_stochastic", "perfect", "zero_sum", "rewards"
    )
    state_type = DiceState
    agents = ("monster", "hunter_0", "hunter_1")
    num_actions = 2

    @classmethod
    def option_defaults(cls):
        return {"max_turns": 200}

    def observation_shape(self, player=0):
        return (5,)

    def observation_bounds(self, player=0):
        return 0, 20

    def initial_state(self, rng_words):
        b = len(rng_words)
        return DiceState(
            np.zeros((b, 3), np.int8),
            np.zeros(b, np.int8),
            np.full(b, 2, np.int8),
            np.full(b, -1, np.int8),
            np.zeros(b, np.int32),
            np.zeros(b, np.int8),
            np.asarray(rng_words, np.uint64).copy(),
        )

    @staticmethod
    def side(p):
        return 0 if p == 0 else 1

    def step(self, s, action, obs, mask, rewards):
        p = int(s.player[0])
        rewards[:] = 0.0
        s.ply[0] += 1
        if action == ROLL:
            roll = 1 + below(s.rng, 0, 3)
            s.last_roll[0] = roll
            s.position[0, p] += roll
            for q in range(3):
                rewards[q] = 0.1 if self.side(q) == self.side(p) else -0.1
            s.rolls_left[0] -= 1
        else:
            s.last_roll[0] = -1
        if s.position[0, p] >= 10:
            s.outcome[0] = TERMINATED
            for q in range(3):
                rewards[q] = 1.0 if self.side(q) == self.side(p) else -1.0
        elif s.ply[0] >= self.options["max_turns"]:
            s.outcome[0] = TRUNCATED
        elif action == STOP or s.rolls_left[0] == 0:
            s.player[0] = (p + 1) % 3
            s.rolls_left[0] = 2
        self.observe(s, -1, obs, mask)
        # A roll is a draw: the DREW bit makes the env report it in infos.
        return pack_status(int(s.outcome[0]), True, int(s.player[0])) + (DREW if action == ROLL else 0)

    def observe(self, s, viewer, obs, mask):
        p = int(s.player[0])
        viewer = p if viewer < 0 else viewer
        obs[:3] = s.position[0]
        obs[3] = viewer
        obs[4] = s.rolls_left[0]
        mask[:] = 1 if (viewer == p and s.outcome[0] == ONGOING) else 0
        return pack_status(int(s.outcome[0]), False, p)

    def illegal_reason(self, s, action):
        return None

    def chance_info(self, s):
        return {"roll": int(s.last_roll[0])} if s.last_roll[0] > 0 else None

    def final_info(self, s):
        return [{"positions": s.position[0].tolist()} for _ in range(3)]

    def action_to_str(self, s, action):
        return ("roll", "stop")[action]

    def str_to_action(self, s, text):
        return ("roll", "stop").index(text)

    def render_ansi(self, s):
        return str(s.position[0].tolist())

    def picture(self, s, last=None):
        d = Drawing(240, 20 + 20 * 3)
        d.text(4, 14, f"{self.agents[int(s.player[0])]} to act", size=11, anchor="start")
        for p, agent in enumerate(self.agents):
            d.text(4, 34 + 20 * p, f"{agent} {int(s.position[0, p])}/10", size=11, anchor="start")
        return d

    def action_targets(self, s, action):
        return ()  # roll and stop are buttons

    def legend(self):
        return "[monster, hunter_0, hunter_1]: each agent's distance, out of 10"

    def vec_observe(self, *args):
        raise NotImplementedError("the toy has no vector env")

    vec_step = vec_random_actions = vec_observe


class DiceEnv(GameAECEnv):
    rules_type = DiceChase


def make_env(**kwargs):
    return DiceEnv(num_players=3, **kwargs)


def test_the_toy_passes_pettingzoo_api_and_seed_tests():
    api_test(make_env(), num_cycles=200)
    seed_test(make_env)


def test_an_agent_acts_several_times_in_a_row():
    env = make_env()
    env.reset(seed=1)
    env.step(ROLL)
    assert env.agent_selection == "monster"  # one more roll allowed
    env.step(ROLL)
    assert env.agent_selection == "hunter_0"  # two rolls: the turn passes
    env.step(STOP)
    assert env.agent_selection == "hunter_1"


def test_team_rewards_are_per_step_and_cleared_on_the_next_step():
    env = make_env()
    env.reset(seed=2)
    env.step(ROLL)
    assert env.rewards == pytest.approx({"monster": 0.1, "hunter_0": -0.1, "hunter_1": -0.1})
    env.step(STOP)  # a stop pays nothing: last step's rewards must not linger
    assert env.rewards == {"monster": 0.0, "hunter_0": 0.0, "hunter_1": 0.0}
    env.step(ROLL)  # hunter_0 rolls: both hunters gain
    assert env.rewards == pytest.approx({"monster": -0.1, "hunter_0": 0.1, "hunter_1": 0.1})
    # Everyone who did not act since accumulates; the actor's total restarts.
    assert env._cumulative_rewards["hunter_1"] == pytest.approx(0.0)


def rolls_until_the_end(seed):
    env = make_env()
    env.reset(seed=seed)
    rolls = []
    while not any(env.terminations.values()):
        env.step(ROLL)
        rolls.append(env.infos[env.agent_selection].get("chance"))
    return rolls, env


def test_chance_events_come_from_the_seeded_generator_and_go_in_infos():
    rolls, env = rolls_until_the_end(seed=7)
    assert rolls == rolls_until_the_end(seed=7)[0]
    assert all(c is not None and 1 <= c["roll"] <= 3 for c in rolls)
    # The game ends on a roll: that roll is reported beside the final info.
    assert env.infos["monster"]["positions"] and env.infos["monster"]["chance"] == rolls[-1]
    assert rolls_until_the_end(seed=8)[0] != rolls


def test_the_winning_side_shares_the_final_reward():
    env = make_env()
    env.reset(seed=3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while not any(env.terminations.values()):
        env.step(ROLL)
        for a, r in env.rewards.items():
            totals[a] += r
    winner_side = [a for a in env.agents if env.rewards[a] == 1.0]
    assert winner_side in (["monster"], ["hunter_0", "hunter_1"])
    assert all(env.rewards[a] == -1.0 for a in env.agents if a not in winner_side)
