"""The games' search hooks, as the search finds them: each game declares its
own (``Rules.search_hooks``, a module of its package holding ``HOOKS``, a
:class:`~azgames.core.search_hooks.SearchHooks`); the first search of a game
imports them and registers them with :mod:`.interface`."""

from __future__ import annotations

import importlib

import numpy as np

from azgames.core.search_hooks import SearchHooks

from .interface import implement, no_estimate

#: state class -> the game's hooks, once a search has asked for them.
_HOOKS: dict[type, SearchHooks] = {}


def hooks_of(rules) -> SearchHooks:
    """The search hooks of ``rules``' game, registered for the search;
    ValueError if the game declares none."""
    hooks = _HOOKS.get(rules.state_type)
    if hooks is None:
        if rules.search_hooks is None:
            raise ValueError(f"no search plays {rules.info.name}: its rules declare no search hooks")
        hooks = importlib.import_module(rules.search_hooks).HOOKS
        implement(
            hooks.state_type,
            hooks.legal,
            hooks.play,
            hooks.estimate or no_estimate,
            hooks.observe,
            inline=hooks.inline,
            heuristic=hooks.heuristic,
        )
        _HOOKS[hooks.state_type] = hooks
    return hooks


def search_config(rules):
    """What the game's hooks take as ``cfg``."""
    return hooks_of(rules).config(rules)


def chance_queue(state) -> tuple[np.ndarray, int]:
    """The state's forced-faces queue (``azgames.core.chance``) and its die's
    faces; an empty (B, 0) queue and 0 faces for a game without chance (its
    hooks registered first, by :func:`hooks_of`)."""
    faces = _HOOKS[type(state)].die_faces
    if faces:
        return state.forced, faces
    return np.zeros((len(state.rng), 0), np.int8), 0
