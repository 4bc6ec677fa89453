"""The training clock: numba's compiling and the time set aside (the
evaluations) are told apart from the training's own seconds."""

import time

import numba
import pytest

from azgames.training.clock import TrainingClock


def compile_a_new_function() -> None:
    """A compile numba's cache cannot spare: a function it has not seen."""

    @numba.njit
    def add(a, b):
        return a + b

    add(1, 2)


def test_compiling_counts_where_it_happens_and_the_rate_leaves_it_out():
    clock = TrainingClock()
    compile_a_new_function()
    compiled = clock.compile_seconds
    assert compiled > 0
    with clock.set_aside():
        compile_a_new_function()
        time.sleep(0.05)
    assert clock.compile_seconds == compiled  # an evaluation's compiling is no training's
    assert clock.aside >= 0.05
    assert clock.training_seconds == pytest.approx(clock.elapsed() - clock.aside, abs=0.01)
    record = clock.record(steps=1000)
    assert record["compile_seconds"] == round(compiled, 1)
    assert record["training_steps_per_s"] > 1000 / clock.training_seconds


def test_a_clock_started_later_counts_no_earlier_compiling():
    compile_a_new_function()
    assert TrainingClock().compile_seconds == 0
