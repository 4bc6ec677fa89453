"""Make a training run's policy the shipped ``ppo`` (or, for a ``--algo
alphazero`` run, ``az``) agent of its game and player count.

    python -m azgames.training.ship runs/azacru_2p_seed0 [runs/...]

copies ``policy.npz`` to ``agents/policies/<game>_<n>p.npz`` (an AlphaZero
network to ``agents/policies/az/``) and writes ``policy.json`` beside it as
``<game>_<n>p.json`` (the command, seed,
steps, time and final evaluation of the run), adding the date, the machine
it ran on and its ``lineage``: every run that made the weights, the first
first, when runs started from others' weights (``--init``).
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import sys
import time
from pathlib import Path

from azgames.agents import policy as policy_module
from azgames.agents.policy import NumpyPolicy
from azgames.core.inputs import read_json

POLICIES = Path(policy_module.__file__).resolve().parent / "policies"


def lineage(meta: dict) -> list[dict]:
    """The runs behind a policy's weights, from its ``meta``: the first run
    first, each as its ``trained`` record (command, seed, steps, seconds)."""
    runs: list[dict] = []
    link: object = meta
    while isinstance(link, dict):
        if link.get("trained"):
            runs.append(link["trained"])
        link = link.get("init")
    return runs[::-1]


def ship(run: Path, into: Path = POLICIES) -> Path:
    run = Path(run)
    policy = NumpyPolicy.load(run / "policy.npz")  # every array checked: ValueError otherwise
    record = read_json(run / "policy.json", "run record")
    if not isinstance(record, dict):
        raise ValueError(f"run record={str(run / 'policy.json')!r} is not a JSON object")
    name = f"{policy.meta['game']}_{policy.meta['num_players']}p"
    if policy.meta.get("algorithm") == "alphazero":
        into = into / "az"
    into.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(run / "policy.npz", into / f"{name}.npz")
    stamp = time.strftime("%Y-%m-%d", time.localtime((run / "policy.npz").stat().st_mtime))
    record = {
        **record,
        "date": stamp,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "lineage": lineage(policy.meta),
    }
    (into / f"{name}.json").write_text(json.dumps(record, indent=2) + "\n")
    return into / f"{name}.npz"


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for arg in sys.argv[1:]:
        try:
            print(f"shipped {ship(Path(arg))}")
        except ValueError as e:
            sys.exit(f"python -m azgames.training.ship: error: {e}")
