"""Writes azgames/core/data/font.npz, the bitmap font of the raster pictures.

The rgb_array frames draw text without any font library: each printable
ASCII character is stored once as an 8-bit coverage image, rendered here by
matplotlib's Agg from DejaVu Sans Mono, and scaled when drawn. Run it again
only to change the font: ``python scripts/make_font.py``.
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

HEIGHT, WIDTH = 32, 15  # pixels per glyph cell; 15 is the font's advance (0.6 em)
BASELINE = 25  # pixels from the cell's top to the baseline
OUT = Path(__file__).resolve().parents[1] / "azgames" / "data" / "font.npz"


def glyph(ch: str) -> np.ndarray:
    fig = Figure(figsize=(WIDTH / 100, HEIGHT / 100), dpi=100)
    canvas = FigureCanvasAgg(fig)
    fig.text(
        0.5,
        1 - BASELINE / HEIGHT,
        ch,
        family="DejaVu Sans Mono",
        size=HEIGHT * 0.78 * 72 / 100,
        ha="center",
        va="baseline",
        color="black",
    )
    canvas.draw()
    rgba = np.asarray(canvas.buffer_rgba())
    return (255 - rgba[:, :, 0]).astype(np.uint8)


def main() -> None:
    glyphs = np.stack([glyph(chr(c)) for c in range(32, 127)])
    np.savez_compressed(OUT, glyphs=glyphs, first=32)
    print(f"{OUT}: {len(glyphs)} glyphs of {HEIGHT} x {WIDTH}")


if __name__ == "__main__":
    main()
