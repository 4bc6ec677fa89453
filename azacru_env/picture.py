"""Azacru's picture: the board of game 0 as an :class:`azgames.core.drawing.Drawing`.

Tiles take their owner's seat colour and show the seat number in a corner;
chevrons point where they face and carry their owner's letter (A = player_0),
so colour is never the only cue. Every square is a ``target`` named as the
notation names it (``"e4"``). A header says whose turn it is, the tiles each
player holds and the last move; a legend beside the board says what each mark
means.
"""

from __future__ import annotations

import numpy as np

from azgames.core.drawing import FAINT, INK, PAPER, SEAT_COLOURS, SEAT_INK, Drawing

from . import kernels as K
from .board import COLUMNS, COMPASS, field_name, move_squares, parse_field
from .diagram import PLAYER_LETTERS
from .render import header

CELL = 48
LEFT = 30  # room for the row numbers
TOP = 90  # the header's three lines
BOARD = 9 * CELL
LEGEND_X = LEFT + BOARD + 24
WIDTH = LEGEND_X + 252
HEIGHT = TOP + BOARD + 30
#: Neutral tiles, one shade per borderland in a chequer (the physical board's
#: two shades are cosmetic; the chequer helps to see the borderlands).
NEUTRAL = ("#f3efe4", "#e0d9c6")
#: The legend's words: 12 keeps them 12 px high in the browser with the
#: whole board fitted into a 1280 x 720 window (at 11 they were 11 px).
LEGEND_SIZE = 12
#: The last move's squares: reddish purple, the one Okabe-Ito colour no seat uses.
LAST_MOVE = "#cc79a7"
# A chevron facing north, around the square's centre, in units of CELL: tip,
# right wing, notch, left wing. The letter sits at the centre.
_CHEVRON = np.array([[0.0, -0.37], [0.31, 0.29], [0.0, 0.15], [-0.31, 0.29]])


def square_origin(f: int) -> tuple[float, float]:
    """Top-left corner of field ``f``'s square (row 9 at the top)."""
    return LEFT + (f % 9) * CELL, TOP + (8 - f // 9) * CELL


def chevron_points(cx: float, cy: float, facing: int, scale: float = 1.0) -> np.ndarray:
    """A chevron centred on (cx, cy) pointing at compass ``facing`` (0 = N, clockwise)."""
    t = np.deg2rad(45 * facing)
    c, s = np.cos(t), np.sin(t)
    p = _CHEVRON * CELL * scale
    # Clockwise on screen (y down) is the usual rotation matrix.
    return np.stack([p[:, 0] * c - p[:, 1] * s + cx, p[:, 0] * s + p[:, 1] * c + cy], axis=1)


def _owner_name(p: int) -> str:
    return f"player_{p}"


def _piece(d: Drawing, cx, cy, owner: int, facing: int, target=None, tip=None, scale=1.0) -> None:
    pts = chevron_points(cx, cy, facing, scale)
    # A piece on its square: it takes the square's clicks, but the app's
    # dashed click hint outlines the square alone (a dashed chevron looked odd).
    kw = {"target": target, "tip": tip, "piece": True}
    d.polygon(pts, fill=None, stroke=PAPER, width=4 * scale, **kw)  # halo on its own tile
    d.polygon(pts, fill=SEAT_COLOURS[owner], stroke=INK, width=1.5 * scale, **kw)
    size = 12 * scale
    d.text(cx, cy + 0.36 * size, PLAYER_LETTERS[owner], size=size, fill=SEAT_INK[owner], bold=True, tip=tip)


def _square_tip(name: str, tile: int, piece: str) -> str:
    text = f"{name}: " + ("neutral tile" if tile < 0 else f"{_owner_name(tile)}'s tile ({tile})")
    return f"{text}; {piece}" if piece else text


def _piece_tip(owner: int, name: str, facing: int) -> str:
    return f"{_owner_name(owner)}'s chevron ({PLAYER_LETTERS[owner]}) on {name} facing {COMPASS[facing]}"


def picture(state, rules, last=None) -> Drawing:
    """Game 0 of ``state`` drawn; ``last`` (:class:`azgames.core.game.LastStep`) is
    the step that led to it, named in the header and outlined on the board."""
    title = _title(state, rules)
    d = Drawing(WIDTH, HEIGHT, title=title)
    moved = move_squares(last.move) if last is not None else ()
    _header(d, title, state, rules, last)
    _board(d, state, moved)
    _legend(d, rules.num_players)
    return d


def _title(state, rules) -> str:
    """Whose turn it is, or how the game ended and who won."""
    if state.outcome[0] == K.ONGOING:
        return header(state)
    if state.outcome[0] == K.TRUNCATED:
        return f"{header(state)}, no winner"
    scores = rules.scores(state)
    winners = [a for a, s in zip(rules.agents, scores) if s == max(scores)]
    verdict = f"winner: {winners[0]}" if len(winners) == 1 else f"tie: {', '.join(winners)}"
    return f"{header(state)}, {verdict}"


def _header(d: Drawing, title: str, state, rules, last) -> None:
    scores = rules.scores(state)
    d.text(12, 22, title, size=15, anchor="start", bold=True)
    x = 12
    for p, (agent, score) in enumerate(zip(rules.agents, scores)):
        d.rect(x, 33, 18, 18, fill=SEAT_COLOURS[p], stroke=INK, width=1, tip=f"{agent}'s colour")
        d.text(x + 9, 46.5, str(p), size=12, fill=SEAT_INK[p], bold=True)
        label = f"{agent}: {score} tile{'s' if score != 1 else ''}"
        d.text(x + 24, 47, label, size=13, anchor="start")
        x += 24 + 8 * len(label) + 10
    d.text(12, 74, _last_text(state, rules, last), size=13, anchor="start")


def _last_text(state, rules, last) -> str:
    if last is None:
        return "last move: none yet"
    if last.move == "pass":
        return f"last move: {last.agent} passed (no piece could move)"
    text = f"last move: {last.agent} played {last.move}"
    p, k = rules.agents.index(last.agent), last.action // K.ACTIONS_PER_PIECE
    if state.piece_field[0, p, k] < 0:
        text += ", and the piece left the board"
    return text


def _board(d: Drawing, state, moved: tuple[str, ...]) -> None:
    tiles, occupant = state.tiles[0], state.occupant[0]
    pieces = {}
    for f in range(81):
        o = int(occupant[f])
        if o >= 0:
            owner = o // 4
            pieces[f] = (owner, int(state.piece_facing[0, owner, o % 4]))
    for f in range(81):
        x, y = square_origin(f)
        t, name = int(tiles[f]), field_name(f)
        fill = SEAT_COLOURS[t] if t >= 0 else NEUTRAL[((f % 9) // 3 + (f // 27)) % 2]
        piece = _piece_tip(pieces[f][0], name, pieces[f][1]) if f in pieces else ""
        d.rect(
            x, y, CELL, CELL, fill=fill, stroke=FAINT, width=0.5, target=name, tip=_square_tip(name, t, piece)
        )
    for b in range(4):  # the borders between borderlands, and the board's edge
        at = 3 * b * CELL
        d.line(LEFT + at, TOP, LEFT + at, TOP + BOARD, stroke=INK, width=3)
        d.line(LEFT, TOP + at, LEFT + BOARD, TOP + at, stroke=INK, width=3)
    if moved:
        (x0, y0), (x1, y1) = (square_origin(parse_field(n)) for n in moved)
        for x, y in ((x0, y0), (x1, y1)):
            d.rect(x + 3, y + 3, CELL - 6, CELL - 6, stroke=LAST_MOVE, width=3)
        h = CELL / 2
        d.line(x0 + h, y0 + h, x1 + h, y1 + h, stroke=INK, width=1.5, dash=True)
        tip = f"{moved[0]}: where the last move started"
        d.circle(x0 + h, y0 + h, 4, fill=INK, target=moved[0], tip=tip, piece=True)
    for f, (owner, facing) in pieces.items():
        x, y = square_origin(f)
        name = field_name(f)
        _piece(d, x + CELL / 2, y + CELL / 2, owner, facing, target=name, tip=_piece_tip(owner, name, facing))
    for f in range(81):  # seat numbers last, over any chevron wing
        t = int(tiles[f])
        if t >= 0:
            x, y = square_origin(f)
            d.text(
                x + 3,
                y + 10,
                str(t),
                size=8,
                fill=SEAT_INK[t],
                anchor="start",
                tip=_square_tip(field_name(f), t, ""),
            )
    for i in range(9):
        d.text(LEFT + (i + 0.5) * CELL, TOP + BOARD + 18, COLUMNS[i], size=13)
        d.text(LEFT / 2, TOP + (8 - i + 0.5) * CELL + 5, str(i + 1), size=13)


def _legend(d: Drawing, num_players: int) -> None:
    x, y = LEGEND_X, TOP + 4
    d.text(x, y + 10, "Legend", size=13, anchor="start", bold=True)
    y += 26
    for p in range(num_players):
        d.rect(x, y, 22, 22, fill=SEAT_COLOURS[p], stroke=FAINT, width=0.5)
        d.text(x + 3, y + 9, str(p), size=8, fill=SEAT_INK[p], anchor="start")
        _piece(d, x + 38, y + 11, p, 0, scale=0.5)
        d.text(
            x + 54,
            y + 15,
            f"{PLAYER_LETTERS[p]} = {_owner_name(p)}'s pieces,",
            size=LEGEND_SIZE,
            anchor="start",
        )
        d.text(x + 54, y + 29, f"{p} = {_owner_name(p)}'s tiles", size=LEGEND_SIZE, anchor="start")
        y += 40
    for i, shade in enumerate(NEUTRAL):
        d.rect(x + 11 * i, y, 11, 22, fill=shade, stroke=FAINT, width=0.5)
    d.text(x + 54, y + 15, "neutral tiles", size=LEGEND_SIZE, anchor="start")
    y += 34
    d.line(x, y + 11, x + 22, y + 11, stroke=INK, width=3)
    d.text(x + 54, y + 15, "border of a borderland", size=LEGEND_SIZE, anchor="start")
    y += 34
    _piece(d, x + 11, y + 11, 0, 1, scale=0.5)
    d.text(x + 54, y + 9, "a chevron points the", size=LEGEND_SIZE, anchor="start")
    d.text(x + 54, y + 23, "way it faces (here NE)", size=LEGEND_SIZE, anchor="start")
    y += 40
    d.rect(x, y, 22, 22, stroke=LAST_MOVE, width=3)
    d.text(x + 54, y + 9, "last move's squares; the", size=LEGEND_SIZE, anchor="start")
    d.text(x + 54, y + 23, "dot marks where it began", size=LEGEND_SIZE, anchor="start")
