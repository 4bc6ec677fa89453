"""The core decides numba's team for every batched call (azgames/core/threads.py):
one thread for small batches and on busy cores, the caller's setting put
back after, idle threads asleep."""

from __future__ import annotations

import os

import numba
import pytest

from azgames.core import threads


@pytest.fixture
def running(monkeypatch):
    """Pretend the kernel reports this many running tasks (ours included)."""
    tasks = {"now": 1}
    monkeypatch.setattr(threads, "_running_tasks", lambda: tasks["now"])
    monkeypatch.setattr(threads, "_cores", lambda: 2)
    monkeypatch.setattr(threads, "_looked_at", -threads.LOOK_EVERY_S)
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 2)
    return tasks


def test_a_small_batch_runs_on_one_thread_even_on_idle_cores(running):
    assert threads.threads_for(1) == threads.threads_for(threads.PARALLEL_FROM - 1) == 1
    assert threads.threads_for(threads.PARALLEL_FROM) == 2


def test_a_large_batch_gets_no_thread_for_a_core_another_process_holds(running, monkeypatch):
    running["now"] = 2  # one busy process beside us
    assert threads.threads_for(4096) == 1
    running["now"] = 1
    assert threads.threads_for(4096) == 1  # the count is trusted for LOOK_EVERY_S
    monkeypatch.setattr(threads, "_looked_at", -threads.LOOK_EVERY_S)
    assert threads.threads_for(4096) == 2


def test_numba_num_threads_still_caps_the_team(running, monkeypatch):
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 1)
    assert threads.threads_for(4096) == 1


def test_with_threads_runs_the_kernel_on_the_chosen_team_and_puts_the_setting_back(running):
    before = numba.get_num_threads()
    seen = threads.with_threads(threads.PARALLEL_FROM - 1, numba.get_num_threads)
    assert seen == 1 and numba.get_num_threads() == before

    def fails():
        raise ValueError("a refused batch")

    with pytest.raises(ValueError):
        threads.with_threads(threads.PARALLEL_FROM - 1, fails)
    assert numba.get_num_threads() == before


def test_a_small_batch_runs_the_serial_kernel_and_leaves_the_team_alone(running):
    """The serial kernel's team would not matter, and setting it costs."""
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)

    def serial():
        return "serial", numba.get_num_threads()

    def parallel():
        return "parallel", numba.get_num_threads()

    everyone = numba.config.NUMBA_NUM_THREADS
    assert threads.run_batched(1, serial, parallel) == ("serial", everyone)
    assert threads.run_batched(threads.PARALLEL_FROM - 1, serial, parallel) == ("serial", everyone)
    assert threads.run_batched(threads.PARALLEL_FROM, serial, parallel) == ("parallel", 2)
    assert numba.get_num_threads() == everyone


def test_idle_threads_sleep_unless_the_user_said_otherwise():
    import subprocess
    import sys

    probe = "import os, azgames; print(os.environ.get('OMP_WAIT_POLICY'))"
    clean = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    said = subprocess.run(
        [sys.executable, "-c", probe], env=clean, capture_output=True, text=True, check=True
    )
    assert said.stdout.split()[-1] == "PASSIVE"
    mine = subprocess.run(
        [sys.executable, "-c", probe],
        env={**clean, "OMP_WAIT_POLICY": "ACTIVE"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert mine.stdout.split()[-1] == "ACTIVE"


def test_a_learners_torch_threads_survive_numbas_pool_starting():
    """numba's OpenMP pool, started by the first parallel kernel loaded,
    set the OpenMP team size that torch shares: ``torch.set_num_threads(1)``
    became 2 threads beside the env (and a resumed training run came out
    different from an unbroken one)."""
    import subprocess
    import sys

    pytest.importorskip("torch")
    probe = (
        "import torch; torch.set_num_threads(1); torch.get_num_threads()\n"
        "import azgames\n"
        "venv = azgames.make_vec('connect_four', num_envs=4096, seed=0); venv.reset()\n"
        "venv.step(venv.random_actions())\n"
        "import numba; print(numba.get_num_threads(), torch.get_num_threads())"
    )
    env = {**os.environ, "NUMBA_NUM_THREADS": "2"}  # a team of two even on one core
    said = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert said.stdout.split()[-2:] == ["2", "1"]
