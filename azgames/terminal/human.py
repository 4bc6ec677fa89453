"""The keyboard: a human's seats ask for moves typed in the game's notation.

One :class:`Console` serves every human seat of a game (several humans can
share the keyboard). Before a move it shows the board (unless the game just
printed it), the game's legend the first time, whose move it is and the
legal moves (the first few, when a whole list would push the board off the
screen), then reads a line: a move (a unique prefix will do; see
:func:`~azgames.terminal.moves.parse_move`), ``moves``, ``help``, ``undo`` or
``quit``. Lines come from ``input_fn`` (``input`` by default; tests pass a
script), so the end of the input (EOF) ends the game like ``quit``.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Callable

from azgames.core import compile_notice

from .moves import MoveError, legal_moves, parse_move

#: Width of the moves' lines, and how many lines of them a turn shows before
#: ``moves`` is needed: a turn with 192 moves would bury the board under 28 lines.
WIDTH = 100
SHOWN_LINES = 3

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

    def show_moves(self, env, every: bool = False) -> None:
        """The legal moves; unless ``every``, at most :data:`SHOWN_LINES` lines of them."""
        moves = list(legal_moves(env))
        lines = _wrapped(f"legal moves ({len(moves)}): ", moves)
        if not every and len(lines) > SHOWN_LINES:
            lines = _wrapped(f"legal moves ({len(moves)}), the first: ", moves)[: SHOWN_LINES - 1]
            lines.append("  ... (type moves to list them all, or the beginning of one)")
        self.say("\n".join(lines))

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
            compile_notice.settle()  # a compile's last line now, not in what the user types
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
                self.show_moves(env, every=True)
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


def _wrapped(head: str, moves: list[str]) -> list[str]:
    """``head`` and the moves, comma-separated, in lines of :data:`WIDTH`;
    a move (``place R b3 E``) is never cut."""
    lines = [head.rstrip()]
    for i, move in enumerate(moves):
        word = move + ("," if i < len(moves) - 1 else "")
        if len(lines[-1]) + 1 + len(word) > WIDTH:
            lines.append(" ")
        lines[-1] += " " + word
    return lines
