"""The values a :class:`~azimuth_env.coop.rules.CoopState` may hold, checked
before a state from outside reaches the kernels (``CoopRules.check_values``,
called by ``set_state``, ``VectorEnv.set_game`` and game records).

The sea, winds, hands, beaches and castaways of the 4 colours are checked as
in the base game (:func:`azimuth_env.state_check.check_sea`: castaways start
on the island, so none is ``NOT_PLACED``). Then, for every game:

- ranges: ``colour`` (the colour to act) and ``first`` a colour, ``player``
  the agent playing ``colour``; ``ply`` 0 to
  the longest game (4 lighthouses, 4 turns a round, at most 6 wave moves a
  roll); ``outcome`` ONGOING or TERMINATED (a co-op game is never truncated);
  ``round`` 0 to ``rounds``; ``turn`` 0-4; ``face`` and ``rolled`` -1 or a
  face 0-5 (``rolled``, when set, is ``face``); ``asleep`` 0 or 1;
  ``turtle`` -1 or a colour; ``wave`` -1 or a direction 0-3; ``pending`` 0
  or 1; ``forced`` -1 or a face;
- the lighthouses: in round 0 they go down from the first colour clockwise,
  so exactly the colours from ``first`` up to the one before the colour to
  act have one (``turn`` 0, no waves); from round 1 every colour has one;
- the waves' order: while waves are ordered (``wave`` set) the die has been
  rolled (``turn`` 4) and showed a wave, ``wave`` is its direction from the
  roller's side, the roller acts, and some candidate is pending; a pending
  candidate is a bottom raft of the roller's colour; nothing is pending
  otherwise;
- the turn order: outside the waves, from round 1, the colour to act is
  ``first + turn`` clockwise with ``turn`` 0-3, except at the end of a lost
  game (the last round's fourth turn played: ``turn`` 4, ``round`` =
  ``rounds``);
- the end: all four castaways home ends the game (a win); a TERMINATED game
  is won or lost so;
- the mermaid and the turtle never last into the waves' order, and a
  sleeping castaway is not on the island (it may take no castaway action).

Positions the rules allow but no game reaches (the scenario tests draw
them) are accepted: fewer rafts or winds, a turtle or sleepers whatever the
last face, a first colour other than the ``first_player`` option.
"""

from __future__ import annotations

import numpy as np

from azgames.core.game import ONGOING, TERMINATED
from azgames.core.state_check import fail_where, in_range

from ..board import AT_HOME, NUM_POINTS, ON_ISLAND
from ..state_check import check_sea
from .kernels import COLOURS, FACES, WAVE_AWAY, WAVE_TOWARDS

#: Wave moves the team can be asked to order after one roll: one per candidate,
#: a bottom raft of the roller's 6.
MAX_WAVE_STEPS = 6


def longest_game(rounds: int) -> int:
    """Actions in the longest co-op game: lighthouses, colour turns, wave orders."""
    return COLOURS + COLOURS * rounds + MAX_WAVE_STEPS * (rounds - 1)


def check_values(state, rules) -> None:
    """Raise ValueError naming the field, game, index and value of the first
    value of ``state`` the co-op game cannot hold (see the module docstring)."""
    rounds = rules.rounds
    layout = rules.layout
    in_range(state, "colour", 0, COLOURS)
    controller = np.asarray(rules.controller)
    fail_where(
        state,
        "player",
        state.player != controller[state.colour],
        lambda at: f"is not the agent playing colour {int(state.colour[at])}",
    )
    in_range(state, "ply", 0, longest_game(rounds) + 1)
    in_range(state, "outcome", ONGOING, TERMINATED + 1)
    in_range(state, "first", 0, COLOURS)
    in_range(state, "round", 0, rounds + 1)
    in_range(state, "turn", 0, COLOURS + 1)
    in_range(state, "face", -1, FACES)
    in_range(state, "rolled", -1, FACES)
    in_range(state, "asleep", 0, 2)
    in_range(state, "turtle", -1, COLOURS)
    in_range(state, "wave", -1, 4)
    in_range(state, "pending", 0, 2)
    in_range(state, "forced", -1, FACES)
    check_sea(state, layout)

    player = state.colour.astype(np.int64)
    first = state.first.astype(np.int64)
    rnd = state.round.astype(np.int64)
    turn = state.turn.astype(np.int64)
    face = state.face.astype(np.int64)
    wave = state.wave.astype(np.int64)
    outcome = state.outcome.astype(np.int64)
    fail_where(
        state,
        "rolled",
        (state.rolled >= 0) & (state.rolled != state.face),
        lambda at: f"is the face just rolled, but face is {int(face[at])}",
    )

    # The lighthouses: in round 0 from the first colour clockwise, up to the colour to act.
    placed = state.beach >= 0
    colours = np.arange(COLOURS)[None, :]
    before_actor = (colours - first[:, None]) % COLOURS < ((player - first) % COLOURS)[:, None]
    setup = rnd == 0
    fail_where(
        state,
        "beach",
        setup[:, None] & (placed != before_actor),
        lambda at: (
            f"in round 0 with colour {int(player[at[0]])} to act after first colour "
            f"{int(first[at[0]])}: lighthouses go down from the first colour "
            f"clockwise, so {'none' if placed[at] else 'one'} was expected"
        ),
    )
    fail_where(
        state,
        "beach",
        ~setup[:, None] & ~placed,
        lambda at: f"(none) in round {int(rnd[at[0]])}: every lighthouse is placed before round 1",
    )
    fail_where(state, "turn", setup & (turn != 0), "is not 0 while the lighthouses go down")
    fail_where(state, "wave", setup & (wave >= 0), "is set while the lighthouses go down")

    # The waves' order: after a wave face, in its direction from the roller's side.
    roller = (first + rnd - 1) % COLOURS
    side = layout.default_side[roller]
    ordering = wave >= 0
    fail_where(
        state, "turn", ordering & (turn != COLOURS), "is not 4 (the die rolled) while waves are ordered"
    )
    fail_where(
        state,
        "colour",
        ordering & (player != roller),
        lambda at: f"is to act while waves are ordered, but colour {int(roller[at])} rolled",
    )
    fail_where(
        state,
        "face",
        ordering & (face != WAVE_AWAY) & (face != WAVE_TOWARDS),
        "is no wave face, but waves are ordered",
    )
    want = np.where(face == WAVE_TOWARDS, side, (side + 2) % 4)
    fail_where(
        state,
        "wave",
        ordering & (wave != want),
        lambda at: f"is not the direction {int(want[at])} of the wave the roller's face sends",
    )
    pending = state.pending.astype(np.int64)
    fail_where(
        state,
        "pending",
        ordering & (pending.sum(axis=1) == 0),
        "candidates are pending while waves are ordered: there is nothing to choose",
        values=pending.sum(axis=1),
    )
    games = np.arange(len(pending))[:, None]
    points = np.arange(NUM_POINTS)[None, :]
    bottom = np.where(state.height > 0, state.stack[games, points, 0], -1)
    fail_where(
        state,
        "pending",
        (pending != 0) & ~ordering[:, None],
        "marks a wave candidate, but no waves are being ordered",
    )
    fail_where(
        state,
        "pending",
        (pending != 0) & (bottom != roller[:, None]),
        lambda at: (
            f"marks a wave candidate whose bottom raft is "
            f"{'none' if bottom[at] < 0 else f'colour {int(bottom[at])}'}, "
            f"not the roller's {int(roller[at[0]])}"
        ),
    )

    # The turn order: first + turn clockwise; turn 4 only in the waves or at the end of a loss.
    lost = (outcome == TERMINATED) & (turn == COLOURS)
    fail_where(
        state,
        "turn",
        ~setup & ~ordering & (turn == COLOURS) & ~lost,
        "(the die rolled) but no waves are being ordered",
    )
    fail_where(state, "round", lost & (rnd != rounds), f"ended a lost game before the last round {rounds}")
    acting = (first + np.minimum(turn, COLOURS - 1)) % COLOURS
    fail_where(
        state,
        "colour",
        ~setup & ~ordering & (player != acting),
        lambda at: (
            f"is to act, but the colour to act is {int(acting[at])} (first colour "
            f"{int(first[at])}, turn {int(turn[at])})"
        ),
    )

    # The end: all four home wins; a TERMINATED game is won or lost.
    all_home = (state.castaway == AT_HOME).all(axis=1)
    fail_where(
        state,
        "castaway",
        (outcome == ONGOING) & all_home,
        "(all four castaways home) in a game that goes on",
        values=state.castaway[:, 0],
    )
    fail_where(
        state,
        "outcome",
        (outcome == TERMINATED) & ~all_home & ~lost,
        "(TERMINATED) but the game is neither won (all four home) nor lost (last round played)",
    )

    # The mermaid and the turtle end before the die rolls again; sleepers are at sea.
    asleep = state.asleep != 0
    fail_where(
        state,
        "asleep",
        asleep & ordering[:, None],
        "while waves are ordered: the mermaid's sleep ended with the roll",
    )
    fail_where(
        state,
        "asleep",
        asleep & (state.castaway == ON_ISLAND),
        "for a castaway on the island (not in the ocean)",
    )
    fail_where(
        state,
        "turtle",
        (state.turtle >= 0) & ordering,
        "is set while waves are ordered: the turtle left with the roll",
    )
