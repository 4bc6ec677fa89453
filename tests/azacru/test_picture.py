"""Azacru's picture (``rules.picture``): every element of the position shows,
every square is a target named like the notation, and the targets of the
legal actions select them (up to the final facing, chosen after the clicks)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict

import numpy as np
import pytest

import azgames
from azacru_env.board import COMPASS, DX, DY, field_name
from azacru_env.diagram import LEGEND, PLAYER_LETTERS
from azgames.core.drawing import SEAT_COLOURS
from azgames.core.game import LastStep

from .helpers import play, position

SVG = "{http://www.w3.org/2000/svg}"

# player_1's tiles e5 and i6 (with its piece facing SW), player_0's d4 and b2
# (its pieces on b2 facing N and on a neutral a1 facing SE), player_2's g2
# with its piece facing E.
THREE_PLAYERS = r"""
9 .   .   .   | .   .   .   | .   .   .
8 .   .   .   | .   .   .   | .   .   .
7 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
6 .   .   .   | .   .   .   | .   .   1B,
5 .   .   .   | .   1   .   | .   .   .
4 .   .   .   | 0   .   .   | .   .   .
  -----------+-------------+------------
3 .   .   .   | .   .   .   | .   .   .
2 .   0A^ .   | .   .   .   | 2C> .   .
1 .A\ .   .   | .   .   .   | .   .   .
  a   b   c     d   e   f     g   h   i
"""
TILES = {"e5": 1, "i6": 1, "d4": 0, "b2": 0, "g2": 2}
PIECES = {"i6": ("B", "SW"), "b2": ("A", "N"), "a1": ("A", "SE"), "g2": ("C", "E")}


def parse(drawing):
    return ET.fromstring(drawing.svg())


def tip(element) -> str:
    title = element.find(f"{SVG}title")
    return title.text if title is not None else ""


def squares(root) -> dict[str, tuple[float, float, float, float]]:
    """Each target's square (the rect tagged with it): x, y, width, height."""
    out = {}
    for r in root.iter(f"{SVG}rect"):
        t = r.get("data-target")
        if t is not None:
            assert t not in out, f"two squares named {t}"
            out[t] = tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))
    return out


def content(text) -> str:
    """A <text>'s words, without its tip (a <title> inside it)."""
    return (text.text or "") + "".join(child.tail or "" for child in text)


def texts_in(root, box) -> list[str]:
    x, y, w, h = box
    return [
        content(t)
        for t in root.iter(f"{SVG}text")
        if x <= float(t.get("x")) <= x + w and y <= float(t.get("y")) <= y + h
    ]


def all_text(root) -> str:
    return "\n".join(content(t) for t in root.iter(f"{SVG}text"))


@pytest.fixture(scope="module")
def three():
    env = position(THREE_PLAYERS, num_players=3, to_move="C")
    return env, parse(env.unwrapped.rules.picture(env.unwrapped.state))


def test_every_square_is_a_target_named_like_the_notation(three):
    _, root = three
    boxes = squares(root)
    assert set(boxes) == {field_name(f) for f in range(81)}
    # Row 9 on top, column a on the left, as the text diagram.
    assert boxes["a9"][1] < boxes["a1"][1] and boxes["a1"][0] < boxes["i1"][0]
    assert boxes["e4"][0] == boxes["e9"][0] and boxes["e4"][1] == boxes["a4"][1]
    targets = {e.get("data-target") for e in root.iter() if e.get("data-target")}
    assert targets == set(boxes)


def test_each_tile_shows_its_owners_seat_number_in_its_square(three):
    _, root = three
    boxes = squares(root)
    for name, box in boxes.items():
        numbers = [t for t in texts_in(root, box) if t.isdigit()]
        if name in TILES:
            assert numbers == [str(TILES[name])], name
            assert f"player_{TILES[name]}'s tile" in tip(
                next(r for r in root.iter(f"{SVG}rect") if r.get("data-target") == name)
            )
        else:
            assert numbers == [], name


def test_owned_tiles_are_the_owners_colour_and_neutral_ones_are_not(three):
    _, root = three
    fills = {r.get("data-target"): r.get("fill") for r in root.iter(f"{SVG}rect") if r.get("data-target")}
    for name, fill in fills.items():
        if name in TILES:
            assert fill == SEAT_COLOURS[TILES[name]], name
        else:
            assert fill not in SEAT_COLOURS, name
    assert len({fills["a1"], fills["d1"]}) == 2  # neutral borderlands alternate two shades


def test_each_chevron_stands_on_its_square_points_its_facing_and_names_its_owner(three):
    _, root = three
    boxes = squares(root)
    chevrons = defaultdict(list)
    for p in root.iter(f"{SVG}polygon"):
        if p.get("data-target"):
            chevrons[p.get("data-target")].append(p)
    assert set(chevrons) == set(PIECES)
    for name, (letter, facing) in PIECES.items():
        x, y, w, h = boxes[name]
        cx, cy = x + w / 2, y + h / 2
        owner = PLAYER_LETTERS.index(letter)
        for poly in chevrons[name]:
            pts = np.array([[float(v) for v in pair.split(",")] for pair in poly.get("points").split()])
            assert ((pts >= [x, y]) & (pts <= [x + w, y + h])).all(), name
            # The notch, the vertex nearest the centre, lies behind the piece.
            notch = pts[np.argmin(np.hypot(*(pts - [cx, cy]).T))] - [cx, cy]
            d = COMPASS.index(facing)
            ahead = np.array([DX[d], -DY[d]]) / np.hypot(DX[d], DY[d])  # screen y runs down
            assert np.dot(notch, ahead) < -0.99 * np.hypot(*notch), name
            assert tip(poly) == f"player_{owner}'s chevron ({letter}) on {name} facing {facing}"
        assert letter in texts_in(root, boxes[name]), name
        assert [p.get("fill") for p in chevrons[name] if p.get("fill") != "none"] == [SEAT_COLOURS[owner]]


def test_the_header_names_the_player_to_move_the_scores_and_the_letters(three):
    env, root = three
    text = all_text(root)
    assert "player_2 to move" in text and "final round" not in text
    scores = env.unwrapped.rules.scores(env.unwrapped.state)
    assert scores == [2, 2, 1]
    for p, s in enumerate(scores):
        assert f"player_{p}: {s} tile{'s' if s != 1 else ''}" in text
        assert f"{PLAYER_LETTERS[p]} = player_{p}'s pieces" in text
    assert "last move: none yet" in text


def test_the_final_round_and_the_end_show_in_the_header():
    env = position(THREE_PLAYERS, num_players=3, to_move="C", final_round_turns=1)
    rules = env.unwrapped.rules
    assert "player_2 to move (final round)" in all_text(parse(rules.picture(env.unwrapped.state)))
    play(env, "g2-h2")  # the final round's last turn: 2-2-2 tiles, a three-way tie
    text = all_text(parse(env.unwrapped.picture()))
    assert "game over after 1 turn, tie: player_0, player_1, player_2" in text
    assert "last move: player_2 played g2-h2:E" in text
    cut = position(THREE_PLAYERS, num_players=3, to_move="C", max_turns=1)
    play(cut, "g2-h2")
    assert "turn limit reached after 1 turn, no winner" in all_text(parse(cut.unwrapped.picture()))


def test_the_last_step_is_named_and_its_squares_outlined():
    env = azgames.make("azacru", num_players=2)
    env.reset(seed=0)
    env.step(env.unwrapped.str_to_action("a3-b4:NE"))
    root = parse(env.unwrapped.picture())
    assert "last move: player_0 played a3-b4:NE" in all_text(root)
    boxes = squares(root)
    outlined = [
        tuple(float(r.get(k)) for k in ("x", "y"))
        for r in root.iter(f"{SVG}rect")
        if r.get("data-target") is None and r.get("stroke") == "#cc79a7"
    ]
    inside = sorted(
        n for n, (x, y, w, h) in boxes.items() for ox, oy in outlined if x < ox < x + w and y < oy < y + h
    )
    assert inside == ["a3", "b4"]
    env.step(env.unwrapped.str_to_action("a7-b7"))
    assert "last move: player_1 played a7-b7:E" in all_text(parse(env.unwrapped.picture()))


def test_a_piece_lost_to_a_connection_change_is_told():
    """The connection d5-f5 changes player_1's e5, which takes the piece off the board."""
    env = position(
        THREE_PLAYERS.replace(
            "5 .   .   .   | .   1   .   | .   .   .", "5 .   .   .   | 0A> 1   0   | .   .   ."
        ),
        num_players=3,
    )
    play(env, "d5-f5")
    assert (env.unwrapped.state.piece_field[0, 0] >= 0).sum() == 2
    text = all_text(parse(env.unwrapped.picture()))
    assert "last move: player_0 played d5-f5:E, and the piece left the board" in text


def test_the_picture_draws_a_given_last_step():
    env = position(THREE_PLAYERS, num_players=3, to_move="C")
    rules, state = env.unwrapped.rules, env.unwrapped.state
    last = LastStep("player_1", rules.pass_action, "pass")
    assert "last move: player_1 passed" in all_text(parse(rules.picture(state, last)))


@pytest.mark.parametrize("num_players, seed", [(2, 0), (3, 1), (4, 2)])
def test_action_targets_are_targets_and_select_the_action_up_to_its_facing(num_players, seed):
    env = azgames.make("azacru", num_players=num_players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    u = env.unwrapped
    for _ in range(25):
        if any(env.terminations.values()) or any(env.truncations.values()):
            break
        names = set(squares(parse(u.picture())))
        by_targets = defaultdict(list)
        for a in u.legal_actions():
            targets = u.rules.action_targets(u.state, a)
            move = u.action_to_str(a)
            if move == "pass":
                assert targets == ()
            else:
                assert len(targets) == 2 and set(targets) <= names
                assert move.startswith(f"{targets[0]}-{targets[1]}:")
            by_targets[targets].append(move)
        for targets, moves in by_targets.items():
            # Moves sharing the clicks differ only in the facing after ":".
            assert len({m.split(":")[0] for m in moves}) == 1 and len(set(moves)) == len(moves), moves
        env.step(int(rng.choice(u.legal_actions())))


def test_action_targets_refuse_an_action_with_no_square():
    env = position(THREE_PLAYERS, num_players=3, to_move="A")
    rules, state = env.unwrapped.rules, env.unwrapped.state
    # player_0's slots: 0 on a1 (facing SE), 1 on b2; slot 2 is off the board.
    assert rules.action_targets(state, rules.str_to_action(state, "b2-b3")) == ("b2", "b3")
    with pytest.raises(ValueError, match=r"action 144 \(piece 3 \(off the board\)\) names no square"):
        rules.action_targets(state, 2 * 72)
    with pytest.raises(ValueError, match="a1-off the board:SE"):  # slot 0, one step straight ahead
        rules.action_targets(state, 0)
    assert rules.action_targets(state, rules.pass_action) == ()


def test_the_rgb_image_has_the_svgs_size_and_the_seat_colours_of_owned_tiles(three):
    env, root = three
    drawing = env.unwrapped.rules.picture(env.unwrapped.state)
    image = drawing.rgb()
    assert image.shape == (int(float(root.get("height"))), int(float(root.get("width"))), 3)
    for name, (x, y, w, h) in squares(root).items():
        # The square's lower-right corner: clear of the seat number and the chevron.
        px = image[int(y + h - 6), int(x + w - 6)]
        if name in TILES:
            expected = tuple(int(SEAT_COLOURS[TILES[name]][i : i + 2], 16) for i in (1, 3, 5))
            assert tuple(px) == expected, name
        else:
            assert tuple(px) not in {tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)) for c in SEAT_COLOURS}


def test_the_legend_explains_every_symbol_of_the_text_render():
    rules = azgames.make("azacru", num_players=4).unwrapped.rules
    assert rules.legend() == LEGEND
    for symbol in ["0 1 2 3", "A B C D", r"^ / > \ v , < `", "N NE E SE S SW W NW", "neutral", "|"]:
        assert symbol in LEGEND, symbol
    assert re.search(r"A B C D\s+a piece of player_0, player_1, player_2, player_3", LEGEND)
