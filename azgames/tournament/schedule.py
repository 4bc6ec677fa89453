"""Who sits where: every set of distinct agents, in every seating."""

from __future__ import annotations

import itertools
import math


def seatings(names: list[str], num_players: int) -> list[tuple[str, ...]]:
    """Every ordered choice of ``num_players`` distinct agents: each set of
    agents plays in all its seatings, so no agent gains from a seat."""
    if len(names) < num_players:
        raise ValueError(
            f"a {num_players}-player tournament needs at least {num_players} agents, "
            f"got {len(names)}: {', '.join(names)}"
        )
    if len(set(names)) != len(names):
        raise ValueError(f"agent labels must differ, got {names}")
    return list(itertools.permutations(names, num_players))


def games_per_seating(games_per_set: int, num_players: int) -> int:
    """Games of each seating so that each set of agents plays at least
    ``games_per_set`` games (rounded up to a whole number of rounds of seatings)."""
    return max(1, math.ceil(games_per_set / math.factorial(num_players)))
