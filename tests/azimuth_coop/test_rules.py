r"""Azimuth co-op ("Ocean Die") rule scenarios: one story per sentence of the
co-op rule book (../shared/rules/azimuth-ocean-die.txt) that states a
rule, and one per choice the project made where the book is silent or its
pictures are lost (the numbered choices of the co-op brief; the reading in
../shared/notes/ocean-die-spec.md, except that a landed castaway's raft
stays on the board).

Diagrams use the format of :mod:`azimuth_env.diagram`: point rows 6 down to 1
with the wind-mark rows between them. A point is ``.`` or its stack, bottom
raft first (R red, K black, Y blondie, B blue), with ``@`` when the castaway
of the top raft's colour stands there. A mark is ``.``, ``#`` (the island, on
mark c3: its shallows are the points c3, d3, c4 and d4) or a wind: colour
letter and arrow ``^ > v <``. A castaway not drawn is on the island (or home
when the test says so). Mark ``x y`` touches the points ``x..x+1, y..y+1``:
mark b2 touches b2, c2, b3 and c3.

Unless a test says otherwise the beaches are the centre positions (red
c1-d1, black a3-a4, blondie c6-d6, blue f3-f4), every colour has placed all
4 of its winds (phase 2), red is the first colour and it is round 1. Red's
side is the south (its beach below row 1), black's the west, blondie's the
north and blue's the east. The colour turns of a round go red, black,
blondie, blue (from the first colour, clockwise), and the 4th colour turn of
a round rolls the Ocean Die; :func:`~.helpers.roll` forces its face.
"""

from __future__ import annotations

import pytest

import azgames
from azimuth_env.board import COLOUR_LETTERS, beach_name, parse_point
from azimuth_env.coop.rules import FACE_NAMES

from .helpers import (
    acting,
    asleep,
    castaway,
    game_over,
    kinds,
    legal_actions,
    new_game,
    of_kind,
    play,
    position,
    reason,
    refused,
    roll,
    round_and_turn,
    same_sea,
    sea,
    turtle,
)

# The reasons the env gives for refusing an action (CoopRules.illegal_reason).
HEAD_TO_HEAD = "it would be head to head with a wind of the same colour"
WINDS_IN_HAND = "winds may be turned or moved only once all yours are placed"
NOT_YOUR_WIND = "only your own winds may be moved"
NO_CONTROL = "none of your rafts is next to that wind, so you do not control it"
MARK_TAKEN = "the mark holds a wind or the island"
NOT_ON_RAFT = "your castaway is not on a raft"
PASS_WHILE_ABLE = "passing is only allowed when no other action is"
SETUP_FIRST = "the lighthouses are being placed: place your beach first"
NOT_YOUR_ZONE = "that beach position is not in your zone"
BEACH_OVERLAPS = "that beach would share a landing spot with a beach already placed"
WAVES_TO_ORDER = "the team is ordering the waves: choose which candidate raft moves next"
NOT_A_CANDIDATE = "no wave candidate whose order matters stands there"
NO_WAVES = "no waves are being ordered"
ASLEEP = "the mermaid sang your castaway to sleep: no castaway action this round"
NO_TURTLE = "no sea turtle is on offer this round (or it was used)"
TURTLE_AWAY = "your castaway is not on a raft in the sea turtle's ocean portion"
NO_RAFT_TWO_LEGS = "there is no raft of your colour on top two legs that way"

#: A sea where nobody can do anything but pass: no rafts, no winds on the
#: board or in hand, every castaway on the island. The round structure shows
#: through it without any sailing.
EMPTY_SEA = """
       a    b    c    d    e    f
    6  .    .    .    .    .    .
          .    .    .    .    .
    5  .    .    .    .    .    .
          .    .    .    .    .
    4  .    .    .    .    .    .
          .    .    #    .    .
    3  .    .    .    .    .    .
          .    .    .    .    .
    2  .    .    .    .    .    .
          .    .    .    .    .
    1  .    .    .    .    .    .
"""


def agent_of_each_colour(env) -> dict[str, str]:
    """Which agent plays each colour, from the agents' infos."""
    names = {"red": "R", "black": "K", "blondie": "Y", "blue": "B"}
    return {names[c]: a for a in env.possible_agents for c in env.infos[a]["colours"]}


def rafts_of(env) -> list[int]:
    """How many rafts of each colour (red, black, blondie, blue) are on the board."""
    s = env.unwrapped.state
    return [int((s.stack[0] == c).sum()) for c in range(4)]


# =========================================================================== Setup


def test_setup_1_six_rafts_and_four_winds_per_colour_no_coconuts():
    """Setup, 1: "In a co-op game each player gets 6 rafts and 4 winds of
    his/her color." Game Play, 7: "'Wind control' can be applied freely ...
    (no coconuts limit)": nobody holds a coconut (choice 1). "Co-op mode is
    played with all 4 castaways in the game", whatever the number of players."""
    for players in (2, 3, 4):
        env = new_game(players, lighthouses="random")
        s = env.unwrapped.state
        assert rafts_of(env) == [6, 6, 6, 6]
        assert s.hand[0].tolist() == [[4, 0]] * 4
        assert s.coconuts[0].tolist() == [0, 0, 0, 0]
        assert [castaway(env, c) for c in "RKYB"] == ["island"] * 4


def test_setup_2_the_island_in_the_middle_with_all_four_castaways():
    """Setup, 2: "Place the island in the middle of the board (on the center
    wind location mark). On it, place all 4 castaways." The island is mark c3;
    every castaway starts on it."""
    env = new_game(4)
    lines = sea(env).splitlines()
    assert lines[6].split() == [".", ".", "#", ".", "."]  # mark row 3: a3 .. e3
    assert [castaway(env, c) for c in "RKYB"] == ["island"] * 4
    assert reason(env, "place R c3 N") == SETUP_FIRST
    env = position(EMPTY_SEA, hands={"R": (1, 0)})
    refused(env, "place R c3 N", MARK_TAKEN)


SETUP_POINTS = {
    "a1",
    "b1",
    "e1",
    "f1",
    "a2",
    "b2",
    "c2",
    "d2",
    "e2",
    "f2",
    "b3",
    "e3",
    "b4",
    "e4",
    "a5",
    "b5",
    "c5",
    "d5",
    "e5",
    "f5",
    "a6",
    "b6",
    "e6",
    "f6",
}


def test_setup_3_and_4_twenty_four_rafts_shuffled_onto_fixed_points_shallows_vacant():
    """Setup, 3: "Place all 24 rafts face down on the board, shuffle them, and
    locate them in their initial positions"; 4: "Note all landing spots of the
    island are vacant." The diagram is lost: the points are layouts.json's
    "coop" (choice 1): every point but the shallows c3 d3 c4 d4 and the edge
    centres c1 d1 a3 a4 c6 d6 f3 f4, one raft each. The colours on them change
    with the seed; the same seed deals the same sea."""
    deals = set()
    for seed in range(5):
        env = new_game(4, seed=seed)
        s = env.unwrapped.state
        occupied = {p for p in SETUP_POINTS if s.height[0, parse_point(p)]}
        assert occupied == SETUP_POINTS
        assert all(s.height[0, parse_point(p)] == 1 for p in SETUP_POINTS)
        assert int(s.height[0].sum()) == 24
        assert all(s.height[0, parse_point(p)] == 0 for p in ("c3", "d3", "c4", "d4"))
        assert rafts_of(env) == [6, 6, 6, 6]
        deals.add(sea(env))
        assert sea(new_game(4, seed=seed)) == sea(env)
    assert len(deals) == 5


SOUTH = {"beach a1-b1", "beach b1-c1", "beach c1-d1", "beach d1-e1", "beach e1-f1"}
WEST = {"beach a5-a6", "beach a4-a5", "beach a3-a4", "beach a2-a3", "beach a1-a2"}
NORTH = {"beach e6-f6", "beach d6-e6", "beach c6-d6", "beach b6-c6", "beach a6-b6"}
EAST = {"beach f1-f2", "beach f2-f3", "beach f3-f4", "beach f4-f5", "beach f5-f6"}


def beaches(env) -> dict[str, frozenset]:
    """Each colour's beach, as the set of its landing spots."""
    u = env.unwrapped
    return {
        c: frozenset(beach_name(u.rules.layout, int(u.state.beach[0, k])).split("-"))
        for k, c in enumerate(COLOUR_LETTERS)
    }


def beach_set(names) -> set[frozenset]:
    """Beach notations as sets of spots (the notation's spot order is the layout's)."""
    return {frozenset(n.split()[1].split("-")) for n in names}


def test_setup_5_each_lighthouse_on_its_own_side_with_two_landing_spots():
    """Setup, 5: "players locate their lighthouses, each lighthouse at a
    different side of the board, and anywhere the player sees fit ... in the
    same manner as in a 2 player game, allowing 2 landing spots". Choice 2:
    each colour's side is fixed (red S, black W, blondie N, blue E), with 5
    two-spot positions; no two beaches share a landing spot (only the corners
    can clash); they go down from the first colour clockwise. Red takes the
    south-west corner, so black may not take a1-a2."""
    env = new_game(4)
    assert acting(env) == "R" and env.agent_selection == "player_0"
    assert beach_set(legal_actions(env)) == beach_set(SOUTH)
    refused(env, "beach a5-a6", NOT_YOUR_ZONE)
    refused(env, "place R a1 N", SETUP_FIRST)
    play(env, "beach a1-b1")
    assert acting(env) == "K" and env.agent_selection == "player_1"
    assert beach_set(legal_actions(env)) == beach_set(WEST - {"beach a1-a2"})
    refused(env, "beach a1-a2", BEACH_OVERLAPS)
    refused(env, "beach c1-d1", NOT_YOUR_ZONE)
    play(env, "beach a5-a6")
    assert acting(env) == "Y"
    assert beach_set(legal_actions(env)) == beach_set(NORTH - {"beach a6-b6"})
    play(env, "beach e6-f6")
    assert acting(env) == "B"
    assert beach_set(legal_actions(env)) == beach_set(EAST - {"beach f5-f6"})
    play(env, "beach f2-f3")
    assert beaches(env) == {"R": {"a1", "b1"}, "K": {"a5", "a6"}, "Y": {"e6", "f6"}, "B": {"f2", "f3"}}
    # the lighthouses are set-up: round 1 starts with the first colour
    assert acting(env) == "R" and round_and_turn(env) == (1, 0)
    assert kinds(env) == {"place"}
    assert [castaway(env, c) for c in "RKYB"] == ["island"] * 4
    assert rafts_of(env) == [6, 6, 6, 6]


def test_setup_5_lighthouses_given_or_drawn_follow_the_same_rules():
    """Choice 2 with the ``lighthouses`` option: a list (colour order) must put
    each beach on its colour's side without a shared spot; "random" draws each
    colour's beach among those still free, from the first colour on."""
    env = new_game(4, lighthouses=["a1-b1", "a5-a6", "e6-f6", "f1-f2"])
    assert acting(env) == "R" and round_and_turn(env) == (1, 0)
    with pytest.raises(ValueError, match="not on black's side or shares a landing spot"):
        azgames.make("azimuth_coop", num_players=4, lighthouses=["a1-b1", "a1-a2", "c6-d6", "f3-f4"])
    with pytest.raises(ValueError, match="not on red's side"):
        azgames.make("azimuth_coop", num_players=4, lighthouses=["a3-a4", "a1-a2", "c6-d6", "f3-f4"])
    sides = [SOUTH, WEST, NORTH, EAST]
    for seed in range(8):
        placed = beaches(new_game(4, seed=seed, lighthouses="random"))
        for c, side in zip("RKYB", sides):
            assert placed[c] in beach_set(side)
        spots = list(placed.values())
        assert all(not (spots[a] & spots[b]) for a in range(4) for b in range(a + 1, 4))


def test_setup_6_the_first_player_then_clockwise_and_the_first_player_option():
    """Setup, 6: "decide which player goes first placing his/her first wind ...
    Players then take turns in a clockwise direction." Choice 3: the
    ``first_player`` option (default red); the first colour places its
    lighthouse first too (choice 2), and plays first. With blondie first:
    blondie, blue, red, black."""
    env = new_game(4, first_player="blondie")
    order = []
    for beach in ("beach c6-d6", "beach f3-f4", "beach c1-d1", "beach a3-a4"):
        order.append(acting(env))
        play(env, beach)
    assert order == ["Y", "B", "R", "K"]
    assert acting(env) == "Y" and env.agent_selection == "player_2"
    order = []
    for wind in ("place Y a5 N", "place B e5 N", "place R a1 N"):
        order.append(acting(env))
        play(env, wind)
    order.append(acting(env))
    roll(env, "place K a2 N", "sunny")  # the round's 4th colour turn rolls
    assert order == ["Y", "B", "R", "K"]
    assert acting(env) == "Y" and round_and_turn(env) == (2, 0)
    assert acting(new_game(4)) == "R"


def test_setup_6_a_random_first_player_comes_from_the_seed():
    """Choice 3: ``first_player="random"`` draws the first colour from the
    game's seed: the same seed, the same first colour; over seeds, every
    colour."""
    firsts = [acting(new_game(4, seed=seed, first_player="random")) for seed in range(24)]
    assert set(firsts) == set(COLOUR_LETTERS)
    assert firsts == [acting(new_game(4, seed=seed, first_player="random")) for seed in range(24)]
    with pytest.raises(ValueError, match="first_player"):
        azgames.make("azimuth_coop", num_players=4, first_player="green")


# =========================================================================== Game Play


def test_game_play_1_all_basic_rules_apply_sailing_stacking_and_blocking():
    """Game Play, 1: "All basic Azimuth rules apply." Red may not place its
    last wind head to head with its own wind on d1 (base Rafts & Winds, 7).
    It places it on b1 blowing north: the red rafts at the wind's four points
    sail one leg together (base 3); b2's stacks on top of the black raft at b3
    (base 4), b1's follows onto b2, and the raft carrying the red castaway at
    c2 is blocked by blondie's castaway at c3 and stays (base Castaways, 6)."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    K    Y@   .    .    .
              .    .    .    .    .
        2  .    R    R@   .    .    .
              .    .    .    R^   .
        1  .    R    .    .    .    .
    """,
        hands={"R": (1, 0)},
    )
    refused(env, "place R d2 S", HEAD_TO_HEAD)
    play(env, "place R b1 N")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    KR   Y@   .    .    .
              .    .    .    .    .
        2  .    R    R@   .    .    .
              .    R^   .    R^   .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert acting(env) == "K"


def test_game_play_2_winds_turn_and_move_only_once_all_four_are_placed():
    """Game Play, 2: "a player can start turning and moving his/her winds only
    after placing all 4 winds on the board" (base: "players can also move
    their castaways anytime during both phases"). Red has 3 winds down and 1
    in hand: it may place, or swim, but not turn or move. It places the 4th;
    the others can only pass; after the round's roll red may turn and move
    its winds, and has nothing left to place."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    R>
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              R^   .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    R
              .    R<   .    .    .
        1  .    .    .    .    .    R@
    """,
        hands={"R": (1, 0)},
    )
    assert kinds(env) == {"place", "swim"}
    refused(env, "pass", PASS_WHILE_ABLE)
    refused(env, "turn a3 cw", WINDS_IN_HAND)
    refused(env, "move b1 E", WINDS_IN_HAND)
    play(env, "place R c4 N", "pass", "pass")
    roll(env, "pass", "sunny")
    assert acting(env) == "R"
    assert kinds(env) == {"turn", "move", "swim"}
    assert reason(env, "place R a1 N") == "you hold no wind of that colour"
    play(env, "turn a3 cw")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    R>
        5  .    .    .    .    .    .
              .    .    R^   .    .
        4  .    .    .    .    .    .
              R>   .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    R
              .    R<   .    .    .
        1  .    .    .    .    .    R@
    """,
    ), sea(env)


def test_game_play_3_four_colour_turns_then_the_die_then_the_next_round():
    """Game Play, 3: "Once all four players took their turn, the die is
    rolled, and the ocean plays its part. After the ocean plays, a round is
    over." Choice 4: a round is 4 colour turns, clockwise from the first
    colour; only the 4th rolls the die (its chance outcomes are the 6 faces);
    then the next round starts with the first colour again."""
    env = position(EMPTY_SEA)
    seen = []
    for _ in range(3):
        seen.append((round_and_turn(env), acting(env), env.agent_selection))
        assert env.unwrapped.chance_outcomes(env.unwrapped.str_to_action("pass")) == []
        play(env, "pass")
        assert "chance" not in env.infos["player_0"]
    seen.append((round_and_turn(env), acting(env), env.agent_selection))
    assert seen == [
        ((1, 0), "R", "player_0"),
        ((1, 1), "K", "player_1"),
        ((1, 2), "Y", "player_2"),
        ((1, 3), "B", "player_3"),
    ]
    roll(env, "pass", "sunny")
    assert {a: i["chance"] for a, i in env.infos.items()} == {
        a: {"die": {"face": "sunny", "roller": "red"}} for a in env.possible_agents
    }
    assert (round_and_turn(env), acting(env), env.agent_selection) == ((2, 0), "R", "player_0")
    play(env, "pass")
    assert "chance" not in env.infos["player_0"]


def test_game_play_4_the_team_has_ten_rounds_then_loses():
    """Game Play, 4: "Players have 10 rounds to get all their castaways back
    home." Choice 15: after the 4th colour turn of round 10 the game is over
    and every agent gets -1; the last round's die is not rolled (the 4th
    turn's chance outcomes are none)."""
    env = position(EMPTY_SEA, num_players=2, to_move="B", round=10, home="K")
    assert env.unwrapped.rules.rounds == 10
    last = env.unwrapped.str_to_action("pass")
    assert env.unwrapped.chance_outcomes(last) == []
    env.step(last)
    assert game_over(env)
    assert env.rewards == {"player_0": -1.0, "player_1": -1.0}
    assert env.infos["player_0"]["winners"] == [] and env.infos["player_0"]["score"] == 1
    assert env.infos["player_0"]["rounds"] == 10
    assert "chance" not in env.infos["player_0"]

    env = position(EMPTY_SEA, num_players=2, to_move="B", round=9)
    roll(env, "pass", "sunny")
    assert not game_over(env) and round_and_turn(env) == (10, 0)


def test_game_play_4_a_lower_round_count_makes_it_harder():
    """Game Play, 4: "players may decide to lower the rounds played" (the
    ``rounds`` option): with 2 rounds, round 1 ends with a roll, round 2 with
    the team's loss."""
    env = position(EMPTY_SEA, rounds=2)
    play(env, "pass", "pass", "pass")
    roll(env, "pass", "sunny")
    assert round_and_turn(env) == (2, 0)
    play(env, "pass", "pass", "pass")
    assert not game_over(env)
    env.step(env.unwrapped.str_to_action("pass"))
    assert game_over(env)
    assert env.rewards == {f"player_{k}": -1.0 for k in range(4)}
    with pytest.raises(ValueError, match="rounds"):
        azgames.make("azimuth_coop", num_players=4, rounds=0)


def test_game_play_5_a_castaway_home_its_colour_keeps_sailing_for_the_team():
    """Game Play, 5: "When a castaway reaches the lighthouse, its player keeps
    on playing his/her rafts and winds trying to assist other castaways."
    Choice 14: the landed castaway's raft stays on the board. Red turns its
    wind on b1 south: its castaway, on its landing spot c1, lands; the raft
    stays at c1 and the game goes on. Later red, home, may only turn and move
    winds (no castaway action): it turns its wind on a2 west, and its raft
    at b3 ferries black's castaway to black's landing spot a3."""
    env = position("""
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    K^
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    RK@  .    .    .    .
              R^   .    .    .    .
        2  .    .    .    .    .    .
              .    R>   .    .    .
        1  .    .    R@   .    .    .
    """)
    play(env, "turn b1 cw")
    assert castaway(env, "R") == "home"
    assert not game_over(env) and acting(env) == "K"
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    K^
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    RK@  .    .    .    .
              R^   .    .    .    .
        2  .    .    .    .    .    .
              .    Rv   .    .    .
        1  .    .    R    .    .    .
    """,
    ), sea(env)
    play(env, "turn e5 cw", "pass")  # black's wind on e5 sails nothing
    roll(env, "pass", "sunny")
    assert acting(env) == "R" and castaway(env, "R") == "home"
    assert kinds(env) == {"turn", "move"}
    refused(env, "swim N", NOT_ON_RAFT)
    refused(env, "home", NOT_ON_RAFT)
    play(env, "turn a2 ccw")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    K>
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  RK@  .    .    .    .    .
              R<   .    .    .    .
        2  .    .    .    .    .    .
              .    Rv   .    .    .
        1  .    .    R    .    .    .
    """,
    ), sea(env)


def test_game_play_6_the_island_is_a_stepping_stone():
    """Game Play, 6: "castaways can land on and off the island as players see
    fit (in some scenarios the island can be used as a 'stepping stone')."
    Red, on its raft in the shallows at d3, steps onto the island; next round
    it boards its other raft at c4, on the far side of the island."""
    env = position("""
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    R    .    .    .
              .    .    #    .    .
        3  .    .    .    R@   .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """)
    assert legal_actions(env) == {"home"}
    play(env, "home")
    assert castaway(env, "R") == "island"
    play(env, "pass", "pass")
    roll(env, "pass", "sunny")
    assert legal_actions(env) == {"board c4", "board d3"}
    play(env, "board c4")
    assert castaway(env, "R") == "c4"


def test_game_play_7_wind_control_is_free_without_coconuts():
    """Game Play, 7: "'Wind control' can be applied freely according to the
    rules (no coconuts limit)." Nobody holds a coconut, yet black and then
    blondie, each with a raft next to red's wind on b2, turn it: red's
    castaway sails east onto blondie's raft at c2, then south onto blue's at
    c1. Control still needs a raft next to the wind (blue's at c1 is not next
    to mark b2), and another colour's wind may only be turned, never moved
    (base Wind Control)."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    K    .    .    .    .
              .    R^   .    .    .
        2  .    R@   Y    .    .    .
              .    .    .    .    .
        1  .    .    B    .    .    .
    """,
        to_move="K",
        first="K",
    )
    assert env.unwrapped.state.coconuts[0].tolist() == [0, 0, 0, 0]
    refused(env, "move b2 N", NOT_YOUR_WIND)
    play(env, "turn b2 cw")
    assert acting(env) == "Y"
    assert env.unwrapped.state.coconuts[0].tolist() == [0, 0, 0, 0]
    play(env, "turn b2 cw")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    K    .    .    .    .
              .    Rv   .    .    .
        2  .    .    Y    .    .    .
              .    .    .    .    .
        1  .    .    BR@  .    .    .
    """,
    ), sea(env)
    assert acting(env) == "B"
    refused(env, "turn b2 cw", NO_CONTROL)


# =========================================================================== Objective


ALL_BUT_BLUE_HOME = """
       a    b    c    d    e    f
    6  .    .    .    .    .    .
          .    .    .    .    .
    5  .    .    .    .    .    .
          .    .    .    .    .
    4  .    .    .    .    .    .
          .    .    #    .    .
    3  .    .    .    .    .    B@
          .    .    .    .    B^
    2  .    .    .    .    .    .
          .    .    .    .    .
    1  .    .    .    .    .    .
"""


def test_objective_the_team_wins_the_moment_the_fourth_castaway_is_home():
    """Objective: "safely return all castaways back home, each reaching their
    lighthouse". Choice 15: the moment the 4th castaway lands the game is over,
    mid-round, and every agent gets +1. Blue plays first in round 3; its
    castaway waits on its landing spot f3; it turns its wind on e2 east and
    lands. With 2 players both agents win."""
    env = position(ALL_BUT_BLUE_HOME, num_players=2, to_move="B", first="B", round=3, home="RKY")
    assert env.agent_selection == "player_1" and round_and_turn(env) == (3, 0)
    play(env, "turn e2 cw")
    assert game_over(env)
    assert castaway(env, "B") == "home"
    assert env.rewards == {"player_0": 1.0, "player_1": 1.0}
    assert env.unwrapped.rules.info.utility == "identical"
    assert env.infos["player_0"]["winners"] == ["player_0", "player_1"]
    assert env.infos["player_1"]["score"] == 4
    assert sorted(env.infos["player_1"]["home"]) == ["black", "blondie", "blue", "red"]


def test_objective_three_home_is_not_enough_and_a_last_turn_landing_rolls_no_die():
    """Objective and choice 15: with three castaways home the game goes on.
    When the 4th lands on the last colour turn of a round the team wins at
    once: no die is rolled (the action's chance outcomes are none), even in
    the last round, where it is a win and not a loss."""
    env = position(ALL_BUT_BLUE_HOME, to_move="B", home="RK")
    last = env.unwrapped.str_to_action("turn e2 cw")
    assert len(env.unwrapped.chance_outcomes(last)) == 6
    roll(env, "turn e2 cw", "sunny")
    assert not game_over(env) and castaway(env, "B") == "home"
    assert env.rewards == {f"player_{k}": 0.0 for k in range(4)}

    env = position(ALL_BUT_BLUE_HOME, to_move="B", home="RKY", round=10)
    last = env.unwrapped.str_to_action("turn e2 cw")
    assert env.unwrapped.chance_outcomes(last) == []
    env.step(last)
    assert game_over(env)
    assert env.rewards == {f"player_{k}": 1.0 for k in range(4)}


# =========================================================================== the ocean portions


#: Four castaways on the edges between the portions: red on b3 (row 3,
#: column b), black on e4, blondie on c5, blue on d2.
ON_THE_PORTION_EDGES = """
       a    b    c    d    e    f
    6  .    .    .    .    .    .
          .    .    .    .    .
    5  .    .    Y@   .    .    .
          .    .    .    .    .
    4  .    .    .    .    K@   .
          .    .    #    .    .
    3  .    R@   .    .    .    .
          .    .    .    .    .
    2  .    .    .    B@   .    .
          .    .    .    .    .
    1  .    .    .    .    .    .
"""


@pytest.mark.parametrize(
    "roller, last, sleepers",
    [
        ("R", "B", "RB"),  # red: rows 1-3
        ("K", "R", "RY"),  # black: columns a-c
        ("Y", "K", "KY"),  # blondie: rows 4-6
        ("B", "Y", "KB"),  # blue: columns d-f
    ],
)
def test_the_affected_portion_lies_between_the_rollers_lighthouse_and_the_island(roller, last, sleepers):
    """The Ocean Die: "The effected portion ... is defined as the ocean
    portion between the player rolling it (his/her lighthouse) and the
    island. The effected portion consists and includes 3 rows of raft
    location marks ... it also includes the raft location marks closest to
    the island." Choice 5: a full-width half board on the roller's side. The
    roller of round 1 is the first colour, whose turn comes first; the 4th
    colour's turn rolls. A mermaid shows which castaways stand in the portion."""
    env = position(ON_THE_PORTION_EDGES, first=roller, to_move=last)
    roll(env, "pass", "mermaid")
    assert env.infos["player_0"]["chance"]["die"] == {
        "face": "mermaid",
        "roller": {"R": "red", "K": "black", "Y": "blondie", "B": "blue"}[roller],
    }
    assert asleep(env) == sleepers
    assert sea(env) == sea(position(ON_THE_PORTION_EDGES))


def test_the_first_player_marker_passes_clockwise_each_round():
    """The Ocean Die, 2: "Players take turns (clockwise) rolling the die ...
    The player who started the game is the first to roll the die (once a
    player rolled the die he/she passes on the 'first player marker' to the
    next player)." Choice 4: the roller of round r is the first colour plus
    r - 1 clockwise, while the turns of every round still start with the
    first colour. Black starts: black, blondie, blue, red roll in rounds 1-4,
    black again in round 5."""
    env = position(EMPTY_SEA, first="K", to_move="K")
    rollers, starters = [], []
    for _ in range(5):
        starters.append(acting(env))
        play(env, "pass", "pass", "pass")
        roll(env, "pass", "sunny")
        rollers.append(env.infos["player_0"]["chance"]["die"]["roller"])
    assert rollers == ["black", "blondie", "blue", "red", "black"]
    assert starters == ["K"] * 5
    assert round_and_turn(env) == (6, 0)


def test_the_rollers_portion_follows_the_marker():
    """The Ocean Die, 2: "each round the die can affect a different portion of
    the ocean." In round 2 (red first) black rolls: a mermaid there puts to
    sleep the castaways of columns a-c, not those of rows 1-3."""
    env = position(ON_THE_PORTION_EDGES, round=2, to_move="B")
    roll(env, "pass", "mermaid")
    assert asleep(env) == "RY"


# =========================================================================== Sunny Day


def test_sunny_day_the_ocean_has_no_effect():
    """Sunny Day!: "The ocean remains calm and has no effect on the game."
    After blue's turn the die shows the sun: the sea is as blue left it,
    nobody sleeps, no turtle is on offer, and red starts round 2."""
    env = position(ON_THE_PORTION_EDGES, to_move="B", hands={"B": (1, 0)})
    roll(env, "place B e5 N", "sunny")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    B^
        5  .    .    Y@   .    .    .
              .    .    .    .    .
        4  .    .    .    .    K@   .
              .    .    #    .    .
        3  .    R@   .    .    .    .
              .    .    .    .    .
        2  .    .    .    B@   .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert asleep(env) == "" and turtle(env) is None
    assert acting(env) == "R" and round_and_turn(env) == (2, 0)


# =========================================================================== The Mermaid


def test_mermaid_castaways_on_the_island_or_home_are_not_in_the_ocean():
    """The Mermaid: "All castaways in the effected ocean portion are to be
    laid down for the next round." Choice 6: castaways on the island or home
    are not in the ocean. Red rolls a mermaid: red, on its raft in the
    shallows at c3 (row 3), and black, at b2, fall asleep; blondie, on the
    island, and blue, home, do not. Next round red may not step onto the
    island, black may not swim to its raft at b1 and, with nothing else to
    do, passes, while blondie may board her raft at d4."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    Y    .    .
              .    .    #    .    .
        3  .    .    R@   .    .    .
              .    .    .    .    .
        2  .    K@   .    .    .    .
              .    .    .    .    R>
        1  .    K    .    .    .    .
    """,
        to_move="B",
        home="B",
    )
    roll(env, "pass", "mermaid")
    assert asleep(env) == "RK"
    assert acting(env) == "R"
    refused(env, "home", ASLEEP)
    play(env, "turn e1 cw")
    assert acting(env) == "K" and legal_actions(env) == {"pass"}  # asleep: pass is allowed
    refused(env, "swim S", ASLEEP)
    play(env, "pass")
    assert acting(env) == "Y"
    assert legal_actions(env) == {"board d4"}
    play(env, "board d4")
    assert castaway(env, "Y") == "d4"


def test_mermaid_a_sleeper_takes_no_castaway_action_but_sails_and_wakes_at_the_next_roll():
    """The Mermaid: "These castaways cannot move/swim to another raft in the
    coming round. Note: sleeping castaways can still be sailed carried on the
    raft they sleep on (be moved using winds)." Choice 7: no swim, no return
    to the island; the colour still plays its winds; the sleeper sails with
    its raft and stays asleep once out of the portion; it wakes at the next
    roll. Red sleeps on d3; it turns its wind on c2 north, which sails it to
    d4 (out of red's portion); after the round's roll it may swim again."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    .    .    R@   R    .
              .    .    R>   .    .
        2  .    .    .    R    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        round=2,
        face="mermaid",
        asleep="R",
    )
    assert kinds(env) == {"turn", "move"}
    refused(env, "swim E", ASLEEP)
    refused(env, "swim S", ASLEEP)
    refused(env, "home", ASLEEP)
    play(env, "turn c2 ccw")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    R@   .    .
              .    .    #    .    .
        3  .    .    .    R    R    .
              .    .    R^   .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert asleep(env) == "R"
    play(env, "pass", "pass")
    roll(env, "pass", "sunny")
    assert asleep(env) == ""
    assert acting(env) == "R"
    assert legal_actions(env) - of_kind(env, "turn") - of_kind(env, "move") == {"swim S", "home"}
    play(env, "swim S")
    assert castaway(env, "R") == "d3"


def test_mermaid_a_sleeper_may_be_landed_by_a_wind():
    """The Mermaid: "sleeping castaways can still be sailed carried on the
    raft they sleep on". Choice 7: that includes the last push to shore.
    Red sleeps on its landing spot c1; it turns its wind on b1 south and its
    sleeping castaway lands."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    R>   .    .    .
        1  .    .    R@   .    .    .
    """,
        round=2,
        face="mermaid",
        asleep="R",
    )
    play(env, "turn b1 cw")
    assert castaway(env, "R") == "home"
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    Rv   .    .    .
        1  .    .    R    .    .    .
    """,
    ), sea(env)


def test_mermaid_sleep_lasts_one_round_only():
    """The Mermaid: castaways "are to be laid down for the next round" (choice
    7: sleep is cleared at the next roll, before the new face acts). Red's
    mermaid in round 1 puts red (b3) and blue (d2) to sleep; black's mermaid
    in round 2 (columns a-c) wakes blue and puts red and blondie (c5) to
    sleep; a sunny round 3 wakes everyone."""
    env = position(ON_THE_PORTION_EDGES, to_move="B")
    roll(env, "pass", "mermaid")
    assert asleep(env) == "RB"
    play(env, "pass", "pass", "pass")
    roll(env, "pass", "mermaid")
    assert asleep(env) == "RY"
    play(env, "pass", "pass", "pass")
    roll(env, "pass", "sunny")
    assert asleep(env) == ""


# =========================================================================== Waves!


def test_waves_example_blondie_rolls_a_wave_towards_her_lighthouse():
    """Waves!: "Waves directly affect rafts of the player rolling the die in
    all ocean portions (the whole board). Waves affect only the relevant
    player's rafts that are floating directly on the ocean ... Waves will not
    directly impact any rafts that are in a stack if not at the bottom. Waves
    do not break stacks, but can move a whole stack if the relevant color raft
    carries it." The book's example: "Blondie rolled a wave towards the
    lighthouse. All relevant Blondie's rafts sail one leg ... The raft on the
    right, at the closest row to the lighthouse is not affected by the wave.
    The middle stack moves since Blondie's raft carries the stack. The raft
    carrying the castaway also remains in place since it is on top of a red
    raft." Blondie rolls in round 3; her raft at a1, far in red's half,
    moves too; the other colours' rafts stay. No order matters, so red starts
    round 4 at once (choice 9)."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    Y    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    YK   .    .    RY@  .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    R    .    K
              .    .    .    .    .
        1  Y    .    .    .    .    .
    """,
        round=3,
        to_move="B",
    )
    roll(env, "pass", "wave towards")
    assert env.infos["player_0"]["chance"]["die"] == {"face": "wave towards", "roller": "blondie"}
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    Y    .
              .    .    .    .    .
        5  .    YK   .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    RY@  .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  Y    .    .    R    .    K
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert acting(env) == "R" and round_and_turn(env) == (4, 0)


def test_waves_the_square_wave_carries_away_and_the_far_row_stays():
    """Waves!: "The wave with the square mark at the bottom carries rafts one
    leg away from your lighthouse ... if any of the effected rafts are on the
    farthest row from your lighthouse and a wave impacts away from your
    lighthouse - these rafts do not move." Black (west) rolls in round 2:
    its bottom rafts sail east one leg, with their stacks and the red
    castaway riding on one (choice 8); the two black rafts at c2 go together
    (waves do not break stacks); the raft on column f stays (choice 10); the
    black raft on top of blondie's at e1 stays."""
    env = position(
        """
           a    b    c    d    e    f
        6  K    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    K
              .    .    .    .    .
        4  .    KR@  .    .    .    .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    KK   .    .    .
              .    .    .    .    .
        1  .    .    .    .    YK   .
    """,
        round=2,
        to_move="B",
    )
    roll(env, "pass", "wave away")
    assert env.infos["player_3"]["chance"]["die"] == {"face": "wave away", "roller": "black"}
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    K    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    K
              .    .    .    .    .
        4  .    .    KR@  .    .    .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    KK   .    .
              .    .    .    .    .
        1  .    .    .    .    YK   .
    """,
    ), sea(env)
    assert castaway(env, "R") == "c4"


def test_waves_towards_the_lighthouse_never_land_a_castaway():
    """Waves!: "When waves carry rafts towards the lighthouse, rafts located
    on the first row closest to the lighthouse are not influenced by the
    waves and remain in place (therefore castaways cannot land back home
    using the waves)." Choice 10. Red rolls the circle wave (south): its
    castaway on its landing spot c1 stays at sea; the raft carrying black's
    castaway reaches d1, the rafts at b3 and e2 move one leg south."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    R    .    .    .    .
              .    .    .    .    .
        2  .    .    .    RK@  R    .
              .    .    .    .    .
        1  .    .    R@   .    .    .
    """,
        to_move="B",
    )
    roll(env, "pass", "wave towards")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    R    .    .    .    .
              .    .    .    .    .
        1  .    .    R@   RK@  R    .
    """,
    ), sea(env)
    assert castaway(env, "R") == "c1" and castaway(env, "K") == "d1"
    assert not game_over(env)


def test_waves_follow_the_basic_rules_of_stacking_and_castaways():
    """Game Play, 1 ("All basic Azimuth rules apply") for waves, choice 11:
    red's square wave (north) puts its raft at a2 on top of blue's at a3; its
    castaway's raft at b2 may not join black's castaway at b3 and stays; its
    empty raft at e2 slides in beneath blondie's castaway's raft at e3."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  B    K@   .    .    Y@   .
              .    .    .    .    .
        2  R    R@   .    .    R    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        to_move="B",
    )
    roll(env, "pass", "wave away")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  BR   K@   .    .    RY@  .
              .    .    .    .    .
        2  .    R@   .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


#: Red's rafts at b1 and b2 form a chain for a north wave; e2's is alone.
A_CHAIN = """
       a    b    c    d    e    f
    6  .    .    .    .    .    .
          .    .    .    .    .
    5  .    .    .    .    .    .
          .    .    .    .    .
    4  .    .    .    .    .    .
          .    .    #    .    .
    3  .    .    .    .    .    .
          .    .    .    .    .
    2  .    R    .    .    R    .
          .    .    .    .    .
    1  .    R    .    .    .    .
"""


def test_waves_the_team_orders_a_chain():
    """Waves!: "Players decide on the sequence in which relevant rafts are to
    be moved (this can have an effect on the possible outcome). Once a raft
    is moved, the player cannot change his/her call." Choice 9: red rolls the
    square wave (north); e2's raft moves at once; b1's would move onto b2's
    point, so red's agent (player_0, though blue rolled the die for the
    round) chooses which goes first with ``wave`` actions, that list only the
    chain. These steps count as plies, not colour turns. b1 first: it stacks
    on b2's raft, which then carries it to b3. b2 first: they advance side by
    side."""
    env = position(A_CHAIN, to_move="B")
    roll(env, "pass", "wave away")
    assert env.agent_selection == "player_0" and acting(env) == "R"
    assert legal_actions(env) == {"wave b1", "wave b2"}
    assert round_and_turn(env) == (1, 4) and int(env.unwrapped.state.ply[0]) == 1
    refused(env, "pass", WAVES_TO_ORDER)
    refused(env, "place R a1 N", WAVES_TO_ORDER)
    refused(env, "wave e3", NOT_A_CANDIDATE)
    refused(env, "wave a1", NOT_A_CANDIDATE)
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    .    .    .    R    .
              .    .    .    .    .
        2  .    R    .    .    .    .
              .    .    .    .    .
        1  .    R    .    .    .    .
    """,
    ), sea(env)

    back = env.clone()
    play(back, "wave b1")
    assert same_sea(
        back,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    RR   .    .    R    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(back)
    assert round_and_turn(back) == (2, 0) and int(back.unwrapped.state.ply[0]) == 2
    assert acting(back) == "R" and kinds(back) == {"pass"}
    assert reason(back, "wave b3") == NO_WAVES

    play(env, "wave b2")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    R    .    .    R    .
              .    .    .    .    .
        2  .    R    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert round_and_turn(env) == (2, 0)


def test_waves_a_candidate_no_longer_at_the_bottom_is_skipped():
    """Waves! ("Waves will not directly impact any rafts that are in a stack
    if not at the bottom"), choice 8: the candidates are fixed at the roll,
    and one that is no longer at the bottom when its turn comes does not
    move. Red's square wave (north): red's empty raft at b1 first slides in
    beneath red's castaway's raft at b2 (base Castaways, 5), which then is no
    longer at the bottom and stays; the other order moves both."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    R@   .    .    .    .
              .    .    .    .    .
        1  .    R    .    .    .    .
    """,
        to_move="B",
    )
    roll(env, "pass", "wave away")
    assert legal_actions(env) == {"wave b1", "wave b2"}
    other = env.clone()
    play(env, "wave b1")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    RR@  .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert round_and_turn(env) == (2, 0)
    play(other, "wave b2")
    assert same_sea(
        other,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    R@   .    .    .    .
              .    .    .    .    .
        2  .    R    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(other)


def test_waves_a_castaway_carrying_follower_is_blocked_or_follows_by_the_order():
    """Waves! with choice 11 along a chain: red's castaway's raft at b1 is
    behind red's raft at b2, which carries black's castaway. Moved first,
    b1's raft meets black's castaway and stays (its move is spent), then b2's
    stack moves on; moved second, it follows into b2."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    RK@  .    .    .    .
              .    .    .    .    .
        1  .    R@   .    .    .    .
    """,
        to_move="B",
    )
    roll(env, "pass", "wave away")
    assert legal_actions(env) == {"wave b1", "wave b2"}
    other = env.clone()
    play(env, "wave b1")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    RK@  .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    R@   .    .    .    .
    """,
    ), sea(env)
    play(other, "wave b2")
    assert same_sea(
        other,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    RK@  .    .    .    .
              .    .    .    .    .
        2  .    R@   .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(other)
    assert round_and_turn(env) == round_and_turn(other) == (2, 0)


@pytest.mark.parametrize("order, b2, b3", [("front_first", "R", "R"), ("back_first", ".", "RR")])
def test_waves_fixed_orders_resolve_chains_without_asking(order, b2, b3):
    """Choice 9: ``wave_order="front_first"`` moves the front of a chain
    first (the rafts advance side by side), ``"back_first"`` the back first
    (they pile up and move on together); neither asks the team, and red
    starts round 2 at once."""
    env = position(A_CHAIN, to_move="B", wave_order=order)
    roll(env, "pass", "wave away")
    assert acting(env) == "R" and round_and_turn(env) == (2, 0)
    assert same_sea(
        env,
        f"""
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    {b3}    .    .    R    .
              .    .    .    .    .
        2  .    {b2}    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


def test_waves_a_three_raft_chain_is_ordered_one_call_at_a_time():
    """Choice 9 along a longer chain: blondie's circle wave (north, 2 players)
    finds her rafts at e2, e3 and e4 in a row; player_0, who plays blondie,
    orders them although blue's agent, player_1, rolled. She moves e2's raft
    first: it stacks on e3's; that call is final and e2 leaves the choice,
    while the stack at e3 and the raft at e4 still form a chain. Then e4's
    moves to e5 and the stack follows to e4 by itself."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    Y    .
              .    .    #    .    .
        3  .    .    .    .    Y    .
              .    .    .    .    .
        2  .    .    .    .    Y    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        num_players=2,
        round=3,
        to_move="B",
    )
    assert env.agent_selection == "player_1"
    roll(env, "pass", "wave towards")
    assert env.agent_selection == "player_0" and acting(env) == "Y"
    assert legal_actions(env) == {"wave e2", "wave e3", "wave e4"}
    play(env, "wave e2")
    assert env.agent_selection == "player_0" and round_and_turn(env) == (3, 4)
    assert legal_actions(env) == {"wave e3", "wave e4"}
    play(env, "wave e4")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    Y    .
              .    .    .    .    .
        4  .    .    .    .    YY   .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert round_and_turn(env) == (4, 0) and acting(env) == "R" and env.agent_selection == "player_0"


# =========================================================================== Wind Gust!


def test_wind_gust_turns_the_rollers_and_the_opposite_colours_winds_in_their_portions():
    """Wind Gust!: "The wind gust affects all winds of the player rolling the
    die, in his/her portion of the ocean, and the winds of the opposite player
    in their own portion of the ocean. All winds of the relevant affected
    players are turned 180 degrees. Rafts do not sail accordingly!" Choice 12.
    Red rolls: its winds on mark rows 1-2 turn round, its wind on row 3 does
    not; blondie's on mark rows 4-5 turn, hers on rows 3 and 1 do not; black's
    and blue's winds stay, even in red's portion. The red raft at a2 and
    blondie's at d5 do not sail. The head to head now between red's b2 and b3
    is no matter: that rule is for placing."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    Y<   .
        5  .    .    .    Y    .    .
              .    .    .    Y>   .
        4  .    .    .    .    .    .
              .    Rv   #    .    Y^
        3  .    .    .    .    .    .
              K>   Rv   .    .    B^
        2  R    .    .    .    .    .
              R^   .    .    .    Y<
        1  .    .    .    .    .    .
    """,
        to_move="B",
    )
    roll(env, "turn e2 cw", "gust")  # blue's own turn: its wind on e2 sails nothing
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    Y>   .
        5  .    .    .    Y    .    .
              .    .    .    Y<   .
        4  .    .    .    .    .    .
              .    Rv   #    .    Y^
        3  .    .    .    .    .    .
              K>   R^   .    .    B>
        2  R    .    .    .    .    .
              Rv   .    .    .    Y<
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert acting(env) == "R" and round_and_turn(env) == (2, 0)


def test_wind_gust_black_and_blue_across_the_board():
    """Wind Gust! for the west-east pair (choice 12): black rolls in round 2;
    its winds on mark columns a-b turn round, its wind on column c does not;
    blue's winds on columns d-e turn, its wind on column c does not; red's
    and blondie's winds stay."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    K<   .    B<
        5  .    .    .    .    .    .
              K^   .    .    .    Yv
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    .    .    .    .    .
              R^   .    .    Bv   .
        2  .    .    .    .    .    .
              .    K>   B^   .    .
        1  .    .    .    .    .    .
    """,
        round=2,
        to_move="B",
    )
    roll(env, "turn c1 cw", "gust")  # blue's own turn: its wind on c1 sails nothing
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    K<   .    B>
        5  .    .    .    .    .    .
              Kv   .    .    .    Yv
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    .    .    .    .    .
              R^   .    .    B^   .
        2  .    .    .    .    .    .
              .    K<   B>   .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)


# =========================================================================== Sea Turtle


def test_sea_turtle_example_blondie_swims_two_legs_over_a_castaway():
    """Sea Turtle: "The Sea turtle allows any castaway in the relevant ocean
    portion to swim to a raft that is 2 legs away in the following round ...
    Only a perpendicular swim is allowed. Castaways can take that action even
    if a different raft is in the way. A castaway can also swim to a same
    color raft 2 legs away if it is at the top of the stack." The book's
    example: "Blondie rolled the Sea turtle. In the following round Blondie's
    castaway can swim/move to a raft that is two legs away". Blondie, first,
    rolls at the end of round 1 and plays first in round 2 (choice 13):
    her castaway at c5 may swim east to e5 over black's castaway, or south
    to the top of the stack at c3 over the empty c4; not west (her raft at a5
    is under red's), not to the diagonal d6. The ordinary swim north stays
    open. The turtle swim is her turn; it uses up the turtle."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    Y    Y    .    .
              .    .    .    .    .
        5  YR   .    Y@   K@   Y    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    .    KY   .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        first="Y",
        to_move="K",
    )
    assert reason(env, "turtle W") == NO_TURTLE  # black plays before the roll
    roll(env, "pass", "turtle")
    assert env.infos["player_2"]["chance"]["die"] == {"face": "turtle", "roller": "blondie"}
    assert turtle(env) == "Y"
    assert acting(env) == "Y" and round_and_turn(env) == (2, 0)
    assert of_kind(env, "turtle") == {"turtle E", "turtle S"}
    assert of_kind(env, "swim") == {"swim N"}
    refused(env, "turtle W", NO_RAFT_TWO_LEGS)
    refused(env, "turtle N", NO_RAFT_TWO_LEGS)
    play(env, "turtle E")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    Y    Y    .    .
              .    .    .    .    .
        5  YR   .    Y    K@   Y@   .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    .    KY   .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
    ), sea(env)
    assert turtle(env) is None
    assert acting(env) == "B" and round_and_turn(env) == (2, 1)


def test_sea_turtle_only_one_castaway_may_use_it_in_a_round():
    """Sea Turtle: "Only one castaway in the relevant ocean portion can take
    this action in a specific round, as players decide together". Choice 13:
    the first colour to use it takes it. Red and black both stand in red's
    portion with a raft two legs away; red swims north to b4 (out of the
    portion: the target may lie anywhere); black may then not swim to c2."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    R    .    .    .    .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    R@   K    .    K@   .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        round=2,
        face="turtle",
        turtle="R",
    )
    assert of_kind(env, "turtle") == {"turtle N"}
    play(env, "turtle N")
    assert castaway(env, "R") == "b4" and turtle(env) is None
    assert acting(env) == "K"
    assert legal_actions(env) == {"pass"}
    refused(env, "turtle W", NO_TURTLE)


TURTLE_FOR_RED = """
       a    b    c    d    e    f
    6  .    .    .    .    .    .
          .    .    .    .    .
    5  .    .    .    .    .    .
          .    .    .    .    .
    4  .    K@   .    .    .    .
          K<   .    #    .    .
    3  R    .    .    .    .    .
          .    .    .    .    .
    2  .    .    .    .    .    .
          .    .    .    .    .
    1  .    K    .    .    .    .
"""


def test_sea_turtle_the_castaway_must_be_in_the_portion_when_it_swims():
    """Choice 13: the turtle waits in the roller's portion; a castaway may use
    it if it stands on a raft there when it swims, wherever it stood at the
    roll; never from the island. Red rolled the turtle. Black, at b4 (row 4),
    is outside red's portion; red, on the island, may not use it; it turns
    black's wind on a3 (its raft at a3 gives it control) and sails black's
    castaway to b3, in the portion; black then swims two legs south to b1."""
    env = position(TURTLE_FOR_RED, round=2, to_move="K", turtle="R")
    refused(env, "turtle S", TURTLE_AWAY)

    env = position(TURTLE_FOR_RED, round=2, turtle="R")
    refused(env, "turtle N", TURTLE_AWAY)
    assert legal_actions(env) == {"turn a3 cw", "turn a3 ccw"}
    play(env, "turn a3 ccw")
    assert castaway(env, "K") == "b3"
    assert of_kind(env, "turtle") == {"turtle S"}
    play(env, "turtle S")
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              Kv   .    #    .    .
        3  R    K    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    K@   .    .    .    .
    """,
    ), sea(env)


def test_sea_turtle_an_unused_turtle_swims_away_at_the_next_roll():
    """Sea Turtle: the swim is offered "in the following round" only (choice
    13: an unused offer expires at the next roll). Nobody used red's turtle
    in round 2; after the roll red's castaway at b2 may no longer swim two
    legs to b4."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    R    .    .    .    .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    R@   .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        round=2,
        to_move="B",
        turtle="R",
    )
    roll(env, "pass", "sunny")
    assert turtle(env) is None
    assert acting(env) == "R" and round_and_turn(env) == (3, 0)
    assert legal_actions(env) == {"pass"}
    refused(env, "turtle N", NO_TURTLE)


# =========================================================================== players and colours


@pytest.mark.parametrize(
    "players, controllers",
    [
        (4, {"R": "player_0", "K": "player_1", "Y": "player_2", "B": "player_3"}),
        (3, {"R": "player_0", "K": "player_1", "Y": "player_0", "B": "player_2"}),
        (2, {"R": "player_0", "K": "player_1", "Y": "player_0", "B": "player_1"}),
    ],
)
def test_each_agent_plays_its_colours_turn_by_turn(players, controllers):
    """Game description: "Co-op mode is played with all 4 castaways in the
    game ... When playing 2 players - each player plays 2 castaways (opposing
    sides). When playing 3 players, one player is to play 2 castaways
    (opposing sides)." Choice 16: player_0 plays red and blondie (south and
    north) with 2 or 3 players, player_1 black and blue with 2; ``infos``
    list each agent's colours; the agent to act is the one playing the
    colour whose turn it is, so a 2-colour agent acts twice a round."""
    env = position(EMPTY_SEA, num_players=players)
    assert env.possible_agents == [f"player_{k}" for k in range(players)]
    assert agent_of_each_colour(env) == controllers
    names = {"R": "red", "K": "black", "Y": "blondie", "B": "blue"}
    for agent in env.possible_agents:
        assert env.infos[agent]["colours"] == [names[c] for c in "RKYB" if controllers[c] == agent]
    seen = []
    for _ in range(3):
        seen.append((acting(env), env.agent_selection))
        play(env, "pass")
    seen.append((acting(env), env.agent_selection))
    roll(env, "pass", "sunny")
    seen.append((acting(env), env.agent_selection))
    assert seen == [(c, controllers[c]) for c in "RKYBR"]


def test_an_agent_with_two_colours_plays_each_by_its_own_rules():
    """Choice 16 with 2 players: player_0 plays red and blondie, but each
    colour's turn is that colour's own. On blondie's turn player_0 swims
    blondie's castaway (not red's, though red could swim east), may move
    blondie's wind but not red's, and turns red's wind on a1 only by wind
    control (blondie's rafts are next to it, not to red's wind on d3)."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    Y<
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    R>   .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  Y    .    .    R@   R    .
              R^   .    .    .    .
        1  Y@   .    .    .    .    .
    """,
        num_players=2,
        to_move="Y",
        first="Y",
    )
    assert env.agent_selection == "player_0" and acting(env) == "Y"
    assert kinds(env) == {"swim", "turn", "move"}
    assert of_kind(env, "swim") == {"swim N"}
    assert of_kind(env, "turn") == {"turn a1 cw", "turn a1 ccw", "turn e5 cw", "turn e5 ccw"}
    assert {a.split()[1] for a in of_kind(env, "move")} == {"e5"}
    refused(env, "turn d3 cw", NO_CONTROL)
    refused(env, "move d3 N", NOT_YOUR_WIND)
    play(env, "swim N")
    assert castaway(env, "Y") == "a2" and castaway(env, "R") == "d2"
    assert acting(env) == "B" and env.agent_selection == "player_1"


# =========================================================================== landing


def test_landing_needs_no_particular_wind_colour():
    """Game Play, 1 (base Getting home: "a wind has to be applied in the
    direction of the lighthouse/beach giving the castaway and his/her raft a
    last push to shore"), choice 17: any wind that pushes a castaway's stack
    from one of its landing spots towards its beach lands it. Red's castaway
    rides on blue's raft at d1; blue turns its own wind on c1 south: the blue
    raft carries red's raft ashore and red is home. The rafts stay at d1
    (choice 14)."""
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    B>   .    .
        1  .    .    .    BR@  .    .
    """,
        to_move="B",
        first="B",
    )
    play(env, "turn c1 cw")
    assert castaway(env, "R") == "home"
    assert same_sea(
        env,
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    Bv   .    .
        1  .    .    .    BR   .    .
    """,
    ), sea(env)
    assert not game_over(env) and acting(env) == "R"


def test_landing_needs_one_of_the_castaways_own_landing_spots():
    """Base Getting home: "the castaways first have to reach any of the 2
    landing spots of their beach". Red's castaway at e1 is on the south edge
    but not on its spots c1-d1: pushed south it stays at sea."""
    env = position("""
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    .    .    .    .    .
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    R>   .
        1  .    .    .    .    R@   .
    """)
    play(env, "turn d1 cw")
    assert castaway(env, "R") == "e1" and acting(env) == "K"


# =========================================================================== the die


def test_the_die_has_six_faces_each_one_in_six():
    """The Actions: "The die represents 6 possible different effects" -- sunny,
    the mermaid, the two waves ("The wave with the square mark ... The wave
    with the circle mark"), the gust and the turtle. Choice 18: explicit
    chance, 1/6 each, listed on the round's 4th action only; an unforced roll
    draws from the game's seed, is reported in every agent's infos for that
    step, and the same seed rolls the same face."""
    env = position(EMPTY_SEA, to_move="B")
    outcomes = env.unwrapped.chance_outcomes(env.unwrapped.str_to_action("pass"))
    assert [(o.label, o.draws) for o in outcomes] == [(f, (k,)) for k, f in enumerate(FACE_NAMES)]
    assert FACE_NAMES == ("sunny", "mermaid", "wave away", "wave towards", "gust", "turtle")
    assert all(o.probability == pytest.approx(1 / 6) for o in outcomes)
    faces = []
    for seed in range(30):
        env = position(EMPTY_SEA, to_move="B")
        # a diagram's state has no generator word of its own: give each one
        env.unwrapped.state.rng[0] = seed * 0x9E3779B97F4A7C15 % 2**64 + 1
        twin = env.clone()
        play_roll = env.unwrapped.str_to_action("pass")
        env.step(play_roll)
        twin.step(play_roll)
        die = env.infos["player_0"]["chance"]["die"]
        assert die["roller"] == "red" and die["face"] in FACE_NAMES
        assert twin.infos["player_0"]["chance"]["die"] == die
        assert all(env.infos[a]["chance"]["die"] == die for a in env.possible_agents)
        faces.append(die["face"])
    assert set(faces) == set(FACE_NAMES)


def test_a_record_keeps_the_faces_the_die_was_forced_to():
    """Choice 18: a game record (``azgames.to_record``) keeps each forced face
    with its action, and replaying it (``azgames.from_record``) reaches the
    same sea: here red's mermaid, then black's circle wave, which carried
    black's castaway west from e4 to d4."""
    env = position(ON_THE_PORTION_EDGES, to_move="B")
    roll(env, "pass", "mermaid")
    play(env, "pass", "pass", "pass")
    roll(env, "pass", "wave towards")
    record = azgames.to_record(env)
    assert [a[1] for a in record["actions"] if isinstance(a, list)] == [[1], [3]]
    again = azgames.from_record(record)
    assert sea(again) == sea(env)
    assert asleep(again) == asleep(env) == ""
    assert round_and_turn(again) == round_and_turn(env) == (3, 0)
    assert castaway(again, "K") == castaway(env, "K") == "d4"
