"""The habits kept by tools (CONTRIBUTING.md), checked with the tests so
that CI, which runs exactly the README's test command, enforces them:
ruff's lint and format, and mypy over everything but the numba kernels.
(The layer contracts are tests/test_layers.py.) The pre-commit hooks run
the same commands before each commit. And .ci/run runs exactly the
README's test command."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("command", [("check", "."), ("format", "--check", ".")], ids=["lint", "format"])
def test_ruff_passes(command):
    if shutil.which("ruff") is None:
        pytest.skip("ruff is not installed (the dev extra installs it)")
    result = run("ruff", *command)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def test_mypy_passes():
    pytest.importorskip("mypy")
    result = run(sys.executable, "-m", "mypy")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def _readme_test_command() -> str:
    """The README's test command: the line of its opening (before the first
    section) that runs pytest, the second of its two first commands."""
    opening = (ROOT / "README.md").read_text().split("\n## ", 1)[0]
    commands = [line.strip() for line in opening.splitlines() if line.startswith("python -m pip install")]
    assert len(commands) == 2, f"the README opens with {len(commands)} install commands, not 2: {commands}"
    assert "python -m pytest" in commands[1], commands
    return commands[1]


def test_ci_runs_exactly_the_readme_test_command():
    """.ci/run's install and test lines, in order, less pip's -q, are the
    README's command split at '&&': no more, no less."""
    readme = [part.strip() for part in _readme_test_command().split("&&")]
    ci = [
        " ".join(word for word in line.split() if word != "-q")
        for line in (ROOT / ".ci" / "run").read_text().splitlines()
        if line.strip().startswith(("python -m pip", "python -m pytest"))
    ]
    assert ci == readme, f".ci/run runs {ci}; the README's test command says {readme}"
