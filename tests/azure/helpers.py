"""Small helpers for Azure Attack scenario tests: set up a position from a
text diagram (:mod:`azure_env.diagram`), play moves in notation, force the
dice of a fight, and compare boards as diagrams.

Letters: ``M`` the monster, ``A`` ``B`` ``C`` hunter_0, _1, _2; lower case
marks their suit-tile squares; digits are coins (lying, or after a piece's
letter, carried)."""

from __future__ import annotations

import textwrap

import azgames
from azure_env.board import COLUMNS
from azure_env.diagram import PIECE_LETTERS
from azure_env.kernels import ALLOWANCE

AGENTS = {"M": "monster", "A": "hunter_0", "B": "hunter_1", "C": "hunter_2"}
LETTERS = {agent: letter for letter, agent in AGENTS.items()}


def position(
    diagram: str,
    num_players: int = 2,
    to_move: str = "A",
    banked: dict | None = None,
    steps_taken: str = "",
    order: str | None = None,
    monster_next: bool = False,
    seed: int = 0,
    **options,
):
    """An AEC env at the position drawn in ``diagram``, ``to_move``'s turn.

    ``banked`` maps letters to banked coin values (``{"M": "53"}``);
    ``order`` is the hunters' turn order (``"BA"``); with ``monster_next``
    the monster plays after ``to_move``'s turn; ``seed`` seeds the dice (see
    ``AzureRules.state_from_diagram``). ``options`` go to the env
    (``map="ring"``, ``max_turns=5``, ...)."""
    env = azgames.make("azure", num_players=num_players, **options)
    env.reset(seed=0)
    rules = env.unwrapped.rules
    env.unwrapped.set_state(
        rules.state_from_diagram(
            textwrap.dedent(diagram),
            to_move=to_move,
            banked=banked,
            steps_taken=steps_taken,
            order=order,
            monster_next=monster_next,
            seed=seed,
        )
    )
    return env


def new_game(num_players: int = 2, seed: int = 0, **options):
    """A freshly set-up game."""
    env = azgames.make("azure", num_players=num_players, **options)
    env.reset(seed=seed)
    return env


def play(env, *moves: str) -> None:
    """Play each move (``"N"``, ``"E"``, ``"S"``, ``"W"``, ``"stop"``) in turn."""
    for move in moves:
        env.step(env.unwrapped.str_to_action(move))


def fight(env, move: str, attacker_face: int, defender_face: int) -> None:
    """Play the attacking ``move`` with the dice forced: the attacker rolls
    ``attacker_face``, the defender ``defender_face`` (0-5)."""
    env.unwrapped.step_outcome(env.unwrapped.str_to_action(move), (attacker_face, defender_face))


def force_dice(env, attacker_face: int, defender_face: int) -> None:
    """Queue the faces of the next fight's dice (then play it with :func:`play`)."""
    env.unwrapped.rules.force_draws(env.unwrapped.state, (attacker_face, defender_face))


def board(env) -> str:
    """The diagram of the env's current position (compare with :func:`same_board`)."""
    return env.unwrapped.rules.diagram(env.unwrapped.state)


def tokens(text: str) -> list[list[str]]:
    """The squares of a diagram, row by row, without the row numbers, the
    line of column letters, indentation or spacing."""
    rows = []
    for line in textwrap.dedent(text).strip("\n").splitlines():
        row = line.split()
        if row and row != list(COLUMNS[: len(row)]):  # not the closing line of column letters
            rows.append(row)
    labels = [row[0] for row in rows]
    if labels == [str(n) for n in range(len(rows), 0, -1)]:  # rows numbered down to 1
        rows = [row[1:] for row in rows]
    return rows


def same_board(env, diagram: str) -> bool:
    """True if the env's position is exactly ``diagram`` (spacing, indentation
    and the row and column labels ignored)."""
    return tokens(board(env)) == tokens(diagram)


def acting(env) -> str:
    """The letter (M, A, B, C) of the agent to act."""
    return LETTERS[env.agent_selection]


def legal(env) -> set[str]:
    """The acting agent's legal moves, in notation."""
    return {env.unwrapped.action_to_str(a) for a in env.unwrapped.legal_actions()}


def reason(env, move: str) -> str | None:
    """Why ``move`` is illegal for the acting agent (None if it is legal)."""
    u = env.unwrapped
    return u.rules.illegal_reason(u.state, u.str_to_action(move))


def banked(env) -> dict[str, int]:
    """Each agent's banked gold value, by letter."""
    u = env.unwrapped
    return dict(zip(PIECE_LETTERS, u.rules.banked(u.state)))


def square(env, letter: str) -> str:
    """The square a piece stands on (``"c11"``)."""
    u = env.unwrapped
    return u.rules.layout.name_of(int(u.state.pos[0, PIECE_LETTERS.index(letter)]))


def squares_left(env) -> int:
    """Squares the acting piece may still move this turn (its observation's allowance plane)."""
    return int(env.observe(env.agent_selection)["observation"][ALLOWANCE, 0, 0])


def turns(env) -> int:
    """Turns finished so far (extra turns included)."""
    return int(env.unwrapped.state.turns[0])


def game_over(env) -> bool:
    return all(env.terminations.values()) or all(env.truncations.values())
