"""Without an optional extra, a command that needs it says which in one line
before it starts (azgames.core.extras), and the test suite skips what needs it.

Each run is a subprocess in which the extra's modules are as absent as an
uninstalled package: a ``sitecustomize`` sets them to None in
``sys.modules``, so that importing one raises ModuleNotFoundError and
``importlib.util.find_spec`` finds nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from azgames.core.extras import MODULES, TORCH, install_command

ROOT = Path(__file__).resolve().parents[1]

SITECUSTOMIZE = """\
import os
import sys

for name in filter(None, os.environ["AZGAMES_TEST_ABSENT"].split(",")):
    sys.modules[name] = None
"""

#: Modules of the extras that only the tests use (tests/interop, the bench's references).
TEST_ONLY = {
    "interop": ("torch", "stable_baselines3", "torchrl", "tensordict", "tianshou"),
    "bench": ("pyspiel",),
}


def python_without(
    absent: tuple[str, ...], args: list[str], cwd: Path, site: Path, timeout: float = 120
) -> subprocess.CompletedProcess:
    """``python ARGS`` in ``cwd`` with the modules ``absent`` uninstalled, as it were."""
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
    env = {**os.environ, "AZGAMES_TEST_ABSENT": ",".join(absent)}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


COMMANDS = [
    ("train", "train", ["train", "azacru", "--steps", "256", "--quiet"]),
    ("train", "train", ["train", "azacru", "--algo", "alphazero", "--quiet"]),
    ("rllib", "train --backend rllib", ["train", "azacru", "--backend", "rllib", "--quiet"]),
    ("tournament", "tournament", ["tournament", "azacru", "--agents", "random", "greedy", "--games", "2"]),
    # Were the check gone, the server would start: the timeout ends the test.
    ("web", "serve", ["serve", "--no-browser", "--port", "0"]),
]


@pytest.mark.parametrize("extra,command,args", COMMANDS, ids=[" ".join(c[2][:4]) for c in COMMANDS])
def test_a_command_without_its_extra_says_so_in_one_line_and_makes_nothing(extra, command, args, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    run = python_without(MODULES[extra], ["-m", "azgames", *args], work, tmp_path / "site")
    assert run.returncode == 2, run.stderr
    assert run.stdout == ""
    assert run.stderr.splitlines() == [
        f"azgames {command}: needs the {extra} extra, which is not installed (missing: "
        f"{', '.join(MODULES[extra])}); install it with: {install_command(extra)}"
    ]
    assert list(work.iterdir()) == []  # no run folder (runs/...), no checkpoints


def test_train_without_tqdm_alone_names_it_before_making_the_folder(tmp_path):
    """The reported case: torch installed, tqdm not, and --out given."""
    run = python_without(
        ("tqdm",),
        ["-m", "azgames", "train", "azacru", "--out", "runs/tiny", "--quiet"],
        tmp_path,
        tmp_path / "site",
    )
    assert run.returncode == 2
    (line,) = run.stderr.splitlines()
    assert "needs the train extra" in line and "(missing: tqdm)" in line
    assert f"python -m pip install {TORCH} && " in line
    assert not (tmp_path / "runs").exists()


def test_each_extras_modules_are_the_ones_pyproject_installs():
    tomllib = pytest.importorskip("tomllib")
    requirements = pytest.importorskip("packaging.requirements")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    pinned = requirements.Requirement(TORCH)
    for extra, modules in MODULES.items():
        wanted = {requirements.Requirement(r) for r in extras[extra]}
        assert {r.name.lower().replace("-", "_") for r in wanted} == set(modules), extra
        for r in wanted:  # the torch installed first is one the extra accepts
            if r.name == "torch":
                assert r.specifier.contains(next(iter(pinned.specifier)).version), extra


def collect(absent: tuple[str, ...], tmp_path: Path) -> subprocess.CompletedProcess:
    args = ["-m", "pytest", "--collect-only", "-q", "-n", "0", "-p", "no:cacheprovider", "tests"]
    return python_without(absent, args, ROOT, tmp_path / "site", timeout=300)


def test_the_tests_collect_without_any_extra(tmp_path):
    """Every test module of an extra skips (pytest.importorskip before its
    imports) rather than failing to import."""
    absent = sorted({m for modules in [*MODULES.values(), *TEST_ONLY.values()] for m in modules})
    run = collect(tuple(absent), tmp_path)
    assert run.returncode == 0, run.stdout[-4000:]
    assert "error" not in run.stdout.splitlines()[-1]


@pytest.mark.slow
@pytest.mark.parametrize("extra", [*MODULES, *TEST_ONLY])
def test_the_tests_collect_without_each_extra_alone(extra, tmp_path):
    run = collect({**MODULES, **TEST_ONLY}[extra], tmp_path)
    assert run.returncode == 0, run.stdout[-4000:]
    assert "error" not in run.stdout.splitlines()[-1]
