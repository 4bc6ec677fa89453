"""The trained ``ppo`` agents ship with the package: one per game and player
count, each with the record of the run that made it, and they play without torch."""

import json
import subprocess
import sys

import pytest

import azgames
from azgames.agents import make_agent
from azgames.agents.match import play_match
from azgames.agents.policy import NumpyPolicy, shipped_policy_path

CONFIGS = [(g, n) for g in ("azacru", "azimuth", "azure", "azimuth_coop") for n in (2, 3, 4)]


@pytest.mark.parametrize("game,players", CONFIGS)
def test_a_policy_ships_for_every_game_and_player_count(game, players):
    path = shipped_policy_path(game, players)
    policy = NumpyPolicy.load(path)
    env = azgames.make(game, num_players=players)
    agent = env.possible_agents[0]
    assert policy.meta["game"] == game and policy.meta["num_players"] == players
    assert tuple(policy.meta["obs_shape"]) == env.observation_space(agent)["observation"].shape
    assert policy.num_actions == env.action_space(agent).n
    record = json.loads(path.with_suffix(".json").read_text())
    for run in [record, *record.get("lineage", [])]:
        assert run["command"].startswith(f"python -m azgames train {game} --players {players} ")
    assert record["config"]["seed"] == policy.meta["trained"]["seed"]
    assert record["steps"] == policy.meta["trained"]["steps"] > 0 and record["seconds"] > 0


def test_the_shipped_files_stay_small():
    total = sum(shipped_policy_path(g, n).stat().st_size for g, n in CONFIGS)
    assert total < 8 * 2**20


@pytest.mark.parametrize("game,players", [("azacru", 2), ("azimuth", 3), ("azure", 4), ("azimuth_coop", 2)])
def test_the_ppo_agent_plays_whole_games(game, players):
    result = play_match(
        game, ["ppo"] + ["random"] * (players - 1), num_games=2, num_players=players, seed=0, progress=False
    )
    assert result.num_games == 2


def test_the_ppo_agent_is_deterministic_and_names_a_missing_player_count():
    env = azgames.make("azacru")
    env.reset(seed=3)
    a, b = make_agent("ppo", seed=0, game="azacru"), make_agent("ppo", seed=1, game="azacru")
    assert a.act(env) == b.act(env)
    sampled = make_agent("ppo", seed=0, game="azacru", sample=True)
    assert sampled.act(env) in env.unwrapped.legal_actions()
    from azgames.agents.policy import PolicyAgent

    two = PolicyAgent(NumpyPolicy.load(shipped_policy_path("azacru", 2)))
    env3 = azgames.make("azacru", num_players=3)
    env3.reset(seed=0)
    with pytest.raises(ValueError, match="trained for 2 players; the env has 3"):
        two.act(env3)


def test_playing_the_ppo_agent_needs_no_torch():
    code = (
        "import sys; sys.modules['torch'] = None\n"  # any 'import torch' now fails
        "from azgames.cli import main\n"
        "sys.exit(main(['play', 'azacru', '--agents', 'ppo', 'greedy', '--render', 'none']))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "Result:" in out.stdout and "player_0 = ppo" in out.stdout
