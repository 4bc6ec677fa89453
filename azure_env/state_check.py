"""The values an :class:`~azure_env.rules.AzureState` may hold, checked before
a state from outside reaches the kernels (``AzureRules.check_values``,
called by ``set_state``, ``VectorEnv.set_game`` and game records). Every
size comes from the rules' map (its squares, suit tiles, homes, coins), so a
user's map is checked as the built-in ones are.

Checked, for every game of the batch (``P`` players, ``h = P - 1`` hunters,
``S`` squares, ``K`` coins):

- suit tiles and homes: the monster owns slot 0; hunters 1 to ``h`` own one
  slot each among the map's hunter tiles; other slots are unused (-1);
  each piece's ``home`` is its slot's home square;
- turn order: ``order`` lists hunters 1 to ``h`` once each, then 0s;
  ``next_hunter`` is an index into it; ``hunter_turns`` 0 or 1;
- the player to move: a hunter to move is the one before ``next_hunter`` in
  ``order``; the monster moves only after two hunter turns (``hunter_turns``
  0);
- pieces: ``pos`` is a square of the map the piece may stand on (a map
  square, its own suit tile, or another's where the ``suit_tiles`` option
  opens it: never a home square or an unused tile); no two pieces share a
  square;
- coins: ``coin_value`` 0-5; ``coin_loc`` a square of a tile in play, or
  carried or banked by a player, or out of the game (kernel codes);
- the turn: ``steps`` below the mover's allowance (6 for the monster, 4 for a
  hunter, 2 fewer per coin carried, at least 1) while the game goes on;
  ``trail`` holds the ``steps + 1`` squares visited this turn, each a step
  from the one before and none twice, ending on the mover's square, and -1
  after them;
- the end: ``turns`` 0 to ``max_turns``, below it while the game goes on; a
  TERMINATED game has every coin banked (or out), one going on has not; a
  TRUNCATED game reached ``max_turns``;
- chance: ``forced`` -1 or a die face 0-5; ``fight`` -1 (no fight last step;
  the other entries may keep the last fight's values) or an attacker and a
  different defender, two faces and the result those faces give.
"""

from __future__ import annotations

import numpy as np

from azgames.core.game import ONGOING, TERMINATED, TRUNCATED
from azgames.core.state_check import fail_where, in_range

from .board import ENTER_HUNTER, ENTER_MONSTER, MAP, VOID, access_table
from .kernels import (
    ATTACKER_WINS,
    BANKED,
    BOTH_HOME,
    CARRIED,
    COIN_COST,
    DEFENDER_WINS,
    DIE_FACES,
    HUNTER_ALLOWANCE,
    MONSTER,
    MONSTER_ALLOWANCE,
    OUT,
    VALUES,
)


def _map_tables(rules) -> tuple[np.ndarray, np.ndarray]:
    """The map's (S, 4) neighbours and (S,) access bits (who besides the owner
    may enter each square), built once per rules object."""
    cached = rules.__dict__.get("_value_check_tables")
    if cached is None:
        cached = (
            rules.layout.neighbours(),
            access_table(rules.layout, rules.options.get("suit_tiles", "closed")),
        )
        rules.__dict__["_value_check_tables"] = cached
    return cached


def check_values(state, rules) -> None:
    """Raise ValueError naming the field, game, index and value of the first
    value of ``state`` the game cannot hold (see the module docstring)."""
    layout = rules.layout
    n = rules.num_players
    hunters = n - 1
    S = layout.num_squares
    max_turns = rules.max_turns
    slot_of = layout.slot.astype(np.int64)  # (S,) VOID, MAP or the suit slot 0-3
    slot_home = layout.home.astype(np.int64)  # (4,) -1 where the map has no such tile
    neighbours, access = _map_tables(rules)
    games = np.arange(len(state.player))

    # Ranges first: the consistency checks below index with these values.
    in_range(state, "slot_owner", -1, n)
    in_range(state, "home", 0, S)
    in_range(state, "order", 0, n)
    in_range(state, "next_hunter", 0, hunters)
    in_range(state, "hunter_turns", 0, 2)
    in_range(state, "player", 0, n)
    in_range(state, "pos", 0, S)
    in_range(state, "coin_value", 0, VALUES)
    in_range(state, "coin_loc", 0, S + OUT + 1)
    in_range(state, "steps", 0, state.trail.shape[1])
    in_range(state, "trail", -1, S)
    in_range(state, "turns", 0, max_turns + 1)
    in_range(state, "outcome", 0, 3)
    in_range(state, "forced", -1, DIE_FACES)
    fight = state.fight.astype(np.int64)
    for col, (high, what) in enumerate(
        (
            (n, "attacker"),
            (n, "defender"),
            (DIE_FACES, "attacker's roll"),
            (DIE_FACES, "defender's roll"),
            (BOTH_HOME + 1, "result"),
        )
    ):
        fail_where(
            state,
            "fight",
            (np.arange(5) == col) & ((fight < -1) | (fight >= high)),
            f"is out of range [-1, {high}) (the {what})",
        )

    # Suit tiles: the monster's slot 0; each hunter one slot of the map; the rest unused.
    owner = state.slot_owner.astype(np.int64)
    fail_where(
        state, "slot_owner", (np.arange(4) == 0) & (owner != MONSTER), "owns the monster's suit tile (slot 0)"
    )
    fail_where(
        state,
        "slot_owner",
        (np.arange(4) > 0) & (owner == MONSTER),
        "(the monster) owns a hunter's suit tile",
    )
    fail_where(state, "slot_owner", (slot_home < 0) & (owner >= 0), "owns a suit tile the map does not have")
    slots_of = (owner[:, :, None] == np.arange(n)).sum(axis=1)  # (B, P) slots each player owns
    fail_where(
        state,
        "slot_owner",
        slots_of != 1,
        lambda at: f"suit tiles are player {at[1]}'s; each player owns one",
        values=slots_of,
    )
    slot_of_player = np.argmax(owner[:, :, None] == np.arange(n), axis=1)  # (B, P)
    want_home = slot_home[slot_of_player]
    fail_where(
        state,
        "home",
        state.home != want_home,
        lambda at: f"is not the home square {int(want_home[at])} of player {at[1]}'s suit tile",
    )

    # Turn order: hunters 1..h once each, then 0; the player to move follows it.
    order = state.order.astype(np.int64)
    listed = np.arange(order.shape[1]) < hunters
    fail_where(state, "order", ~listed & (order != 0), "is past the last hunter, so it must be 0")
    seen = (order[:, :, None] == np.arange(1, n)).sum(axis=1)  # (B, h)
    fail_where(
        state,
        "order",
        seen != 1,
        lambda at: f"times hunter {at[1] + 1} is in the hunters' turn order; each is once",
        values=seen,
    )
    player = state.player.astype(np.int64)
    before = order[games, (state.next_hunter.astype(np.int64) - 1) % hunters]
    fail_where(
        state,
        "player",
        (player != MONSTER) & (player != before),
        lambda at: f"is to move, but the hunter before next_hunter in the turn order is {int(before[at])}",
    )
    fail_where(
        state,
        "hunter_turns",
        (player == MONSTER) & (state.hunter_turns != 0),
        "is not 0 on the monster's turn (it moves after every two hunter turns)",
    )

    # Pieces: on a square they may stand on; never two on one.
    pos = state.pos.astype(np.int64)
    kind = slot_of[pos]  # (B, P)
    tile_owner = np.where(kind >= 0, owner[games[:, None], np.maximum(kind, 0)], -1)
    role = np.where(np.arange(n) == MONSTER, ENTER_MONSTER, ENTER_HUNTER)[None, :]
    allowed = (kind == MAP) | (
        (kind >= 0) & (tile_owner >= 0) & ((tile_owner == np.arange(n)) | ((access[pos] & role) != 0))
    )
    fail_where(
        state,
        "pos",
        ~allowed,
        lambda at: (
            "is no square of the map"
            if kind[at] == VOID
            else "is on a suit tile not in play"
            if tile_owner[at] < 0
            else f"is on player {int(tile_owner[at])}'s suit tile, closed to player {at[1]}"
        ),
    )
    shared = (pos[:, :, None] == pos[:, None, :]) & (np.arange(n)[:, None] < np.arange(n)[None, :])
    fail_where(
        state,
        "pos",
        shared.any(axis=1),
        lambda at: f"is the square of player {at[1]} and of player {int(np.argmax(shared[at[0], :, at[1]]))}",
    )

    # Coins: on a square of a tile in play, or carried, banked (by a player) or out.
    loc = state.coin_loc.astype(np.int64)
    lying = loc < S
    square_kind = slot_of[np.minimum(loc, S - 1)]
    in_play = (square_kind == MAP) | (
        (square_kind >= 0) & (owner[games[:, None], np.maximum(square_kind, 0)] >= 0)
    )
    fail_where(state, "coin_loc", lying & ~in_play, "is a square of no tile in play")
    code = loc - S
    fail_where(
        state,
        "coin_loc",
        ~lying & (code != OUT) & (code % 4 >= n),
        lambda at: (
            f"is {'carried' if code[at] < BANKED else 'banked'} by player "
            f"{int(code[at] % 4)}, but the game has {n} players"
        ),
    )

    # The turn: steps within the allowance, the trail of squares visited.
    steps = state.steps.astype(np.int64)
    carried = (loc == (S + CARRIED + player)[:, None]).sum(axis=1)
    base = np.where(player == MONSTER, MONSTER_ALLOWANCE, HUNTER_ALLOWANCE)
    allowance = np.maximum(1, base - COIN_COST * carried)
    outcome = state.outcome.astype(np.int64)
    fail_where(
        state,
        "steps",
        (outcome == ONGOING) & (steps >= allowance),
        lambda at: (
            f"squares moved reach the allowance {int(allowance[at])} of player "
            f"{int(player[at])} (carrying {int(carried[at])} coins): its turn is over"
        ),
    )
    fail_where(
        state,
        "steps",
        steps > base,
        lambda at: f"squares moved are more than player {int(player[at])} may move in a turn",
    )
    trail = state.trail.astype(np.int64)
    index = np.arange(trail.shape[1])[None, :]
    visited = index <= steps[:, None]
    fail_where(state, "trail", visited & (trail < 0), "is no square, within the squares visited this turn")
    fail_where(
        state,
        "trail",
        ~visited & (trail != -1),
        "is past the squares visited this turn (steps), so must be -1",
    )
    prev = np.maximum(np.concatenate([trail[:, :1], trail[:, :-1]], axis=1), 0)  # the square before
    adjacent = (neighbours[prev] == trail[:, :, None]).any(axis=2)
    fail_where(
        state,
        "trail",
        visited & (index > 0) & ~adjacent,
        lambda at: f"is not a step from the square {int(trail[at[0], at[1] - 1])} before it",
    )
    again = (trail[:, :, None] == trail[:, None, :]) & (index.T < index) & visited[:, None, :]
    fail_where(
        state, "trail", again.any(axis=1), "is visited twice this turn (a piece may not re-enter a square)"
    )
    last = trail[games, steps]
    fail_where(
        state,
        "trail",
        (last != pos[games, player])[:, None] & (index == steps[:, None]),
        lambda at: (
            f"is the last square visited, but the piece to move is on {int(pos[at[0], player[at[0]]])}"
        ),
    )

    # The end: everything banked ends the game; max_turns truncates it.
    banked = (loc >= S + BANKED).all(axis=1)
    turns = state.turns.astype(np.int64)
    fail_where(
        state,
        "coin_loc",
        (outcome == ONGOING) & banked,
        "(every coin banked) in a game that goes on",
        values=loc[:, 0],
    )
    fail_where(
        state, "outcome", (outcome == TERMINATED) & ~banked, "(TERMINATED) but some coin is not banked"
    )
    fail_where(
        state,
        "turns",
        (outcome == ONGOING) & (turns >= max_turns),
        f"reaches max_turns={max_turns} in a game that goes on",
    )
    fail_where(
        state,
        "outcome",
        (outcome == TRUNCATED) & (turns != max_turns),
        lambda at: f"(TRUNCATED) but turns is {int(turns[at])}, not max_turns={max_turns}",
    )

    # The last fight: two pieces, two faces, the result they give.
    fought = fight[:, 0] >= 0
    attacker, defender, a, d = fight[:, 0], fight[:, 1], fight[:, 2], fight[:, 3]
    result = np.where(
        attacker == MONSTER,
        np.where(a >= d, ATTACKER_WINS, DEFENDER_WINS),
        np.where(
            defender == MONSTER,
            np.where(a > d, ATTACKER_WINS, DEFENDER_WINS),
            np.where(a == d, BOTH_HOME, np.where(a > d, ATTACKER_WINS, DEFENDER_WINS)),
        ),
    )
    column = np.arange(5)[None, :]
    fail_where(
        state,
        "fight",
        fought[:, None] & (column == 1) & ((defender < 0) | (defender == attacker))[:, None],
        "is the defender of a fight: another player than the attacker",
    )
    fail_where(
        state,
        "fight",
        fought[:, None] & ((column == 2) | (column == 3)) & (fight < 0),
        "is a die of a fight: a face 0-5",
    )
    fail_where(
        state,
        "fight",
        fought[:, None] & (column == 4) & (fight != result[:, None]),
        lambda at: f"is not the result {int(result[at[0]])} of the fight's rolls",
    )
