"""Functions that numba picks per game at compile time, from the type of the
game's state tuple.

The core's entry points (:mod:`azgames.core.contract`) and the tree search
(``azgames.agents.mcts``) are each one numba function for every game: they
call ``play(s, cfg, i, ...)`` and the like, and a :class:`Family` finds the
game's own function from the class of ``s`` (``numba.extending.overload``).
So each caller is compiled once per game, cached on disk, and pays no call
through a function pointer. Under ``NUMBA_DISABLE_JIT=1`` the same
functions dispatch in Python on ``type(s)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba.extending import overload


class Family:
    """A set of named functions, each implemented by every game that registers."""

    def __init__(self) -> None:
        #: state class -> {name: the game's njit function, or None}
        self.impls: dict[type, dict[str, Callable[..., Any] | None]] = {}
        #: State classes whose functions are copied into their callers.
        self.inlined: set[type] = set()

    def implement(
        self, state_type: type, inline: bool = False, **functions: Callable[..., Any] | None
    ) -> None:
        """Register a game's functions for states of ``state_type``; ``inline``
        copies them into their callers (for small kernels, where passing the
        state tuple costs a reference count on each of its arrays, shared
        between threads; large kernels inlined would multiply the compile time)."""
        self.impls[state_type] = dict(functions)
        (self.inlined.add if inline else self.inlined.discard)(state_type)

    def of(self, state_type: Any, name: str) -> Callable[..., Any] | None:
        """The game's ``name`` for ``state_type`` (a class, or numba's type of one)."""
        cls = getattr(state_type, "instance_class", state_type)
        return self.impls.get(cls, {}).get(name)

    def _small_game(self, expr, caller, callee) -> bool:
        return getattr(caller.typemap[expr.args[0].name], "instance_class", None) in self.inlined

    def function(self, name: str, params: str, doc: str) -> Callable[..., Any]:
        """The function ``name(params)`` (``params`` names the arguments, the
        state ``s`` first) that runs the game's ``name``."""
        # Written out as source: numba's inliner refuses *args, and an
        # overload's implementation must take the arguments its typer takes.
        namespace: dict[str, Any] = {"__name__": __name__, "impls": self.impls, "of": self.of}
        exec(_SOURCE.format(name=name, params=params), namespace)
        call = namespace[name]
        call.__doc__ = doc
        overload(call, inline=self._small_game)(namespace["typer"])
        return call


_SOURCE = """
def {name}({params}):
    return impls[type(s)]["{name}"]({params})

def typer({params}):
    fn = of(s, "{name}")
    if fn is not None:
        return lambda {params}: fn({params})
"""
