"""The kernels as plain Python (``NUMBA_DISABLE_JIT=1``).

The coverage run and one CI step execute every kernel as ordinary Python, so
the kernels must stay valid Python *with the same results*: numpy scalars
do not promote like numba's integers (an ``int8`` times an ``int`` stays
``int8`` in numpy and wraps around). Each test runs a few fast tests in a
subprocess with the JIT disabled, and one compares a whole vector-env
trajectory computed both ways.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 240

#: Fast tests worth running as plain Python (paths relative to the repository).
TARGETS = {
    "playout-smoke": [
        "tests/azacru_props/test_playouts.py::test_vector_playout_smoke",
        "tests/azure_props/test_playouts.py::test_vector_playout_smoke",
    ],
    "equivalence-smoke": [
        "tests/azacru_props/test_equivalence.py::test_equivalence_smoke",
        "tests/azure_props/test_equivalence.py::test_equivalence_smoke",
    ],
    "golden-2p": [
        "tests/test_golden.py::test_golden_playthrough[azacru_2p]",
        "tests/test_golden.py::test_golden_playthrough[azimuth_2p]",
        "tests/test_golden.py::test_golden_playthrough[azure_2p]",
    ],
    "conformance-2p": [
        "tests/test_conformance.py::test_illegal_action_raises_with_notation_and_reason[azacru-2p]",
        "tests/test_conformance.py::test_record_round_trip[azacru-3p]",
        "tests/test_conformance.py::test_illegal_action_raises_with_notation_and_reason[azimuth-4p]",
        "tests/test_conformance.py::test_record_round_trip[azimuth-3p]",
        "tests/test_conformance.py::test_illegal_action_raises_with_notation_and_reason[azure-4p-ring]",
        "tests/test_conformance.py::test_record_round_trip[azure-3p-standard-random-roles]",
        "tests/test_chance.py",
    ],
    "mcts-reference": [
        "tests/search/test_mcts.py::test_the_numba_search_builds_the_plain_python_searchs_tree[azacru--1-0]",
        "tests/search/test_mcts.py::test_the_numba_search_builds_the_plain_python_searchs_tree[azure--1-0]",
        "tests/search/test_mcts.py::test_the_numba_search_builds_the_plain_python_searchs_tree[azure--1-0.2]",
        "tests/search/test_mcts.py::test_the_policy_guided_search_builds_the_plain_python_searchs_tree[azacru]",
        "tests/search/test_mcts.py::test_azure_the_hunter_banks_the_last_coin_and_the_hunters_win",
    ],
}
RULE_TESTS = [
    "tests/azacru/test_rules.py",
    "tests/azimuth/test_rules.py",
    "tests/azure/test_rules.py",
    "tests/azimuth_coop/test_rules.py",
]


def run_without_jit(args: list[str], timeout: int = TIMEOUT) -> subprocess.CompletedProcess:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)


def run_pytest_without_jit(targets: list[str], *extra: str) -> None:
    proc = run_without_jit(
        [sys.executable, "-m", "pytest", "-q", "-x", "-n", "0", "-p", "no:cacheprovider", *extra, *targets]
    )
    assert proc.returncode == 0, (
        f"with NUMBA_DISABLE_JIT=1, pytest {' '.join(targets)} failed (exit {proc.returncode}):\n"
        f"{(proc.stdout + proc.stderr)[-6000:]}"
    )


@pytest.mark.parametrize(
    "name",
    [
        "playout-smoke",
        "equivalence-smoke",
        "golden-2p",
        "conformance-2p",
        "mcts-reference",
    ],
)
def test_fast_tests_pass_without_jit(name):
    run_pytest_without_jit(TARGETS[name])


@pytest.mark.parametrize("rule_tests", RULE_TESTS)
def test_rule_tests_pass_without_jit(rule_tests):
    run_pytest_without_jit([rule_tests])


_TRAJECTORY = """
import json, sys, numpy as np
import azgames
from azgames.core.jit import JIT_DISABLED
game, num_players, steps, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
options = json.loads(sys.argv[5])
venv = azgames.make_vec(game, num_envs=6, seed=11, num_players=num_players, **options)
obs, mask = venv.reset()
out = {"jit_disabled": np.array(JIT_DISABLED), "reset_obs": obs.copy(), "reset_mask": mask.copy()}
for t in range(steps):
    a = venv.random_actions()
    obs, mask, rewards, term, trunc, player = venv.step(a)
    for name, x in (("actions", a), ("obs", obs), ("mask", mask), ("rewards", rewards),
                    ("term", term), ("trunc", trunc), ("player", player)):
        out[f"{name}{t}"] = np.array(x, copy=True)
for name, x in zip(venv.state._fields, venv.state):
    out["state_" + name] = x.copy()
np.savez(path, **out)
"""


#: Short games, so that the trajectory crosses auto-resets.
SHORT_GAMES = {"azimuth_coop": {"rounds": 3}}


def _trajectory(tmp_path, game, num_players, steps, jit: bool) -> dict:
    path = tmp_path / f"trajectory_{'jit' if jit else 'nojit'}.npz"
    options = json.dumps(SHORT_GAMES.get(game, {"max_turns": 40}))
    args = [sys.executable, "-c", _TRAJECTORY, game, str(num_players), str(steps), str(path), options]
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


@pytest.mark.parametrize(
    "game, num_players",
    [
        ("azacru", 2),
        ("azacru", 4),
        ("azimuth", 2),
        ("azimuth", 4),
        ("azure", 2),
        ("azure", 4),
        ("azimuth_coop", 2),
        ("azimuth_coop", 4),
    ],
)
def test_plain_python_kernels_match_the_jit(tmp_path, game, num_players):
    """The same seeded vector-env run (random actions, auto-resets, truncation
    at 40 turns, or 3 co-op rounds) gives bit-identical arrays with and
    without the JIT."""
    jit = _trajectory(tmp_path, game, num_players, 90, jit=True)
    plain = _trajectory(tmp_path, game, num_players, 90, jit=False)
    assert not jit.pop("jit_disabled") and plain.pop("jit_disabled")
    assert jit.keys() == plain.keys()
    differ = [k for k in jit if not np.array_equal(jit[k], plain[k])]
    kinds = sorted({k.rstrip("0123456789") for k in differ})
    assert differ == [], f"plain Python and numba disagree on {len(differ)} arrays: {kinds}"
