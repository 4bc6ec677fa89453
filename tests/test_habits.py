"""The habits kept by tools (CONTRIBUTING.md), checked with the tests so
that CI, which runs exactly the README's test command, enforces them:
ruff's lint and format, and mypy over everything but the numba kernels.
(The layer contracts are tests/test_layers.py.) The pre-commit hooks run
the same commands before each commit."""

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
