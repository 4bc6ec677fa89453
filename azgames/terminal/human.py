"""The keyboard: a human's seats ask for moves typed in the game's notation.

One :class:`Console` serves every human seat of a game (several humans can
share the keyboard). Before a move it shows the board (unless the game just
printed it), the game's legend the first time, whose move it is and the
legal moves, then reads a line: a move (a unique prefix will do; see
:func:`~azgames.terminal.moves.parse_move`), ``moves``, ``help``, ``undo`` or
``quit``. Lines come from ``input_fn`` (``input`` by default; tests pass a
script), so the end of the input (EOF) ends the game like ``quit``.
"""

from __future__ import annotations

import enum
import sys
import textwrap
from collections.abc import Callable

from .moves import MoveError, legal_moves, parse_move

HELP = """\
Type a move in the game's notation; a beginning that fits only one legal move
is enough (an ambiguous one lists the moves it could be). Commands:
  moves   list the legal moves
  undo    take back your last move and the moves played since
  help    this help, with the board's legend
  quit    stop the game (end of input does too)"""


class Command(enum.Enum):
    """What a human asked for instead of a move."""

    UNDO = "undo"
    QUIT = "quit"
    EOF = "end of input"


def board(env) -> str:
    """The game's text render of the current position (any render mode)."""
    base = env.unwrapped
    return base.rules.render_ansi(base.state)


class Console:
    """Asks the humans at the keyboard for their moves."""

    def __init__(self, input_fn: Callable[[str], str] = input, out=None):
        self.input_fn = input_fn
        self.out = out
        self.legend_shown = False

    def say(self, text: str = "") -> None:
        print(text, file=self.out or sys.stdout, flush=True)

    def legend(self, env) -> None:
        self.say(env.unwrapped.rules.legend())
        self.legend_shown = True

    def show_moves(self, env) -> None:
        self.say(
            textwrap.fill(
                "legal moves: " + ", ".join(legal_moves(env)),
                width=100,
                subsequent_indent="  ",
                break_on_hyphens=False,
            )
        )

    def ask(self, env, label: str, board_shown: bool) -> int | Command:
        """The move (an action) or command of the human whose turn it is;
        ``board_shown``: the current position was just printed."""
        agent = env.agent_selection
        if not board_shown:
            self.say(board(env))
        if not self.legend_shown:
            self.legend(env)
        self.say(f"{agent} ({label}) to move; type a move, or help")
        self.show_moves(env)
        while True:
            try:
                line = self.input_fn(f"{agent}> ")
            except EOFError:
                self.say()
                return Command.EOF
            text = line.strip()
            command = text.casefold()
            if command in ("undo", "quit"):
                return Command(command)
            if command == "moves":
                self.show_moves(env)
            elif command == "help":
                self.say(HELP)
                self.legend(env)
            elif not text:
                self.say("type a move (moves lists them), or help")
            else:
                try:
                    return parse_move(env, text)
                except MoveError as e:
                    self.say(str(e))
