"""Games in the terminal: watching and playing one at the keyboard
(:func:`play_in_terminal`, with :class:`Console` for the human seats) and
stepping through a saved record (:func:`replay`). The command line's
``play`` and ``replay`` commands run them.

The package installs as ``azgames.terminal`` (the folder is ``terminal/``).
"""

from .human import Command, Console
from .moves import MoveError, legal_moves, parse_move
from .play import play_in_terminal
from .replay import replay

__all__ = ["Command", "Console", "MoveError", "legal_moves", "parse_move", "play_in_terminal", "replay"]
