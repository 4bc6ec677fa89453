"""``python -m azgames compile``: numba's cache filled ahead of a user's first
move, one process per core, and the suite's cached kernels cleared."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from numba.core import caching

import azacru_env
from azgames.agents import agent_names
from azgames.cli import main
from azgames.compiling import cache_dirs, clear_cache, warm_up


def test_warm_up_plays_the_first_moves_of_every_stage_and_agent():
    stages = warm_up("azacru")
    assert list(stages) == ["aec env", "vector env", *agent_names("azacru")]


def test_the_command_compiles_the_games_named_in_worker_processes(capsys):
    assert main(["compile", "azure", "--jobs", "1"]) == 0
    printed = capsys.readouterr().out
    assert "compiling azure in 1 process(es)" in printed
    assert "  azure: " in printed and "mcts" in printed


@pytest.mark.parametrize(
    "argv, message",
    [
        (["compile", "chess"], "unknown game 'chess'; games: azacru, azimuth, azimuth_coop, azure"),
        (["compile", "--jobs", "0"], "--jobs 0: give at least 1 process"),
    ],
)
def test_bad_arguments_are_refused_before_any_work(argv, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_with_numba_cache_dir_set_the_cache_folders_are_under_it_only(tmp_path, monkeypatch):
    """numba then looks nowhere else: clearing must leave the sources' own caches alone."""
    cache_dirs()  # imports every package first: numba makes a cache folder as a cached kernel is defined
    monkeypatch.setattr("numba.core.config.CACHE_DIR", str(tmp_path))
    source = Path(azacru_env.__file__).parent
    subpath = caching._CacheLocator.get_suitable_cache_subpath(str(source / "kernels.py"))
    (tmp_path / subpath).mkdir()
    assert cache_dirs() == [tmp_path / subpath]


def test_without_it_the_cache_folders_are_beside_the_sources(tmp_path, monkeypatch):
    """numba writes beside the sources then (or in the user's cache folder,
    where the sources' is read-only). A source tree of its own: whether the
    checkout's ``__pycache__`` folders exist depends on how it was run
    (``PYTHONDONTWRITEBYTECODE``, a ``NUMBA_CACHE_DIR`` of earlier runs)."""
    from azgames import compiling

    sources = tmp_path / "azacru_env"
    (sources / "__pycache__").mkdir(parents=True)
    (sources / "data").mkdir()  # a folder without cached kernels
    monkeypatch.setattr(compiling, "_source_dirs", lambda: iter([sources, sources / "data"]))
    monkeypatch.setattr("numba.core.config.CACHE_DIR", "")
    folders = cache_dirs()
    assert sources / "__pycache__" in folders
    assert all(folder.name == "__pycache__" or "numba" in str(folder) for folder in folders)


def test_clear_deletes_cached_kernels_and_nothing_else(tmp_path):
    kept = [tmp_path / "kernels.cpython-311.pyc", tmp_path / "notes.txt"]
    cached = [tmp_path / "kernels.step-40.py311.nbi", tmp_path / "kernels.step-40.py311.1.nbc"]
    for path in kept + cached:
        path.write_bytes(b"x")
    assert clear_cache([tmp_path]) == 2
    assert sorted(tmp_path.iterdir()) == sorted(kept)


def test_clear_then_nothing_is_cached_under_numba_cache_dir(tmp_path):
    """In a fresh process whose cache is a temporary folder: a kernel called
    leaves cache files there, and ``compile --clear`` takes them all away."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    env.pop("NUMBA_DISABLE_JIT", None)
    call_a_kernel = (
        "import numpy as np; from azgames.core.rng import below; below(np.ones(1, np.uint64), 0, 6)"
    )
    subprocess.run([sys.executable, "-c", call_a_kernel], env=env, check=True)
    assert list(tmp_path.rglob("*.nbi"))
    # numba looks only under NUMBA_CACHE_DIR then: the checkout's own cache must stay
    in_tree = sorted((Path(azacru_env.__file__).parent / "__pycache__").glob("*.nbi"))
    done = subprocess.run(
        [sys.executable, "-m", "azgames", "compile", "--clear"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.startswith("cleared ")
    assert not list(tmp_path.rglob("*.nb[ic]"))
    assert all(path.exists() for path in in_tree)


@pytest.mark.parametrize("argv", [["--help"], ["list"], ["play", "--help"], ["tournament", "--help"]])
def test_help_and_list_compile_nothing(argv, tmp_path):
    """A first command must answer at once: with an empty cache, none of
    these calls a kernel (numba would write its compiled code to the cache)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run([sys.executable, "-m", "azgames", *argv], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert list(tmp_path.rglob("*.nb[ic]")) == []
