"""A stale kernel cache is impossible: edit a kernel in one file, and every
kernel compiled from other files that calls it (the AEC and vector envs'
entry points in the core, the search in the agents) runs the new code on
the next run, without clearing anything by hand
(``azgames/core/kernel_cache.py``).

The suite is copied into a temporary folder with a cache of its own; one
rule of Connect Four (which columns are open, ``connect_four_env/rules.py``)
is changed between two runs, and the second run must agree with the edited
rules run as plain Python. Connect Four, the smallest game, keeps the two
cold compiles short; the stamp is the same for every game's files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: What every caller of the rules says at the start of a game: the AEC env's
#: legal moves, the vector env's counts after a few random steps and the
#: search's move.
PROBE = textwrap.dedent(
    """
    import json

    import numpy as np

    import azgames
    from azgames.agents import make_agent

    env = azgames.make("connect_four")
    env.reset(seed=0)
    aec = np.flatnonzero(env.observe(env.agent_selection)["action_mask"]).tolist()
    venv = azgames.make_vec("connect_four", num_envs=4, seed=0)
    for _ in range(3):
        _, mask, *_ = venv.step(venv.random_actions())
    vector = mask.sum(axis=1).tolist()
    search = int(make_agent("mcts:simulations=32", seed=0, game="connect_four").act(env))
    print(json.dumps({"aec": aec, "vector": vector, "search": search,
                      "agents_from": azgames.agents.__file__}))
    """
)


def copy_suite(to: Path) -> None:
    """The packages as they install: ``agents/`` becomes ``azgames/agents``."""
    skip = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "azgames", to / "azgames", ignore=skip)
    shutil.copytree(ROOT / "agents", to / "azgames" / "agents", ignore=skip)
    for game in ROOT.glob("*_env"):
        shutil.copytree(game, to / game.name, ignore=skip)


def probe(where: Path, cache: Path, jit: bool = True) -> dict:
    (where / "probe.py").write_text(PROBE)
    env = {
        **os.environ,
        "PYTHONPATH": str(where),
        "NUMBA_CACHE_DIR": str(cache),
        "AZGAMES_COMPILE_NOTICE": "0",
    }
    env["NUMBA_DISABLE_JIT"] = "0" if jit else "1"
    run = subprocess.run(
        [sys.executable, "probe.py"], cwd=where, env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr[-3000:]
    said = json.loads(run.stdout.splitlines()[-1])
    assert Path(said.pop("agents_from")).is_relative_to(where)  # the copy runs, not the installed suite
    return said


def test_an_edited_kernel_reaches_every_caller_on_the_next_run(tmp_path):
    suite, cache = tmp_path / "suite", tmp_path / "cache"
    copy_suite(suite)
    before = probe(suite, cache)

    rules = suite / "connect_four_env" / "rules.py"
    old = "mask[j, c] = s.board[i, ROWS - 1, c] == EMPTY"
    assert rules.read_text().count(old) == 1
    rules.write_text(
        rules.read_text().replace(old, "mask[j, c] = c > 0 and s.board[i, ROWS - 1, c] == EMPTY")
    )

    after = probe(suite, cache)  # the same cache folder, nothing cleared
    assert after["aec"] == list(range(1, 7)) != before["aec"]  # the first column is closed
    assert after["vector"] != before["vector"] and after["search"] != 0
    assert after == probe(suite, tmp_path / "unused", jit=False)  # every caller plays the edited rules


def test_an_index_naming_a_game_that_is_gone_keeps_the_other_games_entries(tmp_path, monkeypatch):
    """The contract's entry points keep one index for every game compiled;
    a game that cannot be imported any more (a test's game in a temporary
    folder) must cost its own compile, not fail every game's call, nor make
    every other game compile again."""
    import pickle

    import numba
    from numba.core import caching

    import azgames.core.kernel_cache  # noqa: F401  (installs the tolerant loader)

    (tmp_path / "gone_game.py").write_text("class GoneState:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import gone_game

    index = caching.IndexDataCacheFile(str(tmp_path), "entry", ("azgames", "stamp"))
    kept = {(numba.int64, "azacru"): "entry.2.nbc"}
    with open(index._index_path, "wb") as f:
        pickle.dump(numba.__version__, f)
        f.write(pickle.dumps((("azgames", "stamp"), {(gone_game.GoneState,): "entry.1.nbc", **kept})))
    assert index._load_index() == {(gone_game.GoneState,): "entry.1.nbc", **kept}
    monkeypatch.delitem(sys.modules, "gone_game")
    (tmp_path / "gone_game.py").unlink()
    assert index._load_index() == kept
    index.save((numba.float64, "azure"), b"data")  # numba's next entry takes a file of its own
    assert index._load_index() == {**kept, (numba.float64, "azure"): "entry.1.nbc"}


#: Waits until every process of the race has imported the suite, then plays a
#: Connect Four move: the compiles it started (numba's events) are printed.
RACE = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path

    from numba.core import event

    import azgames

    class Count(event.Listener):
        compiled = 0

        def on_start(self, e):
            pass

        def on_end(self, e):
            Count.compiled += 1

    event.register("numba:compile", Count())
    here, racers = Path(sys.argv[1]), int(sys.argv[2])
    (here / f"ready.{sys.argv[3]}").touch()
    while len(list(here.glob("ready.*"))) < racers:
        time.sleep(0.01)
    env = azgames.make("connect_four")
    env.reset(seed=0)
    env.step(3)
    print(Count.compiled)
    """
)


def test_processes_starting_on_a_cold_cache_together_compile_each_function_once(tmp_path):
    """Workers that start together (pytest-xdist's, Ray's actors, a vector env
    per subprocess) reach the same kernels at the same moment: one compiles
    each function while the others wait for it and load it from the cache."""
    (tmp_path / "race.py").write_text(RACE)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "AZGAMES_COMPILE_NOTICE": "0"}
    env.pop("NUMBA_DISABLE_JIT", None)
    racers = [
        subprocess.Popen(
            [sys.executable, "race.py", str(tmp_path), "2", str(k)],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for k in range(2)
    ]
    compiled = [int(p.communicate(timeout=600)[0].split()[-1]) for p in racers]
    (tmp_path / "alone").mkdir()
    alone = subprocess.run(
        [sys.executable, "race.py", str(tmp_path / "alone"), "1", "0"],
        cwd=tmp_path,
        env={**env, "NUMBA_CACHE_DIR": str(tmp_path / "alone_cache")},
        capture_output=True,
        text=True,
        check=True,
    )
    assert sum(compiled) == int(alone.stdout.split()[-1]) > 0  # each function once, in one or the other
