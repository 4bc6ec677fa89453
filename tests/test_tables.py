"""The docs' results tables come from the JSON in benchmarks/results/
(``benchmarks/tables.py``): every marked table in the README and docs/
is the table rendered afresh from the committed files, and each formatter
puts the JSON's own values in its cells."""

from __future__ import annotations

import copy
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load_tables():
    """benchmarks/tables.py by path: another installed ``benchmarks`` may shadow the folder."""
    spec = importlib.util.spec_from_file_location("benchmark_tables", ROOT / "benchmarks" / "tables.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tables = _load_tables()
PAGES = tables.pages()


def rows(table: str) -> list[list[str]]:
    """A rendered table's cells, header first, the separator left out."""
    lines = table.splitlines()
    assert set(lines[1]) == {"|", "-"}, lines[1]
    return [[c.strip() for c in line.strip("|").split("|")] for line in [lines[0], *lines[2:]]]


def column(table: str, name: str) -> list[str]:
    header, *body = rows(table)
    return [r[header.index(name)] for r in body]


# ---------------------------------------------------------------- the pages


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_marked_table_is_the_one_its_json_renders(page):
    """A stale table is fixed by ``python -m benchmarks.tables``; an unknown
    name raises ValueError here, naming the known ones."""
    _, stale = tables.refresh(page.read_text(), str(page.relative_to(ROOT)))
    assert stale == [], f"stale tables in {page.name}: {stale} (run python -m benchmarks.tables)"


@pytest.mark.parametrize("name", list(tables.TABLES))
def test_every_table_renders_from_the_committed_json(name):
    header, *body = rows(tables.render(name))
    assert body and all(len(r) == len(header) for r in body)


def test_every_table_appears_on_a_page():
    """A table the pages dropped would pass the freshness test vacuously."""
    shown = {name for page in PAGES for name in re.findall(r"<!-- table: *(\S+?) *-->", page.read_text())}
    assert set(tables.TABLES) <= shown, f"tables on no page: {sorted(set(tables.TABLES) - shown)}"
    assert "summary" in re.findall(r"<!-- table: *(\S+?) *-->", (ROOT / "README.md").read_text())


def test_every_ladder_folder_has_a_table():
    folders = {p.parent.name for p in (tables.RESULTS / "ladders").glob("*/tournament.json")}
    assert {f"ladder:{f}" for f in folders} <= set(tables.TABLES)


# ---------------------------------------------------------------- formatters


def test_number_formats():
    assert [tables.rate(x) for x in (999, 214_623.4, 3_815_256.1)] == ["999", "215k", "3.82M"]
    assert tables.count(18_985.4) == "18,985"
    assert tables.interval(0.80721, 0.87779) == "80.7-87.8%"
    assert [tables.times(x) for x in (0.87, 4.02, 61.04)] == ["0.9x", "4.0x", "61x"]
    assert tables.factor(11.76) == "11.8x"
    assert [tables.signed(x) for x in (914.1, -8.4, 0.0, -0.2)] == ["+914", "-8", "0", "0"]


def _ladder(method: str, ratings: list[dict]) -> dict:
    games = [
        {"seats": ["random", "mcts"], "rewards": [-1.0, 1.0]},
        {"seats": ["mcts", "random"], "rewards": [1.0, -1.0]},
        {"seats": ["random", "mcts"], "rewards": [0.0, 0.0]},
    ]
    return {
        "game": "azacru",
        "num_players": 2,
        "agents": ["random", "mcts"],
        "seed": 0,
        "method": method,
        "ratings": ratings,
        "games": games,
    }


def test_a_ladder_lists_its_agents_best_first_with_their_intervals():
    ratings = [
        {"name": "random", "rating": 0.0, "low": 0.0, "high": 0.0, "games": 3},
        {"name": "mcts", "rating": 301.6, "low": 120.2, "high": 560.5, "games": 3},
    ]
    header, best, anchor = rows(tables.ladder(_ladder("bradley-terry", ratings)))
    assert header == ["Azacru", "Elo", "95% interval", "games", "win rate"]
    assert best == ["mcts", "+302", "+120 to +560", "3", "66.7%"]  # 2 of 3 won; a draw is no win
    assert anchor == ["random", "0", "anchor", "3", "0.0%"]


def test_a_ladder_without_random_anchors_where_its_json_says_and_no_other_interval_reads_certain():
    ratings = [
        {"name": "greedy", "rating": 0.0, "low": 0.0, "high": 0.0, "games": 6},
        {"name": "az", "rating": 446.0, "low": 446.0, "high": 446.0, "games": 6},  # too few games
    ]
    games = [
        {"seats": ["greedy", "az"], "rewards": [-1.0, 1.0]},
        {"seats": ["az", "greedy"], "rewards": [1.0, -1.0]},
    ]
    data = _ladder("bradley-terry", ratings) | {
        "agents": ["greedy", "az"],
        "anchor": "greedy",
        "games": games,
    }
    _, best, anchor = rows(tables.ladder(data))
    assert best[:3] == ["az", "+446", "unknown"]
    assert anchor[:3] == ["greedy", "0", "anchor"]


def test_an_openskill_ladder_names_its_scale_and_gives_every_interval():
    ratings = [
        {"name": "mcts", "rating": 12.4, "low": 3.1, "high": 21.7, "games": 3},
        {"name": "random", "rating": 0.0, "low": -9.3, "high": 9.3, "games": 3},
    ]
    data = _ladder("openskill", ratings) | {"num_players": 3}
    header, _, anchor = rows(tables.ladder(data))
    assert header[:3] == ["Azacru, 3 players", "OpenSkill mu", "mu +- 2 sigma"]
    assert anchor[:3] == ["random", "0", "-9 to +9"]


def _ppo_row(game: str, players: int, opponent: str, trained: dict, **figures) -> dict:
    row = {"game": game, "players": players, "opponent": opponent, "games": 30, "wins": 20}
    row |= {"draws": 4, "losses": 6, "win_rate": 2 / 3, "win_rate_lo": 0.488, "win_rate_hi": 0.808}
    row |= {"decisive_win_rate": 20 / 26, "per_seed": [0.7, 0.6, 0.7], "seeds": [3, 4, 5]}
    return row | {"trained": trained} | figures


def test_the_ppo_table_sums_the_shipped_lineage_of_the_policy_it_scored():
    first = {"command": "a", "seed": 0, "seconds": 600.0, "steps": 1_000_000}
    last = {"command": "b", "seed": 1, "seconds": 1200.0, "steps": 2_500_000}
    other = {"command": "c", "seed": 2, "seconds": 60.0, "steps": 100_000}
    data = {
        "rows": [
            _ppo_row("azure", 2, "greedy", last),
            _ppo_row("azacru", 3, "random", other),
            _ppo_row("azure", 2, "random", last),
        ],
        "lineages": {"azure_2p": [first, last], "azacru_3p": [first]},
    }
    table = tables.ppo_strength(data)
    header, *body = rows(table)
    assert [(r[0], r[1], r[3]) for r in body] == [("azure", "2", "random"), ("azure", "2", "greedy")] + [
        ("azacru", "3", "random")
    ]
    # 30 minutes and 3.5M steps over the lineage; a lineage ending elsewhere is not this policy's.
    assert column(table, "trained") == ["30 min, 3.5M", "30 min, 3.5M", "1 min, 0.1M"]
    assert body[0][4:] == ["30", "66.7%", "48.8-80.8%", "4", "76.9%", "70.0 / 60.0 / 70.0%", "3, 4, 5"]


def test_the_mcts_table_gives_each_seeds_wins_of_its_games():
    row = _ppo_row("azacru", 2, "greedy", {}, policy="ppo", decisive_win_rate=None)
    row["per_seed"] = [{"wins": 7, "draws": 1, "losses": 2}, {"wins": 6, "draws": 2, "losses": 2}]
    uneven = row | {"per_seed": [{"wins": 7, "draws": 1, "losses": 2}, {"wins": 6, "draws": 0, "losses": 3}]}
    table = tables.mcts_strength({"rows": [row, uneven]})
    assert column(table, "wins per seed") == ["7 / 6 of 10", "7 of 10 / 6 of 9"]
    assert column(table, "policy") == ["ppo", "ppo"] and column(table, "decisive wins") == ["-", "-"]


def test_the_az_table_gives_the_decisive_wins_of_each_seat_az_held():
    import json

    committed = json.loads((ROOT / "benchmarks/results/az_strength.json").read_text())["rows"][0]
    monster = {"seat": "monster", "wins": 3, "draws": 1, "losses": 9}
    hunter = {"seat": "hunter_0", "wins": 0, "draws": 2, "losses": 0}
    split = committed | {"game": "a", "by_seat": [monster, hunter]}
    older = committed | {"game": "b", "by_seat": None}
    table = tables.az_strength({"rows": [split, older]})
    assert column(table, "decisive wins by seat") == ["monster 25.0% / hunter_0 -", "-"]


def test_the_coop_agents_table_sets_each_greedy_row_beside_its_random_team():
    def team(players, rounds, name, wins):
        per_seed = {"0": {"win_rate": wins / 20}, "1": {"win_rate": wins / 40}}
        return {"players": players, "rounds": rounds, "team": name, "games": 30, "wins": wins} | {
            "win_rate": wins / 30,
            "win_rate_95": [0.1, 0.5],
            "per_seed": per_seed,
            "mean_home": 2.345,
        }

    data = {"rows": [team(2, 20, "greedy", 9), team(3, 10, "greedy", 6), team(3, 10, "random", 1)]}
    header, short, long = rows(tables.azimuth_coop_agents(data))
    assert short == ["3", "10", "20.0%", "10.0-50.0%", "30.0 / 15.0%", "0, 1", "2.35", "1 of 30"]
    assert long[:3] == ["2", "20", "30.0%"] and long[-1] == "-"  # no random team measured


def test_step_rates_add_the_connect_four_references_of_the_same_run():
    game = {"game": "azacru", "num_players": 2, "aec_steps_per_s": 200_000, "aec_vs_connect_four": 10.0}
    game |= {"vector_steps_per_s": {"64": 1.5e6, "8": 9e5}}
    reference = {"pettingzoo_connect_four_v3_env": 20_000, "openspiel_connect_four": 150_000}
    table = tables.step_rate({"games": [game], "reference": reference})
    header, ours, pettingzoo, openspiel = rows(table)
    assert header[4:6] == ["vector N=8", "vector N=64"]  # sizes in order of N, not of the file
    assert ours == ["azacru", "2", "200k", "10.0x", "900k", "1.50M"]
    assert pettingzoo[2:4] == ["20k", "1.0x"] and openspiel[2:4] == ["150k", "7.5x"]
    no_reference = tables.step_rate({"games": [game], "reference": dict.fromkeys(reference)})
    assert len(rows(no_reference)) == 2


def test_the_summary_row_scores_each_game_against_greedy_or_the_ocean_die():
    def strength(game, opponent, win_rate, **more):
        return (
            {"game": game, "players": 2, "opponent": opponent, "win_rate": win_rate}
            | {
                "win_rate_lo": win_rate - 0.1,
                "win_rate_hi": win_rate + 0.1,
                "decisive_win_rate": win_rate + 0.05,
                "seeds": [0, 1],
            }
            | more
        )

    def rates(game, aec):
        return {"game": game, "num_players": 2, "aec_steps_per_s": aec, "vector_steps_per_s": {"64": 5e5}}

    data = {
        "step_rate": {"games": [rates("azacru", 2e5), rates("azacru", 1e5) | {"num_players": 3}]},
        "step_rate_azimuth_coop": {"games": [rates("azacru", 1.0), rates("azimuth_coop", 6e4)]},
        "ppo_strength": {
            "rows": [strength("azacru", "random", 0.9), strength("azacru", "greedy", 0.6)]
            + [strength("azimuth_coop", "Ocean Die", 0.2)]
        },
        "mcts_strength": {
            "rows": [
                strength("azacru", "greedy", 0.7, seeds=[0, 1, 2]),
                strength("azacru", "greedy", 0.8, policy="ppo"),
            ]
        },
        "az_strength": {
            "rows": [
                strength("azacru", "greedy", 0.9, simulations=64, seeds=[0, 1, 2]),
                strength("azacru", "greedy", 0.5, simulations=0),  # the network alone: not the agent
                strength("azacru", "mcts:simulations=1000", 0.4, simulations=64),
            ]
        },
    }
    header, azacru, coop = rows(tables.summary(data))
    assert header[4:6] == ["rates from", "opponent"]
    assert azacru[:6] == ["azacru", "2", "200k", "500k (N=64)", "`step_rate.json`", "greedy"]
    assert azacru[6:] == [
        "65.0%",
        "60.0% (50.0-70.0%)",
        "75.0%",
        "70.0% (60.0-80.0%)",
        "95.0%",
        "90.0% (80.0-100.0%)",
        "ppo 0, 1; mcts 0, 1, 2; az 0, 1, 2",
    ]
    assert coop[:6] == [
        "azimuth_coop",
        "2",
        "60k",
        "500k (N=64)",
        "`step_rate_azimuth_coop.json`",
        "Ocean Die",
    ]
    assert coop[6:] == ["25.0%", "20.0% (10.0-30.0%)", "-", "-", "-", "-", "0, 1"]


# ---------------------------------------------------------------- numbers come from the JSON


@pytest.mark.parametrize(
    "name, where, column_name, value, shown",
    [
        ("mcts_strength", ("rows", 1, "win_rate"), "wins", 0.1234, "12.3%"),
        ("step_rate", ("games", 2, "aec_steps_per_s"), "AEC steps/s", 1_234_567, "1.23M"),
        ("learning_throughput", ("rows", 0, "env_steps_per_s"), "env steps/s", 54_321, "54,321"),
        ("rllib_learning", ("summary", "greedy", "pooled_hi"), "pooled 95% interval", 0.5, "7.7-50.0%"),
    ],
)
def test_a_changed_json_value_changes_its_cell_only(name, where, column_name, value, shown):
    data = tables.SOURCES[name]()
    changed = copy.deepcopy(data)
    *path, key = where
    target = changed
    for step in path:
        target = target[step]
    target[key] = value
    before, after = rows(tables.TABLES[name](data)), rows(tables.TABLES[name](changed))
    diff = [(i, j) for i, r in enumerate(before) for j, cell in enumerate(r) if after[i][j] != cell]
    assert len(diff) == 1
    (i, j) = diff[0]
    assert before[0][j] == column_name and after[i][j] == shown


def test_a_changed_ladder_rating_reorders_the_ladder():
    data = tables.SOURCES["ladder:azacru_2p"]()
    order = [r[0] for r in rows(tables.ladder(data))[1:]]
    changed = copy.deepcopy(data)
    last = next(r for r in changed["ratings"] if r["name"] == order[-1])
    last |= {"rating": 5000.0, "low": 4900.0, "high": 5100.0}
    assert [r[0] for r in rows(tables.ladder(changed))[1:]] == [order[-1], *order[:-1]]


# ---------------------------------------------------------------- the command


def test_an_unknown_table_is_refused_with_the_known_names(tmp_path, capsys):
    with pytest.raises(ValueError, match="no table named 'nope'; the known tables: summary, step_rate"):
        tables.render("nope")
    page = tmp_path / "page.md"
    page.write_text("<!-- table: nope -->\n<!-- /table -->\n")
    with pytest.raises(SystemExit) as stop:
        tables.main([str(page)])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "'nope'" in err and "ladder:azacru_2p" in err


def test_an_unclosed_marker_is_an_error(tmp_path, capsys):
    page = tmp_path / "page.md"
    page.write_text("<!-- table: aec_breakdown -->\n<!-- table: mcts_speed -->\n<!-- /table -->\n")
    with pytest.raises(SystemExit):
        tables.main([str(page)])
    assert "'aec_breakdown' has no <!-- /table -->" in capsys.readouterr().err
    page.write_text("<!-- table: aec_breakdown -->\n<!-- /table -->\n<!-- table: mcts_speed -->\n")
    with pytest.raises(SystemExit):  # the last table left open
        tables.main([str(page)])
    assert "a table has no <!-- /table --> after it" in capsys.readouterr().err


def test_check_lists_stale_tables_and_a_rewrite_fills_them(tmp_path, capsys):
    fresh = tables.render("aec_breakdown")
    page = tmp_path / "page.md"
    text = (
        "Intro.\n\n<!-- table: mcts_speed --><!-- /table -->\n\nBetween.\n\n"
        f"<!-- table: aec_breakdown -->\n{fresh}\n<!-- /table -->\n\n"
        "<!-- table: rllib_learning -->\n| an old | table |\n<!-- /table -->\nEnd.\n"
    )
    page.write_text(text)
    assert tables.main(["--check", str(page)]) == 1
    out = capsys.readouterr().out
    assert f"stale {page}: mcts_speed" in out and f"stale {page}: rllib_learning" in out
    assert "aec_breakdown" not in out and page.read_text() == text  # --check writes nothing

    assert tables.main([str(page)]) == 0
    written = page.read_text()
    assert written.startswith("Intro.\n\n<!-- table: mcts_speed -->\n\n| search |") and written.endswith(
        "End.\n"
    )
    assert (
        f"<!-- table: rllib_learning -->\n\n{tables.render('rllib_learning')}\n\n<!-- /table -->" in written
    )
    assert tables.main(["--check", str(page)]) == 0


def test_the_az_records_count_self_play_apart_from_every_run_behind_the_weights():
    ppo = {"command": "python -m azgames train azure", "seconds": 600.0, "steps": 9_000_000}
    az = {"command": "python -m azgames train azure --algo alphazero", "seconds": 300.0, "steps": 400_000}
    record = {"lineage": [ppo, az, az], "machine": "x86_64, 2 cores", "command": az["command"]}
    header, row = rows(tables.az_records({"azure_2p": record}))
    assert dict(zip(header, row)) == {
        "game": "azure",
        "players": "2",
        "self-play moves": "800,000",
        "self-play minutes": "10",
        "all runs": "3",
        "minutes in all": "20",
        "machine": "x86_64, 2 cores",
        "last command": f"`{az['command']}`",
    }


def _az_row(game, players, simulations, opponent, wins, draws, losses, ms=(0.01, 0.02)):
    games = wins + draws + losses
    row = {"game": game, "players": players, "simulations": simulations, "opponent": opponent}
    row |= {"games": games, "wins": wins, "draws": draws, "losses": losses}
    row |= {
        "win_rate": wins / games,
        "win_rate_lo": 0.1,
        "win_rate_hi": 0.9,
        "decisive_win_rate": wins / (wins + losses),
    }
    return row | {"az_seconds_a_move": ms[0], "opponent_seconds_a_move": ms[1]}


def _targets(az_rows, ladders=None, minutes=(60.0,)):
    records = {f"azure_{n}p": {"lineage": [{"seconds": 60 * m}]} for n, m in enumerate(minutes, 2)}
    table = tables.az_targets(
        {"az_strength": {"rows": az_rows}, "ladders": ladders or {}, "records": records}
    )
    return {(r[0], r[1], r[2]): r[3:] for r in rows(table)[1:]}


def test_the_targets_table_meets_a_target_at_its_aim_and_not_below():
    mcts = tables.MCTS
    found = _targets(
        [
            _az_row("azacru", 2, 64, "greedy", wins=90, draws=5, losses=10),  # 90.0% of decisive games
            _az_row("azure", 2, 64, "greedy", wins=89, draws=0, losses=11),  # 89.0%
            _az_row("azacru", 2, 64, mcts, wins=55, draws=20, losses=45, ms=(0.005, 0.02)),
            _az_row("azure", 2, 64, mcts, wins=60, draws=0, losses=40, ms=(0.02, 0.01)),
            _az_row("azacru", 2, 0, "greedy", wins=50, draws=0, losses=50),  # a half is not over half
            _az_row("azimuth", 2, 64, "greedy", wins=60, draws=15, losses=25),  # 15% drawn
            _az_row("azimuth_coop", 3, 64, "Ocean Die", wins=39, draws=0, losses=61),
        ]
    )
    greedy, alone = "`az` against greedy, decisive games", "the network alone against greedy, decisive games"
    against_mcts, ms = f"`az` against `{tables.MCTS}`, decisive games", "ms a move, `az` / `mcts`"
    assert found[greedy, "Azacru", "2"] == ["90.0% (90 of 100, 82.6-94.5%)", "at least 90.0%", "yes"]
    assert found[greedy, "Azure Attack", "2"][2] == "no"
    assert (
        found[against_mcts, "Azacru", "2"][2] == "yes"
        and found[against_mcts, "Azure Attack", "2"][2] == "yes"
    )
    assert found[ms, "Azacru", "2"] == ["5.0 / 20.0", "`az` less", "yes"]
    assert found[ms, "Azure Attack", "2"][2] == "no"
    assert found[alone, "Azacru", "2"][2] == "no"
    assert found["games drawn against greedy", "Azimuth", "2"] == [
        "15.0% (15 of 100)",
        "at most 15.0%",
        "yes",
    ]
    crew = "games saved by an `az` crew"
    assert [found[crew, tables._title("azimuth_coop"), str(n)][2] for n in (2, 3)] == ["not measured", "no"]
    assert found[alone, "Azure Attack", "2"] == ["-", "over half", "not measured"]


def test_the_targets_table_puts_az_first_on_a_ladder_only_above_every_other_agent():
    def ladder(game, az):
        ratings = [{"name": "az", "rating": az, "low": az - 5, "high": az + 5, "games": 9}]
        ratings += [
            {"name": n, "rating": r, "low": r - 5, "high": r + 5, "games": 9}
            for n, r in (("mcts", 13.3), ("greedy", 8.0))
        ]
        return {"game": game, "num_players": 3, "ratings": ratings}

    found = _targets([], {"azimuth_3p": ladder("azimuth", 11.9), "azure_3p": ladder("azure", 13.4)})
    first = "first on the OpenSkill ladder"
    assert found[first, "Azimuth", "3"] == [
        "az +11.9 (+6.9 to +16.9); mcts +13.3 (+8.3 to +18.3)",
        "`az` first",
        "no",
    ]
    assert found[first, "Azure Attack", "3"][2] == "yes"
    without = ladder("azacru", 0.0) | {"num_players": 4}
    without["ratings"] = without["ratings"][1:]
    assert _targets([], {"azacru_4p": without})[first, "Azacru", "4"] == ["-", "`az` first", "not measured"]


def test_the_targets_table_holds_the_longest_training_to_three_hours():
    what = "minutes of training, the longest of any shipped network"
    assert _targets([], minutes=(170.0, 181.0))[what, "Azure Attack", "3"] == ["181", "at most 180", "no"]
    assert _targets([], minutes=(180.0, 20.0))[what, "Azure Attack", "2"] == ["180", "at most 180", "yes"]
