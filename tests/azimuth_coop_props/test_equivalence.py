"""The AEC env and the vector env are the same co-op game, auto-resets, die
rolls and wave sub-phases included (the check every game runs,
:func:`tests.equivalence.run_equivalence`, with 2, 3 and 4 players: an agent
to act is the controller of the colour to act).

Both envs draw the Ocean Die from the game's generator word; the shadow AEC
env takes the vector game's word after the random action draw, so both roll
the same faces and must agree on everything after every step."""

from __future__ import annotations

import pytest

from azimuth_env import coop as coop_module
from tests.azimuth.helpers import numba_threads
from tests.equivalence import run_equivalence

from .test_playouts import VARIANTS


def rolls_and_wave_steps(env) -> int:
    """Counted after every AEC step: a roll counts 1, a step into or within the waves' order 1000."""
    s = env.unwrapped.state
    return int(s.rolled[0] >= 0) + 1000 * int(s.wave[0] >= 0)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_aec_and_vector_agree_across_auto_resets(variant):
    num_players, options = VARIANTS[variant]
    with numba_threads(1):
        stats = run_equivalence(
            coop_module,
            num_players,
            options,
            num_envs=8,
            steps=110,
            seed=sum(map(ord, variant)),
            count=rolls_and_wave_steps,
        )
    # games last 40-60 steps (the lighthouses, 40 turns, wave choices)
    assert stats["restarts"] >= 8 and stats["terminated"] == stats["restarts"], stats
    assert stats["counted"] % 1000 > 0, f"no die was rolled: {stats}"
    if options.get("wave_order", "choose") == "choose":
        assert stats["counted"] >= 1000, f"no wave sub-phase was met: {stats}"


def test_equivalence_smoke():
    """Short games (quick enough to run as plain Python with NUMBA_DISABLE_JIT=1)."""
    with numba_threads(1):
        stats = run_equivalence(
            coop_module, 2, {"rounds": 2, "lighthouses": "random"}, num_envs=3, steps=20, seed=5
        )
    assert stats["restarts"] >= 3
