"""Timed loops taking turns, a short slice each: how two settings or two
implementations are compared on this machine (``contention.py``,
``connect_four.py``).

The speed of this 2-core virtual machine drifts within seconds: the same
code timed for a second, one run after the other, came out up to 25% apart
(``docs/experiments.md``, 29 November). Loops that take turns in slices of
:data:`SLICE_S` see the same drift; the same code against itself then comes
out within 2%.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

#: One turn: short beside the machine's drift, long beside the few
#: microseconds a turn costs (a message to a probe process, a clock read).
SLICE_S = 0.05


def taking_turns(sides: Sequence[Callable[[float], tuple[int, float]]], seconds: float) -> list[float]:
    """Each side's steps a second. A side is ``run(slice_s) -> (steps, seconds
    taken)``, running about ``slice_s`` from where its last turn left off; the
    sides take turns until each has run ``seconds``, the first to go
    alternating so that neither always follows the other."""
    steps, took = [0] * len(sides), [0.0] * len(sides)
    turn = 0
    while min(took) < seconds:
        order = range(len(sides)) if turn % 2 == 0 else reversed(range(len(sides)))
        for k in order:
            done, spent = sides[k](SLICE_S)
            steps[k], took[k] = steps[k] + done, took[k] + spent
        turn += 1
    return [n / t for n, t in zip(steps, took)]
