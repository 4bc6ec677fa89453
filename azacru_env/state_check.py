"""The values an :class:`~azacru_env.rules.AzacruState` may hold, checked
before a state from outside reaches the kernels (``AzacruRules.check_values``,
called by ``set_state``, ``VectorEnv.set_game`` and game records).

Checked, for every game of the batch:

- ranges: ``tiles`` -1 (neutral) or a player; ``occupant`` -1 or
  ``player * 4 + slot`` of an existing piece; ``piece_field`` -1 (off the
  board) or a field 0-80; ``piece_facing`` 0-7; ``player`` a player;
  ``turns_left`` -1 or 0 to players - 1; ``ply`` 0 to ``max_turns``;
  ``outcome`` ONGOING, TERMINATED or TRUNCATED;
- the pieces and the board agree: every piece on the board is its field's
  ``occupant``, and every occupant is a piece standing on that field (so no
  two pieces share a field);
- the end: a game going on has turns left (``turns_left`` is not 0) and
  ``ply`` below ``max_turns``; a TERMINATED game has played its final round
  (``turns_left`` 0); a TRUNCATED one reached ``max_turns``.

Positions no game reaches but the rules allow (any tiles, a piece on another
player's tile, fewer pieces) are accepted: the scenario and property tests
build them.
"""

from __future__ import annotations

import numpy as np

from azgames.core.game import ONGOING, TERMINATED, TRUNCATED
from azgames.core.state_check import fail_where, in_range

from .board import NUM_FIELDS

SLOTS = 4  # occupant = player * SLOTS + slot, whatever the pieces per player


def check_values(state, num_players: int, max_turns: int) -> None:
    """Raise ValueError naming the field, game, index and value of the first
    value of ``state`` the game cannot hold (see the module docstring)."""
    n = num_players
    pieces = state.piece_field.shape[2]
    in_range(state, "tiles", -1, n)
    in_range(state, "occupant", -1, n * SLOTS)
    occupant = state.occupant.astype(np.int64)
    fail_where(
        state,
        "occupant",
        (occupant >= 0) & (occupant % SLOTS >= pieces),
        f"names a piece slot beyond the {pieces} pieces each player has",
    )
    in_range(state, "piece_field", -1, NUM_FIELDS)
    in_range(state, "piece_facing", 0, 8)
    in_range(state, "player", 0, n)
    in_range(state, "turns_left", -1, n)
    in_range(state, "ply", 0, max_turns + 1)
    in_range(state, "outcome", 0, 3)

    # Pieces and occupants name each other.
    field = state.piece_field.astype(np.int64)
    games = np.arange(len(field))[:, None, None]
    code = np.arange(n)[None, :, None] * SLOTS + np.arange(pieces)[None, None, :]
    under = occupant[games, np.maximum(field, 0)]
    fail_where(
        state,
        "piece_field",
        (field >= 0) & (under != code),
        lambda at: (
            f"is the field of player {at[1]}'s piece {at[2]}, but that field's occupant is {int(under[at])}"
        ),
    )
    owner = np.maximum(occupant, 0) // SLOTS
    slot = np.maximum(occupant, 0) % SLOTS
    there = field[np.arange(len(field))[:, None], owner, slot]
    fail_where(
        state,
        "occupant",
        (occupant >= 0) & (there != np.arange(NUM_FIELDS)[None, :]),
        lambda at: (
            f"names player {int(owner[at])}'s piece {int(slot[at])}, which is on field {int(there[at])}"
        ),
    )

    # The end of the game.
    outcome = state.outcome.astype(np.int64)
    turns_left = state.turns_left.astype(np.int64)
    ply = state.ply.astype(np.int64)
    fail_where(
        state,
        "turns_left",
        (outcome == ONGOING) & (turns_left == 0),
        "(the final round is over) in a game that goes on",
    )
    fail_where(
        state,
        "ply",
        (outcome == ONGOING) & (ply >= max_turns),
        f"reaches max_turns={max_turns} in a game that goes on",
    )
    fail_where(
        state,
        "outcome",
        (outcome == TERMINATED) & (turns_left != 0),
        lambda at: f"(TERMINATED) but turns_left is {int(turns_left[at])}, not 0",
    )
    fail_where(
        state,
        "outcome",
        (outcome == TRUNCATED) & (ply != max_turns),
        lambda at: f"(TRUNCATED) but ply is {int(ply[at])}, not max_turns={max_turns}",
    )
