"""What a game gives a tree search: its rules as numba functions over its
state, and the search's defaults for it.

Each game declares its hooks in its own package (``<game>/search.py``,
named by ``Rules.search_hooks``); the search (``azgames.agents.mcts``)
compiles them into its one numba loop. Every hook is a thin call into the
kernels the envs step, so the search plays exactly the game's rules:

- ``legal(s, cfg, i, mask)``: mark game ``i``'s actor's legal actions in row 0 of ``mask``;
- ``play(s, cfg, i, action, rewards)``: play a legal action, write the step's
  rewards into row ``i``, return the packed status (``azgames.core.game``);
- ``estimate(s, cfg, i, values)``: each agent's expectation in [-1, 1] where
  a playout is cut short (None: a draw);
- ``observe(s, cfg, i, viewer, obs)``: a trained policy's input (None: no
  policy-guided search);
- ``heuristic(s, cfg, i, mask)``: the game's heuristic agent's move, for
  ``az``'s playouts that follow it (None: none).

``cfg`` is what the kernels need besides the state, built by ``config(rules)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SearchHooks:
    state_type: type
    legal: Callable
    play: Callable
    #: rules -> the ``cfg`` the hooks take.
    config: Callable[[Any], Any]
    estimate: Callable | None = None
    observe: Callable | None = None
    #: Inline the hooks into the search: where the kernels are small, a call
    #: passing the state tuple costs more than the work (Azacru ran 1.8x
    #: faster inlined); inlining large kernels multiplies the compile time.
    inline: bool = False
    #: Plies a playout runs before ``estimate`` takes over, by default (-1: to the end).
    max_playout: int = -1
    #: The guided selection's prior temperature by default (0: plain UCT).
    prior_temperature: float = 0.0
    #: The faces of the die the game rolls (0: no chance).
    die_faces: int = 0
    #: ``heuristic(s, cfg, i, mask) -> action``: the game's heuristic agent's
    #: move, for playouts that follow it instead of random moves (None: none).
    heuristic: Callable | None = None
    #: ``repeats(rules) -> bool``: whether positions can come back, moves
    #: undone without end; if so ``az`` scores a walk's return to a position
    #: on its path as a draw, unless told otherwise (None: they cannot).
    repeats: Callable[[Any], bool] | None = None
