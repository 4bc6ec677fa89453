"""The shipped ``az`` networks (agents/policies/az/): each loads, names its
game and player count, says how it was made, and plays as the ``az`` agent."""

from __future__ import annotations

import json

import pytest

import azgames
from azgames.agents import agent_names, make_agent
from azgames.agents.az.agent import SHIPPED, shipped_network_path
from azgames.agents.policy import NumpyPolicy

NETWORKS = sorted(SHIPPED.glob("*_[0-9]p.npz"))


@pytest.mark.parametrize("path", NETWORKS, ids=[p.stem for p in NETWORKS])
def test_every_shipped_network_loads_plays_and_has_its_record(path):
    game, players = path.stem.rsplit("_", 1)
    players = int(players[:-1])
    network = NumpyPolicy.load(path)
    assert (network.meta["game"], network.meta["num_players"]) == (game, players)
    assert network.meta["algorithm"] == "alphazero" and shipped_network_path(game, players) == path.resolve()
    record = json.loads(path.with_suffix(".json").read_text())
    assert record["command"].startswith("python -m azgames train") and "--algo alphazero" in record["command"]
    assert "az" in agent_names(game)
    env = azgames.make(game, num_players=players)
    env.reset(seed=0)
    agent = make_agent("az:simulations=0", seed=0, game=game)  # the network alone
    assert agent.act(env) in env.unwrapped.legal_actions()


#: The co-op's search is compiled by no other test of the default run (40 s).
SEARCHED = [
    pytest.param(p, marks=pytest.mark.slow, id=p.stem)
    if p.stem.startswith("azimuth_coop")
    else pytest.param(p, id=p.stem)
    for p in NETWORKS
]


@pytest.mark.parametrize("path", SEARCHED)
def test_every_shipped_network_plays_with_its_search(path):
    game, players = path.stem.rsplit("_", 1)
    env = azgames.make(game, num_players=int(players[:-1]))
    env.reset(seed=0)
    agent = make_agent("az:simulations=8", seed=0, game=game)
    assert agent.act(env) in env.unwrapped.legal_actions()


def test_a_player_count_without_a_network_is_named_with_the_command_that_trains_one(tmp_path, monkeypatch):
    from azgames.agents.az import agent

    monkeypatch.setattr(agent, "SHIPPED", tmp_path)  # a checkout where none ships yet
    with pytest.raises(ValueError, match=r"no az network ships for azacru with 4 players .*--algo alphazero"):
        shipped_network_path("azacru", 4)
