"""One drawing of a position, two outputs: SVG text and an RGB image.

A game's picture module fills a :class:`Drawing` with shapes and text once;
``svg()`` writes it for notebooks and the browser (crisp at any size, each
clickable place tagged ``data-target``), and ``rgb()`` paints the same
shapes into a numpy image for ``render_mode="rgb_array"``, with a bitmap
font (``azgames/core/data/font.npz``) instead of a font library. Both outputs
share every coordinate, colour and label, so the frames of a video show
what the SVG shows.

Colours are ``#rrggbb`` strings. Text is ASCII (the bitmap font's range);
``y`` of a text is its baseline, as in SVG.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from pathlib import Path

import numpy as np

#: Seat colours, from Okabe & Ito's palette for colour-vision deficiencies:
#: vermillion, blue, bluish green, yellow. Pictures also label every piece,
#: so colour is never the only cue.
SEAT_COLOURS = ("#d55e00", "#0072b2", "#009e73", "#f0e442")
#: Text colour readable on each seat colour.
SEAT_INK = ("#ffffff", "#ffffff", "#ffffff", "#000000")
INK = "#1a1a1a"
FAINT = "#6b6b6b"
PAPER = "#ffffff"
FONT_FAMILY = "DejaVu Sans Mono, Menlo, Consolas, monospace"

# The bitmap font's cell: a glyph of font size S is S / EM_FRACTION pixels tall.
_EM_FRACTION = 0.78
_BASELINE_FRACTION = 25 / 32
_ANCHORS = ("start", "middle", "end")


@dataclass(frozen=True)
class _Shape:
    kind: str  # rect, circle, polygon, line, text
    geometry: tuple
    fill: str | None
    stroke: str | None
    width: float
    target: str | None = None
    tip: str | None = None
    extra: dict = field(default_factory=dict)


def _rgb_of(colour: str | None) -> tuple[int, int, int]:
    if not (isinstance(colour, str) and len(colour) == 7 and colour[0] == "#"):
        raise ValueError(f"colour {colour!r} must be '#rrggbb'")
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _num(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


class Drawing:
    """Shapes on a ``width`` x ``height`` canvas (pixels, x right, y down).

    ``target`` names a clickable place (a square, a beach): the SVG tags the
    shape ``data-target``, which the browser app turns into moves. ``tip``
    is a hover text (an SVG ``<title>``), e.g. what a piece is. ``piece``
    marks a shape drawn over its place (a chevron on its square): it takes
    the place's clicks, but the app's click hints outline the place alone."""

    def __init__(self, width: float, height: float, *, title: str = "", background: str = PAPER):
        self.width, self.height = float(width), float(height)
        self.title = title
        self.background = background
        self.shapes: list[_Shape] = []

    # ------------------------------------------------------------------ shapes
    def rect(
        self, x, y, w, h, *, fill=None, stroke=None, width=1.0, target=None, tip=None, round=0.0, piece=False
    ):
        shape = _Shape("rect", (x, y, w, h, round), fill, stroke, width, target, tip, {"piece": piece})
        self.shapes.append(shape)

    def circle(self, cx, cy, r, *, fill=None, stroke=None, width=1.0, target=None, tip=None, piece=False):
        self.shapes.append(_Shape("circle", (cx, cy, r), fill, stroke, width, target, tip, {"piece": piece}))

    def polygon(self, points, *, fill=None, stroke=None, width=1.0, target=None, tip=None, piece=False):
        pts = tuple((float(x), float(y)) for x, y in points)
        self.shapes.append(_Shape("polygon", pts, fill, stroke, width, target, tip, {"piece": piece}))

    def line(self, x1, y1, x2, y2, *, stroke=INK, width=1.0, dash: bool = False):
        self.shapes.append(_Shape("line", (x1, y1, x2, y2), None, stroke, width, extra={"dash": dash}))

    def text(self, x, y, text, *, size=12.0, fill=INK, anchor="middle", bold=False, tip=None):
        if anchor not in _ANCHORS:
            raise ValueError(f"anchor={anchor!r} must be one of {_ANCHORS}")
        text = str(text)
        bad = sorted({c for c in text if not 32 <= ord(c) < 127})
        if bad:
            raise ValueError(f"text {text!r} has characters outside printable ASCII: {bad}")
        self.shapes.append(
            _Shape("text", (x, y, text, size), fill, None, 0.0, None, tip, {"anchor": anchor, "bold": bold})
        )

    # --------------------------------------------------------------------- SVG
    def svg(self) -> str:
        """The drawing as a standalone SVG document (scales to its container)."""
        w, h = _num(self.width), _num(self.height)
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
            f'font-family="{FONT_FAMILY}">'
        ]
        if self.title:
            out.append(f"<title>{escape(self.title)}</title>")
        out.append(f'<rect x="0" y="0" width="{w}" height="{h}" fill="{self.background}"/>')
        out.extend(_svg_shape(s) for s in self.shapes)
        out.append("</svg>")
        return "\n".join(out)

    def _repr_svg_(self) -> str:
        return self.svg()

    def save(self, path) -> Path:
        """Write the SVG (``.svg``) or the RGB image (``.png``, needs matplotlib) to ``path``."""
        path = Path(path)
        if path.suffix == ".svg":
            path.write_text(self.svg())
        elif path.suffix == ".png":
            import matplotlib.pyplot as plt

            plt.imsave(path, self.rgb())
        else:
            raise ValueError(f"path={str(path)!r}: save as .svg or .png")
        return path

    # ------------------------------------------------------------------ raster
    def rgb(self, scale: float = 1.0) -> np.ndarray:
        """The drawing painted into an (H, W, 3) uint8 image, ``scale`` pixels per unit."""
        if not scale > 0:
            raise ValueError(f"scale={scale!r} must be > 0")
        height, width = int(round(self.height * scale)), int(round(self.width * scale))
        image = np.empty((height, width, 3), np.uint8)
        image[:] = _rgb_of(self.background)
        for s in self.shapes:
            _paint_shape(image, s, scale)
        return image


# ------------------------------------------------------------------------ SVG
def _style(s: _Shape) -> str:
    parts = [f'fill="{s.fill or "none"}"']
    if s.stroke:
        parts.append(f'stroke="{s.stroke}" stroke-width="{_num(s.width)}"')
    if s.target is not None:
        kind = "target piece" if s.extra.get("piece") else "target"
        parts.append(f'data-target="{escape(s.target)}" class="{kind}"')
    return " ".join(parts)


def _svg_shape(s: _Shape) -> str:
    tip = f"<title>{escape(s.tip)}</title>" if s.tip else ""
    if s.kind == "rect":
        x, y, w, h, r = s.geometry
        rounded = f' rx="{_num(r)}"' if r else ""
        head = f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}"{rounded} {_style(s)}'
    elif s.kind == "circle":
        cx, cy, r = s.geometry
        head = f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}" {_style(s)}'
    elif s.kind == "polygon":
        pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in s.geometry)
        head = f'<polygon points="{pts}" {_style(s)}'
    elif s.kind == "line":
        x1, y1, x2, y2 = s.geometry
        dash = f' stroke-dasharray="{_num(3 * s.width)} {_num(2 * s.width)}"' if s.extra["dash"] else ""
        head = (
            f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" '
            f'stroke="{s.stroke}" stroke-width="{_num(s.width)}" stroke-linecap="round"{dash}'
        )
    else:
        x, y, text, size = s.geometry
        weight = ' font-weight="bold"' if s.extra["bold"] else ""
        # xml:space keeps runs of spaces, which align columns of monospace text.
        return (
            f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" fill="{s.fill}" '
            f'text-anchor="{s.extra["anchor"]}" xml:space="preserve"{weight}>{tip}{escape(text)}</text>'
        )
    return f"{head}>{tip}</{s.kind}>" if tip else f"{head}/>"


# --------------------------------------------------------------------- raster
@lru_cache(maxsize=1)
def _font() -> np.ndarray:
    with np.load(Path(__file__).with_name("data") / "font.npz") as data:
        return data["glyphs"]


def _blend(image, top, left, coverage, colour) -> None:
    """Mix ``colour`` into the image where ``coverage`` (0-1, placed at top, left) is."""
    h, w = coverage.shape
    t0, l0 = max(top, 0), max(left, 0)
    t1, l1 = min(top + h, image.shape[0]), min(left + w, image.shape[1])
    if t0 >= t1 or l0 >= l1:
        return
    a = coverage[t0 - top : t1 - top, l0 - left : l1 - left, None]
    region = image[t0:t1, l0:l1]
    region[:] = (region * (1 - a) + np.asarray(colour, np.float64) * a + 0.5).astype(np.uint8)


def _box(xs, ys, pad, scale):
    left = int(np.floor((min(xs) - pad) * scale))
    top = int(np.floor((min(ys) - pad) * scale))
    right = int(np.ceil((max(xs) + pad) * scale)) + 1
    bottom = int(np.ceil((max(ys) + pad) * scale)) + 1
    return top, left, bottom - top, right - left


def _grid(top, left, h, w, scale):
    """Pixel centres of a box, in drawing units: (y, x) arrays."""
    ys, xs = np.mgrid[top : top + h, left : left + w] + 0.5
    return ys / scale, xs / scale


def _polygon_coverage(points, ys, xs) -> np.ndarray:
    """Even-odd inside test of each pixel centre."""
    inside = np.zeros(ys.shape, bool)
    n = len(points)
    for j in range(n):
        (x1, y1), (x2, y2) = points[j], points[(j + 1) % n]
        if y1 == y2:
            continue
        crosses = (y1 > ys) != (y2 > ys)
        x_at = x1 + (ys - y1) * (x2 - x1) / (y2 - y1)
        inside ^= crosses & (xs < x_at)
    return inside.astype(np.float64)


def _segment_polygon(x1, y1, x2, y2, width):
    dx, dy = x2 - x1, y2 - y1
    length = max(np.hypot(dx, dy), 1e-9)
    nx, ny = -dy / length * width / 2, dx / length * width / 2
    return ((x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny))


def _fill_box(image, x0, y0, x1, y1, colour, scale) -> None:
    """Fill the pixels whose centres lie in [x0, x1) x [y0, y1): what the
    polygon test gives an axis-aligned rectangle, by slicing alone."""
    top, bottom = (max(int(np.ceil(v * scale - 0.5)), 0) for v in (y0, y1))
    left, right = (max(int(np.ceil(v * scale - 0.5)), 0) for v in (x0, x1))
    image[top:bottom, left:right] = _rgb_of(colour)


def _paint_polygon(image, points, colour, scale) -> None:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    if (
        len(points) == 4
        and len(set(xs)) == 2
        and len(set(ys)) == 2
        and all(a[0] == b[0] or a[1] == b[1] for a, b in zip(points, points[1:] + points[:1]))
    ):
        _fill_box(image, min(xs), min(ys), max(xs), max(ys), colour, scale)
        return
    top, left, h, w = _box(xs, ys, 0, scale)
    gy, gx = _grid(top, left, h, w, scale)
    _blend(image, top, left, _polygon_coverage(points, gy, gx), _rgb_of(colour))


def _paint_shape(image, s: _Shape, scale: float) -> None:
    if s.kind == "rect":
        x, y, w, h, _ = s.geometry
        outline = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
        if s.fill:
            _paint_polygon(image, outline, s.fill, scale)
        if s.stroke:
            _paint_outline(image, outline, s.stroke, s.width, scale)
    elif s.kind == "circle":
        cx, cy, r = s.geometry
        top, left, h, w = _box((cx,), (cy,), r + s.width, scale)
        gy, gx = _grid(top, left, h, w, scale)
        d = np.hypot(gx - cx, gy - cy)
        if s.fill:
            _blend(image, top, left, (d <= r).astype(np.float64), _rgb_of(s.fill))
        if s.stroke:
            ring = np.abs(d - r) <= max(s.width / 2, 0.5 / scale)
            _blend(image, top, left, ring.astype(np.float64), _rgb_of(s.stroke))
    elif s.kind == "polygon":
        if s.fill:
            _paint_polygon(image, s.geometry, s.fill, scale)
        if s.stroke:
            _paint_outline(image, s.geometry, s.stroke, s.width, scale)
    elif s.kind == "line":
        width = max(s.width, 1 / scale)
        x1, y1, x2, y2 = s.geometry
        _paint_polygon(image, _segment_polygon(x1, y1, x2, y2, width), s.stroke, scale)
    else:
        _paint_text(image, s, scale)


def _paint_outline(image, points, colour, width, scale) -> None:
    width = max(width, 1 / scale)
    n = len(points)
    for j in range(n):
        (x1, y1), (x2, y2) = points[j], points[(j + 1) % n]
        _paint_polygon(image, _segment_polygon(x1, y1, x2, y2, width), colour, scale)


def _paint_text(image, s: _Shape, scale: float) -> None:
    x, y, text, size = s.geometry
    if not text:
        return
    glyphs = _font()
    cell_h = size / _EM_FRACTION * scale
    rows = max(int(round(cell_h)), 1)
    cols = max(int(round(cell_h * glyphs.shape[2] / glyphs.shape[1])), 1)
    start = {"start": 0.0, "middle": -len(text) * cols / 2, "end": -len(text) * cols}[s.extra["anchor"]]
    left = int(round(x * scale + start))
    top = int(round(y * scale - _BASELINE_FRACTION * rows))
    coverage = np.concatenate([_glyph(ch, rows, cols, s.extra["bold"]) for ch in text], axis=1)
    _blend(image, top, left, coverage, _rgb_of(s.fill))


@lru_cache(maxsize=4096)
def _glyph(ch: str, rows: int, cols: int, bold: bool) -> np.ndarray:
    """The coverage (0-1) of ``ch`` in a rows x cols cell. Box-filter
    resampling of the 32-pixel cells keeps thin strokes (the hook of an f)
    at small sizes."""
    glyphs = _font()
    cell = _box_weights(rows, glyphs.shape[1]) @ glyphs[ord(ch) - 32] @ _box_weights(cols, glyphs.shape[2]).T
    cell = np.minimum(cell / 255 * 1.25, 1.0)
    if bold:  # a second copy one pixel right thickens the strokes
        cell = np.maximum(cell, np.pad(cell, ((0, 0), (1, 0)))[:, :-1])
    return cell


@lru_cache(maxsize=64)
def _box_weights(out: int, source: int) -> np.ndarray:
    """An (out, source) matrix averaging the source pixels each output pixel spans."""
    edges = np.arange(out + 1) * source / out
    lo, hi = edges[:-1, None], edges[1:, None]
    cells = np.arange(source)[None, :]
    overlap = np.clip(np.minimum(hi, cells + 1) - np.maximum(lo, cells), 0, None)
    return overlap / overlap.sum(axis=1, keepdims=True)
