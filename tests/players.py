"""Player counts for the tests that run against every game: a table of
(game, players) keeps only the counts a game is for (Connect Four is for 2)."""

from __future__ import annotations

from azgames.core.registry import list_games, rules_type


def counts(game: str, wanted) -> list[int]:
    """The counts of ``wanted`` that ``game`` is played with."""
    info = rules_type(game).info
    return [n for n in wanted if info.min_players <= n <= info.max_players]


def table(wanted) -> list[tuple[str, int]]:
    """(game, players) for every registered game and every count of ``wanted`` it takes."""
    return [(e.name, n) for e in list_games() for n in counts(e.name, wanted)]


def most(game: str, n: int) -> int:
    """``n`` players, or as many as ``game`` takes if fewer."""
    return min(n, rules_type(game).info.max_players)
