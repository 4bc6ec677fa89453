"""Tournaments and rating ladders: every agent against every other, one number each.

- :mod:`.schedule`: which agents sit where in each game (all seatings);
- :mod:`.ratings`: Bradley-Terry ratings on the Elo scale for 2-player games,
  OpenSkill (Plackett-Luce) for 3-4 players and teams, both anchored so that
  ``random`` is 0 (without random, the first agent listed);
- :mod:`.run`: playing a tournament, its JSON record (every game's result, so
  that ratings can be recomputed), the table and the plot.

``python -m azgames tournament GAME --players N --agents random greedy mcts``
runs one from the command line. Installed as ``azgames.tournament``; the
``tournament`` extra brings OpenSkill, matplotlib and tqdm.
"""

from .ratings import Rating, bradley_terry, openskill_ratings
from .run import TournamentResult, load_result, run_tournament

__all__ = [
    "Rating",
    "bradley_terry",
    "openskill_ratings",
    "TournamentResult",
    "load_result",
    "run_tournament",
]
