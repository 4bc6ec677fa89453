"""Azure Attack on randomly generated maps (bonus rules 1 and 2).

:func:`random_map` grows a random connected layout of map tiles (1 to the
most a piecepack allows with the players' suit tiles), attaches the
monster's and one to three hunters' suit tiles along its edge, picks each
suit tile's home square at random and, on half the maps, each map tile's
coin square. Each map is given as a dict or as its diagram.

On such maps, random legal games are played with the vector env and with
the AEC env, and the checker of ``test_playouts`` (which knows the map only
as data) checks every game after every step: the set-up, conservation of
coins, where pieces may stand, what each step does, the turn order, the
flags, the rewards and the mask; the AEC run also checks every action
against ``illegal_reason`` and the infos. Both suit-tile rules
(``suit_tiles="closed"`` and ``"literal"``) and both role draws are played.
The AEC and vector envs must also agree step by step. Broken variants of
random maps must be refused with the message that names the fault.

The default run plays a handful of maps briefly; ``-m slow`` many more, longer.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import azgames
from azure_env.board import MAX_MAP_TILES, map_diagram, map_from_diagram, parse_layout, resolve_map

from .test_equivalence import run_equivalence
from .test_playouts import numba_threads, play_aec_checked, run_checked_playout

COLUMNS = "abcdefghijklmnopqrstuvwxyz"
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _frontier(cells: set) -> list[tuple[int, int]]:
    """Cells sharing an edge with ``cells`` and not in it, sorted."""
    return sorted({(x + dx, y + dy) for x, y in cells for dx, dy in NEIGHBOURS} - cells)


def random_map(
    rng: np.random.Generator,
    hunters: int | None = None,
    map_tiles: int | None = None,
    coins: bool | None = None,
) -> dict:
    """A random valid map dict: ``map_tiles`` map tiles (default: 1 to
    24 - (hunters + 1)) grown tile by tile from one, so connected edge to
    edge; the monster's tile and hunter tiles 1..``hunters`` on distinct
    cells along the map's edge; random home squares; with ``coins``, a random
    coin square on each map tile. Rows are listed north first."""
    hunters = int(rng.integers(1, 4)) if hunters is None else hunters
    if map_tiles is None:
        map_tiles = int(rng.integers(1, 24 - hunters))  # at most 24 - (hunters + 1)
    cells = {(0, 0)}
    while len(cells) < map_tiles:
        options = _frontier(cells)
        cells.add(options[int(rng.integers(len(options)))])
    options = _frontier(cells)
    picks = rng.choice(len(options), size=hunters + 1, replace=False)
    suits = {token: options[int(j)] for token, j in zip("M123", picks)}
    everything = cells | set(suits.values())
    xs, ys = [c[0] for c in everything], [c[1] for c in everything]
    x0, y0 = min(xs), min(ys)
    tw, th = max(xs) - x0 + 1, max(ys) - y0 + 1
    transpose = tw > 13  # squares are named a-z; with <= 26 tiles the other side fits

    def place(cell):
        x, y = cell[0] - x0, cell[1] - y0
        return (y, x) if transpose else (x, y)

    if transpose:
        tw, th = th, tw
    grid = [["."] * tw for _ in range(th)]
    for c in cells:
        x, y = place(c)
        grid[y][x] = "#"
    for token, c in suits.items():
        x, y = place(c)
        grid[y][x] = token
    w, h = 2 * tw, 2 * th

    def squares(x, y):
        """The square names of the tile in column x, row y (from the north)."""
        sy = 2 * (th - 1 - y)
        return [f"{COLUMNS[2 * x + dx]}{sy + dy + 1}" for dy in (0, 1) for dx in (0, 1)]

    homes = {token: str(rng.choice(squares(*place(c)))) for token, c in suits.items()}
    spec = {
        "name": f"random-{int(rng.integers(10**6))}",
        "tiles": [" ".join(r) for r in grid],
        "homes": homes,
    }
    if coins if coins is not None else rng.random() < 0.5:
        spec["coins"] = [
            str(rng.choice(squares(x, y))) for y in range(th) for x in range(tw) if grid[y][x] == "#"
        ]
    assert w <= 26 and h <= 2 * 26
    return spec


def random_setup(rng: np.random.Generator, **map_args) -> tuple[int, dict]:
    """``(num_players, options)`` for a game on a random map: players up to
    the map's hunter tiles and the piecepack's tiles, random suit-tile rule
    and roles, the map as its dict or its diagram."""
    spec = random_map(rng, **map_args)
    layout = parse_layout(spec["name"], spec)
    most = min(layout.max_hunters + 1, 24 - layout.num_tiles)
    num_players = int(rng.integers(2, most + 1))
    value = spec if rng.random() < 0.5 else map_diagram(layout)
    return num_players, {
        "map": value,
        "suit_tiles": str(rng.choice(["closed", "literal"])),
        "roles": str(rng.choice(["fixed", "random"])),
    }


# =========================================================================== the generator and the format


def test_random_maps_are_valid_and_cover_the_limits():
    """The generator's maps pass the checks, from 1 to 22 map tiles, with 1 to
    3 hunter tiles, and read back the same from their diagrams and from JSON."""
    rng = np.random.default_rng(0)
    sizes, hunters = set(), set()
    for k in range(300):
        spec = random_map(rng, map_tiles=1 + k % MAX_MAP_TILES if k % 3 == 0 else None)
        layout, stored = resolve_map(spec)
        sizes.add(layout.num_tiles)
        hunters.add(layout.max_hunters)
        again, _ = resolve_map(map_diagram(layout))
        for field in ("slot", "coin_start", "home", "tile_squares"):
            assert np.array_equal(getattr(again, field), getattr(layout, field)), (field, spec)
        assert resolve_map(json.loads(json.dumps(stored)))[1] == stored
        assert map_from_diagram(map_diagram(layout))["tiles"] == stored["tiles"]
    assert sizes == set(range(1, MAX_MAP_TILES + 1)) and hunters == {1, 2, 3}


# =========================================================================== random play, checked


def play_random_maps(
    seed: int, maps: int, games: int, num_envs: int, max_steps: int, aec_games: int, max_turns: int
) -> dict:
    """Checked random play on ``maps`` random maps; returns what was met."""
    rng = np.random.default_rng(seed)
    met = {
        "maps": 0,
        "literal": 0,
        "games": 0,
        "aec turns": 0,
        "fights": 0,
        "banks": 0,
        "moves onto another's suit tile": 0,
        "banks by a winning attacker": 0,
        "coins lying on a suit tile": 0,
    }
    for m in range(maps):
        num_players, options = random_setup(rng)
        options = {**options, "max_turns": max_turns}
        where = f"map {m}: num_players={num_players}, options={options}"
        with numba_threads(1):
            stats = run_checked_playout(
                num_players,
                options,
                games,
                num_envs=num_envs,
                seed=seed * 1000 + m,
                max_steps=max_steps,
                sample_games=1,
            )
        assert stats["games"] > 0, where
        for g in range(aec_games):
            aec = play_aec_checked(num_players, options, seed=seed * 1000 + m * 10 + g)
            assert aec["terminated"] + aec["truncated"] == 1, where
            met["aec turns"] += aec["turns"]
        met["maps"] += 1
        met["literal"] += options["suit_tiles"] == "literal"
        met["games"] += stats["games"]
        for key in (
            "fights",
            "banks",
            "moves onto another's suit tile",
            "banks by a winning attacker",
            "coins lying on a suit tile",
        ):
            met[key] += stats[key]
        if options["suit_tiles"] == "closed":
            assert stats["moves onto another's suit tile"] == 0, where
    return met


def test_random_maps_play_by_the_rules():
    """A few random maps, briefly: every step of the vector and AEC games checked."""
    met = play_random_maps(seed=1, maps=12, games=200, num_envs=64, max_steps=400, aec_games=1, max_turns=40)
    assert met["literal"] > 0 and met["fights"] > 0 and met["banks"] > 0, met
    assert met["moves onto another's suit tile"] > 0 and met["banks by a winning attacker"] > 0, met


def test_random_maps_aec_and_vector_envs_agree():
    rng = np.random.default_rng(7)
    for _ in range(3):
        num_players, options = random_setup(rng)
        with numba_threads(1):
            stats = run_equivalence(num_players, {**options, "max_turns": 20}, num_envs=4, steps=80, seed=5)
        assert stats["restarts"] >= 4, (num_players, options, stats)


@pytest.mark.slow
def test_random_maps_play_by_the_rules_many():
    met = play_random_maps(
        seed=2, maps=60, games=3000, num_envs=512, max_steps=None, aec_games=3, max_turns=150
    )
    print(met)
    assert met["literal"] > 10
    for key in (
        "moves onto another's suit tile",
        "banks by a winning attacker",
        "coins lying on a suit tile",
    ):
        assert met[key] > 0, (key, met)


@pytest.mark.slow
def test_random_maps_aec_and_vector_envs_agree_many():
    rng = np.random.default_rng(8)
    for _ in range(30):
        num_players, options = random_setup(rng)
        stats = run_equivalence(num_players, {**options, "max_turns": 60}, num_envs=16, steps=600, seed=9)
        assert stats["restarts"] > 0


# =========================================================================== broken maps


def _add_south(spec: dict, token: str, column: int) -> dict:
    """``spec`` with an empty tile row and then a row holding ``token`` in
    ``column`` added south of the map: a tile joined to nothing."""
    width = len(spec["tiles"][0].split())
    row = ["."] * width
    row[column] = token
    return {**spec, "tiles": [*spec["tiles"], " ".join(["."] * width), " ".join(row)]}


def broken(rng: np.random.Generator, how: str) -> tuple[dict, str]:
    """A random map broken in one way, and a fragment of the refusal."""
    if how == "apart":
        spec = random_map(rng, map_tiles=int(rng.integers(1, 20)), coins=False)
        column = int(rng.integers(len(spec["tiles"][0].split())))
        return _add_south(spec, "#", column), "the map tiles fall apart into 2 pieces"
    if how == "suit tile adrift":
        hunters = int(rng.integers(1, 3))
        spec = random_map(rng, hunters=hunters, map_tiles=int(rng.integers(1, 20)), coins=False)
        column = int(rng.integers(len(spec["tiles"][0].split())))
        token = str(hunters + 1)
        height = 2 * (len(spec["tiles"]) + 2)
        spec = _add_south(spec, token, column)
        spec["homes"] = {**spec["homes"], token: f"{COLUMNS[2 * column]}1"}
        assert height > 0
        return (
            spec,
            f"suit tile '{token}' ({COLUMNS[2 * column]}1-{COLUMNS[2 * column + 1]}2) touches no map tile",
        )
    if how == "too many tiles":
        return random_map(
            rng, hunters=1, map_tiles=MAX_MAP_TILES + 1
        ), "has 23 map tiles; a piecepack's 24 tiles leave at most 22"
    if how == "home off its tile":
        spec = random_map(rng, coins=True)
        return {
            **spec,
            "homes": {**spec["homes"], "M": spec["coins"][0]},
        }, f"home {spec['coins'][0]} is not on suit tile 'M'"
    if how == "no hunter tile 1":
        spec = random_map(rng, coins=False)
        tiles = [row.replace("1", ".") for row in spec["tiles"]]
        return {**spec, "tiles": tiles}, "needs hunter suit tile '1'"
    raise ValueError(how)


@pytest.mark.parametrize(
    "how", ["apart", "suit tile adrift", "too many tiles", "home off its tile", "no hunter tile 1"]
)
def test_broken_random_maps_are_refused_naming_the_fault(how):
    rng = np.random.default_rng(len(how))
    for _ in range(40):
        spec, fragment = broken(rng, how)
        with pytest.raises(ValueError) as err:
            azgames.make("azure", map=spec)
        assert fragment in str(err.value), (str(err.value), spec)
