"""The two rules functions the search calls, the same for every game.

The search (:mod:`.tree`) is one numba function for all games. It calls
``legal(s, cfg, i, mask)`` and ``play(s, cfg, i, action, rewards)`` on a
game's state named tuple ``s``; numba picks each game's implementation at
compile time from the type of ``s`` (``numba.extending.overload``), so the
search compiles once per game, is cached on disk like every kernel, and pays
no call through a function pointer. :mod:`.games` registers each game with
:func:`implement`. Under ``NUMBA_DISABLE_JIT=1`` the same functions dispatch
in Python on ``type(s)``.

``cfg`` is whatever the game's kernels need besides the state (a tuple of
tables and limits, built by :func:`.games.search_config`).
"""

from __future__ import annotations

from typing import Callable

from numba import literal_unroll
from numba.extending import overload

from azgames.jit import njit

#: state class -> {"legal": njit function, "play": njit function}
_IMPLS: dict[type, dict[str, Callable]] = {}


def legal(s, cfg, i, mask):
    """Mark the legal actions of game ``i``'s actor in row 0 of ``mask`` (1, A),
    clearing the others."""
    return _IMPLS[type(s)]["legal"](s, cfg, i, mask)


def play(s, cfg, i, action, rewards):
    """Play the legal ``action`` in game ``i``; write the step's rewards into
    row ``i`` of ``rewards``; return the packed status (``azgames.game``),
    whose ``>> 4`` names the agent to act next."""
    return _IMPLS[type(s)]["play"](s, cfg, i, action, rewards)


def implement(state_type: type, legal: Callable, play: Callable) -> None:
    """Register a game's ``legal`` and ``play`` (njit functions with the
    signatures above) for states of ``state_type``."""
    _IMPLS[state_type] = {"legal": legal, "play": play}


def _impl(s, name):
    return _IMPLS.get(getattr(s, "instance_class", None), {}).get(name)


@overload(legal)
def _legal(s, cfg, i, mask):
    fn = _impl(s, "legal")
    if fn is not None:
        return lambda s, cfg, i, mask: fn(s, cfg, i, mask)


@overload(play)
def _play(s, cfg, i, action, rewards):
    fn = _impl(s, "play")
    if fn is not None:
        return lambda s, cfg, i, action, rewards: fn(s, cfg, i, action, rewards)


@njit
def copy_game(s, src, dst):
    """Copy game ``src`` of the batch ``s`` over game ``dst``, every field."""
    for a in literal_unroll(s):
        a[dst] = a[src]
