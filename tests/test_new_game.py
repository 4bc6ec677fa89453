"""A new game moves in by itself: one package and one registration line.

CONTRIBUTING.md's walkthrough, done: *Nim* (two players take one to three
stones; who takes the last wins; the pile's size an option) is written into
a temporary folder as its own package under the kernel contract
(``azgames.core.contract``: five numba functions, the entry points the core's),
registered with one line, and the command line, the agents, the tournament
and the vector env play it without a change anywhere else."""

from __future__ import annotations

import sys
import textwrap

import numpy as np
import pytest

import azgames
from azgames import cli
from azgames.agents import agent_names
from azgames.core import registry

NIM = """
from typing import NamedTuple

import numpy as np

from azgames.core import options as parse
from azgames.core.contract import ContractRules, Kernels
from azgames.core.drawing import Drawing
from azgames.core.envs import game_envs
from azgames.core.game import ONGOING, TERMINATED, GameInfo, pack_status
from azgames.core.jit import njit_shared
from azgames.core.options import Option


class NimState(NamedTuple):
    stones: np.ndarray  # (B,) int16
    player: np.ndarray  # (B,) int8
    ply: np.ndarray  # (B,) int32
    outcome: np.ndarray  # (B,) int8
    rng: np.ndarray  # (B,) uint64


@njit_shared
def reset_game(s, cfg, i):
    s.stones[i], s.player[i], s.ply[i], s.outcome[i] = cfg[0], 0, 0, ONGOING


@njit_shared
def play(s, cfg, i, action, rewards):
    p = s.player[i]
    s.stones[i] -= action + 1
    s.ply[i] += 1
    rewards[i, :] = 0.0
    if s.stones[i] == 0:
        s.outcome[i] = TERMINATED
        rewards[i, p], rewards[i, 1 - p] = 1.0, -1.0
        return pack_status(TERMINATED, True, p)
    s.player[i] = 1 - p
    return pack_status(ONGOING, False, 1 - p)


@njit_shared
def write_observation(s, cfg, i, viewer, obs, j):
    obs[j, 0], obs[j, 1] = min(s.stones[i], 127), viewer


@njit_shared
def write_mask(s, cfg, i, mask, j):
    for a in range(3):
        mask[j, a] = a < s.stones[i]


@njit_shared
def illegal_code(s, cfg, i, action):
    return 0 if action < s.stones[i] else 1


class NimRules(ContractRules):
    info = GameInfo(name="nim", long_name="Nim", min_players=2, max_players=2,
                    chance="deterministic", information="perfect", utility="zero_sum",
                    reward_model="terminal", version=1)
    state_type = NimState
    kernels = Kernels(reset_game, play, write_observation, write_mask, illegal_code)
    ILLEGAL = {1: "fewer stones are left"}
    OPTIONS = (Option("stones", 15, "stones in the pile at the start", parse.integer, "N"),)
    agents = ("player_0", "player_1")
    num_actions = 3  # take 1, 2 or 3

    def __init__(self, num_players=2, **options):
        super().__init__(num_players, **options)
        if not isinstance(self.options["stones"], int) or not 1 <= self.options["stones"] <= 1000:
            raise ValueError(f"stones={self.options['stones']!r} must be from 1 to 1000")

    def config(self):
        return (np.int16(self.options["stones"]),)

    def observation_shape(self, player=0):
        return (2,)

    def observation_bounds(self, player=0):
        return 0, 127

    def blank_state(self, b):
        return NimState(np.zeros(b, np.int16), np.zeros(b, np.int8), np.zeros(b, np.int32),
                        np.zeros(b, np.int8), np.zeros(b, np.uint64))

    def final_info(self, s):
        winner = self.agents[int(s.player[0])] if s.outcome[0] == TERMINATED else None
        scores = {a: int(a == winner) for a in self.agents}
        return [{"score": scores[a], "scores": scores, "winners": [winner] if winner else [],
                 "turns": int(s.ply[0])} for a in self.agents]

    def action_to_str(self, s, action):
        return f"take {action + 1}"

    def str_to_action(self, s, text):
        return int(text.split()[-1]) - 1

    def render_ansi(self, s):
        return "o" * int(s.stones[0])

    def legend(self):
        return "o: a stone left in the pile"

    def picture(self, s, last=None):
        d = Drawing(20 + 12 * int(s.stones[0]), 30)
        for k in range(int(s.stones[0])):
            d.circle(16 + 12 * k, 15, 5, fill="#555555")
        return d

    def action_targets(self, s, action):
        return ()  # every move is a button


raw_env, env, VectorEnv = game_envs(NimRules, __name__)
"""


@pytest.fixture
def nim(tmp_path, monkeypatch):
    """The Nim package in a folder of its own, and its one registration line."""
    package = tmp_path / "nim_env"
    package.mkdir()
    (package / "__init__.py").write_text(textwrap.dedent(NIM))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    registry.register("nim", "nim_env", "Nim: take 1-3 stones, 2 players")  # the registration line
    yield "nim"
    sys.modules.pop("nim_env", None)


def test_a_new_game_is_made_listed_and_offered_its_agents(nim, capsys):
    env = azgames.make("nim_v1", stones=5)
    env.reset(seed=0)
    assert env.unwrapped.metadata["name"] == "nim_v1"
    assert agent_names(nim) == ["random"]  # no greedy, policy or search hooks declared
    assert cli.main(["list"]) == 0
    listed = capsys.readouterr().out
    assert "nim: Nim: take 1-3 stones, 2 players" in listed and "options: --stones" in listed


def test_the_command_line_plays_it_with_its_own_option(nim, capsys):
    assert cli.main(["play", "nim", "--stones", "7", "--agents", "random", "--render", "none"]) == 0
    out = capsys.readouterr().out
    assert "wins after" in out
    with pytest.raises(SystemExit):
        cli.main(["play", "nim", "--stones", "0"])
    assert "stones=0 must be from 1 to 1000" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["play", "nim", "--max-turns", "9"])
    assert "--max-turns is an option of" in capsys.readouterr().err


def test_a_tournament_reads_its_sides_and_agents_from_its_declarations(nim, tmp_path, capsys):
    from azgames.tournament.run import sides_of

    assert sides_of(nim, 2) == [[0], [1]]  # Rules.sides: each seat its own
    with pytest.raises(SystemExit):  # no search hooks declared: no mcts
        cli.main(["tournament", "nim", "--agents", "random", "mcts", "--out", str(tmp_path)])
    assert "unknown agent 'mcts' for nim" in capsys.readouterr().err


def test_its_vector_env_plays_batches_of_it_with_restarts(nim):
    venv = azgames.make_vec("nim", num_envs=64, seed=0, stones=4)
    ended = 0
    for _ in range(30):
        obs, mask, rewards, terminated, truncated, player = venv.step(venv.random_actions())
        ended += int(terminated.sum())
        assert (obs[:, 0] >= 1).all() and (obs[:, 0] <= 4).all()  # restarted games start at 4 again
        assert (mask.sum(axis=1) == np.minimum(obs[:, 0], 3)).all()
        assert set(np.unique(rewards[terminated].sum(axis=1))) <= {0.0}  # zero-sum
    assert ended > 64  # several games each
