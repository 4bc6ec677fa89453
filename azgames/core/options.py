"""How a game declares its variant options, so that every front end offers them.

A game's :class:`~azgames.core.game.Rules` lists its options as :class:`Option`
values (``Rules.OPTIONS``): the name, the default, a line of help, and how a
value written on a command line becomes the option's value. The rules still
check every value they are given (from Python, a record or a page); the
parser only turns text into the kind of value the rules take, so the
command line, the browser and the docs offer the same options without
naming a game.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One variant option of a game."""

    name: str
    default: Any
    help: str
    #: Text from a command line -> the value the rules take (ValueError if none).
    parse: Callable[[str], Any]
    #: What the command line shows as the value's form, e.g. ``N`` or ``fixed|random``.
    metavar: str = "VALUE"


def integer(value: str) -> int:
    """Parse an integer (the rules check its range: their message names it)."""
    if not (value.lstrip("+-").isascii() and value.lstrip("+-").isdigit() and len(value) <= 12):
        raise ValueError(f"{value!r} is not an integer")
    return int(value)


def choice(*choices: str) -> Callable[[str], str]:
    """Parse one of ``choices``."""

    def parse(text: str) -> str:
        if text not in choices:
            raise ValueError(f"{text!r} is not one of {', '.join(choices)}")
        return text

    return parse


_BOOLS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}


def boolean(text: str) -> bool:
    """Parse true/false (also yes/no, 1/0)."""
    if text.lower() not in _BOOLS:
        raise ValueError(f"{text!r} is not true or false")
    return _BOOLS[text.lower()]


def tri_state(text: str) -> bool | None:
    """Parse true, false or default (None: the rule book's choice)."""
    if text.lower() in ("default", "none"):
        return None
    return boolean(text)


def text(value: str) -> str:
    """The text itself (a name, a path: the rules resolve it)."""
    return value


def word_or_list(*words: str) -> Callable[[str], Any]:
    """One of ``words``, or a comma-separated list (a JSON list also works)."""

    def parse(value: str) -> Any:
        if value in words:
            return value
        if value.startswith("["):
            try:
                return json.loads(value)
            except ValueError:
                raise ValueError(f"{value!r} is not a JSON list") from None
        return [part.strip() for part in value.split(",")]

    return parse
