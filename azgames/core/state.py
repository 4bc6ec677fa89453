"""Game state as a named tuple of numpy arrays with a leading batch axis.

A game declares its state as a ``typing.NamedTuple`` whose fields are numpy
arrays; field ``i`` of every array belongs to game ``i`` of the batch. The
kernels take the fields as positional arguments (``kernel(*state, ...)``), so
there is no Python object between the env and numba. Everything a game needs
to continue lives here, including its random generator word ``rng``: copying
the arrays copies the game.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeVar

import numpy as np

#: A game's state named tuple: the helpers below return the type they are given.
State = TypeVar("State", bound=NamedTuple)


def clone(state: State) -> State:
    """An independent copy of every array (a few microseconds)."""
    return type(state)(*(a.copy() for a in state))


def select(state: State, index: Any) -> State:
    """The games at ``index`` (an int, slice or index array) as a new batch."""
    if isinstance(index, (int, np.integer)):
        index = slice(int(index), int(index) + 1)
    return type(state)(*(a[index].copy() for a in state))


def assign(dst: NamedTuple, dst_index: Any, src: NamedTuple, src_index: Any = slice(None)) -> None:
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


def from_jsonable(state_type: type[Any], data: dict[str, Any]) -> NamedTuple:
    """Rebuild a state written by :func:`to_jsonable`. Refuses, naming the
    field, anything :func:`to_jsonable` would not write: a missing or extra
    field, a value that is not an integer of the field's dtype (``1.5``,
    ``"2"``, ``True``), or data that does not fill its shape."""
    if not isinstance(data, dict):
        raise ValueError(
            f"a {state_type.__name__} record must be a dict of fields, not {type(data).__name__}"
        )
    want, have = set(state_type._fields), set(data)
    if want != have:
        raise ValueError(
            f"state record for {state_type.__name__} has fields {sorted(have)}, expected {sorted(want)}"
        )
    return state_type(*(_array(name, data[name]) for name in state_type._fields))


def _array(name: str, field: Any) -> np.ndarray:
    """One field of a state record as an array, every value checked."""
    if not isinstance(field, dict) or set(field) != {"dtype", "shape", "data"}:
        raise ValueError(f"state field {name!r} must be a dict with 'dtype', 'shape' and 'data'")
    try:
        dtype: np.dtype[Any] = np.dtype(field["dtype"])
    except TypeError:
        raise ValueError(f"state field {name!r}: dtype {field['dtype']!r} is not a numpy dtype") from None
    if dtype.kind not in "iu":
        raise ValueError(f"state field {name!r}: dtype {field['dtype']!r} is not an integer dtype")
    shape, values = field["shape"], field["data"]
    if not isinstance(shape, list) or not all(type(n) is int and n >= 0 for n in shape):
        raise ValueError(f"state field {name!r}: shape {shape!r} must be a list of sizes")
    if not isinstance(values, list) or len(values) != int(np.prod(shape)):
        raise ValueError(
            f"state field {name!r}: data must be a flat list of "
            f"{int(np.prod(shape))} integers for shape {shape}"
        )
    info = np.iinfo(dtype)
    for k, v in enumerate(values):
        if type(v) is not int:
            raise ValueError(f"state field {name!r} index {k}: {v!r} is not an integer")
        if not info.min <= v <= info.max:
            raise ValueError(f"state field {name!r} index {k}: {v} does not fit {dtype}")
    return np.array(values, dtype=dtype).reshape(shape)
