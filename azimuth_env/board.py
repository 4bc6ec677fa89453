"""Azimuth's geometry, notation, layouts and action numbering.

The sea is a 6 x 6 grid of raft *points* (``p = y * 6 + x``, named a1-f6)
and the 5 x 5 wind *marks* between them (``m = y * 5 + x``, named a1-e5).
``x`` runs west to east, ``y`` south to north; mark ``(x, y)`` touches the
four points ``(x..x+1, y..y+1)``. Directions are 0 N, 1 E, 2 S, 3 W; a wind
move uses the eight compass points 0 N, 1 NE, ..., 7 NW.

Layouts (island, set-up points, beach positions) are data in
``data/layouts.json``; :func:`load_layout` turns one into the arrays the
kernels take. Everything here is plain Python and numpy, run once per
configuration.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import NamedTuple

import numpy as np

SIZE = 6  # points per side
MARKS = 5  # marks per side
NUM_POINTS = SIZE * SIZE
NUM_MARKS = MARKS * MARKS
ON_ISLAND = 36  # castaway positions besides points 0..35
AT_HOME = 37
NOT_PLACED = -1  # a 4-player castaway before its beach (and so its raft) is placed

DIRECTIONS = "NESW"
DX = np.array([0, 1, 0, -1], np.int64)
DY = np.array([1, 0, -1, 0], np.int64)
COMPASS8 = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DX8 = np.array([0, 1, 1, 1, 0, -1, -1, -1], np.int64)
DY8 = np.array([1, 1, 0, -1, -1, -1, 0, 1], np.int64)

#: Player colours in seat order, as letters (diagrams, notation) and names.
COLOUR_LETTERS = "RKYB"
COLOUR_NAMES = ("red", "black", "blondie", "blue")
SIDES = "NESW"  # a beach's side is the direction from its landing spots to it


def point_name(p: int) -> str:
    return f"{'abcdef'[p % SIZE]}{p // SIZE + 1}"


def mark_name(m: int) -> str:
    return f"{'abcde'[m % MARKS]}{m // MARKS + 1}"


def parse_point(text: str) -> int:
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in "abcdef" or t[1] not in "123456":
        raise ValueError(f"{text!r} is not a raft point (a1 to f6)")
    return (int(t[1]) - 1) * SIZE + "abcdef".index(t[0])


def parse_mark(text: str) -> int:
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in "abcde" or t[1] not in "12345":
        raise ValueError(f"{text!r} is not a wind mark (a1 to e5)")
    return (int(t[1]) - 1) * MARKS + "abcde".index(t[0])


def mark_corners(m: int) -> list[int]:
    """The 4 points a wind on mark ``m`` touches: SW, SE, NW, NE."""
    x, y = m % MARKS, m // MARKS
    return [y * SIZE + x, y * SIZE + x + 1, (y + 1) * SIZE + x, (y + 1) * SIZE + x + 1]


def rotate_point(p: int, r: int) -> int:
    """Point ``p`` after ``r`` quarter turns clockwise (north becomes east)."""
    x, y = p % SIZE, p // SIZE
    for _ in range(r % 4):
        x, y = y, SIZE - 1 - x
    return y * SIZE + x


def rotate_mark(m: int, r: int) -> int:
    x, y = m % MARKS, m // MARKS
    for _ in range(r % 4):
        x, y = y, MARKS - 1 - x
    return y * MARKS + x


def edge_side(points: list[int]) -> int:
    """The side (0 N .. 3 W) that every one of ``points`` lies on, as a
    beach's landing spots must; ValueError if there is none."""
    for side, on in (
        (0, lambda p: p // SIZE == SIZE - 1),
        (1, lambda p: p % SIZE == SIZE - 1),
        (2, lambda p: p // SIZE == 0),
        (3, lambda p: p % SIZE == 0),
    ):
        if all(on(p) for p in points):
            return side
    raise ValueError(f"landing spots {[point_name(p) for p in points]} are not on one edge")


class Layout(NamedTuple):
    """One configuration's board data (:func:`load_layout`)."""

    island: int  # wind mark under the island, -1 without one
    shallows: np.ndarray  # (4,) int64: the island's corner points (SW, SE, NW, NE), -1 without
    start_on_island: bool  # castaways start on the island (else on their fifth raft)
    setup_points: np.ndarray  # (R,) int64: fixed raft set-up points
    setup_colours: np.ndarray  # (R,) int8: the colours shuffled onto them
    beach_spots: np.ndarray  # (NB, 3) int64: landing spots of each beach position, -1 padded
    beach_side: np.ndarray  # (NB,) int64: direction from the spots to the beach
    beach_players: np.ndarray  # (NB,) int64: bit p set if player p may take the position
    beach_raft: np.ndarray  # (NB,) int64: the fifth raft's point, -1 if none
    default_side: np.ndarray  # (P,) int64: a player's side before it has a beach
    winds_own: int  # winds each player holds of its own colour
    winds_other: int  # and of the opponent's colour (2 players)
    coconuts: int  # coconuts each (0: wind control is free)
    rafts_per_colour: int  # on the board once set up
    portion_points: np.ndarray  # (P, 36) int64: 1 where point p is in colour q's ocean portion (co-op)
    portion_marks: np.ndarray  # (P, 25) int64: the same for marks


def _layout_data(num_players: int, island: bool, key: str | None = None) -> dict:
    data = json.loads(resources.files("azimuth_env").joinpath("data/layouts.json").read_text())
    if key is not None:
        return data[key]
    key = str(num_players)
    if island:
        if num_players != 4:
            raise ValueError(
                f"island=True is the 4-player option; with {num_players} players the island "
                f"is always on the board"
            )
        variant = data["4-island"]
        return {**data[variant["base"]], **{k: v for k, v in variant.items() if k != "base"}}
    return data[key]


def _portion_grid(rows: list[str], size: int) -> np.ndarray:
    """A portion's rows (north first, 'x' in it) as a 0/1 row per cell ``y * size + x``."""
    if len(rows) != size or any(len(r) != size or set(r) - {"x", "."} for r in rows):
        raise ValueError(f"a portion grid is {size} rows of {size} of 'x' or '.', got {rows}")
    return np.array([[rows[size - 1 - c // size][c % size] == "x" for c in range(size * size)]], np.int64)[0]


def load_layout(
    num_players: int, island: bool = False, coconuts: bool = False, key: str | None = None
) -> Layout:
    """The board data of ``num_players`` (with the 4-player ``island`` option),
    or of the layout named ``key`` in the data ("coop")."""
    d = _layout_data(num_players, island, key)
    island_mark = -1 if d["island"] is None else parse_mark(d["island"])
    shallows = mark_corners(island_mark) if island_mark >= 0 else [-1] * 4
    points = [parse_point(t) for t in d["rafts"]]
    if len(points) % num_players or len(set(points)) != len(points):
        raise ValueError(f"layout rafts {d['rafts']} do not split evenly into {num_players} colours")
    colours = np.repeat(np.arange(num_players, dtype=np.int8), len(points) // num_players)
    beaches = d["lighthouses"]
    spots = np.full((len(beaches), 3), -1, np.int64)
    side = np.zeros(len(beaches), np.int64)
    allowed = np.zeros(len(beaches), np.int64)
    raft = np.full(len(beaches), -1, np.int64)
    for b, beach in enumerate(beaches):
        pts = [parse_point(t) for t in beach["spots"]]
        spots[b, : len(pts)] = pts
        side[b] = edge_side(pts)
        who = beach.get("players") or range(num_players)
        allowed[b] = sum(1 << p for p in who)
        if "castaway_raft" in beach:
            raft[b] = parse_point(beach["castaway_raft"])
    start_on_island = d["castaways_start"] == "island"
    if not start_on_island and (raft < 0).any():
        raise ValueError("castaways start on their fifth raft, so every beach needs a castaway_raft")
    fifth = int((raft >= 0).any())
    sides = [SIDES.index(x) for x in d["sides"]]
    portion_points = np.zeros((len(sides), NUM_POINTS), np.int64)
    portion_marks = np.zeros((len(sides), NUM_MARKS), np.int64)
    for q, letter in enumerate(d["sides"]):
        if "portions" in d:
            portion_points[q] = _portion_grid(d["portions"][letter]["points"], SIZE)
            portion_marks[q] = _portion_grid(d["portions"][letter]["marks"], MARKS)
    return Layout(
        island=island_mark,
        shallows=np.array(shallows, np.int64),
        start_on_island=start_on_island,
        setup_points=np.array(points, np.int64),
        setup_colours=colours,
        beach_spots=spots,
        beach_side=side,
        beach_players=allowed,
        beach_raft=raft,
        default_side=np.array(sides, np.int64),
        winds_own=int(d["winds"]["own"]),
        winds_other=int(d["winds"]["other"]),
        coconuts=int(d["coconuts"]) if coconuts else 0,
        rafts_per_colour=len(points) // num_players + fifth,
        portion_points=portion_points,
        portion_marks=portion_marks,
    )


def beach_name(layout: Layout, b: int) -> str:
    return "-".join(point_name(int(p)) for p in sorted(layout.beach_spots[b]) if p >= 0)


class ActionLayout(NamedTuple):
    """Where each group of actions starts in the ``Discrete`` space."""

    beach: int
    place: int
    slots: int  # wind colours a player may hold: own (and the opponent's with 2 players)
    turn: int
    move: int
    board: int
    home: int
    swim: int
    pass_: int
    turtle: int  # co-op only (else empty, = size): a turtle swim, 2 legs N E S W
    wave: int  # co-op only (else empty): which wave candidate (a point) moves next
    size: int


def action_layout(num_beaches: int, slots: int, coop: bool = False) -> ActionLayout:
    place = num_beaches
    turn = place + NUM_MARKS * 4 * slots
    move = turn + NUM_MARKS * 2
    board = move + NUM_MARKS * 8
    home = board + 4
    swim = home + 1
    pass_ = swim + 4
    turtle = pass_ + 1
    wave = turtle + 4 * coop
    size = wave + NUM_POINTS * coop
    return ActionLayout(0, place, slots, turn, move, board, home, swim, pass_, turtle, wave, size)


def action_rotation_tables(al: ActionLayout, island: int) -> tuple[np.ndarray, np.ndarray]:
    """``(to_view, from_view)``, each (4, A): an action's index in the frame of
    a viewer turned ``r`` quarter turns clockwise, and back.

    Observations are rotated so each player's beach is at the bottom, and
    actions with them, so one policy can serve every seat. Beach, home and
    pass actions are the same in every frame."""
    to_view = np.zeros((4, al.size), np.int64)
    for r in range(4):
        t = np.arange(al.size)
        for m in range(NUM_MARKS):
            rm = rotate_mark(m, r)
            for d in range(4):
                for s in range(al.slots):
                    t[al.place + (m * 4 + d) * al.slots + s] = (
                        al.place + (rm * 4 + (d + r) % 4) * al.slots + s
                    )
            for k in range(2):
                t[al.turn + m * 2 + k] = al.turn + rm * 2 + k
            for k in range(8):
                t[al.move + m * 8 + k] = al.move + rm * 8 + (k + 2 * r) % 8
        if island >= 0:
            corners = mark_corners(island)
            view_corners = mark_corners(rotate_mark(island, r))
            for k, p in enumerate(corners):
                t[al.board + k] = al.board + view_corners.index(rotate_point(p, r))
        for d in range(4):
            t[al.swim + d] = al.swim + (d + r) % 4
            if al.wave > al.turtle:
                t[al.turtle + d] = al.turtle + (d + r) % 4
        for p in range(al.size - al.wave):
            t[al.wave + p] = al.wave + rotate_point(p, r)
        to_view[r] = t
    from_view = np.zeros_like(to_view)
    for r in range(4):
        from_view[r, to_view[r]] = np.arange(al.size)
    return to_view, from_view


def rotation_tables() -> tuple[np.ndarray, np.ndarray]:
    """``(points, marks)``: (4, 36) and (4, 25) observation cells (``y * 6 + x``
    of the 6 x 6 planes) of each point and mark after ``r`` quarter turns. A
    mark's cell is that of its south-west corner point in the turned view."""
    points = np.array([[rotate_point(p, r) for p in range(NUM_POINTS)] for r in range(4)], np.int64)
    marks = np.array(
        [
            [rotate_mark(m, r) // MARKS * SIZE + rotate_mark(m, r) % MARKS for m in range(NUM_MARKS)]
            for r in range(4)
        ],
        np.int64,
    )
    return points, marks


# How the lighthouses are placed (Config.lighthouse_mode).
CHOOSE, RANDOM, FIXED = 0, 1, 2


def concatenated(parts: list[np.ndarray], start: int = 0) -> tuple[np.ndarray, list[int]]:
    """``parts`` flattened into one int64 array, and where each starts in it
    (offset by ``start``: parts appended to a table of that length)."""
    offsets = (start + np.cumsum([0] + [np.size(a) for a in parts])[:-1]).tolist()
    return np.concatenate([np.ravel(a).astype(np.int64) for a in parts]), offsets


class Config(NamedTuple):
    """Everything the kernels need besides the state, in one argument (built
    once per configuration by :meth:`from_parts`).

    Its only array is ``tables``, every layout and view table concatenated;
    the ``o_*`` fields say where each starts. numba updates a reference count
    for each array in a tuple it passes or reads from, on every call, which
    with a tuple of 13 arrays cost a third of an Azimuth step."""

    tables: np.ndarray  # int64, see the offsets below
    island: int  # wind mark under the island, -1 without one
    start_on_island: bool
    winds_own: int
    winds_other: int
    coconuts: int  # each; 0: wind control is free
    num_beaches: int
    num_setup: int
    slots: int  # wind colours a player may hold
    # where each action group starts (see ActionLayout)
    a_place: int
    a_turn: int
    a_move: int
    a_board: int
    a_home: int
    a_swim: int
    a_pass: int
    num_actions: int
    lighthouse_mode: int  # CHOOSE, RANDOM or FIXED
    max_turns: int
    # offsets into tables
    o_shallows: int  # (4,) the island's corner points
    o_setup_points: int  # (num_setup,)
    o_setup_colours: int  # (num_setup,)
    o_beach_spots: int  # (num_beaches, 3), -1 padded
    o_beach_side: int  # (num_beaches,)
    o_beach_players: int  # (num_beaches,) bit sets
    o_beach_raft: int  # (num_beaches,)
    o_default_side: int  # (P,)
    o_fixed_beaches: int  # (P,)
    o_to_view: int  # (4, num_actions) see action_rotation_tables
    o_from_view: int  # (4, num_actions)
    o_view_points: int  # (4, 36) see rotation_tables
    o_view_marks: int  # (4, 25)

    @classmethod
    def from_parts(
        cls,
        layout: Layout,
        actions: ActionLayout,
        lighthouse_mode: int,
        fixed_beaches: np.ndarray,
        max_turns: int,
    ) -> Config:
        to_view, from_view = action_rotation_tables(actions, layout.island)
        view_points, view_marks = rotation_tables()
        parts = [
            layout.shallows,
            layout.setup_points,
            layout.setup_colours,
            layout.beach_spots,
            layout.beach_side,
            layout.beach_players,
            layout.beach_raft,
            layout.default_side,
            fixed_beaches,
            to_view,
            from_view,
            view_points,
            view_marks,
        ]
        tables, offsets = concatenated(parts)
        return cls(
            tables,
            layout.island,
            layout.start_on_island,
            layout.winds_own,
            layout.winds_other,
            layout.coconuts,
            len(layout.beach_side),
            len(layout.setup_points),
            actions.slots,
            actions.place,
            actions.turn,
            actions.move,
            actions.board,
            actions.home,
            actions.swim,
            actions.pass_,
            actions.size,
            lighthouse_mode,
            max_turns,
            *offsets,
        )

    # Also called on the co-op's config (the same fields and more): Config.to_view(cfg, r, a).
    def to_view(self, r: int, action: int) -> int:
        return int(self.tables[self.o_to_view + r * self.num_actions + action])

    def from_view(self, r: int, action: int) -> int:
        return int(self.tables[self.o_from_view + r * self.num_actions + action])


def _mark_tables():
    """Neighbour tables the kernels index instead of testing the board's edges."""
    ahead = np.full((NUM_MARKS, 4), -1, np.int64)  # mark one step in direction d
    target = np.full((NUM_MARKS, 8), -1, np.int64)  # mark one step towards compass point k
    crossed = np.full((NUM_MARKS, 8), -1, np.int64)  # point a diagonal step passes over
    corners = np.zeros((NUM_MARKS, 4), np.int64)
    for m in range(NUM_MARKS):
        x, y = m % MARKS, m // MARKS
        corners[m] = mark_corners(m)
        for d in range(4):
            nx, ny = x + DX[d], y + DY[d]
            if 0 <= nx < MARKS and 0 <= ny < MARKS:
                ahead[m, d] = ny * MARKS + nx
        for k in range(8):
            nx, ny = x + DX8[k], y + DY8[k]
            if 0 <= nx < MARKS and 0 <= ny < MARKS:
                target[m, k] = ny * MARKS + nx
                if k % 2:
                    crossed[m, k] = (y + (DY8[k] > 0)) * SIZE + x + (DX8[k] > 0)
    neighbour = np.full((NUM_POINTS, 4), -1, np.int64)  # point one leg in direction d
    for p in range(NUM_POINTS):
        x, y = p % SIZE, p // SIZE
        for d in range(4):
            nx, ny = x + DX[d], y + DY[d]
            if 0 <= nx < SIZE and 0 <= ny < SIZE:
                neighbour[p, d] = ny * SIZE + nx
    return ahead, target, crossed, corners, neighbour


MARK_AHEAD, MOVE_TARGET, MOVE_CROSSED, MARK_CORNERS, POINT_NEIGHBOUR = _mark_tables()
#: The 4 corner points of each mark as a bit set (bit p: point p).
MARK_CORNER_BITS = (np.int64(1) << MARK_CORNERS).sum(axis=1)
