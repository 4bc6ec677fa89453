r"""Azimuth rule scenarios: one story per example of the rule book
(../shared/rules/azimuth.txt) and one per choice the project made where the
book is silent.

The book's pictures are lost, so every position below is reconstructed to fit
the example's text. Diagrams use the format of :mod:`azimuth_env.diagram`:
point rows 6 down to 1 with the wind-mark rows between them. A point is ``.``
or its stack, bottom raft first (R red, K black, Y blondie, B blue), with
``@`` when the castaway of the top raft's colour stands there. A mark is
``.``, ``#`` (the island) or a wind: colour letter, arrow ``^ > v <``, and its
owner in lower case when that is not the colour's player. Mark c4 (the island
with 2 and 3 players) touches points c4, d4, c5 and d5: the shallows.

With 4 players there is no island (unless ``island=True``) and every castaway
stands on a raft; those diagrams park the castaways in the corners (R@ f6,
K@ a6, Y@ f1, B@ a1), out of the way.
"""

from __future__ import annotations

import re

import pytest

import azgames
from azimuth_env.board import AT_HOME, COLOUR_LETTERS, ON_ISLAND, beach_name, parse_point, point_name

from .helpers import legal_actions, play, position, same_sea, sea

# The reasons the env gives for refusing an action (AzimuthRules.illegal_reason).
HEAD_TO_HEAD = "it would be head to head with a wind of the same colour"
WINDS_IN_HAND = "winds may be turned or moved only once all yours are placed"
NOT_YOUR_WIND = "only your own winds may be moved"
NO_CONTROL = "none of your rafts is next to that wind, so you do not control it"
NO_COCONUT = "turning another player's wind costs a coconut and you have none left"
MOVE_BLOCKED = "a raft stands on the point the diagonal move crosses"
MOVE_OFF_BOARD = "the wind would leave the board"
MARK_TAKEN = "the mark holds a wind or the island"
NO_WIND = "there is no wind on that mark"
NO_WIND_IN_HAND = "you hold no wind of that colour"
NO_RAFT_TO_BOARD = "the top raft on that point of the shallows is not your colour"
NOT_ON_ISLAND = "your castaway is not on the island"
NOT_IN_SHALLOWS = "your castaway is not on a raft in the shallows"
NOT_ON_RAFT = "your castaway is not on a raft"
NO_RAFT_TO_SWIM = "there is no raft of your colour on top of that neighbouring point"
PASS_WHILE_ABLE = "passing is only allowed when no other action is"
SETUP_FIRST = "the lighthouses are being placed: place your beach first"
NOT_YOUR_ZONE = "that beach position is not in your zone"
BEACH_OVERLAPS = "that beach would share a landing spot with a beach already placed"
SETUP_OVER = "your beach is already placed"


# --------------------------------------------------------------------------- helpers


def acting(env) -> str:
    """Colour letter of the player to act."""
    return COLOUR_LETTERS[env.possible_agents.index(env.agent_selection)]


def of_kind(env, kind: str) -> set[str]:
    """The acting player's legal actions of one kind: "place", "turn", "move", "swim", ..."""
    return {a for a in legal_actions(env) if a.split()[0] == kind}


def reason(env, action: str) -> str | None:
    """Why ``action`` is illegal for the acting player (None if it is legal)."""
    u = env.unwrapped
    return u.rules.illegal_reason(u.state, u.str_to_action(action))


def refused(env, action: str, why: str) -> None:
    """Playing ``action`` raises ValueError giving ``why``, and changes nothing."""
    before, actor = sea(env), env.agent_selection
    with pytest.raises(ValueError, match=re.escape(why)):
        play(env, action)
    assert sea(env) == before and env.agent_selection == actor


def castaway(env, letter: str) -> str:
    """Where a castaway is: a point name, "island" or "home"."""
    c = int(env.unwrapped.state.castaway[0, COLOUR_LETTERS.index(letter)])
    return {ON_ISLAND: "island", AT_HOME: "home"}.get(c) or point_name(c)


def coconuts(env, letter: str) -> int:
    return int(env.unwrapped.state.coconuts[0, COLOUR_LETTERS.index(letter)])


def top(env, point: str) -> str:
    """The colour letter of the top raft on ``point`` ("" if none)."""
    s = env.unwrapped.state
    p = parse_point(point)
    h = int(s.height[0, p])
    return COLOUR_LETTERS[s.stack[0, p, h - 1]] if h else ""


def game_over(env) -> bool:
    return all(env.terminations.values())


def won(env, letter: str) -> None:
    """The game is over and ``letter``'s player won: +1 to it, -1 to every other."""
    winner = f"player_{COLOUR_LETTERS.index(letter)}"
    assert game_over(env)
    assert castaway(env, letter) == "home"
    assert env.rewards == {a: (1.0 if a == winner else -1.0) for a in env.possible_agents}
    assert env.infos[winner]["winners"] == [winner]


def new_game(num_players: int, seed: int = 0, **options):
    """A fresh game (lighthouses still to place unless ``options`` say otherwise)."""
    env = azgames.make("azimuth", num_players=num_players, **options)
    env.reset(seed=seed)
    return env


def beaches(env) -> dict[str, str]:
    """Each colour's beach, named by its landing spots."""
    u = env.unwrapped
    return {
        COLOUR_LETTERS[p]: beach_name(u.rules.layout, int(b))
        for p, b in enumerate(u.state.beach[0])
        if b >= 0
    }


def spots(name: str) -> set[str]:
    return set(name.split("-"))


# =========================================================================== Rafts & Winds


def test_rafts_and_winds_rule_1_a_wind_sails_its_colour_at_all_four_corners():
    """Rafts & Winds, rule 1 (the red wind illustration): "A wind affects all
    rafts of that wind's color that are at its adjacent locations" -- the
    four + marks around it. A red raft one mark further away stays."""
    env = position("""
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    R    R    R    .
              .    .    .    .    .
        2  .    .    R    R    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """)
    play(env, "place R c2 N")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    R    R    .    .
              .    .    .    .    .
        3  .    .    R    R    R    .
              .    .    R^   .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert acting(env) == "K"


def test_rafts_and_winds_rule_3_example_1_two_red_rafts_sail_one_leg():
    """Rafts & Winds, rule 3, Example 1: "Placing a red wind at this location
    will result in these two red rafts sailing one leg in the direction of the
    wind." """
    env = position("""
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    R    .    .    .    .
              .    .    .    .    .
        2  .    R    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """)
    play(env, "place R b2 E")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    R    .    .    .
              .    R>   .    .    .
        2  .    .    R    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


def test_rafts_and_winds_rule_3_example_2_only_the_red_raft_sails_blondie_stays():
    """Rafts & Winds, rule 3, Example 2: "Only one red raft is affected by the
    wind. Beige raft (we call Blondie), is not affected by the red wind and
    remains in place." (The red raft on d2 is not next to the wind.)"""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    R    Y    R    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        num_players=3,
    )
    play(env, "place R b1 N")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    R    .    .    .    .
              .    .    .    .    .
        2  .    .    Y    R    .    .
              .    R^   .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


def test_rafts_and_winds_rule_3_example_3_blondie_sails_two_rafts_to_the_right():
    """Rafts & Winds, rule 3, Example 3: "At his/her turn, Blondie player placed
    his/her wind (1). The two affected rafts sail one leg to the right (2)." """
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    Y    .    .    .    .
              .    .    .    .    .
        2  .    .    Y    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        num_players=3,
        to_move="Y",
    )
    play(env, "place Y b2 E")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    Y    .    .    .
              .    Y>   .    .    .
        2  .    .    .    Y    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert acting(env) == "R"  # after the last seat, the first plays again


def test_rafts_and_winds_rule_4_example_1_red_rides_on_top_of_blondie():
    """Rafts & Winds, rule 4, Example 1: "Top red raft rides on top of Blondie's
    raft, which remains in place." Blondie's raft is next to the red wind too,
    but a red wind does not move it."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  R    Y    .    .    .    .
              .    .    .    .    .
        2  R    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        num_players=3,
    )
    play(env, "place R a2 E")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    YR   .    .    .    .
              R>   .    .    .    .
        2  .    R    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


def test_rafts_and_winds_rule_4_example_2_red_rafts_sail_and_stack():
    """Rafts & Winds, rule 4, Example 2: "Red player placed a red wind (1),
    which results in red rafts sailing and stacking" -- each red raft lands on
    top of what it reaches, whatever the height of the stack there."""
    env = position("""
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    K    KK   .
              .    .    .    .    .
        2  .    .    .    R    R    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """)
    play(env, "place R d2 N")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    KR   KKR  .
              .    .    .    R^   .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


def test_rafts_and_winds_rule_4_example_3_black_stacks_on_top_of_the_others():
    """Rafts & Winds, rule 4, Example 3: "Black player placed his/her wind (1).
    Black raft sails accordingly and is stacked on top of the other rafts (2)." """
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    K    RR   .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        to_move="K",
    )
    play(env, "place K b1 E")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    RRK  .    .
              .    K>   .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert acting(env) == "R"


def test_rafts_and_winds_rule_5_example_1_red_carries_blue_and_covers_blondie():
    """Rafts & Winds, rule 5, Example 1: "Red's left raft carries Blue's raft,
    and the right [red] raft covers Blondie's raft since it remained in place."
    The wind moves the top-most red raft of each stack with what rides on it;
    Blondie's raft, also next to the red wind, stays."""
    env = position(
        """
           a    b    c    d    e    f
        6  K@   .    .    .    .    R@
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    Y    .    .    .
              .    .    .    .    .
        2  .    RB   R    .    .    .
              .    .    .    .    .
        1  B@   .    .    .    .    Y@
    """,
        num_players=4,
    )
    play(env, "place R b2 N")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  K@   .    .    .    .    R@
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    RB   YR   .    .    .
              .    R^   .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  B@   .    .    .    .    Y@
    """,
    ), sea(env)
    assert acting(env) == "K"


def test_rafts_and_winds_rule_5_example_2_blondies_stack_moves_whole_onto_black():
    """Rafts & Winds, rule 5, Example 2: "Blondie sails 3 rafts. The bottom left
    raft carries the rafts stacked on it and the whole stack moves on top of the
    black raft." The black raft is next to the wind too, and stays."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    Y    Y    .    .    .
              .    .    .    .    .
        2  .    YRK  K    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        num_players=3,
        to_move="Y",
    )
    play(env, "place Y b2 E")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    Y    Y    .    .
              .    Y>   .    .    .
        2  .    .    KYRK .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


def test_rafts_and_winds_rule_6_example_1_red_stacks_on_the_other_red_raft():
    """Rafts & Winds, rule 6, Example 1: "The affected raft is stacked on the
    other red raft." (The other red raft is not next to the wind.)"""
    env = position("""
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    R    R    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """)
    play(env, "place R a2 E")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    RR   .    .    .
              R>   .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


def test_rafts_and_winds_rule_6_example_2_only_the_top_red_raft_moves():
    """Rafts & Winds, rule 6, Example 2: "Red player has two red rafts stacked.
    ... Only the red top raft is moving, and the stack is 'broken'." """
    env = position("""
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    RR   .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """)
    play(env, "place R a2 W")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  R    R    .    .    .    .
              R<   .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


def test_rafts_and_winds_rule_6_example_3_blondie_breaks_a_stack_under_red():
    """Rafts & Winds, rule 6, Example 3: "Blondie's left stack is moved as a
    whole (carrying the black raft). The stack on the right consists of two of
    Blondie's rafts and a red raft on top. Blondie's stack is 'broken' -- bottom
    raft remains in place." """
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    YK   YYR  .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        num_players=3,
        to_move="Y",
    )
    play(env, "place Y b1 N")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    YK   YR   .    .    .
              .    .    .    .    .
        2  .    .    Y    .    .    .
              .    Y^   .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


def test_rafts_and_winds_rule_7_example_no_head_to_head_placement():
    """Rafts & Winds, rule 7, Example: "It is Blondie's turn. Blondie cannot
    place a wind at a 'head to head' situation and has to take a different
    action. Note: Blondie can place his/her wind at that location as long as
    winds are not opposite to each other (tip to tip)." Only winds of the same
    colour count: tip to tip with the red wind on d2 is fine."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    Y>   .    R<   .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        num_players=3,
        to_move="Y",
    )
    on_c2 = {a for a in of_kind(env, "place") if a.split()[2] == "c2"}
    assert on_c2 == {"place Y c2 N", "place Y c2 E", "place Y c2 S"}
    assert reason(env, "place Y c2 W") == HEAD_TO_HEAD
    refused(env, "place Y c2 W", HEAD_TO_HEAD)
    play(env, "place Y c2 E")  # tip to tip with red's wind: allowed
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    Y>   Y>   R<   .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


# =========================================================================== Castaways


def test_castaways_rule_3a_a_wind_sails_the_castaway_with_its_raft():
    """Castaways, rule 3A: "Red placed a red wind (1). This will result in such
    movements of Red's rafts, where one is carrying and advancing the castaway
    (2)." """
    env = position("""
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  R@   .    .    .    .    .
              .    .    .    .    .
        2  R    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """)
    play(env, "place R a2 E")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    R@   .    .    .    .
              R>   .    .    .    .
        2  .    R    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert castaway(env, "R") == "b3"


def test_castaways_rule_3b_example_swimming_options():
    """Castaways, rule 3B, Example: "the red castaway has a couple of swimming
    options. Note the rafts marked with an X are not an option. One is a
    diagonal movement, and one is too far ... When swimming from raft to raft,
    rafts remain in place, only the castaway moves. You can also move to a
    stack of rafts as long as the upper raft is of your color."

    From c2: north to the red raft on c3, east to the stack on d2 topped by red.
    Not d3 (diagonal), not a2 (too far), not b2 (black on top)."""
    env = position("""
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    R    R    .    .
              .    .    .    .    .
        2  R    RK   R@   KR   .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """)
    assert of_kind(env, "swim") == {"swim N", "swim E"}
    assert reason(env, "swim W") == NO_RAFT_TO_SWIM
    assert reason(env, "swim S") == NO_RAFT_TO_SWIM
    play(env, "swim E")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    R    R    .    .
              .    .    .    .    .
        2  R    RK   R    KR@  .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert acting(env) == "K"  # swimming was red's whole turn


def test_castaways_rule_4_example_boarding_only_where_the_top_raft_is_yours():
    """Castaways, rule 4, Example: "Both red and black are still on the island.
    Red can board a raft and leave the island. Note he/she can board only the
    right red raft -- where the red raft is clear (the other red raft is under
    Blondie's raft and not at the top). Black, on the other hand, can't leave
    the island at this time since he/she doesn't have a raft in the shallows.
    Remember: Getting on the raft is that players' action for this turn."

    The shallows are c4, d4, c5 and d5; black's raft on e4 is just outside."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    RY   R    K    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        num_players=3,
    )
    assert of_kind(env, "board") == {"board d4"}
    assert reason(env, "board c4") == NO_RAFT_TO_BOARD
    play(env, "board d4")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    RY   R@   K    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert castaway(env, "R") == "d4"
    assert acting(env) == "K"
    assert of_kind(env, "board") == set()
    assert reason(env, "board c5") == NO_RAFT_TO_BOARD


def test_castaways_rule_4_a_castaway_may_return_to_the_island():
    """Castaways, rule 4: "(you can also return to the island if you wish to do
    so)" -- from a raft in the shallows, as the whole turn; its raft stays."""
    env = position("""
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    R@   .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """)
    assert "home" in legal_actions(env)
    play(env, "home")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    R    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert castaway(env, "R") == "island"
    assert acting(env) == "K"


def test_castaways_rule_5_example_rafts_stack_beneath_a_castaway():
    """Castaways, rule 5, Example: "Black placed his/her wind (1) ... Black raft
    carries Blondie's raft which is on top of it. Both rafts are stacked under
    the red raft since the red castaway is on it." """
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    R@   .    .    .
              .    .    .    .    .
        2  .    .    KY   .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        num_players=3,
        to_move="K",
    )
    play(env, "place K c1 N")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    KYR@ .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    K^   .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert castaway(env, "R") == "c3"


def test_castaways_rule_6_example_a_castaway_blocks_another_castaways_raft():
    """Castaways, rule 6, Example: "If Black placed a wind as shown below,
    his/her raft and the castaway will remain in place (Red blocks this
    movement)." Only the blocked raft stays: black's other raft sails."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    R@   .    .    .
              .    .    .    .    .
        2  .    .    K@   K    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        to_move="K",
    )
    play(env, "place K c1 N")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    R@   K    .    .
              .    .    .    .    .
        2  .    .    K@   .    .    .
              .    .    K^   .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert acting(env) == "R"


# =========================================================================== Phase 2, wind changes


def test_phase_2_turn_example_blue_turns_counter_clockwise():
    """Phase 2, 1. Turn a wind, Example: "It is Blue's turn. Blue chooses to
    turn his/her wind 90 degrees counter-clockwise (1), and the blue raft would
    sail in this new direction." Turning one's own wind is free."""
    env = position(
        """
           a    b    c    d    e    f
        6  K@   .    .    .    .    R@
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    B    .    .    .
              .    .    B^   .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  B@   .    .    .    .    Y@
    """,
        num_players=4,
        to_move="B",
        hands={"B": (0, 0)},
    )
    play(env, "turn c2 ccw")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  K@   .    .    .    .    R@
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    B    .    .    .    .
              .    .    B<   .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  B@   .    .    .    .    Y@
    """,
    ), sea(env)
    assert coconuts(env, "B") == 4
    assert acting(env) == "R"


def test_phase_2_move_example_1_diagonal_blocked_by_a_raft_then_move_south_east():
    """Phase 2, 2. Move a wind, Example 1: "Red can move his wind to the wind
    locations marked with green arrows (1). Note the diagonal move to the bottom
    left is denied by the presence of the blue raft. Red chooses to move
    diagonally to the bottom right which will result in such raft's sailing
    (2). Both red rafts are affected and sail accordingly." A moved wind keeps
    its direction."""
    env = position(
        """
           a    b    c    d    e    f
        6  K@   .    .    .    .    R@
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    R^   .    .
        3  .    .    B    .    .    .
              .    .    .    .    .
        2  .    .    .    R    R    .
              .    .    .    .    .
        1  B@   .    .    .    .    Y@
    """,
        num_players=4,
        hands={"R": (0, 0)},
    )
    assert of_kind(env, "move") == {f"move c3 {d}" for d in ("N", "NE", "E", "SE", "S", "W", "NW")}
    assert reason(env, "move c3 SW") == MOVE_BLOCKED
    play(env, "move c3 SE")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  K@   .    .    .    .    R@
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    B    R    R    .
              .    .    .    R^   .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  B@   .    .    .    .    Y@
    """,
    ), sea(env)


def test_phase_2_move_example_2_moving_left_sails_only_the_castaways_raft():
    """Phase 2, 2. Move a wind, Example 2: "Red moves his/her wind one leg to
    the left. This has effect only on the raft carrying the castaway which
    sailed one leg to the left." The red raft on e3 was next to the wind's old
    mark, not its new one; the black raft on d3 is not red."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    R@   K    R    .
              .    .    .    R<   .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        hands={"R": (0, 0)},
    )
    play(env, "move d2 W")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    R@   .    K    R    .
              .    .    R<   .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


# =========================================================================== Wind Control


def test_wind_control_illustration_blue_raft_controls_the_black_and_red_winds():
    """Wind Control (the blue raft illustration): "blue player has control of
    his/her winds, as always, but also has control on the black and red winds
    since they are both adjacent to the blue raft". Blondie's wind on a4 is
    not next to a blue raft; and another's wind may be turned, never moved."""
    env = position(
        """
           a    b    c    d    e    f
        6  K@   .    .    .    .    R@
              .    .    .    .    .
        5  .    .    .    .    .    .
              Y<   .    .    .    Bv
        4  .    .    .    .    .    .
              .    K>   .    .    .
        3  .    .    B    .    .    .
              .    .    R^   .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  B@   .    .    .    .    Y@
    """,
        num_players=4,
        to_move="B",
        hands={"B": (0, 0)},
    )
    assert of_kind(env, "turn") == {
        "turn e4 cw",
        "turn e4 ccw",
        "turn b3 cw",
        "turn b3 ccw",
        "turn c2 cw",
        "turn c2 ccw",
    }
    assert {a.split()[1] for a in of_kind(env, "move")} == {"e4"}
    assert reason(env, "turn a4 cw") == NO_CONTROL
    assert reason(env, "move b3 N") == NOT_YOUR_WIND


def test_wind_control_example_1_blondie_turns_the_blue_wind():
    """Wind Control, Example 1: "it is Blondie's turn to play. Blondie's raft
    gives the Blondie player control over two more winds other than his/her own
    -- blue and red winds, since they are adjacent to Blondie's raft ...
    Blondie can turn these winds if he/she chooses. Rafts will then sail
    accordingly." Turning the blue wind sails the blue raft, and costs Blondie
    a coconut."""
    env = position(
        """
           a    b    c    d    e    f
        6  K@   .    .    .    .    R@
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    B    .    .    .
              .    .    B>   .    .
        3  .    .    .    Y    .    .
              Y^   .    .    Rv   .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  B@   .    .    .    .    Y@
    """,
        num_players=4,
        to_move="Y",
        hands={"Y": (0, 0)},
    )
    assert of_kind(env, "turn") == {
        "turn a2 cw",
        "turn a2 ccw",
        "turn c3 cw",
        "turn c3 ccw",
        "turn d2 cw",
        "turn d2 ccw",
    }
    play(env, "turn c3 cw")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  K@   .    .    .    .    R@
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    Bv   .    .
        3  .    .    B    Y    .    .
              Y^   .    .    Rv   .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  B@   .    .    .    .    Y@
    """,
    ), sea(env)
    assert coconuts(env, "Y") == 3
    assert coconuts(env, "B") == 4


def test_wind_control_example_2_a_red_raft_anywhere_in_the_stack_gives_control():
    """Wind Control, Example 2: "it is Red's turn to play. Red can turn his/her
    wind, as always, but can also turn Blondie's and Blue's winds, since there
    is a red raft in the stack and these winds are at the raft's adjacent wind
    locations." Here the red raft is at the bottom of the stack. Turning
    Blondie's wind sails the blondie raft (and the blue one riding on it)."""
    env = position(
        """
           a    b    c    d    e    f
        6  K@   .    .    .    .    R@
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    Y>   .    .    .
        3  .    .    RYB  .    .    .
              .    .    B^   .    R<
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  B@   .    .    .    .    Y@
    """,
        num_players=4,
        hands={"R": (0, 0)},
    )
    assert of_kind(env, "turn") == {
        "turn e2 cw",
        "turn e2 ccw",
        "turn b3 cw",
        "turn b3 ccw",
        "turn c2 cw",
        "turn c2 ccw",
    }
    play(env, "turn b3 ccw")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  K@   .    .    .    .    R@
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    YB   .    .    .
              .    Y^   .    .    .
        3  .    .    R    .    .    .
              .    .    B^   .    R<
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  B@   .    .    .    .    Y@
    """,
    ), sea(env)
    assert coconuts(env, "R") == 3


# =========================================================================== Getting home -- landing


# Black's castaway on its landing spot d1, its wind on c1 blowing east.
LANDING_EXAMPLE_1 = """
       a    b    c    d    e    f
    6  .    .    .    .    .    .
          .    .    .    .    .
    5  .    .    .    .    .    .
          .    .    #    .    .
    4  .    .    .    .    .    .
          .    .    .    .    .
    3  .    .    .    .    .    .
          .    .    .    .    .
    2  .    .    .    .    .    .
          .    .    K>   .    .
    1  .    .    .    K@   .    .
"""


def test_landing_example_1_black_rotates_a_wind_and_lands():
    """Getting home -- landing, Example 1: "Black successfully sailed his/her
    castaway to one of his/landing spots (1). At his/her next turn, Black can
    now rotate his/her wind and land the castaway on to the beach/lighthouse --
    and win the game!" Black's beach covers d1-e1; the raft stays behind."""
    env = position(LANDING_EXAMPLE_1, to_move="K", beaches={"K": "d1-e1"}, hands={"K": (0, 0)})
    assert not game_over(env)
    play(env, "turn c1 cw")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    Kv   .    .
        1  .    .    .    K    .    .
    """,
    ), sea(env)
    won(env, "K")


def test_landing_example_2_moving_a_wind_lands_but_turning_the_other_does_not():
    """Getting home -- landing, Example 2: "Black can move a wind, and land the
    castaway on to the beach/lighthouse -- and win the game! Note: if black had
    rotated the other black wind (to the left of the one he/she moved) the
    castaway would not land on the beach..." The other wind blows north: a
    quarter turn either way sails the castaway along the shore, not onto it."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    Kv   .
        2  .    .    .    .    .    .
              .    .    K^   .    .
        1  .    .    .    K@   .    .
    """,
        to_move="K",
        beaches={"K": "d1-e1"},
        hands={"K": (0, 0)},
    )
    cw = env.clone()
    play(cw, "turn c1 cw")
    assert not game_over(cw)
    assert same_sea(
        cw,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    Kv   .
        2  .    .    .    .    .    .
              .    .    K>   .    .
        1  .    .    .    .    K@   .
    """,
    ), sea(cw)
    ccw = env.clone()
    play(ccw, "turn c1 ccw")
    assert not game_over(ccw)
    assert castaway(ccw, "K") == "c1"

    play(env, "move d2 S")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    K^   Kv   .
        1  .    .    .    K    .    .
    """,
    ), sea(env)
    won(env, "K")


# =========================================================================== choices: sailing


def test_only_the_wind_just_placed_sails():
    """Only the wind placed (turned, moved) makes rafts sail: the red wind
    already on b2 does not blow again when another red wind is placed."""
    env = position("""
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    R    .    .    .
              .    R^   .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """)
    play(env, "place R e1 N")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    R    .    .    .
              .    R^   .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    R^
        1  .    .    .    .    .    .
    """,
    ), sea(env)


def test_rafts_in_line_with_the_wind_sail_together_without_stacking():
    """The rafts at a wind's corners sail all at once: the raft in front moves
    out of the way, so the one behind takes its place instead of stacking."""
    env = position("""
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    R    R    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """)
    play(env, "place R b1 E")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    R    R    .    .
              .    R>   .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


def test_a_raft_pushed_off_the_board_stays_and_the_one_behind_stacks_on_it():
    """A raft pushed off the board (without landing a castaway) stays where it
    is; the raft behind it, sailing at the same time, stacks on top of it."""
    env = position("""
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    R    R
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """)
    play(env, "place R e2 E")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    RR
              .    .    .    .    R>
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


def test_a_castaway_rides_along_when_a_raft_beneath_it_sails():
    """A wind sails the top-most raft of its colour with everything above it:
    a black wind under the red castaway's raft carries the red castaway."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    KR@  .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        to_move="K",
    )
    play(env, "place K c1 N")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    KR@  .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    K^   .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert castaway(env, "R") == "c3"


def test_a_raft_carrying_any_castaway_is_blocked_by_another_castaway():
    """The castaway block holds whatever castaway the moving part carries: the
    black raft under the red castaway cannot join the black castaway on c3,
    while black's raft on d2 sails."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    K@   .    .    .
              .    .    .    .    .
        2  .    .    KR@  K    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        to_move="K",
    )
    play(env, "place K c1 N")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    K@   K    .    .
              .    .    .    .    .
        2  .    .    KR@  .    .    .
              .    .    K^   .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


# =========================================================================== choices: landing


def test_landing_needs_one_of_the_castaways_landing_spots():
    """Pushed off the board towards its beach from a point that is not one of
    its landing spots (c1, beach d1-e1), the castaway's raft just stays."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    K@   .    .    .
    """,
        to_move="K",
        beaches={"K": "d1-e1"},
    )
    play(env, "place K b1 S")
    assert not game_over(env)
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    Kv   .    .    .
        1  .    .    K@   .    .    .
    """,
    ), sea(env)
    assert acting(env) == "R"


def test_landing_needs_no_particular_wind_colour_the_issues_reproduction():
    """Getting home: a wind "applied in the direction of the lighthouse/beach"
    gives "the castaway and his/her raft a last push to shore", and (Rafts &
    Winds, rule 5) "if the raft affected is the bottom one, the whole stack
    moves". Red's beach is a1-b1; b1 holds a black raft under red's raft and
    castaway. Black places a black wind pushing b1 south: the whole stack is
    pushed towards red's beach, so red lands and wins on black's turn."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    KR@  .    .    .    .
    """,
        to_move="K",
        beaches={"R": "a1-b1", "K": "d1-e1"},
    )
    play(env, "place K a1 S")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              Kv   .    .    .    .
        1  .    KR   .    .    .    .
    """,
    ), sea(env)
    won(env, "R")


def test_landing_by_a_wind_of_another_colour_moving_a_raft_beneath_the_castaway():
    """The same with a raft lower in the stack: a red wind pushing the red raft
    under black's raft and castaway off black's landing spot d1 towards its
    beach carries black home; black wins on red's turn."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    RK@  .    .
    """,
        beaches={"K": "d1-e1"},
    )
    play(env, "place R c1 S")
    assert castaway(env, "K") == "home"
    won(env, "K")


def test_two_castaways_landed_by_one_wind_share_the_win():
    """One wind can push two castaways from their landing spots onto their
    beaches at once (3 players: red's beach a1-b1, black's c1-d1). The first
    home wins; landing together, both win (+1 each), the third loses."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    YR@  YK@  .    .    .
    """,
        num_players=3,
        to_move="Y",
        beaches={"R": "a1-b1", "K": "c1-d1", "Y": "e1-f1"},
    )
    play(env, "place Y b1 S")
    assert castaway(env, "R") == castaway(env, "K") == "home"
    assert game_over(env)
    assert env.rewards == {"player_0": 1.0, "player_1": 1.0, "player_2": -1.0}
    assert env.infos["player_2"]["winners"] == ["player_0", "player_1"]


def test_two_players_landing_together_is_a_draw():
    """With 2 players both castaways landing on the same wind is a draw: 0 each."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    R@   RK@  .    .    .
    """,
        beaches={"R": "a1-b1", "K": "c1-d1"},
    )
    play(env, "place R b1 S")
    assert castaway(env, "R") == castaway(env, "K") == "home"
    assert game_over(env)
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}


def test_landing_goes_by_the_winds_colour_not_its_owner():
    """With 2 players red holds one black wind. Placed so that it pushes the
    black castaway from its landing spot onto its beach, it lands black: black
    wins and red loses."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    K@   .    .
    """,
        beaches={"K": "d1-e1"},
    )
    play(env, "place K c1 S")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    Kvr  .    .
        1  .    .    .    K    .    .
    """,
    ), sea(env)
    won(env, "K")


def test_landing_on_a_side_beach_needs_the_wind_towards_it():
    """With 3 players a beach may lie on a side of the board: Blondie's covers
    a1-a2 on the west side. From a1, a wind pushing south (off the board, but
    away from the beach) leaves the raft in place; a wind pushing west lands."""
    before = """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  Y@   .    .    .    .    .
    """
    env = position(before, num_players=3, to_move="Y", beaches={"Y": "a1-a2"})
    play(env, "place Y a1 S")
    assert not game_over(env)
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              Yv   .    .    .    .
        1  Y@   .    .    .    .    .
    """,
    ), sea(env)

    env = position(before, num_players=3, to_move="Y", beaches={"Y": "a1-a2"})
    play(env, "place Y a1 W")
    won(env, "Y")


# =========================================================================== choices: winds


def test_head_to_head_only_restricts_placing():
    """Head to head is forbidden only when placing (the book: "The only
    restriction during phase 1"): in phase 2 a wind may be turned, or moved,
    tip to tip with another of its colour."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    R>   Rv   .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        hands={"R": (0, 0)},
    )
    play(env, "turn c2 cw")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    R>   R<   .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)

    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    R>   .    R<   .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        hands={"R": (0, 0)},
    )
    play(env, "move d2 W")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    R>   R<   .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


def test_two_players_each_hold_one_wind_of_the_opponents_colour():
    """2 players setup, 1: "6 winds of his/her color and 1 wind of the
    opponent's color". Red placing a black wind sails black rafts, and the wind
    stays red's (drawn ``K^r``); once it is placed, red places red winds only."""
    env = position("""
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    K    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """)
    assert {a.split()[1] for a in of_kind(env, "place")} == {"R", "K"}
    play(env, "place K b1 N", "place R e5 N")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    R^k
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    K    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    K^r  .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert {a.split()[1] for a in of_kind(env, "place")} == {"R"}
    assert reason(env, "place K a1 N") == NO_WIND_IN_HAND


def test_a_winds_owner_moves_it_whatever_its_colour():
    """Phase 2: a wind belongs to whoever placed it. Red may turn and move the
    black wind it placed (turning it sails black rafts); the red wind black
    placed is black's: red may not move it, and may turn it only with a red
    raft next to it (there is none)."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    R
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    R^k
        2  .    K    .    .    .    .
              .    K^r  .    .    .
        1  .    .    .    .    .    .
    """,
        hands={"R": (0, 0), "K": (0, 0)},
    )
    assert of_kind(env, "turn") == {"turn b1 cw", "turn b1 ccw"}
    assert {a.split()[1] for a in of_kind(env, "move")} == {"b1"}
    assert reason(env, "move e2 N") == NOT_YOUR_WIND
    assert reason(env, "turn e2 cw") == NO_CONTROL
    play(env, "turn b1 cw")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    R
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    R^k
        2  .    .    K    .    .    .
              .    K>r  .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


def test_no_turning_or_moving_while_winds_remain_in_hand():
    """Phase 2: "Players are not allowed to move or turn winds as long as they
    still have winds to place." With 2 players the opponent-colour wind counts;
    wind control waits too. Once red places it, red's next turn is phase 2."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    R    .    .
              .    R>   .    K<   .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        hands={"R": (0, 1)},
    )
    assert of_kind(env, "turn") == of_kind(env, "move") == set()
    assert {a.split()[1] for a in of_kind(env, "place")} == {"K"}
    assert reason(env, "turn b2 cw") == WINDS_IN_HAND
    assert reason(env, "move b2 S") == WINDS_IN_HAND
    assert reason(env, "turn d2 cw") == WINDS_IN_HAND  # black's wind, next to red's raft
    refused(env, "turn b2 cw", WINDS_IN_HAND)
    play(env, "place K a5 N")  # red's last wind: the black one
    play(env, "place K e5 N")  # black's turn
    assert acting(env) == "R"
    assert {"turn b2 cw", "turn b2 ccw", "turn d2 cw", "turn d2 ccw"} <= of_kind(env, "turn")
    assert "move b2 S" in of_kind(env, "move")
    assert of_kind(env, "place") == set()


def test_wind_moves_orthogonal_never_blocked_targets_empty_and_on_the_board():
    """Phase 2, 2: a wind moves one mark in 8 directions to an empty mark (not
    the island, not off the board). A diagonal move is blocked by a raft on the
    point it crosses; an orthogonal one never is, even between two rafts."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    R>   .    .
        3  .    K    K    .    .    .
              .    R^   .    .    .
        2  .    K    K    .    .    .
              Rv   .    .    .    .
        1  .    .    .    .    .    .
    """,
        hands={"R": (0, 0)},
    )
    assert {a for a in of_kind(env, "move") if a.split()[1] == "b2"} == {
        "move b2 N",
        "move b2 E",
        "move b2 S",
        "move b2 W",
    }
    assert reason(env, "move b2 NW") == MOVE_BLOCKED
    assert reason(env, "move b2 SE") == MOVE_BLOCKED
    assert reason(env, "move b2 NE") == MARK_TAKEN  # red's wind on c3
    assert reason(env, "move c3 N") == MARK_TAKEN  # the island
    assert reason(env, "move a1 SW") == MOVE_OFF_BOARD
    play(env, "move b2 E")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    R>   .    .
        3  .    K    K    .    .    .
              .    .    R^   .    .
        2  .    K    K    .    .    .
              Rv   .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


def test_control_needs_a_raft_of_your_colour_in_a_stack_next_to_the_wind():
    """Wind Control: "You gain control over your opponent's winds when any of
    your rafts are adjacent to these winds ... all the rafts in a stack give
    their players control". Red's raft at the bottom of e3 gives control of the
    black wind on d2; nothing red touches the black wind on b4. With 2 players
    there are no coconuts: control is free."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    R
              .    K^   #    .    .
        4  .    .    K    .    .    .
              .    .    .    .    .
        3  .    .    .    .    RK   .
              .    .    .    K>   .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        hands={"R": (0, 0)},
    )
    assert of_kind(env, "turn") == {"turn d2 cw", "turn d2 ccw"}
    assert reason(env, "turn b4 cw") == NO_CONTROL
    play(env, "turn d2 cw")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    R
              .    K^   #    .    .
        4  .    .    K    .    .    .
              .    .    .    .    .
        3  .    .    .    .    R    .
              .    .    .    Kv   .
        2  .    .    .    .    K    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert coconuts(env, "R") == 0


def test_coconuts_pay_for_wind_control_and_run_out():
    """Coconut tokens: "Each time a player chooses to turn another player's wind
    it 'costs' him/her ... one coconut token". Turning one's own wind is free;
    with no coconut left, control is gone but one's own winds still turn."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    Y>   .    .    .
        2  .    .    R    .    .    .
              .    .    .    .    R^
        1  .    .    .    .    .    .
    """,
        num_players=3,
        hands={"R": (0, 0)},
        coconuts_left={"R": 1},
    )
    play(env, "turn e1 cw")  # red's own wind: free
    assert coconuts(env, "R") == 1
    play(env, "place K a5 N", "place Y e5 N")
    assert "turn b2 cw" in of_kind(env, "turn")
    play(env, "turn b2 cw")  # Blondie's wind, controlled by red's raft on c2
    assert coconuts(env, "R") == 0
    play(env, "place K a4 E", "place Y e4 W")
    assert of_kind(env, "turn") == {"turn e1 cw", "turn e1 ccw"}
    assert reason(env, "turn b2 cw") == NO_COCONUT
    refused(env, "turn b2 ccw", NO_COCONUT)
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              K^   .    .    .    Y^
        5  .    .    .    .    .    .
              K>   .    #    .    Y<
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    Yv   .    .    .
        2  .    .    R    .    .    .
              .    .    .    .    R>
        1  .    .    .    .    .    .
    """,
    ), sea(env)


def test_two_players_play_without_coconuts_unless_asked():
    """Coconut tokens "are recommended to be used in 3 & 4 player games only":
    with 2 players control is free by default, and costs a coconut with
    ``coconuts=True``."""
    diagram = """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    .    .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    K>   .    .    .
        2  .    .    R    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """
    free = position(diagram, hands={"R": (0, 0)})
    assert coconuts(free, "R") == 0 and "turn b2 cw" in of_kind(free, "turn")
    play(free, "turn b2 cw")
    assert coconuts(free, "R") == 0

    paid = position(diagram, hands={"R": (0, 0)}, coconuts=True)
    assert coconuts(paid, "R") == 4
    play(paid, "turn b2 cw")
    assert coconuts(paid, "R") == 3


def test_pass_only_when_nothing_else_is_legal():
    """A player with no wind to place or turn, no wind in reach and no raft to
    board (red is under black on c4) can only pass; whoever can act may not."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    R
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    #    .    .
        4  .    .    RK   .    .    .
              .    .    .    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              K^   .    .    .    .
        1  .    .    .    .    .    .
    """,
        hands={"R": (0, 0)},
    )
    assert legal_actions(env) == {"pass"}
    play(env, "pass")
    assert acting(env) == "K"
    assert "pass" not in legal_actions(env)
    assert reason(env, "pass") == PASS_WHILE_ABLE
    refused(env, "pass", PASS_WHILE_ABLE)


# =========================================================================== choices: lighthouses


def test_lighthouses_two_players_last_seat_first_at_least_one_leg_apart():
    """2 players setup, 4: the first player places the lighthouse anywhere
    along the side opposite the island; "The second player ... has to be one
    leg away" (Example 1: black first, then red, one leg between them); "The
    second player to place their lighthouse during setup is the first to
    move." Black (player_1) places first, red (player_0) second and moves
    first; a beach may not share a landing spot with one already placed."""
    env = new_game(2)
    assert acting(env) == "K"
    assert of_kind(env, "beach") == {
        "beach a1-b1",
        "beach b1-c1",
        "beach c1-d1",
        "beach d1-e1",
        "beach e1-f1",
    }
    assert legal_actions(env) == of_kind(env, "beach")
    assert reason(env, "place R b2 N") == SETUP_FIRST
    play(env, "beach c1-d1")
    assert acting(env) == "R"
    assert legal_actions(env) == {"beach a1-b1", "beach e1-f1"}
    assert reason(env, "beach b1-c1") == BEACH_OVERLAPS
    refused(env, "beach d1-e1", BEACH_OVERLAPS)
    play(env, "beach a1-b1")
    assert beaches(env) == {"R": "a1-b1", "K": "c1-d1"}
    assert acting(env) == "R"
    assert of_kind(env, "beach") == set()
    assert reason(env, "beach e1-f1") == SETUP_OVER
    assert {a.split()[0] for a in legal_actions(env)} == {"place"}


def test_lighthouses_three_players_may_use_the_side_zones():
    """3 players setup, 3-4: lighthouses may also go on "a portion of the sides
    of the board" (here a1-a2, a2-a3, f1-f2, f2-f3), at least a leg apart, and
    "Playing order is in the reverse order in which players placed their
    lighthouses": Blondie, black, red place; red, black, Blondie play."""
    env = new_game(3)
    assert acting(env) == "Y"
    south = {"beach a1-b1", "beach b1-c1", "beach c1-d1", "beach d1-e1", "beach e1-f1"}
    sides = {"beach a1-a2", "beach a2-a3", "beach f1-f2", "beach f2-f3"}
    assert legal_actions(env) == south | sides
    play(env, "beach a2-a3")  # "as closest allowed to the island"
    assert acting(env) == "K"
    assert legal_actions(env) == (south | sides) - {"beach a1-a2", "beach a2-a3"}
    play(env, "beach e1-f1")
    assert acting(env) == "R"
    assert legal_actions(env) == {"beach a1-b1", "beach b1-c1", "beach c1-d1", "beach f2-f3"}
    play(env, "beach f2-f3")
    assert beaches(env) == {"R": "f2-f3", "K": "e1-f1", "Y": "a2-a3"}
    assert acting(env) == "R"
    play(env, "place R a1 N")
    assert acting(env) == "K"
    play(env, "place K a2 N")
    assert acting(env) == "Y"


def test_lighthouses_four_players_each_on_its_side_castaway_on_the_fifth_raft():
    """4 players setup, 3-4: each player places "on their side of the board"
    with 3 landing spots, then "places their castaway on their remaining 5th
    raft exactly opposite to the lighthouses' location at the other side of
    the board". Seats take sides S, W, N, E; blue places first, red last."""
    env = new_game(4)
    assert acting(env) == "B"
    assert legal_actions(env) == {"beach f1-f2-f3", "beach f2-f3-f4", "beach f3-f4-f5", "beach f4-f5-f6"}
    assert reason(env, "beach a1-b1-c1") == NOT_YOUR_ZONE
    play(env, "beach f2-f3-f4")
    assert castaway(env, "B") == "a3" and top(env, "a3") == "B"
    assert acting(env) == "Y"
    assert legal_actions(env) == {"beach a6-b6-c6", "beach b6-c6-d6", "beach c6-d6-e6", "beach d6-e6-f6"}
    play(env, "beach b6-c6-d6")
    assert castaway(env, "Y") == "c1" and top(env, "c1") == "Y"
    assert acting(env) == "K"
    assert legal_actions(env) == {"beach a1-a2-a3", "beach a2-a3-a4", "beach a3-a4-a5", "beach a4-a5-a6"}
    play(env, "beach a1-a2-a3")
    assert castaway(env, "K") == "f2" and top(env, "f2") == "K"
    assert acting(env) == "R"
    # a1 is black's landing spot now: red's side keeps the three other positions
    assert legal_actions(env) == {"beach b1-c1-d1", "beach c1-d1-e1", "beach d1-e1-f1"}
    play(env, "beach d1-e1-f1")
    assert castaway(env, "R") == "e6" and top(env, "e6") == "R"
    assert beaches(env) == {"R": "d1-e1-f1", "K": "a1-a2-a3", "Y": "b6-c6-d6", "B": "f2-f3-f4"}
    assert acting(env) == "R"
    s = env.unwrapped.state
    assert [int((s.stack[0] == p).sum()) for p in range(4)] == [5, 5, 5, 5]


def test_four_players_with_the_island_castaways_start_adrift():
    """4 players setup: "When playing 4 players castaways don't begin the game
    from the island, but are adrift at sea", each on its fifth raft opposite
    its beach, also with the island option (5: the island in the middle, mark
    c3). The island stays empty: "a landing place midway home"."""
    env = new_game(4, island=True)
    play(env, "beach f2-f3-f4")
    assert castaway(env, "B") == "a3" and top(env, "a3") == "B"
    play(env, "beach b6-c6-d6", "beach a4-a5-a6", "beach a1-b1-c1")
    assert [castaway(env, c) for c in "RKYB"] == ["b6", "f5", "c1", "a3"]
    assert sea(env).splitlines()[6].split() == [".", ".", "#", ".", "."]  # marks a3-e3


def test_four_players_the_island_is_a_landing_place_midway_home():
    """4 players setup, 5: "Players can now use the island as a landing place
    midway home allowing the castaways to land on it and go back to sea from
    any of the island's 4 landing spots." Red, adrift on a raft in the
    shallows (d3), steps onto the island; on the island, it may board from
    another shallow point (c4)."""
    sea_then = """
           a    b    c    d    e    f
        6  .    .    .    .    .    K@
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    R    .    .    .
              .    .    #    .    .
        3  .    .    .    R{here}   .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  Y@   .    .    .    .    B@
    """
    setting = dict(
        num_players=4,
        island=True,
        hands={c: (0, 0) for c in "RKYB"},
        beaches={"R": "b1-c1-d1", "K": "a2-a3-a4", "Y": "c6-d6-e6", "B": "f2-f3-f4"},
    )
    env = position(sea_then.format(here="@"), **setting)
    assert of_kind(env, "home") == {"home"}
    play(env, "home")
    assert castaway(env, "R") == "island"

    env = position(sea_then.format(here=" "), **setting)
    assert castaway(env, "R") == "island"
    assert of_kind(env, "board") == {"board c4", "board d3"}
    play(env, "board c4")
    assert castaway(env, "R") == "c4"


def test_lighthouses_random_places_every_beach_at_set_up():
    """``lighthouses="random"``: the beaches are drawn at set-up from the game's
    seed, by the same rules; red moves first at once."""
    seen = set()
    for seed in range(6):
        env = new_game(2, seed=seed, lighthouses="random")
        placed = beaches(env)
        assert set(placed) == {"R", "K"}
        assert not spots(placed["R"]) & spots(placed["K"])
        assert acting(env) == "R" and of_kind(env, "beach") == set()
        assert beaches(new_game(2, seed=seed, lighthouses="random")) == placed
        seen.add(tuple(sorted(placed.items())))
    assert len(seen) > 1

    env = new_game(4, seed=3, lighthouses="random")
    placed = beaches(env)
    assert all(s[1] == "1" for s in spots(placed["R"]))
    assert all(s[1] == "6" for s in spots(placed["Y"]))
    assert all(s[0] == "a" for s in spots(placed["K"]))
    assert all(s[0] == "f" for s in spots(placed["B"]))
    # each castaway on its fifth raft, opposite the middle landing spot
    middle = {c: sorted(spots(name))[1] for c, name in placed.items()}
    assert castaway(env, "R") == middle["R"][0] + "6"
    assert castaway(env, "Y") == middle["Y"][0] + "1"
    assert castaway(env, "K") == "f" + middle["K"][1]
    assert castaway(env, "B") == "a" + middle["B"][1]


def test_lighthouses_fixed_list_in_seat_order():
    """A fixed list gives each seat its beach (spots in any order); a list that
    breaks the placing rules is refused when the env is made."""
    env = new_game(2, lighthouses=["a1-b1", "e1-d1"])
    assert beaches(env) == {"R": "a1-b1", "K": "d1-e1"}
    assert acting(env) == "R" and of_kind(env, "beach") == set()

    env = new_game(3, lighthouses=["c1-d1", "a2-a3", "f1-f2"])
    assert beaches(env) == {"R": "c1-d1", "K": "a2-a3", "Y": "f1-f2"}

    env = new_game(4, lighthouses=["b1-c1-d1", "a4-a5-a6", "d6-e6-f6", "f1-f2-f3"])
    assert [castaway(env, c) for c in "RKYB"] == ["c6", "f5", "e1", "a2"]

    with pytest.raises(ValueError, match="shares a landing spot"):
        azgames.make("azimuth", num_players=2, lighthouses=["a1-b1", "b1-c1"])
    with pytest.raises(ValueError, match="outside player"):
        azgames.make("azimuth", num_players=4, lighthouses=["a4-a5-a6", "a1-b1-c1", "b6-c6-d6", "f2-f3-f4"])
    with pytest.raises(ValueError, match="not a beach position"):
        azgames.make("azimuth", num_players=2, lighthouses=["a1-c1", "d1-e1"])
    with pytest.raises(ValueError, match="one beach per player"):
        azgames.make("azimuth", num_players=2, lighthouses=["a1-b1"])


# =========================================================================== illegal actions

SHALLOWS_PHASE_1 = """
       a    b    c    d    e    f
    6  .    .    .    .    .    .
          .    .    .    .    .
    5  .    .    .    .    .    .
          .    .    #    .    .
    4  .    .    .    R@   .    .
          .    .    .    .    .
    3  .    .    .    .    .    .
          .    R^   .    .    .
    2  .    .    .    .    .    .
          .    .    .    .    .
    1  .    .    .    .    .    .
"""

AT_SEA_PHASE_2 = """
       a    b    c    d    e    f
    6  .    .    .    .    .    .
          .    .    .    .    R^
    5  .    .    .    .    .    .
          .    R^   #    .    .
    4  .    .    .    .    .    .
          .    .    .    .    .
    3  .    R@   .    .    .    .
          .    .    .    .    .
    2  .    .    .    .    .    .
          .    .    .    .    .
    1  .    .    .    .    .    .
"""

ON_THE_ISLAND = """
       a    b    c    d    e    f
    6  .    .    .    .    .    .
          .    .    .    .    .
    5  .    .    .    .    .    .
          .    .    #    .    .
    4  .    .    .    .    .    .
          .    .    .    .    .
    3  .    .    .    .    .    .
          .    .    .    .    .
    2  .    .    .    .    .    .
          .    .    .    .    .
    1  .    .    .    .    .    .
"""


@pytest.mark.parametrize(
    "where, action, why",
    [
        ("shallows, phase 1", "place R c4 N", MARK_TAKEN),
        ("shallows, phase 1", "place R b2 E", MARK_TAKEN),
        ("shallows, phase 1", "turn b2 cw", WINDS_IN_HAND),
        ("shallows, phase 1", "move b2 N", WINDS_IN_HAND),
        ("shallows, phase 1", "board c4", NOT_ON_ISLAND),
        ("shallows, phase 1", "swim N", NO_RAFT_TO_SWIM),
        ("shallows, phase 1", "pass", PASS_WHILE_ABLE),
        ("shallows, phase 1", "beach a1-b1", SETUP_OVER),
        ("at sea, phase 2", "place R a1 N", NO_WIND_IN_HAND),
        ("at sea, phase 2", "turn a1 cw", NO_WIND),
        ("at sea, phase 2", "move e5 NE", MOVE_OFF_BOARD),
        ("at sea, phase 2", "move b4 E", MARK_TAKEN),
        ("at sea, phase 2", "home", NOT_IN_SHALLOWS),
        ("on the island", "swim N", NOT_ON_RAFT),
        ("on the island", "home", NOT_ON_RAFT),
        ("on the island", "board d5", NO_RAFT_TO_BOARD),
    ],
)
def test_an_illegal_action_raises_value_error_with_its_reason(where, action, why):
    """Every illegal action is left out of the mask, and playing it raises a
    ValueError that names it in notation and says why."""
    diagram, hands = {
        "shallows, phase 1": (SHALLOWS_PHASE_1, None),
        "at sea, phase 2": (AT_SEA_PHASE_2, {"R": (0, 0)}),
        "on the island": (ON_THE_ISLAND, None),
    }[where]
    env = position(diagram, hands=hands)
    assert action not in legal_actions(env)
    assert reason(env, action) == why
    with pytest.raises(
        ValueError,
        match=rf"illegal action \d+ \({re.escape(action)}\) for player_0: "
        rf"{re.escape(why)}",
    ):
        play(env, action)


def test_notation_that_is_no_action_raises_value_error():
    """Unreadable notation, or a wind colour the player does not hold, is
    refused with a ValueError before any rule is checked."""
    env = position(ON_THE_ISLAND)
    with pytest.raises(ValueError, match="is not an Azimuth action"):
        play(env, "sail away")
    with pytest.raises(ValueError, match="can place winds of colour"):
        play(env, "place B c2 N")
    with pytest.raises(ValueError, match="not in the island's shallows"):
        play(env, "board a1")
