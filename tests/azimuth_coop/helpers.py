"""Small helpers for the Azimuth co-op (Ocean Die) scenario tests: set up a
position from a diagram (:mod:`azimuth_env.diagram`), play actions in
notation, roll the Ocean Die with a chosen face, and compare seas as
diagrams. Seas and legal actions come from ``tests/azimuth/helpers.py``."""

from __future__ import annotations

import re
import textwrap

import pytest

import azgames
from azimuth_env.board import AT_HOME, COLOUR_LETTERS, ON_ISLAND, point_name
from azimuth_env.coop.rules import FACE_NAMES
from tests.azimuth.helpers import legal_actions, same_sea, sea  # noqa: F401 (the co-op tests' too)

#: The beaches the diagrams use unless a test says otherwise: the centre
#: position of each colour's side (colour order red, black, blondie, blue).
CENTRE_BEACHES = {"R": "c1-d1", "K": "a3-a4", "Y": "c6-d6", "B": "f3-f4"}
#: Every colour with all 4 winds placed (phase 2): the default hands of the
#: diagrams, so that winds may be turned and moved.
NO_WINDS_IN_HAND = {c: (0, 0) for c in COLOUR_LETTERS}


def position(
    diagram: str,
    num_players: int = 4,
    to_move: str = "R",
    beaches: dict | None = None,
    hands: dict | None = None,
    home: str | None = None,
    first: str = "R",
    round: int = 1,
    turn: int | None = None,
    face: str | None = None,
    asleep: str = "",
    turtle: str | None = None,
    **options,
):
    """An ``azimuth_coop`` AEC env at the position drawn in ``diagram``.

    ``to_move`` is the colour letter (R, K, Y, B) to act; ``beaches`` maps
    colour letters to beaches (default :data:`CENTRE_BEACHES`), ``hands``
    to winds still in hand ``(own, 0)`` (default: none, phase 2 for all);
    ``home`` lists the colours already home; ``first``, ``round``, ``turn``,
    ``face``, ``asleep`` and ``turtle`` are the co-op fields of
    ``CoopRules.state_from_diagram``. ``options`` go to the env
    (``rounds=``, ``wave_order=``, ...)."""
    env = azgames.make("azimuth_coop", num_players=num_players, **options)
    env.reset(seed=0)
    rules = env.unwrapped.rules
    env.unwrapped.set_state(
        rules.state_from_diagram(
            textwrap.dedent(diagram),
            to_move=to_move,
            beaches={**CENTRE_BEACHES, **(beaches or {})},
            hands={**NO_WINDS_IN_HAND, **(hands or {})},
            home=home,
            first=first,
            round=round,
            turn=turn,
            face=face,
            asleep=asleep,
            turtle=turtle,
        )
    )
    return env


def new_game(num_players: int = 4, seed: int = 0, **options):
    """A fresh co-op game, as ``reset`` sets it up."""
    env = azgames.make("azimuth_coop", num_players=num_players, **options)
    env.reset(seed=seed)
    return env


def play(env, *actions: str) -> None:
    """Play each action, written in notation (``"place R b2 N"``, ``"swim N"``,
    ``"turtle E"``, ``"wave c3"``), in turn; none may roll the die."""
    for action in actions:
        a = env.unwrapped.str_to_action(action)
        assert env.unwrapped.chance_outcomes(a) == [], f"{action!r} would roll the die"
        env.step(a)


def roll(env, action: str, face: str) -> None:
    """Play ``action``, the last colour turn of a round, which rolls the Ocean
    Die; the die shows ``face`` (a name of ``FACE_NAMES``)."""
    u = env.unwrapped
    a = u.str_to_action(action)
    assert [o.label for o in u.chance_outcomes(a)] == list(FACE_NAMES), f"{action!r} rolls no die"
    u.step_outcome(a, (FACE_NAMES.index(face),))


def of_kind(env, kind: str) -> set[str]:
    """The acting colour's legal actions of one kind: "place", "turn", "swim", "turtle", ..."""
    return {a for a in legal_actions(env) if a.split()[0] == kind}


def kinds(env) -> set[str]:
    """The kinds of the acting colour's legal actions."""
    return {a.split()[0] for a in legal_actions(env)}


def acting(env) -> str:
    """Colour letter of the colour to act."""
    return COLOUR_LETTERS[int(env.unwrapped.state.colour[0])]


def reason(env, action: str) -> str | None:
    """Why ``action`` is illegal for the acting colour (None if it is legal)."""
    u = env.unwrapped
    return u.rules.illegal_reason(u.state, u.str_to_action(action))


def refused(env, action: str, why: str) -> None:
    """Playing ``action`` raises ValueError giving ``why``, and changes nothing."""
    before, actor, colour = sea(env), env.agent_selection, acting(env)
    with pytest.raises(ValueError, match=re.escape(why)):
        env.step(env.unwrapped.str_to_action(action))
    assert sea(env) == before and env.agent_selection == actor and acting(env) == colour


def castaway(env, letter: str) -> str:
    """Where a castaway is: a point name, "island" or "home"."""
    c = int(env.unwrapped.state.castaway[0, COLOUR_LETTERS.index(letter)])
    return {ON_ISLAND: "island", AT_HOME: "home"}.get(c) or point_name(c)


def asleep(env) -> str:
    """The letters of the castaways the mermaid put to sleep, in colour order."""
    return "".join(c for k, c in enumerate(COLOUR_LETTERS) if env.unwrapped.state.asleep[0, k])


def turtle(env) -> str | None:
    """The letter of the colour whose portion holds an unused sea turtle, or None."""
    t = int(env.unwrapped.state.turtle[0])
    return COLOUR_LETTERS[t] if t >= 0 else None


def round_and_turn(env) -> tuple[int, int]:
    """The round being played and the colour turns played in it."""
    s = env.unwrapped.state
    return int(s.round[0]), int(s.turn[0])


def game_over(env) -> bool:
    return all(env.terminations.values())
