"""Azure Attack's picture (``rules.picture``, ``env.picture()``): everything
the state holds is shown, read back from the SVG (its targets, texts and
hover tips), and every move's clickable square is on it.

The oracle for the map is the text diagram (:mod:`azure_env.diagram`): each
of its tokens must show on its square of the picture (coins with their
values, pieces with their letters and carried coins, suit-tile letters),
and each square a token names as in play must be a target. Scenario tests
then check, from positions drawn as diagrams, what the text does not say:
banked gold per side, squares left, the last step, a fight's rolls, who
went home and the result.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import numpy as np
import pytest

import azgames
from azgames.agents import make_agent
from azure_env import kernels as K
from azure_env.diagram import LEGEND
from azure_env.picture import LEGEND_ENTRIES

from .helpers import board, fight, play, position, tokens

SVG = "{http://www.w3.org/2000/svg}"
# A glyph of the drawing's bitmap font is 15/32 of its 32-pixel cell, which
# is the font size / 0.78 tall.
CHAR_WIDTH = 15 / 32 / 0.78

CROSSROADS = {
    "name": "crossroads",
    "tiles": [". . M . .", ". # # # .", "1 # . # 2", ". # # # .", ". . 3 . ."],
    "homes": {"M": "e9", "1": "b5", "2": "i6", "3": "f2"},
}
SMALLEST = {"tiles": ["M # 1"], "homes": {"M": "a2", "1": "f1"}}

# Every built-in map, a user's map with a hole in the middle and the
# smallest map there is; each with some numbers of players.
GAMES = [
    ({"map": "standard"}, 2),
    ({"map": "standard"}, 3),
    ({"map": "standard"}, 4),
    ({"map": "long"}, 3),
    ({"map": "ring"}, 4),
    ({"map": "ring", "suit_tiles": "literal"}, 3),
    ({"map": CROSSROADS}, 4),
    ({"map": SMALLEST}, 2),
]


@dataclass
class Item:
    tag: str
    attrs: dict
    text: str  # a <text>'s words
    tip: str  # its <title>, "" if none

    @property
    def target(self) -> str | None:
        return self.attrs.get("data-target")


class Svg:
    """A picture's SVG, parsed into its items."""

    def __init__(self, drawing):
        root = ET.fromstring(drawing.svg())
        self.width, self.height = float(root.get("width")), float(root.get("height"))
        self.items = []
        for el in root:
            tag = el.tag.removeprefix(SVG)
            title = el.find(f"{SVG}title")
            tip = title.text if title is not None else ""
            text = ((title.tail if title is not None else el.text) or "") if tag == "text" else ""
            self.items.append(Item(tag, dict(el.attrib), text, tip))

    @property
    def targets(self) -> set[str]:
        return {i.target for i in self.items if i.target}

    @property
    def texts(self) -> list[str]:
        return [i.text for i in self.items if i.tag == "text"]

    def square(self, name: str) -> tuple[float, float, float, float]:
        """The square's box (x, y, w, h): the first rect it targets."""
        rect = next(i for i in self.items if i.tag == "rect" and i.target == name)
        return tuple(float(rect.attrs[k]) for k in ("x", "y", "width", "height"))

    def texts_on(self, name: str) -> list[str]:
        """The words written on a square (anchored inside its box)."""
        x, y, w, h = self.square(name)
        return [
            i.text
            for i in self.items
            if i.tag == "text" and x <= float(i.attrs["x"]) < x + w and y <= float(i.attrs["y"]) < y + h
        ]

    def tips_on(self, name: str) -> list[str]:
        return [i.tip for i in self.items if i.target == name and i.tip]


def square_names(layout) -> list[list[str]]:
    """The squares' names, north row first, as the diagram's rows run."""
    return [
        [layout.name_of(y * layout.width + x) for x in range(layout.width)]
        for y in range(layout.height - 1, -1, -1)
    ]


def assert_shows_the_position(env, last_move: tuple[str, str] | None = None) -> Svg:
    """The picture of ``env`` shows what its text render and its state hold;
    ``last_move`` is (agent, notation) of the step that led here."""
    u = env.unwrapped
    rules, state = u.rules, u.state
    svg = Svg(env.picture())
    # every token of the text diagram on its square
    for row_names, row_tokens in zip(square_names(rules.layout), tokens(board(env))):
        for name, token in zip(row_names, row_tokens):
            if token == "-":
                assert name not in svg.targets, f"{name} has no tile but is a target"
                continue
            assert name in svg.targets, f"{name} ({token!r}) is not a target"
            on = svg.texts_on(name)
            digits = sorted(t for t in on if t.isdigit())
            head, coins = (token[0], token[1:]) if not token[0].isdigit() else (".", token)
            assert digits == sorted(coins), f"{name}: token {token!r}, coin values written {digits}"
            if head not in ".-":
                assert head in on, f"{name}: token {token!r}, written {on}"
            if head.isupper():  # a piece: its tip names its agent and what it carries
                agent = rules.agents["MABC".index(head)]
                carried = " ".join(sorted(coins)) or "none"
                assert any(f"{agent} ({head}), carrying {carried}" in tip for tip in svg.tips_on(name)), (
                    name,
                    svg.tips_on(name),
                )
    # coordinates: each row's number left of the map, each column's letter below it
    boxes = {
        name: svg.square(name) for row in square_names(rules.layout) for name in row if name in svg.targets
    }
    left = min(x for x, _, _, _ in boxes.values())
    bottom = max(y + h for _, y, _, h in boxes.values())
    for row in square_names(rules.layout):
        _, y, _, h = next(boxes[name] for name in row if name in boxes)
        assert any(
            i.text == row[0][1:] and float(i.attrs["x"]) < left and y <= float(i.attrs["y"]) < y + h
            for i in svg.items
            if i.tag == "text"
        ), f"no label of row {row[0][1:]}"
    for column in zip(*square_names(rules.layout)):
        x, _, w, _ = next(boxes[name] for name in column if name in boxes)
        assert any(
            i.text == column[0][0] and x <= float(i.attrs["x"]) < x + w and float(i.attrs["y"]) > bottom
            for i in svg.items
            if i.tag == "text"
        ), f"no label of column {column[0][0]}"
    # the text render's status lines, the panel's banked gold, the legend
    status = rules.render_ansi(state).split("\n")[: -rules.layout.height - 1]
    for line in status:
        assert line in svg.texts, f"status line {line!r} is not in the picture"
    for agent, letter, value in zip(rules.agents, "MABC", rules.banked(state)):
        assert f"{agent} ({letter}): banked {value}" in svg.texts
    for meaning in LEGEND_ENTRIES:
        assert meaning in svg.texts
    if last_move is not None:
        assert any(t.startswith(f"last step: {last_move[0]} played {last_move[1]}:") for t in svg.texts)
    f = state.fight[0]
    if f[0] >= 0:
        rolls = f"fight: {rules.agents[f[0]]} rolled {f[2]}, {rules.agents[f[1]]} rolled {f[3]}"
        assert any(t.startswith(rolls) for t in svg.texts)
    # every line fits the canvas, and the image is the SVG's size
    for item in svg.items:
        if item.tag == "text" and item.attrs["text-anchor"] == "start":
            right = float(item.attrs["x"]) + len(item.text) * CHAR_WIDTH * float(item.attrs["font-size"])
            assert right <= svg.width, f"{item.text!r} runs off the picture"
    return svg


def random_positions(options: dict, num_players: int, seed: int, steps: int, every: int):
    """Play random legal moves; yield (env, last move) every ``every`` steps."""
    env = azgames.make("azure", num_players=num_players, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    last = None
    yield env, last
    for n in range(1, steps + 1):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            yield env, last
            return
        action = int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"])))
        last = (agent, env.unwrapped.action_to_str(action))
        env.step(action)
        if n % every == 0 or env.unwrapped.state.fight[0, 0] >= 0:
            yield env, last


def game_id(game) -> str:
    options, num_players = game
    name = options["map"] if isinstance(options["map"], str) else options["map"].get("name", "smallest")
    return f"{name}-{num_players}p" + ("-literal" if "suit_tiles" in options else "")


# =========================================================================== the map


@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_random_play_shows_every_coin_piece_and_score(game):
    options, num_players = game
    fights = 0
    for env, last in random_positions(options, num_players, seed=3, steps=240, every=12):
        assert_shows_the_position(env, last)
        fights += env.unwrapped.state.fight[0, 0] >= 0
    if num_players > 2:  # crowded maps fight within 240 random steps (these seeds do)
        assert fights > 0


def test_each_coin_is_written_with_its_value_on_its_square():
    """The issue: values 1, 3 and 5 looked alike. Several coins on one square
    each show their own value; a null coin shows 0."""
    env = position("""
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  5  .
         8  .  .  .  .  .  .
         7  .  .  3  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  . 0134 .
         2  -  -  a  A  -  -
         1  -  -  a  a  -  -
    """)
    svg = assert_shows_the_position(env)
    assert svg.texts_on("a10") == ["1"] and svg.texts_on("e9") == ["5"] and svg.texts_on("c7") == ["3"]
    assert sorted(svg.texts_on("e3")) == ["0", "1", "3", "4"]
    assert any("coin(s) worth 0 1 3 4" in tip for tip in svg.tips_on("e3"))
    assert svg.texts_on("d7") == []


def test_carried_gold_is_drawn_with_the_piece_and_listed_beside_the_map():
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  . M20  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  . A35  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
    """,
        banked={"A": "4", "M": "1"},
    )
    svg = assert_shows_the_position(env)
    assert sorted(svg.texts_on("e6")) == ["3", "5", "A"]
    assert sorted(svg.texts_on("c8")) == ["0", "2", "M"]
    assert "carrying 3 5 (worth 8)" in svg.texts and "carrying 0 2 (worth 2)" in svg.texts
    assert "banked: monster 1, hunter_0 4 (hunters 4 vs monster 1)" in svg.texts
    assert "hunter_0 (A): banked 4" in svg.texts and "monster (M): banked 1" in svg.texts


def test_the_header_says_who_moves_and_how_far_and_the_trail_is_drawn():
    """A hunter that moved d3 -> d4 -> d5 has 2 of its 4 squares left; the
    squares it left are marked as visited, the square it stands on is not."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  A  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
    """,
        steps_taken="d3 d4 d5",
    )
    svg = assert_shows_the_position(env)
    assert "Azure Attack, turn 1: hunter_0 (A) to move, 2 square(s) left" in svg.texts
    visited = []
    for item in svg.items:
        if item.tip == "visited this turn":
            for name in ("d3", "d4", "d5"):
                x, y, w, h = svg.square(name)
                if x <= float(item.attrs["cx"]) < x + w and y <= float(item.attrs["cy"]) < y + h:
                    visited.append(name)
    assert visited == ["d3", "d4"]
    centres = {
        (x + w / 2, y + h / 2): name
        for row in square_names(env.unwrapped.rules.layout)
        for name in row
        if name in svg.targets
        for x, y, w, h in [svg.square(name)]
    }
    joined = [
        (
            centres.get((float(i.attrs["x1"]), float(i.attrs["y1"]))),
            centres.get((float(i.attrs["x2"]), float(i.attrs["y2"]))),
        )
        for i in svg.items
        if i.tag == "line" and "stroke-dasharray" in i.attrs
    ]
    assert [pair for pair in joined if pair != (None, None)] == [("d3", "d4"), ("d4", "d5")]
    assert any(tip.endswith("; to move") for tip in svg.tips_on("d5"))


def test_the_last_step_names_who_played_what_and_where_it_went():
    env = position("""
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  A  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
    """)
    svg = Svg(env.picture())
    assert not any(t.startswith("last step") for t in svg.texts)  # nothing played yet
    play(env, "N")
    assert "last step: hunter_0 played N: it went to d6" in assert_shows_the_position(env).texts
    play(env, "stop")
    svg = assert_shows_the_position(env, ("hunter_0", "stop"))
    assert "last step: hunter_0 played stop: its turn ended on d6" in svg.texts
    assert "Azure Attack, turn 2: hunter_0 (A) to move, 4 square(s) left" in svg.texts


def test_a_fight_shows_both_rolls_who_went_home_and_the_monsters_extra_turn():
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  M2 .  .  .
         7  .  . A35 .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
    """,
        to_move="M",
    )
    fight(env, "S", 5, 1)
    svg = assert_shows_the_position(env, ("monster", "S"))
    assert "last step: monster played S: it attacked hunter_0" in svg.texts
    assert "fight: monster rolled 5, hunter_0 rolled 1: attacker wins" in svg.texts
    assert "sent home, dropping any gold carried: hunter_0 to d2; the monster moves again" in svg.texts
    assert sorted(svg.texts_on("c7")) == ["2", "3", "5", "M"]  # it took the hunter's gold
    assert "A" in svg.texts_on("d2")
    play(env, "stop")  # the next step fought nobody: the fight lines go
    svg = assert_shows_the_position(env, ("monster", "stop"))
    assert not any(t.startswith(("fight:", "sent home")) for t in svg.texts)


def test_a_fight_between_hunters_that_sends_both_home():
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  . A3 B4  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  b  a  a  -  -
         1  b  b  a  a  -  -
    """,
        num_players=3,
    )
    fight(env, "E", 2, 2)
    svg = assert_shows_the_position(env, ("hunter_0", "E"))
    assert "fight: hunter_0 rolled 2, hunter_1 rolled 2: both go home" in svg.texts
    assert "sent home, dropping any gold carried: hunter_0 to d2 and hunter_1 to b2" in svg.texts
    assert svg.texts_on("c5") == ["3"] and svg.texts_on("d5") == ["4"]  # each dropped where it stood


@pytest.mark.parametrize(
    "hunter_gold, monster_gold, verdict",
    [
        ("5", "4", "the hunters win, 5 to 4"),
        ("2", "4", "the monster wins, 4 to 2"),
        ("4", "4", "a draw, 4 to 4"),
    ],
)
def test_the_result_shows_once_the_game_is_over(hunter_gold, monster_gold, verdict):
    """The hunter banks the last coin: the game ends and the header says who won."""
    env = position(
        f"""
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  .  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  A{hunter_gold}  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
    """,
        banked={"M": monster_gold},
    )
    play(env, "S")
    svg = assert_shows_the_position(env, ("hunter_0", "S"))
    assert "Azure Attack: game over" in svg.texts
    assert f"result after 1 turn: {verdict}" in svg.texts
    assert not any(i.tip.endswith("; to move") for i in svg.items)  # nobody moves any more


def test_the_turn_limit_is_shown():
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  A  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
    """,
        max_turns=1,
        banked={"A": "3"},
    )
    play(env, "stop")
    svg = assert_shows_the_position(env, ("hunter_0", "stop"))
    assert "Azure Attack: turn limit reached" in svg.texts
    assert "result after 1 turn: the hunters win, 3 to 0" in svg.texts


def test_suit_tiles_homes_and_missing_tiles_are_told_apart():
    """Squares of no tile (and of a hunter tile nobody uses) are no targets;
    a suit tile's squares carry its owner's letter, its home says so."""
    env = azgames.make("azure", num_players=3)
    env.reset(seed=0)
    svg = assert_shows_the_position(env)
    assert not {"a12", "f11", "e1", "f2"} & svg.targets  # no tile; hunter_2's tile unused
    assert "b" in svg.texts_on("a1") and "a" in svg.texts_on("c1") and "m" in svg.texts_on("d12")
    assert any(tip == "d2: suit tile of hunter_0, its home square" for tip in svg.tips_on("d2"))
    assert any(tip.startswith("c4: map square") for tip in svg.tips_on("c4"))


# =========================================================================== moves and targets


@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_every_legal_move_selects_a_distinct_target_of_the_picture(game):
    """Each legal step's target is a square of the picture, the square the
    piece then stands on unless it fought; ``stop`` has none (a button).
    Distinct legal moves never share a target sequence."""
    options, num_players = game
    for env, _ in random_positions(options, num_players, seed=5, steps=150, every=10):
        u = env.unwrapped
        if u.state.outcome[0] != K.ONGOING:
            continue
        targets = Svg(env.picture()).targets
        legal = u.legal_actions()
        sequences = {a: u.rules.action_targets(u.state, a) for a in legal}
        assert len(set(sequences.values())) == len(legal), sequences
        for action, names in sequences.items():
            if u.action_to_str(action) == "stop":
                assert names == ()
                continue
            assert len(names) == 1 and names[0] in targets, (action, names)
            after = u.clone()
            after.step(action)
            if after.state.fight[0, 0] < 0:
                p = int(u.state.player[0])
                assert u.rules.layout.name_of(int(after.state.pos[0, p])) == names[0]


def test_a_step_off_the_grid_has_no_target_and_a_bad_action_is_refused():
    env = azgames.make("azure")
    env.reset(seed=0)
    u = env.unwrapped  # hunter_0 on d2: west is c2 (its own tile), south d1, east e2 (no tile: 2 players)
    assert u.rules.action_targets(u.state, u.str_to_action("W")) == ("c2",)
    assert u.rules.action_targets(u.state, u.str_to_action("S")) == ("d1",)
    with pytest.raises(ValueError, match="action 5 is out of range"):
        u.rules.action_targets(u.state, 5)
    smallest = azgames.make("azure", map=SMALLEST)
    smallest.reset(seed=0)
    s = smallest.unwrapped  # hunter_0 at home on f1, the map's south-east corner
    assert s.rules.action_targets(s.state, s.str_to_action("E")) == ()
    assert s.rules.action_targets(s.state, s.str_to_action("S")) == ()


# =========================================================================== images and legend


@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_the_rgb_image_has_the_svgs_size_in_every_frame(game):
    options, num_players = game
    env = azgames.make("azure", num_players=num_players, render_mode="rgb_array", **options)
    env.reset(seed=1)
    svg = Svg(env.picture())
    first = env.render()
    assert first.shape == (int(svg.height), int(svg.width), 3) and first.dtype == np.uint8
    rng = np.random.default_rng(1)
    for _ in range(20):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    assert env.render().shape == first.shape
    assert env.unwrapped.rules.render_rgb(env.unwrapped.state).shape == first.shape


def test_the_legend_explains_every_symbol_of_the_text_render():
    """Every kind of token the diagram writes (no tile, empty square, coin
    digits, suit-tile letters, pieces) and the row and column labels have a
    line of the legend, whose first column shows the symbol."""
    env = azgames.make("azure", num_players=4)
    env.reset(seed=0)
    rules = env.unwrapped.rules
    assert rules.legend() == LEGEND
    symbols = {line.split("  ")[0] for line in LEGEND.splitlines() if not line.startswith(" ")}

    def kind(token: str) -> str:
        head = token[0]
        if head.isdigit():
            return "35"
        if head.isalpha():
            return "M A B C" if head.isupper() else "m a b c"
        return head

    seen = {kind(token) for row in tokens(board(env)) for token in row}
    assert seen == {"-", ".", "35", "m a b c", "M A B C"}
    assert seen <= symbols
    assert "12 / a" in symbols  # the labels


def test_the_last_step_names_the_gold_it_picked_up_and_banked():
    """Compared with the position before it, a step that lands on coins names
    their values, and one that reaches home names the coins it banked."""
    env = azgames.make("azure")
    env.reset(seed=0)
    greedy = [make_agent("greedy", seed=s, game="azure") for s in range(2)]  # greedy banks, random rarely
    rules = env.unwrapped.rules
    told = {"picked up": 0, "banked": 0}
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        p = rules.agents.index(env.agent_selection)
        before = env.unwrapped.state.coin_loc[0].copy()
        env.step(int(greedy[p].act(env)))
        state = env.unwrapped.state
        line = re.search(r"last step:[^<]*", env.picture().svg()).group(0)
        for verb, code in (("picked up", rules.S + K.CARRIED + p), ("banked", rules.S + K.BANKED + p)):
            new = (state.coin_loc[0] == code) & (before != code)
            if verb == "picked up":
                new &= before < rules.S
            values = sorted(int(v) for v in state.coin_value[0][new])
            if values:
                told[verb] += 1
                assert f"{verb} {' + '.join(map(str, values))}" in line, line
            else:
                assert verb not in line, line
    assert told["picked up"] and told["banked"], told
