"""Azure Attack on any map (bonus rules 1 and 2): a map of the user's own as
a diagram, a dict or a file; the checks a map passes before play, each
refusal naming what is wrong; what a game keeps of its map (records replay);
the suit-tile option's access table.

The map format is documented in docs/rules/azure.md ("A map of your own");
these tests read its example and its drawings of the built-in maps, so the
page and the code cannot drift apart.
"""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import numpy as np
import pytest

import azgames
import azure_env
from azgames.core import state as state_ops
from azure_env.board import (
    ENTER_HUNTER,
    ENTER_MONSTER,
    MAX_MAP_TILES,
    access_table,
    load_layout,
    map_diagram,
    map_from_diagram,
    map_names,
    parse_layout,
    resolve_map,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "azure.md"

LAYOUT_FIELDS = ("height", "width", "slot", "tile_squares", "coin_start", "home", "slot_squares")


def same_layout(a, b) -> bool:
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in LAYOUT_FIELDS)


def doc_blocks() -> list[str]:
    """The fenced code blocks of the rules page, in order."""
    return re.findall(r"```[a-z]*\n(.*?)```", DOC.read_text(), flags=re.S)


def doc_block_after(heading: str, index: int = 0) -> str:
    """The ``index``-th code block after ``heading`` in the rules page."""
    text = DOC.read_text()
    start = text.index(heading)
    return re.findall(r"```[a-z]*\n(.*?)```", text[start:], flags=re.S)[index]


# The docs' example, as a dict (also checked against the page's JSON block).
CROSSROADS = {
    "name": "crossroads",
    "tiles": [". . M . .", ". # # # .", "1 # . # 2", ". # # # .", ". . 3 . ."],
    "homes": {"M": "e9", "1": "b5", "2": "i6", "3": "f2"},
}


def random_game(env, rng, steps: int) -> None:
    for _ in range(steps):
        a = env.agent_selection
        if env.terminations[a] or env.truncations[a]:
            return
        env.step(int(rng.choice(np.flatnonzero(env.observe(a)["action_mask"]))))


# =========================================================================== the format


def test_the_rules_page_draws_the_built_in_maps_as_the_code_does():
    """The drawings of "The maps" are the diagrams of the data, and read
    back as the same maps."""
    for name in ("standard", "long", "ring"):
        drawn = doc_block_after(f"**{name}**")
        layout = load_layout(name)
        assert drawn.strip("\n") == map_diagram(layout), name
        assert same_layout(resolve_map(drawn)[0], layout), name


def test_the_rules_page_example_is_the_same_map_as_diagram_and_as_dict():
    heading = "### A map of your own"
    diagram = doc_block_after(heading, 0)
    as_json = json.loads(doc_block_after(heading, 1))
    assert as_json == CROSSROADS
    from_diagram, _ = resolve_map(diagram)
    from_dict, _ = resolve_map(as_json)
    assert same_layout(from_diagram, from_dict)
    assert map_diagram(from_dict) == diagram.strip("\n")
    assert (from_dict.num_tiles, from_dict.max_hunters, from_dict.width, from_dict.height) == (8, 3, 10, 10)


def test_a_game_on_the_example_map_sets_up_and_plays():
    """Four players on crossroads: pieces at their homes, one coin on each
    map tile's square nearest the centre, random play through the turn limit."""
    env = azgames.make("azure", num_players=4, map=CROSSROADS, max_turns=40)
    env.reset(seed=3)
    u = env.unwrapped
    assert env.infos["monster"]["suit_tiles"] == {
        "monster": "e9",
        "hunter_0": "b5",
        "hunter_1": "i6",
        "hunter_2": "f2",
    }
    layout = u.rules.layout
    assert sorted(u.state.coin_loc[0].tolist()) == sorted(layout.coin_start.tolist())
    assert u.observation_space("monster")["observation"].shape == (21, 10, 10)
    random_game(env, np.random.default_rng(0), 2000)
    assert all(env.truncations.values()) or all(env.terminations.values())


def write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    "how", ["dict", "diagram", "json file", "json diagram file", "text file", "pathlike"]
)
def test_a_map_as_dict_diagram_or_file_is_the_same_map(how, tmp_path):
    """``map=`` takes a dict, a diagram, or a path (str or PathLike) to a
    JSON file (the dict, or the diagram as a JSON string) or a text file
    holding the diagram; all give the same map."""
    diagram = map_diagram(resolve_map(CROSSROADS)[0])
    value = {
        "dict": CROSSROADS,
        "diagram": diagram,
        "json file": write(tmp_path / "cross.json", json.dumps(CROSSROADS)),
        "json diagram file": write(tmp_path / "cross.json", json.dumps(diagram)),
        "text file": write(tmp_path / "cross.txt", diagram),
        "pathlike": tmp_path / "cross.json",
    }[how]
    if how == "pathlike":
        write(value, json.dumps(CROSSROADS))
    rules = azure_env.AzureRules(3, map=value)
    assert same_layout(rules.layout, resolve_map(CROSSROADS)[0])
    stored = rules.options["map"]
    assert isinstance(stored, dict) and json.loads(json.dumps(stored)) == stored
    assert stored["tiles"] == CROSSROADS["tiles"] and stored["homes"] == CROSSROADS["homes"]


def test_make_takes_a_file_path_string_as_well_as_a_built_in_name(tmp_path):
    """What the command line's ``--map NAME|PATH --roles`` passes on."""
    path = write(tmp_path / "mine.json", json.dumps(CROSSROADS))
    env = azgames.make("azure", num_players=3, map=path, roles="random")
    env.reset(seed=0)
    assert env.unwrapped.rules.layout.name == "crossroads"
    named = azgames.make("azure", num_players=3, map="ring", roles="random")
    assert named.unwrapped.rules.options["map"] == "ring"


def test_a_file_is_named_after_itself_unless_the_map_names_itself(tmp_path):
    unnamed = {k: v for k, v in CROSSROADS.items() if k != "name"}
    assert resolve_map(write(tmp_path / "fork.json", json.dumps(unnamed)))[0].name == "fork"
    assert resolve_map(write(tmp_path / "fork.json", json.dumps(CROSSROADS)))[0].name == "crossroads"
    assert resolve_map(map_diagram(resolve_map(CROSSROADS)[0]))[0].name == "custom"


def test_a_built_in_name_wins_over_a_file_of_that_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "standard", json.dumps(CROSSROADS))
    layout, stored = resolve_map("standard")
    assert layout is load_layout("standard") and stored == "standard"
    assert resolve_map("./standard")[0].name == "crossroads"
    assert resolve_map(Path("standard"))[0].name == "crossroads"


def test_the_canonical_dict_reads_back_as_itself():
    """What the options keep is a fixed point: tokens single-spaced, homes in
    the order M 1 2 3, square names in lower case."""
    messy = {
        "tiles": ["  .  M .", "#  # #", "2 1  3"],
        "homes": {"3": "e2", "2": "A2", "1": "d2", "M": "C5"},
        "description": "messy",
    }
    layout, stored = resolve_map(messy)
    assert stored == {
        "name": "custom",
        "description": "messy",
        "tiles": [". M .", "# # #", "2 1 3"],
        "homes": {"M": "c5", "1": "d2", "2": "a2", "3": "e2"},
    }
    again, stored_again = resolve_map(stored)
    assert stored_again == stored and same_layout(again, layout)


def test_a_map_may_say_where_each_coin_starts():
    """``coins`` (or ``o`` in a diagram) places each map tile's coin; the
    set-up puts the coins there."""
    spec = {"tiles": [". M", "# #", "1 ."], "homes": {"M": "c5", "1": "b2"}, "coins": ["a3", "d4"]}
    layout, stored = resolve_map(spec)
    assert [layout.name_of(int(s)) for s in layout.coin_start] == ["a3", "d4"]
    assert stored["coins"] == ["a3", "d4"]
    drawn = map_diagram(layout)
    assert drawn.splitlines()[2:4] == [" 4  . . . o", " 3  o . . ."]
    assert map_from_diagram(drawn)["coins"] == ["a3", "d4"]
    env = azgames.make("azure", map=spec)
    env.reset(seed=0)
    assert sorted(env.unwrapped.state.coin_loc[0].tolist()) == sorted(layout.coin_start.tolist())


def test_the_smallest_map_plays_to_the_end():
    """One map tile, two suit tiles: the game ends once its single coin is banked."""
    env = azgames.make("azure", map={"tiles": ["M # 1"], "homes": {"M": "a2", "1": "f1"}})
    env.reset(seed=1)
    random_game(env, np.random.default_rng(1), 5000)
    assert all(env.terminations.values())


# =========================================================================== records


def user_map_values(tmp_path) -> dict:
    diagram = map_diagram(resolve_map(CROSSROADS)[0])
    return {
        "dict": CROSSROADS,
        "diagram": diagram,
        "path": write(tmp_path / "cross.json", json.dumps(CROSSROADS)),
    }


@pytest.mark.parametrize("how", ["dict", "diagram", "path"])
def test_a_record_of_a_game_on_a_users_map_replays(how, tmp_path):
    """The record keeps the map itself: it replays through JSON, after the
    map's file is gone, and on the same map whichever way it was given."""
    value = user_map_values(tmp_path)[how]
    env = azgames.make("azure", num_players=3, map=value, max_turns=60)
    env.reset(seed=5)
    random_game(env, np.random.default_rng(5), 150)
    record = json.loads(json.dumps(env.unwrapped.to_record()))
    assert record["options"]["map"]["tiles"] == CROSSROADS["tiles"]
    for f in tmp_path.iterdir():
        f.unlink()
    again = azgames.from_record(record)
    assert state_ops.equal(again.unwrapped.state, env.unwrapped.state)
    assert same_layout(again.unwrapped.rules.layout, env.unwrapped.rules.layout)


def test_a_game_on_a_users_map_pickles_and_clones():
    env = azgames.make("azure", num_players=4, map=CROSSROADS, suit_tiles="literal")
    env.reset(seed=2)
    random_game(env, np.random.default_rng(2), 30)
    for other in (pickle.loads(pickle.dumps(env)), env.unwrapped.clone()):
        assert state_ops.equal(other.unwrapped.state, env.unwrapped.state)
        assert other.unwrapped.rules.options == env.unwrapped.rules.options


# =========================================================================== refusals

STANDARD = {
    "tiles": [". M .", "# # #", "# # #", "2 1 3"],
    "homes": {"M": "c7", "1": "d2", "2": "b2", "3": "e2"},
}


def standard(**changes):
    return {**STANDARD, **changes}


DIAGRAM = """
 6  - - m M
 5  - - m m
 4  o . . o
 3  . . . .
 2  1 H - -
 1  1 1 - -
    a b c d
"""

#: (id, map, num_players, fragment the ValueError must hold)
REFUSALS = [
    # what map= is
    ("unknown name", "hexagon", 2, "map='hexagon' is unknown: not a built-in map (standard, long, ring)"),
    ("missing file", "maps/mine.json", 2, "nor a map file (no such file)"),
    ("empty string", "", 2, "map='' is unknown"),
    ("not a map value", 12, 2, "map=12 must be a built-in map name"),
    ("list", [". M .", "# # #"], 2, "must be a built-in map name"),
    # the dict
    ("unknown key", standard(colour="red"), 2, "unknown key(s) ['colour']"),
    ("no tiles", {"homes": {"M": "c7"}}, 2, "missing 'tiles'"),
    ("no homes", {"tiles": STANDARD["tiles"]}, 2, "missing 'homes'"),
    ("tiles a string", standard(tiles=". M . # # #"), 2, "'tiles' must be a non-empty list of strings"),
    ("tiles empty", standard(tiles=[]), 2, "'tiles' must be a non-empty list of strings"),
    ("name not a string", standard(name=3), 2, "'name' must be a string"),
    (
        "ragged rows",
        standard(tiles=[". M .", "# # # #", "# # #", "2 1 3"]),
        2,
        "tile row 2 (from the north) has 4 tiles, row 1 has 3",
    ),
    (
        "unknown token",
        standard(tiles=[". M .", "# x #", "# # #", "2 1 3"]),
        2,
        "tile c5-d6: unknown tile token 'x' (use # M 1 2 3 .)",
    ),
    (
        "suit tile twice",
        standard(tiles=[". M .", "# # #", "# # #", "1 1 3"]),
        2,
        "suit tile '1' appears twice (a1-b2 and c1-d2)",
    ),
    (
        "no monster tile",
        standard(tiles=[". . .", "# # #", "# # #", "2 1 3"]),
        2,
        "needs the monster's suit tile 'M'",
    ),
    (
        "no hunter tile 1",
        standard(tiles=[". M .", "# # #", "# # #", "2 . 3"]),
        2,
        "needs hunter suit tile '1'",
    ),
    (
        "tile 3 without 2",
        standard(tiles=[". M .", "# # #", "# # #", ". 1 3"]),
        2,
        "has hunter suit tile '3' (e1-f2) but no '2'",
    ),
    (
        "no map tile",
        {"tiles": ["M 1"], "homes": {"M": "a1", "1": "c1"}},
        2,
        "has no map tile '#'; the game needs 1 to 22",
    ),
    (
        "23 map tiles",
        {
            "tiles": ["M " + "# " * 11 + ".", ". " + "# " * 12, ". 1 " + ". " * 11],
            "homes": {"M": "a6", "1": "c2"},
        },
        2,
        "has 23 map tiles; a piecepack's 24 tiles leave at most 22 besides two suit tiles",
    ),
    (
        "too wide",
        {"tiles": ["M " + "# " * 12 + "1"], "homes": {"M": "a1", "1": "ab1"}},
        2,
        "is 14 tiles (28 squares) wide; squares are named a-z, so a map is at most 13 tiles wide",
    ),
    (
        "empty border row",
        standard(tiles=[". . .", ". M .", "# # #", "# # #", "2 1 3"]),
        2,
        "the north row of tiles is empty; remove it",
    ),
    (
        "empty border column",
        standard(tiles=[". M . .", "# # # .", "# # # .", "2 1 3 ."]),
        2,
        "the east column of tiles is empty; remove it",
    ),
    (
        "map falls apart",
        standard(tiles=[". M .", "# . #", "# . #", "2 1 3"]),
        2,
        "the map tiles fall apart into 2 pieces: map tile e5-f6 is not joined edge to edge to the map tile a5-b6",
    ),
    ("corner only", standard(tiles=[". M .", "# . .", ". # .", "2 1 3"]), 2, "fall apart into 2 pieces"),
    (
        "suit tile off the map",
        standard(tiles=["M . .", ". # #", ". # #", "2 1 3"]),
        2,
        "suit tile 'M' (a7-b8) touches no map tile along an edge",
    ),
    (
        "suit tile touching only a suit tile",
        {"tiles": [". M", "# #", "1 .", "2 ."], "homes": {"M": "c7", "1": "a4", "2": "a2"}},
        2,
        "suit tile '2' (a1-b2) touches no map tile along an edge",
    ),
    ("homes not a dict", standard(homes=["c7"]), 2, "'homes' must be a dict of suit tile to square"),
    (
        "home key",
        standard(homes={**STANDARD["homes"], "4": "a1"}),
        2,
        "home of '4': the suit tiles are ['M', '1', '2', '3']",
    ),
    (
        "home of a missing tile",
        {**STANDARD, "tiles": [". M .", "# # #", "# # #", "2 1 ."], "homes": STANDARD["homes"]},
        2,
        "home given for suit tile '3', which the map does not have",
    ),
    (
        "home not a square",
        standard(homes={**STANDARD["homes"], "M": "z9"}),
        2,
        "home of 'M': 'z9' is not a square name (a1 to f8)",
    ),
    (
        "home off the map",
        standard(homes={**STANDARD["homes"], "M": "c9"}),
        2,
        "'c9' is off the map (rows 1 to 8)",
    ),
    (
        "home off its tile",
        standard(homes={**STANDARD["homes"], "1": "b2"}),
        2,
        "home b2 is not on suit tile '1' (c1-d2)",
    ),
    (
        "home missing",
        standard(homes={"M": "c7", "1": "d2"}),
        2,
        "suit tile(s) ['2', '3'] have no home square",
    ),
    ("coins not a list", standard(coins="a3"), 2, "'coins' must be a list of square names"),
    ("coin off the map tiles", standard(coins=["a1"]), 2, "coin square a1 is not on a map tile"),
    (
        "two coins on a tile",
        standard(coins=["a3", "b4"]),
        2,
        "map tile a3-b4 has two coin squares (a3 and b4); a tile holds one coin",
    ),
    ("a tile without coin", standard(coins=["a3"]), 2, "map tile a5-b6 has no coin square in 'coins'"),
    # the diagram
    (
        "odd rows",
        "\n".join(DIAGRAM.strip("\n").splitlines()[1:]),
        2,
        "map diagram: it is 4 squares wide and 5 high; tiles are 2 x 2 squares, so both must be even",
    ),
    (
        "ragged diagram",
        DIAGRAM.replace(" 3  . . . .", " 3  . . ."),
        2,
        "map diagram: row 3 has 3 squares, row 6 has 4",
    ),
    (
        "diagram token",
        DIAGRAM.replace(" 3  . . . .", " 3  . . x ."),
        2,
        "map diagram: square c3: unknown token 'x' (use - . o m M 1 2 3 H)",
    ),
    (
        "mixed tile",
        DIAGRAM.replace(" 3  . . . .", " 3  . . - ."),
        2,
        "map diagram: tile c3-d4 mixes ['-', '.', 'o']",
    ),
    (
        "no home mark",
        DIAGRAM.replace("2  1 H", "2  1 1"),
        2,
        "map diagram: hunter suit tile 1 a1-b2 has 0 home squares 'H'",
    ),
    (
        "two home marks",
        DIAGRAM.replace("6  - - m M", "6  - - M M"),
        2,
        "map diagram: the monster's suit tile c5-d6 has 2 home squares 'M'",
    ),
    (
        "all H",
        DIAGRAM.replace("2  1 H", "2  H H").replace("1  1 1", "1  H H"),
        2,
        "map diagram: hunter suit tile a1-b2 is all 'H'",
    ),
    (
        "coin marks on some tiles",
        DIAGRAM.replace("4  o . . o", "4  o . . ."),
        2,
        "map diagram: map tile c3-d4 has no coin square 'o'; mark one on every map tile, or on none",
    ),
    (
        "two coin marks on a tile",
        DIAGRAM.replace(" 3  . . . .", " 3  o . . ."),
        2,
        "map diagram: map tile a3-b4 has 2 coin squares 'o' (a3, a4)",
    ),
    # the game on the map
    (
        "too few hunter tiles",
        {"tiles": [". M", "# #", "1 ."], "homes": {"M": "c5", "1": "a2"}},
        3,
        "has suit tiles for 1 hunter(s); num_players=3 needs 2",
    ),
    (
        "too many tiles for the players",
        {
            "tiles": ["M # # # # # # # # # #", "# # # # # # # # # # #", "1 2 3 . . . . . . . ."],
            "homes": {"M": "a6", "1": "a2", "2": "c2", "3": "e2"},
        },
        4,
        "has 21 map tiles; num_players=4 leaves 20 of a piecepack's 24 tiles besides the 4 suit tiles",
    ),
]


@pytest.mark.parametrize(
    "value, num_players, fragment", [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS]
)
def test_an_invalid_map_is_refused_saying_what_is_wrong(value, num_players, fragment):
    with pytest.raises(ValueError) as err:
        azure_env.AzureRules(num_players, map=value)
    assert fragment in str(err.value), str(err.value)


def test_a_bad_map_file_is_refused_naming_the_file(tmp_path):
    for text, fragment in [
        ('{"tiles": [', "is not JSON"),
        ("[1, 2]", "holds a JSON list; a map file holds one map"),
        (json.dumps({"tiles": ["M #"]}), "missing 'homes'"),
        ("x y\nz w", "unknown token 'x'"),
    ]:
        path = write(tmp_path / "bad.json", text)
        with pytest.raises(ValueError, match=re.escape(f"map file {path!r}")) as err:
            resolve_map(path)
        assert fragment in str(err.value), str(err.value)


def test_the_limits_are_a_piecepacks():
    """22 map tiles play with 2 players (24 tiles less 2 suit tiles), and
    are refused with 3."""
    spec = {
        "tiles": ["M # # # # # # # # # # #", "1 # # # # # # # # # # #", ". 2 . . . . . . . . . ."],
        "homes": {"M": "a6", "1": "a4", "2": "c2"},
    }
    assert resolve_map(spec)[0].num_tiles == MAX_MAP_TILES == 22
    env = azgames.make("azure", num_players=2, map=spec)
    env.reset(seed=0)
    assert env.unwrapped.observation_space("monster")["observation"].high.max() == 110
    with pytest.raises(
        ValueError, match="has 22 map tiles; num_players=3 leaves 21 of a piecepack's 24 tiles"
    ):
        azgames.make("azure", num_players=3, map=spec)


# =========================================================================== the suit-tile option as data


def test_the_suit_tiles_option_is_a_per_square_access_table():
    """closed: nobody but the owner enters a suit tile; literal: hunters may
    enter the monster's tile and the monster the hunters', home squares
    excepted; the table is part of the kernels' tables."""
    layout = load_layout("standard")
    assert not access_table(layout, "closed").any()
    table = access_table(layout, "literal")
    named = {layout.name_of(s): int(v) for s, v in enumerate(table) if v}
    assert named == {
        "d11": ENTER_HUNTER,
        "c12": ENTER_HUNTER,
        "d12": ENTER_HUNTER,
        "c1": ENTER_MONSTER,
        "c2": ENTER_MONSTER,
        "d1": ENTER_MONSTER,
        "a1": ENTER_MONSTER,
        "b1": ENTER_MONSTER,
        "a2": ENTER_MONSTER,
        "e1": ENTER_MONSTER,
        "f1": ENTER_MONSTER,
        "f2": ENTER_MONSTER,
    }
    rules = azure_env.AzureRules(2, suit_tiles="literal")
    S = rules.S
    assert np.array_equal(rules.tables[5 * S : 6 * S], table)
    with pytest.raises(ValueError, match="suit_tiles='open' is not supported"):
        access_table(layout, "open")


def test_built_in_maps_are_unchanged_by_the_checks():
    for name in map_names():
        layout = load_layout(name)
        assert same_layout(parse_layout(name, layout.spec), layout)
