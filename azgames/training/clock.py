"""How long a training run trains: its rate once numba has compiled.

A first run on an empty numba cache compiles for tens of seconds inside
its first updates, and the evaluations along the way play hundreds of
games: both would make the training look slower than it runs.
:class:`TrainingClock` keeps the run's wall time, the time set aside for
evaluations, and the seconds numba compiled during the training itself
(numba's ``numba:compile`` events, which a cache hit does not fire).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from numba.core import event


class _CompileSeconds(event.Listener):
    """Seconds numba has compiled in this process, nested compiles counted once."""

    def __init__(self) -> None:
        self.depth = 0
        self.began = 0.0
        self.total = 0.0

    def on_start(self, event: event.Event) -> None:
        if self.depth == 0:
            self.began = time.perf_counter()
        self.depth += 1

    def on_end(self, event: event.Event) -> None:
        self.depth = max(0, self.depth - 1)
        if self.depth == 0:
            self.total += time.perf_counter() - self.began


_compiling: _CompileSeconds | None = None


def _compile_seconds() -> _CompileSeconds:
    """The process's one listener, registered on first use."""
    global _compiling
    if _compiling is None:
        _compiling = _CompileSeconds()
        event.register("numba:compile", _compiling)
    return _compiling


class TrainingClock:
    """A run's clock, started when made: :meth:`elapsed` wall seconds, of
    which :meth:`set_aside` blocks (the evaluations) are not training and
    :attr:`compile_seconds` of the rest went to numba's compiler."""

    def __init__(self, carried: dict[str, float] | None = None) -> None:
        """``carried``: a resumed run's :meth:`state` when it stopped, its
        seconds counted on from there."""
        carried = carried or {}
        self.compiler = _compile_seconds()
        self.start = time.perf_counter() - carried.get("elapsed", 0.0)
        self.compiled_at_start = self.compiler.total - carried.get("compiled", 0.0)
        self.aside = carried.get("aside", 0.0)
        self.compiled_aside = carried.get("compiled_aside", 0.0)

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    @contextmanager
    def set_aside(self) -> Iterator[None]:
        """Time that is no training, its compiling included."""
        start, compiled = time.perf_counter(), self.compiler.total
        try:
            yield
        finally:
            self.aside += time.perf_counter() - start
            self.compiled_aside += self.compiler.total - compiled

    @property
    def training_seconds(self) -> float:
        return self.elapsed() - self.aside

    @property
    def compile_seconds(self) -> float:
        return self.compiler.total - self.compiled_at_start - self.compiled_aside

    def state(self) -> dict[str, float]:
        """What a resume point keeps of the clock (:class:`TrainingClock`'s ``carried``)."""
        return {
            "elapsed": self.elapsed(),
            "compiled": self.compiler.total - self.compiled_at_start,
            "aside": self.aside,
            "compiled_aside": self.compiled_aside,
        }

    def record(self, steps: int) -> dict[str, float]:
        """The rate of ``steps`` over the training's own seconds, compiling
        left out, with the seconds it leaves out: for the run's record."""
        compiled = self.compile_seconds
        training = self.training_seconds
        return {
            "training_seconds": round(training, 1),
            "compile_seconds": round(compiled, 1),
            "evaluation_seconds": round(self.aside, 1),
            "training_steps_per_s": round(steps / max(training - compiled, 1e-9)),
        }
