"""What a small ladder's table, JSON and plot say: the anchor named only
when it played, intervals that read as one value called what they are, the
draws counted, and every agent drawn in the plot."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from azgames.tournament.run import TournamentResult


def game(a: str, b: str, ra: float, rb: float) -> dict:
    return {"seats": [a, b], "rewards": [ra, rb]}


def ppo_sweeps_greedy(games: int = 6) -> TournamentResult:
    """The reported case: ``--agents greedy ppo --games 6``, ppo winning all six."""
    played = [
        game("ppo", "greedy", 1.0, -1.0) if k % 2 else game("greedy", "ppo", -1.0, 1.0) for k in range(games)
    ]
    return TournamentResult("azacru", 2, ["greedy", "ppo"], 0, played)


def rows_of(table: str) -> dict[str, list[str]]:
    """Each agent's row of the markdown table, cell by cell, by the column heads."""
    lines = [line for line in table.splitlines() if line.startswith("|")]
    head = [cell.strip() for cell in lines[0].strip("|").split("|")]
    rows = [dict(zip(head, (cell.strip() for cell in line.strip("|").split("|")))) for line in lines[2:]]
    return {row["agent"]: row for row in rows}


def test_without_random_the_table_names_the_agent_it_anchors_and_no_interval_reads_certain():
    table = ppo_sweeps_greedy().table()
    header = table.splitlines()[0]
    assert "random = 0" not in table
    assert "greedy = 0 (random did not play)" in header
    rows = rows_of(table)
    assert rows["greedy"]["95% interval"] == "anchor"
    assert rows["ppo"]["95% interval"] == "unknown"
    assert "unknown: too few games" in table  # the table says why
    assert not re.search(r"([+-]\d+) to \1\b", table)  # no "+0 to +0", no "+446 to +446"


def test_with_random_the_table_anchors_at_random_and_shows_measured_intervals():
    rng = np.random.default_rng(0)
    played = []
    for a, b in [("random", "greedy"), ("greedy", "random")] * 15:
        greedy_wins = rng.random() < 0.8
        ra = -1.0 if greedy_wins == (a == "random") else 1.0
        played.append(game(a, b, ra, -ra))
    result = TournamentResult("azacru", 2, ["greedy", "random"], 0, played)
    table = result.table()
    assert "random = 0" in table.splitlines()[0] and "did not play" not in table
    rows = rows_of(table)
    assert rows["random"]["95% interval"] == "anchor" and rows["random"]["rating"] == "+0"
    low, high = re.fullmatch(r"([+-]\d+) to ([+-]\d+)", rows["greedy"]["95% interval"]).groups()
    assert int(low) < int(high)
    assert "unknown" not in table


def test_the_table_and_json_count_each_agents_draws(tmp_path):
    played = [
        game("random", "greedy", 0.0, 0.0),
        game("greedy", "random", 1.0, -1.0),
        game("greedy", "ppo", 0.0, 0.0),
        game("ppo", "greedy", 0.0, 0.0),
        game("ppo", "random", 1.0, -1.0),
    ]
    result = TournamentResult("azacru", 2, ["random", "greedy", "ppo"], 0, played)
    expected = {"random": 1, "greedy": 3, "ppo": 2}
    assert result.draws() == expected
    rows = rows_of(result.table())
    assert {name: int(row["draws"]) for name, row in rows.items()} == expected
    assert {name: int(row["games"]) for name, row in rows.items()} == {"random": 3, "greedy": 4, "ppo": 3}
    result.save(tmp_path / "t.json")
    data = json.loads((tmp_path / "t.json").read_text())
    assert {r["name"]: r["draws"] for r in data["ratings"]} == expected
    assert data["anchor"] == "random"


def test_a_shared_first_place_is_a_draw_for_the_sharers_only():
    """3 players: places reward 1, 0, -1; tied winners share 0.5 each."""
    played = [
        {"seats": ["a", "b", "c"], "rewards": [0.5, 0.5, -1.0]},  # a and b drew
        {"seats": ["c", "a", "b"], "rewards": [1.0, 0.0, 0.0]},  # c won; a and b tied for second
        {"seats": ["b", "c", "a"], "rewards": [0.0, 0.0, 0.0]},  # everybody drew
    ]
    assert TournamentResult("azacru", 3, ["a", "b", "c"], 0, played).draws() == {"a": 2, "b": 2, "c": 1}


def test_a_coop_crew_draws_only_when_it_ties_the_ocean():
    played = [
        {"seats": ["a", "b"], "rewards": [1.0, 1.0]},
        {"seats": ["b", "a"], "rewards": [-1.0, -1.0]},
        {"seats": ["a", "b"], "rewards": [0.0, 0.0]},
    ]
    assert TournamentResult("azimuth_coop", 2, ["a", "b"], 0, played).draws() == {"a": 1, "b": 1}


def markers_drawn(ax) -> set[tuple[float, float]]:
    """The points of every visible marker on ``ax`` (errorbar points included)."""
    drawn = set()
    for line in ax.get_lines():
        if (
            line.get_visible()
            and line.get_marker() not in ("None", "", None, " ")
            and line.get_markersize() > 0
        ):
            drawn |= {(round(float(x), 6), round(float(y), 6)) for x, y in line.get_xydata()}
    return drawn


@pytest.mark.parametrize("agents_first", [["greedy", "ppo"], ["ppo", "greedy"]])
def test_the_plot_marks_an_agent_whose_interval_has_no_width(agents_first):
    import matplotlib.pyplot as plt

    result = ppo_sweeps_greedy()
    result.agents = agents_first
    fig = result.figure()
    try:
        (ax,) = fig.axes
        ratings = result.ratings()[::-1]  # the plot's order, bottom up
        assert all(r.low == r.high for r in ratings)  # the case: both intervals zero wide
        for y, r in enumerate(ratings):
            assert (round(r.rating, 6), float(y)) in markers_drawn(ax), r.name
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert legend == ["anchor: 0 by definition", "interval unknown: too few games"]
        assert f"{agents_first[0]} = 0 (random did not play)" in ax.get_xlabel()
    finally:
        plt.close(fig)


def test_the_plot_draws_bars_for_measured_intervals_and_a_marker_for_the_anchor():
    import matplotlib.pyplot as plt

    played = [game("random", "greedy", -1.0, 1.0), game("greedy", "random", 1.0, -1.0)] * 3
    played += [game("random", "greedy", 1.0, -1.0), game("greedy", "random", 0.0, 0.0)]
    result = TournamentResult("azacru", 2, ["random", "greedy"], 0, played)
    fig = result.figure()
    try:
        (ax,) = fig.axes
        greedy, random = result.ratings()
        assert greedy.high - greedy.low > 1 and random.low == random.high == 0
        bars = [s for c in ax.collections for s in c.get_segments()]  # the errorbars' lines
        assert [(seg[0][0], seg[1][0]) for seg in bars] == [pytest.approx((greedy.low, greedy.high))]
        assert (0.0, 0.0) in markers_drawn(ax)  # random, at the bottom
        assert [t.get_text() for t in ax.get_legend().get_texts()] == ["anchor: 0 by definition"]
        assert "random = 0;" in ax.get_xlabel()
    finally:
        plt.close(fig)
