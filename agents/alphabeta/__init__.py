"""Fixed-depth alpha-beta search over a game's own numba kernels.

- :mod:`.search`: minimax with alpha-beta pruning, in numba, over the
  game's search hooks (``legal``, ``play``, ``estimate``);
- :mod:`.agent`: :class:`AlphaBetaAgent`, the registered ``alphabeta`` agent.
"""

from .agent import AlphaBetaAgent

__all__ = ["AlphaBetaAgent"]
