"""Typed moves: exact notation, the game's parser, unique prefixes; the
refusals say why (ambiguous, illegal with the rules' reason, not a move)."""

import pytest

import azgames
from azgames.terminal import MoveError, legal_moves, parse_move


@pytest.fixture
def azacru():
    env = azgames.make("azacru", num_players=2)
    env.reset(seed=0)  # player_0's moves include e1-e2:N, e1-d2:NW, e1-f2:NE and a3-b4:N/NE/E
    return env


def test_legal_moves_are_the_masks_actions_in_notation(azacru):
    moves = legal_moves(azacru)
    assert list(moves.values()) == azacru.unwrapped.legal_actions()
    assert all(azacru.unwrapped.str_to_action(m) == a for m, a in moves.items())


def test_a_whole_move_and_a_unique_prefix_name_that_move(azacru):
    moves = legal_moves(azacru)
    assert parse_move(azacru, "e1-e2:N") == moves["e1-e2:N"]
    assert parse_move(azacru, "e1-e2") == moves["e1-e2:N"]
    assert parse_move(azacru, "  E1-F2  ") == moves["e1-f2:NE"]  # case and spaces do not matter
    # A move that is also the beginning of another is taken whole.
    assert parse_move(azacru, "a3-b4:N") == moves["a3-b4:N"]


def test_an_ambiguous_prefix_lists_its_completions(azacru):
    with pytest.raises(MoveError, match=r"'e1' could be e1-e2:N, e1-d2:NW, e1-f2:NE"):
        parse_move(azacru, "e1")


def test_an_illegal_move_is_refused_with_the_rules_reason(azacru):
    # a3-b3:NE parses (a piece on a3, a square b3), but the rules forbid the twist.
    with pytest.raises(
        MoveError, match="^a3-b3:NE is not legal: a piece may only twist after crossing a border$"
    ):
        parse_move(azacru, "a3-b3:NE")


def test_a_move_the_parser_refuses_keeps_its_reason(azacru):
    with pytest.raises(MoveError, match="player_0 has no piece on e2"):
        parse_move(azacru, "e2-e3:N")


def test_text_that_is_no_move_repeats_the_parsers_explanation(azacru):
    with pytest.raises(MoveError) as refused:
        parse_move(azacru, "zz")
    with pytest.raises(ValueError) as parser:
        azacru.unwrapped.str_to_action("zz")
    assert str(parser.value) in str(refused.value) and "moves" in str(refused.value)


def test_azure_single_letters_are_moves_not_prefixes():
    env = azgames.make("azure", num_players=2)
    env.reset(seed=0)  # hunter_0 may step N, S, W or stop
    moves = legal_moves(env)
    assert parse_move(env, "s") == moves["S"]  # the whole move S, though stop begins with s too
    assert parse_move(env, "st") == moves["stop"]


def test_the_beginning_of_several_moves_lists_them_rather_than_guess_one(azacru):
    moves = legal_moves(azacru)
    several = [m for m in moves if m.startswith("a3-b4")]
    assert len(several) > 1  # the opening position: a3-b4 with more than one facing
    with pytest.raises(MoveError) as info:
        parse_move(azacru, "a3-b4")
    assert str(info.value) == f"'a3-b4' could be {', '.join(several)}: type more of the move"
