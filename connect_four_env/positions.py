"""Connect Four test positions with every move's exact value, and the
share of them where a player's move is optimal.

The committed set (``data/test_positions.json``, made by
``benchmarks/connect_four_positions.py``) holds positions of 8-24 stones
from varied play whose legal moves do not all have the same outcome. Each
is its move sequence in Pons' notation (digits 1-7, 1 the leftmost column:
column ``c`` of the env is digit ``c + 1``) and each column's value from
the mover's view (:mod:`.solver`'s scores; None for a full column).

A move is *optimal* when its outcome (win, draw or loss: the value's sign)
is the best move's: no win turned into a draw or a loss, no draw into a
loss. A front end scores a player with :func:`score`, which needs nothing
of the game but a function from a position to a column.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from azgames.core.stats import wilson_interval

from .solver import ILLEGAL, board_from_moves, outcome

PATH = Path(__file__).resolve().parent / "data" / "test_positions.json"


@dataclass(frozen=True)
class Position:
    moves: str  # Pons' notation: digits 1-7, 1 the leftmost column
    values: tuple[int | None, ...]  # each column's value for the mover; None: full

    @property
    def stones(self) -> int:
        return len(self.moves)

    @property
    def columns(self) -> list[int]:
        """The moves as the env's actions (columns 0-6)."""
        return [int(ch) - 1 for ch in self.moves]

    def board(self) -> np.ndarray:
        """The (6, 7) board (-1 empty, else the player's stone; row 0 the bottom)."""
        return board_from_moves(self.moves)

    def best_outcome(self) -> int:
        return max(outcome(v) for v in self.values if v is not None)

    def optimal(self, column: int) -> bool:
        """Whether ``column`` (0-6) keeps the best move's outcome; False if it is full."""
        v = self.values[column]
        return v is not None and outcome(v) == self.best_outcome()


def load(path: str | Path = PATH) -> list[Position]:
    """The positions of a test-set file (the committed one by default)."""
    data = json.loads(Path(path).read_text())
    return [Position(p["moves"], tuple(p["values"])) for p in data["positions"]]


def as_record(moves: Sequence[int], values: Sequence[int]) -> dict[str, Any]:
    """A position as the file stores it: ``moves`` columns 0-6, ``values`` from :func:`.solver.move_values`."""
    return {
        "moves": "".join(str(c + 1) for c in moves),
        "values": [None if v == ILLEGAL else int(v) for v in values],
    }


@dataclass(frozen=True)
class Score:
    optimal: int
    positions: int
    low: float  # the share's 95 % Wilson interval
    high: float

    @property
    def share(self) -> float:
        return self.optimal / self.positions if self.positions else 0.0

    def __str__(self) -> str:
        return (
            f"{self.optimal}/{self.positions} optimal moves ({100 * self.share:.1f}%, "
            f"95% interval {100 * self.low:.1f}-{100 * self.high:.1f}%)"
        )


def score(choose: Callable[[Position], int], positions: Sequence[Position] | None = None) -> Score:
    """The share of ``positions`` (the committed set by default) where
    ``choose(position)`` (a column 0-6) is optimal, with its 95 % interval."""
    positions = load() if positions is None else positions
    hits = sum(p.optimal(int(choose(p))) for p in positions)
    return Score(hits, len(positions), *wilson_interval(hits, len(positions)))
