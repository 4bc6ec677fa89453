"""The tournament: every seating, the JSON record, and the command line."""

from __future__ import annotations

import json
import re

import pytest

from azgames.cli import main
from azgames.tournament import load_result, run_tournament
from azgames.tournament.run import parse_agent
from azgames.tournament.schedule import games_per_seating, seatings


def test_every_set_of_agents_plays_in_every_seating():
    assert seatings(["a", "b", "c"], 2) == [
        ("a", "b"),
        ("a", "c"),
        ("b", "a"),
        ("b", "c"),
        ("c", "a"),
        ("c", "b"),
    ]
    assert len(seatings(["a", "b", "c", "d"], 3)) == 24
    assert games_per_seating(100, 2) == 50 and games_per_seating(100, 4) == 5


def test_a_two_player_tournament_records_every_game_and_rates_greedy_above_random(tmp_path):
    result = run_tournament("azacru", ["random", "greedy"], games=20, seed=3, progress=False)
    assert len(result.games) == 20
    assert sum(g["seats"] == ["greedy", "random"] for g in result.games) == 10
    ratings = result.ratings()
    assert [r.name for r in ratings] == ["greedy", "random"] and ratings[0].low > 0
    result.save(tmp_path / "t.json")
    again = load_result(tmp_path / "t.json")
    assert [r.rating for r in again.ratings()] == pytest.approx([r.rating for r in ratings])
    first = run_tournament("azacru", ["random", "greedy"], games=4, seed=3, progress=False)
    assert first.games == result.games[:4]  # seeded: the same games


def test_a_tournament_records_which_trained_policy_the_ppo_agent_played(tmp_path):
    from azgames.agents.policy import NumpyPolicy, shipped_policy_path

    result = run_tournament("azacru", ["random", "ppo"], games=2, seed=0, progress=False)
    shipped = NumpyPolicy.load(shipped_policy_path("azacru", 2)).meta["trained"]
    assert result.policies == {"ppo": shipped}
    result.save(tmp_path / "t.json")
    assert load_result(tmp_path / "t.json").policies == {"ppo": shipped}


def test_azure_hunters_are_one_side_for_the_ratings():
    result = run_tournament(
        "azure", ["random", "greedy", "mcts:simulations=10"], num_players=3, games=6, seed=0, progress=False
    )
    assert result.method == "openskill" and result.sides == [[0], [1, 2]]
    assert len(result.games) == 6 and {len(set(g["seats"])) for g in result.games} == {3}


def test_the_command_writes_the_table_json_and_plot(tmp_path, capsys):
    out = tmp_path / "ladder"
    code = main(
        [
            "tournament",
            "azacru",
            "--agents",
            "random",
            "greedy",
            "mcts:simulations=20",
            "--games",
            "4",
            "--out",
            str(out),
            "-q",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "| 1 |" in printed and "random" in printed and "Elo" in printed
    data = json.loads((out / "tournament.json").read_text())
    assert len(data["games"]) == 12 and data["method"] == "bradley-terry"
    assert (out / "ratings.png").stat().st_size > 1000


def test_the_reported_small_ladder_prints_an_honest_table(tmp_path, capsys):
    """``--agents greedy ppo --games 6``: no random, so greedy is 0 and the
    header says so; no interval prints as one certain value; draws have a column."""
    out = tmp_path / "x"
    assert (
        main(["tournament", "azacru", "--agents", "greedy", "ppo", "--games", "6", "--out", str(out), "-q"])
        == 0
    )
    printed = capsys.readouterr().out
    assert "greedy = 0 (random did not play)" in printed and "random = 0" not in printed
    assert "| games | draws | win rate |" in printed
    assert not re.search(r"([+-]\d+) to \1\b", printed)
    data = json.loads((out / "tournament.json").read_text())
    assert data["anchor"] == "greedy" and all("draws" in r for r in data["ratings"])


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--agents", "random", "wizard"], "unknown agent 'wizard'"),
        (["--agents", "random", "random"], "each agent once"),
        (["--agents", "random"], "at least 2"),
        (["--agents", "random", "greedy", "--games", "0"], "--games 0"),
        (["--agents", "random", "mcts:simulations"], "key=value"),
        (["--agents", "random", "greedy", "--players", "5"], "--players 5"),
        (["--agents", "random", "greedy", "--map", "ring"], "--map is an option of azure"),
    ],
)
def test_bad_arguments_end_with_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["tournament", "azacru", *argv])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_agent_options_are_parsed_as_json_values():
    assert parse_agent("mcts:simulations=200,c=1.5,max_playout=-1") == (
        "mcts",
        {"simulations": 200, "c": 1.5, "max_playout": -1},
    )
    assert parse_agent("greedy") == ("greedy", {})
