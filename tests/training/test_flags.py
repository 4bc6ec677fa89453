"""The train command's flags are built from the trainers' configs: no flag
given builds each config's defaults, each flag reaches its field (nested
search settings too), and the help shows each trainer's own default."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from azgames.agents.az.settings import SearchSettings
from azgames.training import cli
from azgames.training.config import AlphaZeroConfig, PPOConfig
from azgames.training.flags import add_flags, build, flags_of


def parsed(*argv: str) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    parser = argparse.ArgumentParser(prog="train")
    add_flags(parser, cli.CONFIGS)
    return parser, parser.parse_args(list(argv))


FIXED = {"game": "connect_four", "num_players": 2, "options": {}, "progress": False}


@pytest.mark.parametrize("trainer", list(cli.CONFIGS))
def test_no_flag_given_builds_the_configs_own_defaults(trainer):
    parser, args = parsed()
    built = build(cli.CONFIGS[trainer], cli.given_flags(parser, args, trainer), FIXED)
    assert built == cli.CONFIGS[trainer](**FIXED)


@pytest.mark.parametrize(
    "argv, field, value",
    [
        (["--simulations", "64"], ("simulations",), 64),
        (["--hidden", "64", "32"], ("hidden",), (64, 32)),
        (["--conv", "16x1"], ("conv",), {"channels": 16, "blocks": 1}),
        (["--no-symmetries"], ("symmetries",), False),
        (["--random-opening", "8"], ("random_opening",), 8),
        (["--min-spread", "2"], ("search", "min_spread"), 2.0),
        (["--playout-weight", "0.5"], ("search", "playout_weight"), 0.5),
        (["--max-playout", "-1"], ("search", "max_playout"), -1),
        (["--prior-temperature", "0.1"], ("search", "prior_temperature"), 0.1),
        (["--eval-against", "greedy"], ("eval_against",), ("greedy",)),
        (["--torch-threads", "1"], ("torch_threads",), 1),
    ],
)
def test_each_flag_sets_its_field_and_no_other(argv, field, value):
    parser, args = parsed(*argv)
    built = build(AlphaZeroConfig, cli.given_flags(parser, args, "alphazero"), FIXED)
    default = AlphaZeroConfig(**FIXED)
    got = built
    for name in field:
        got = getattr(got, name)
    assert got == value
    if field[0] == "search":
        assert built.search == dataclasses.replace(default.search, **{field[1]: value})
        built.search = default.search
    else:
        setattr(built, field[0], getattr(default, field[0]))
    assert built == default


def test_every_search_setting_is_a_flag_of_alphazero_only():
    alphazero, ppo = flags_of(AlphaZeroConfig), flags_of(PPOConfig)
    for f in dataclasses.fields(SearchSettings):
        dest = f.name
        assert alphazero[dest].path == ("search", f.name)
        assert dest not in ppo


def test_the_help_gives_each_trainers_own_default():
    parser = argparse.ArgumentParser(prog="train")
    add_flags(parser, cli.CONFIGS)
    helps = {a.dest: a.help for a in parser._actions}
    assert "(default: ppo 64; alphazero 16)" in helps["num_steps"]
    assert helps["min_spread"].startswith("alphazero: ") and "(default: 1e-08)" in helps["min_spread"]
    assert helps["eval_every"].startswith("ppo: updates; alphazero: rounds; rllib: iterations between")
    assert "(default: ppo 10; alphazero 100; rllib 5)" in helps["eval_every"]
    # Ray's AlphaZero extends the local one's config: its flags are told once, as AlphaZero's.
    assert helps["device"].startswith("ppo/alphazero: ") and helps["actors"].startswith("ray: ")
    assert helps["address"].startswith("ray/rllib: ")


@pytest.mark.parametrize(
    "argv, trainer, message",
    [
        (["--min-spread", "3"], "alphazero", "--min-spread 3.0: give a number from 1e-08 to 2"),
        (["--min-spread", "0.5"], "ppo", "--min-spread is an option of --algo alphazero, not of --algo ppo"),
        (["--random-opening", "-1"], "alphazero", "--random-opening -1: give a whole number from 0 to 1,000"),
        (["--hidden", "0"], "ppo", "--hidden 0: give 1 to 8 widths"),
        (["--minutes", "0"], "ppo", "--minutes 0.0: give a number above 0"),
        (
            ["--num-envs", "4"],
            "rllib",
            "--num-envs is an option of the suite backend, not of --backend rllib",
        ),
        (
            ["--address", "auto"],
            "ppo",
            "--address is an option of the rllib and ray backends, not of --algo ppo",
        ),
    ],
)
def test_a_bad_flag_is_one_line_naming_it_and_its_value(argv, trainer, message, capsys):
    parser, args = parsed(*argv)
    with pytest.raises(SystemExit):
        cli.given_flags(parser, args, trainer)
    assert message in capsys.readouterr().err


def test_a_recipe_of_flags_is_a_config_and_a_bad_one_is_named():
    from azgames.training.flags import config_from_flags
    from azgames.training.recipes import CONNECT_FOUR

    cfg = config_from_flags(AlphaZeroConfig, CONNECT_FOUR, game="connect_four")
    channels, blocks = map(int, CONNECT_FOUR[CONNECT_FOUR.index("--conv") + 1].split("x"))
    opening = int(CONNECT_FOUR[CONNECT_FOUR.index("--random-opening") + 1])
    assert (cfg.conv, cfg.random_opening) == ({"channels": channels, "blocks": blocks}, opening)
    assert dataclasses.replace(cfg, conv=None, random_opening=0) == AlphaZeroConfig("connect_four")
    with pytest.raises(ValueError, match="--conv 16: give CHANNELSxBLOCKS"):
        config_from_flags(AlphaZeroConfig, ["--conv", "16"], game="connect_four")
