"""Clicks on the board to moves: which legal moves the clicks so far select.

A game's ``rules.action_targets(state, action)`` names the picture's places
that select a move, in click order (Azacru: the piece's square, then where
it ends). The page sends one click at a time; the moves still meant are the
legal ones whose targets start with the clicks. This module is that
matching and the words for a click that matches nothing, with no web in it,
so the server and the tests share it.
"""

from __future__ import annotations

from typing import NamedTuple


class Move(NamedTuple):
    """A legal move as the page shows it."""

    action: int
    move: str  # notation
    targets: tuple[str, ...]  # () for a move with no place: a button


class Selection(NamedTuple):
    """What a click leaves: the clicks kept and the moves they select.

    ``play`` is the move to play now (the only one left, fully clicked);
    otherwise ``choices`` are the fully clicked moves the clicks share (offered
    as buttons) and ``next_targets`` the places a further click may add."""

    clicks: tuple[str, ...]
    play: Move | None
    choices: tuple[Move, ...]
    next_targets: tuple[str, ...]


def legal_moves(env) -> list[Move]:
    """The current actor's legal moves in ``env`` (an AEC env of the suite)."""
    raw = env.unwrapped
    state, rules = raw.state, raw.rules
    return [
        Move(a, rules.action_to_str(state, a), tuple(rules.action_targets(state, a)))
        for a in raw.legal_actions()
    ]


def matching(moves: list[Move], clicks: tuple[str, ...]) -> list[Move]:
    """The moves whose targets start with ``clicks`` (at least one click)."""
    n = len(clicks)
    return [m for m in moves if len(m.targets) >= n and m.targets[:n] == clicks]


def select(moves: list[Move], clicks: tuple[str, ...], target: str) -> Selection | None:
    """The selection after clicking ``target`` with ``clicks`` already made;
    None when no legal move starts with them. A click that extends no
    selection but starts one anew (another piece clicked) starts over."""
    for trial in ((*clicks, target), (target,)):
        found = matching(moves, trial)
        if found:
            break
    else:
        return None
    complete = tuple(m for m in found if len(m.targets) == len(trial))
    if len(found) == 1 and complete:
        return Selection((), complete[0], (), ())
    following = tuple(dict.fromkeys(m.targets[len(trial)] for m in found if len(m.targets) > len(trial)))
    return Selection(trial, None, complete, following)


def places(clicks: tuple[str, ...]) -> str:
    """``e4`` or ``a3 then b4``: clicks in words."""
    return " then ".join(clicks)
