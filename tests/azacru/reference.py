"""A slow, obvious reference of Azacru's move rules, written from the rule book
(../shared/rules/azacru.txt) and the project's rule choices, independent of
the numba kernels.

A position is ``tiles`` (81 ints, field ``9 * row + column`` with a1 = 0;
-1 neutral, else the owner's player index 0-3) and ``pieces`` (a list of
``(player, field, facing)``, facing 0 = N clockwise to 7 = NW).
"""

from __future__ import annotations

from typing import NamedTuple

NEUTRAL = -1
#: (dx, dy) of each facing, clockwise from north: N NE E SE S SW W NW.
STEPS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]


class Outcome(NamedTuple):
    tiles: tuple[int, ...]  # every field's tile after the move
    removed: bool  # the moving piece is taken off the board


def coords(field: int) -> tuple[int, int]:
    return field % 9, field // 9


def field_at(x: int, y: int) -> int:
    return y * 9 + x


def on_board(x: int, y: int) -> bool:
    return 0 <= x < 9 and 0 <= y < 9


def borderland(x: int, y: int) -> tuple[int, int]:
    """Which of the nine 3 x 3 borderlands holds (x, y)."""
    return x // 3, y // 3


def power_of_movement(tiles, player: int, field: int) -> int:
    """The player's tiles in the borderland where the piece stands (its own
    field included); at least 1."""
    bx, by = borderland(*coords(field))
    count = 0
    for y in range(9):
        for x in range(9):
            if borderland(x, y) == (bx, by) and tiles[field_at(x, y)] == player:
                count += 1
    return max(count, 1)


def legal_outcomes(tiles, pieces, player: int) -> dict[tuple[int, int, int], Outcome]:
    """Every legal ``(from_field, to_field, final_facing)`` of ``player``, with
    the tiles after it and whether the piece leaves the board."""
    occupied = [False] * 81
    for _, f, _ in pieces:
        occupied[f] = True
    result: dict[tuple[int, int, int], Outcome] = {}
    for owner, start, facing in pieces:
        if owner != player:
            continue
        x0, y0 = coords(start)
        power = power_of_movement(tiles, player, start)
        # straight ahead, 45 degrees left, 45 degrees right
        for direction in (facing, (facing + 7) % 8, (facing + 1) % 8):
            dx, dy = STEPS[direction]
            for distance in range(1, power + 1):
                x, y = x0 + distance * dx, y0 + distance * dy
                if not on_board(x, y):
                    break
                dest = field_at(x, y)
                if tiles[dest] != NEUTRAL and tiles[dest] != player:
                    continue  # another player's tile
                if occupied[dest]:
                    continue  # a piece stands there
                between = [field_at(x0 + k * dx, y0 + k * dy) for k in range(1, distance)]
                jumps = any(occupied[f] for f in between)
                connection = distance >= 2 and tiles[start] == player and tiles[dest] == player
                if jumps and not connection:
                    continue  # only a connection jump may jump pieces
                new_tiles = list(tiles)
                removed = False
                if connection and not jumps:  # connection change
                    for f in between:
                        if new_tiles[f] != NEUTRAL and new_tiles[f] != player:
                            removed = True
                        new_tiles[f] = player
                new_tiles[dest] = player
                if borderland(x0, y0) != borderland(x, y):
                    finals = [direction, (direction + 7) % 8, (direction + 1) % 8]
                else:
                    finals = [direction]
                for final in finals:
                    key = (start, dest, final)
                    assert key not in result, key
                    result[key] = Outcome(tuple(new_tiles), removed)
    return result


def pieces_after(pieces, player: int, move: tuple[int, int, int], outcome: Outcome):
    """The set of ``(player, field, facing)`` on the board after ``move``."""
    start, dest, final = move
    after = set()
    for p, f, d in pieces:
        if p == player and f == start:
            if not outcome.removed:
                after.add((p, dest, final))
        else:
            after.add((p, f, d))
    return after


def rewards(tiles, num_players: int) -> list[float]:
    """End-of-game rewards: each player's mean over the other players of the
    sign of (own tiles - their tiles)."""
    counts = [sum(1 for t in tiles if t == p) for p in range(num_players)]
    result = []
    for p in range(num_players):
        signs = []
        for q in range(num_players):
            if q != p:
                signs.append((counts[p] > counts[q]) - (counts[p] < counts[q]))
        result.append(sum(signs) / len(signs))
    return result


def turns_left_after(turns_left: int, passed: bool, num_players: int) -> int:
    """Turns still to play in the final round after an action (-1: not begun;
    0: the game is over). The first pass starts the final round: every other
    player gets one more turn."""
    if turns_left < 0:
        return num_players - 1 if passed else -1
    return turns_left - 1
