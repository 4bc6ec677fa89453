"""The values an :class:`~azimuth_env.rules.AzimuthState` may hold, checked
before a state from outside reaches the kernels (``AzimuthRules.check_values``,
called by ``set_state``, ``VectorEnv.set_game`` and game records). The co-op
mode's check (:mod:`azimuth_env.coop.state_check`) reuses :func:`check_sea`.

The sea (:func:`check_sea`), for every game of the batch and ``C`` colours:

- stacks: ``height`` 0 to the stack depth; ``stack`` holds a colour below
  the height and -1 above it; no colour has more rafts on the board than
  the layout gives it (``rafts_per_colour``, one fewer before a 4-player
  beach brings the fifth raft);
- winds: ``wind_colour`` and ``wind_owner`` both -1 (no wind) or both set,
  to a colour; with 3-4 colours a wind is its colour's; ``wind_dir`` 0-3; no
  wind on the island's mark;
- hands and coconuts: ``hand`` 0 to the winds of each kind the layout gives,
  and winds in hand plus those of the kind on the board no more than that;
  ``coconuts`` 0 to the layout's number;
- beaches: -1 or a beach position in the player's zone; no two beaches share
  a landing spot;
- castaways: a point, ``ON_ISLAND`` (only with an island), ``AT_HOME`` (only
  with a beach) or ``NOT_PLACED`` (only adrift before its beach, which
  brings it; never once the beach is placed). A castaway on a point stands
  on its top raft, which is of its colour (so no two share a point).

The base game (:func:`check_values`) adds the player to move and the end:

- ``player`` a player; ``ply`` 0 to ``max_turns``; ``outcome`` ONGOING,
  TERMINATED or TRUNCATED;
- beaches go down from the last seat: while some are missing, they are the
  lowest seats, and the player to move is the highest of them;
- a castaway home ends the game: none is home in a game that goes on, one or
  more in a TERMINATED game, none in a TRUNCATED one, which reached
  ``max_turns`` (a game going on has not).

Seas no game reaches but the rules allow are accepted (the scenario tests
draw them): fewer rafts or winds than the full set, any winds, any stacks.
"""

from __future__ import annotations

import numpy as np

from azgames.core.game import ONGOING, TERMINATED, TRUNCATED
from azgames.core.state_check import fail_where, in_range

from .board import AT_HOME, NOT_PLACED, NUM_MARKS, NUM_POINTS, ON_ISLAND, Layout


def check_sea(state, layout: Layout) -> None:
    """The sea, the winds, hands, coconuts, beaches and castaways of every
    game (see the module docstring); the colours are ``state.castaway``'s."""
    colours = state.castaway.shape[1]
    depth = state.stack.shape[2]
    games = np.arange(len(state.stack))
    num_beaches = len(layout.beach_side)

    # Ranges first: the consistency checks below index with these values.
    in_range(state, "height", 0, depth + 1)
    in_range(state, "stack", -1, colours)
    in_range(state, "wind_colour", -1, colours)
    in_range(state, "wind_owner", -1, colours)
    in_range(state, "wind_dir", 0, 4)
    limit = np.array([layout.winds_own, layout.winds_other], np.int64)
    hand = state.hand.astype(np.int64)
    fail_where(
        state,
        "hand",
        (hand < 0) | (hand > limit),
        lambda at: f"is out of range [0, {limit[at[2]]}] (winds of that kind in a hand)",
    )
    in_range(state, "coconuts", 0, layout.coconuts + 1)
    in_range(state, "beach", -1, num_beaches)
    in_range(state, "castaway", NOT_PLACED, AT_HOME + 1)

    # Stacks: colours up to the height, -1 above; no colour has too many rafts.
    stack = state.stack.astype(np.int64)
    height = state.height.astype(np.int64)
    below = np.arange(depth)[None, None, :] < height[:, :, None]
    fail_where(
        state,
        "stack",
        below & (stack < 0),
        lambda at: f"is no raft colour, below the height {int(height[at[:2]])} of point {at[1]}",
    )
    fail_where(
        state,
        "stack",
        ~below & (stack >= 0),
        lambda at: f"is a raft above the height {int(height[at[:2]])} of point {at[1]}",
    )
    beach = state.beach.astype(np.int64)
    rafts = stack >= 0
    counts = np.bincount(
        (games[:, None, None] * colours + stack)[rafts], minlength=len(games) * colours
    ).reshape(len(games), colours)  # (B, C)
    fifth = bool((layout.beach_raft >= 0).any())
    most = int(layout.rafts_per_colour) - (fifth & (beach < 0)).astype(np.int64)  # (B, C)
    fail_where(
        state,
        "stack",
        counts > most,
        lambda at: (
            f"rafts of colour {at[1]} are on the board, more than its {int(most[at])}"
            + (" (the fifth comes with the beach)" if fifth else "")
        ),
        values=counts,
    )

    # Winds: both colour and owner or neither; a colour's own with 3-4 colours; off the island.
    colour = state.wind_colour.astype(np.int64)
    owner = state.wind_owner.astype(np.int64)
    fail_where(
        state,
        "wind_owner",
        (colour < 0) != (owner < 0),
        lambda at: f"is the owner of a wind of colour {int(colour[at])} (a wind has both or neither)",
    )
    if colours > 2:
        fail_where(
            state,
            "wind_owner",
            (colour >= 0) & (owner != colour),
            lambda at: (
                f"owns a wind of colour {int(colour[at])}; with {colours} colours a wind is its colour's"
            ),
        )
    if layout.island >= 0:
        on_island = np.zeros(NUM_MARKS, bool)
        on_island[layout.island] = True
        fail_where(state, "wind_colour", (colour >= 0) & on_island, "is a wind on the island's mark")

    # Winds in hand plus those on the board: no more than the set.
    mine = owner[:, None, :] == np.arange(colours)[None, :, None]  # (B, C, marks)
    own_colour = colour[:, None, :] == np.arange(colours)[None, :, None]
    placed = np.stack([(mine & own_colour).sum(2), (mine & ~own_colour).sum(2)], axis=2)
    fail_where(
        state,
        "hand",
        hand + placed > limit,
        lambda at: (
            f"winds in hand and {int(placed[at])} on the board are more than the "
            f"{limit[at[2]]} player {at[1]} holds of that kind"
        ),
    )

    # Beaches: in the player's zone, no shared landing spot.
    players = layout.beach_players[np.maximum(beach, 0)]
    fail_where(
        state,
        "beach",
        (beach >= 0) & ((players >> np.arange(colours)) & 1 == 0),
        lambda at: f"is not a beach position of player {at[1]}'s zone",
    )
    spots = np.where(beach[:, :, None] >= 0, layout.beach_spots[np.maximum(beach, 0)], -1)  # (B, C, 3)
    same = (spots[:, :, None, :, None] == spots[:, None, :, None, :]) & (spots[:, :, None, :, None] >= 0)
    shared = same.any(axis=(3, 4)) & (np.arange(colours)[:, None] > np.arange(colours)[None, :])
    fail_where(
        state,
        "beach",
        shared.any(axis=2),
        lambda at: f"shares a landing spot with player {int(np.argmax(shared[at]))}'s beach",
    )

    # Castaways: on a top raft of their colour; the island only with one; placed with the beach.
    where = state.castaway.astype(np.int64)
    point = np.clip(where, 0, NUM_POINTS - 1)
    h = height[games[:, None], point]
    top = stack[games[:, None], point, np.maximum(h - 1, 0)]
    on_point = (where >= 0) & (where < NUM_POINTS)
    colour_of = np.arange(colours)[None, :]
    fail_where(
        state,
        "castaway",
        on_point & ((h == 0) | (top != colour_of)),
        lambda at: (
            f"is a point whose top raft is colour {int(top[at])}, not the castaway's {at[1]}"
            if h[at]
            else "is a point with no raft"
        ),
    )
    if layout.island < 0:
        fail_where(state, "castaway", where == ON_ISLAND, "(ON_ISLAND) but this layout has no island")
    fail_where(state, "castaway", (where == AT_HOME) & (beach < 0), "(AT_HOME) but the castaway has no beach")
    if layout.start_on_island:
        fail_where(
            state,
            "castaway",
            where == NOT_PLACED,
            "(NOT_PLACED) but castaways start on the island in this layout",
        )
    else:
        fail_where(
            state,
            "castaway",
            (where == NOT_PLACED) & (beach >= 0),
            "(NOT_PLACED) but its beach, which brings it, is placed",
        )
        fail_where(
            state,
            "castaway",
            (where != NOT_PLACED) & (beach < 0),
            "is placed before its beach, which brings it",
        )


def check_values(state, rules) -> None:
    """Raise ValueError naming the field, game, index and value of the first
    value of ``state`` the base game cannot hold (see the module docstring)."""
    n = rules.num_players
    max_turns = rules.max_turns
    in_range(state, "player", 0, n)
    in_range(state, "ply", 0, max_turns + 1)
    in_range(state, "outcome", 0, 3)
    check_sea(state, rules.layout)

    # Beaches go down from the last seat; while they do, the next seat to place acts.
    placed = state.beach.astype(np.int64) >= 0
    player = state.player.astype(np.int64)
    seats = np.arange(n)[None, :]
    lowest_placed = np.where(placed, seats, n).min(axis=1)  # (B,)
    fail_where(
        state,
        "beach",
        ~placed & (seats > lowest_placed[:, None]),
        lambda at: (
            f"(none) although player {int(lowest_placed[at[0]])}'s is placed: "
            f"beaches go down from the last seat"
        ),
    )
    setup = lowest_placed > 0
    fail_where(
        state,
        "player",
        setup & (player != lowest_placed - 1),
        lambda at: f"is to act, but player {int(lowest_placed[at] - 1)} places the next beach",
    )

    # The end: a castaway home ends the game; so does max_turns.
    outcome = state.outcome.astype(np.int64)
    ply = state.ply.astype(np.int64)
    home = state.castaway == AT_HOME
    fail_where(
        state,
        "castaway",
        home & (outcome != TERMINATED)[:, None],
        lambda at: (
            f"(AT_HOME) in a game that is "
            f"{'not over' if outcome[at[0]] == ONGOING else 'truncated'}: "
            f"a castaway home ends the game"
        ),
    )
    fail_where(
        state, "outcome", (outcome == TERMINATED) & ~home.any(axis=1), "(TERMINATED) but no castaway is home"
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
        (outcome == TRUNCATED) & (ply != max_turns),
        lambda at: f"(TRUNCATED) but ply is {int(ply[at])}, not max_turns={max_turns}",
    )
