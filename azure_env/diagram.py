"""The text map: one token per square, north at the top, shared by the ansi
render, the golden files and test set-ups. Its tokens are listed in
:data:`LEGEND` (what ``--legend`` prints).

A suit tile's owner is read from its home square, where only the owner
ever stands; a piece or coins on its other squares hide its letter there
(open suit tiles, option ``suit_tiles="literal"``).

Row numbers may start each line and a line of column letters may close the
diagram; both are ignored when parsing::

    12  -  -  m  m  -  -
    11  -  -  M  m  -  -
    10  .  .  .  .  .  .
     9  .  .  .  .  5  .
     ...
     2  b  b  a  a  c  c
     1  b  b  a  A  c  c
        a  b  c  d  e  f
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .board import COLUMNS, MAP, VOID, Layout
from .kernels import CARRIED

PIECE_LETTERS = "MABC"
TILE_LETTERS = "mabc"

#: What each symbol of the text render means.
LEGEND = """\
-        no tile here
.        an empty map square
35       coins lying on the square (values 3 and 5)
m a b c  a square of the suit tile of the monster, hunter_0, _1, _2
M A B C  that agent's piece, followed by the coins it carries (A35)
12 / a   row numbers (1 at the south, the hunters' end) and column letters
         (a at the west): squares are named column then row, c4"""


def player_of_letter(letter: str) -> int:
    """0 for the monster's ``M``/``m``, 1-3 for hunters ``A``-``C``."""
    index = PIECE_LETTERS.find(letter.upper())
    if index < 0:
        raise ValueError(f"{letter!r} names no agent (M, A, B or C)")
    return index


def format_map(layout: Layout, pos, slot_owner, coin_value, coin_loc) -> str:
    """The diagram of one game (per-game rows of the state arrays)."""
    w, h, S = layout.width, layout.height, layout.num_squares
    tokens = []
    for s in range(S):
        slot = int(layout.slot[s])
        if slot == MAP:
            tokens.append(".")
        elif slot == VOID or slot_owner[slot] < 0:
            tokens.append("-")
        else:
            tokens.append(TILE_LETTERS[slot_owner[slot]])
    lying = [sorted(int(coin_value[k]) for k in range(len(coin_loc)) if coin_loc[k] == s) for s in range(S)]
    for s in range(S):
        if lying[s]:
            tokens[s] = "".join(map(str, lying[s]))
    for p, s in enumerate(pos):
        carried = sorted(int(coin_value[k]) for k in range(len(coin_loc)) if coin_loc[k] == S + CARRIED + p)
        tokens[int(s)] = PIECE_LETTERS[p] + "".join(map(str, carried))
    width = max(2, max(len(t) for t in tokens))
    lines = []
    for y in range(h - 1, -1, -1):
        row = " ".join(t.rjust(width) for t in tokens[y * w : (y + 1) * w])
        lines.append(f"{y + 1:>2} {row}")
    lines.append("   " + " ".join(c.rjust(width) for c in COLUMNS[:w]))
    return "\n".join(lines)


def to_diagram(state, layout: Layout, i: int = 0) -> str:
    """The diagram of game ``i`` of a state batch."""
    return format_map(layout, state.pos[i], state.slot_owner[i], state.coin_value[i], state.coin_loc[i])


@dataclass
class ParsedMap:
    """What a diagram says: pieces, suit tile owners, coins on squares and carried."""

    pos: dict[int, int] = field(default_factory=dict)  # player -> square
    slot_owner: np.ndarray | None = None  # per slot: owner or -1
    lying: list[tuple[int, int]] = field(default_factory=list)  # (value, square)
    carried: list[tuple[int, int]] = field(default_factory=list)  # (value, player)


def parse_map(text: str, layout: Layout) -> ParsedMap:
    """Read a diagram drawn on ``layout``; ValueError naming the square at fault.

    A suit tile's owner is read from its home square (the owner's tile letter
    or piece; ``-`` if the tile is unused): only its owner ever stands there.
    Its other squares may show a visiting piece (open suit tiles, option
    ``suit_tiles="literal"``) or coins a visitor dropped (digits alone)."""
    w, h = layout.width, layout.height
    rows = []
    for line in text.strip("\n").splitlines():
        tokens = line.split()
        if not tokens or tokens == list(COLUMNS[:w]):
            continue
        if len(tokens) == w + 1 and tokens[0].isdigit():
            tokens = tokens[1:]
        if len(tokens) != w:
            raise ValueError(f"diagram row {line.strip()!r} has {len(tokens)} squares; the map is {w} wide")
        rows.append(tokens)
    if len(rows) != h:
        raise ValueError(f"diagram has {len(rows)} rows; the map {layout.name!r} has {h}")
    grid = {}
    for r, tokens in enumerate(rows):
        for x, token in enumerate(tokens):
            grid[(h - 1 - r) * w + x] = token
    slot_owner = np.full(4, -1, np.int64)
    out = ParsedMap(slot_owner=slot_owner)
    for k in range(4):  # who owns each suit tile: its home square says
        home = int(layout.home[k])
        if home < 0:
            continue
        head = grid[home][0]
        if head in TILE_LETTERS or head in PIECE_LETTERS:
            slot_owner[k] = player_of_letter(head)
        elif head != "-":
            raise ValueError(
                f"{layout.name_of(home)} is the home square of suit tile {k}: write its "
                f"owner's letter (m a b c, or its piece M A B C), or '-' if the tile is "
                f"unused; got {grid[home]!r}"
            )
    for s in range(w * h):
        token = grid[s]
        name = layout.name_of(s)
        slot = int(layout.slot[s])
        head, coins = token[0], token[1:]
        if head.isdigit():
            head, coins = ".", token
        if not coins.isdigit() and coins:
            raise ValueError(f"{name}: bad token {token!r}")
        values = [int(c) for c in coins]
        if any(v > 5 for v in values):
            raise ValueError(f"{name}: coin values are 0-5, got {token!r}")
        owner = int(slot_owner[slot]) if slot >= 0 else -1
        if head == "-":
            if slot == MAP:
                raise ValueError(f"{name} is a map square; write '.' for it")
            if owner >= 0:
                raise ValueError(
                    f"{name} is on suit tile {slot}, in use by {PIECE_LETTERS[owner]} (its "
                    f"home square says so); write {TILE_LETTERS[owner]!r} for it"
                )
            continue
        if slot == VOID:
            raise ValueError(f"{name}: there is no tile there; write '-' for it, not {token!r}")
        if slot >= 0 and owner < 0:
            raise ValueError(
                f"{name}: token {token!r} on suit tile {slot}, which is unused (its home "
                f"square {layout.name_of(int(layout.home[slot]))} shows '-')"
            )
        if head == ".":
            if slot >= 0 and (not values or s == layout.home[slot]):
                raise ValueError(
                    f"{name} is a square of suit tile {slot}; write {TILE_LETTERS[owner]!r} "
                    f"for it (or the coins a visitor dropped there, off the home square)"
                )
            out.lying += [(v, s) for v in values]
            continue
        if head in TILE_LETTERS:
            if slot < 0:
                raise ValueError(f"{name} is a map square, not a suit tile; {token!r} does not fit")
            if values:
                raise ValueError(
                    f"{name}: write coins lying on a suit tile square as digits alone, not {token!r}"
                )
            if player_of_letter(head) != owner:
                raise ValueError(
                    f"{name}: suit tile {slot} is marked for two agents "
                    f"({TILE_LETTERS[owner]!r} on its home square)"
                )
            continue
        if head in PIECE_LETTERS:
            p = player_of_letter(head)
            if p in out.pos:
                raise ValueError(f"{name}: piece {head} appears twice")
            out.pos[p] = s
            out.carried += [(v, p) for v in values]
            continue
        raise ValueError(f"{name}: token {token!r} does not fit a square of kind {slot}")
    return out
