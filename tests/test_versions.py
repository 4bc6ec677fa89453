"""Versioned environments, as PettingZoo names ``connect_four_v3``.

Each registered game has a version (``Rules.info.version``): ``make`` and
``make_vec`` take the plain name or the current versioned name and refuse any
other version naming the current one; the envs' ``metadata["name"]`` is the
versioned name; records carry the version and load only at the current one
(a record without the field is read as version 1); benchmark result files
name every game's version; each rules page says which version it describes,
and each env's docstring lists every version up to the current one.
A new game is covered by registering it.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
import runpy
import sys
from pathlib import Path

import numpy as np
import pytest

import azgames
from azgames.core import registry
from azgames.core.records import VERSION_WHEN_ABSENT
from tests.players import most

ROOT = Path(__file__).resolve().parents[1]
GAMES = [e.name for e in azgames.list_games()]
#: The version of every game today; a bump changes this table, its rules page
#: and CHANGELOG.md together.
CURRENT = {"azacru": 2, "azimuth": 1, "azimuth_coop": 1, "azure": 1, "connect_four": 1}
DOCS = {
    "connect_four": "connect_four.md",
    "azacru": "azacru.md",
    "azimuth": "azimuth.md",
    "azimuth_coop": "azimuth-coop.md",
    "azure": "azure.md",
}


def version_of(game: str) -> int:
    return registry.rules_type(game).info.version


def refused(fn, *fragments):
    with pytest.raises(ValueError) as info:
        fn()
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    return message


def played(game: str, steps: int = 6, seed: int = 0):
    env = azgames.make(game)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = env.legal_actions()
        if not legal:
            break
        env.step(int(rng.choice(legal)))
    return env


@pytest.fixture
def bumped(monkeypatch):
    """Pretend ``game`` is now at ``version`` (its rules' info replaced)."""

    def bump(game: str, version: int):
        rules = registry.rules_type(game)
        monkeypatch.setattr(rules, "info", dataclasses.replace(rules.info, version=version))

    return bump


# ---------------------------------------------------------------- make


def test_every_game_is_at_its_listed_version():
    assert registry.versions() == CURRENT
    assert {g: version_of(g) for g in GAMES} == CURRENT


@pytest.mark.parametrize("game", GAMES)
def test_the_versioned_name_makes_the_current_game(game):
    name = f"{game}_v{version_of(game)}"
    assert registry.versioned_name(game) == name and registry.resolve(name) == game
    assert registry.current_version(name) == version_of(game)
    players = most(game, 3)
    env, plain = azgames.make(name, num_players=players), azgames.make(game, num_players=players)
    assert type(env) is type(plain) and env.unwrapped.rules.num_players == players
    venv = azgames.make_vec(name, num_envs=2, seed=0)
    assert type(venv) is type(azgames.make_vec(game, num_envs=2, seed=0))
    assert venv.state is not None  # reset, as make_vec does with a plain name
    assert registry.rules_type(name) is registry.rules_type(game)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("version", ["7", "0", "2", "01", "10"])
def test_another_version_is_refused_naming_the_current(game, version):
    current = version_of(game)
    if version == str(current):
        pytest.skip("the current version")
    for make in (lambda n: azgames.make(n), lambda n: azgames.make_vec(n, num_envs=1)):
        message = refused(
            lambda: make(f"{game}_v{version}"),
            f"{game}_v{version}",
            f"no version {version}",
            f"current version is {current}",
            f"{game}_v{current}",
        )
        assert "unknown game" not in message


@pytest.mark.parametrize("name", ["chess", "chess_v1", "azimuth_v", "_v1", "azimuth_V1", "azimuth_v1x"])
def test_an_unknown_game_is_still_refused_by_name(name):
    refused(lambda: azgames.make(name), "unknown game", repr(name), "azacru")


def test_a_bump_moves_the_versioned_name(bumped):
    bumped("azure", 2)
    assert registry.versioned_name("azure") == "azure_v2"
    assert type(azgames.make("azure_v2")) is type(azgames.make("azure"))
    refused(lambda: azgames.make("azure_v1"), "no version 1", "current version is 2", "azure_v2")


# ---------------------------------------------------------------- metadata


@pytest.mark.parametrize("game", GAMES)
def test_metadata_name_is_the_versioned_name(game):
    name = f"{game}_v{CURRENT[game]}"
    env = azgames.make(game)
    assert env.metadata["name"] == type(env).metadata["name"] == name  # PettingZoo's "connect_four_v3"
    assert env.unwrapped.metadata["name"] == name
    assert set(env.metadata["render_modes"]) == {"ansi", "rgb_array", "human"}  # the rest kept
    assert azgames.make_vec(game, num_envs=1).metadata["name"] == name


# ---------------------------------------------------------------- records


@pytest.mark.parametrize("game", GAMES)
def test_a_record_carries_the_version_and_round_trips(game, tmp_path):
    env = played(game)
    record = env.unwrapped.to_record()
    assert record["game"] == game and record["version"] == version_of(game)
    again = azgames.from_record(json.loads(json.dumps(record)))
    assert again.unwrapped.to_record() == record
    path = env.unwrapped.save_record(tmp_path / "game.json")
    assert json.loads(path.read_text())["version"] == version_of(game)
    assert azgames.load_record(path).unwrapped.to_record() == record


@pytest.mark.parametrize("game", GAMES)
def test_a_record_of_another_version_is_refused_naming_both(game, tmp_path):
    record = played(game, steps=2).unwrapped.to_record()
    now = version_of(game)
    for other in (now + 1, now + 6, 0):
        record["version"] = other
        refused(
            lambda: azgames.from_record(record),
            f"record is of {game} version {other}",
            f"{game}_v{other}",
            f"is now version {now}",
            f"{game}_v{now}",
        )
        path = tmp_path / "other.json"
        path.write_text(json.dumps(record))
        refused(lambda: azgames.load_record(path), f"version {other}", f"version {now}")


@pytest.mark.parametrize("value", [True, "1", 1.0, None, [1]])
def test_a_record_version_must_be_an_int(value):
    record = played("azacru", steps=2).unwrapped.to_record()
    record["version"] = value
    refused(lambda: azgames.from_record(record), "'version'", "int")


@pytest.mark.parametrize("game", GAMES)
def test_a_record_without_a_version_is_read_as_version_1(game):
    assert VERSION_WHEN_ABSENT == 1
    record = played(game).unwrapped.to_record()
    del record["version"]  # as written before records carried it
    if version_of(game) != 1:  # of version 1: another game now (azacru_v2's observations)
        refused(lambda: azgames.from_record(record), "no 'version' field", f"now version {version_of(game)}")
        return
    env = azgames.from_record(record)
    assert env.unwrapped.to_record()["version"] == version_of(game) == 1


def test_a_bump_refuses_old_records_with_and_without_a_version(bumped):
    record = played("azure").unwrapped.to_record()
    assert record["version"] == 1
    bumped("azure", 2)
    refused(lambda: azgames.from_record(record), "azure version 1 (azure_v1)", "now version 2 (azure_v2)")
    del record["version"]
    refused(lambda: azgames.from_record(record), "no 'version' field", "version 1", "now version 2")
    record["version"] = 2  # of the new version: it loads (the rules did not really change here)
    assert azgames.from_record(record).unwrapped.to_record()["version"] == 2


def test_an_unknown_game_is_refused_before_its_version():
    record = played("azacru", steps=2).unwrapped.to_record()
    record["game"] = "chess"
    refused(lambda: azgames.from_record(record), "unknown game 'chess'")


def test_every_json_record_in_the_repository_loads():
    """A record kept as JSON in the repository (none today: the golden games
    are text) loads at its game's current version."""
    for path in ROOT.rglob("*.json"):
        if any(part.startswith(".") for part in path.relative_to(ROOT).parts):
            continue
        try:
            data = json.loads(path.read_text())
        except (UnicodeDecodeError, ValueError):
            continue
        if isinstance(data, dict) and str(data.get("format", "")).startswith("azgames-record/"):
            azgames.load_record(path)


# ---------------------------------------------------------------- benchmarks


@pytest.fixture
def results_file():
    return runpy.run_path(str(ROOT / "benchmarks" / "results_file.py"))


def test_benchmark_results_carry_every_games_version(results_file, tmp_path, capsys):
    out = tmp_path / "r.json"
    results = {"rows": [{"game": "azure", "rate": 1.0}], "date": "2026-01-01"}
    results_file["write_json"](out, results, indent=2)
    saved = json.loads(out.read_text())
    assert saved["versions"] == CURRENT and set(saved["versions"]) == set(GAMES)
    assert saved["rows"] == [{"game": "azure", "rate": 1.0}] and saved["date"] == "2026-01-01"
    assert saved == results  # what a benchmark returns is what its file holds
    assert results_file["game_versions"]() == CURRENT
    assert "wrote" in capsys.readouterr().err


def test_benchmark_results_must_be_a_dict(results_file, tmp_path):
    with pytest.raises(TypeError, match="dict"):
        results_file["write_json"](tmp_path / "r.json", [1, 2])
    assert not (tmp_path / "r.json").exists()


def test_committed_results_without_versions_still_read():
    """Files written before results carried versions keep their keys: their
    readers (the README's tables, tests/training/test_reported_strength.py)
    look rows up by key and never need ``versions``."""
    for path in sorted((ROOT / "benchmarks" / "results").glob("*.json")):
        data = json.loads(path.read_text())
        assert isinstance(data, dict), path
        if "versions" in data:
            assert set(data["versions"]) <= set(GAMES), path


# ---------------------------------------------------------------- docs


@pytest.mark.parametrize("game", GAMES)
def test_each_rules_page_names_the_current_version(game):
    text = (ROOT / "docs" / "rules" / DOCS[game]).read_text()
    section = re.search(r"^## Version\n(.*?)(?=^## )", text, re.S | re.M)
    assert section, f"docs/rules/{DOCS[game]} has no '## Version' section"
    version = version_of(game)
    assert f"**Version {version}** (`{game}_v{version}`)" in section.group(1)
    assert f'azgames.make("{game}_v{version}")' in section.group(1)


def env_docstring(game: str) -> str:
    """The docstring of the game's env module (its ``raw_env``'s)."""
    package = importlib.import_module(next(e.module for e in azgames.list_games() if e.name == game))
    return sys.modules[package.raw_env.__module__].__doc__ or ""


@pytest.mark.parametrize("game", GAMES)
def test_each_envs_version_history_runs_from_v0_to_the_current_version(game):
    section = re.search(r"^## Version history\n(.*)", env_docstring(game), re.S | re.M)
    assert section, f"{game}'s env docstring has no '## Version history'"
    listed = [int(v) for v in re.findall(r"^- v(\d+): ", section.group(1), re.M)]
    # From v0 for the games that predate versions, from v1 for those released since (Connect Four).
    assert listed and listed[0] in (0, 1), f"{game}'s env docstring lists v{listed}"
    assert listed == list(range(listed[0], version_of(game) + 1)), f"{game}'s env docstring lists v{listed}"


def test_the_changelog_lists_versioned_environments():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in text and "Keep a Changelog" in text
    unreleased = text.split("## [Unreleased]", 1)[1]
    assert "Versioned environments" in unreleased
    for game in GAMES:
        assert f"`{game}_v1`" in unreleased
