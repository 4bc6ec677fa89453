"""Azure Attack's map: layouts (data), square geometry and notation, and the
kernel tables built from a layout.

A layout (``data/maps.json``) is a grid of tiles; a tile is 2 x 2 squares.
Squares are numbered ``row * width + column`` with row 0 the south edge and
column 0 the west edge, and named like chess squares (``a1`` south-west).
Suit tiles are *slots*: slot 0 is the monster's, slots 1-3 the hunters'.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

#: Step directions (the actions 0-3), as (column, row) offsets.
DIRECTIONS = ("N", "E", "S", "W")
DX = (0, 1, 0, -1)
DY = (1, 0, -1, 0)
STOP = 4
ACTION_NAMES = (*DIRECTIONS, "stop")

#: ``SLOT`` table values besides slots 0-3.
VOID, MAP = -2, -1
MONSTER_SLOT = 0
MAX_HUNTERS = 3

COLUMNS = "abcdefghijklmnopqrstuvwxyz"


def square_name(square: int, width: int) -> str:
    return f"{COLUMNS[square % width]}{square // width + 1}"


def parse_square(text: str, width: int, height: int) -> int:
    """The square index of a name such as ``c11``; ValueError naming the bad name."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in COLUMNS[:width] or not text[1:].isdigit():
        raise ValueError(f"{text!r} is not a square name (a1 to {COLUMNS[width - 1]}{height})")
    row = int(text[1:]) - 1
    if not 0 <= row < height:
        raise ValueError(f"{text!r} is off the map (rows 1 to {height})")
    return row * width + COLUMNS.index(text[0])


@dataclass(frozen=True)
class Layout:
    """A map: where each tile lies, and the tables the kernels read."""

    name: str
    description: str
    height: int  # squares
    width: int
    #: Per square: VOID, MAP, or the suit slot (0 monster, 1-3 hunters).
    slot: np.ndarray
    #: Per map tile (reading order, north-west first): its four squares.
    tile_squares: np.ndarray
    #: Per map tile: the square its coin starts on (nearest the map's centre).
    coin_start: np.ndarray
    #: Per slot: its home square, -1 if the map has no such slot.
    home: np.ndarray
    #: Per slot: its four squares, -1 if absent.
    slot_squares: np.ndarray

    @property
    def num_squares(self) -> int:
        return self.height * self.width

    @property
    def num_tiles(self) -> int:
        return len(self.tile_squares)

    @property
    def max_hunters(self) -> int:
        return int((self.home[1:] >= 0).sum())

    def name_of(self, square: int) -> str:
        return square_name(square, self.width)

    def parse(self, text: str) -> int:
        return parse_square(text, self.width, self.height)

    def neighbours(self) -> np.ndarray:
        """(S, 4) the square one step N, E, S, W of each square; -1 off the
        grid or onto a square of no tile."""
        w, h = self.width, self.height
        out = np.full((w * h, 4), -1, np.int64)
        for s in range(w * h):
            if self.slot[s] == VOID:
                continue
            for d in range(4):
                x, y = s % w + DX[d], s // w + DY[d]
                if 0 <= x < w and 0 <= y < h and self.slot[y * w + x] != VOID:
                    out[s, d] = y * w + x
        return out


def _nearest_centre(squares: list[int], width: int, centre: tuple[float, float]) -> int:
    """The square nearest ``centre``; ties go north, then west."""
    def key(s):
        x, y = s % width + 0.5, s // width + 0.5
        return ((x - centre[0]) ** 2 + (y - centre[1]) ** 2, -y, x)
    return min(squares, key=key)


def parse_layout(name: str, spec: dict) -> Layout:
    """Build a :class:`Layout` from its JSON entry; ValueError saying what is wrong."""
    rows = [line.split() for line in spec["tiles"]]
    tw = len(rows[0])
    if any(len(r) != tw for r in rows):
        raise ValueError(f"map {name!r}: every tile row needs {tw} tokens")
    th = len(rows)
    w, h = 2 * tw, 2 * th
    slot = np.full(w * h, VOID, np.int8)
    slot_squares = np.full((4, 4), -1, np.int64)
    tiles = []
    for ty, row in enumerate(rows):
        for tx, token in enumerate(row):
            y0, x0 = 2 * (th - 1 - ty), 2 * tx  # first row listed is the north end
            squares = [(y0 + dy) * w + x0 + dx for dy in (0, 1) for dx in (0, 1)]
            if token == "#":
                kind = MAP
                tiles.append(squares)
            elif token == "M" or token in "123":
                kind = MONSTER_SLOT if token == "M" else int(token)
                if slot_squares[kind, 0] >= 0:
                    raise ValueError(f"map {name!r}: suit tile {token!r} appears twice")
                slot_squares[kind] = squares
            elif token == ".":
                continue
            else:
                raise ValueError(f"map {name!r}: unknown tile token {token!r} (use # M 1 2 3 .)")
            slot[squares] = kind
    if slot_squares[0, 0] < 0 or slot_squares[1, 0] < 0:
        raise ValueError(f"map {name!r} needs the monster's tile M and hunter tile 1")
    home = np.full(4, -1, np.int64)
    for key, square_text in spec["homes"].items():
        k = 0 if key == "M" else int(key)
        sq = parse_square(square_text, w, h)
        if sq not in slot_squares[k]:
            raise ValueError(f"map {name!r}: home {square_text} is not on suit tile {key}")
        home[k] = sq
    missing = [k for k in range(4) if slot_squares[k, 0] >= 0 and home[k] < 0]
    if missing:
        raise ValueError(f"map {name!r}: suit tile(s) {missing} have no home square")
    map_squares = [s for t in tiles for s in t]
    xs = [s % w + 0.5 for s in map_squares]
    ys = [s // w + 0.5 for s in map_squares]
    centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    coin_start = np.array([_nearest_centre(t, w, centre) for t in tiles], np.int64)
    return Layout(name, spec.get("description", ""), h, w, slot,
                  np.array(tiles, np.int64), coin_start, home, slot_squares)


@lru_cache(maxsize=None)
def _maps() -> dict:
    text = resources.files("azure_env").joinpath("data/maps.json").read_text()
    return {k: v for k, v in json.loads(text).items() if not k.startswith("_")}


def map_names() -> list[str]:
    return list(_maps())


@lru_cache(maxsize=None)
def load_layout(name: str) -> Layout:
    maps = _maps()
    if name not in maps:
        raise ValueError(f"unknown map {name!r}; known maps: {', '.join(maps)}")
    return parse_layout(name, maps[name])


# ---------------------------------------------------------------- kernel tables
def kernel_tables(layout: Layout) -> np.ndarray:
    """Every per-layout table in one int64 array, so that a kernel call passes
    a single array (numba refcounts each array argument); ``S`` squares and
    ``K`` coins::

        [0, 4S)            the neighbour of square s in direction d, at 4 s + d
        [4S, 5S)           the slot of each square (VOID, MAP or 0-3)
        [5S, 5S + K)       the start square of coin k
        [5S + K, +4)       the home square of each slot
        [5S + K + 4, +16)  the four squares of each slot, at 4 slot + j
    """
    parts = [layout.neighbours().ravel(), layout.slot.astype(np.int64), layout.coin_start,
             layout.home, layout.slot_squares.ravel()]
    return np.ascontiguousarray(np.concatenate(parts))
