"""Azure Attack's map: layouts (data), square geometry and notation, map
diagrams, the checks a map must pass, and the kernel tables built from a
layout.

A layout is a grid of tiles; a tile is 2 x 2 squares. Squares are numbered
``row * width + column`` with row 0 the south edge and column 0 the west
edge, and named like chess squares (``a1`` south-west). Suit tiles are
*slots*: slot 0 is the monster's, slots 1-3 the hunters'.

A map comes as any of (see :func:`resolve_map`):

- the name of a built-in map of ``data/maps.json`` (``"standard"``, ...);
- a dict in the format of that file's entries (:func:`parse_layout`)::

      {"name": "cross", "tiles": [". M .", "# # #", ". # .", ". 1 ."],
       "homes": {"M": "c7", "1": "c2"}}

  ``tiles`` lists the rows of tiles, north first, one token a tile: ``#`` a
  map tile, ``M`` the monster's suit tile, ``1``-``3`` the hunters', ``.``
  none. ``homes`` names each suit tile's home square. Optional: ``name``,
  ``description``, and ``coins`` (the square of each map tile where its coin
  starts; by default the tile's square nearest the map's centre);
- a diagram of squares, the drawing ``docs/rules/azure.md`` uses
  (:func:`map_from_diagram`);
- a path to a file holding such a dict as JSON, or such a diagram.

Every map is checked before play (:func:`parse_layout`); a refusal is a
``ValueError`` naming the tile, square or count at fault and the limit.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from azgames.core.inputs import parse_json, read_text, refuse_paths

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

# ---------------------------------------------------------------- limits
#: A piecepack holds 24 tiles and 24 coins (4 suits x 6 values).
PIECEPACK_TILES = 24
#: Map tiles: the piecepack's tiles less the two suit tiles of a 2-player
#: game (a game of P players allows 24 - P; checked by the rules).
MAX_MAP_TILES = PIECEPACK_TILES - 2
#: Squares are named a-z by column, so a map is at most 26 squares wide.
MAX_WIDTH = len(COLUMNS)
#: Square indices live in int16 state fields (``pos``, ``trail``), and a
#: coin's place in ``coin_loc`` (int16) reaches ``S + 8`` (kernels.OUT).
MAX_SQUARES = int(np.iinfo(np.int16).max) - 8

#: Who may enter a suit tile besides its owner (option ``suit_tiles``):
#: ``"closed"`` nobody; ``"literal"`` the book's rule 7 read to the letter:
#: only the hunters are barred from each other's tiles, so the monster may
#: enter the hunters' tiles and the hunters the monster's. Home squares stay
#: their owner's alone either way.
SUIT_TILE_RULES = ("closed", "literal")
#: Bits of the per-square access table (:func:`kernel_tables`).
ENTER_MONSTER, ENTER_HUNTER = 1, 2

#: Keys a map dict may hold.
MAP_KEYS = ("name", "description", "tiles", "homes", "coins")
SLOT_KEYS = ("M", "1", "2", "3")


def square_name(square: int, width: int) -> str:
    return f"{COLUMNS[square % width]}{square // width + 1}"


def parse_square(text: str, width: int, height: int) -> int:
    """The square index of a name such as ``c11``; ValueError naming the bad name."""
    if not isinstance(text, str):
        raise ValueError(f"{text!r} is not a square name (a1 to {COLUMNS[width - 1]}{height})")
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in COLUMNS[:width] or not text[1:].isdigit():
        raise ValueError(f"{text!r} is not a square name (a1 to {COLUMNS[width - 1]}{height})")
    row = int(text[1:]) - 1
    if not 0 <= row < height:
        raise ValueError(f"{text!r} is off the map (rows 1 to {height})")
    return row * width + COLUMNS.index(text[0])


def tile_name(squares, width: int) -> str:
    """A tile by its south-west and north-east squares: ``c1-d2``."""
    return f"{square_name(min(squares), width)}-{square_name(max(squares), width)}"


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
    #: Per map tile: the square its coin starts on (nearest the map's centre,
    #: unless the map gives it).
    coin_start: np.ndarray
    #: Per slot: its home square, -1 if the map has no such slot.
    home: np.ndarray
    #: Per slot: its four squares, -1 if absent.
    slot_squares: np.ndarray
    #: The map as a JSON-able dict, in the canonical form of
    #: :func:`parse_layout` (what a game record stores for a user's map).
    spec: dict = field(default_factory=dict, compare=False, repr=False)

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

    def diagram(self) -> str:
        """The map as a diagram of squares (:func:`map_diagram`)."""
        return map_diagram(self)


def _nearest_centre(squares: list[int], width: int, centre: tuple[float, float]) -> int:
    """The square nearest ``centre``; ties go north, then west."""

    def key(s):
        x, y = s % width + 0.5, s // width + 0.5
        return ((x - centre[0]) ** 2 + (y - centre[1]) ** 2, -y, x)

    return min(squares, key=key)


def _components(cells: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Groups of tile cells (column, row) joined edge to edge, each in reading order."""
    left, groups = set(cells), []
    for start in cells:
        if start not in left:
            continue
        left.discard(start)
        group, todo = [start], [start]
        while todo:
            x, y = todo.pop()
            for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if nxt in left:
                    left.discard(nxt)
                    group.append(nxt)
                    todo.append(nxt)
        groups.append(sorted(group, key=lambda c: (c[1], c[0])))
    return groups


def parse_layout(name: str, spec: Any) -> Layout:
    """Check a map given as a dict and build its :class:`Layout`.

    The dict has ``tiles`` (rows of tile tokens, north first: ``#`` a map
    tile, ``M`` the monster's suit tile, ``1``-``3`` the hunters', ``.``
    none) and ``homes`` (each suit tile's home square, ``{"M": "c11", "1":
    "d2"}``), and may have ``name``, ``description`` and ``coins`` (one
    square name per map tile: where its coin starts).

    A map must be: tiles joined edge to edge into one connected map (the map
    tiles alone connected, every suit tile sharing an edge with a map tile);
    one monster's tile and hunter tiles 1, 1-2 or 1-3; 1 to
    :data:`MAX_MAP_TILES` map tiles; at most :data:`MAX_WIDTH` squares wide;
    no empty row or column of tiles at its edges. Each refusal is a
    ValueError naming the map and the tile, square or count at fault."""
    where = f"map {name!r}"
    if not isinstance(spec, dict):
        raise ValueError(f"{where} must be a dict with 'tiles' and 'homes', not {type(spec).__name__}")
    unknown = [k for k in spec if k not in MAP_KEYS]
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {unknown}; a map has {list(MAP_KEYS)}")
    for key in ("tiles", "homes"):
        if key not in spec:
            raise ValueError(f"{where}: missing {key!r} (a map has 'tiles' and 'homes')")
    for key in ("name", "description"):
        if key in spec and not isinstance(spec[key], str):
            raise ValueError(f"{where}: {key!r} must be a string, not {spec[key]!r}")
    lines = spec["tiles"]
    if (
        isinstance(lines, str)
        or not isinstance(lines, (list, tuple))
        or not lines
        or not all(isinstance(line, str) for line in lines)
    ):
        raise ValueError(
            f"{where}: 'tiles' must be a non-empty list of strings, one a row of tiles "
            f"(north first), not {lines!r}"
        )
    rows = [line.split() for line in lines]
    tw, th = len(rows[0]), len(rows)
    for r, row in enumerate(rows):
        if len(row) != tw or not row:
            raise ValueError(
                f"{where}: tile row {r + 1} (from the north) has {len(row)} tiles, "
                f"row 1 has {tw}; every row needs the same number"
            )
    w, h = 2 * tw, 2 * th
    if w > MAX_WIDTH:
        raise ValueError(
            f"{where} is {tw} tiles ({w} squares) wide; squares are named a-z, so a map "
            f"is at most {MAX_WIDTH // 2} tiles wide (turn it north-south)"
        )
    if w * h > MAX_SQUARES:
        raise ValueError(f"{where} has {w * h} squares; the state's int16 fields hold at most {MAX_SQUARES}")
    slot = np.full(w * h, VOID, np.int8)
    slot_squares = np.full((4, 4), -1, np.int64)
    tiles, cells, suit_cells = [], [], {}
    for ty, row in enumerate(rows):
        for tx, token in enumerate(row):
            y0, x0 = 2 * (th - 1 - ty), 2 * tx  # first row listed is the north end
            squares = [(y0 + dy) * w + x0 + dx for dy in (0, 1) for dx in (0, 1)]
            if token == "#":
                kind = MAP
                tiles.append(squares)
                cells.append((tx, ty))
            elif token in SLOT_KEYS:
                kind = SLOT_KEYS.index(token)
                if slot_squares[kind, 0] >= 0:
                    raise ValueError(
                        f"{where}: suit tile {token!r} appears twice "
                        f"({tile_name(slot_squares[kind], w)} and {tile_name(squares, w)})"
                    )
                slot_squares[kind] = squares
                suit_cells[kind] = (tx, ty)
            elif token == ".":
                continue
            else:
                raise ValueError(
                    f"{where}: tile {tile_name(squares, w)}: unknown tile token {token!r} (use # M 1 2 3 .)"
                )
            slot[squares] = kind
    if slot_squares[0, 0] < 0:
        raise ValueError(f"{where} needs the monster's suit tile 'M'")
    if slot_squares[1, 0] < 0:
        raise ValueError(f"{where} needs hunter suit tile '1' (hunter_0's)")
    if slot_squares[3, 0] >= 0 and slot_squares[2, 0] < 0:
        raise ValueError(
            f"{where} has hunter suit tile '3' ({tile_name(slot_squares[3], w)}) but no '2'; "
            f"number the hunters' tiles 1, 1-2 or 1-3"
        )
    # no empty border: the grid is the map's bounding box
    filled = {c for c in cells} | set(suit_cells.values())
    for label, empty in (
        ("north row", all((x, 0) not in filled for x in range(tw))),
        ("south row", all((x, th - 1) not in filled for x in range(tw))),
        ("west column", all((0, y) not in filled for y in range(th))),
        ("east column", all((tw - 1, y) not in filled for y in range(th))),
    ):
        if empty and filled:
            raise ValueError(f"{where}: the {label} of tiles is empty; remove it")
    if not tiles:
        raise ValueError(f"{where} has no map tile '#'; the game needs 1 to {MAX_MAP_TILES}")
    if len(tiles) > MAX_MAP_TILES:
        raise ValueError(
            f"{where} has {len(tiles)} map tiles; a piecepack's {PIECEPACK_TILES} tiles leave "
            f"at most {MAX_MAP_TILES} besides two suit tiles"
        )
    groups = _components(cells)
    if len(groups) > 1:

        def tile_at(c):
            return tiles[cells.index(c)]

        raise ValueError(
            f"{where}: the map tiles fall apart into {len(groups)} pieces: map tile "
            f"{tile_name(tile_at(groups[1][0]), w)} is not joined edge to edge to the map "
            f"tile {tile_name(tile_at(groups[0][0]), w)}"
        )
    cell_set = set(cells)
    for k, (x, y) in sorted(suit_cells.items()):
        if not {(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)} & cell_set:
            raise ValueError(
                f"{where}: suit tile {SLOT_KEYS[k]!r} ({tile_name(slot_squares[k], w)}) "
                f"touches no map tile along an edge"
            )
    # homes
    homes = spec["homes"]
    if not isinstance(homes, dict):
        raise ValueError(
            f"{where}: 'homes' must be a dict of suit tile to square, such as "
            f'{{"M": "c11", "1": "d2"}}, not {homes!r}'
        )
    home = np.full(4, -1, np.int64)
    for key, square_text in homes.items():
        key = str(key)
        if key not in SLOT_KEYS:
            raise ValueError(f"{where}: home of {key!r}: the suit tiles are {list(SLOT_KEYS)}")
        k = SLOT_KEYS.index(key)
        if slot_squares[k, 0] < 0:
            raise ValueError(f"{where}: home given for suit tile {key!r}, which the map does not have")
        try:
            sq = parse_square(square_text, w, h)
        except ValueError as err:
            raise ValueError(f"{where}: home of {key!r}: {err}") from None
        if sq not in slot_squares[k]:
            raise ValueError(
                f"{where}: home {square_name(sq, w)} is not on suit tile {key!r} "
                f"({tile_name(slot_squares[k], w)})"
            )
        home[k] = sq
    missing = [SLOT_KEYS[k] for k in range(4) if slot_squares[k, 0] >= 0 and home[k] < 0]
    if missing:
        raise ValueError(f"{where}: suit tile(s) {missing} have no home square in 'homes'")
    # coins
    map_squares = [s for t in tiles for s in t]
    if "coins" in spec:
        given = spec["coins"]
        if isinstance(given, str) or not isinstance(given, (list, tuple)):
            raise ValueError(
                f"{where}: 'coins' must be a list of square names, one per map tile, not {given!r}"
            )
        coin_start = np.full(len(tiles), -1, np.int64)
        for text in given:
            try:
                sq = parse_square(text, w, h)
            except ValueError as err:
                raise ValueError(f"{where}: coin square: {err}") from None
            if slot[sq] != MAP:
                raise ValueError(f"{where}: coin square {square_name(sq, w)} is not on a map tile")
            t = next(j for j, squares in enumerate(tiles) if sq in squares)
            if coin_start[t] >= 0:
                raise ValueError(
                    f"{where}: map tile {tile_name(tiles[t], w)} has two coin squares "
                    f"({square_name(int(coin_start[t]), w)} and {square_name(sq, w)}); "
                    f"a tile holds one coin"
                )
            coin_start[t] = sq
        for t, squares in enumerate(tiles):
            if coin_start[t] < 0:
                raise ValueError(
                    f"{where}: map tile {tile_name(squares, w)} has no coin square in 'coins' "
                    f"(give one per map tile, or leave 'coins' out)"
                )
    else:
        xs = [s % w + 0.5 for s in map_squares]
        ys = [s // w + 0.5 for s in map_squares]
        centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
        coin_start = np.array([_nearest_centre(t, w, centre) for t in tiles], np.int64)
    canonical = {"name": spec.get("name", name)}
    if spec.get("description"):
        canonical["description"] = spec["description"]
    canonical["tiles"] = [" ".join(row) for row in rows]
    canonical["homes"] = {SLOT_KEYS[k]: square_name(int(home[k]), w) for k in range(4) if home[k] >= 0}
    if "coins" in spec:
        canonical["coins"] = [square_name(int(s), w) for s in coin_start]
    return Layout(
        canonical["name"],
        spec.get("description", ""),
        h,
        w,
        slot,
        np.array(tiles, np.int64),
        coin_start,
        home,
        slot_squares,
        canonical,
    )


# ---------------------------------------------------------------- map diagrams
#: Tokens of a map diagram (one per square).
DIAGRAM_TOKENS = {
    "-": "no tile",
    ".": "a square of a map tile",
    "o": "the square of a map tile where its coin starts",
    "m": "a square of the monster's suit tile",
    "M": "the monster's home square",
    "1": "a square of hunter suit tile 1 (2, 3 likewise)",
    "H": "a hunter's home square (on the tile whose other squares are numbered)",
}


def map_diagram(layout: Layout) -> str:
    """The map as a diagram of squares, north at the top, rows numbered from
    the south and a line of column letters below (the drawing of
    ``docs/rules/azure.md``): ``-`` no tile, ``.`` a map square, ``o`` where
    a map tile's coin starts, ``m``/``M`` the monster's tile and home square,
    ``1``-``3``/``H`` a hunter's tile and home square. :func:`map_from_diagram`
    reads it back."""
    w, h = layout.width, layout.height
    tokens = []
    for s in range(w * h):
        k = int(layout.slot[s])
        if k == VOID:
            tokens.append("-")
        elif k == MAP:
            tokens.append("o" if s in layout.coin_start else ".")
        elif s == layout.home[k]:
            tokens.append("M" if k == MONSTER_SLOT else "H")
        else:
            tokens.append("m" if k == MONSTER_SLOT else str(k))
    lines = [f"{y + 1:>2}  " + " ".join(tokens[y * w : (y + 1) * w]) for y in range(h - 1, -1, -1)]
    lines.append("    " + " ".join(COLUMNS[:w]))
    return "\n".join(lines)


def map_from_diagram(text: str, name: str = "custom") -> dict:
    """The map dict (:func:`parse_layout`'s format) of a diagram of squares.

    One token per square, north at the top (see :data:`DIAGRAM_TOKENS` and
    :func:`map_diagram`); rows may be numbered (down to 1, at the start of
    each line) and a line of column letters may close the diagram. Tiles are
    the 2 x 2 blocks counted from the south-west square ``a1``; each is one
    kind. Coin squares ``o`` are optional: on every map tile, or on none
    (each tile's coin then starts on its square nearest the map's centre).
    ValueError naming the square or tile at fault; the dict is checked as a
    map by :func:`parse_layout` (by :func:`resolve_map`)."""
    if not isinstance(text, str):
        raise ValueError(f"map diagram: a diagram is text, not {type(text).__name__}")
    rows = []
    for line in text.strip("\n").splitlines():
        tokens = line.split()
        if tokens and tokens != list(COLUMNS[: len(tokens)]):
            rows.append(tokens)
    if not rows:
        raise ValueError("map diagram: it is empty")
    h = len(rows)
    if [r[0] for r in rows] == [str(n) for n in range(h, 0, -1)]:  # rows numbered down to 1
        rows = [r[1:] for r in rows]
    w = len(rows[0])
    for r, tokens in enumerate(rows):
        if len(tokens) != w:
            raise ValueError(
                f"map diagram: row {h - r} has {len(tokens)} squares, row {h} has {w}; "
                f"every row needs the same number"
            )
    if h % 2 or w % 2:
        raise ValueError(
            f"map diagram: it is {w} squares wide and {h} high; tiles are 2 x 2 squares, so both must be even"
        )
    if w > MAX_WIDTH:
        raise ValueError(
            f"map diagram: it is {w} squares wide; squares are named a-z, so a map is at "
            f"most {MAX_WIDTH} wide (turn it north-south)"
        )
    grid = {}
    for r, tokens in enumerate(rows):
        y = h - 1 - r
        for x, token in enumerate(tokens):
            if token not in DIAGRAM_TOKENS and token not in ("2", "3"):
                raise ValueError(
                    f"map diagram: square {COLUMNS[x]}{y + 1}: unknown token {token!r} "
                    f"(use - . o m M 1 2 3 H)"
                )
            grid[y * w + x] = token
    tile_rows: list[str] = []
    homes: dict[str, tuple[str, str]] = {}
    marked = []  # per map tile: its squares and its coin squares
    for ty in range(h // 2):  # north first
        y0 = h - 2 - 2 * ty
        row = []
        for tx in range(w // 2):
            squares = [(y0 + dy) * w + 2 * tx + dx for dy in (0, 1) for dx in (0, 1)]
            here = tile_name(squares, w)
            kinds = {grid[s] for s in squares}
            homes_here = [s for s in squares if grid[s] in "MH"]
            digits = kinds & {"1", "2", "3"}
            if kinds == {"-"}:
                row.append(".")
            elif kinds <= {".", "o"}:
                row.append("#")
                marked.append((squares, [s for s in squares if grid[s] == "o"]))
            elif kinds <= {"m", "M"} or (len(digits) == 1 and kinds <= digits | {"H"}):
                token = "M" if kinds <= {"m", "M"} else digits.pop()
                what = "the monster's suit tile" if token == "M" else f"hunter suit tile {token}"
                if len(homes_here) != 1:
                    home_mark = "M" if token == "M" else "H"
                    raise ValueError(
                        f"map diagram: {what} {here} has {len(homes_here)} home squares {home_mark!r}; "
                        f"mark exactly one"
                    )
                if token in homes:
                    raise ValueError(
                        f"map diagram: suit tile {token!r} appears twice ({homes[token][1]} and {here})"
                    )
                homes[token] = (square_name(homes_here[0], w), here)
                row.append(token)
            elif kinds <= {"H"}:
                raise ValueError(
                    f"map diagram: hunter suit tile {here} is all 'H'; number its other squares 1-3"
                )
            else:
                raise ValueError(
                    f"map diagram: tile {here} mixes {sorted(kinds)}; each 2 x 2 tile is one kind "
                    f"('-' none, '.'/'o' map, 'm'/'M' the monster's, '1'-'3'/'H' a hunter's)"
                )
        tile_rows.append(" ".join(row))
    spec = {"name": name, "tiles": tile_rows, "homes": {k: homes[k][0] for k in SLOT_KEYS if k in homes}}
    if any(coin for _, coin in marked):
        for squares, coin in marked:
            if len(coin) > 1:
                raise ValueError(
                    f"map diagram: map tile {tile_name(squares, w)} has {len(coin)} coin squares 'o' "
                    f"({', '.join(square_name(s, w) for s in coin)}); a tile holds one coin"
                )
            if not coin:
                raise ValueError(
                    f"map diagram: map tile {tile_name(squares, w)} has no coin square 'o'; mark one on "
                    f"every map tile, or on none"
                )
        spec["coins"] = [square_name(coin[0], w) for _, coin in marked]
    return spec


# ---------------------------------------------------------------- built-in maps and map= values
@cache
def _maps() -> dict:
    text = resources.files("azure_env").joinpath("data/maps.json").read_text()
    return {k: v for k, v in json.loads(text).items() if not k.startswith("_")}


def map_names() -> list[str]:
    return list(_maps())


@cache
def load_layout(name: str) -> Layout:
    """A built-in map by name."""
    maps = _maps()
    if name not in maps:
        raise ValueError(f"unknown map {name!r}; known maps: {', '.join(maps)}")
    return parse_layout(name, maps[name])


def _read_map_file(path: Path) -> dict:
    """The map dict of a file: JSON holding a map dict (or a diagram string), or a diagram
    (read within the local file limits)."""
    text = read_text(path, "map file")
    try:
        if text.lstrip().startswith(("{", "[", '"')):
            value = parse_json(text, "the file")
            if isinstance(value, str):
                return map_from_diagram(value, name=path.stem)
            if not isinstance(value, dict):
                raise ValueError(
                    f"holds a JSON {type(value).__name__}; a map file holds one map: "
                    f"a JSON object with 'tiles' and 'homes', or a diagram"
                )
            return value if "name" in value else {"name": path.stem, **value}
        return map_from_diagram(text, name=path.stem)
    except ValueError as err:
        raise ValueError(f"map file {str(path)!r}: {err}") from None


def resolve_map(value: Any) -> tuple[Layout, str | dict]:
    """The layout of a ``map=`` option, and the JSON-able value the rules
    keep in their options (so that a game record replays on the same map).

    ``value`` is a built-in map's name (kept as the name), a map dict, a map
    diagram (text of more than one line) or the path of a file holding
    either (``str`` or ``os.PathLike``); the last three are kept as the
    map's canonical dict, the map itself rather than where it came from. A
    built-in name wins over a file of the same name."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
        if value in _maps():  # a path, even if it looks like a name
            value = os.path.join(".", value)
    source = None
    if isinstance(value, str):
        if value in _maps():
            return load_layout(value), value
        if "\n" in value:
            spec = map_from_diagram(value)
        elif value.strip() and _is_file(value):
            source = value
            spec = _read_map_file(Path(value))
        else:
            why = "no such file" if value.strip() else "empty"
            raise ValueError(
                f"map={value!r} is unknown: not a built-in map ({', '.join(_maps())}), nor a "
                f"map file ({why}), nor a map diagram (one line per row of squares)"
            )
    elif isinstance(value, dict):
        spec = value
    else:
        raise ValueError(
            f"map={value!r} must be a built-in map name ({', '.join(_maps())}), a map dict, "
            f"a map diagram or a path to a map file, not {type(value).__name__}"
        )
    name = spec.get("name", "custom") if isinstance(spec, dict) else "custom"
    try:
        layout = parse_layout(name if isinstance(name, str) else "custom", spec)
    except ValueError as err:
        if source is None:
            raise
        raise ValueError(f"map file {source!r}: {err}") from None
    return layout, layout.spec


def _is_file(value: str) -> bool:
    """Whether ``map=value`` names a file; asked of no file for a remote client
    (whose answer would tell it which files exist)."""
    refuse_paths(
        f"map={value[:100]!r}", f"give a built-in map ({', '.join(_maps())}), a map dict or a map diagram"
    )
    return Path(value).exists()


# ---------------------------------------------------------------- kernel tables
def access_table(layout: Layout, suit_tiles: str = "closed") -> np.ndarray:
    """(S,) per square, who besides its suit tile's owner may enter it: a sum
    of ENTER_MONSTER and ENTER_HUNTER bits (0 on map and void squares, and
    on every home square). ``suit_tiles``: one of :data:`SUIT_TILE_RULES`."""
    if suit_tiles not in SUIT_TILE_RULES:
        raise ValueError(f"suit_tiles={suit_tiles!r} is not supported; choose one of {list(SUIT_TILE_RULES)}")
    out = np.zeros(layout.num_squares, np.int64)
    if suit_tiles == "literal":
        for k in range(4):
            for s in layout.slot_squares[k]:
                if s >= 0 and s != layout.home[k]:
                    out[s] = ENTER_HUNTER if k == MONSTER_SLOT else ENTER_MONSTER
    return out


def kernel_tables(layout: Layout, suit_tiles: str = "closed") -> np.ndarray:
    """Every per-layout table in one int64 array, so that a kernel call passes
    a single array (numba refcounts each array argument); ``S`` squares and
    ``K`` coins::

        [0, 4S)            the neighbour of square s in direction d, at 4 s + d
        [4S, 5S)           the slot of each square (VOID, MAP or 0-3)
        [5S, 6S)           who besides the owner may enter each square
                           (:func:`access_table`: the ``suit_tiles`` option)
        [6S, 6S + K)       the start square of coin k
        [6S + K, +4)       the home square of each slot
        [6S + K + 4, +16)  the four squares of each slot, at 4 slot + j
    """
    parts = [
        layout.neighbours().ravel(),
        layout.slot.astype(np.int64),
        access_table(layout, suit_tiles),
        layout.coin_start,
        layout.home,
        layout.slot_squares.ravel(),
    ]
    return np.ascontiguousarray(np.concatenate(parts))
