"""Words for the texts the games and front ends show."""

from __future__ import annotations


def count(n: int, noun: str) -> str:
    """``1 turn``, ``2 turns``: ``n`` and ``noun``, plural unless ``n`` is 1."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
