"""How the Gumbel search judges a position: one typed object,
:class:`SearchSettings`, read by the trainer (``Config.search``), the
command line (its flags are built from the fields), the ``az`` agent and
the policy files.

A network's file keeps the settings it was trained with (meta ``search``);
a small JSON file beside it, ``<name>.search.json`` (``azacru_2p.npz`` ->
``azacru_2p.search.json``), changes any of them without training::

    {"min_spread": 0.5, "playout_weight": 1.0}

and the ``az`` agent's options change them for one game
(``az:min_spread=0.5``). How many simulations a move is not here: self-play
and play choose it each.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from azgames.core.inputs import parse_json, read_bytes

from .gumbel import EPSILON, NO_RESCALE

#: The largest estimate prior temperature (far above it the prior is flat).
MAX_TEMPERATURE = 1e6
#: The most plies a leaf's playout may run before the game's estimate.
MAX_PLAYOUT = 10_000
#: The largest settings file read, in bytes.
MAX_SETTINGS_BYTES = 4096


@dataclass(frozen=True)
class SearchSettings:
    min_spread: float = field(
        default=EPSILON,
        metadata={
            "help": "the least spread a node's Q-values are stretched over in sigma: 1e-8 "
            "rescales them to [0, 1] as the paper does, 2 keeps their own scale, between "
            "the two Q-values closer than it (the noise of a few playouts with dice) stay close",
            "range": (EPSILON, NO_RESCALE),
        },
    )
    playout_weight: float = field(
        default=0.0,
        metadata={
            "help": "a playout's weight in each leaf's value (AlphaGo's lambda; 0: the "
            "network's alone): where the game's estimate judges better than a young value head",
            "range": (0.0, 1.0),
        },
    )
    max_playout: int | None = field(
        default=None,
        metadata={
            "help": "a playout's plies before the game's estimate (-1: to the end; none: the game's default)",
            "range": (-1, MAX_PLAYOUT),
        },
    )
    heuristic_playouts: bool = field(
        default=False,
        metadata={"help": "playouts follow the game's heuristic agent (its greedy) for every player"},
    )
    prior_temperature: float = field(
        default=0.0,
        metadata={
            "help": "the game's estimate after each action, over this temperature, added to "
            "the network's prior logits (0: none): steers few simulations where the network "
            "knows little",
            "range": (0.0, MAX_TEMPERATURE),
        },
    )

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):  # checked, and as plain Python numbers (a file's JSON, numpy's)
            value = getattr(self, f.name)
            kept, want = as_setting(f, value)
            if want:
                raise ValueError(f"{f.name}={value!r}: give {want}")
            object.__setattr__(self, f.name, kept)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def replace(self, **changes: Any) -> SearchSettings:
        """These settings with ``changes`` (a None change leaves a setting as it is)."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})

    @classmethod
    def from_dict(cls, block: Any, where: str, base: SearchSettings | None = None) -> SearchSettings:
        """The settings of a JSON object (a file's meta ``search``, or a
        settings file's, which may give some only: the others are ``base``'s).
        Files written before ``min_spread`` took its place give ``rescale``:
        true is 1e-8, false 2."""
        if not isinstance(block, dict):
            raise ValueError(f"{where}: search settings are a JSON object, not {type(block).__name__}")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        # A file's contents are never quoted back: names and ranges only.
        if not set(block) <= {*fields, "rescale"}:
            raise ValueError(
                f"{where}: a key that is no search setting (they are {', '.join(sorted(fields))})"
            )
        given = {}
        for name, value in block.items():
            if name in fields:
                given[name], want = as_setting(fields[name], value)
                if want:
                    raise ValueError(f"{where}: {name!r} is not {want}")
        if "rescale" in block:
            if not isinstance(block["rescale"], bool):
                raise ValueError(f"{where}: 'rescale' is not true or false")
            given.setdefault("min_spread", EPSILON if block["rescale"] else NO_RESCALE)
        return dataclasses.replace(base or cls(), **given)


def as_setting(f: dataclasses.Field, value: Any) -> tuple[Any, str]:
    """``value`` as field ``f`` holds it and "", if it has the field's type
    (no bool for a number) and lies in its range; else what to give instead."""
    low, high = f.metadata.get("range", (None, None))
    if f.type == "bool":
        if isinstance(value, (bool, np.bool_)):
            return bool(value), ""
        return value, "true or false"
    if f.type == "int | None":
        if value is None:
            return None, ""
        if (
            isinstance(value, numbers.Integral)
            and not isinstance(value, (bool, np.bool_))
            and low <= value <= high
        ):
            return int(value), ""
        return value, f"a whole number from {low} to {high:,} (or none)"
    if (
        isinstance(value, numbers.Real)
        and not isinstance(value, (bool, np.bool_))
        and math.isfinite(value)
        and low <= value <= high
    ):
        return float(value), ""
    return value, f"a number from {low:g} to {high:g}"


def settings_path(weights: str | Path) -> Path:
    """The settings file beside a network's ``.npz``."""
    weights = Path(weights)
    return weights.with_name(weights.stem + ".search.json")


def read_settings_file(weights: str | Path, base: SearchSettings) -> SearchSettings:
    """``base`` changed by the settings file beside ``weights``, if there is one."""
    path = settings_path(weights)
    if not path.is_file():
        return base
    where = f"search settings file {str(path)!r}"
    text = read_bytes(path, "search settings file", MAX_SETTINGS_BYTES).decode("utf-8", "replace")
    return SearchSettings.from_dict(parse_json(text, where, 2), where, base)


__all__ = ["MAX_PLAYOUT", "MAX_TEMPERATURE", "SearchSettings", "read_settings_file", "settings_path"]
