"""Small helpers for Azimuth scenario tests: set up a position from a diagram
(:mod:`azimuth_env.diagram`), play actions in notation, and compare seas as
diagrams."""

from __future__ import annotations

import textwrap
from contextlib import contextmanager

import numba

import azgames
from azimuth_env.diagram import format_sea


def position(
    diagram: str,
    num_players: int = 2,
    to_move: str = "R",
    beaches: dict | None = None,
    hands: dict | None = None,
    coconuts_left: dict | None = None,
    **options,
):
    """An AEC env (PettingZoo API) at the position drawn in ``diagram``.

    ``to_move`` is the colour letter (R, K, Y, B) of the player to act;
    ``beaches``, ``hands`` and ``coconuts_left`` map colour letters to a beach
    (``"a1-b1"``), winds still in hand ``(own, other)`` and coconuts left (see
    ``AzimuthRules.state_from_diagram`` for the defaults). ``options`` go to
    the env (``island=True``, ``coconuts=True``, ...)."""
    env = azgames.make("azimuth", num_players=num_players, **options)
    env.reset(seed=0)
    rules = env.unwrapped.rules
    env.unwrapped.set_state(
        rules.state_from_diagram(
            textwrap.dedent(diagram), to_move=to_move, beaches=beaches, hands=hands, coconuts=coconuts_left
        )
    )
    return env


def play(env, *actions: str) -> None:
    """Play each action, written in notation (``"place R c3 E"``, ``"swim N"``), in turn."""
    for action in actions:
        env.step(env.unwrapped.str_to_action(action))


def sea(env) -> str:
    """The diagram of the env's current sea (compare with :func:`same_sea`)."""
    s = env.unwrapped.state
    return format_sea(
        s.stack,
        s.height,
        s.wind_colour,
        s.wind_owner,
        s.wind_dir,
        s.castaway,
        env.unwrapped.rules.layout.island,
    )


def same_sea(env, diagram: str) -> bool:
    """True if the env's sea is exactly ``diagram`` (spacing and labels ignored)."""

    def tokens(text):
        rows = [line.split() for line in text.strip().splitlines()]
        rows = [r[1:] if r and r[0] in "123456" and len(r) == 7 else r for r in rows]
        return [r for r in rows if r and r != list("abcdef")]

    return tokens(sea(env)) == tokens(textwrap.dedent(diagram))


def legal_actions(env) -> set[str]:
    """The acting player's legal actions, in notation."""
    return {env.unwrapped.action_to_str(a) for a in env.unwrapped.legal_actions()}


@contextmanager
def numba_threads(count: int):
    """Run numba's parallel kernels on at most ``count`` threads meanwhile: a
    few dozen games gain nothing from threads, and on a busy machine each
    parallel call can wait milliseconds for a descheduled worker."""
    before = numba.get_num_threads()
    numba.set_num_threads(min(count, before))
    try:
        yield
    finally:
        numba.set_num_threads(before)
