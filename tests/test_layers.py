"""The layer contracts of ``pyproject.toml`` hold (import-linter, through
``scripts/lint_imports.py``), and every module of the package is under one:
the core is one folder (``azgames/core``) under both contracts, and a new
app must join its layer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parents[1]


def contracts() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def test_every_module_of_the_package_is_under_a_contract():
    layers, core = contracts()
    named = {m.strip() for layer in layers["layers"] for m in layer.replace("|", ":").split(":")}
    named |= set(core["source_modules"])
    modules = {f"azgames.{p.stem}" for p in (ROOT / "azgames").glob("*.py") if p.stem != "__init__"}
    modules |= {f"azgames.{p.name}" for p in (ROOT / "azgames").iterdir() if (p / "__init__.py").exists()}
    assert modules - named == set(), "modules under no layer contract"


def test_the_layer_contracts_hold():
    pytest.importorskip("importlinter")
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "lint_imports.py")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout


def test_every_registered_game_is_in_the_games_layer_and_forbidden_to_the_core():
    import azgames

    layers, core = contracts()
    assert layers["layers"][-1] == "azgames.core", "the core is the bottom layer"
    games = {m.strip() for m in layers["layers"][-2].split("|")}
    packages = {entry.module.split(".")[0] for entry in azgames.list_games()}
    assert packages <= games, f"games under no layer: {sorted(packages - games)}"
    assert packages <= set(core["forbidden_modules"])
