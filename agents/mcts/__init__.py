"""Monte Carlo tree search over the games' own numba kernels.

- :mod:`.interface`: the two rules functions the search calls (``legal``,
  ``play``), resolved per game at compile time;
- :mod:`.games`: each game's implementation of them, over its kernels;
- :mod:`.tree`: UCT with chance nodes, the tree in preallocated arrays;
- :mod:`.agent`: :class:`MCTSAgent`, the registered ``mcts`` agent;
- :mod:`.reference`: the same search in plain Python over the AEC env, slow,
  to check the numba one against.
"""

from .agent import MCTSAgent, SearchResult

__all__ = ["MCTSAgent", "SearchResult"]
