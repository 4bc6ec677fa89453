"""Connect Four's rules as stories: a position, a move, what follows.
The rules: docs/rules/connect_four.md (the standard game: 6 rows, 7
columns, four in a row wins, a full board draws)."""

from __future__ import annotations

import pytest

from .helpers import diagram, env_at


def test_a_stone_drops_to_the_lowest_free_cell_of_its_column():
    env = env_at(
        """
        .......
        .......
        .......
        .......
        ...O...
        ...X...
        """
    )
    env.step(3)  # X drops into d, onto O
    assert diagram(env.unwrapped.state) == "\n".join(
        [".......", ".......", ".......", "...X...", "...O...", "...X..."]
    )
    assert env.agent_selection == "player_1"


@pytest.mark.parametrize(
    "name,board,column",
    [
        (
            "across",
            """
            .......
            .......
            .......
            .......
            OOO....
            XXX....
            """,
            3,
        ),
        (
            "up",
            """
            .......
            .......
            .......
            X......
            XO.....
            XOO....
            """,
            0,
        ),
        (
            "rising diagonal",
            """
            .......
            .......
            .......
            ..XO...
            .XOX...
            XOXO..O
            """,
            3,
        ),
        (
            "falling diagonal",
            """
            .......
            .......
            .......
            ...OX..
            ...XOX.
            O..OXOX
            """,
            3,
        ),
    ],
)
def test_four_in_a_row_any_way_wins_for_the_mover(name, board, column):
    env = env_at(board)
    assert env.agent_selection == "player_0"
    env.step(column)
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert env.infos["player_0"]["winners"] == ["player_0"]


def test_three_in_a_row_with_a_gap_is_not_four():
    env = env_at(
        """
        .......
        .......
        .......
        .......
        ......O
        XX.X.OO
        """
    )
    env.step(4)  # XX.XX: the gap at c stays
    assert not any(env.terminations.values())
    assert env.agent_selection == "player_1"


def test_a_full_column_is_not_a_move():
    env = env_at(
        """
        X......
        O......
        X......
        O......
        X......
        O......
        """
    )
    assert env.observe("player_0")["action_mask"].tolist() == [0, 1, 1, 1, 1, 1, 1]
    assert env.unwrapped.rules.illegal_reason(env.unwrapped.state, 0) == "its column is full"
    with pytest.raises(ValueError, match="its column is full"):
        env.step(0)


def test_the_last_free_cell_filled_without_four_is_a_draw():
    env = env_at(
        """
        XOXOX.O
        XOXOXOX
        OXOXOXO
        OXOXOXO
        XOXOXOX
        XOXOXOX
        """
    )
    # 41 stones, X's 21 and O's 20: O moves and fills f6 (f5 below is O).
    env.step(5)
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert env.infos["player_0"]["winners"] == []


def test_the_last_free_cell_filled_with_four_wins_not_draws():
    env = env_at(
        """
        XXOOO.X
        OXOXOOO
        XXXOXOX
        OOXOXOX
        XXXOOXO
        XXOXXOO
        """
    )
    # The board fills and O's f6 makes c6-f6: a win, though no cell is left.
    env.step(5)
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert env.infos["player_0"]["winners"] == ["player_1"]


def test_the_notation_names_columns_a_to_g_from_the_left():
    env = env_at(".......\n" * 6)
    rules, state = env.unwrapped.rules, env.unwrapped.state
    assert [rules.action_to_str(state, a) for a in range(7)] == list("abcdefg")
    assert rules.str_to_action(state, "D") == 3
    with pytest.raises(ValueError, match="'h' is not a column"):
        rules.str_to_action(state, "h")
