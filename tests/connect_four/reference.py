"""Connect Four in plain Python, written from the rules alone (no kernel
code): the slow reference the kernels are checked against."""

from __future__ import annotations

ROWS, COLUMNS = 6, 7


class Reference:
    def __init__(self) -> None:
        self.columns: list[list[int]] = [[] for _ in range(COLUMNS)]  # bottom first
        self.player, self.winner, self.over = 0, None, False

    def legal(self) -> list[int]:
        return [] if self.over else [c for c in range(COLUMNS) if len(self.columns[c]) < ROWS]

    def at(self, row: int, column: int) -> int | None:
        if 0 <= column < COLUMNS and 0 <= row < len(self.columns[column]):
            return self.columns[column][row]
        return None

    def play(self, column: int) -> None:
        assert column in self.legal()
        self.columns[column].append(self.player)
        row = len(self.columns[column]) - 1
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            line = 1
            for sign in (1, -1):
                k = 1
                while self.at(row + sign * k * dr, column + sign * k * dc) == self.player:
                    line, k = line + 1, k + 1
            if line >= 4:
                self.winner, self.over = self.player, True
                return
        if sum(map(len, self.columns)) == ROWS * COLUMNS:
            self.over = True
            return
        self.player = 1 - self.player

    def planes(self, viewer: int) -> list[list[list[int]]]:
        """The viewer's stones, then the other's; the top row first."""
        return [
            [[int(self.at(r, c) == who) for c in range(COLUMNS)] for r in reversed(range(ROWS))]
            for who in (viewer, 1 - viewer)
        ]
