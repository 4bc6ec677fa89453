"""The co-op mode's picture: the base game's (tests/azimuth/test_picture.py)
with the round, the die's last face and who rolls next, sleeping castaways,
the sea turtle, the wave candidates to order and the roll the last step caused."""

from __future__ import annotations

import numpy as np
import pytest

import azgames
from azimuth_env.board import point_name
from azimuth_env.coop.render import STATUS_LEGEND
from azimuth_env.coop.rules import FACE_NAMES
from azimuth_env.diagram import LEGEND
from azimuth_env.picture import HEIGHT, WIDTH
from tests.azimuth.svg import Svg, assert_shows_state
from tests.azimuth_coop.helpers import play, position, roll

A_CHAIN = """
       a    b    c    d    e    f
    6  .    .    .    .    .    .
          .    .    .    .    .
    5  .    .    .    .    .    .
          .    .    .    .    .
    4  .    .    .    .    .    .
          .    .    #    .    .
    3  .    .    .    Y@   .    .
          .    .    .    .    .
    2  .    R    .    .    R    .
          .    .    Kv   .    .
    1  .    R    .    .    .    .
"""


def picture_of(env):
    return Svg(env.unwrapped.picture())


def test_a_diagram_position_shows_the_round_die_roller_sleepers_and_turtle():
    env = position(A_CHAIN, to_move="Y", round=3, face="mermaid", asleep="Y", turtle="B", first="K")
    u = env.unwrapped
    svg = picture_of(env)
    assert svg.has_text("round 3/10, turn 2/4")
    assert svg.has_text("last die: mermaid")
    assert svg.has_text("blue rolls the die at the round's end")  # (black + 3 - 1) % 4
    assert svg.has_text("sea turtle in blue's portion")
    assert svg.has_text("castaways home 0/4")
    assert svg.has_text("castaway on d3, asleep (mermaid)")
    assert svg.has_text(u.rules.headline(u.state))
    assert svg.stacks() == {"b2": ["red"], "e2": ["red"], "b1": ["red"], "d3": ["blondie"]}
    assert svg.winds() == {"c1": ("black", "black", "player_1", "S")}
    assert svg.castaways() == {
        "red": "the island",
        "black": "the island",
        "blondie": "d3",
        "blue": "the island",
    }
    assert_shows_state(svg, u.state, u.rules)


def test_two_agents_colours_are_named_with_their_agent():
    env = position(A_CHAIN, num_players=2, to_move="Y")
    svg = picture_of(env)
    for label in ("red (player_0)", "black (player_1)", "blondie (player_0)", "blue (player_1)"):
        assert svg.has_text(label)
    assert svg.has_text("blondie (player_0)   <- to act")


def test_a_roll_is_named_in_the_last_step_and_the_wave_candidates_are_targets():
    env = position(A_CHAIN, to_move="B")
    roll(env, "pass", "wave away")
    u = env.unwrapped
    svg = picture_of(env)
    assert svg.has_text("Last step: blue (player_3) played pass; then red rolled the Ocean Die: wave away")
    assert svg.has_text("last die: wave away")
    assert svg.has_text("waves blowing N: the team orders them")
    for point in ("b1", "b2"):
        assert svg.with_tip(f"wave candidate on {point}: its stack moves N when chosen")
        assert u.rules.action_targets(u.state, u.str_to_action(f"wave {point}")) == (point,)
    play(env, "wave b1")
    svg = picture_of(env)
    assert svg.has_text("Last step: red (player_0) played wave b1")
    assert not any(t.startswith("wave candidate") for t in svg.tips)


def test_turtle_swims_target_the_point_two_legs_away():
    env = position(
        """
           a    b    c    d    e    f
        6  .    .    .    .    .    .
              .    .    .    .    .
        5  .    Y    .    Y@   .    Y
              .    .    .    .    .
        4  .    .    .    .    .    .
              .    .    #    .    .
        3  .    .    .    .    .    .
              .    .    .    .    .
        2  .    .    .    .    .    .
              .    .    .    .    .
        1  .    .    .    .    .    .
    """,
        to_move="Y",
        turtle="Y",
    )
    u = env.unwrapped
    svg = picture_of(env)
    assert svg.has_text("sea turtle in blondie's portion")
    targets = {
        u.action_to_str(a): u.rules.action_targets(u.state, int(a))
        for a in u.legal_actions()
        if u.action_to_str(a).startswith("turtle")
    }
    assert targets == {"turtle W": ("b5",), "turtle E": ("f5",)}
    assert {"b5", "f5"} <= svg.targets
    trial = u.clone()
    play(trial, "turtle W")
    assert point_name(int(trial.state.castaway[0, 2])) == "b5"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play_every_element_and_every_legal_actions_targets_are_in_the_svg(players):
    env = azgames.make("azimuth_coop", num_players=players)
    rng = np.random.default_rng(players)
    env.reset(seed=players)
    u = env.unwrapped
    seen_faces = set()
    for step in range(150):
        if env.terminations[env.agent_selection]:
            break
        if step % 9 == 0 or u.state.wave[0] >= 0:
            picture = u.picture()
            svg = Svg(picture)
            assert_shows_state(svg, u.state, u.rules)
            assert svg.has_text(u.rules.headline(u.state))
            face = int(u.state.face[0])
            if face >= 0:
                seen_faces.add(face)
                assert svg.has_text(f"last die: {FACE_NAMES[face]}")
            if u.state.round[0]:
                assert svg.has_text(f"round {int(u.state.round[0])}/{u.rules.rounds}")
            for a in u.legal_actions():
                assert set(u.rules.action_targets(u.state, int(a))) <= svg.targets, u.action_to_str(a)
            assert picture.rgb().shape == (HEIGHT, WIDTH, 3)
        env.step(int(rng.choice(u.legal_actions())))
    assert seen_faces, "the random game rolled no die: play longer"


def test_the_legend_adds_the_status_lines_to_the_base_games():
    rules = azgames.make("azimuth_coop").unwrapped.rules
    assert rules.legend() == f"{LEGEND}\n{STATUS_LEGEND}"
    for face in ("sunny", "mermaid", "wave away", "gust", "turtle"):
        assert face in rules.legend()


def test_a_finished_game_shows_its_last_round_not_a_turn_past_the_end():
    env = azgames.make("azimuth_coop", num_players=2, rounds=1)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    while env.unwrapped.legal_actions():
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
    svg = picture_of(env)
    assert svg.has_text("game over in round 1/1")
    assert not any("turn" in t and "/4" in t for t in svg.texts)  # was "round 1/1, turn 5/4"
