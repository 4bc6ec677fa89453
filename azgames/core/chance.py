"""Explicit chance: the outcomes an action may draw, and forcing one of them.

A game with dice draws every die face with :func:`roll_die`, from the game's
own generator (:mod:`azgames.core.rng`) unless a face was *forced*: each game's
state holds a small queue ``forced[i]`` of faces (-1 = empty) that the next
rolls take first. That queue is what lets a search agent (or a test) follow
one chosen outcome, and it lives in the state, so ``clone()`` carries it.

A game exposes its chance through two :class:`~azgames.core.game.Rules` methods:

``chance_outcomes(state, action)``
    the :class:`ChanceOutcome` list that playing ``action`` now may draw
    (empty when the action draws nothing); build it with :func:`dice_outcomes`;
``force_draws(state, draws)``
    queue the faces of one outcome for the next step (see :func:`force`).

and the AEC env offers them as ``env.chance_outcomes(action)`` and
``env.step_outcome(action, outcome)``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .jit import njit
from .rng import below


@dataclass(frozen=True)
class ChanceOutcome:
    """One outcome of the chance events an action draws.

    ``draws`` are die faces, in the order the step rolls them, that produce
    the outcome; when several draws have the same effect on the game they are
    merged into one outcome (``probability`` is then their total) and
    ``draws`` is the first of them."""

    label: str
    probability: float
    draws: tuple[int, ...]


def dice_outcomes(
    faces: int, dice: int, effect: Callable[[tuple[int, ...]], str], merge: bool = True
) -> list[ChanceOutcome]:
    """The outcomes of rolling ``dice`` fair dice of ``faces`` faces (0 to faces-1).

    ``effect(draws)`` names what the draws do in the game (e.g. ``"monster
    wins"``). With ``merge`` (default), draws with the same effect form one
    outcome, listed in order of their first draw; without it, every draw
    sequence is its own outcome, labelled by its effect."""
    p = 1.0 / faces**dice
    if not merge:
        return [ChanceOutcome(effect(d), p, d) for d in itertools.product(range(faces), repeat=dice)]
    merged: dict[str, list] = {}
    for d in itertools.product(range(faces), repeat=dice):
        entry = merged.setdefault(effect(d), [0, d])
        entry[0] += 1
    return [ChanceOutcome(label, n * p, first) for label, (n, first) in merged.items()]


def force(forced: np.ndarray, draws, faces: int) -> None:
    """Queue ``draws`` in one game's ``forced`` row (checked against the die)."""
    draws = tuple(int(d) for d in draws)
    if len(draws) > len(forced):
        raise ValueError(f"{len(draws)} forced draws; this game queues at most {len(forced)}")
    bad = [d for d in draws if not 0 <= d < faces]
    if bad:
        raise ValueError(f"forced die faces {bad} are not faces of a {faces}-faced die (0 to {faces - 1})")
    forced[:] = -1
    forced[: len(draws)] = draws


@njit
def roll_die(rng, forced, i, faces):
    """The next face (0 to faces-1) of game ``i``: the first forced face
    queued, or else a fair draw from the game's generator."""
    row = forced[i]
    for k in range(row.shape[0]):
        if row[k] >= 0:
            face = np.int64(row[k])
            row[k] = -1
            return face
    return below(rng, i, faces)
