"""Game state as a named tuple of numpy arrays with a leading batch axis.

A game declares its state as a ``typing.NamedTuple`` whose fields are numpy
arrays; field ``i`` of every array belongs to game ``i`` of the batch. The
kernels take the fields as positional arguments (``kernel(*state, ...)``), so
there is no Python object between the env and numba. Everything a game needs
to continue lives here, including its random generator word ``rng``: copying
the arrays copies the game.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np


def clone(state: NamedTuple) -> NamedTuple:
    """An independent copy of every array (a few microseconds)."""
    return type(state)(*(a.copy() for a in state))


def select(state: NamedTuple, index) -> NamedTuple:
    """The games at ``index`` (an int, slice or index array) as a new batch."""
    if isinstance(index, (int, np.integer)):
        index = slice(int(index), int(index) + 1)
    return type(state)(*(a[index].copy() for a in state))


def assign(dst: NamedTuple, dst_index, src: NamedTuple, src_index=slice(None)) -> None:
    """Copy games ``src[src_index]`` into ``dst[dst_index]`` in place."""
    for d, s in zip(dst, src):
        d[dst_index] = s[src_index]


def equal(a: NamedTuple, b: NamedTuple) -> bool:
    """True when both batches hold exactly the same games."""
    return type(a) is type(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def to_jsonable(state: NamedTuple) -> dict[str, Any]:
    """Plain lists (and the dtype of each field) for a JSON game record."""
    return {
        name: {"dtype": arr.dtype.str, "shape": list(arr.shape), "data": arr.ravel().tolist()}
        for name, arr in zip(state._fields, state)
    }


def from_jsonable(state_type: type, data: dict[str, Any]) -> NamedTuple:
    """Rebuild a state written by :func:`to_jsonable`; names a missing or extra field."""
    want, have = set(state_type._fields), set(data)
    if want != have:
        raise ValueError(
            f"state record for {state_type.__name__} has fields {sorted(have)}, "
            f"expected {sorted(want)}"
        )
    arrays = []
    for name in state_type._fields:
        field = data[name]
        arrays.append(
            np.asarray(field["data"], dtype=np.dtype(field["dtype"])).reshape(field["shape"])
        )
    return state_type(*arrays)
