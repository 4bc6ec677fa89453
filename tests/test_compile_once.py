"""A function compiled with the suite's decorators is compiled once per tuple
of argument types, whatever constants its callers pass
(``azgames/core/specialisation.py``).

numba alone types a literal ``0`` or ``True`` passed from one kernel to
another as a type of its own and compiles the callee again for it: the
search's ``new_node`` compiled three times in one first move."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from numba.core import types

from azgames.core.game import pack_status
from azgames.core.jit import JIT_DISABLED, njit

pytestmark = pytest.mark.skipif(JIT_DISABLED, reason="nothing compiles without numba's JIT")


def literal_signatures(kernel) -> list:
    return [sig for sig in kernel.signatures if any(isinstance(a, types.Literal) for a in sig)]


@numba.njit
def status_of_a_win(player):
    return pack_status(1, True, player)


@numba.njit
def status_of(outcome, truncated, player):
    return pack_status(outcome, truncated, player)


@numba.njit
def outside_the_suite(outcome, truncated, player):
    return outcome + truncated + player


@numba.njit
def calls_outside_the_suite_with_constants(player):
    return outside_the_suite(1, True, player)


@njit  # the suite's decorator, in a file outside the suite's folders (as a user's game)
def checked_with_the_suites_decorator(outcome, truncated, player):
    return outcome + truncated + player


@numba.njit
def calls_the_decorated_function_with_constants(player):
    return checked_with_the_suites_decorator(1, True, player)


def test_a_suite_kernel_called_with_constants_compiles_for_their_plain_types():
    assert status_of_a_win(np.int64(1)) == status_of(np.int64(1), True, np.int64(1))
    assert literal_signatures(pack_status) == []
    assert (types.int64, types.boolean, types.int64) in pack_status.signatures


def test_a_function_compiled_with_the_suites_decorator_anywhere_is_typed_alike():
    """The tests' checking kernels and a user's own game get the same one
    compile per argument types as the suite's own kernels."""
    assert calls_the_decorated_function_with_constants(np.int64(1)) == 3
    assert literal_signatures(checked_with_the_suites_decorator) == []


def test_a_function_outside_the_suite_keeps_numbas_typing():
    """The control: numba's own behaviour, which the suite's kernels are spared."""
    assert calls_outside_the_suite_with_constants(np.int64(1)) == 3
    assert literal_signatures(outside_the_suite) != []
