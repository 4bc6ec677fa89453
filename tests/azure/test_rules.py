r"""Azure Attack rule scenarios: one story per sentence of the rule book
(../shared/rules/azure-attack.txt) and one per choice the project made
where the book is silent or loose (the numbered points of the rule choices,
"choice N" below).

Diagrams use the format of :mod:`azure_env.diagram`: north at the top, rows
numbered from the hunters' end (row 1) and columns a (west) to f. ``-`` is no
tile, ``.`` an empty map square, digits are coins lying on a square; ``m a b
c`` mark the suit tiles of the monster and hunter_0, _1, _2, and ``M A B C``
their pieces, followed by the coins they carry (``A35``). Coins a diagram
does not show are out of the game; most stories leave a spare coin lying in a
corner (``1`` on a10) so that banking gold does not end the game.

The standard map (choice 1): 12 map tiles, 3 wide and 4 long, in rows 3-10;
hunter tile 1 (hunter_0's) on c1-d2, tile 2 on a1-b2, tile 3 on e1-f2, the
monster's tile on c11-d12. Home squares (choice 4): monster c11, hunter_0 d2,
hunter_1 b2, hunter_2 e2.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

import azgames
from azure_env.board import load_layout, map_names

from .helpers import (
    acting,
    banked,
    board,
    fight,
    force_dice,
    legal,
    new_game,
    play,
    position,
    same_board,
    square,
    squares_left,
    tokens,
    turns,
)

# The reasons the env gives for refusing a step (AzureRules.illegal_reason).
OFF_MAP = "there is no square that way"
OTHERS_TILE = "that square is on another player's suit tile"
VISITED = "the piece has already been on that square this turn"

ALL_MOVES = {"N", "E", "S", "W", "stop"}


def refused(env, move: str, why: str) -> None:
    """``move`` is masked out, and playing it raises ValueError naming the
    agent, the action and ``why``, changing nothing."""
    u = env.unwrapped
    action = u.str_to_action(move)
    assert env.observe(env.agent_selection)["action_mask"][action] == 0
    before, actor = board(env), env.agent_selection
    message = f"illegal action {action} ({move}) for {actor}: {why}"
    with pytest.raises(ValueError, match=re.escape(message)):
        play(env, move)
    assert board(env) == before and env.agent_selection == actor


def the_fight(env) -> dict:
    """The fight the last step reported, as every agent sees it."""
    seen = [info.get("chance") for info in env.infos.values()]
    assert all(s == seen[0] for s in seen), seen
    assert seen[0] is not None, "no fight was reported"
    return seen[0]["fight"]


def no_fight_reported(env) -> bool:
    return all("chance" not in info for info in env.infos.values())


def skeleton(text: str) -> list[list[str]]:
    """A diagram's squares with every coin token replaced by ``#``."""
    return [["#" if t.isdigit() else t for t in row] for row in tokens(text)]


def rewards_are(env, **by_letter: float) -> None:
    names = {"M": "monster", "A": "hunter_0", "B": "hunter_1", "C": "hunter_2"}
    assert env.rewards == {names[k]: v for k, v in by_letter.items()}


# =========================================================================== Setup


def test_setup_1_the_standard_map_is_3_by_4_tiles_with_the_suit_tiles_at_either_end():
    """Setup 1 (choice 1): "Place 12 tiles in a 3X4 rectangle then place the
    hunter suit tiles at one end and the monster suit tile at the other end."
    Setup 2 and choice 3: each map tile carries one coin, on its square
    nearest the centre of the map (ties: north, then west -- so the middle
    column's coins lie on column c). Setup 4 (choice 4): the pieces stand on
    their home squares."""
    env = new_game(num_players=4)
    layout = env.unwrapped.rules.layout
    assert (layout.width, layout.height, layout.num_tiles) == (6, 12, 12)
    assert skeleton(board(env)) == skeleton("""
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  .  .  .  .  .  .
         9  .  #  #  .  #  .
         8  .  .  .  .  .  .
         7  .  #  #  .  #  .
         6  .  #  #  .  #  .
         5  .  .  .  .  .  .
         4  .  #  #  .  #  .
         3  .  .  .  .  .  .
         2  b  B  a  A  C  c
         1  b  b  a  a  c  c
            a  b  c  d  e  f
    """), board(env)
    # one coin on each of those squares
    assert all(len(t) == 1 for row in tokens(board(env)) for t in row if t.isdigit())


@pytest.mark.parametrize(
    "num_players, row_2, row_1",
    [
        (2, "-  -  a  A  -  -", "-  -  a  a  -  -"),
        (3, "b  B  a  A  -  -", "b  b  a  a  -  -"),
    ],
)
def test_setup_1_fewer_hunters_leave_their_suit_tiles_out(num_players, row_2, row_1):
    """Setup 1 and choice 4: hunter_0 takes suit tile 1 (the middle one),
    hunter_1 tile 2 (west), hunter_2 tile 3 (east); unused hunter tiles are
    absent from the map."""
    env = new_game(num_players=num_players)
    rows = tokens(board(env))
    assert rows[-2:] == [row_2.split(), row_1.split()], board(env)


def test_setup_2_coin_values_are_a_draw_from_the_tiles_that_are_not_suit_tiles():
    """Setup 2 (choice 2): each map tile brings the coin of its value. The
    suit tiles are the players' nulls, so the 12 map tiles (and their coins)
    are drawn from the other 24 - P tiles of the piecepack: at most four of
    each value 1-5 and at most 4 - P nulls (none with four players), each
    tile as likely as another."""
    for num_players in (2, 3, 4):
        rules = azgames.make("azure", num_players=num_players).unwrapped.rules
        games = 3000
        state = rules.initial_state(np.arange(1, games + 1, dtype=np.uint64))
        counts = np.stack([(state.coin_value == v).sum(axis=1) for v in range(6)], axis=1)
        assert (counts.sum(axis=1) == 12).all()
        assert counts[:, 1:].max() <= 4
        assert counts[:, 0].max() <= 4 - num_players
        pool = 24 - num_players
        # a fair draw without replacement: each value's expected count is 12 x its share of the pool
        for v in range(6):
            share = (4 - num_players if v == 0 else 4) / pool
            assert counts[:, v].mean() == pytest.approx(12 * share, abs=0.06), (num_players, v)
        if num_players < 4:
            assert counts[:, 0].max() == 4 - num_players  # the nulls left over do turn up
        # every coin lies on its tile's square, the same squares in every game
        assert (state.coin_loc == rules.layout.coin_start).all()


def test_setup_2_the_drawn_tiles_are_shuffled_over_the_map_by_the_seed():
    """Setup 2 (choice 2): the set-up is drawn from the game's seed: the
    same seed gives the same map, other seeds other maps, and any value may
    lie on any tile."""
    assert board(new_game(seed=7)) == board(new_game(seed=7))
    assert len({board(new_game(seed=s)) for s in range(10)}) == 10
    rules = azgames.make("azure").unwrapped.rules
    state = rules.initial_state(np.arange(500, dtype=np.uint64))
    for tile in range(12):
        assert set(state.coin_value[:, tile]) == set(range(6))


def test_setup_3_and_choice_3_ties_for_the_centre_go_north_then_west_on_the_long_map():
    """Choice 3: on the long map (rows 3-12) the centre lies between rows 7
    and 8, so the middle row of tiles puts its coins on row 8 (north), and
    the middle column on column c (west)."""
    layout = load_layout("long")
    starts = sorted(layout.name_of(int(s)) for s in layout.coin_start)
    assert starts == sorted(f"{c}{r}" for c in "bce" for r in (4, 6, 8, 9, 11))


def test_setup_4_each_piece_starts_on_its_home_square():
    """Setup 4 (choice 4): "Place players pieces at their suits": the monster
    on c11, hunter_0 on d2, hunter_1 on b2, hunter_2 on e2; infos name them."""
    env = new_game(num_players=4)
    homes = {"monster": "c11", "hunter_0": "d2", "hunter_1": "b2", "hunter_2": "e2"}
    assert {letter: square(env, letter) for letter in "MABC"} == {"M": "c11", "A": "d2", "B": "b2", "C": "e2"}
    for info in env.infos.values():
        assert info["suit_tiles"] == homes
        assert info["turn_order"] == ["hunter_0", "hunter_1", "hunter_2"]


# =========================================================================== Turn order


@pytest.mark.parametrize(
    "num_players, sequence",
    [
        (2, "A A M A A M A A M"),
        (3, "A B M A B M A B M"),
        (4, "A B M C A M B C M A B M"),
    ],
)
def test_play_the_monster_moves_after_every_two_hunter_turns(num_players, sequence):
    """Play: "Monster's turn phase is after every 2 of the hunters' turn"
    (choice 6): hunters begin and rotate; with one hunter it plays twice."""
    env = new_game(num_players=num_players)
    seen = []
    for _ in sequence.split():
        seen.append(acting(env))
        play(env, "stop")
    assert " ".join(seen) == sequence


def test_play_the_hunters_rotate_in_the_turn_order_given():
    """Choice 6 from a mid-game position: with the order hunter_1, hunter_0
    (order="BA") and hunter_1 to move, hunter_0 plays next, then the
    monster, then hunter_1 again."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  B  a  A  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
        num_players=3,
        to_move="B",
        order="BA",
    )
    seen = []
    for _ in range(7):
        seen.append(acting(env))
        play(env, "stop")
    assert " ".join(seen) == "B A M B A M B"


def test_setup_3_random_roles_draw_the_hunters_turn_order_and_suit_tiles_from_the_seed():
    """Setup 3 ("Roll dice to determine turn order"), choice 5: with
    roles="random" the hunters' turn order and which hunter tile each hunter
    gets are drawn from the seed, given in infos["turn_order"] and
    infos["suit_tiles"], and honoured: the first two hunters of the order
    play, then the monster, then the third hunter, ..."""
    homes = {1: "d2", 2: "b2", 3: "e2"}
    orders, seatings = set(), set()
    for seed in range(12):
        env = new_game(num_players=4, seed=seed, roles="random")
        info = env.infos["monster"]
        order = info["turn_order"]
        assert sorted(order) == ["hunter_0", "hunter_1", "hunter_2"]
        assert info["suit_tiles"]["monster"] == "c11"
        assert sorted(info["suit_tiles"][h] for h in order) == ["b2", "d2", "e2"]
        for letter, agent in zip("MABC", env.possible_agents):
            assert square(env, letter) == info["suit_tiles"][agent]
        orders.add(tuple(order))
        seatings.add(tuple(info["suit_tiles"][h] for h in ("hunter_0", "hunter_1", "hunter_2")))
        o0, o1, o2 = order
        expected = [o0, o1, "monster", o2, o0, "monster", o1, o2, "monster"]
        seen = []
        for _ in expected:
            seen.append(env.agent_selection)
            play(env, "stop")
        assert seen == expected, seed
        assert new_game(num_players=4, seed=seed, roles="random").infos["monster"] == info
    assert len(orders) > 2 and len(seatings) > 2
    assert set(homes.values()) == {s for seating in seatings for s in seating}


# =========================================================================== Movement


def _runway(letter: str, carried: str) -> str:
    """The monster on c10 (heading south) or hunter_0 on c3 (heading north),
    carrying ``carried``, with a clear column ahead."""
    if letter == "M":
        return f"""
            12  -  -  m  m  -  -
            11  -  -  m  m  -  -
            10  1  .  M{carried}  .  .  .
             9  .  .  .  .  .  .
             8  .  .  .  .  .  .
             7  .  .  .  .  .  .
             6  .  .  .  .  .  .
             5  .  .  .  .  .  .
             4  .  .  .  .  .  .
             3  .  .  .  .  .  .
             2  -  -  a  A  -  -
             1  -  -  a  a  -  -
                a  b  c  d  e  f
        """
    return f"""
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  A{carried}  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """


@pytest.mark.parametrize(
    "letter, carried, allowance",
    [
        ("M", "", 6),
        ("M", "5", 4),
        ("M", "35", 2),
        ("M", "135", 1),
        ("A", "", 4),
        ("A", "5", 2),
        ("A", "35", 1),
        ("A", "135", 1),
    ],
)
def test_movement_allowance_is_6_or_4_less_2_per_coin_but_at_least_1(letter, carried, allowance):
    """Monster: "Movement is 6 spaces"; Hunters: "Movement is 4 spaces";
    rule 2: "When you have gold you move -2 your normal speed (this
    accumulates for every gold you have)"; choice 7: never below 1. The turn
    ends by itself once the allowance is used up (choice 8)."""
    env = position(_runway(letter, carried), to_move=letter, monster_next=letter == "A")
    direction, start_row, sign = ("S", 10, -1) if letter == "M" else ("N", 3, 1)
    assert squares_left(env) == allowance
    for k in range(1, allowance):
        play(env, direction)
        assert acting(env) == letter and squares_left(env) == allowance - k
    play(env, direction)
    assert acting(env) == ("A" if letter == "M" else "M")
    assert square(env, letter) == f"c{start_row + sign * allowance}"
    assert banked(env)[letter] == 0 and turns(env) == 1
    row = tokens(board(env))[12 - (start_row + sign * allowance)]
    assert row[2] == letter + carried


def test_play_one_movement_is_one_square_north_east_south_or_west():
    """Play: "1 movement is a square on the tile"; Hunters: "Move to an
    adjacent tile" -- choice 8: each step moves one square N, E, S or W;
    there is no square beyond the map's edge, nor where no tile lies."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  A  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        monster_next=True,
    )
    assert legal(env) == {"E", "S", "W", "stop"}
    refused(env, "N", OFF_MAP)  # b11: no tile north of b10
    play(env, "S", "E", "N")
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  A  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert acting(env) == "A" and squares_left(env) == 1
    play(env, "E")
    assert square(env, "A") == "d10" and acting(env) == "M"
    # the west edge
    env = position("""
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  A  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """)
    refused(env, "W", OFF_MAP)


def test_play_a_piece_may_stop_before_moving():
    """Monster/Hunters: "can stay in an area instead of moving on" (choice
    8): stop is always legal, even as the turn's first action; the piece
    stays and the turn passes."""
    diagram = """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  A  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """
    env = position(diagram, monster_next=True)
    assert legal(env) == ALL_MOVES
    play(env, "stop")
    assert same_board(env, diagram), board(env)
    assert acting(env) == "M" and turns(env) == 1
    assert legal(env) == {"N", "E", "S", "stop"}  # the monster at home: c12, d11 (its tile), c10
    play(env, "stop")
    assert same_board(env, diagram) and acting(env) == "A"


def test_play_a_piece_may_stop_part_way():
    """Monster: "can stay in an area instead of moving on": the monster
    moves two of its six squares and stops there."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  A  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        to_move="M",
    )
    play(env, "S", "S")
    assert acting(env) == "M" and squares_left(env) == 4
    play(env, "stop")
    assert square(env, "M") == "c9" and acting(env) == "A"


def test_monster_cannot_backtrack_in_the_same_turn():
    """Monster: "you cannot backtrack in the same turn" (choice 9): no square
    visited this turn may be entered again, the start square included."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  M  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  A  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        to_move="M",
    )
    play(env, "N")  # c9
    refused(env, "S", VISITED)  # back to the start square c8
    play(env, "E", "S")  # d9, d8
    assert legal(env) == {"E", "S", "stop"}  # d9 (N) visited, c8 (W) the start
    refused(env, "W", VISITED)
    refused(env, "N", VISITED)
    play(env, "S", "W")  # d7, c7
    assert legal(env) == {"S", "W", "stop"}  # c8 (N) the start, d7 (E) visited
    play(env, "W")  # b7: the sixth square
    assert square(env, "M") == "b7" and acting(env) == "A"


def test_hunter_cannot_backtrack_but_may_return_next_turn():
    """Hunters: "you cannot backtrack in the same turn" (choice 9): a hunter
    may not step back onto its start square; its next turn starts a fresh
    set of visited squares, so it may then. (Two players: the hunter plays
    twice before the monster, choice 6.)"""
    env = position("""
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  A  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """)
    play(env, "N")
    assert legal(env) == {"N", "E", "W", "stop"}
    refused(env, "S", VISITED)
    play(env, "E", "S")  # d5, d4
    refused(env, "W", VISITED)  # c4, the start square
    play(env, "stop")
    assert acting(env) == "A" and square(env, "A") == "d4"
    assert legal(env) == {"N", "E", "S", "W", "stop"}
    play(env, "W")
    assert square(env, "A") == "c4" and acting(env) == "A"


def test_choice_9_squares_moved_through_earlier_in_the_turn_stay_barred():
    """Choice 9, mid-turn: hunter_0 has come c3, c4, c5 this turn (two of its
    four squares): c4 is barred, and two squares are left."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  A  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        steps_taken="c3 c4 c5",
        monster_next=True,
    )
    assert squares_left(env) == 2 and legal(env) == {"N", "E", "W", "stop"}
    refused(env, "S", VISITED)
    play(env, "E", "S")  # d5, d4
    assert square(env, "A") == "d4" and acting(env) == "M"


# =========================================================================== Gold


def test_hunters_rule_1_and_2_picking_up_gold_mid_move_ends_the_turn_at_once():
    """Hunters, rule 1: "Pick up gold by passing over it"; rule 2 and choice
    7: the allowance drops at once, so a hunter that has already moved 2
    squares when it picks up its first coin (allowance now 2) stops there."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  4  .  .  .
         4  .  .  .  .  .  .
         3  .  .  A  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        monster_next=True,
    )
    play(env, "N")
    assert squares_left(env) == 3
    play(env, "N")
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  . A4  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert acting(env) == "M"


def test_hunters_rule_2_a_hunter_that_picks_up_gold_early_moves_on_with_what_is_left():
    """Rule 2, choice 7: a coin picked up on the first square cuts the
    allowance to 2: one square left, then the turn ends."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  4  .  .  .
         3  .  .  A  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        monster_next=True,
    )
    play(env, "N")
    assert acting(env) == "A" and squares_left(env) == 1
    play(env, "E")
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  . A4  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert acting(env) == "M"


def test_monster_rule_2_the_monsters_allowance_drops_with_each_coin_it_picks_up():
    """Monster, rule 2, choice 7: with no gold the monster may move 6; after
    its first coin (2nd square) 4, so it goes on; its second coin (4th
    square) cuts it to 2, already used up: the turn ends there at once."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  .  .  M  .  .  .
         9  .  .  .  .  .  .
         8  .  .  2  .  .  .
         7  .  .  .  .  .  .
         6  .  .  3  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  1  .  .  .  .  .
         2  -  -  a  A  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        to_move="M",
    )
    play(env, "S", "S")
    assert acting(env) == "M" and squares_left(env) == 2
    play(env, "S", "S")
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  .  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  . M23  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  1  .  .  .  .  .
         2  -  -  a  A  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert acting(env) == "A"


def test_hunters_rule_1_a_piece_picks_up_every_coin_on_the_square():
    """Rule 1, choice 11: entering a square with coins picks up all of them
    (it is not optional); two coins leave a hunter 1 square, used up."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  . 35  .  .  .
         3  .  .  A  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        monster_next=True,
    )
    play(env, "N")
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  . A35 .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert acting(env) == "M"


def test_hunters_rule_1_and_6_banking_gold_ends_the_turn():
    """Rule 1: "bring it back to your suit tile"; rule 6: "When dropping off
    gold you forfeit the rest of your turn" (choice 12): stepping onto any
    square of its own suit tile banks everything the hunter carries, and the
    turn ends with squares unused. No reward until the game ends (choice
    18)."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  . A35 .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        banked={"A": "2"},
        monster_next=True,
    )
    play(env, "S")
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  A  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert banked(env) == {"M": 0, "A": 10}
    assert acting(env) == "M"
    assert env.rewards == {"monster": 0.0, "hunter_0": 0.0}
    assert not any(env.terminations.values())


def test_hunters_rule_6_banking_with_squares_left_ends_the_turn():
    """Rule 6 (choice 12): a hunter carrying one coin (allowance 2) banks it
    on its first square; its second square is forfeit."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  . A4  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        monster_next=True,
    )
    play(env, "S")
    assert square(env, "A") == "d2" and banked(env)["A"] == 4
    assert acting(env) == "M"


def test_choice_12_entering_your_own_tile_without_gold_does_not_end_the_turn():
    """Choice 10 and 12: a piece may move about its own suit tile; entering
    it without gold banks nothing and the turn goes on."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  A  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        monster_next=True,
    )
    play(env, "S")
    assert acting(env) == "A" and squares_left(env) == 3
    play(env, "W", "S")
    assert acting(env) == "A" and square(env, "A") == "c1"
    play(env, "E")
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  A  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert acting(env) == "M" and banked(env) == {"M": 0, "A": 0}


def test_objective_the_monster_banks_on_its_own_suit_tile():
    """Objective and rule 8: the monster, too, carries gold to its suit
    tile; entering it banks all it carries and ends its turn."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  . M35  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  A  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        to_move="M",
    )
    assert squares_left(env) == 2
    play(env, "N")
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  m  M  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  A  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert banked(env) == {"M": 8, "A": 0} and acting(env) == "A"


# =========================================================================== Suit tiles


def test_hunters_rule_7_hunters_cannot_enter_each_others_suit_tiles():
    """Rule 7: "Hunters cannot enter each other's suit tiles" (choice 10):
    hunter_0 on its own tile may not step west onto hunter_1's tile, nor
    from the map onto hunter_2's."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  B  A  a  C  c
         1  b  b  a  a  c  c
            a  b  c  d  e  f
    """,
        num_players=4,
    )
    assert legal(env) == {"N", "E", "S", "stop"}
    refused(env, "W", OTHERS_TILE)  # b2, hunter_1's tile (and piece)
    play(env, "E", "N", "E")  # d2, d3, e3
    refused(env, "S", OTHERS_TILE)  # e2: hunter_2's tile and piece: no attack there
    play(env, "E")  # f3
    assert acting(env) == "B"
    # hunter_1 from the map onto hunter_0's tile
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  B  .  .  .
         2  b  b  a  A  c  C
         1  b  b  a  a  c  c
            a  b  c  d  e  f
    """,
        num_players=4,
        to_move="B",
    )
    refused(env, "S", OTHERS_TILE)  # c2
    play(env, "W", "S")  # b3, then b2 on its own tile
    assert square(env, "B") == "b2" and acting(env) == "B"


def test_choice_10_hunters_cannot_enter_the_monsters_suit_tile():
    """Choice 10: the monster's suit tile is barred to the hunters, empty or
    not: a monster at home cannot be attacked."""
    env = position("""
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  A  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """)
    assert legal(env) == {"E", "S", "W", "stop"}
    refused(env, "N", OTHERS_TILE)  # c11, the monster's square
    play(env, "E")
    refused(env, "N", OTHERS_TILE)  # d11, empty, of the monster's tile


def test_choice_10_the_monster_cannot_enter_a_hunters_suit_tile():
    """Choice 10: the hunters' tiles are barred to the monster, so a hunter
    at home is safe from attack."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  M  .  .
         2  b  B  a  A  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
        num_players=3,
        to_move="M",
    )
    assert legal(env) == {"N", "E", "W", "stop"}
    refused(env, "S", OTHERS_TILE)  # d2: hunter_0 at home
    play(env, "W")
    refused(env, "S", OTHERS_TILE)  # c2, empty, of hunter_0's tile
    play(env, "W")
    refused(env, "S", OTHERS_TILE)  # b2: hunter_1 at home


def test_choice_10_the_monster_may_move_about_its_own_tile():
    """Choice 10: "A piece may move about its own tile"."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  A  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        to_move="M",
    )
    play(env, "N", "E", "S", "S")  # c12, d12, d11, d10
    assert square(env, "M") == "d10" and acting(env) == "M" and squares_left(env) == 2


def test_choice_4_unused_hunter_tiles_are_absent():
    """Choice 4: with two players the tiles of hunters 2 and 3 are not on the
    map: there is no square there."""
    env = position("""
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  A  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """)
    assert legal(env) == {"N", "E", "S", "stop"}
    refused(env, "W", OFF_MAP)
    play(env, "E")
    refused(env, "E", OFF_MAP)


# --------------------------------------------------------------------------- Rule 7, read literally
# suit_tiles="literal" (rules page, open point 12): "Hunters cannot enter each
# other's suit tiles" bars nobody else, so the monster may enter the hunters'
# suit tiles and the hunters the monster's. Home squares stay their owner's
# alone, so a piece sent home always finds its square free. The default,
# suit_tiles="closed", is tested above.

LITERAL = {"suit_tiles": "literal"}


def test_hunters_rule_7_literal_the_monster_may_enter_and_cross_the_hunters_suit_tiles():
    """Rule 7, literal: the monster steps from the map onto hunter_0's tile
    (c2), across it and onto hunter_1's (b1); the hunters' home squares (d2,
    b2) stay barred, with their hunters at home: no attack there."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  M  .  .  .
         2  b  B  a  A  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
        num_players=3,
        to_move="M",
        **LITERAL,
    )
    assert legal(env) == ALL_MOVES
    play(env, "S")  # c2, hunter_0's tile
    refused(env, "E", OTHERS_TILE)  # d2: hunter_0's home square
    refused(env, "W", OTHERS_TILE)  # b2: hunter_1's home square
    play(env, "S", "W")  # c1, then b1 on hunter_1's tile
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  B  a  A  -  -
         1  b  M  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert acting(env) == "M" and squares_left(env) == 3
    refused(env, "N", OTHERS_TILE)  # b2 again: hunter_1 at home


def test_hunters_rule_7_literal_hunters_still_cannot_enter_each_others_suit_tiles():
    """Rule 7, literal: what the book does say still holds: hunter_0 on a3
    may not step onto hunter_1's tile (a2), empty as it is."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  A  .  .  .  .  .
         2  b  B  a  a  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
        num_players=3,
        **LITERAL,
    )
    refused(env, "S", OTHERS_TILE)
    assert legal(env) == {"N", "E", "stop"}


def test_hunters_rule_7_literal_home_squares_stay_barred_when_empty():
    """Rule 7, literal (open point 12): another player's home square is
    barred even when its piece is away: the monster may not step onto d2,
    hunter_0's home, nor hunter_0 onto c11, the monster's."""
    diagram = """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  A  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  M  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """
    env = position(diagram, to_move="M", **LITERAL)
    refused(env, "S", OTHERS_TILE)
    env = position(diagram, to_move="A", **LITERAL)
    refused(env, "N", OTHERS_TILE)
    play(env, "E", "N")  # d10, then d11: the rest of the monster's tile is open
    assert square(env, "A") == "d11"


def test_hunters_rule_7_literal_a_hunter_on_the_monsters_tile_banks_nothing_there():
    """Rule 7, literal, and hunters' rule 1 ("bring it back to your suit
    tile"): hunter_0, carrying a 3, steps onto the monster's tile (d11, then
    d12); it banks nothing there, and its turn goes on until its allowance
    (4 - 2 = 2) is used."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  . A3  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        **LITERAL,
    )
    play(env, "N")  # d11
    assert acting(env) == "A" and squares_left(env) == 1
    refused(env, "W", OTHERS_TILE)  # c11: the monster at home
    play(env, "N")  # d12: the turn's two squares are used
    assert same_board(
        env,
        """
        12  -  -  m A3  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert banked(env)["A"] == 0 and turns(env) == 1


def test_hunters_rule_7_literal_the_monster_attacks_a_hunter_on_its_own_tile():
    """Rule 7, literal, with rules 4-5: a hunter on its own tile but off its
    home square can be attacked. The monster wins the tie (rule 5), the
    hunter goes home (d2), the monster takes c2 and plays its extra turn."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  M  .  .  .
         2  -  -  A  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        to_move="M",
        **LITERAL,
    )
    fight(env, "S", 2, 2)
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  M  A  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert the_fight(env)["result"] == "attacker wins"
    assert acting(env) == "M" and squares_left(env) == 6


def test_hunters_rule_7_literal_the_monster_wins_on_its_own_tile_and_banks_the_loot_at_once():
    """Rule 7, literal, with rules 3, 4 and 6: hunter_0 stands on the
    monster's tile (d11) with a 3. The monster attacks from home and wins:
    the hunter drops the 3 on d11 and goes home; the monster, entering its
    own tile with gold, banks it at once. Banking ends that turn, but the
    won attack still gives the monster its extra turn (open point 20)."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M A3  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        to_move="M",
        **LITERAL,
    )
    fight(env, "E", 4, 1)
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  m  M  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  A  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert banked(env)["M"] == 3
    assert acting(env) == "M" and squares_left(env) == 6 and turns(env) == 1


def test_hunters_rule_7_literal_gold_dropped_on_a_hunters_tile_is_banked_by_its_owner():
    """Rule 7, literal, with rules 4 and 1: the monster, carrying a 5 on
    hunter_0's tile (c2), attacks hunter_0 on c3 and loses: it drops the 5
    where it stood, on hunter_0's tile, and goes home (c11). hunter_0 steps
    onto c2, picks the 5 up on its own tile and so banks it, ending its turn."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  A  .  .  .
         2  -  - M5  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        to_move="M",
        **LITERAL,
    )
    fight(env, "N", 1, 4)
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  A  .  .  .
         2  -  -  5  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert acting(env) == "A"
    play(env, "S")
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  A  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert banked(env)["A"] == 5 and turns(env) == 2


def test_hunters_rule_7_literal_a_hunter_wins_onto_its_own_tile_and_banks_the_loot():
    """Rule 7, literal, with rules 3 and 6: the monster stands on hunter_0's
    tile (c2) with a 4; hunter_0 attacks it from home (d2) and wins: the
    monster drops the 4 and goes home, and hunter_0, landing on c2 of its own
    tile, banks the 4 at once; the attack ends its turn."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  - M4  A  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        **LITERAL,
    )
    fight(env, "W", 5, 0)
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  A  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert banked(env)["A"] == 4 and turns(env) == 1


def test_suit_tiles_option_is_checked():
    """The option takes "closed" (the default) or "literal" and nothing else."""
    assert new_game().unwrapped.rules.options["suit_tiles"] == "closed"
    with pytest.raises(ValueError, match=r"suit_tiles='open'.*'closed', 'literal'"):
        azgames.make("azure", suit_tiles="open")


# =========================================================================== Combat


def test_hunters_rule_5_the_monster_attacks_and_wins_a_tie():
    """Rule 3-5 (choices 13-16): stepping onto a hunter is an attack; both
    roll, the attacker first; "In the event of a draw the monster wins".
    The hunter goes home with no gold, its coin dropped on the contested
    square, and the monster moves there and picks it up. Play (choice 17):
    the monster's win gives it an extra turn at once, with a fresh allowance
    (4: it now carries a coin) and a fresh set of visited squares (c6, where
    it attacked from, may be entered again)."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  M  .  .  .
         5  .  . A4  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        to_move="M",
    )
    assert no_fight_reported(env)
    fight(env, "S", 3, 3)
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  . M4  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  A  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert the_fight(env) == {
        "attacker": "monster",
        "defender": "hunter_0",
        "rolls": [3, 3],
        "result": "attacker wins",
    }
    assert acting(env) == "M" and squares_left(env) == 4 and turns(env) == 1
    assert legal(env) == ALL_MOVES
    play(env, "N")  # back to c6: a fresh turn
    assert square(env, "M") == "c6" and no_fight_reported(env)
    play(env, "N", "N", "N")  # c7, c8, c9: four squares
    assert acting(env) == "A" and square(env, "M") == "c9" and turns(env) == 2


def test_hunters_rule_4_the_monster_attacks_and_loses():
    """Rule 4: "Combat is a roll vs roll with the highest wins. Loser is sent
    back to their suit with no gold" (choice 15): the losing monster drops
    its gold on the square it attacked from and goes home; its turn is over
    (choice 17). The winning defender stays where it is and takes nothing
    (choice 16); anyone may pick the dropped gold up later (rule 3)."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  . M3  .  .  .
         5  .  .  A  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        to_move="M",
    )
    fight(env, "S", 2, 4)
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  3  .  .  .
         5  .  .  A  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert the_fight(env) == {
        "attacker": "monster",
        "defender": "hunter_0",
        "rolls": [2, 4],
        "result": "defender wins",
    }
    assert acting(env) == "A"
    play(env, "N")  # the hunter picks up the dropped coin
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  . A3  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert acting(env) == "A" and squares_left(env) == 1


def test_hunters_rule_5_a_hunter_attacks_the_monster_and_loses_a_tie():
    """Rule 5 (choice 14): the monster wins ties whoever attacked. The
    hunter drops its gold on the square it attacked from and goes home; the
    monster, a defender, stays with its own gold and gets no extra turn
    (choice 17): the next hunter plays."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  . M2  .  .  .
         5  .  . A5  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  B  a  a  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
        num_players=3,
    )
    fight(env, "N", 4, 4)
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  . M2  .  .  .
         5  .  .  5  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  B  a  A  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert the_fight(env) == {
        "attacker": "hunter_0",
        "defender": "monster",
        "rolls": [4, 4],
        "result": "defender wins",
    }
    assert acting(env) == "B" and turns(env) == 1


def test_hunters_rule_3_a_hunter_beats_the_monster_and_takes_its_gold():
    """Rule 3: "Attacking each other can make people drop their gold for you
    to pick up" (choices 15, 16): the winning hunter moves onto the contested
    square and picks up the monster's dropped gold; the monster goes home.
    The attack ends the hunter's turn although it had squares left (choice
    17)."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  . M2  .  .  .
         5  .  .  .  .  .  .
         4  .  .  A  .  .  .
         3  .  .  .  .  .  .
         2  b  B  a  a  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
        num_players=3,
    )
    play(env, "N")
    assert squares_left(env) == 3
    fight(env, "N", 5, 1)
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  . A2  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  B  a  a  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert the_fight(env)["result"] == "attacker wins"
    assert acting(env) == "B"


def test_hunters_rule_5_between_hunters_a_tie_sends_both_home():
    """Rule 5: "between hunters both go back to their suit tiles with no
    gold" (choices 14, 15): each drops its gold where it stood -- the
    defender on the contested square, the attacker on the square it attacked
    from."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  . B4  .  .  .
         5  .  . A3  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  b  a  a  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
        num_players=3,
    )
    fight(env, "N", 2, 2)
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  4  .  .  .
         5  .  .  3  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  B  a  A  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert the_fight(env) == {
        "attacker": "hunter_0",
        "defender": "hunter_1",
        "rolls": [2, 2],
        "result": "both go home",
    }
    assert acting(env) == "B"


def test_hunters_rule_3_a_hunter_beats_another_hunter_and_takes_its_gold():
    """Rule 3 (choice 13: hunters may attack hunters; choice 16): the winner
    moves onto the contested square and picks up the loser's gold; the
    attack ends its turn (choice 17)."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  . B4  .  .  .
         5  .  .  .  .  .  .
         4  .  . A3  .  .  .
         3  .  .  .  .  .  .
         2  b  b  a  a  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
        num_players=3,
    )
    play(env, "N")
    assert acting(env) == "A" and squares_left(env) == 1
    fight(env, "N", 5, 0)
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  . A34 .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  B  a  a  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert the_fight(env) == {
        "attacker": "hunter_0",
        "defender": "hunter_1",
        "rolls": [5, 0],
        "result": "attacker wins",
    }
    assert acting(env) == "B"


def test_hunters_rule_3_and_4_a_hunter_defends_and_later_picks_up_the_attackers_gold():
    """Rules 3 and 4 (choices 15, 16): the attacking hunter loses: it goes
    home and its gold lies on the square it attacked from; the defender
    stays put without it, and picks it up on its own turn (two coins: its
    allowance, 1, is used up at once)."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  . B4  .  .  .
         5  .  . A3  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  b  a  a  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
        num_players=3,
    )
    fight(env, "N", 1, 5)
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  . B4  .  .  .
         5  .  .  3  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  b  a  A  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert the_fight(env)["result"] == "defender wins"
    assert acting(env) == "B"
    play(env, "S")
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  . B34 .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  b  a  A  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert acting(env) == "M"


def test_play_the_monsters_extra_turn_after_moving_uses_the_gold_it_now_carries():
    """Play: "After each successful attack from the monster it gets an extra
    turn that takes effect immediately" (choice 17): the monster (one coin)
    moves two squares, attacks and wins, taking two coins: its extra turn
    starts afresh on the contested square with allowance 1 (three coins),
    and may step back onto c6, visited in the turn before."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  . M1  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  . A35 .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        to_move="M",
    )
    play(env, "S", "S")
    assert squares_left(env) == 2
    fight(env, "S", 1, 1)
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  . M135 .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  A  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert acting(env) == "M" and squares_left(env) == 1
    assert legal(env) == ALL_MOVES
    play(env, "N")
    assert square(env, "M") == "c6" and acting(env) == "A"


def test_play_the_monsters_extra_turns_chain():
    """Choice 17: "Extra turns can chain": each win starts another extra
    turn (each counts as a turn, choice 19); when the monster finally stops,
    the next hunter plays."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  M  .  .  .
         7  .  . A2  .  .  .
         6  .  .  .  .  .  .
         5  .  . B1  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  b  a  a  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
        num_players=3,
        to_move="M",
    )
    fight(env, "S", 4, 2)
    assert acting(env) == "M" and squares_left(env) == 4 and turns(env) == 1
    play(env, "S")
    fight(env, "S", 0, 0)
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  . M12 .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  B  a  A  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert the_fight(env) == {
        "attacker": "monster",
        "defender": "hunter_1",
        "rolls": [0, 0],
        "result": "attacker wins",
    }
    assert acting(env) == "M" and squares_left(env) == 2 and turns(env) == 2
    play(env, "stop")
    assert acting(env) == "A" and turns(env) == 3


def test_choice_13_unforced_fights_roll_the_games_seeded_dice():
    """Choice 13: the dice come from the game's seeded generator: the same
    seed rolls the same faces, other seeds others, and the result follows
    the rolls (the monster wins ties). The rolls are reported in
    infos[agent]["chance"] (choice 20)."""
    diagram = """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  M  .  .  .
         5  .  . A4  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """
    seen = set()
    for seed in range(30):
        rolls = []
        for _ in range(2):
            env = position(diagram, to_move="M", seed=seed)
            play(env, "S")
            rolls.append(the_fight(env)["rolls"])
        assert rolls[0] == rolls[1]
        a, d = rolls[0]
        assert 0 <= a <= 5 and 0 <= d <= 5
        if a >= d:
            assert the_fight(env)["result"] == "attacker wins"
            assert square(env, "M") == "c5" and square(env, "A") == "d2" and acting(env) == "M"
        else:
            assert the_fight(env)["result"] == "defender wins"
            assert square(env, "M") == "c11" and square(env, "A") == "c5" and acting(env) == "A"
        seen.add((a, d))
    assert len(seen) > 10


def test_choice_13_forced_faces_queued_in_the_state_decide_the_next_fight():
    """Choice 13: faces queued with force_draws (state.forced) are the next
    fight's rolls, attacker's first."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  B  .  .  .
         5  .  .  A  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  b  a  a  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
        num_players=3,
    )
    force_dice(env, 0, 1)
    play(env, "N")
    assert the_fight(env) == {
        "attacker": "hunter_0",
        "defender": "hunter_1",
        "rolls": [0, 1],
        "result": "defender wins",
    }
    assert square(env, "A") == "d2" and square(env, "B") == "c6"


def test_choice_13_chance_outcomes_of_the_monster_attacking():
    """Choices 13-14: the monster attacking wins on 21 of the 36 rolls (ties
    included), loses on 15; a step onto no piece draws nothing."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  M  .  .  .
         5  .  .  A  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        to_move="M",
    )
    u = env.unwrapped
    outcomes = u.chance_outcomes(u.str_to_action("S"))
    assert [(o.label, o.draws) for o in outcomes] == [("attacker wins", (0, 0)), ("defender wins", (0, 1))]
    assert [o.probability for o in outcomes] == pytest.approx([21 / 36, 15 / 36])
    every = u.chance_outcomes(u.str_to_action("S"), merge=False)
    assert len(every) == 36
    assert sorted(o.draws for o in every) == [(a, d) for a in range(6) for d in range(6)]
    assert all(o.probability == pytest.approx(1 / 36) for o in every)
    assert Counter(o.label for o in every) == {"attacker wins": 21, "defender wins": 15}
    assert all((o.label == "attacker wins") == (o.draws[0] >= o.draws[1]) for o in every)
    assert u.chance_outcomes(u.str_to_action("E")) == []
    assert u.chance_outcomes(u.str_to_action("stop")) == []
    u.step_outcome(u.str_to_action("S"), outcomes[1])  # the ChanceOutcome itself
    assert the_fight(env)["result"] == "defender wins" and square(env, "M") == "c11"


def test_choice_14_chance_outcomes_of_a_hunter_attacking():
    """Choice 14: a hunter attacking the monster wins on 15 of the 36 rolls
    (strictly higher); against a hunter it wins on 15, loses on 15, and on
    the 6 ties both go home."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  M  .  .  .
         5  .  B  A  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  b  a  a  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
        num_players=3,
    )
    u = env.unwrapped
    at_monster = u.chance_outcomes(u.str_to_action("N"))
    assert [(o.label, o.draws) for o in at_monster] == [("defender wins", (0, 0)), ("attacker wins", (1, 0))]
    assert [o.probability for o in at_monster] == pytest.approx([21 / 36, 15 / 36])
    at_hunter = u.chance_outcomes(u.str_to_action("W"))
    assert [(o.label, o.draws) for o in at_hunter] == [
        ("both go home", (0, 0)),
        ("defender wins", (0, 1)),
        ("attacker wins", (1, 0)),
    ]
    assert [o.probability for o in at_hunter] == pytest.approx([6 / 36, 15 / 36, 15 / 36])
    every = u.chance_outcomes(u.str_to_action("W"), merge=False)
    assert len(every) == 36
    assert Counter(o.label for o in every) == {"both go home": 6, "defender wins": 15, "attacker wins": 15}
    assert all((o.label == "both go home") == (o.draws[0] == o.draws[1]) for o in every)


# =========================================================================== The end


# hunter_0 carries the last coin (a 4) on d3, one step above its suit tile.
LAST_COIN = """
    12  -  -  m  m  -  -
    11  -  -  M  m  -  -
    10  .  .  .  .  .  .
     9  .  .  .  .  .  .
     8  .  .  .  .  .  .
     7  .  .  .  .  .  .
     6  .  .  .  .  .  .
     5  .  .  .  .  .  .
     4  .  .  .  .  .  .
     3  .  .  . A4  .  .
     2  b  B  a  a  -  -
     1  b  b  a  a  -  -
        a  b  c  d  e  f
"""


def test_rule_8_the_last_coin_banked_ends_the_game_and_the_hunters_win():
    """Rule 8 (choices 18, 20): "After each gold token has been taken to a
    suit tile the game is over": the hunters' combined 7 beats the monster's
    5, so every hunter gets +1 and the monster -1; hunter_0, with 4, is the
    top hunter."""
    env = position(LAST_COIN, num_players=3, banked={"M": "5", "B": "3"})
    play(env, "S")
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  .  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  b  B  a  A  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    rewards_are(env, M=-1.0, A=1.0, B=1.0)
    scores = {"monster": 5, "hunter_0": 4, "hunter_1": 3}
    for agent, info in env.infos.items():
        assert info["score"] == scores[agent]
        assert info["scores"] == scores
        assert info["hunters_total"] == 7 and info["monster_total"] == 5
        assert info["winners"] == ["hunter_0", "hunter_1"]
        assert info["top_hunter"] == ["hunter_0"]
        assert info["turn_order"] == ["hunter_0", "hunter_1"]
        assert info["suit_tiles"] == {"monster": "c11", "hunter_0": "d2", "hunter_1": "b2"}
    assert legal(env) == set()


def test_rule_8_the_monster_wins_with_more_gold_than_all_the_hunters():
    """Rule 8 (choice 18): "the winner is the side with the highest gold
    value": the monster banks the last coin, 5 against the hunter's 3; with
    two players the rewards are zero-sum."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  .  . M5  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  A  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        to_move="M",
        banked={"A": "3"},
    )
    play(env, "N")
    assert square(env, "M") == "c11" and banked(env) == {"M": 5, "A": 3}
    assert all(env.terminations.values())
    rewards_are(env, M=1.0, A=-1.0)
    info = env.infos["hunter_0"]
    assert info["winners"] == ["monster"] and info["top_hunter"] == ["hunter_0"]
    assert (info["monster_total"], info["hunters_total"]) == (5, 3)
    assert env.infos["monster"]["score"] == 5 and info["score"] == 3


def test_rule_8_equal_totals_are_a_draw():
    """Choice 18: equal totals give 0 to every agent, and no winners."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  .  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  . A13 .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        banked={"M": "4"},
    )
    play(env, "S")
    assert all(env.terminations.values())
    rewards_are(env, M=0.0, A=0.0)
    assert env.infos["monster"]["winners"] == []
    assert env.infos["monster"]["scores"] == {"monster": 4, "hunter_0": 4}


def test_rule_8_the_top_hunter_and_the_winning_side_are_separate_questions():
    """Rule 8 (choices 18, 20): "Highest score is the top hunter" (every
    hunter sharing the best score is listed), while the side decides the
    game: the monster banked the most of anyone (10), but the hunters'
    combined 14 wins."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  .  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  . A4  .  .
         2  b  B  a  a  C  c
         1  b  b  a  a  c  c
            a  b  c  d  e  f
    """,
        num_players=4,
        banked={"M": "55", "B": "5", "C": "23"},
    )
    play(env, "S")
    rewards_are(env, M=-1.0, A=1.0, B=1.0, C=1.0)
    info = env.infos["hunter_2"]
    assert info["scores"] == {"monster": 10, "hunter_0": 4, "hunter_1": 5, "hunter_2": 5}
    assert info["top_hunter"] == ["hunter_1", "hunter_2"]
    assert info["winners"] == ["hunter_0", "hunter_1", "hunter_2"]
    assert (info["hunters_total"], info["monster_total"]) == (14, 10)


def test_choice_18_the_game_goes_on_while_any_coin_is_unbanked_and_rewards_wait_for_the_end():
    """Choice 18: banking is not the end while a coin still lies on the map
    or is carried; "Rewards are only given at the end"."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  .  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  . B2  .  .  .
         4  .  .  .  .  .  .
         3  .  .  . A4  .  .
         2  b  b  a  a  -  -
         1  b  b  a  a  -  -
            a  b  c  d  e  f
    """,
        num_players=3,
    )
    play(env, "S")  # hunter_0 banks 4; hunter_1 still carries 2
    assert not any(env.terminations.values()) and acting(env) == "B"
    assert env.rewards == {"monster": 0.0, "hunter_0": 0.0, "hunter_1": 0.0}
    play(env, "W", "S")  # b5, b4: the turn is over
    play(env, "stop")  # the monster
    play(env, "stop")  # hunter_0 (turn order A B M A B M)
    play(env, "S", "S")  # hunter_1: b3, b2: banks the last coin
    assert all(env.terminations.values())
    rewards_are(env, M=-1.0, A=1.0, B=1.0)
    assert env.infos["monster"]["scores"] == {"monster": 0, "hunter_0": 4, "hunter_1": 2}


def test_choice_19_the_final_turn_counts_as_finished():
    """Choices 19-20: infos["turns"] counts finished turns; the turn that
    banks the last coin has finished too (rule 6 ends it), so a game that
    ends on the first turn reports 1."""
    env = position("""
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  .  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  . A4  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """)
    play(env, "S")
    assert all(env.terminations.values())
    assert env.infos["monster"]["turns"] == 1


# =========================================================================== Turn limit


def test_choice_19_the_turn_limit_truncates_the_game_and_banked_gold_decides():
    """Choice 19: the game stops after max_turns finished turns, flagged as
    truncated; banked gold decides as at the end (here nobody banked
    anything: a draw)."""
    env = new_game(max_turns=3)
    play(env, "stop", "stop")
    assert not any(env.truncations.values())
    play(env, "stop")  # the monster's: the third turn
    assert all(env.truncations.values()) and not any(env.terminations.values())
    rewards_are(env, M=0.0, A=0.0)
    info = env.infos["hunter_0"]
    assert info["turns"] == 3 and info["winners"] == [] and info["scores"] == {"monster": 0, "hunter_0": 0}
    assert legal(env) == set()


def test_choice_19_extra_turns_count_toward_the_limit_and_banked_gold_decides():
    """Choice 19: the monster's extra turn counts as a turn: with max_turns=2
    its win and one stop end the game; the hunter's banked 5 outweighs the
    monster's gold (carried gold does not count): +1 to the hunter."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  . M3  .  .  .
         5  .  . A4  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        to_move="M",
        banked={"A": "5"},
        max_turns=2,
    )
    fight(env, "S", 5, 0)
    assert acting(env) == "M" and not any(env.truncations.values())
    play(env, "stop")
    assert all(env.truncations.values())
    assert same_board(
        env,
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  . M34 .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  A  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
    ), board(env)
    rewards_are(env, M=-1.0, A=1.0)
    info = env.infos["monster"]
    assert info["turns"] == 2 and info["winners"] == ["hunter_0"]
    assert (info["hunters_total"], info["monster_total"]) == (5, 0)


def test_choice_19_a_fight_that_ends_the_last_turn_is_still_reported():
    """Choices 19-20: a hunter's attack ends its turn; at the limit the game
    is truncated and the fight still appears in infos["chance"]; the
    monster's banked 4 beats nothing."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  1  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  M  .  .  .
         5  .  .  A  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
            a  b  c  d  e  f
    """,
        banked={"M": "4"},
        max_turns=1,
    )
    fight(env, "N", 5, 2)
    assert all(env.truncations.values())
    assert the_fight(env)["result"] == "attacker wins"
    assert square(env, "A") == "c6" and square(env, "M") == "c11"
    rewards_are(env, M=1.0, A=-1.0)


# =========================================================================== Bonus rules


def test_bonus_rule_2_the_long_map_has_15_tiles():
    """Bonus rule 2: "The map can have more or less tiles" -- map="long",
    15 tiles in 3 x 5 (choice 1), set up like the standard map: a coin on
    each tile's square nearest the centre (choice 3), the monster at home on
    c13."""
    env = new_game(num_players=4, map="long")
    assert env.unwrapped.rules.layout.num_tiles == 15
    assert skeleton(board(env)) == skeleton("""
        14  -  -  m  m  -  -
        13  -  -  M  m  -  -
        12  .  .  .  .  .  .
        11  .  #  #  .  #  .
        10  .  .  .  .  .  .
         9  .  #  #  .  #  .
         8  .  #  #  .  #  .
         7  .  .  .  .  .  .
         6  .  #  #  .  #  .
         5  .  .  .  .  .  .
         4  .  #  #  .  #  .
         3  .  .  .  .  .  .
         2  b  B  a  A  C  c
         1  b  b  a  a  c  c
            a  b  c  d  e  f
    """), board(env)
    assert env.infos["monster"]["suit_tiles"] == {
        "monster": "c13",
        "hunter_0": "d2",
        "hunter_1": "b2",
        "hunter_2": "e2",
    }
    values = Counter(int(t) for row in tokens(board(env)) for t in row if t.isdigit())
    assert sum(values.values()) == 15 and values[0] == 0 and max(values.values()) <= 4
    play(env, "N", "N", "N", "N")  # a game is played on it as usual
    assert acting(env) == "B"


def test_bonus_rule_1_the_ring_map_routes_around_a_lake():
    """Bonus rule 1: "The map can be rearranged in any way" -- map="ring",
    12 tiles in a ring around a lake of missing tiles (choice 1). Coins lie
    on each tile's square nearest the centre; nothing can step into the
    lake."""
    env = new_game(num_players=4, map="ring")
    layout = env.unwrapped.rules.layout
    assert (layout.width, layout.height, layout.num_tiles) == (8, 12, 12)
    assert skeleton(board(env)) == skeleton("""
        12  -  -  -  -  m  m  -  -
        11  -  -  -  -  M  m  -  -
        10  .  .  .  .  .  .  .  .
         9  .  #  .  #  #  .  #  .
         8  .  .  -  -  -  -  .  .
         7  .  #  -  -  -  -  #  .
         6  .  #  -  -  -  -  #  .
         5  .  .  -  -  -  -  .  .
         4  .  #  .  #  #  .  #  .
         3  .  .  .  .  .  .  .  .
         2  -  -  b  B  a  A  C  c
         1  -  -  b  b  a  a  c  c
            a  b  c  d  e  f  g  h
    """), board(env)
    assert env.infos["monster"]["suit_tiles"] == {
        "monster": "e11",
        "hunter_0": "f2",
        "hunter_1": "d2",
        "hunter_2": "g2",
    }
    env = position(
        """
        12  -  -  -  -  m  m  -  -
        11  -  -  -  -  M  m  -  -
        10  1  .  .  .  .  .  .  .
         9  .  .  .  .  .  .  .  .
         8  .  .  -  -  -  -  .  .
         7  .  .  -  -  -  -  .  .
         6  .  A  -  -  -  -  .  .
         5  .  .  -  -  -  -  .  .
         4  .  .  .  .  .  .  .  .
         3  .  .  .  .  .  .  .  .
         2  -  -  b  B  a  a  C  c
         1  -  -  b  b  a  a  c  c
            a  b  c  d  e  f  g  h
    """,
        num_players=4,
        map="ring",
    )
    assert legal(env) == {"N", "S", "W", "stop"}
    refused(env, "E", OFF_MAP)  # c6 lies in the lake
    play(env, "S", "S", "E", "E")  # b5, b4, c4, d4
    assert square(env, "A") == "d4" and acting(env) == "B"


def test_bonus_rules_maps_are_checked():
    """Choice 1: maps are data; an unknown map name is refused, naming the
    known ones."""
    with pytest.raises(ValueError, match="unknown.*standard.*long.*ring"):
        azgames.make("azure", map="hexagon")
    assert {"standard", "long", "ring"} <= set(map_names())
