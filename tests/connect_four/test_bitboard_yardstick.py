"""The hand-written bitboard kernel the contract is measured against
(``benchmarks/connect_four_bitboard.py``) plays the same game: a yardstick
that skipped work would flatter it. Checked against the plain-Python
reference over random games and their restarts."""

from __future__ import annotations

import numpy as np

from benchmarks.connect_four_bitboard import BitboardVec

from .reference import Reference


def test_the_bitboards_play_the_reference_game_and_write_the_same_outputs():
    n = 8
    venv = BitboardVec(n, seed=1)
    refs = [Reference() for _ in range(n)]
    ended = 0
    for _ in range(200):
        actions = venv.random_actions().copy()
        obs, legal, rewards, terminated, player = venv.step(actions)
        for i in range(n):
            mover = refs[i].player
            refs[i].play(int(actions[i]))
            assert bool(terminated[i]) == refs[i].over
            if refs[i].over:
                assert rewards[i, mover] == (0.0 if refs[i].winner is None else 1.0)
                refs[i], ended = Reference(), ended + 1
            assert np.flatnonzero(legal[i]).tolist() == refs[i].legal()
            assert obs[i].tolist() == refs[i].planes(refs[i].player)
            assert player[i] == refs[i].player
    assert ended >= 20  # restarts were checked too
