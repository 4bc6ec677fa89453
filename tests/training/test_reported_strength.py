"""The strength the docs report is the shipped policies' strength.

``benchmarks/ppo_strength.py`` writes each row with the ``trained`` record of
the policy it played, and a tournament records it for its ``ppo`` agent.
Shipping a new policy without scoring it again leaves the committed rows and
ladders, and the tables ``benchmarks/tables.py`` renders from them,
describing weights that no longer ship: these tests catch that. (That the
docs' tables are the ones the JSON renders is tests/test_tables.py.)"""

import json
from pathlib import Path

import pytest

from azgames.agents.policy import NumpyPolicy, shipped_policy_path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = sorted((ROOT / "benchmarks" / "results").glob("ppo_strength_*.json"))
ROWS = [(path.name, row) for path in RESULTS for row in json.loads(path.read_text())["rows"]]
LADDERS = sorted((ROOT / "benchmarks" / "results" / "ladders").glob("*/tournament.json"))


def _shipped_trained(game: str, players: int) -> dict:
    return NumpyPolicy.load(shipped_policy_path(game, players)).meta["trained"]


def _row_id(item):
    name, row = item
    return f"{name}:{row['game']}-{row['players']}p-{row['opponent']}"


def test_every_shipped_two_player_policy_is_scored_against_every_opponent():
    scored = {(row["game"], row["players"], row["opponent"]) for _, row in ROWS}
    for game in ("azacru", "azure", "azimuth"):
        assert {(game, 2, "random"), (game, 2, "greedy")} <= scored, game
    assert ("azimuth_coop", 2, "Ocean Die") in scored


@pytest.mark.parametrize("item", ROWS, ids=[_row_id(i) for i in ROWS])
def test_each_committed_row_scored_the_policy_that_ships_now(item):
    _, row = item
    assert row["trained"] == _shipped_trained(row["game"], row["players"])
    record = json.loads(shipped_policy_path(row["game"], row["players"]).with_suffix(".json").read_text())
    if record.get("lineage"):  # the table's trained column sums it: it must end in the run scored
        assert record["lineage"][-1] == row["trained"]


@pytest.mark.parametrize("path", LADDERS, ids=[p.parent.name for p in LADDERS])
def test_each_committed_ladder_played_the_policy_that_ships_now(path):
    ladder = json.loads(path.read_text())
    if "ppo" not in ladder["agents"]:
        pytest.skip("no ppo agent on this ladder")
    assert ladder["policies"]["ppo"] == _shipped_trained(ladder["game"], ladder["num_players"])


AZ_ROWS = json.loads((ROOT / "benchmarks" / "results" / "az_strength.json").read_text())["rows"]


def _shipped_az(game: str, players: int) -> dict:
    from azgames.agents.az.agent import shipped_network_path

    return NumpyPolicy.load(shipped_network_path(game, players)).meta["trained"]


@pytest.mark.parametrize(
    "row", AZ_ROWS, ids=[f"{r['game']}-{r['players']}p-{r['simulations']}-{r['opponent']}" for r in AZ_ROWS]
)
def test_each_az_row_scored_the_network_that_ships_now(row):
    assert row["trained"] == _shipped_az(row["game"], row["players"])


@pytest.mark.parametrize("path", LADDERS, ids=[p.parent.name for p in LADDERS])
def test_each_committed_ladder_with_az_played_the_network_that_ships_now(path):
    ladder = json.loads(path.read_text())
    if "az" not in ladder["agents"]:
        pytest.skip("no az agent on this ladder")
    assert ladder["policies"]["az"] == _shipped_az(ladder["game"], ladder["num_players"])


def test_the_connect_four_bench_scored_the_network_that_ships_now():
    """The shipped Connect Four network is one of the bench's seeds (its run's command)."""
    bench = json.loads((ROOT / "benchmarks" / "results" / "connect_four_bench.json").read_text())
    assert _shipped_az("connect_four", 2)["command"] in [s["command"] for s in bench["seeds"]]
