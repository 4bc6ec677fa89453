"""Azacru's board geometry, notation and opening data.

Fields are numbered ``f = 9 * y + x``: ``x`` is the column (a-i, west to east)
and ``y`` the row minus one (rows 1-9, south to north), so ``a1`` is 0 and
``i9`` is 80. Facings are compass points numbered clockwise from north.
The nine 3 x 3 borderlands are numbered the same way (0 = south-west).
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

import numpy as np

SIZE = 9
NUM_FIELDS = SIZE * SIZE
#: Facing names, index = facing number (clockwise from north).
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DX = np.array([0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)
DY = np.array([1, 1, 0, -1, -1, -1, 0, 1], dtype=np.int64)
#: Borderland of each field.
BORDERLAND = np.array([(f // 9 // 3) * 3 + (f % 9) // 3 for f in range(NUM_FIELDS)], dtype=np.int64)
#: The nine fields of each borderland.
BORDERLAND_FIELDS = np.array(
    [[f for f in range(NUM_FIELDS) if BORDERLAND[f] == b] for b in range(9)], dtype=np.int64
)
COLUMNS = "abcdefghi"
#: A move in notation: ``from-to`` and an optional ``:facing``.
MOVE_RE = re.compile(r"^\s*([a-iA-I][1-9])\s*-\s*([a-iA-I][1-9])\s*(?::\s*([NSEWnsew]{1,2}))?\s*$")


def field_name(f: int) -> str:
    return f"{COLUMNS[f % 9]}{f // 9 + 1}"


def parse_field(text: str) -> int:
    """``"c4"`` -> field number; ValueError naming the text otherwise."""
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in COLUMNS or t[1] not in "123456789":
        raise ValueError(f"{text!r} is not a field; fields run a1 (south-west) to i9 (north-east)")
    return (int(t[1]) - 1) * 9 + COLUMNS.index(t[0])


def move_squares(move: str) -> tuple[str, ...]:
    """The squares a move in notation names, ``("a3", "b4")`` for ``"a3-b4:NE"``;
    ``()`` for ``"pass"`` or any text that names no move on the board."""
    m = MOVE_RE.match(move)
    return (m.group(1).lower(), m.group(2).lower()) if m else ()


def parse_facing(text: str) -> int:
    t = text.strip().upper()
    if t not in COMPASS:
        raise ValueError(f"{text!r} is not a facing; use one of {', '.join(COMPASS)}")
    return COMPASS.index(t)


@cache
def _openings_data() -> dict:
    with resources.files("azacru_env").joinpath("data/openings.json").open() as fh:
        return json.load(fh)


def opening_names() -> list[str]:
    return [k for k in _openings_data() if not k.startswith("_")]


def load_opening(name: str, num_players: int) -> tuple[np.ndarray, np.ndarray]:
    """``(fields, facings)``, each ``(num_players, pieces)`` int8, for an opening."""
    data = _openings_data()
    if name not in opening_names():
        raise ValueError(f"opening={name!r} is unknown; choose one of {opening_names()}")
    by_count = data[name]
    if str(num_players) not in by_count:
        raise ValueError(
            f"opening={name!r} has no {num_players}-player set-up; it is for "
            f"{', '.join(sorted(by_count))} players"
        )
    pieces = by_count[str(num_players)]
    fields = np.array([[parse_field(f) for f, _ in row] for row in pieces], dtype=np.int8)
    facings = np.array([[parse_facing(d) for _, d in row] for row in pieces], dtype=np.int8)
    return fields, facings
