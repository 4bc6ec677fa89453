"""Argument checks shared by every public entry point of the suite.

Each check returns the value in its plain Python form or raises a
``TypeError`` (wrong kind of value) or ``ValueError`` (right kind, out of
range) whose message names the argument and repeats the value given. ``bool``
is refused wherever an integer is wanted: ``True`` is an ``int`` to Python,
but a user passing it as an action or a count has made a mistake.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

#: The largest seed numpy's ``SeedSequence`` takes is unbounded, but a record
#: or a command line holding more than 128 bits is a typo, not a seed.
MAX_SEED = 2**128 - 1
#: A turn limit must fit the kernels' int32 ply counters.
MAX_TURNS = 2**31 - 1


def integer(name: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int within ``[low, high]`` (either bound optional)."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}={value!r} must be an integer, not a bool")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{name}={value!r} must be an integer, not {type(value).__name__}") from None
    if (low is not None and v < low) or (high is not None and v > high):
        if high is None:
            bounds = f">= {low}"
        elif low is None:
            bounds = f"<= {high}"
        else:
            bounds = f"from {low} to {high}"
        raise ValueError(f"{name}={value!r} is out of range: it must be {bounds}")
    return v


def number(name: str, value, low: float, high: float, open_low: bool = False) -> float:
    """``value`` as a finite float within its bounds (``low`` excluded if ``open_low``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name}={value!r} must be a number, not {type(value).__name__}")
    if not math.isfinite(value) or value > high or value < low or (open_low and value == low):
        bounds = f"{'>' if open_low else '>='} {low:g} and <= {high:g}"
        raise ValueError(f"{name}={value!r} is out of range: it must be a finite number {bounds}")
    return float(value)


def seed(name: str, value: Any) -> int | None:
    """A seed: None (fresh entropy) or an integer from 0 to 2**128 - 1."""
    if value is None:
        return None
    return integer(name, value, 0, MAX_SEED)


def one_of(name: str, value: Any, choices) -> Any:
    """``value`` if it is one of ``choices`` (compared by equality, type included)."""
    for c in choices:
        if type(value) is type(c) and value == c:
            return value
    raise ValueError(f"{name}={value!r} is not supported; choose one of {list(choices)}")
