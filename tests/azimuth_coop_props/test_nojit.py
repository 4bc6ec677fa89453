"""The co-op kernels as plain Python (``NUMBA_DISABLE_JIT=1``), as
``tests/test_nojit.py`` runs the other games: a few fast co-op tests in a
subprocess with the JIT disabled, and a seeded vector-env run (die rolls,
wave sub-phases, auto-resets) that must give bit-identical arrays both ways.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 300
HERE = "tests/azimuth_coop_props"

SMOKE = [
    f"{HERE}/test_playouts.py::test_vector_playout_smoke",
    f"{HERE}/test_equivalence.py::test_equivalence_smoke",
    f"{HERE}/test_reference.py::test_reference_examples",
    f"{HERE}/test_reference.py::test_die_matches_reference_smoke",
]


def run_without_jit(args: list[str]) -> subprocess.CompletedProcess:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=TIMEOUT)


def test_coop_smoke_tests_pass_without_jit():
    proc = run_without_jit(
        [sys.executable, "-m", "pytest", "-q", "-x", "-n", "0", "-p", "no:cacheprovider", *SMOKE]
    )
    assert proc.returncode == 0, (
        f"with NUMBA_DISABLE_JIT=1, the co-op smoke tests failed (exit {proc.returncode}):\n"
        f"{(proc.stdout + proc.stderr)[-6000:]}"
    )


_TRAJECTORY = """
import sys, numpy as np
from azgames.core.jit import JIT_DISABLED
from azimuth_env.coop import VectorEnv
num_players, steps, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
venv = VectorEnv(num_envs=6, seed=11, num_players=num_players, rounds=3, lighthouses="random")
obs, mask = venv.reset()
out = {"jit_disabled": np.array(JIT_DISABLED), "reset_obs": obs.copy(), "reset_mask": mask.copy()}
for t in range(steps):
    a = venv.random_actions()
    obs, mask, rewards, term, trunc, player = venv.step(a)
    for name, x in (("actions", a), ("obs", obs), ("mask", mask), ("rewards", rewards),
                    ("term", term), ("trunc", trunc), ("player", player),
                    ("rolled", venv.state.rolled), ("wave", venv.state.wave)):
        out[f"{name}{t}"] = np.array(x, copy=True)
for name, x in zip(venv.state._fields, venv.state):
    out["state_" + name] = x.copy()
np.savez(path, **out)
"""


def _trajectory(tmp_path, num_players, steps, jit: bool) -> dict:
    path = tmp_path / f"trajectory_{'jit' if jit else 'nojit'}.npz"
    args = [sys.executable, "-c", _TRAJECTORY, str(num_players), str(steps), str(path)]
    if jit:
        proc = subprocess.run(
            args,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            env={k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"},
        )
    else:
        proc = run_without_jit(args)
    assert proc.returncode == 0, proc.stderr[-4000:]
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


@pytest.mark.parametrize("num_players", [2, 4])
def test_plain_python_coop_kernels_match_the_jit(tmp_path, num_players):
    """Three-round games (random lighthouses) for 60 steps: every game ends
    and restarts at least once, rolling the die along the way."""
    jit = _trajectory(tmp_path, num_players, 60, jit=True)
    plain = _trajectory(tmp_path, num_players, 60, jit=False)
    assert not jit.pop("jit_disabled") and plain.pop("jit_disabled")
    assert jit.keys() == plain.keys()
    assert any(jit[f"term{t}"].any() for t in range(60)), "no game ended"
    assert any((jit[f"rolled{t}"] >= 0).any() for t in range(60)), "no die was rolled"
    differ = [k for k in jit if not np.array_equal(jit[k], plain[k])]
    kinds = sorted({k.rstrip("0123456789") for k in differ})
    assert differ == [], f"plain Python and numba disagree on {len(differ)} arrays: {kinds}"
