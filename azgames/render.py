"""Drawing helpers shared by the games' ``rgb_array`` renderers (numpy only).

Renderers build their sprites once (cached per size) and then only copy
pixels, so rendering a frame allocates one image and draws no shapes.
"""

from __future__ import annotations

import numpy as np

#: Player colours, in player order, and neutral shades (RGB).
PLAYER_RGB = np.array([[200, 40, 40], [40, 90, 200], [30, 150, 60], [220, 180, 20]], np.uint8)
PIECE_RGB = (PLAYER_RGB.astype(np.int16) * 6 // 10).astype(np.uint8)
NEUTRAL_RGB = np.array([[226, 220, 204], [196, 188, 170]], np.uint8)
LINE_RGB = np.array([40, 40, 40], np.uint8)


def polygon_mask(points: np.ndarray, size: int) -> np.ndarray:
    """Pixels of a ``size`` x ``size`` square whose centres lie inside the
    polygon ``points`` (N x 2, in pixel units, x right and y down); even-odd rule."""
    ys, xs = np.mgrid[0:size, 0:size] + 0.5
    inside = np.zeros((size, size), bool)
    n = len(points)
    for j in range(n):
        (x1, y1), (x2, y2) = points[j], points[(j + 1) % n]
        crosses = (y1 > ys) != (y2 > ys)
        with np.errstate(divide="ignore", invalid="ignore"):
            x_at = x1 + (ys - y1) * (x2 - x1) / (y2 - y1)
        inside ^= crosses & (xs < x_at)
    return inside


def rotate(points: np.ndarray, degrees_clockwise: float, centre: float) -> np.ndarray:
    """Rotate points (x right, y down) clockwise on screen about (centre, centre)."""
    t = np.deg2rad(degrees_clockwise)
    c, s = np.cos(t), np.sin(t)
    p = points - centre
    return np.stack([p[:, 0] * c - p[:, 1] * s, p[:, 0] * s + p[:, 1] * c], axis=1) + centre


def paint(image: np.ndarray, top: int, left: int, mask: np.ndarray, rgb) -> None:
    """Colour the pixels of ``mask`` placed with its corner at (top, left)."""
    h, w = mask.shape
    image[top : top + h, left : left + w][mask] = rgb
