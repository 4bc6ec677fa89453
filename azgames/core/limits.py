"""Every bound on work and input that comes from outside, as data in one place.

A front end picks a :class:`Limits` and applies it before any work starts:
the command line (``play``, ``replay``, ``tournament``, ``train``, the
terminal player) runs for the person at the keyboard, who may ask for long
searches; the browser app (``serve``) answers pages, so its budgets are
smaller and every search it runs has a deadline.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    #: A search's simulations a move.
    simulations: int
    #: A search's seconds a move; with ``deadline`` also the cap of a search
    #: given only simulations.
    seconds: float
    #: Threads one search may use.
    threads: int
    #: Whether every search stops after ``seconds`` whatever its budget.
    deadline: bool
    #: Plies of a game record (a game never needs more: the longest default
    #: turn limit, Azure Attack's 300 turns, is under 10,000 plies).
    record_plies: int
    #: Bytes of a file read for its text (a record, a map).
    file_bytes: int
    #: Bytes of one message of a client.
    message_bytes: int
    #: Nesting of JSON objects and lists (a record nests 4 deep).
    json_depth: int
    #: An exploration constant's upper bound (UCT's c; 1 by default).
    exploration: float


#: At the keyboard: generous, but a typo (``simulations=10**20``) is refused.
LOCAL = Limits(
    simulations=10_000_000,
    seconds=24 * 3600.0,
    threads=64,
    deadline=False,
    record_plies=100_000,
    file_bytes=64 * 2**20,
    message_bytes=64 * 2**20,
    json_depth=32,
    exploration=100.0,
)

#: The browser app: a page may not tie up the server's workers.
WEB = Limits(
    simulations=200_000,
    seconds=30.0,
    threads=2,
    deadline=True,
    record_plies=100_000,
    file_bytes=8 * 2**20,
    message_bytes=8 * 2**20,
    json_depth=32,
    exploration=100.0,
)
