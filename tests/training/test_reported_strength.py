"""The strength the README reports is the shipped policies' strength.

``benchmarks/ppo_strength.py`` writes each row with the ``trained`` record of
the policy it played, and a tournament records it for its ``ppo`` agent.
Shipping a new policy without scoring it again leaves the committed rows and
ladders, and the README tables made from them, describing weights that no
longer ship: these tests catch that."""

import json
import re
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


def _readme_rows():
    """The README's ppo table: (game, players, opponent) -> its cells."""
    rows = {}
    for line in (ROOT / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 10 and cells[1].isdigit() and re.fullmatch(r"[\d.]+ min, [\d.]+M", cells[2]):
            rows[(cells[0], int(cells[1]), cells[3])] = cells
    return rows


@pytest.mark.parametrize("item", ROWS, ids=[_row_id(i) for i in ROWS])
def test_the_readme_table_quotes_the_committed_row(item):
    _, row = item
    cells = _readme_rows()[(row["game"], row["players"], row["opponent"])]
    pct = lambda x: f"{100 * x:.1f}%"  # noqa: E731
    assert cells[4:9] == [
        str(row["games"]),
        pct(row["win_rate"]),
        f"{100 * row['win_rate_lo']:.1f}-{pct(row['win_rate_hi'])}",
        str(row["draws"]),
        "-" if row["decisive_win_rate"] is None else pct(row["decisive_win_rate"]),
    ]
    assert cells[9] == " / ".join(f"{100 * w:.1f}" for w in row["per_seed"])
    record = json.loads(shipped_policy_path(row["game"], row["players"]).with_suffix(".json").read_text())
    runs = record.get("lineage") or [record]
    trained = f"{sum(r['seconds'] for r in runs) / 60:.0f} min, {sum(r['steps'] for r in runs) / 1e6:.1f}M"
    assert cells[2] == trained, "the trained column sums the policy's lineage"


@pytest.mark.parametrize("path", LADDERS, ids=[p.parent.name for p in LADDERS])
def test_each_committed_ladder_played_the_policy_that_ships_now(path):
    ladder = json.loads(path.read_text())
    if "ppo" not in ladder["agents"]:
        pytest.skip("no ppo agent on this ladder")
    assert ladder["policies"]["ppo"] == _shipped_trained(ladder["game"], ladder["num_players"])
