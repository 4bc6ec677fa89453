"""AlphaZero with its self-play on Ray (azgames/training/alphazero_ray.py):
two actors on a local Ray feed one learner; a run killed resumes from its
last resume point and its curve goes on; bad Ray input is one line."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
ray = pytest.importorskip("ray")

import azgames.training.alphazero as alphazero  # noqa: E402
from azgames import cli  # noqa: E402
from azgames.agents.policy import NumpyPolicy  # noqa: E402
from azgames.training import alphazero_ray, resume  # noqa: E402
from azgames.training.config import AlphaZeroRayConfig  # noqa: E402

#: Twelve rounds of 8 Connect Four games x 4 moves, in two actors.
ROUNDS = 12
#: A run of the command line: four rounds of 4 games x 4 moves.
TINY = [
    *"connect_four --algo alphazero --backend ray --num-envs 4 --num-steps 4 --simulations 4".split(),
    *"--steps 64 --hidden 8 --eval-every 0 --final-eval-games 2 --eval-against random -q".split(),
]


def config(out: Path) -> AlphaZeroRayConfig:
    return AlphaZeroRayConfig(
        "connect_four",
        actors=2,
        num_envs=8,
        num_steps=4,
        simulations=4,
        steps=ROUNDS * 8 * 4,
        hidden=(16,),
        league=0.5,
        snapshot_every=2,
        eval_every=6,
        eval_games=2,
        final_eval_games=2,
        eval_against=("random",),
        checkpoint_minutes=0,
        torch_threads=1,
        progress=False,
        out=str(out),
    )


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


class Killed(Exception):
    pass


def rows(folder: Path) -> list[dict]:
    with (folder / "train.csv").open(newline="") as f:
        return list(csv.DictReader(f))


def test_two_actors_feed_the_learner_and_a_killed_run_goes_on_from_its_resume_point(
    local_ray, tmp_path, monkeypatch, capsys
):
    """A resume point is due after every round, so each waits for both
    actors: killed after its 2nd (round 4), the run resumes there from the
    command line (its resume point names its backend) with new actors, each
    one's games and generators as they were, and ends after its 12 rounds;
    its log goes on from round 5."""
    real, written = alphazero.save_point, []

    def save_then_die(*args, **kwargs):
        real(*args, **kwargs)
        written.append(1)
        if len(written) == 2:
            raise Killed

    monkeypatch.setattr(alphazero, "save_point", save_then_die)
    with pytest.raises(Killed):
        alphazero_ray.train(config(tmp_path))
    monkeypatch.undo()
    run, arrays = resume.load(tmp_path)
    assert run["backend"] == "ray" and run["rounds"] == 4 and len(run["actors"]) == 2
    # Each actor plays games of its own: their streams differ.
    assert not np.array_equal(arrays["actor/0/venv/state/rng"], arrays["actor/1/venv/state/rng"])

    assert cli.main(["train", "--resume", str(tmp_path), "-q"]) == 0
    assert "going on with" in capsys.readouterr().out
    record = json.loads((tmp_path / "policy.json").read_text())
    log = rows(tmp_path)
    assert [int(r["round"]) for r in log] == list(range(1, ROUNDS + 1))
    assert record["resumed_at_rounds"] == [4] and record["rounds"] == ROUNDS
    assert int(log[-1]["steps"]) == record["steps"] >= ROUNDS * 8 * 4
    # A round is played with weights at most (actors - 1) versions behind; a
    # resume point is written with every actor waiting, so none is then.
    assert {int(r["lag"]) for r in log} <= {0, 1}
    assert sum(int(r["updates"]) for r in log) == record["updates"] > 0
    assert not (tmp_path / resume.FILE).exists()
    policy = NumpyPolicy.load(tmp_path / "policy.npz")
    assert policy.meta["game"] == "connect_four" and policy.meta["algorithm"] == "alphazero"


def error(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as stop:
        cli.main(["train", *argv])
    assert stop.value.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


@pytest.mark.parametrize(
    "argv, said",
    [
        (
            ["connect_four", "--algo", "alphazero", "--backend", "ray", "--actors", "0"],
            "--actors 0: give a whole number from 1",
        ),
        (
            ["connect_four", "--backend", "ray"],
            "--backend ray runs the suite's AlphaZero: give --algo alphazero",
        ),
        (
            ["connect_four", "--algo", "alphazero", "--actors", "2"],
            "--actors is an option of --backend ray, not of --algo alphazero",
        ),
        (
            ["connect_four", "--algo", "alphazero", "--backend", "ray", "--address", "nowhere"],
            "--address nowhere: give auto, HOST:PORT",
        ),
        (
            ["connect_four", "--algo", "alphazero", "--backend", "ray", "--address", "127.0.0.1:9"],
            "--address 127.0.0.1:9: nothing answers there",
        ),
    ],
)
def test_bad_ray_input_is_one_line_before_any_work(capsys, tmp_path, argv, said):
    assert said in error(capsys, *argv, "--eval-against", "random", "--out", str(tmp_path / "run"))
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
def test_a_run_joins_a_cluster_at_its_address(tmp_path):
    """A head node started by ``ray start`` (its own processes, without token
    authentication), joined by ``--address``; more actors than its CPUs are refused."""
    import os
    import subprocess

    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    subprocess.run(
        ["ray", "start", "--head", "--port", "6391", "--num-cpus", "2"],
        check=True,
        env=env,
        capture_output=True,
    )
    try:
        argv = [sys.executable, "-m", "azgames", "train", *TINY, "--address", "127.0.0.1:6391"]
        done = subprocess.run(
            [*argv, "--out", str(tmp_path / "run")], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert NumpyPolicy.load(tmp_path / "run" / "policy.npz").meta["game"] == "connect_four"
        refused = subprocess.run(
            [*argv, "--actors", "3", "--out", str(tmp_path / "x")],
            env=env,
            capture_output=True,
            text=True,
        )
        assert refused.returncode == 2 and "has 2 CPUs, one an actor" in refused.stderr
    finally:
        subprocess.run(["ray", "stop", "--force"], env=env, capture_output=True)
