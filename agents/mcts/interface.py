"""The game functions the search calls, the same for every game.

The search (:mod:`.tree`) is one numba function for all games. It calls
``legal(s, cfg, i, mask)`` and ``play(s, cfg, i, action, rewards)`` (the
rules) and ``estimate(s, cfg, i, values)`` (a heuristic, where a playout is
cut short) and ``observe(s, cfg, i, viewer, obs)`` (a trained policy's
input, for the policy-guided search) and ``heuristic(s, cfg, i, mask)``
(the game's heuristic agent's move, for playouts that follow it) on a
game's state named tuple ``s``.
numba picks each game's implementation at compile time from the type of ``s``
(``numba.extending.overload``), so the search compiles once per game, is
cached on disk like every kernel, and pays no call through a function
pointer. :mod:`.games` registers each game's hooks (declared in its own
package: :mod:`azgames.search_hooks`) with :func:`implement`. Under ``NUMBA_DISABLE_JIT=1`` the same functions dispatch
in Python on ``type(s)``.

``cfg`` is whatever the game's kernels need besides the state (a tuple of
tables and limits, built by the game's ``SearchHooks.config``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba import literal_unroll
from numba.extending import overload

from azgames.batch import pick_legal
from azgames.jit import njit

#: state class -> {"legal": ..., "play": ..., "estimate": ..., "observe": ...,
#: "heuristic": ...} (njit functions; ``observe`` and ``heuristic`` None for a
#: game without one)
_IMPLS: dict[type, dict[str, Callable[..., Any] | None]] = {}


def legal(s, cfg, i, mask):
    """Mark the legal actions of game ``i``'s actor in row 0 of ``mask`` (1, A),
    clearing the others."""
    return _IMPLS[type(s)]["legal"](s, cfg, i, mask)


def play(s, cfg, i, action, rewards):
    """Play the legal ``action`` in game ``i``; write the step's rewards into
    row ``i`` of ``rewards``; return the packed status (``azgames.game``),
    whose ``>> 4`` names the agent to act next."""
    return _IMPLS[type(s)]["play"](s, cfg, i, action, rewards)


def estimate(s, cfg, i, values):
    """Write into ``values`` (one per agent, in [-1, 1]) what each agent may
    expect from game ``i``'s position, for a playout cut before the end."""
    return _IMPLS[type(s)]["estimate"](s, cfg, i, values)


def heuristic(s, cfg, i, mask, mrng, r):
    """A heuristic playout's move in game ``i``: the game's heuristic agent's
    (``SearchHooks.heuristic``), or a uniformly random legal one from
    generator ``mrng[r]`` in a game without one. ``mask`` is a (1, A) scratch row."""
    fn = _IMPLS[type(s)]["heuristic"]
    return random_move(s, cfg, i, mask, mrng, r) if fn is None else fn(s, cfg, i, mask)


def observe(s, cfg, i, viewer, obs):
    """Write ``viewer``'s observation planes of game ``i`` into the flat int8
    ``obs``, as the env shows them to that agent."""
    return _IMPLS[type(s)]["observe"](s, cfg, i, viewer, obs)


@njit
def no_estimate(s, cfg, i, values):
    """The estimate of a game without a heuristic: a cut playout is a draw."""
    values[:] = 0.0


def implement(
    state_type: type,
    legal: Callable,
    play: Callable,
    estimate: Callable = no_estimate,
    observe: Callable | None = None,
    inline: bool = False,
    heuristic: Callable | None = None,
) -> None:
    """Register a game's ``legal``, ``play``, ``estimate``, ``observe`` and
    ``heuristic`` (njit functions with the signatures above, ``heuristic``
    without the generator; a game without ``observe`` has no policy-guided
    search) for states of ``state_type``; ``inline`` them into the search if
    its kernels are small."""
    _IMPLS[state_type] = {
        "legal": legal,
        "play": play,
        "estimate": estimate,
        "observe": observe,
        "heuristic": heuristic,
    }
    if inline:
        INLINED.add(state_type)


def _impl(s, name):
    return _IMPLS.get(getattr(s, "instance_class", None), {}).get(name)


def _small_game(expr, caller, callee) -> bool:
    """Inline a game's functions into the search where its kernels are small
    (:data:`INLINED`): passing the state tuple to a call costs a reference
    count on each of its arrays (Azacru's playouts ran 1.8x faster inlined),
    but inlining Azimuth's large kernels multiplied the compile time."""
    return getattr(caller.typemap[expr.args[0].name], "instance_class", None) in INLINED


#: State classes whose ``legal``, ``play`` and ``estimate`` are inlined.
INLINED: set[type] = set()


@overload(legal, inline=_small_game)
def _legal(s, cfg, i, mask):
    fn = _impl(s, "legal")
    if fn is not None:
        return lambda s, cfg, i, mask: fn(s, cfg, i, mask)


@overload(play, inline=_small_game)
def _play(s, cfg, i, action, rewards):
    fn = _impl(s, "play")
    if fn is not None:
        return lambda s, cfg, i, action, rewards: fn(s, cfg, i, action, rewards)


@overload(estimate, inline=_small_game)
def _estimate(s, cfg, i, values):
    fn = _impl(s, "estimate")
    if fn is not None:
        return lambda s, cfg, i, values: fn(s, cfg, i, values)


@overload(heuristic)
def _heuristic(s, cfg, i, mask, mrng, r):
    if _impl(s, "legal") is None:
        return None
    fn = _impl(s, "heuristic")
    if fn is None:
        return lambda s, cfg, i, mask, mrng, r: random_move(s, cfg, i, mask, mrng, r)
    return lambda s, cfg, i, mask, mrng, r: fn(s, cfg, i, mask)


@overload(observe, inline=_small_game)
def _observe(s, cfg, i, viewer, obs):
    fn = _impl(s, "observe")
    if fn is not None:
        return lambda s, cfg, i, viewer, obs: fn(s, cfg, i, viewer, obs)


def observes(state_type: type) -> bool:
    """Whether the game registered for ``state_type`` has ``observe``."""
    return _IMPLS.get(state_type, {}).get("observe") is not None


@njit
def random_move(s, cfg, i, mask, mrng, r):
    """A uniformly random legal move in game ``i``, from generator ``mrng[r]``."""
    legal(s, cfg, i, mask)
    return pick_legal(mrng, r, mask[0])


@njit
def copy_game(s, src, dst):
    """Copy game ``src`` of the batch ``s`` over game ``dst``, every field."""
    for a in literal_unroll(s):
        a[dst] = a[src]
