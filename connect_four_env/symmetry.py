"""Connect Four's one symmetry: the board seen in a mirror, left for right.

No rule tells the columns apart but by their neighbours, so the mirrored
position is a position of the same game with the same value, and the move
in column i becomes the move in column 6 - i.
``tests/connect_four/test_symmetry.py`` checks this against the kernels."""

from __future__ import annotations

import numpy as np

from azgames.core.symmetry import Symmetry


def symmetries(rules) -> list[Symmetry]:
    """The mirror, over the observation's planes of rows of columns."""
    planes, rows, columns = rules.observation_shape(0)
    cells = np.arange(planes * rows * columns).reshape(planes, rows, columns)
    mirror = cells[:, :, ::-1].ravel()
    return [Symmetry(mirror, np.ones(mirror.size, np.int8), np.arange(columns)[::-1].copy())]


__all__ = ["symmetries"]
