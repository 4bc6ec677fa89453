"""The ``alphabeta`` agent: minimax with alpha-beta pruning to a fixed
depth, for every deterministic 2-player game that declares search hooks."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from azgames.core import checks
from azgames.core.agent import agent_rng, suite_env

from ..mcts.games import hooks_of
from .search import root_values

#: The deepest search a spec may ask for: a Connect Four move at depth 12
#: takes seconds; the branching of the suite's larger games makes even
#: depth 4 slow.
MAX_DEPTH = 12


class AlphaBetaAgent:
    """Minimax to ``depth`` plies with alpha-beta pruning over the game's own
    numba kernels, the game's ``estimate`` at the leaves (0 in a game
    without one), a decided game worth more than any estimate and sooner
    better (:mod:`.search`). Actions tied best are broken at random by
    the agent's generator: deterministic for its ``seed``. Plays 2-player
    games without chance."""

    name = "alphabeta"

    def __init__(self, seed=None, game: str | None = None, depth: int = 4):
        self.rng = agent_rng(seed)
        self.game = game
        self.depth = checks.integer("depth", depth, 1, MAX_DEPTH)
        #: What the last search did: nodes visited and seconds.
        self.last_nodes = 0
        self.last_seconds = 0.0

    def values(self, env) -> np.ndarray:
        """Each action's value for the player to act (``-inf``: illegal; an
        action tied best is exact, one below it may be an upper bound)."""
        raw = suite_env(env, self.game)
        rules = raw.rules
        if rules.num_players != 2:
            raise ValueError(
                f"alphabeta plays 2-player games; this env is {rules.info.name} with {rules.num_players}"
            )
        if rules.info.chance != "deterministic":
            raise ValueError(f"alphabeta plays games without chance; {rules.info.name} has chance")
        hooks = hooks_of(rules)
        state: Any = raw.state  # a game's state named tuple: one slot a ply, and scratch
        work = type(state)(*(np.concatenate([a] * (self.depth + 2)) for a in state))
        out = np.empty(rules.num_actions, np.float64)
        counter = np.zeros(1, np.int64)
        start = time.perf_counter()
        player = raw.possible_agents.index(raw.agent_selection)
        root_values(work, hooks.config(rules), player, self.depth, rules.num_actions, out, counter)
        self.last_nodes, self.last_seconds = int(counter[0]), time.perf_counter() - start
        return out

    def act(self, env) -> int:
        legal = suite_env(env, self.game).legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        values = self.values(env)
        best = np.flatnonzero(values >= values.max() - 1e-9)
        return int(best[self.rng.integers(len(best))])

    def __repr__(self) -> str:
        return f"AlphaBetaAgent(depth={self.depth})"
