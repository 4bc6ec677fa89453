"""Every game writes only its rules: the entry points are the core's
(``azgames/core/contract.py``), written once. Read from the sources, so that a
game cannot grow its own step or batch loop again unnoticed."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import numpy as np
import pytest

import azgames
from azgames.core import contract
from azgames.core.contract import ContractRules

#: What the core writes for every game: its compiled entry points, and the
#: names the games used for theirs before the contract.
ENTRY_POINTS = {name for name, value in vars(contract).items() if hasattr(value, "py_func")} - {
    "write_view",
    "step_game",
    "observe_game",
} | {"reset_batch", "vec_step", "vec_observe", "step_games", "observe_games", "reset_batch_games"}

GAMES = azgames.list_games()


def _package_dir(module: str) -> Path:
    return Path(importlib.import_module(module).__file__).parent


def test_the_names_read_include_every_entry_point_the_core_writes():
    assert {
        "step_one",
        "observe_one",
        "check_action",
        "reset_games",
        "vec_step_serial",
        "vec_step_parallel",
    } <= (ENTRY_POINTS)


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_no_module_of_a_game_defines_an_entry_point_the_core_writes(entry):
    found = []
    for path in sorted(_package_dir(entry.module).glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and node.name in ENTRY_POINTS:
                found.append(f"{path.name}:{node.lineno} {node.name}")
    assert not found, f"{entry.name} writes entry points the core writes: {found}"


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_every_game_plays_through_the_contract(entry):
    rules = azgames.make(entry.name).unwrapped.rules
    assert isinstance(rules, ContractRules)
    assert contract.KERNELS.of(rules.state_type, "play") is rules.kernels.play


def test_the_co_op_adds_its_fields_to_azimuths_config_and_the_base_game_carries_none_of_them():
    base = azgames.make("azimuth").unwrapped.rules.cfg
    coop = azgames.make("azimuth_coop").unwrapped.rules.cfg
    own = [f for f in coop._fields if f not in base._fields]
    assert coop._fields[: len(base._fields)] == base._fields
    assert {"rounds", "wave_mode", "o_portion_points", "o_controller"} <= set(own)


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_every_game_refuses_any_action_once_its_game_is_over_in_the_same_words(entry):
    env = azgames.make(entry.name)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    while env.agents:
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    rules = env.unwrapped.rules
    assert rules.illegal_reason(env.unwrapped.state, 0) == "the game is over"
