"""Compact text diagrams of Azacru positions: the ansi render and the way
tests and notebooks set up positions. :data:`LEGEND` says what each symbol
means."""

from __future__ import annotations

import numpy as np

from .board import COLUMNS

#: Facing glyphs, clockwise from north (N NE E SE S SW W NW).
GLYPHS = "^/>\\v,<`"
#: Piece letters by seat: A = player_0's pieces, B = player_1's, ...
PLAYER_LETTERS = "ABCD"

#: What every symbol of a diagram means (``rules.legend()``, ``--legend``).
LEGEND = r"""Azacru diagram: one line per row, row 9 (north) at the top, columns a-i
west to east; the | and - lines are the borders between the nine 3 x 3
borderlands. Each field is one token: its tile, then its piece if any.

  tile    .        neutral
          0 1 2 3  the tile of player_0, player_1, player_2, player_3
  piece   A B C D  a piece of player_0, player_1, player_2, player_3
  facing  ^ / > \ v , < `   N NE E SE S SW W NW (clockwise from north)

  .       neutral tile, no piece
  1       player_1's tile
  0A^     player_0's tile with a piece of player_0 facing north
  .B/     a neutral tile with a piece of player_1 facing north-east"""


def field_token(tile: int, piece_owner: int, facing: int) -> str:
    text = "." if tile < 0 else str(tile)
    if piece_owner >= 0:
        text += PLAYER_LETTERS[piece_owner] + GLYPHS[facing]
    return text


def to_diagram(state, i: int = 0) -> str:
    """The board of game ``i`` as a diagram (see :data:`LEGEND`)."""
    lines = []
    for y in range(8, -1, -1):
        cells = []
        for x in range(9):
            f = y * 9 + x
            o = int(state.occupant[i, f])
            owner = o // 4 if o >= 0 else -1
            facing = int(state.piece_facing[i, owner, o % 4]) if o >= 0 else 0
            cells.append(f"{field_token(int(state.tiles[i, f]), owner, facing):<3}")
        row = " ".join(cells[0:3]) + " | " + " ".join(cells[3:6]) + " | " + " ".join(cells[6:9])
        lines.append(f"{y + 1} {row.rstrip()}")
        if y in (6, 3):
            lines.append("  " + "-" * 11 + "+" + "-" * 13 + "+" + "-" * 12)
    lines.append(
        "  "
        + "   ".join(COLUMNS[0:3])
        + "     "
        + "   ".join(COLUMNS[3:6])
        + "     "
        + "   ".join(COLUMNS[6:9])
    )
    return "\n".join(lines)


def parse_diagram(text: str, num_players: int, pieces: int):
    """``(tiles, occupant, piece_field, piece_facing)`` of one game from a diagram.

    Pieces take slots in reading order of the fields a1, b1, ... i9; a player's
    slots beyond the pieces shown are off the board.
    """
    rows = [ln for ln in text.strip("\n").splitlines() if ln.strip() and ln.strip()[0].isdigit()]
    if len(rows) != 9:
        raise ValueError(f"a diagram needs 9 rows numbered 9 to 1, found {len(rows)}")
    tiles = np.full(81, -1, np.int8)
    occupant = np.full(81, -1, np.int8)
    piece_field = np.full((num_players, pieces), -1, np.int8)
    piece_facing = np.zeros((num_players, pieces), np.int8)
    placed: dict[int, list[tuple[int, int]]] = {p: [] for p in range(num_players)}
    for line in rows:
        label, *tokens = line.replace("|", " ").split()
        y = int(label) - 1
        if len(tokens) != 9:
            raise ValueError(f"row {label} has {len(tokens)} fields, expected 9: {line!r}")
        for x, tok in enumerate(tokens):
            f = y * 9 + x
            if tok[0] != ".":
                if not tok[0].isdigit() or not 0 <= int(tok[0]) < num_players:
                    raise ValueError(
                        f"field {COLUMNS[x]}{y + 1}: bad tile {tok[0]!r} in {tok!r}; "
                        f"tiles are . or a seat number 0-{num_players - 1}"
                    )
                tiles[f] = int(tok[0])
            if len(tok) == 1:
                continue
            if len(tok) != 3 or tok[1] not in PLAYER_LETTERS[:num_players] or tok[2] not in GLYPHS:
                raise ValueError(f"field {COLUMNS[x]}{y + 1}: bad piece {tok[1:]!r} in {tok!r}")
            placed[PLAYER_LETTERS.index(tok[1])].append((f, GLYPHS.index(tok[2])))
    for p, items in placed.items():
        if len(items) > pieces:
            raise ValueError(
                f"player_{p} ({PLAYER_LETTERS[p]}) has {len(items)} pieces; at most {pieces} in this game"
            )
        for k, (f, facing) in enumerate(sorted(items)):
            piece_field[p, k] = f
            piece_facing[p, k] = facing
            occupant[f] = p * 4 + k
    return tiles, occupant, piece_field, piece_facing
