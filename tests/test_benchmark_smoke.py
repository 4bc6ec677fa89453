"""Smoke test of benchmarks/step_rate.py: it runs end to end and writes the
JSON the README table comes from. Speed itself is never asserted in tests."""

import json
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_step_rate_quick_run_writes_table_and_json(tmp_path, capsys):
    bench = runpy.run_path(str(ROOT / "benchmarks" / "step_rate.py"))
    out = tmp_path / "rates.json"
    results = bench["main"](["--quick", "--games", "azacru", "azure", "--players", "2", "3", "--json",
                             str(out), "--relative-to", "azacru"])
    saved = json.loads(out.read_text())
    assert saved == json.loads(json.dumps(results))
    rows = {(r["game"], r["num_players"]): r for r in saved["games"]}
    assert set(rows) == {("azacru", 2), ("azacru", 3), ("azure", 2), ("azure", 3)}
    for row in rows.values():
        assert row["aec_steps_per_s"] > 0
        assert set(row["vector_steps_per_s"]) == {"1", "64", "1024", "4096"}
        assert all(v > 0 for v in row["vector_steps_per_s"].values())
    # Azure's rates over Azacru's, measured side by side: one ratio per figure.
    assert "vs_azacru" not in rows["azacru", 2]
    assert set(rows["azure", 3]["vs_azacru"]) == {"aec", "1", "64", "1024", "4096"}
    assert all(v > 0 for v in rows["azure", 3]["vs_azacru"].values())
    printed = capsys.readouterr().out
    assert "| azacru | 2 |" in printed and "| azure | 3 |" in printed
    assert "| azure | 3 | azacru |" in printed


def test_compile_probe_reports_cold_and_warm_times():
    bench = runpy.run_path(str(ROOT / "benchmarks" / "step_rate.py"))
    times = bench["compile_times"]("azacru", 2)
    assert times["cold_s"] > 0 and times["warm_s"] > 0
    # The warm process loads the cache that the cold one wrote.
    assert times["warm_in_process_s"] < times["cold_in_process_s"]


def test_aec_breakdown_quick_run_writes_table_and_json(tmp_path, capsys):
    bench = runpy.run_path(str(ROOT / "benchmarks" / "aec_breakdown.py"))
    out = tmp_path / "breakdown.json"
    results = bench["main"](["--quick", "--games", "azacru", "azure", "--json", str(out)])
    saved = json.loads(out.read_text())
    assert saved == json.loads(json.dumps(results))
    rows = {r["game"]: r for r in saved["rows"]}
    assert set(rows) == {"azacru", "azure"}
    for row in rows.values():
        assert row["actions_per_game"] > 0
        assert all(row[f"{part}_us"] > 0 for part in ("loop", "env", "kernel", "reset"))
    assert "| azure | 2 |" in capsys.readouterr().out


def test_learning_throughput_quick_run_writes_every_row(tmp_path, capsys):
    pytest = __import__("pytest")
    pytest.importorskip("sb3_contrib")
    bench = runpy.run_path(str(ROOT / "benchmarks" / "learning_throughput.py"))
    out = tmp_path / "learning.json"
    assert bench["main"](["--quick", "--json", str(out)]) == 0
    saved = json.loads(out.read_text())
    rows = {r["row"]: r for r in saved["rows"]}
    assert "azgames train" in rows and "SB3 MaskablePPO on SB3VecEnv" in rows
    assert all(r["steps_per_s"] > 0 for r in rows.values())
    assert "| azgames train | " in capsys.readouterr().out


def test_ppo_strength_quick_run_scores_the_shipped_policies(tmp_path, capsys):
    bench = runpy.run_path(str(ROOT / "benchmarks" / "ppo_strength.py"))
    out = tmp_path / "strength.json"
    assert bench["main"](["--quick", "--games", "azacru", "azimuth_coop", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [(r["game"], r["opponent"]) for r in rows] == [("azacru", "random"), ("azacru", "greedy"),
                                                          ("azimuth_coop", "Ocean Die")]
    for r in rows:
        assert r["games"] == 20 and r["wins"] + r["draws"] + r["losses"] == 20
        assert r["win_rate_lo"] <= r["win_rate"] <= r["win_rate_hi"]
    assert "| azacru | 2 | greedy | 20 |" in capsys.readouterr().out


def test_mcts_speed_quick_run_writes_a_row_per_game(tmp_path, capsys):
    bench = runpy.run_path(str(ROOT / "benchmarks" / "mcts_speed.py"))
    out = tmp_path / "mcts.json"
    assert bench["main"](["--quick", "--games", "azacru:2", "azure:2", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    ours = [r for r in rows if r["game"] != "connect_four"]
    assert [(r["game"], r["players"]) for r in ours] == [("azacru", 2), ("azure", 2)]
    assert all(r["sims_per_s"] > 0 and r["simulations"] == 1000 * r["searched_moves"] for r in ours)
    assert "| azacru 2p (ours, numba) |" in capsys.readouterr().out


def test_mcts_strength_quick_run_scores_a_match(tmp_path, capsys):
    bench = runpy.run_path(str(ROOT / "benchmarks" / "mcts_strength.py"))
    out = tmp_path / "strength.json"
    kept = {"game": "azure", "players": 2, "opponent": "greedy", "simulations": 1000, "games": 402}
    stale = {"game": "azacru", "players": 2, "opponent": "greedy", "simulations": 50, "games": 1}
    out.write_text(json.dumps({"rows": [kept, stale]}))
    assert bench["main"](["--quick", "--games", "azacru", "--json", str(out)]) == 0
    row, other = json.loads(out.read_text())["rows"]  # the re-measured row replaced, the other kept
    assert other == kept
    assert row["games"] == 4 and row["wins"] + row["draws"] + row["losses"] == 4
    assert row["command"] == f"python benchmarks/mcts_strength.py --quick --games azacru --json {out}"
    assert "| azacru | 2 | - | greedy | 50 | 4 |" in capsys.readouterr().out


def test_rllib_benchmarks_quick_runs_write_their_json(tmp_path, capsys):
    pytest = __import__("pytest")
    pytest.importorskip("ray.rllib")
    throughput = runpy.run_path(str(ROOT / "benchmarks" / "rllib_throughput.py"))
    out = tmp_path / "throughput.json"
    assert throughput["main"](["--quick", "--runners", "0", "--no-suite", "--json", str(out)]) == 0
    rows = {r["row"]: r for r in json.loads(out.read_text())["rows"]}
    assert rows["TurnBasedEnv alone (random legal actions)"]["env_steps_per_s"] > 0
    driver = rows["RLlib PPO, 0 env runners (sampling in the driver)"]
    assert driver["collection_env_steps_per_s"] > 0 and driver["training_env_steps_per_s"] > 0
    learning = runpy.run_path(str(ROOT / "benchmarks" / "rllib_learning.py"))
    out = tmp_path / "learning.json"
    assert learning["main"](["--steps", "500", "--seeds", "0", "--games", "10", "--num-env-runners", "0",
                             "--json", str(out)]) == 0
    saved = json.loads(out.read_text())
    assert set(saved["summary"]) == {"random", "greedy"} and saved["runs"][0]["steps"] >= 500
    assert "mean win rate" in capsys.readouterr().out
