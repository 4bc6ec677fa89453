"""The game functions the search calls, the same for every game.

The search (:mod:`.tree`) is one numba function for all games. It calls
``legal(s, cfg, i, mask)`` and ``play(s, cfg, i, action, rewards)`` (the
rules) and ``estimate(s, cfg, i, values)`` (a heuristic, where a playout is
cut short) and ``observe(s, cfg, i, viewer, obs)`` (a trained policy's
input, for the policy-guided search) and ``heuristic(s, cfg, i, mask)``
(the game's heuristic agent's move, for playouts that follow it) on a
game's state named tuple ``s``.
numba picks each game's functions at compile time from the type of ``s``
(:mod:`azgames.core.by_state`), so the search compiles once per game and is cached
on disk like every kernel. :mod:`.games` registers each game's hooks
(declared in its own package: :mod:`azgames.core.search_hooks`) with
:func:`implement`.

``cfg`` is whatever the game's kernels need besides the state (a tuple of
tables and limits, built by the game's ``SearchHooks.config``).
"""

from __future__ import annotations

from collections.abc import Callable

from numba import literal_unroll
from numba.extending import overload

from azgames.core.batch import pick_legal
from azgames.core.by_state import Family
from azgames.core.jit import njit

#: The games' search functions, picked by the type of ``s``.
HOOKS = Family()

legal = HOOKS.function(
    "legal",
    "s, cfg, i, mask",
    "Mark the legal actions of game ``i``'s actor in row 0 of ``mask`` (1, A), clearing the others.",
)
play = HOOKS.function(
    "play",
    "s, cfg, i, action, rewards",
    "Play the legal ``action`` in game ``i``; write the step's rewards into row ``i`` "
    "of ``rewards``; return the packed status (``azgames.core.game``), whose ``>> 4`` names the agent to act next.",
)
estimate = HOOKS.function(
    "estimate",
    "s, cfg, i, values",
    "Write into ``values`` (one per agent, in [-1, 1]) what each agent may expect "
    "from game ``i``'s position, for a playout cut before the end.",
)
observe = HOOKS.function(
    "observe",
    "s, cfg, i, viewer, obs",
    "Write ``viewer``'s observation planes of game ``i`` into the flat int8 ``obs``, as the env shows them.",
)


def heuristic(s, cfg, i, mask, mrng, r):
    """A heuristic playout's move in game ``i``: the game's heuristic agent's
    (``SearchHooks.heuristic``), or a uniformly random legal one from
    generator ``mrng[r]`` in a game without one. ``mask`` is a (1, A) scratch row."""
    fn = HOOKS.of(type(s), "heuristic")
    return random_move(s, cfg, i, mask, mrng, r) if fn is None else fn(s, cfg, i, mask)


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
    its kernels are small (Azacru's playouts ran 1.8x faster inlined)."""
    HOOKS.implement(
        state_type, inline, legal=legal, play=play, estimate=estimate, observe=observe, heuristic=heuristic
    )


@overload(heuristic)
def _heuristic(s, cfg, i, mask, mrng, r):
    if HOOKS.of(s, "legal") is None:
        return None
    fn = HOOKS.of(s, "heuristic")
    if fn is None:
        return lambda s, cfg, i, mask, mrng, r: random_move(s, cfg, i, mask, mrng, r)
    return lambda s, cfg, i, mask, mrng, r: fn(s, cfg, i, mask)


def observes(state_type: type) -> bool:
    """Whether the game registered for ``state_type`` has ``observe``."""
    return HOOKS.of(state_type, "observe") is not None


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
