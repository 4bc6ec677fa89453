"""Azure Attack's picture: game 0 of a state drawn as an
:class:`azgames.core.drawing.Drawing`.

The map sits on the left with its row numbers and column letters; every
square of a tile in play is a ``target`` named as the notation names it
(``c4``), and so are the coins and pieces drawn on it, so that a click
anywhere on a square selects it. Above the map a header says whose turn it
is and how many squares are left (or how the game ended), the banked gold
of each side, and what the last step did; on the right a table gives each
agent's piece, banked gold and carried coins, and a legend explains every
symbol. Every coin shows its value, every piece its letter (M, A, B, C as
in the text render) besides its seat colour, so no colour is the only cue.

The canvas's size depends on the map alone, so every frame of a game has
the same size.
"""

from __future__ import annotations

import math

from azgames.core.drawing import FAINT, INK, PAPER, SEAT_COLOURS, SEAT_INK, Drawing
from azgames.core.words import count

from . import kernels as K
from .board import MAP, VOID
from .diagram import PIECE_LETTERS, TILE_LETTERS
from .render import banked_line, fight_line, headline

CELL = 56  # drawing units per square
GAP = 0.5  # squares are drawn this much inside their cell: the paper between them is the grid
MARGIN = 12
LABELS = 22  # room for the row numbers left of the map and the column letters below it
HEADER_SIZE, TEXT_SIZE, SMALL_SIZE = 13.0, 12.0, 11.0
LINE = 17  # header line height
HEADER_LINES = 6  # turn, banked, result, last step, fight, capture: fixed, so frames keep one size
PANEL_W = 270
PANEL_ROW = 34  # a player's two lines in the side table
LEGEND_ROW = 24
# The header's longest line (four agents' banked gold, two digits each: a
# piecepack's coins are worth 60 in all) fits at any map width.
MIN_WIDTH = 640

TILE_SHADES = ("#e4ebf2", "#cbd7e3")  # map tiles alternate, so tile edges show
VOID_FILL = "#f2f2f2"
COIN_FILLS = ("#c8c8c8", "#fbe9a6", "#f8dc79", "#f4cf4d", "#efc02a", "#e6b000")  # by value 0-5
COIN_RIM = "#7a5c00"
TRAIL = "#333333"


def _tint(colour: str, amount: float) -> str:
    """``colour`` mixed with white: ``amount`` of the colour."""
    rgb = [int(colour[k : k + 2], 16) for k in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - c) * amount):02x}" for c in rgb)


def _size(rules) -> tuple[float, float, float, float]:
    """Canvas width and height, and the map's top-left corner."""
    layout = rules.layout
    x0 = MARGIN + LABELS
    y0 = MARGIN + HEADER_LINES * LINE + 10
    map_w, map_h = layout.width * CELL, layout.height * CELL
    width = max(x0 + map_w + 24 + PANEL_W + MARGIN, MIN_WIDTH)
    panel_h = 2 * LINE + rules.info.max_players * PANEL_ROW + LINE + len(LEGEND_ENTRIES) * LEGEND_ROW
    height = y0 + max(map_h + LABELS, panel_h) + MARGIN
    return width, height, x0, y0


def _corner(layout, x0, y0, square: int) -> tuple[float, float]:
    """Top-left corner of a square (north is up)."""
    w, h = layout.width, layout.height
    return x0 + (square % w) * CELL, y0 + (h - 1 - square // w) * CELL


def _value_list(values: list[int]) -> str:
    return " ".join(map(str, values)) if values else "none"


# ---------------------------------------------------------------- symbols
def _coin(d: Drawing, cx, cy, r, value: int, *, target=None, tip=None) -> None:
    d.circle(cx, cy, r, fill=COIN_FILLS[value], stroke=COIN_RIM, width=1.0, target=target, tip=tip)
    d.text(cx, cy + 0.36 * r * 1.25, str(value), size=1.25 * r, bold=True, tip=tip)


def _piece(d: Drawing, cx, cy, r, p: int, *, target=None, tip=None) -> None:
    """The monster as a diamond, a hunter as a disc; its letter on it."""
    if p == K.MONSTER:
        s = 1.2 * r
        d.polygon(
            ((cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)),
            fill=SEAT_COLOURS[p],
            stroke=INK,
            width=1.5,
            target=target,
            tip=tip,
        )
    else:
        d.circle(cx, cy, r, fill=SEAT_COLOURS[p], stroke=INK, width=1.5, target=target, tip=tip)
    d.text(cx, cy + 0.4 * r, PIECE_LETTERS[p], size=1.05 * r, fill=SEAT_INK[p], bold=True, tip=tip)


def _house(d: Drawing, x, y, colour: str, tip=None, target=None) -> None:
    """A home-square mark whose top-left corner is (x, y), 10 units wide."""
    d.polygon(
        ((x + 5, y), (x + 10, y + 4), (x + 10, y + 10), (x, y + 10), (x, y + 4)),
        fill=colour,
        stroke=INK,
        width=1.0,
        target=target,
        tip=tip,
    )


def _hatch(d: Drawing, x, y, size, tip=None) -> None:
    """A square of no tile: grey, struck through (neighbours' strokes join into stripes)."""
    d.rect(x, y, size, size, fill=VOID_FILL, tip=tip)
    d.line(x, y + size, x + size, y, stroke="#c8c8c8", width=1.5)


#: The picture's legend, in order: what each symbol drawn by :func:`_legend_symbol` means.
LEGEND_ENTRIES = (
    "coin, with its value (0-5)",
    "hunter: A B C = hunter_0 _1 _2",
    "the monster M",
    "gold a piece carries, below it",
    "ring: the piece to move",
    "squares visited this turn",
    "suit tile: m a b c = M's, A's, ..",
    "its owner's home square",
    "map square",
    "no tile there",
)


def _legend_symbol(d: Drawing, k: int, x, y) -> None:
    """The symbol of legend entry ``k`` in the 20-unit box at (x, y)."""
    hunter_tile = _tint(SEAT_COLOURS[1], 0.35)
    if k == 0:
        _coin(d, x + 10, y + 10, 9, 3)
    elif k == 1:
        _piece(d, x + 10, y + 10, 9, 1)
    elif k == 2:
        _piece(d, x + 10, y + 10, 8, K.MONSTER)
    elif k == 3:
        _piece(d, x + 6, y + 8, 6, 1)
        _coin(d, x + 15, y + 15, 5, 5)
    elif k == 4:
        d.circle(x + 10, y + 10, 8, stroke=INK, width=3.0)
    elif k == 5:
        d.line(x, y + 10, x + 20, y + 10, stroke=TRAIL, width=2.5, dash=True)
        d.circle(x + 3, y + 10, 3, fill=TRAIL)
    elif k == 6:
        d.rect(x, y, 20, 20, fill=hunter_tile, stroke=FAINT)
        d.text(x + 5, y + 9, "a", size=9)
    elif k == 7:
        _house(d, x + 5, y + 5, hunter_tile)
    elif k == 8:
        d.rect(x, y, 20, 20, fill=TILE_SHADES[0], stroke=FAINT)
    else:
        _hatch(d, x, y, 20)


# ---------------------------------------------------------------- the picture
def picture(state, rules, last=None) -> Drawing:
    """Game 0 of ``state`` drawn; ``last`` (an :class:`azgames.core.game.LastStep`)
    is the step that led there, named in the header with what it caused."""
    layout, S = rules.layout, rules.S
    width, height, x0, y0 = _size(rules)
    d = Drawing(width, height, title=headline(state, rules))
    coins = _coins(state, rules)
    _header(d, state, rules, last)
    _squares(d, state, rules, x0, y0)
    _trail(d, state, rules, x0, y0)
    for s in range(S):
        if coins["lying"][s]:
            _lying(d, layout, x0, y0, s, coins["lying"][s])
    for p in range(rules.num_players):
        _piece_on_map(d, state, rules, x0, y0, p, coins["carried"][p], coins["banked"][p])
    _labels(d, layout, x0, y0)
    _panel(d, state, rules, x0 + layout.width * CELL + 24, y0, coins)
    return d


def _coins(state, rules) -> dict[str, list[list[int]]]:
    """Coin values by where they are: lying per square, carried and banked per player."""
    S = rules.S
    out: dict[str, list[list[int]]] = {
        "lying": [[] for _ in range(S)],
        "carried": [[] for _ in range(rules.num_players)],
        "banked": [[] for _ in range(rules.num_players)],
    }
    for value, loc in zip(state.coin_value[0].tolist(), state.coin_loc[0].tolist()):
        if loc < S:
            out["lying"][loc].append(value)
        elif loc < S + K.BANKED:
            out["carried"][loc - S - K.CARRIED].append(value)
        elif loc < S + K.OUT:
            out["banked"][loc - S - K.BANKED].append(value)
    return out


def _header(d: Drawing, state, rules, last) -> None:
    """Six lines in fixed places, blank where there is nothing to say."""
    lines = [
        (headline(state, rules), HEADER_SIZE, True),
        (banked_line(state, rules), TEXT_SIZE, False),
        (_result(state, rules), TEXT_SIZE, True),
        (_last_line(state, rules, last), TEXT_SIZE, False),
        (fight_line(state, rules), TEXT_SIZE, False),
        (_capture(state, rules), TEXT_SIZE, False),
    ]
    for k, (text, size, bold) in enumerate(lines):
        if text:
            d.text(MARGIN, MARGIN + (k + 1) * LINE - 4, text, size=size, anchor="start", bold=bold)


def _result(state, rules) -> str:
    """Who won, once the game is over ("" while it goes on)."""
    if state.outcome[0] == K.ONGOING:
        return ""
    banked = rules.banked(state)
    hunters, monster = sum(banked[1:]), banked[0]
    if hunters == monster:
        verdict = f"a draw, {hunters} to {monster}"
    elif hunters > monster:
        verdict = f"the hunters win, {hunters} to {monster}"
    else:
        verdict = f"the monster wins, {monster} to {hunters}"
    return f"result after {count(int(state.turns[0]), 'turn')}: {verdict}"


def _last_line(state, rules, last) -> str:
    """Who played what last, and where its piece now stands."""
    if last is None:
        return ""
    p = rules.agents.index(last.agent)
    where = rules.layout.name_of(int(state.pos[0, p]))
    if state.fight[0, 0] >= 0:
        caused = f"it attacked {rules.agents[int(state.fight[0, 1])]}"
    elif last.move == "stop":
        caused = f"its turn ended on {where}"
    else:
        caused = f"it went to {where}"
    return f"last step: {last.agent} played {last.move}: {caused}{_gold_moved(state, rules, last, p)}"


def _gold_moved(state, rules, last, p: int) -> str:
    """The coins the step picked up or banked, told by comparing with the
    position before it (when the LastStep keeps it)."""
    if last.before is None:
        return ""
    before, after, values = last.before.coin_loc[0], state.coin_loc[0], state.coin_value[0]
    carried, banked = rules.S + K.CARRIED + p, rules.S + K.BANKED + p
    picked = values[(after == carried) & (before < rules.S)]
    stored = values[(after == banked) & (before != banked)]
    parts = [
        f"{verb} {' + '.join(str(int(v)) for v in sorted(coins))}"
        for verb, coins in (("picked up", picked), ("banked", stored))
        if len(coins)
    ]
    return "; " + " and ".join(parts) if parts else ""


def _capture(state, rules) -> str:
    """Who the last step's fight sent home, and the monster's extra turn."""
    f = state.fight[0]
    if f[0] < 0:
        return ""
    attacker, defender, result = int(f[0]), int(f[1]), int(f[4])
    losers = {K.ATTACKER_WINS: [defender], K.DEFENDER_WINS: [attacker], K.BOTH_HOME: [attacker, defender]}[
        result
    ]
    sent = " and ".join(f"{rules.agents[q]} to {rules.layout.name_of(int(state.home[0, q]))}" for q in losers)
    text = f"sent home, dropping any gold carried: {sent}"
    if attacker == K.MONSTER and result == K.ATTACKER_WINS:
        text += "; the monster moves again"
    return text


def _squares(d: Drawing, state, rules, x0, y0) -> None:
    """Tiles in play as targets: map squares in two shades by tile, suit
    tiles tinted with their owner's colour and lettered, homes marked."""
    layout = rules.layout
    owner = state.slot_owner[0]
    homes = {int(layout.home[k]) for k in range(4) if layout.home[k] >= 0 and owner[k] >= 0}
    for s in range(rules.S):
        x, y = _corner(layout, x0, y0, s)
        name = layout.name_of(s)
        slot = int(layout.slot[s])
        if slot == VOID or (slot >= 0 and owner[slot] < 0):
            _hatch(d, x, y, CELL, tip=f"{name}: no tile")
            continue
        if slot == MAP:
            tx, ty = s % layout.width // 2, s // layout.width // 2
            d.rect(
                x + GAP,
                y + GAP,
                CELL - 2 * GAP,
                CELL - 2 * GAP,
                fill=TILE_SHADES[(tx + ty) % 2],
                target=name,
                tip=f"{name}: map square",
            )
            continue
        q = int(owner[slot])
        tip = f"{name}: suit tile of {rules.agents[q]}" + (", its home square" if s in homes else "")
        d.rect(
            x + GAP,
            y + GAP,
            CELL - 2 * GAP,
            CELL - 2 * GAP,
            fill=_tint(SEAT_COLOURS[q], 0.35),
            target=name,
            tip=tip,
        )
        d.text(x + 6, y + 12, TILE_LETTERS[q], size=SMALL_SIZE, fill=INK, tip=tip)
        if s in homes:
            _house(d, x + CELL - 14, y + 4, _tint(SEAT_COLOURS[q], 0.6), tip=tip, target=name)
    # Tile edges, over the gaps between squares.
    for squares in list(layout.tile_squares) + [
        sq for k, sq in enumerate(layout.slot_squares) if sq[0] >= 0 and owner[k] >= 0
    ]:
        x, y = _corner(layout, x0, y0, int(max(squares)))  # the north-east square: top right
        d.rect(x - CELL, y, 2 * CELL, 2 * CELL, stroke=INK, width=1.5)


def _trail(d: Drawing, state, rules, x0, y0) -> None:
    """The squares the piece to move has visited this turn, joined in order."""
    if state.outcome[0] != K.ONGOING:
        return
    centres = []
    for s in state.trail[0, : int(state.steps[0]) + 1].tolist():
        x, y = _corner(rules.layout, x0, y0, s)
        centres.append((x + CELL / 2, y + CELL / 2))
    for (xa, ya), (xb, yb) in zip(centres, centres[1:]):
        d.line(xa, ya, xb, yb, stroke=TRAIL, width=2.5, dash=True)
    for cx, cy in centres[:-1]:
        d.circle(cx, cy, 4, fill=TRAIL, tip="visited this turn")


def _lying(d: Drawing, layout, x0, y0, s: int, values: list[int]) -> None:
    """The coins on a square, in a grid, each with its value."""
    x, y = _corner(layout, x0, y0, s)
    name = layout.name_of(s)
    k = math.ceil(math.sqrt(len(values)))
    pitch = CELL / k
    tip = f"{name}: coin(s) worth {_value_list(sorted(values))}"
    for j, value in enumerate(sorted(values)):
        cx, cy = x + (j % k + 0.5) * pitch, y + (j // k + 0.5) * pitch
        _coin(d, cx, cy, 0.4 * pitch, value, target=name, tip=tip)


def _piece_on_map(d: Drawing, state, rules, x0, y0, p: int, carried: list[int], banked: list[int]) -> None:
    """A piece on its square, ringed if it moves, its carried coins below it."""
    layout = rules.layout
    s = int(state.pos[0, p])
    x, y = _corner(layout, x0, y0, s)
    name = layout.name_of(s)
    cx, cy = x + CELL / 2, y + 21
    tip = (
        f"{name}: {rules.agents[p]} ({PIECE_LETTERS[p]}), carrying {_value_list(sorted(carried))}, "
        f"banked {sum(banked)}"
    )
    if state.outcome[0] == K.ONGOING and p == int(state.player[0]):
        d.circle(cx, cy, 19, fill=PAPER, stroke=INK, width=3.0, target=name, tip=f"{tip}; to move")
    _piece(d, cx, cy, 14, p, target=name, tip=tip)
    if carried:
        pitch = min(19.0, (CELL - 4) / len(carried))
        left = cx - pitch * (len(carried) - 1) / 2
        for j, value in enumerate(sorted(carried)):
            _coin(
                d,
                left + j * pitch,
                y + CELL - 10,
                min(9.0, 0.48 * pitch),
                value,
                target=name,
                tip=f"{tip}; carried",
            )


def _labels(d: Drawing, layout, x0, y0) -> None:
    for r in range(layout.height):
        d.text(
            x0 - 6,
            y0 + (layout.height - 1 - r) * CELL + CELL / 2 + 4,
            str(r + 1),
            size=TEXT_SIZE,
            fill=FAINT,
            anchor="end",
        )
    for c in range(layout.width):
        d.text(
            x0 + (c + 0.5) * CELL,
            y0 + layout.height * CELL + 16,
            layout.name_of(c)[0],
            size=TEXT_SIZE,
            fill=FAINT,
        )


def _panel(d: Drawing, state, rules, x, y, coins) -> None:
    """Each agent's piece, banked gold and carried coins, then the legend."""
    d.text(x, y + 12, "agents", size=TEXT_SIZE, anchor="start", bold=True)
    y += LINE + 4
    for p, agent in enumerate(rules.agents):
        carried, banked = coins["carried"][p], coins["banked"][p]
        _piece(d, x + 10, y + 10, 9, p)
        d.text(
            x + 26,
            y + 9,
            f"{agent} ({PIECE_LETTERS[p]}): banked {sum(banked)}",
            size=SMALL_SIZE,
            anchor="start",
            tip=f"banked coins: {_value_list(sorted(banked))}",
        )
        shown = _value_list(sorted(carried)) if len(carried) <= 8 else f"{len(carried)} coins"
        d.text(
            x + 26,
            y + 24,
            f"carrying {shown} (worth {sum(carried)})",
            size=SMALL_SIZE,
            fill=FAINT if not carried else INK,
            anchor="start",
        )
        y += PANEL_ROW
    y += (rules.info.max_players - rules.num_players) * PANEL_ROW  # the legend stays put whatever the players
    d.text(x, y + 12, "legend", size=TEXT_SIZE, anchor="start", bold=True)
    y += LINE + 2
    for k, meaning in enumerate(LEGEND_ENTRIES):
        _legend_symbol(d, k, x, y)
        d.text(x + 28, y + 14, meaning, size=SMALL_SIZE, anchor="start")
        y += LEGEND_ROW
