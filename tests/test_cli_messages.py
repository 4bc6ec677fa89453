"""The command line's refusals, word for word: a typo'd agent or option is
named with the likely intended one and every valid one; ``--version`` names
the installed version. In-process (``cli.main``): the refusals come before
any game is played."""

from __future__ import annotations

import importlib.metadata
import re

import pytest

import azgames
from azgames import cli
from azgames.agents import agent_names, agent_options, make_agent

AZACRU_AGENTS = "random, greedy, ppo, mcts, az"
MCTS_OPTIONS = "simulations, seconds, c, max_playout, prior_temperature, policy, threads"


def refusal(capsys, *argv: str) -> str:
    """The one-line usage error of ``python -m azgames ARGV`` (exit status 2)."""
    with pytest.raises(SystemExit) as exited:
        cli.main(list(argv))
    assert exited.value.code == 2
    return capsys.readouterr().err.rstrip("\n")


def test_a_typoed_agent_of_play_gets_a_guess_and_the_keyboard_seat_after_the_agents(capsys):
    assert refusal(capsys, "play", "azacru", "--agents", "gredy", "greedy") == (
        "azgames play: error: unknown agent 'gredy' for azacru; did you mean 'greedy'? "
        f"valid agents: {AZACRU_AGENTS} (or human for a keyboard seat) (see azgames play --help)"
    )


def test_a_typoed_keyboard_seat_is_guessed(capsys):
    assert refusal(capsys, "play", "azacru", "--agents", "humna", "greedy") == (
        "azgames play: error: unknown agent 'humna' for azacru; did you mean 'human'? "
        f"valid agents: {AZACRU_AGENTS} (or human for a keyboard seat) (see azgames play --help)"
    )


def test_a_typoed_agent_of_a_tournament_names_no_keyboard_seat(capsys):
    assert refusal(capsys, "tournament", "azacru", "--agents", "gredy", "greedy") == (
        "azgames tournament: error: unknown agent 'gredy' for azacru; did you mean 'greedy'? "
        f"valid agents: {AZACRU_AGENTS} (see azgames tournament --help)"
    )


def test_an_agent_like_none_gets_no_guess(capsys):
    assert refusal(capsys, "tournament", "azacru", "--agents", "minimax", "greedy") == (
        "azgames tournament: error: unknown agent 'minimax' for azacru; "
        f"valid agents: {AZACRU_AGENTS} (see azgames tournament --help)"
    )


def test_a_typoed_option_gets_a_guess_and_the_agents_options(capsys):
    assert refusal(capsys, "play", "azacru", "--agents", "mcts:sims=50", "greedy") == (
        "azgames play: error: unknown option 'sims' for mcts; did you mean 'simulations'? "
        f"valid options: {MCTS_OPTIONS} (see azgames play --help)"
    )


def test_an_option_of_a_games_own_agent_names_the_game(capsys):
    assert refusal(capsys, "play", "azacru", "--agents", "greedy:tiebreaks=mobility", "greedy") == (
        "azgames play: error: unknown option 'tiebreaks' for azacru's greedy; did you mean 'tiebreak'? "
        "valid options: removal_penalty, tiebreak (see azgames play --help)"
    )


def test_an_option_of_an_agent_that_takes_none(capsys):
    assert refusal(capsys, "play", "azacru", "--agents", "random:x=1", "greedy") == (
        "azgames play: error: unknown option 'x' for random; it takes no options (see azgames play --help)"
    )


@pytest.mark.parametrize("game", [e.name for e in azgames.list_games()])
def test_every_option_listed_is_one_the_agent_takes(game):
    """A listed option given a bad value is refused for its value, not as unknown."""
    for name in agent_names(game):
        for option in agent_options(name, game):
            try:
                make_agent(f"{name}:{option}=bad", game=game)
            except ValueError as e:
                assert "unknown option" not in str(e), f"{name} lists {option!r}: {e}"


def test_version_prints_the_installed_version(capsys):
    with pytest.raises(SystemExit) as exited:
        cli.main(["--version"])
    assert exited.value.code == 0
    printed = capsys.readouterr().out
    assert printed == f"azgames {importlib.metadata.version('azgames')}\n"
    assert re.fullmatch(r"azgames \d+\.\d+\.\d+\S*\n", printed)


@pytest.mark.parametrize(
    "spec,game,message",
    [
        ("ppo:sample=x", "azacru", "agent 'ppo:sample=x': sample='x' is not true or false"),
        ("greedy:threats=yes", "azimuth", "agent 'greedy:threats=yes': threats='yes' is not true or false"),
        ("mcts:limits=x", "azacru", "unknown option 'limits' for mcts; valid options: "),
        ("random:seed=3", "azacru", "unknown option 'seed' for random; it takes no options"),
    ],
)
def test_a_spec_may_not_set_what_the_front_end_fills_nor_a_flag_to_any_text(spec, game, message):
    with pytest.raises(ValueError) as refused:
        make_agent(spec, game=game)
    assert str(refused.value).startswith(message)


def test_a_flag_given_as_true_or_false_is_taken():
    assert make_agent("ppo:sample=true", game="azacru").sample is True
    assert make_agent("greedy:threats=false", game="azimuth") is not None
