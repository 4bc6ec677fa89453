"""Typed moves: the legal moves in the game's notation, and what a player
typed turned into one of them (a unique prefix is enough)."""

from __future__ import annotations


class MoveError(ValueError):
    """Typed text that names no legal move; the message says why."""


def legal_moves(env) -> dict[str, int]:
    """The actor's legal moves: notation -> action, in action order."""
    base = env.unwrapped
    return {base.action_to_str(a): a for a in base.legal_actions()}


def parse_move(env, text: str) -> int:
    """The legal action that ``text`` names in the current position.

    Tried in turn: the exact notation of a legal move, then ignoring case;
    the beginning of several legal moves, which lists them (Azacru ``a3-b4``
    could be ``a3-b4:NE``, ``a3-b4:N`` or ``a3-b4:E``: none is guessed); the
    game's own parser (``str_to_action``), whose answer, if illegal, is
    refused with the rules' reason; and the beginning of exactly one legal
    move, ignoring case (``e2-f3`` for ``e2-f3:NE``). Anything else is a
    :class:`MoveError` that repeats the parser's explanation."""
    text = " ".join(text.split())
    moves = legal_moves(env)
    if text in moves:
        return moves[text]
    folded = text.casefold()
    same = [m for m in moves if m.casefold() == folded]
    if len(same) == 1:
        return moves[same[0]]
    completions = [m for m in moves if m.casefold().startswith(folded)] if folded else []
    if len(completions) > 1:
        raise MoveError(f"{text!r} could be {', '.join(completions)}: type more of the move")
    base = env.unwrapped
    try:
        action = base.str_to_action(text)
    except ValueError as e:
        not_a_move = str(e)
    else:
        if action in moves.values():
            return action
        reason = base.rules.illegal_reason(base.state, action) or "not legal here"
        raise MoveError(f"{base.action_to_str(action)} is not legal: {reason}")
    if completions:
        return moves[completions[0]]
    raise MoveError(f"{not_a_move} (type moves to list the legal moves)")
