"""Helpers for the games' state value checks (``<game>/state_check.py``).

A state that enters from outside (``env.set_state``, ``VectorEnv.set_game``,
a game record) reaches numba kernels that index arrays with its values and
check no bounds: one number out of range can corrupt memory or crash the
process. :meth:`azgames.core.game.Rules.check_state` therefore has each game check
every value of every game of the batch before a kernel sees it. The helpers
below find the first offending entry of a field, vectorised over the batch,
and raise the ``ValueError`` every check raises::

    state field 'trail' game 0 index 3: 20000 is out of range [-1, 40)

naming the field, the game of the batch, the index within the game (left out
for a field with one value per game) and the value.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def refuse(name: str, at: tuple[int, ...], value, why: str) -> ValueError:
    """The error for field ``name`` at ``at`` (the game, then the index in it)."""
    game, index = at[0], at[1:]
    where = ""
    if len(index) == 1:
        where = f" index {index[0]}"
    elif index:
        where = f" index {tuple(int(k) for k in index)}"
    return ValueError(f"state field {name!r} game {game}{where}: {_plain(value)} {why}")


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


def first(bad: np.ndarray) -> tuple[int, ...] | None:
    """The index of the first true entry of ``bad``, or None."""
    if not bad.any():
        return None
    return tuple(int(k) for k in np.unravel_index(int(np.argmax(bad)), bad.shape))


def fail_where(
    state,
    name: str,
    bad: np.ndarray,
    why: str | Callable[[tuple[int, ...]], str],
    values: np.ndarray | None = None,
) -> None:
    """Raise for the first entry of field ``name`` where ``bad`` is true.

    ``bad`` has the field's shape (or a prefix of it: a per-game condition);
    ``why`` is the reason, or a function of the entry's index that words it;
    ``values`` replaces the field's own values in the message."""
    at = first(bad)
    if at is None:
        return
    shown = getattr(state, name) if values is None else values
    reason = why(at) if callable(why) else why
    raise refuse(name, at, shown[at], reason)


def in_range(state, name: str, low: int, high: int) -> None:
    """Every value of field ``name`` is in ``[low, high)``."""
    v = getattr(state, name).astype(np.int64)
    fail_where(state, name, (v < low) | (v >= high), f"is out of range [{low}, {high})", values=v)
