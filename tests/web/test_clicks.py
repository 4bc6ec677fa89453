"""Clicks to moves (azgames.web.clicks), on made-up moves: no game needed."""

from azgames.web.clicks import Move, Selection, select

MOVES = [
    Move(0, "a1-b2:N", ("a1", "b2")),
    Move(1, "a1-b2:E", ("a1", "b2")),
    Move(2, "a1-c3:N", ("a1", "c3")),
    Move(3, "d4-d5:N", ("d4", "d5")),
    Move(4, "d4 jump d6", ("d4", "d5", "d6")),
    Move(5, "pass", ()),
]


def test_a_first_click_keeps_the_moves_starting_there():
    assert select(MOVES, (), "a1") == Selection(("a1",), None, (), ("b2", "c3"))


def test_the_only_move_left_plays_when_all_its_places_are_clicked():
    assert select(MOVES, ("a1",), "c3") == Selection((), MOVES[2], (), ())


def test_moves_sharing_every_click_are_offered_as_choices():
    assert select(MOVES, ("a1",), "b2") == Selection(("a1", "b2"), None, tuple(MOVES[:2]), ())


def test_a_move_complete_beside_a_longer_one_is_a_choice_and_clicks_go_on():
    assert select(MOVES, ("d4",), "d5") == Selection(("d4", "d5"), None, (MOVES[3],), ("d6",))


def test_a_click_elsewhere_starts_over_or_matches_nothing():
    assert select(MOVES, ("a1",), "d4") == Selection(("d4",), None, (), ("d5",))
    assert select(MOVES, ("a1",), "e5") is None
    assert select(MOVES, (), "b2") is None  # b2 ends moves; none starts there
