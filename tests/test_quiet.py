"""``--quiet`` keeps every command that takes it to the lines that matter:
a single game's result, a match's table, a ladder's table; no boards, turns
or progress bars."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_quiet(*args: str, where: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "AZGAMES_COMPILE_NOTICE": "0"}  # the compile notice is tested on its own
    return subprocess.run(
        [sys.executable, "-m", "azgames", *args, "--quiet"],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


@pytest.mark.parametrize("game", ["azacru", "azure"])
def test_a_quiet_single_game_prints_its_players_and_result_only(game, tmp_path):
    run = run_quiet("play", game, "--agents", "greedy", "random", "--record", "game.json", where=tmp_path)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith(f"{game}: ") and lines[0].endswith("= random (seed 0)")
    assert lines[1].startswith("Result: ")
    assert lines[2:] == ["record of the game saved to game.json"]
    assert run.stderr == ""


def test_a_quiet_match_prints_its_table_without_a_progress_line(tmp_path):
    run = run_quiet("play", "azacru", "--agents", "greedy", "random", "--games", "3", where=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0].startswith("azacru, 2 players, 3 games")
    assert run.stderr == ""


def test_a_quiet_ladder_prints_its_table_without_a_progress_bar(tmp_path):
    pytest.importorskip("openskill")
    run = run_quiet(
        "tournament",
        "azacru",
        "--agents",
        "random",
        "greedy",
        "--games",
        "2",
        "--out",
        "ladder",
        where=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    assert len(run.stdout.splitlines()) <= 12
