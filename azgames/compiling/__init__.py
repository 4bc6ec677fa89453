"""Filling and clearing numba's cache ahead of a user's first move.

Every kernel is compiled with ``cache=True``: the first process that calls
it compiles it and writes it to disk, later ones load it. :func:`warm_up`
plays the first moves of a game the way users meet it (the AEC env, the
vector env, then each of the game's agents), so that a container build, a
cluster node or CI pays the compile once, ahead of time, one game per core
(``python -m azgames compile``). :func:`clear_cache` removes the suite's
cached kernels, which a module renamed or moved leaves behind.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from azgames.core.kernel_cache import LOCK_SUFFIX

#: The search budget of the warm-up's ``mcts`` move: the kernels are the same at any budget.
WARM_UP_SIMULATIONS = 16


def warm_up(game: str, num_players: int = 2) -> dict[str, float]:
    """Compile (or load) everything a first session of ``game`` calls: the
    seconds each stage took, in order, keyed by stage."""
    import azgames
    from azgames.agents import agent_names, make_agent

    seconds: dict[str, float] = {}
    start = time.perf_counter()
    env = azgames.make(game, num_players=num_players)
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    seconds["aec env"] = time.perf_counter() - start
    start = time.perf_counter()
    venv = azgames.make_vec(game, num_envs=4, seed=0, num_players=num_players)
    venv.reset()
    venv.step(venv.random_actions())
    seconds["vector env"] = time.perf_counter() - start
    for name in agent_names(game):
        start = time.perf_counter()
        spec = f"mcts:simulations={WARM_UP_SIMULATIONS}" if name == "mcts" else name
        env.reset(seed=0)
        env.step(make_agent(spec, seed=0, game=game).act(env))
        seconds[name] = time.perf_counter() - start
    return seconds


def _packages() -> list[str]:
    """The packages whose kernels numba caches: the core, the agents (mapped
    into ``azgames.agents`` from ``agents/`` beside it in a checkout) and
    each registered game's."""
    from azgames.core.registry import list_games, rules_type

    games = (rules_type(e.name).__module__.split(".")[0] for e in list_games())
    return ["azgames", "azgames.agents", *dict.fromkeys(games)]


def _source_dirs() -> Iterator[Path]:
    import importlib

    for package in _packages():
        root = Path(importlib.import_module(package).__file__ or "").parent
        yield from (d for d in [root, *root.rglob("*")] if d.is_dir() and d.name != "__pycache__")


def cache_dirs() -> list[Path]:
    """Every folder where numba keeps the suite's cached kernels: under
    ``NUMBA_CACHE_DIR`` when it is set (numba then looks nowhere else), else
    beside the sources and in the user's cache folder (numba's fallback
    when the sources' folder is read-only)."""
    from numba.core import caching, config
    from numba.misc.appdirs import AppDirs

    user_wide = Path(AppDirs(appname="numba", appauthor=False).user_cache_dir)
    dirs = set()
    for source in _source_dirs():
        # numba names a source folder's cache folder by this rule, keyed by the folder's path
        subpath = caching._CacheLocator.get_suitable_cache_subpath(str(source / "module.py"))
        cache_dir = getattr(config, "CACHE_DIR", "")  # set from NUMBA_CACHE_DIR at import
        if cache_dir:
            dirs.add(Path(cache_dir) / subpath)
        else:
            dirs.update({source / "__pycache__", user_wide / subpath})
    return sorted(d for d in dirs if d.is_dir())


def clear_cache(folders: list[Path] | None = None) -> int:
    """Delete the suite's cached kernels (numba's ``.nbi`` index and ``.nbc``
    data files, and the compile locks' ``.nbl`` files, nothing else) from
    ``folders`` (default: :func:`cache_dirs`); the number of files deleted."""
    removed = 0
    for folder in cache_dirs() if folders is None else folders:
        for path in folder.iterdir():
            if path.suffix in (".nbi", ".nbc", LOCK_SUFFIX) and path.is_file():
                path.unlink()
                removed += 1
    return removed


def available_cores() -> int:
    """The cores this process may use (its affinity where the OS tells)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1
