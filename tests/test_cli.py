"""The ``python -m azgames`` command line, run in a subprocess like a user would."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import azgames
from azgames import cli
from azgames.agents.policy import NumpyPolicy
from azgames.core.extras import missing

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "agents" / "policies"
BOARD_FOOTER = re.compile(r"^\s+a\s+b\s+c\s+d\s+e\s+f\s+g\s+h\s+i\s*$", re.M)
AZURE_FOOTER = re.compile(r"^\s+a\s+b\s+c\s+d\s+e\s+f\s*$", re.M)
RESULT = re.compile(r"^Result: (.*) after (\d+) turns \(scores: player_0 (\d+), player_1 (\d+)\)$")


def azgames_cli(*args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "azgames", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )


def test_list_names_azacru_with_players_and_action_space_sizes():
    run = azgames_cli("list")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("azacru: Azacru")
    assert "players: 2-4" in run.stdout
    assert "289 (2 players), 217 (3-4 players)" in run.stdout
    assert "agents: random, greedy" in run.stdout


def test_play_with_no_arguments_is_the_rendered_greedy_vs_random_demo():
    run = azgames_cli("play")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert lines[0] == "azacru: player_0 = greedy, player_1 = random (seed 0)"
    assert lines[1] == "(--legend explains the board's symbols)"  # the symbols are not left unexplained
    moves = [ln for ln in lines if re.match(r"^turn \d+: player_\d \((greedy|random)\) plays ", ln)]
    assert moves[0].startswith("turn 1: player_0 (greedy) plays ")
    assert moves[1].startswith("turn 2: player_1 (random) plays ")
    # One board before the first move and one after every turn (an Azacru turn is one move).
    assert len(BOARD_FOOTER.findall(run.stdout)) == len(moves) + 1
    assert "Azacru, game over after" in run.stdout
    result = RESULT.match(lines[-1])
    assert result, lines[-1]
    assert int(result.group(2)) == len(moves)
    p0, p1 = int(result.group(3)), int(result.group(4))
    if p0 != p1:
        winner = "player_0 (greedy)" if p0 > p1 else "player_1 (random)"
        assert result.group(1) == f"{winner} wins"
    # The same seed plays the same game.
    assert azgames_cli("play").stdout == run.stdout


def test_play_render_none_prints_moves_but_no_boards():
    run = azgames_cli("play", "--render", "none", "--seed", "3")
    assert run.returncode == 0, run.stderr
    assert not BOARD_FOOTER.search(run.stdout)
    assert run.stdout.strip().splitlines()[-1].startswith("Result: ")


def test_play_several_games_prints_the_match_table():
    run = azgames_cli("play", "azacru", "--games", "4", "--agents", "greedy", "random", "--seed", "1")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert lines[0].startswith("azacru, 2 players, 4 games")
    assert "win rate" in lines[1]
    rows = {ln.split()[0]: ln.split()[1:4] for ln in lines[2:]}
    assert set(rows) == {"greedy", "random"}
    for wins, draws, losses in rows.values():
        assert int(wins) + int(draws) + int(losses) == 4
    assert not BOARD_FOOTER.search(run.stdout)
    assert "4/4" in run.stderr  # the progress line goes to stderr


@pytest.mark.parametrize("games", ["1", "3"])
def test_record_writes_a_json_game_that_load_record_replays(tmp_path, games):
    path = tmp_path / "game.json"
    run = azgames_cli("play", "--games", games, "--record", str(path), "--quiet")
    assert run.returncode == 0, run.stderr
    assert str(path) in run.stdout
    env = azgames.load_record(path)
    assert env.terminations["player_0"]
    info = env.infos["player_0"]
    if games == "1":
        result = next(RESULT.match(ln) for ln in run.stdout.splitlines() if ln.startswith("Result: "))
        assert int(result.group(2)) == info["turns"]
        assert [int(result.group(3)), int(result.group(4))] == list(info["scores"].values())


def test_a_bad_agent_name_fails_and_lists_the_valid_agents():
    run = azgames_cli("play", "--agents", "greedy", "alphazero")
    assert run.returncode != 0
    assert "unknown agent 'alphazero'" in run.stderr
    assert "valid agents: random, greedy" in run.stderr


def test_a_bad_game_name_fails_and_lists_the_games():
    run = azgames_cli("play", "chess")
    assert run.returncode != 0
    assert "invalid choice: 'chess'" in run.stderr and "azacru" in run.stderr


def test_wrong_number_of_agents_is_explained(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["play", "--players", "3", "--agents", "greedy", "random"])
    assert exit_.value.code != 0
    assert "one agent per player (3)" in capsys.readouterr().err


def test_bench_hands_the_package_benchmark_every_remaining_argument(monkeypatch):
    import azgames.bench

    got = []
    monkeypatch.setattr(azgames.bench, "main", lambda argv: got.append(argv) or 0)
    assert cli.main(["bench", "--quick", "--players", "2"]) == 0
    assert cli.main(["bench", "--", "--help"]) == 0
    assert got == [["--quick", "--players", "2"], ["--help"]]


def test_every_game_option_is_offered_by_every_command_that_plays(capsys):
    for command in ("play", "train", "tournament"):
        with pytest.raises(SystemExit):
            cli.main([command, "--help"])
        shown = capsys.readouterr().out
        for entry in azgames.list_games():
            for option in azgames.core.registry.rules_type(entry.name).OPTIONS:
                assert f"--{option.name.replace('_', '-')}" in shown, (command, option.name)


def test_a_game_option_reaches_the_game_and_a_foreign_one_is_refused(capsys):
    assert (
        cli.main(
            ["play", "azimuth", "--players", "4", "--island", "true", "--max-turns", "6", "--render", "none"]
        )
        == 0
    )
    assert "Result: turn limit reached" in capsys.readouterr().out  # max_turns=6 reached the game
    with pytest.raises(SystemExit) as info:
        cli.main(["play", "azacru", "--island", "true"])
    assert info.value.code == 2
    assert "--island is an option of azimuth, not of azacru" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["play", "azimuth", "--island", "maybe"])
    assert "--island maybe: 'maybe' is not true or false" in capsys.readouterr().err


def test_play_azure_names_the_winning_side():
    run = azgames_cli("play", "azure", "--players", "3", "--render", "none", "--seed", "2")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert lines[0] == "azure: monster = greedy, hunter_0 = random, hunter_1 = random (seed 2)"
    assert lines[1].startswith("turn 1: hunter_0 (random) plays ")  # the hunters begin
    last = lines[-1]
    assert (
        re.match(
            r"^Result: (turn limit reached; )?(monster \(greedy\) wins|hunter_0 \(random\) and "
            r"hunter_1 \(random\) win|draw) ",
            last,
        )
        or "no winner" in last
    ), last
    assert "monster" in last and "hunter_1" in last  # the scores of every agent


def test_play_azimuth_coop_reports_the_teams_result():
    """A co-op game's agents win or lose together: the result line names the
    team's result, whoever's action ended the game."""
    run = azgames_cli(
        "play", "azimuth_coop", "--players", "2", "--agents", "random", "--render", "none", "--seed", "1"
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert lines[0] == "azimuth_coop: player_0 = random, player_1 = random (seed 1)"
    assert re.match(
        r"^Result: the team (wins|loses) after \d+ turns \(scores: player_0 \d, player_1 \d\)$", lines[-1]
    ), lines[-1]


def test_play_azure_on_a_users_map_file_with_drawn_roles(tmp_path):
    """``--map PATH`` plays a map of the user's own; ``--roles random`` draws
    the hunters' order; the record keeps the map itself, not its path."""
    path = tmp_path / "tiny.json"
    path.write_text('{"tiles": ["M # 1"], "homes": {"M": "a2", "1": "f1"}}')
    record = tmp_path / "game.json"
    run = cli.main(
        [
            "play",
            "azure",
            "--map",
            str(path),
            "--roles",
            "random",
            "--render",
            "none",
            "--record",
            str(record),
        ]
    )
    assert run == 0
    path.unlink()
    env = azgames.load_record(record)
    assert env.unwrapped.rules.options["roles"] == "random"
    assert env.unwrapped.rules.layout.num_squares == 12


@pytest.mark.parametrize(
    "args,named",
    [
        (["train", "azacru", "--players", "5"], "--players 5"),
        (["train", "azacru", "--steps", "0"], "--steps 0"),
        (["train", "azacru", "--learning-rate", "0"], "--learning-rate 0.0"),
        (
            ["train", "azacru", "--backend", "rllib", "--learning-rate", "0.1"],
            "--learning-rate is an option of the suite",
        ),
        (["train", "azacru", "--mix", "latest=1,foo=2"], "'foo'"),
        (["train", "azacru", "--mix", "random=-1"], "'random'"),
        (["train", "azimuth", "--league-greedy", "greedy:lookahed=1"], "--league-greedy greedy:lookahed=1"),
        (["train", "azacru", "--league-greedy", "gredy"], "'gredy'"),
        (
            ["train", "azacru", "--backend", "rllib", "--league-greedy", "greedy"],
            "--league-greedy is an option of the suite",
        ),
        (["train", "azacru", "--map", "ring"], "--map"),
        (["train", "azacru", "--minutes", "0"], "--minutes 0"),
        (["train", "azacru", "--init", "missing.npz"], "--init missing.npz"),
        (["train", "azacru", "--ladder", "missing.json"], "--ladder missing.json"),
        (["train", "azacru", "--ladder", "t.json", "--eval-every", "0"], "with --eval-every 0"),
        (["play", "azacru", "--players", "2", "--agents", "ppo", "nobody"], "'nobody'"),
        (["play", "azacru", "--agents", "ppo:path=missing.npz", "random"], "missing.npz"),
        (["play", "azacru", "--agents", "ppo:path=" + str(SHIPPED / "azure_2p.npz"), "random"], "azure"),
        (["play", "azacru", "--agents", "mcts:simulations", "random"], "key=value"),
        (["train", "azacru", "--backend", "rllib", "--mix", "random=1"], "--mix is an option of the suite"),
        (
            ["train", "azacru", "--backend", "rllib", "--num-envs", "8"],
            "--num-envs is an option of the suite",
        ),
        (["train", "azacru", "--num-env-runners", "4"], "--num-env-runners is an option of the rllib"),
        (["train", "azacru", "--address", "auto"], "--address is an option of the rllib"),
        (["train", "azacru", "--backend", "rllib", "--num-env-runners", "-1"], "--num-env-runners -1"),
        (
            ["train", "azacru", "--backend", "rllib", "--num-envs-per-env-runner", "0"],
            "--num-envs-per-env-runner 0",
        ),
        (["train", "azacru", "--backend", "rllib", "--players", "5"], "--players 5"),
        (["train", "azure", "--backend", "rllib", "--map", "nowhere"], "nowhere"),
        (
            ["train", "azacru", "--backend", "rllib", "--builtin-opponents", "random", "alphazero"],
            "'alphazero'",
        ),
        (
            ["train", "azacru", "--builtin-opponents", "random"],
            "--builtin-opponents is an option of the rllib",
        ),
        (["train", "azacru", "--algo", "alphazero", "--mix", "latest=1"], "--mix is an option of --algo ppo"),
        (["train", "azacru", "--simulations", "4"], "--simulations is an option of --algo alphazero"),
        (["train", "azacru", "--algo", "alphazero", "--simulations", "0"], "--simulations 0"),
        (["train", "azacru", "--algo", "alphazero", "--replay", "0"], "--replay 0"),
        (["train", "azacru", "--backend", "rllib", "--algo", "alphazero"], "--algo alphazero"),
        (["train", "azacru", "--algo", "alphazer"], "alphazer"),
        (["train", "azacru", "--hidden", "0"], "--hidden 0"),
        (["train", "azacru", "--algo", "alphazero", "--hidden", "9999"], "--hidden 9999"),
        (["train", "azacru", "--hidden", *["8"] * 9], "--hidden 8 8 8"),
        (
            ["train", "azacru", "--hidden", "64", "--init", "agents/policies/azacru_2p.npz"],
            "--hidden with --init",
        ),
        (["train", "azacru", "--backend", "rllib", "--hidden", "64"], "--hidden is an option of the suite"),
    ],
)
def test_train_refuses_bad_arguments_in_one_line(args, named, capsys):
    extra = ("rllib" if "rllib" in args else "train") if args[0] == "train" else None
    if extra and missing(extra):  # then train names the missing extra first (tests/test_extras.py)
        pytest.skip(f"the {extra} extra is not installed")
    with pytest.raises(SystemExit) as stop:
        cli.main(args)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and named in err[0]


def test_train_from_the_command_line_writes_the_policy_and_its_record(tmp_path):
    if missing("train"):
        pytest.skip("the train extra is not installed")
    out = tmp_path / "run"
    done = azgames_cli(
        "train",
        "azacru",
        "--steps",
        "256",
        "--num-envs",
        "16",
        "--num-steps",
        "8",
        "--eval-games",
        "4",
        "--final-eval-games",
        "4",
        "--seed",
        "3",
        "--hidden",
        "32",
        "--out",
        str(out),
        "--quiet",
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "trained 256 learner steps" in done.stdout
    for name in ("policy.npz", "policy.json", "train.csv", "eval.csv", "curve.png"):
        assert (out / name).is_file()
    assert NumpyPolicy.load(out / "policy.npz").meta["hidden"] == [32]
    assert '"command": "python -m azgames train azacru --steps 256' in (out / "policy.json").read_text()


def test_train_alphazero_from_the_command_line_writes_a_network_the_az_agent_plays(tmp_path):
    if missing("train"):
        pytest.skip("the train extra is not installed")
    out = tmp_path / "run"
    args = "--steps 320 --num-envs 4 --num-steps 40 --simulations 2 --hidden 24 8".split()
    args += ["--eval-games", "2", "--final-eval-games", "2", "--eval-against", "random", "--out", str(out)]
    done = azgames_cli("train", "azacru", "--algo", "alphazero", *args, "--quiet", timeout=600)
    assert done.returncode == 0, done.stderr
    assert "trained 320 moves of self-play" in done.stdout
    for name in ("policy.npz", "policy.json", "train.csv", "eval.csv", "curve.png"):
        assert (out / name).is_file()
    assert NumpyPolicy.load(out / "policy.npz").meta["hidden"] == [24, 8]
    played = azgames_cli(
        "play", "azacru", "--agents", f"az:path={out / 'policy.npz'},simulations=2", "random", "--seed", "1"
    )
    assert played.returncode == 0, played.stderr
    assert "Result:" in played.stdout


def test_train_with_eval_every_0_evaluates_once_at_the_end_and_says_how_it_rounded_the_steps(tmp_path):
    """The reported run, small: --steps not a multiple of an update's 16 x 8
    steps is rounded up, and the summary says so; --eval-every 0 plays the
    final evaluation alone."""
    if missing("train"):
        pytest.skip("the train extra is not installed")
    out = tmp_path / "run"
    args = "--steps 200 --num-envs 16 --num-steps 8 --hidden 16 --eval-every 0 --final-eval-games 4".split()
    done = azgames_cli("train", "azacru", *args, "--out", str(out), "--quiet", timeout=600)
    assert done.returncode == 0, done.stderr
    summary = done.stdout.splitlines()[0]
    assert summary.startswith(
        "trained 256 learner steps (--steps 200 rounded up to whole updates of 16 games x 8 steps) in "
    )
    assert "over 4 games" in summary
    assert not re.search(r"^update \d+, ", done.stdout, re.M)  # no evaluation along the way
    assert not (out / "eval.csv").exists() and not (out / "checkpoints").exists()


def test_trains_summary_leaves_compiling_and_evaluations_out_of_the_rate():
    from azgames.training.cli import trained
    from azgames.training.config import AlphaZeroConfig

    cfg = AlphaZeroConfig("azacru", steps=3200, num_envs=64, num_steps=16)
    record = {
        "steps": 4096,
        "seconds": 54.6,
        "compile_seconds": 38.2,
        "evaluation_seconds": 12.0,
        "training_steps_per_s": 932,
    }
    assert trained("alphazero", cfg, record) == (
        "trained 4,096 moves of self-play (--steps 3,200 rounded up to whole rounds of 64 games x 16 "
        "moves) in 55 s (932 steps/s, not counting 38 s of numba compiling and 12 s of evaluations)"
    )
    cfg.steps = 4096
    record |= {"compile_seconds": 0.0, "evaluation_seconds": 0.3}
    assert trained("alphazero", cfg, record) == "trained 4,096 moves of self-play in 55 s (932 steps/s)"


def test_play_prints_one_line_and_one_board_per_turn(tmp_path, capsys):
    """An Azure Attack turn is several steps (each square, then stop): one
    line names them all, and one board follows the turn."""
    record = tmp_path / "game.json"
    assert (
        cli.main(["play", "azure", "--agents", "greedy", "random", "--seed", "0", "--record", str(record)])
        == 0
    )
    printed = capsys.readouterr().out
    turns = re.findall(r"^turn (\d+): (monster|hunter_0) \((greedy|random)\) plays (.+)$", printed, re.M)
    played = int(re.search(r"^Result: .* after (\d+) turns", printed, re.M).group(1))
    assert [int(t[0]) for t in turns] == list(range(1, played + 1))
    assert all((agent == "monster") == (label == "greedy") for _, agent, label, _ in turns)
    assert len(AZURE_FOOTER.findall(printed)) == len(turns) + 1  # and the start
    moves = [m for t in turns for m in t[3].split()]
    assert moves == json.loads(record.read_text())["moves"]
    assert len(moves) > len(turns)


def test_every_step_prints_a_line_and_a_board_per_step(tmp_path, capsys):
    record = tmp_path / "game.json"
    assert (
        cli.main(
            [
                "play",
                "azure",
                "--agents",
                "greedy",
                "random",
                "--seed",
                "0",
                "--every-step",
                "--record",
                str(record),
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    steps = re.findall(
        r"^action (\d+): (?:monster|hunter_0) \((?:greedy|random)\) plays (\S+)$", printed, re.M
    )
    moves = json.loads(record.read_text())["moves"]
    assert steps == [(str(n), m) for n, m in enumerate(moves, 1)]
    assert len(AZURE_FOOTER.findall(printed)) == len(moves) + 1


def test_legend_is_printed_once_before_the_first_board(capsys):
    legend = azgames.make("azacru").unwrapped.rules.legend()
    assert cli.main(["play", "--legend", "--agents", "random"]) == 0
    printed = capsys.readouterr().out
    assert printed.count(legend) == 1
    assert printed.index(legend) < BOARD_FOOTER.search(printed).start()
    assert "--legend explains" not in printed  # no hint when the key is there
    assert cli.main(["play", "--agents", "random"]) == 0
    assert legend not in capsys.readouterr().out


def test_a_human_seat_reads_its_moves_from_stdin(tmp_path, capsys, monkeypatch):
    """The human's line (a beginning of a move), greedy's reply, and the end of
    the input: the game stops cleanly, and its record keeps the two moves."""
    monkeypatch.setattr("sys.stdin", io.StringIO("e1-e2\n"))
    record = tmp_path / "game.json"
    assert cli.main(["play", "azacru", "--agents", "human", "greedy", "--record", str(record)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("azacru: player_0 = human, player_1 = greedy (seed 0)")
    assert "turn 1: player_0 (human) plays e1-e2:N" in printed
    assert "player_0 stopped the game (end of input) after 2 turns, before its end" in printed
    assert "Result:" not in printed
    assert len(azgames.load_record(record).unwrapped.to_record()["moves"]) == 2


def test_a_human_seat_plays_a_single_game_only(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["play", "--agents", "human", "random", "--games", "3"])
    assert stop.value.code == 2
    assert "--games 3: a human seat (human) plays a single game" in capsys.readouterr().err


def test_bench_leaves_the_committed_results_alone(capsys):
    """A bench run writes no file unless asked (--json PATH; benchmarks/step_rate.py
    --save for a full run): the committed figures of the README's table stay as they are."""
    committed = ROOT / "benchmarks" / "results" / "step_rate.json"
    before = committed.read_bytes()
    try:
        assert cli.main(["bench", "--quick", "--games", "azacru", "--players", "2"]) == 0
        printed = capsys.readouterr().out
        assert "| azacru | 2 |" in printed and "wrote" not in printed
        assert "smoke run (--quick)" in printed and " 0k" not in printed  # labelled, no "0k" rates
        with pytest.raises(SystemExit) as stop:  # --save is the source checkout's script's
            cli.main(["bench", "--quick", "--save", "--games", "azacru", "--players", "2"])
        assert stop.value.code == 2 and "unrecognized arguments: --save" in capsys.readouterr().err
        after = committed.read_bytes()
    finally:  # a regression must not leave the working copy changed
        if committed.read_bytes() != before:
            committed.write_bytes(before)
    assert after == before


def test_train_force_clears_the_old_runs_checkpoints_and_resume_point(tmp_path):
    """A run written over another with --force leaves none of its
    checkpoints or its resume point, which a bench or --resume would take
    for the new run's; without --force, a folder holding them is refused."""
    import argparse

    from azgames.training.cli import run_folder

    old = tmp_path / "run"
    (old / "checkpoints").mkdir(parents=True)
    (old / "checkpoints" / "round_00564.npz").write_bytes(b"old")
    (old / "resume.npz").write_bytes(b"old")
    parser = argparse.ArgumentParser(prog="azgames train")
    args = argparse.Namespace(
        out=str(old), force=False, backend="suite", algo="alphazero", game="connect_four"
    )
    with pytest.raises(SystemExit):
        run_folder(parser, args, 0)
    assert (old / "resume.npz").exists()
    args.force = True
    assert run_folder(parser, args, 0) == str(old)
    assert sorted(p.name for p in old.iterdir()) == []
