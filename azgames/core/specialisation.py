"""One compile of a kernel per tuple of argument *types*, not values.

When a kernel calls another with a constant (``new_node(t, g, -1, False)``,
``q_row(t, g, 0, c)``), numba types the argument as that literal value and
compiles the callee once for ``Literal[int](-1)``, again for ``int64``, and
again for every other constant a call site passes. In the first session of
Azacru (AEC and vector envs, greedy, ``mcts``, ``az``) about a tenth of the
compile time went to such copies (``docs/experiments.md``, 2026-11-29: one
compile per signature). The copies compute the same thing: no suite kernel needs a
value at compile time (none calls ``numba.literally``), so calls into a
function compiled with the suite's decorators (:mod:`.jit`: the games', the
core's and the agents' kernels, a user's own game, the tests' checkers) are
typed with the plain types here, once for every caller. (The tests' checking
kernels, called with ``True`` from a kernel and with a bool from Python,
compiled twice each: the four Azure and co-op playout tests took 142 s
from an empty cache, 122 s once typed so.)

Other functions (numba's own, a user's plain ``numba.njit``) keep numba's
typing. Like the stamp of :mod:`.kernel_cache`, this hooks numba's
``Dispatcher.get_call_template``, not public API: ``tests/test_compile_once.py``
fails if a numba release moves it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from numba.core import dispatcher, types

#: The mark of a function compiled with one of the suite's decorators.
_MARK = "_azgames_plain_types"


def marked(decorate: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``decorate`` (a numba decorator), with the functions it compiles typed
    by :func:`install`'s rule."""

    @functools.wraps(decorate)
    def decorator(function):
        compiled = decorate(function)
        setattr(compiled, _MARK, True)
        return compiled

    return decorator


def _plain_types(get_call_template):
    """numba's ``get_call_template`` with a marked function's literal
    argument types replaced by their plain types."""

    @functools.wraps(get_call_template)
    def plain(self, args, kws):
        if getattr(self, _MARK, False):
            args = tuple(types.unliteral(a) for a in args)
            kws = {name: types.unliteral(a) for name, a in kws.items()}
        return get_call_template(self, args, kws)

    plain.__wrapped_by_azgames__ = True
    return plain


def install() -> None:
    """Type calls into marked functions without literals (once per process)."""
    current = dispatcher.Dispatcher.get_call_template
    if not getattr(current, "__wrapped_by_azgames__", False):
        dispatcher.Dispatcher.get_call_template = _plain_types(current)  # type: ignore[method-assign]
