r"""Azacru rule scenarios: one story per rule of the rule book
(../shared/rules/azacru.txt) and per choice the project made where the book
is silent.

Each test sets up a position from a diagram (format of
:mod:`azacru_env.diagram`: ``.`` neutral, ``0``-``3`` the tile of player_0-player_3,
then an optional piece letter A-D (A = player_0's) and a facing glyph ``^ / > \ v , < ``` for
N NE E SE S SW W NW), plays moves in notation and checks the exact board,
scores, who moves next and the end of the game.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import azacru_env
import azgames
from azacru_env.board import COMPASS, field_name, parse_field

from .helpers import assert_board, board, legal_moves, play, position

BEYOND_POWER = "the distance is beyond the piece's power of movement"
OTHER_TILE = "the destination is another player's tile"
OCCUPIED = "a piece stands on the destination"
BAD_JUMP = "it jumps a piece without being a connection (own tile to own tile)"
BAD_TWIST = "a piece may only twist after crossing a border"
BAD_PASS = "passing is only allowed when no piece can move"


def reason(env, move: str) -> str | None:
    u = env.unwrapped
    return u.rules.illegal_reason(u.state, u.str_to_action(move))


def scores(env) -> list[int]:
    u = env.unwrapped
    return u.rules.scores(u.state)


def pieces_on_board(env, player: int) -> int:
    """Pieces of ``player_<player>`` still on the board."""
    return int((env.unwrapped.state.piece_field[0, player] >= 0).sum())


def ended(env) -> bool:
    return all(env.terminations.values())


# --------------------------------------------------------------------------- moving

LONE_PIECE = r"""
9 .   .   .   | .   .   .   | .   .   .
8 .   .   .   | .   .   .   | .   .   .
7 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
6 .   .   .   | .   .   .   | .   .   .
5 .   .   .   | .   .A^ .   | .   .   .
4 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
3 .   .   .   | .   .   .   | .   .   .
2 .   .   .   | .   .   .   | .   .   .
1 .   .   .   | .   .   .   | .   .   .B^
  a   b   c     d   e   f     g   h   i
"""

AFTER_STRAIGHT = r"""
6 .   .   .   | .   0A^ .   | .   .   .
"""
AFTER_LEFT = r"""
6 .   .   .   | 0A` .   .   | .   .   .
"""
AFTER_RIGHT = r"""
6 .   .   .   | .   .   0A/ | .   .   .
"""


def lone_piece_after(row6: str) -> str:
    """LONE_PIECE with row 6 replaced and e5 emptied (the tile stays neutral)."""
    lines = LONE_PIECE.strip("\n").splitlines()
    lines[4] = row6.strip()
    lines[5] = "5 .   .   .   | .   .   .   | .   .   ."
    return "\n".join(lines)


def test_a_piece_moves_ahead_or_45_degrees_only():
    """ "You can move any of your pieces one space straight ahead, or at a 45
    degree angle to the direction it is pointing." With no tiles of its own
    the piece's power is 1: exactly three moves."""
    env = position(LONE_PIECE)
    assert legal_moves(env) == {"e5-e6:N", "e5-d6:NW", "e5-f6:NE"}


def test_a_diagonal_facing_piece_moves_ahead_or_45_degrees():
    """ "...straight ahead, or at a 45 degree angle": facing NE, the piece
    steps NE, N or E, never NW or SE."""
    env = position(LONE_PIECE.replace(".A^", ".A/"))
    assert legal_moves(env) == {"e5-f6:NE", "e5-e6:N", "e5-f5:E"}
    for move in ("e5-d6", "e5-f4"):
        with pytest.raises(ValueError, match="straight ahead or 45 degrees"):
            env.unwrapped.str_to_action(move)


@pytest.mark.parametrize(
    "move, row6",
    [("e5-e6", AFTER_STRAIGHT), ("e5-d6", AFTER_LEFT), ("e5-f6", AFTER_RIGHT)],
    ids=["straight", "45-left", "45-right"],
)
def test_the_piece_ends_facing_its_move_and_claims_the_landing_tile(move, row6):
    """ "After a move, leave the piece pointing in the direction you've moved
    it." and "Each time you move a piece you replace the tile you are
    arriving on with your own colour tile." The field left stays neutral."""
    env = position(LONE_PIECE)
    play(env, move)
    assert_board(env, lone_piece_after(row6))
    assert scores(env) == [1, 0]
    assert env.agent_selection == "player_1"
    assert not ended(env)


@pytest.mark.parametrize("move", ["e5-f5", "e5-d5", "e5-e4", "e5-d4", "e5-f4"])
def test_sideways_and_backward_moves_are_refused(move):
    """ "one space straight ahead, or at a 45 degree angle to the direction it
    is pointing": sideways (90 degrees) and backward moves do not exist."""
    env = position(LONE_PIECE)
    with pytest.raises(ValueError, match="straight ahead or 45 degrees"):
        env.unwrapped.str_to_action(move)
    assert not any(m.startswith(move) for m in legal_moves(env))


# --------------------------------------------------------------------------- power of movement

POWER = r"""
9 .   .   .   | .   .   .   | .   .   .
8 .   .   .   | .   .   .   | .   .   .
7 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
6 .   .   0   | .   1   0   | .   .   .
5 .   .   0   | .   1   .   | .   .   .
4 .   .   0   | 0A^ .   0   | .   .   .
  -----------+-------------+------------
3 .   .   .   | 0   0   .   | .   .   .
2 .   .   .   | .   .   .   | .   .   .
1 .   .   .   | .   .   .   | .   .   .B^
  a   b   c     d   e   f     g   h   i
"""


def test_power_of_movement_counts_own_tiles_in_the_starting_borderland():
    """ "POWER OF MOVEMENT: Count the tiles of your colour in the borderland and
    that number is the power of movement of the piece." The piece on d4 has
    d4 (under it), f4 and f6 in the centre borderland: power 3. Its tiles on
    c4-c6 and d3-e3 lie in other borderlands, and player_1's e5-e6 are not
    its colour: none of them count."""
    env = position(POWER)
    north = {m for m in legal_moves(env) if m.startswith("d4-d")}
    assert north == {"d4-d5:N", "d4-d6:N", "d4-d7:N", "d4-d7:NW", "d4-d7:NE"}
    assert reason(env, "d4-d8") == BEYOND_POWER
    with pytest.raises(ValueError, match=r"illegal action \d+ \(d4-d8:N\) for player_0: .*power of movement"):
        play(env, "d4-d8")
    assert_board(env, POWER)  # the refused move changed nothing

    play(env, "d4-d7")
    assert_board(
        env,
        r"""
        9 .   .   .   | .   .   .   | .   .   .
        8 .   .   .   | .   .   .   | .   .   .
        7 .   .   .   | 0A^ .   .   | .   .   .
          -----------+-------------+------------
        6 .   .   0   | .   1   0   | .   .   .
        5 .   .   0   | .   1   .   | .   .   .
        4 .   .   0   | 0   .   0   | .   .   .
          -----------+-------------+------------
        3 .   .   .   | 0   0   .   | .   .   .
        2 .   .   .   | .   .   .   | .   .   .
        1 .   .   .   | .   .   .   | .   .   .B^
    """,
    )
    assert scores(env) == [9, 2]
    assert env.agent_selection == "player_1"


def test_power_of_movement_is_one_without_own_tiles_in_the_borderland():
    """ "If there are no tiles, the power of movement is one." player_0's tiles
    all lie outside the centre borderland, so the piece on e5 steps once."""
    env = position(
        LONE_PIECE.replace("6 .   .   .   |", "6 0   0   0   |").replace("4 .   .   .   |", "4 0   0   0   |")
    )
    assert reason(env, "e5-e6") is None
    assert reason(env, "e5-e7") == BEYOND_POWER
    assert reason(env, "e5-g7") == BEYOND_POWER
    assert legal_moves(env) >= {"e5-e6:N", "e5-d6:NW", "e5-f6:NE"}
    assert not any(m.startswith("e5-") and m[4] in "78" for m in legal_moves(env))


def test_a_long_move_is_straight():
    """ "LONG MOVE: ... you cannot change direction in the middle of the move.
    You must move in a straight line (directly ahead, or ahead at 45
    degrees)." A bent destination has no notation, and every legal long move
    lies on one of the three rays."""
    env = position(POWER)
    with pytest.raises(ValueError, match="not in a straight line"):
        env.unwrapped.str_to_action("d4-e6")
    rays = {(0, 1), (-1, 1), (1, 1)}  # N, NW, NE of a north-facing piece
    for move in legal_moves(env):
        src, dst = move.split(":")[0].split("-")
        if src != "d4":
            continue
        f, g = parse_field(src), parse_field(dst)
        dx, dy = g % 9 - f % 9, g // 9 - f // 9
        n = max(abs(dx), abs(dy))
        assert (dx // n, dy // n) in rays and dx % n == 0 and dy % n == 0, move
    assert "d4-b6:NW" in legal_moves(env) and "d4-f6:NE" in legal_moves(env)


# --------------------------------------------------------------------------- twisting

CROSSING = LONE_PIECE.replace(".A^", ".  ").replace("5 .   .   .   |", "5 .   .   .A> |")


def test_crossing_a_border_allows_a_twist_either_way():
    """ "When you move a piece across a border, you can set it down as normal
    ... or choose to twist the piece forty five degrees to the the left or to
    the right as part of your turn." Each final facing is its own action."""
    env = position(CROSSING)
    moves = legal_moves(env)
    assert moves == {
        f"c5-{t}:{f}"
        for t, d in (("d5", "E"), ("d6", "NE"), ("d4", "SE"))
        for f in (COMPASS[(COMPASS.index(d) + k) % 8] for k in (-1, 0, 1))
    }
    assert len(env.unwrapped.legal_actions()) == 9
    for move, glyph in (("c5-d5:NE", "/"), ("c5-d5", ">"), ("c5-d5:SE", "\\")):
        twin = env.unwrapped.clone()
        play(twin, move)
        assert_board(
            twin, LONE_PIECE.replace(".A^", ".  ").replace("5 .   .   .   | .", f"5 .   .   .   | 0A{glyph}")
        )
        assert twin.agent_selection == "player_1"


def test_no_twist_without_crossing_a_border():
    """The twist is allowed only "When you move a piece across a border":
    d5 to e5 stays in the centre borderland."""
    env = position(LONE_PIECE.replace(".A^", ".  ").replace("5 .   .   .   | .  ", "5 .   .   .   | .A>"))
    assert legal_moves(env) == {"d5-e5:E", "d5-e6:NE", "d5-e4:SE"}
    assert reason(env, "d5-e5:NE") == BAD_TWIST
    assert reason(env, "d5-e5:SE") == BAD_TWIST
    with pytest.raises(ValueError, match="only twist after crossing a border"):
        play(env, "d5-e5:NE")


def test_a_diagonal_step_through_a_borderland_corner_crosses_a_border():
    """ "When you move a piece across a border": c3 to d4 passes the corner
    where four borderlands meet, from the south-west one into the centre."""
    env = position(LONE_PIECE.replace(".A^", ".  ").replace("3 .   .   .   |", "3 .   .   .A/ |"))
    assert {"c3-d4:NE", "c3-d4:N", "c3-d4:E"} <= legal_moves(env)
    play(env, "c3-d4:E")
    assert_board(env, LONE_PIECE.replace(".A^", ".  ").replace("4 .   .   .   | .", "4 .   .   .   | 0A>"))


# --------------------------------------------------------------------------- where a piece may go

BLOCKERS = r"""
9 .   .   .   | .   .   .   | .   .   .
8 .   .   .   | .   .   .   | .   .   .
7 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
6 .   .   .   | .B^ 1   .A^ | .   .   .
5 .   .   .   | .   0A^ .   | .   .   .
4 .   .   .   | 0   .   .   | .   .   .
  -----------+-------------+------------
3 .   .   .   | .   .   .   | .   .   .
2 .   .   .   | .   .   .   | .   .   .
1 .   .   .   | .   .   .   | .   .   .
  a   b   c     d   e   f     g   h   i
"""


def test_landing_is_refused_on_another_players_tile_or_on_a_piece():
    """ "You may not move onto a tile that is another player's colour. You may
    not move onto a tile where another piece is sitting. Except for a
    connection jump you may not jump over any piece." The piece on e5 has
    power 2 (e5, d4); of its six fields in reach only e7 is allowed."""
    env = position(BLOCKERS)
    assert reason(env, "e5-e6") == OTHER_TILE
    assert reason(env, "e5-d6") == OCCUPIED  # player_1's piece
    assert reason(env, "e5-f6") == OCCUPIED  # its own piece
    assert reason(env, "e5-c7") == BAD_JUMP  # over player_1's piece to a neutral field
    assert reason(env, "e5-g7") == BAD_JUMP  # over its own piece
    assert {m for m in legal_moves(env) if m.startswith("e5")} == {"e5-e7:N", "e5-e7:NW", "e5-e7:NE"}


def test_a_plain_move_passes_over_another_players_tile_unchanged():
    """Choice 1: a plain move only cares where it lands; e5 to e7 passes over
    player_1's e6 tile, which stays player_1's."""
    env = position(BLOCKERS)
    play(env, "e5-e7")
    assert_board(
        env,
        r"""
        9 .   .   .   | .   .   .   | .   .   .
        8 .   .   .   | .   .   .   | .   .   .
        7 .   .   .   | .   0A^ .   | .   .   .
          -----------+-------------+------------
        6 .   .   .   | .B^ 1   .A^ | .   .   .
        5 .   .   .   | .   0   .   | .   .   .
        4 .   .   .   | 0   .   .   | .   .   .
          -----------+-------------+------------
        3 .   .   .   | .   .   .   | .   .   .
        2 .   .   .   | .   .   .   | .   .   .
        1 .   .   .   | .   .   .   | .   .   .
    """,
    )
    assert scores(env) == [3, 1]
    assert env.agent_selection == "player_1"


# --------------------------------------------------------------------------- connections


def connection(e5: str, f5: str, d5: str = "0A>") -> str:
    """player_0's piece on d5 faces E; its tiles d4, f4 (and d5 if owned) give
    power 3 in the centre; g5 is its tile in the east borderland."""
    return rf"""
        9 .Bv .   .   | .   .   .   | .   .   .
        8 .   .   .   | .   .   .   | .   .   .
        7 .   .   .   | .   .   .   | .   .   .
          -----------+-------------+------------
        6 .   .   .   | .   .   .   | .   .   .
        5 .   .   .   | {d5:<3} {e5:<3} {f5:<3} | 0   .   .
        4 .   .   .   | 0   {"0" if d5[0] == "." else "."}   0   | .   .   .
          -----------+-------------+------------
        3 .   .   .   | .   .   .   | .   .   .
        2 .   .   .   | .   .   .   | .   .   .
        1 .A^ .   .   | .   .   .   | .   .   .
    """


def test_a_connection_change_recolours_the_fields_in_between():
    """ "CONNECTION CHANGE: When you make a long move from one tile of your
    colour to another tile of your colour (a connection), and you are not
    jumping any pieces, you must change all the intervening tiles to your
    colour." d5 to g5: e5 and f5 turn player_0's."""
    env = position(connection(".", "."))
    play(env, "d5-g5")
    assert_board(env, connection("0", "0", d5="0").replace("| 0   .   .", "| 0A> .   ."))
    assert scores(env) == [6, 0]
    assert pieces_on_board(env, 0) == 2
    assert env.agent_selection == "player_1"


def test_a_connection_change_is_compulsory():
    """ "...you must change all the intervening tiles to your colour": every
    action from d5 to g5 (one per final facing) recolours e5 and f5."""
    env = position(connection(".", "."))
    for facing, glyph in (("E", ">"), ("NE", "/"), ("SE", "\\")):
        twin = env.unwrapped.clone()
        play(twin, f"d5-g5:{facing}")
        assert_board(twin, connection("0", "0", d5="0").replace("| 0   .   .", f"| 0A{glyph} .   ."))
    targets = {m.split(":")[0] for m in legal_moves(env)}
    assert "d5-g5" in targets


def test_a_connection_change_over_another_players_tile_costs_the_piece():
    """ "If your connection change involves changing one or more tiles
    belonging to another player, then your piece is taken off the board as
    soon as the move is made." player_1's e5 still turns player_0's."""
    env = position(connection("1", "."))
    assert scores(env) == [4, 1]
    play(env, "d5-g5")
    assert_board(env, connection("0", "0", d5="0"))
    assert scores(env) == [6, 0]
    assert pieces_on_board(env, 0) == 1
    assert env.agent_selection == "player_1"
    assert not ended(env)


def test_a_connection_jump_changes_no_tiles():
    """ "CONNECTION JUMP: When you move from one tile of your colour to another
    tile of your colour, you are allowed to jump any intervening pieces.
    However ... no intervening tiles are changed." player_1's f5 tile stays
    and the piece stays on the board."""
    env = position(connection(".B^", "1"))
    play(env, "d5-g5")
    assert_board(env, connection(".B^", "1", d5="0").replace("| 0   .   .", "| 0A> .   ."))
    assert scores(env) == [4, 1]
    assert pieces_on_board(env, 0) == 2


def test_a_long_move_from_a_neutral_field_is_no_connection():
    """Choice 2: a move starting on a neutral field is never a connection
    ("from one tile of your colour to another tile of your colour"), so it
    may not jump a piece, and passing over fields changes none of them."""
    env = position(connection(".B^", ".", d5=".A>"))
    assert reason(env, "d5-g5") == BAD_JUMP

    env = position(connection(".", "1", d5=".A>"))
    play(env, "d5-g5")
    assert_board(env, connection(".", "1", d5=".").replace("| 0   .   .", "| 0A> .   ."))
    assert scores(env) == [4, 1]
    assert pieces_on_board(env, 0) == 2


# --------------------------------------------------------------------------- passing and the end

STUCK_2P = r"""
9 0A^ 0   .   | .   .   .   | .   .   .
8 .   .   .   | .   .   .   | .   .   .
7 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
6 .   .   .   | .   .   .   | .   .   .
5 .   .   .   | .   1B^ .   | .   .   .
4 .   .   .   | {d4} .   .   | .   .   .
  -----------+-------------+------------
3 .   .   .   | .   .   .   | .   .   .
2 .   .   .   | .   .   .   | .   .   .
1 .   .   .   | .   .   .   | .   .   .
  a   b   c     d   e   f     g   h   i
"""


def test_passing_is_refused_while_a_move_exists():
    """ "You cannot pass on a turn unless you cannot move." """
    env = azgames.make("azacru", num_players=2)
    env.reset(seed=0)
    assert reason(env, "pass") == BAD_PASS
    with pytest.raises(ValueError, match="passing is only allowed when no piece can move"):
        play(env, "pass")
    assert env.agent_selection == "player_0"


def test_a_stuck_player_passes_and_every_other_player_gets_one_last_turn():
    """ "Eventually one player in the game will not be able to make a move on
    their turn ... After this has happened all the other players (or those
    that can) continue for just one turn each. The winner of the game is the
    player with most tiles." player_0's piece on a9 faces off the board."""
    env = position(STUCK_2P.format(d4="1  "))
    assert legal_moves(env) == {"pass"}
    play(env, "pass")
    assert not ended(env)
    assert env.agent_selection == "player_1"
    assert np.all(env.observe("player_1")["observation"][-1] == 1)  # final-round plane
    play(env, "e5-e6")
    assert_board(
        env,
        STUCK_2P.format(d4="1  ")
        .replace("1B^", "1  ")
        .replace("6 .   .   .   | .   .", "6 .   .   .   | .   1B^"),
    )
    assert ended(env) and not any(env.truncations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert env.infos["player_0"]["scores"] == {"player_0": 2, "player_1": 3}
    assert env.infos["player_0"]["winners"] == ["player_1"]
    assert env.infos["player_1"]["score"] == 3 and env.infos["player_0"]["score"] == 2
    assert env.infos["player_1"]["turns"] == 2
    assert env.unwrapped.legal_actions() == []


def test_a_tie_gives_both_players_nothing():
    """ "The winner of the game is the player with most tiles": 2 tiles each
    is a draw, rewards 0 and both listed as winners."""
    env = position(STUCK_2P.format(d4=".  "))
    play(env, "pass", "e5-e6")
    assert ended(env)
    assert scores(env) == [2, 2]
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert env.infos["player_1"]["winners"] == ["player_0", "player_1"]


THREE_PLAYERS = r"""
9 1   1   1B^ | .   .   .   | .   .   {i9}
8 .   .   .   | .   .   .   | .   .   .
7 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
6 .   .   .   | .   .   .   | .   .   .
5 .   .   .   | .   .C^ .   | .   .   .
4 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
3 .   .   .   | .   .   .   | .   .   .
2 .   .   .   | .   .   .   | .   .   .
1 .   .   .   | .   .   .   | .   0   0A^
  a   b   c     d   e   f     g   h   i
"""


def test_three_players_final_round_and_rewards():
    """ "...all the other players (or those that can) continue for just one turn
    each." player_1 (c9, facing off the board) is stuck: player_2 and then
    player_0 move once more and the game ends. Rewards are the mean of the
    pairwise results: 3-3-1 tiles give +1/2, +1/2, -1."""
    env = position(THREE_PLAYERS.format(i9="."), num_players=3, to_move="B")
    assert legal_moves(env) == {"pass"}
    play(env, "pass")
    assert env.agent_selection == "player_2" and not ended(env)
    play(env, "e5-e6")
    assert env.agent_selection == "player_0" and not ended(env)
    play(env, "i1-i2")
    assert ended(env)
    assert scores(env) == [3, 3, 1]
    assert env.rewards == {"player_0": 0.5, "player_1": 0.5, "player_2": -1.0}
    assert env.infos["player_2"]["winners"] == ["player_0", "player_1"]
    assert env.infos["player_2"]["scores"] == {"player_0": 3, "player_1": 3, "player_2": 1}


def test_a_stuck_player_in_the_final_round_passes_and_the_game_still_ends():
    """ "...all the other players (or those that can) continue": player_0 is
    stuck and passes, player_1 is stuck too and passes its last turn,
    player_2 moves, and the game is over: player_0 does not move again."""
    env = position(THREE_PLAYERS.format(i9=".A^").replace("0   0A^", ".   .  "), num_players=3)
    play(env, "pass")
    assert env.agent_selection == "player_1"
    assert legal_moves(env) == {"pass"}
    play(env, "pass")
    assert env.agent_selection == "player_2" and not ended(env)
    play(env, "e5-e6")
    assert ended(env)
    assert scores(env) == [0, 3, 1]
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0, "player_2": 0.0}


FOUR_PLAYERS = r"""
9 0A^ 0   0   | .   .   .   | .   .   .
8 .   .   .   | .   .   .   | .   .   .
7 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
6 .   .   .   | .   .   .   | .   .   .
5 .   .   .   | .   .C^ .   | .   .   .
4 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
3 .   .   .   | .   .   .   | .   .   .
2 1   .   .   | .   .   .   | .   .   .
1 1B^ 1   1   | .   .   .D^ | .   .   2
  a   b   c     d   e   f     g   h   i
"""


def test_four_players_final_round_and_rewards():
    """ "...all the other players ... continue for just one turn each": player_0
    is stuck, player_1, player_2 and player_3 move once, then the game ends. Tiles 3-5-2-1
    give rewards 1/3, 1, -1/3, -1 (mean of the pairwise results)."""
    env = position(FOUR_PLAYERS, num_players=4)
    play(env, "pass", "a1-a3")
    assert env.agent_selection == "player_2"
    play(env, "e5-e6")
    assert env.agent_selection == "player_3" and not ended(env)
    play(env, "f1-f2")
    assert ended(env)
    assert scores(env) == [3, 5, 2, 1]
    assert env.rewards == pytest.approx(
        {"player_0": 1 / 3, "player_1": 1.0, "player_2": -1 / 3, "player_3": -1.0}, abs=1e-6
    )
    assert sum(env.rewards.values()) == pytest.approx(0, abs=1e-6)
    assert env.infos["player_3"]["winners"] == ["player_1"]


def test_a_player_without_pieces_is_stuck():
    """ "...either all their pieces have left the board, or none of the their
    remaining pieces can move." player_0 loses its last piece to a
    connection change, must pass next turn, and player_1 gets one last turn;
    player_0, first unable to move, still wins on tiles."""
    env = position(connection("1", ".").replace("1 .A^", "1 .  ").replace(".Bv", ".B>"))
    play(env, "d5-g5")
    assert pieces_on_board(env, 0) == 0
    play(env, "a9-b9")
    assert env.agent_selection == "player_0"
    assert legal_moves(env) == {"pass"}
    play(env, "pass")
    assert env.agent_selection == "player_1" and not ended(env)
    play(env, "b9-c9")
    assert ended(env)
    assert scores(env) == [6, 2]
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert env.infos["player_0"]["winners"] == ["player_0"]


def test_a_game_already_in_its_final_round_ends_after_the_last_turn():
    """The final round set in the diagram: one turn left, and after it the
    game ends."""
    env = position(LONE_PIECE, final_round_turns=1)
    play(env, "e5-e6")
    assert ended(env)
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}


def test_truncation_after_max_turns_gives_nothing():
    """Choice 8: pieces can wander over their own tiles forever, so the game
    is cut off after max_turns actions with rewards 0."""
    env = azgames.make("azacru", num_players=2, max_turns=2)
    env.reset(seed=0)
    play(env, "e1-e2")
    assert not any(env.truncations.values())
    play(env, "e9-e8")
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}


# --------------------------------------------------------------------------- openings

STANDARD_2P = r"""
9 .   .   .   | .   .Bv .   | .   .   .A,
8 .   .   .   | .   .   .   | .   .   .
7 .B> .   .   | .   .   .   | .   .   .B<
  -----------+-------------+------------
6 .   .   .   | .   .   .   | .   .   .
5 .   .   .   | .   .   .   | .   .   .
4 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
3 .A> .   .   | .   .   .   | .   .   .A<
2 .   .   .   | .   .   .   | .   .   .
1 .B/ .   .   | .   .A^ .   | .   .   .
  a   b   c     d   e   f     g   h   i
"""

# The table of ../shared/rules/README.md ("Azacru: facts from the Pacru family").
THREE = [{"g9 S", "i5 W", "g1 N"}, {"c9 S", "a5 E", "c1 N"}, {"e9 S", "a7 E", "i7 W"}]
OPENINGS = {
    ("standard", 2): [{"a3 E", "e1 N", "i3 W", "i9 SW"}, {"a7 E", "e9 S", "i7 W", "a1 NE"}],
    ("standard", 3): THREE,
    ("standard", 4): THREE + [{"a3 E", "i3 W", "e1 N"}],
    ("classic", 2): [{"a9 SE", "g9 S", "i5 W", "g1 N"}, {"c9 S", "a5 E", "c1 N", "i1 NW"}],
}


def test_the_two_player_opening_board():
    """README: "2 | 1 | a3 E, e1 N, i3 W, i9 SW" and "2 | 2 | a7 E, e9 S, i7 W,
    a1 NE"; "All 81 fields start neutral"; player_0 moves first."""
    env = azgames.make("azacru", num_players=2)
    env.reset(seed=3)
    assert_board(env, STANDARD_2P)
    assert env.agent_selection == "player_0"


@pytest.mark.parametrize("opening, n", list(OPENINGS), ids=[f"{o}-{n}p" for o, n in OPENINGS])
def test_openings_match_the_rule_readme(opening, n):
    """README: "each player has three pieces to start: for the two player game
    each has four", placed as in the README's table; the older 2-player
    opening is offered as opening="classic"."""
    env = azgames.make("azacru", num_players=n, opening=opening)
    env.reset(seed=0)
    state = env.unwrapped.state
    actual = [
        {
            f"{field_name(int(f))} {COMPASS[int(d)]}"
            for f, d in zip(state.piece_field[0, p], state.piece_facing[0, p])
            if f >= 0
        }
        for p in range(n)
    ]
    assert actual == OPENINGS[opening, n]
    assert all(len(s) == (4 if n == 2 else 3) for s in actual)
    assert scores(env) == [0] * n  # all 81 fields start neutral
    assert env.agent_selection == "player_0"


# --------------------------------------------------------------------------- illegal actions and configuration


def test_penalize_ends_the_game_with_minus_one_for_the_offender():
    """``illegal_action="penalize"``: the game ends, -1 for the offender and 0
    for the others; the board is not touched."""
    env = azgames.make("azacru", num_players=3, illegal_action="penalize")
    env.reset(seed=0)
    before = board(env)
    play(env, "g1-g2", "pass")  # player_1 may still move: passing is illegal
    assert ended(env)
    assert env.rewards == {"player_0": 0.0, "player_1": -1.0, "player_2": 0.0}
    info = env.infos["player_0"]["illegal_action"]
    assert info["agent"] == "player_1" and info["reason"] == BAD_PASS
    assert board(env) != before and "0A^" in board(env)  # only the legal first move was played
    assert env.unwrapped.legal_actions() == []


def test_penalize_a_move_beyond_the_power():
    """``illegal_action="penalize"`` with a move beyond the power of movement:
    the offender gets -1, the reason is reported, the board is untouched."""
    env = position(POWER, illegal_action="penalize")
    env.step(env.unwrapped.str_to_action("d4-d8"))
    assert ended(env)
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert env.infos["player_1"]["illegal_action"]["reason"] == BEYOND_POWER
    assert_board(env, POWER)


@pytest.mark.parametrize(
    "kwargs, named",
    [
        ({"num_players": 5}, "num_players=5"),
        ({"num_players": 1}, "num_players=1"),
        ({"num_players": 2, "speed": 3}, "speed"),
        ({"num_players": 2, "opening": "nonsense"}, "nonsense"),
        ({"num_players": 3, "opening": "classic"}, "classic.*3-player"),
        ({"num_players": 4, "opening": "classic"}, "classic.*4-player"),
        ({"num_players": 2, "illegal_action": "ignore"}, "ignore"),
        ({"num_players": 2, "max_turns": 0}, "max_turns=0"),
    ],
)
def test_bad_configuration_is_refused_naming_the_value(kwargs, named):
    """ "If there are three or four players ... for the two player game": 2-4
    players only; unknown options and openings are refused with the value named."""
    with pytest.raises(ValueError, match=named):
        azgames.make("azacru", **kwargs)
    if "illegal_action" not in kwargs:
        with pytest.raises(ValueError, match=named):
            azacru_env.VectorEnv(num_envs=2, **kwargs)


# --------------------------------------------------------------------------- notation


def _positions():
    """A few positions: every opening, and games 20 and 60 random plies in."""
    for opening, n in OPENINGS:
        env = azgames.make("azacru", num_players=n, opening=opening)
        env.reset(seed=0)
        yield env
    rng = np.random.default_rng(7)
    for n in (2, 3, 4):
        env = azgames.make("azacru", num_players=n)
        env.reset(seed=n)
        for ply in range(60):
            if ended(env):
                break
            env.step(int(rng.choice(env.unwrapped.legal_actions())))
            if ply in (19, 59):
                yield env.unwrapped.clone()


DIRECTION = {
    (0, 1): "N",
    (1, 1): "NE",
    (1, 0): "E",
    (1, -1): "SE",
    (0, -1): "S",
    (-1, -1): "SW",
    (-1, 0): "W",
    (-1, 1): "NW",
}


def test_notation_round_trip_and_default_facing():
    """Notation ``from-to:facing``: every legal action reads back as itself,
    and ``from-to`` without a facing means the piece faces its move."""
    checked = 0
    for env in _positions():
        u = env.unwrapped
        for a in u.legal_actions():
            text = u.action_to_str(a)
            assert u.str_to_action(text) == a, text
            if text == "pass":
                continue
            assert re.fullmatch(r"[a-i][1-9]-[a-i][1-9]:(N|NE|E|SE|S|SW|W|NW)", text), text
            assert u.str_to_action(text.upper().replace("-", " - ")) == a
            move = text.split(":")[0]
            f, g = (parse_field(s) for s in move.split("-"))
            dx, dy = g % 9 - f % 9, g // 9 - f // 9
            n = max(abs(dx), abs(dy))
            plain = u.str_to_action(move)
            assert u.action_to_str(plain) == f"{move}:{DIRECTION[dx // n, dy // n]}"
            assert plain in u.legal_actions()
            checked += 1
    assert checked > 100
    env = azgames.make("azacru", num_players=2)
    env.reset(seed=0)
    assert env.unwrapped.str_to_action("pass") == env.unwrapped.rules.num_actions - 1
    assert env.unwrapped.action_to_str(env.unwrapped.rules.num_actions - 1) == "pass"
