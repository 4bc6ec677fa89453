"""Azimuth's picture (``rules.picture``, ``env.picture()``): every element of
the state is drawn and readable back from the SVG, every place a legal move
names is a click target, and the header names who acts and the last step."""

from __future__ import annotations

import numpy as np
import pytest

import azgames
from azimuth_env import diagram
from azimuth_env.picture import COLOURS, HEIGHT, SAND, WIDTH
from tests.azimuth.helpers import play, position
from tests.azimuth.svg import Svg, assert_shows_state

SEA = """
       a    b    c    d    e    f
    6  .    .    .    .    .    .
          .    .    .    .    .
    5  .    .    .    .    .    .
          .    .    #    .    .
    4  .    .    .    .    .    .
          .    .    R>k  .    .
    3  .    .    KRK  .    .    .
          Kv   .    .    .    .
    2  .    R@   .    .    .    .
          .    .    .    .    .
    1  .    .    .    .    .    .
"""


def picture_of(env):
    return Svg(env.unwrapped.picture())


def test_a_diagram_position_shows_stacks_in_order_winds_with_owners_hands_and_beaches():
    env = position(
        SEA, to_move="K", beaches={"R": "a1-b1", "K": "d1-e1"}, coconuts=True, coconuts_left={"R": 3, "K": 1}
    )
    rules, state = env.unwrapped.rules, env.unwrapped.state
    svg = picture_of(env)
    assert svg.stacks() == {"c3": ["black", "red", "black"], "b2": ["red"]}
    assert svg.winds() == {"c3": ("red", "black", "player_1", "E"), "a2": ("black", "black", "player_1", "S")}
    assert svg.castaways() == {"red": "b2", "black": "the island"}
    assert svg.with_tip("c3: 3 rafts", "text")[0].text == "3"
    # black placed the red wind: one red and 5 black winds of its own left
    assert svg.has_text("winds in hand: 6 red, 1 black") and svg.has_text("winds in hand: 5 black, 0 red")
    assert svg.has_text("coconuts 3") and svg.has_text("coconuts 1")
    assert svg.has_text("Azimuth, turn 1, black (player_1) to act")
    assert svg.has_text("black (player_1)   <- to act")
    assert_shows_state(svg, state, rules)


def test_the_last_step_is_named_with_who_played_it():
    env = position(SEA, to_move="R", beaches={"R": "a1-b1", "K": "d1-e1"})
    assert picture_of(env).has_text("Last step: none yet")
    play(env, "place R e5 N")
    svg = picture_of(env)
    assert svg.has_text("Last step: red (player_0) played place R e5 N")
    assert svg.has_text("Azimuth, turn 2, black (player_1) to act")


def test_a_landing_is_named_with_the_step_and_the_score():
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
        1  R@   R    .    .    .    .
    """,
        beaches={"R": "a1-b1", "K": "d1-e1"},
    )
    play(env, "place R a1 S")
    svg = picture_of(env)
    assert svg.has_text("Last step: red (player_0) played place R a1 S; it landed red on its beach")
    assert svg.has_text("Azimuth, red (player_0) is home after 1 turn")
    assert svg.has_text("Scores: player_0 1, player_1 0")
    assert not any("to act" in t for t in svg.texts)


def test_the_lighthouse_phase_offers_each_free_beach_position_as_a_target():
    env = azgames.make("azimuth", num_players=4)
    env.reset(seed=1)
    u = env.unwrapped
    svg = picture_of(env)
    beaches = {u.action_to_str(a).split()[1] for a in u.legal_actions()}
    assert beaches and beaches <= svg.targets
    assert svg.has_text("to place a lighthouse")
    play(env, sorted(u.action_to_str(a) for a in u.legal_actions())[0])
    assert_shows_state(picture_of(env), u.state, u.rules)


def test_action_targets_follow_the_notation():
    env = position(SEA, to_move="K", beaches={"R": "a1-b1", "K": "d1-e1"})
    u = env.unwrapped

    def targets(move):
        return u.rules.action_targets(u.state, u.str_to_action(move))

    assert targets("place K e5 N") == ("mark e5",)
    assert targets("place R e5 W") == ("mark e5",)
    assert targets("board c4") == ("c4",)
    assert targets("pass") == ()
    red = position(SEA, to_move="R", beaches={"R": "a1-b1", "K": "d1-e1"}, hands={"R": (0, 0), "K": (5, 0)})
    u = red.unwrapped
    assert u.rules.action_targets(u.state, u.str_to_action("move c3 NE")) == ("mark c3", "mark d4")
    assert u.rules.action_targets(u.state, u.str_to_action("turn a2 cw")) == ("mark a2",)
    assert u.rules.action_targets(u.state, u.str_to_action("swim N")) == ("b3",)
    assert u.rules.action_targets(u.state, u.str_to_action("home")) == ("island",)
    with pytest.raises(ValueError, match="action 9999 is out of range"):
        u.rules.action_targets(u.state, 9999)


@pytest.mark.parametrize(
    "players, options", [(2, {}), (3, {}), (4, {}), (4, {"island": True}), (2, {"coconuts": True})]
)
def test_random_play_every_element_and_every_legal_actions_targets_are_in_the_svg(players, options):
    env = azgames.make("azimuth", num_players=players, **options)
    rng = np.random.default_rng(players)
    for seed in range(2):
        env.reset(seed=seed)
        u = env.unwrapped
        for step in range(60):
            if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
                break
            if step % 7 == 0:
                picture = u.picture()
                svg = Svg(picture)
                assert_shows_state(svg, u.state, u.rules)
                assert svg.has_text(u.rules.headline(u.state))
                for a in u.legal_actions():
                    assert set(u.rules.action_targets(u.state, int(a))) <= svg.targets, u.action_to_str(a)
                assert picture.rgb().shape == (svg.height, svg.width, 3) == (HEIGHT, WIDTH, 3)
            action = int(rng.choice(u.legal_actions()))
            move, agent = u.action_to_str(action), env.agent_selection
            env.step(action)
        colour = ("red", "black", "blondie", "blue")[int(agent.split("_")[1])]
        assert picture_of(env).has_text(f"Last step: {colour} ({agent}) played {move}")


def test_colours_are_apart_from_each_other_and_blondie_from_the_sand():
    def lightness(colour):
        r, g, b = (int(colour[k : k + 2], 16) / 255 for k in (1, 3, 5))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    assert len(set(COLOURS)) == 4
    assert abs(lightness(COLOURS[2]) - lightness(SAND)) > 0.15  # blondie vs the beaches


def test_the_legend_explains_the_text_symbols():
    rules = azgames.make("azimuth").unwrapped.rules
    assert rules.legend() == diagram.LEGEND
    for symbol in ('"@"', '"#"', "^ > v <", "R red, K black, Y blondie", "lower case"):
        assert symbol in rules.legend()
