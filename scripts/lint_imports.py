"""Check the layer contracts of ``pyproject.toml`` with import-linter.

import-linter reads a package from its folder, but ``azgames.agents`` is the
``agents/`` folder at the top of the repository (the design keeps it there;
``pyproject.toml`` maps it). So the packages are laid out first in a
temporary folder as they install, ``agents/`` inside ``azgames/``, and the
linter reads them there: every import, the agents' included, is checked.

    python scripts/lint_imports.py          # exit status 0: every contract kept
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("azgames", "azacru_env", "azimuth_env", "azure_env", "connect_four_env")


def main() -> int:
    ignore = shutil.ignore_patterns("__pycache__", "*.npz", "*.json", "static")
    with tempfile.TemporaryDirectory() as tmp:
        for package in PACKAGES:
            shutil.copytree(ROOT / package, Path(tmp) / package, ignore=ignore)
        shutil.copytree(ROOT / "agents", Path(tmp) / "azgames" / "agents", ignore=ignore)
        shutil.copy(ROOT / "pyproject.toml", tmp)
        env = {**os.environ, "PYTHONPATH": tmp}
        command = "from importlinter.cli import lint_imports_command; lint_imports_command()"
        return subprocess.run(
            [sys.executable, "-c", command, "--config", "pyproject.toml"], cwd=tmp, env=env
        ).returncode


if __name__ == "__main__":
    sys.exit(main())
