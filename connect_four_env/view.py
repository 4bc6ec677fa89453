"""Connect Four as people read it: columns ``a``-``g`` (action 0 is ``a``,
the leftmost), a text board and a picture whose columns are the click targets."""

from __future__ import annotations

from azgames.core.drawing import INK, PAPER, SEAT_COLOURS, Drawing

NAMES = "abcdefg"
STONES = {-1: ".", 0: "X", 1: "O"}
LEGEND = (
    "Connect Four's text render: the board as it stands, row 6 at the top, columns a-g;\n"
    "X a stone of player_0 (who moves first), O of player_1, . an empty cell.\n"
    "A move names the column its stone drops into: d is the middle one."
)
CELL, TOP, LEFT = 56, 64, 20


def column_name(action: int) -> str:
    return NAMES[action]


def parse_column(text: str) -> int:
    name = text.strip().casefold()
    if len(name) != 1 or name not in NAMES:
        raise ValueError(f"{text!r} is not a column: give one of a-g (a the leftmost)")
    return NAMES.index(name)


def _status(state) -> str:
    p, ply = int(state.player[0]), int(state.ply[0])
    if state.outcome[0] != 0:
        return f"Connect Four, game over after {ply} stones"
    return f"Connect Four, stone {ply + 1}: player_{p} ({STONES[p]}) to move"


def render(state) -> str:
    board = state.board[0]
    rows = [
        f"{r + 1}  " + " ".join(STONES[int(v)] for v in board[r]) for r in range(board.shape[0] - 1, -1, -1)
    ]
    return "\n".join([_status(state), *rows, "   " + " ".join(NAMES)])


def picture(state, last=None) -> Drawing:
    """The board with its stones; each column is the target of the move into it."""
    board = state.board[0]
    rows, columns = board.shape
    d = Drawing(2 * LEFT + columns * CELL, TOP + rows * CELL + 30, title="Connect Four")
    d.text(LEFT, 24, _status(state), size=14, anchor="start")
    if last is not None:
        d.text(LEFT, 46, f"last: {last.agent} played {last.move}", size=12, anchor="start")
    d.rect(LEFT, TOP, columns * CELL, rows * CELL, fill="#2f5d9e", round=8)
    for c in range(columns):
        d.text(LEFT + c * CELL + CELL / 2, TOP + rows * CELL + 20, NAMES[c], size=14, fill=INK)
        for r in range(rows):
            stone = int(board[r, c])
            fill = PAPER if stone < 0 else SEAT_COLOURS[stone]
            cx, cy = LEFT + c * CELL + CELL / 2, TOP + (rows - 1 - r) * CELL + CELL / 2
            # Every cell of a column is the column's target: a click anywhere in it drops there.
            d.circle(cx, cy, CELL * 0.4, fill=fill, stroke=INK, target=NAMES[c], tip=f"drop in {NAMES[c]}")
            if stone >= 0:  # the letter too: colour is never the only cue
                d.text(cx, cy + 5, STONES[stone], size=14, fill=INK, bold=True)
    return d
