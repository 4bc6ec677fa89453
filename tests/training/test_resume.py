"""A killed AlphaZero or PPO run goes on from its resume point (``train --resume``,
azgames/training/resume.py) and ends bit for bit as it would have: its
weights, its logs; bad resume points are one line of error, before any work."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import zipfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

import azgames.training.alphazero as alphazero  # noqa: E402
import azgames.training.ppo as ppo  # noqa: E402
from azgames import cli  # noqa: E402
from azgames.training import resume  # noqa: E402
from azgames.training.alphazero import Config, train  # noqa: E402
from azgames.training.config import PPOConfig  # noqa: E402

#: Everything that keeps a generator of its own or a state across rounds: a
#: teacher's rounds, random openings, a league of snapshots, a conv trunk.
#: Ten rounds of 8 Connect Four games x 4 moves.
FLAGS = [
    *("--num-envs 8 --num-steps 4 --simulations 4 --steps 320 --replay 100 --hidden 16 --conv 4x1").split(),
    *("--teacher-rounds 2 --teacher random --random-opening 3 --league 0.5").split(),
    *("--eval-every 4 --eval-games 4 --final-eval-games 4 --eval-against random").split(),
    *("--checkpoint-minutes 0 --torch-threads 1 -q").split(),
]


def config(out: Path) -> Config:
    from azgames.training.flags import config_from_flags

    cfg = config_from_flags(Config, FLAGS[:-1], game="connect_four", out=str(out), progress=False)
    return replace(cfg, snapshot_every=2)  # a league of snapshots within ten rounds


class Killed(Exception):
    pass


def killed_after(monkeypatch, count: int, trainer=alphazero) -> None:
    """The next run of ``trainer`` dies right after writing its ``count``-th resume point."""
    real = trainer.save_point
    written = []

    def save_then_die(*args, **kwargs):
        real(*args, **kwargs)
        written.append(1)
        if len(written) == count:
            raise Killed

    monkeypatch.setattr(trainer, "save_point", save_then_die)


def weights(folder: Path) -> dict[str, np.ndarray]:
    with np.load(folder / "policy.npz") as f:
        return {k: f[k] for k in f.files if k != "meta"}


def logged(folder: Path, name: str) -> list[list[str]]:
    """A log's rows without its clock's columns (seconds, rates), its
    losses to 6 digits: torch's float32 reductions may differ in the last
    bit with where their arrays lie in memory, the weights they step do not."""
    rows = [line.split(",") for line in (folder / name).read_text().splitlines()]
    timed = {i for i, h in enumerate(rows[0]) if "second" in h or "per_s" in h or "share" in h}
    losses = {i for i, h in enumerate(rows[0]) if h.endswith("_loss")}
    return [
        [f"{float(v):.6g}" if i in losses and k else v for i, v in enumerate(row) if i not in timed]
        for k, row in enumerate(rows)
    ]


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    """The run, never killed."""
    out = tmp_path_factory.mktemp("whole")
    train(config(out))
    assert not (out / resume.FILE).exists()  # a finished run has nothing to go on with
    return out


@pytest.mark.parametrize("kill_after", [1, 2, 5, 9])
def test_a_run_killed_after_any_round_resumes_to_the_same_weights_and_logs(
    whole, tmp_path, monkeypatch, kill_after
):
    """Round 1 and 2 are the teacher's, 5 follows an evaluation, 9 is the last but one."""
    cfg = config(tmp_path)
    killed_after(monkeypatch, kill_after)
    with pytest.raises(Killed):
        train(cfg)
    monkeypatch.undo()
    run, arrays = resume.load(tmp_path)
    assert run["rounds"] == kill_after
    record = train(cfg, point=(run, arrays))
    for name, w in weights(whole).items():
        assert np.array_equal(weights(tmp_path)[name], w), name
    assert logged(tmp_path, "train.csv") == logged(whole, "train.csv")
    assert logged(tmp_path, "eval.csv") == logged(whole, "eval.csv")
    assert record["resumed_at_rounds"] == [kill_after] and record["rounds"] == 10


def ppo_config(out: Path) -> PPOConfig:
    """Six PPO updates of 8 Azacru games against the whole league: greedy
    (a generator of its own, kept from update to update), random, the
    latest network and its snapshots."""
    return PPOConfig(
        "azacru",
        num_envs=8,
        num_steps=16,
        steps=6 * 8 * 16,
        hidden=(16,),
        snapshot_every=2,
        eval_every=3,
        eval_games=2,
        final_eval_games=2,
        eval_against=("random",),
        checkpoint_minutes=0,
        torch_threads=1,
        progress=False,
        out=str(out),
    )


@pytest.mark.parametrize("kill_after", [2, 4])
def test_a_ppo_run_killed_after_an_update_resumes_to_the_same_weights_and_logs(
    tmp_path, monkeypatch, kill_after
):
    whole = tmp_path / "whole"
    ppo.train(ppo_config(whole))
    killed_after(monkeypatch, kill_after, ppo)
    killed = tmp_path / "killed"
    with pytest.raises(Killed):
        ppo.train(ppo_config(killed))
    monkeypatch.undo()
    assert cli.main(["train", "--resume", str(killed), "-q"]) == 0
    for name, w in weights(whole).items():
        assert np.array_equal(weights(killed)[name], w), name
    assert logged(killed, "train.csv") == logged(whole, "train.csv")
    assert logged(killed, "eval.csv") == logged(whole, "eval.csv")


def written_rounds(out: Path) -> int:
    try:
        with zipfile.ZipFile(out / resume.FILE) as z:
            return json.loads(z.read("run.json"))["rounds"]
    except (OSError, KeyError, zipfile.BadZipFile):
        return 0


def test_a_process_killed_at_any_moment_resumes_from_the_command_line(tmp_path):
    """SIGKILL while it runs (in round 4, its evaluation or its resume
    point's write): ``train --resume`` ends on the unkilled run's weights."""
    out = tmp_path / "run"
    command = [sys.executable, "-m", "azgames", "train", "connect_four", "--algo", "alphazero", *FLAGS]
    proc = subprocess.Popen([*command, "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    began = time.monotonic()
    while written_rounds(out) < 3 and proc.poll() is None and time.monotonic() - began < 120:
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert written_rounds(out) >= 3, proc.stderr.read().decode()[-2000:]  # type: ignore[union-attr]
    assert cli.main(["train", "--resume", str(out), "-q"]) == 0
    # The command line's league snapshots at the config's default, every 25 rounds.
    train(replace(config(tmp_path / "same"), snapshot_every=Config.snapshot_every))
    for name, w in weights(tmp_path / "same").items():
        assert np.array_equal(weights(out)[name], w), name


def test_a_resume_point_is_replaced_whole_and_a_kill_mid_write_leaves_the_last_one(
    whole, tmp_path, monkeypatch
):
    cfg = config(tmp_path)
    killed_after(monkeypatch, 3)
    with pytest.raises(Killed):
        train(cfg)
    monkeypatch.undo()
    before = (tmp_path / resume.FILE).read_bytes()

    def dies_while_writing(folder, run, arrays):
        with open(folder / (resume.FILE + ".partial"), "wb") as f:
            f.write(b"PK\x03\x04 half a file")
        raise Killed

    monkeypatch.setattr(resume, "save", dies_while_writing)
    with pytest.raises(Killed):
        train(cfg, point=resume.load(tmp_path))
    assert (tmp_path / resume.FILE).read_bytes() == before
    assert resume.load(tmp_path)[0]["rounds"] == 3


def resume_error(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as stop:
        cli.main(["train", *argv])
    assert stop.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    return lines[-1]


@pytest.fixture()
def point(tmp_path, monkeypatch) -> Path:
    """A run killed after its second round."""
    killed_after(monkeypatch, 2)
    with pytest.raises(Killed):
        train(config(tmp_path))
    monkeypatch.undo()
    return tmp_path


def rewrite(folder: Path, change) -> None:
    """The resume point with its run.json changed by ``change``."""
    path = folder / resume.FILE
    with zipfile.ZipFile(path) as z:
        members = {name: z.read(name) for name in z.namelist()}
    run = json.loads(members["run.json"])
    change(run)
    members["run.json"] = json.dumps(run).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for name, data in members.items():
            z.writestr(name, data)


def data_offset(path: Path, member: str) -> int:
    """Where ``member``'s bytes begin in the zip at ``path``: after its local header."""
    with zipfile.ZipFile(path) as z:
        start = z.getinfo(member).header_offset
    header = path.read_bytes()[start : start + 30]
    return start + 30 + int.from_bytes(header[26:28], "little") + int.from_bytes(header[28:30], "little")


def test_bad_resume_points_are_one_line_naming_what_is_wrong(point, tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "no such folder" in resume_error(capsys, "--resume", str(tmp_path / "nowhere"))
    assert "no resume.npz there" in resume_error(capsys, "--resume", str(empty))
    assert "a run of connect_four, not azacru" in resume_error(capsys, "azacru", "--resume", str(point))
    assert "a run of 2 players, not 3" in resume_error(
        capsys, "connect_four", "-p", "3", "--resume", str(point)
    )
    assert "a run of --algo alphazero, not --algo ppo" in resume_error(
        capsys, "--algo", "ppo", "--resume", str(point)
    )
    assert "--simulations cannot change it" in resume_error(
        capsys, "--resume", str(point), "--simulations", "8"
    )
    data = (point / resume.FILE).read_bytes()
    replay_obs = data_offset(point / resume.FILE, "replay/obs.npy")

    (point / resume.FILE).write_bytes(data[: len(data) // 2])
    assert "resume.npz is truncated or corrupt" in resume_error(capsys, "--resume", str(point))
    flipped = bytearray(data)
    flipped[replay_obs + 500] ^= 0xFF  # its CRC no longer matches
    (point / resume.FILE).write_bytes(bytes(flipped))
    assert "truncated or corrupt" in resume_error(capsys, "--resume", str(point))
    (point / resume.FILE).write_bytes(data)

    rewrite(point, lambda run: run["config"].update(num_envs=16))
    assert "the array 'venv/" in resume_error(capsys, "--resume", str(point))  # its games are 8, not 16
    rewrite(point, lambda run: run["config"].update(num_envs=-1))
    assert "its config's num_envs: give a whole number" in resume_error(capsys, "--resume", str(point))
    rewrite(point, lambda run: run.update(version=99))
    assert "not a resume point of this version" in resume_error(capsys, "--resume", str(point))
    assert not (point / "policy.npz").exists()  # nothing ran


def test_a_finished_run_says_so_and_how_to_train_on(whole, capsys):
    assert "it finished" in resume_error(capsys, "--resume", str(whole))
