"""Smoke tests of the benchmark scripts: each runs end to end, writes its JSON
where ``--json PATH`` says, and leaves the committed results (the figures the
README quotes, replaced only with ``--save``) as they are. Speed itself is
never asserted in tests."""

import argparse
import json
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

import azgames

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
#: Each script and the committed file its ``--save`` replaces.
COMMITTED = {
    "aec_breakdown": "aec_breakdown.json",
    "az_networks": "az_networks.json",
    "az_search": "az_search.json",
    "az_strength": "az_strength.json",
    "azimuth_coop_agents": "azimuth_coop_agents.json",
    "azure_agents": "azure_agents.json",
    "cold_start": "cold_start.json",
    "cold_together": "cold_together.json",
    "compile_profile": "compile_profile.json",
    "connect_four": "connect_four.json",
    "connect_four_bench": "connect_four_bench.json",
    "contention": "contention.json",
    "learning_throughput": "learning_throughput.json",
    "mcts_speed": "mcts_speed.json",
    "mcts_strength": "mcts_strength.json",
    "ppo_strength": "ppo_strength.json",
    "rllib_learning": "rllib_learning.json",
    "rllib_throughput": "rllib_throughput.json",
    "selfplay_scaling": "selfplay_scaling.json",
    "step_rate": "step_rate.json",
}


def _snapshot() -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in RESULTS.rglob("*") if p.is_file()}


@pytest.fixture
def results_untouched():
    """Fails the test if it changed, added or removed a file under
    benchmarks/results/, and puts the committed files back if so."""
    before = _snapshot()
    yield
    after = _snapshot()
    for path in set(after) - set(before):
        path.unlink()
    for path, data in before.items():
        if after.get(path) != data:
            path.write_bytes(data)
    changed = sorted(
        str(p.relative_to(ROOT)) for p in set(before) | set(after) if before.get(p) != after.get(p)
    )
    assert not changed, f"a benchmark run without --save changed {changed}"


def _bench(name: str) -> dict:
    return runpy.run_path(str(ROOT / "benchmarks" / f"{name}.py"))


@pytest.mark.parametrize("name", sorted(COMMITTED))
def test_save_names_the_committed_file_and_a_quick_run_may_not_save(name, capsys, results_untouched):
    main = _bench(name)["main"]
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    helped = " ".join(capsys.readouterr().out.split())  # argparse wraps the help text
    assert f"--save replace benchmarks/results/{COMMITTED[name]}," in helped
    with pytest.raises(SystemExit) as stop:  # one destination or the other
        main(["--save", "--json", "elsewhere.json"])
    assert stop.value.code == 2 and "not allowed with argument" in capsys.readouterr().err
    if name != "rllib_learning":  # the one script with no --quick
        with pytest.raises(SystemExit) as stop:  # refused before anything is measured
            main(["--quick", "--save"])
        assert stop.value.code == 2
        assert (
            f"--save replaces benchmarks/results/{COMMITTED[name]}: a --quick run" in capsys.readouterr().err
        )


def test_results_file_writes_only_where_asked(tmp_path):
    results_file = runpy.run_path(str(ROOT / "benchmarks" / "results_file.py"))
    parser = argparse.ArgumentParser()
    committed = results_file["RESULTS"] / "example.json"
    results_file["add_arguments"](parser, committed)
    where = results_file["destination"]
    assert where(parser, parser.parse_args([]), committed) is None
    assert where(parser, parser.parse_args(["--json", "x.json"]), committed) == Path("x.json")
    assert where(parser, parser.parse_args(["--save"]), committed) == committed
    out = tmp_path / "new" / "r.json"
    results_file["write_json"](out, {"rows": [1]}, indent=2)
    assert json.loads(out.read_text()) == {"rows": [1], "versions": azgames.core.registry.versions()}
    assert out.read_text().endswith("\n")


def test_merged_rows_keep_what_another_run_wrote_meanwhile(tmp_path):
    """Two benchmark runs merging rows into one file at once: each reads the
    file as it writes, so neither drops the other's rows, and a re-measured
    row replaces its old one."""
    merge_row = runpy.run_path(str(ROOT / "benchmarks" / "results_file.py"))["merge_row"]
    out, key = tmp_path / "r.json", ("game", "opponent")
    merge_row(out, {"game": "azure", "opponent": "greedy", "wins": 1}, key)
    merge_row(out, {"game": "azimuth", "opponent": "greedy", "wins": 2}, key)  # the other run's
    merge_row(out, {"game": "azure", "opponent": "greedy", "wins": 3}, key, order=lambda r: r["game"])
    rows = json.loads(out.read_text())["rows"]
    assert [(r["game"], r["wins"]) for r in rows] == [("azimuth", 2), ("azure", 3)]


def test_step_rate_quick_run_writes_table_and_json(tmp_path, capsys, results_untouched):
    bench = _bench("step_rate")
    out = tmp_path / "rates.json"
    results = bench["main"](
        [
            "--quick",
            "--games",
            "azacru",
            "azure",
            "--players",
            "2",
            "3",
            "--json",
            str(out),
            "--relative-to",
            "azacru",
        ]
    )
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


def test_aec_breakdown_quick_run_writes_table_and_json(tmp_path, capsys, results_untouched):
    bench = _bench("aec_breakdown")
    out = tmp_path / "breakdown.json"
    results = bench["main"](["--quick", "--games", "azacru", "azure", "--json", str(out)])
    saved = json.loads(out.read_text())
    assert saved == json.loads(json.dumps(results))
    rows = {r["game"]: r for r in saved["rows"]}
    assert set(rows) == {"azacru", "azure"}
    for row in rows.values():
        assert row["actions_per_game"] > 0
        assert all(row[f"{part}_us"] > 0 for part in ("loop", "env", "kernel", "reset"))
    printed = capsys.readouterr()
    assert "| azure | 2 |" in printed.out
    assert "aec breakdown" in printed.err  # progress goes to stderr, the table stays alone on stdout


def test_azure_agents_quick_run_writes_table_and_json(tmp_path, capsys, results_untouched):
    out = tmp_path / "azure.json"
    assert (
        _bench("azure_agents")["main"](["--quick", "--pairings", "greedy hunters", "--json", str(out)]) == 0
    )
    saved = json.loads(out.read_text())
    assert saved["meta"]["games_per_row"] == 20
    [row] = saved["rows"]
    assert (row["players"], row["map"], row["pairing"], row["games"]) == (2, "standard", "greedy hunters", 20)
    assert row["wins"] + row["draws"] + row["losses"] == 20
    assert "2 standard greedy hunters" in capsys.readouterr().out


def test_learning_throughput_quick_run_writes_every_row(tmp_path, capsys, results_untouched):
    pytest.importorskip("sb3_contrib")
    bench = _bench("learning_throughput")
    out = tmp_path / "learning.json"
    assert bench["main"](["--quick", "--json", str(out)]) == 0
    saved = json.loads(out.read_text())
    rows = {r["row"]: r for r in saved["rows"]}
    assert "azgames train" in rows and "SB3 MaskablePPO on SB3VecEnv" in rows
    assert all(r["steps_per_s"] > 0 for r in rows.values())
    assert "| azgames train | " in capsys.readouterr().out


def test_ppo_strength_quick_run_scores_the_shipped_policies(tmp_path, capsys, results_untouched):
    bench = _bench("ppo_strength")
    out = tmp_path / "strength.json"
    assert bench["main"](["--quick", "--games", "azacru", "azimuth_coop", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [(r["game"], r["opponent"]) for r in rows] == [
        ("azacru", "random"),
        ("azacru", "greedy"),
        ("azimuth_coop", "Ocean Die"),
    ]
    for r in rows:
        assert r["games"] == 20 and r["wins"] + r["draws"] + r["losses"] == 20
        assert r["win_rate_lo"] <= r["win_rate"] <= r["win_rate_hi"]
    shown = capsys.readouterr()
    assert "| azacru | 2 | greedy | 20 |" in shown.out
    assert "20/20" in shown.err  # its progress counts games, not seeds


def test_mcts_speed_quick_run_writes_a_row_per_game(tmp_path, capsys, results_untouched):
    bench = _bench("mcts_speed")
    out = tmp_path / "mcts.json"
    assert bench["main"](["--quick", "--games", "azacru:2", "azure:2", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    ours = [r for r in rows if r["game"] != "connect_four"]
    assert [(r["game"], r["players"]) for r in ours] == [("azacru", 2), ("azure", 2)]
    assert all(r["sims_per_s"] > 0 and r["simulations"] == 1000 * r["searched_moves"] for r in ours)
    assert "| azacru 2p (ours, numba) |" in capsys.readouterr().out


def test_mcts_strength_quick_run_scores_a_match(tmp_path, capsys, results_untouched):
    bench = _bench("mcts_strength")
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


def test_rllib_benchmarks_quick_runs_write_their_json(tmp_path, capsys, results_untouched):
    pytest.importorskip("ray.rllib")
    throughput = _bench("rllib_throughput")
    out = tmp_path / "throughput.json"
    assert throughput["main"](["--quick", "--runners", "0", "--no-suite", "--json", str(out)]) == 0
    rows = {r["row"]: r for r in json.loads(out.read_text())["rows"]}
    assert rows["TurnBasedEnv alone (random legal actions)"]["env_steps_per_s"] > 0
    driver = rows["RLlib PPO, 0 env runners (sampling in the driver)"]
    assert driver["collection_env_steps_per_s"] > 0 and driver["training_env_steps_per_s"] > 0
    learning = _bench("rllib_learning")
    out = tmp_path / "learning.json"
    assert (
        learning["main"](
            ["--steps", "500", "--seeds", "0", "--games", "10", "--num-env-runners", "0", "--json", str(out)]
        )
        == 0
    )
    saved = json.loads(out.read_text())
    assert set(saved["summary"]) == {"random", "greedy"} and saved["runs"][0]["steps"] >= 500
    assert "mean win rate" in capsys.readouterr().out


def test_cold_start_quick_run_times_a_cold_and_a_warm_process(tmp_path, capsys, results_untouched):
    out = tmp_path / "cold.json"
    results = _bench("cold_start")["main"](["--quick", "--json", str(out)])
    assert json.loads(out.read_text())["rows"] == json.loads(json.dumps(results["rows"]))
    (row,) = results["rows"]
    assert (row["game"], row["stage"], row["runs"]) == ("azacru", "aec", 1)
    # The cold process compiles what the warm one loads from the cache.
    assert row["cold_s"] > row["warm_s"] > 0 and row["compile_s"] == row["cold_s"] - row["warm_s"]
    assert set(results["commands"]) == {"--help", "list", "play --help"}
    assert "| azacru | " in capsys.readouterr().out


def test_cold_together_quick_run_compiles_once_with_the_lock_and_in_each_process_without(
    tmp_path, capsys, results_untouched
):
    out = tmp_path / "together.json"
    results = _bench("cold_together")["main"](["--quick", "--json", str(out)])
    assert json.loads(out.read_text()) == json.loads(json.dumps(results))
    once, each = results["rows"]
    assert (once["game"], once["processes"], once["mode"]) == ("connect_four", 2, "one process compiles")
    assert each["mode"] == "every process compiles"
    assert once["cpu_s"] < each["cpu_s"]  # the second process compiled nothing
    assert "| connect_four | 2 | " in capsys.readouterr().out


def test_compile_profile_quick_run_names_the_kernels_that_compiled(tmp_path, capsys, results_untouched):
    out = tmp_path / "profile.json"
    results = _bench("compile_profile")["main"](["--quick", "--json", str(out)])
    assert json.loads(out.read_text())["games"] == json.loads(json.dumps(results["games"]))
    records = results["games"]["azacru"]
    functions = {r["function"] for r in records}
    assert "azgames.core.contract.step_one" in functions and {r["stage"] for r in records} == {"aec"}
    assert all(r["total_s"] >= r["self_s"] >= 0 for r in records)
    assert "| aec | `azgames.core.contract.step_one` |" in capsys.readouterr().out


def test_az_search_quick_run_times_the_search_and_its_network(tmp_path, capsys, results_untouched):
    pytest.importorskip("torch")
    out = tmp_path / "az.json"
    results = _bench("az_search")["main"](["--quick", "--json", str(out)])
    (row,) = json.loads(out.read_text())["rows"]
    assert (row["game"], row["games"], row["simulations"], row["moves"]) == ("azacru", 4, 4, 2)
    assert row["positions_per_s"] > 0 and 0 < row["network_share"] < 1
    assert results["rows"][0]["seconds"] == row["seconds"]
    assert "| azacru | 4 | 4 |" in capsys.readouterr().out


def test_az_strength_quick_run_scores_the_shipped_networks(tmp_path, capsys, results_untouched):
    out = tmp_path / "az.json"
    _bench("az_strength")["main"](["--quick", "--games", "azacru", "--players", "2", "--json", str(out)])
    (row,) = json.loads(out.read_text())["rows"]
    assert (row["game"], row["players"], row["simulations"], row["opponent"]) == ("azacru", 2, 4, "greedy")
    assert row["games"] == 6 == row["wins"] + row["draws"] + row["losses"]
    assert row["az_seconds_a_move"] > 0 and row["trained"]["command"].startswith("python -m azgames train")
    assert [s["seat"] for s in row["by_seat"]] == ["player_0", "player_1"]
    assert [sum(s[k] for s in row["by_seat"]) for k in ("wins", "draws", "losses")] == [
        row["wins"],
        row["draws"],
        row["losses"],
    ]
    shown = capsys.readouterr()
    assert "| azacru | 2 | 4 | greedy | 6 |" in shown.out
    assert "6/6" in shown.err  # its progress counts games, not seeds


def test_az_strength_plays_the_same_games_with_its_seeds_in_parallel(tmp_path, results_untouched):
    # Run as a script: the pool sends play_seed to its workers by module and
    # name, and runpy's stand-in module has no name they can import.
    small = ["--games", "azacru", "--players", "2", "--simulations", "4", "--opponents", "greedy"]
    small += ["--num-games", "4", "--seeds", "0", "1", "--timed", "1"]
    serial, pooled = tmp_path / "serial.json", tmp_path / "pooled.json"
    _bench("az_strength")["main"]([*small, "--json", str(serial)])
    script = ROOT / "benchmarks" / "az_strength.py"
    run = [sys.executable, str(script), *small, "--jobs", "2", "--json", str(pooled)]
    shown = subprocess.run(run, check=True, capture_output=True, text=True)
    assert "8/8" in shown.stderr  # the games ended in both processes, counted as they end
    (one,) = json.loads(serial.read_text())["rows"]
    (two,) = json.loads(pooled.read_text())["rows"]
    assert len(two["per_seed"]) == 2 and two["per_seed"] == one["per_seed"]
    assert two["games"] == 8 and (two["wins"], two["draws"]) == (one["wins"], one["draws"])


def test_az_networks_quick_run_fits_a_network_to_held_out_positions(tmp_path, capsys, results_untouched):
    pytest.importorskip("torch")
    out = tmp_path / "networks.json"
    results = _bench("az_networks")["main"](["--quick", "--json", str(out)])
    (row,) = results["rows"]
    assert results["positions"]["train"] > 0 and results["positions"]["held_out"] > 0
    assert row["network"] == "mlp 128x128" and 0 < row["policy_loss"] < 10 and row["value_loss"] >= 0
    assert json.loads(out.read_text())["rows"] == results["rows"]
    assert "| mlp 128x128 |" in capsys.readouterr().out


def test_connect_four_quick_run_writes_its_rows_beside_each_peer(tmp_path, capsys, results_untouched):
    out = tmp_path / "c4.json"
    assert _bench("connect_four")["main"](["--quick", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    peers = {(r["env"], r["num_envs"], r["peer"]) for r in rows}
    assert ("vector", 64, "hand-written bitboards") in peers and (
        "vector",
        64,
        "the same rules, no contract",
    ) in peers
    assert all(r["ours"] > 0 and r["theirs"] > 0 and r["ratio"] == r["ours"] / r["theirs"] for r in rows)
    assert "| vector | 64 |" in capsys.readouterr().out


def test_contention_quick_run_compares_the_defaults_with_one_thread(tmp_path, capsys, results_untouched):
    out = tmp_path / "contention.json"
    assert _bench("contention")["main"](["--quick", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [(r["busy"], r["num_envs"]) for r in rows] == [(0, 1), (1, 1)]  # quiet, then beside a busy process
    for r in rows:
        assert r["default"] > 0 and r["one_thread"] > 0 and r["ratio"] == r["default"] / r["one_thread"]


def test_connect_four_bench_quick_run_scores_a_runs_checkpoints_and_its_games(
    tmp_path, capsys, results_untouched
):
    pytest.importorskip("torch")
    from azgames.training.alphazero import Config, train

    run = tmp_path / "run"
    train(
        Config(
            "connect_four",
            steps=2048,
            num_envs=64,
            simulations=4,
            hidden=(16,),
            eval_every=1,
            eval_games=2,
            final_eval_games=2,
            eval_against=("random",),
            out=str(run),
            progress=False,
        )
    )
    out = tmp_path / "bench.json"
    # The run twice, scored side by side in two processes: the same rows twice.
    _bench("connect_four_bench")["main"]([str(run), str(run), "--quick", "--jobs", "2", "--json", str(out)])
    seed, again = json.loads(out.read_text())["seeds"]
    assert again == seed
    assert [c["checkpoint"] for c in seed["curve"]] == ["round_00001.npz", "round_00002.npz", "policy.npz"]
    assert all(c["shares"]["64"]["positions"] == 100 for c in seed["curve"])
    assert {(m["simulations"], m["depth"]) for m in seed["matches"]} == {
        (s, d) for s in (0, 64) for d in range(1, 8)
    }
    assert all(m["wins"] + m["draws"] + m["losses"] == 2 for m in seed["matches"])
    assert "| `az`@64 | 7 |" in capsys.readouterr().out


def test_selfplay_scaling_quick_run_times_self_play_and_the_learner(tmp_path, capsys, results_untouched):
    pytest.importorskip("torch")
    out = tmp_path / "scaling.json"
    _bench("selfplay_scaling")["main"](["--quick", "--json", str(out)])
    (row,) = json.loads(out.read_text())["rows"]
    assert (row["game"], row["backend"], row["device"], row["rounds"]) == ("connect_four", "suite", "cpu", 4)
    assert row["moves_per_s"] > 0 and 0 < row["learner_share"] < 1 and row["lag"] == 0
    assert "| connect_four | suite | cpu |" in capsys.readouterr().out
