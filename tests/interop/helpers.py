"""What every client test shares: the registered games, and small games."""

from typing import Any

import azgames
from azgames.core import registry

#: Every registered game: each client test runs on all of them.
GAMES = [e.name for e in azgames.list_games()]


def short(game: str) -> dict[str, Any]:
    """Options that end ``game`` within a few dozen turns, where it has such
    an option, so that a test sees whole games (their final infos) quickly."""
    return {"max_turns": 24} if "max_turns" in registry.rules_type(game).option_defaults() else {}
