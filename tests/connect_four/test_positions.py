"""The committed Connect Four test positions (connect_four_env/data) and the
share-of-optimal-moves score (connect_four_env/positions.py)."""

from __future__ import annotations

import numpy as np
import pytest

from connect_four_env import positions, solver
from connect_four_env.positions import Position


@pytest.fixture(scope="module")
def committed() -> list[Position]:
    return positions.load()


def test_the_committed_set_spans_8_to_24_stones_and_every_position_has_a_wrong_move(committed):
    assert len(committed) >= 300
    assert {p.stones for p in committed} == set(range(8, 25))
    assert len({p.moves for p in committed}) == len(committed)
    for p in committed:
        outcomes = {solver.outcome(v) for v in p.values if v is not None}
        assert len(outcomes) >= 2, p.moves
        assert [v is None for v in p.values] == (p.board()[5] != -1).tolist(), p.moves


def test_a_sample_of_the_committed_values_is_the_solvers(committed):
    rng = np.random.default_rng(0)
    late = [p for p in committed if p.stones >= 16]
    early = [p for p in committed if 12 <= p.stones < 16]  # 8 stones: seconds each
    sample = [late[k] for k in rng.choice(len(late), 12, replace=False)]
    sample += [early[k] for k in rng.choice(len(early), 3, replace=False)]
    for p in sample:
        values = solver.move_values(p.board())
        assert [None if v == solver.ILLEGAL else int(v) for v in values] == list(p.values), p.moves


def test_optimal_keeps_the_best_outcome():
    p = Position("4", (-3, 0, 0, 2, 5, None, -1))
    assert p.optimal(3) and p.optimal(4)  # any win, slow or fast
    assert not p.optimal(1) and not p.optimal(0) and not p.optimal(5)  # a draw, a loss, a full column
    q = Position("4", (-3, 0, 0, -2, -5, -1, -1))
    assert q.optimal(1) and q.optimal(2) and not q.optimal(0)


def test_the_score_is_a_share_with_its_wilson_interval(committed):
    sample = committed[:200]
    perfect = positions.score(lambda p: int(np.argmax([-99 if v is None else v for v in p.values])), sample)
    assert (perfect.optimal, perfect.positions, perfect.share) == (200, 200, 1.0)
    assert 0.98 < perfect.low < perfect.high == pytest.approx(1.0)
    worst = positions.score(lambda p: int(np.argmin([99 if v is None else v for v in p.values])), sample)
    assert worst.optimal == 0 and worst.low == 0.0 and worst.high < 0.02
    half = positions.wilson_interval(50, 100)
    assert half == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert "200/200 optimal moves (100.0%" in str(perfect)
