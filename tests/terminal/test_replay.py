"""``python -m azgames replay``: a record's positions, one per ply, each
with the step that led there; keys to move about; bad files refused."""

import io
import json
import re

import pytest

import azgames
from azgames import cli
from azgames.agents import make_agent

HEAD = re.compile(r"(?:^|\] )ply (\d+)/(\d+): (.*)$", re.M)  # after a prompt when piped
AZURE_FOOTER = re.compile(r"^\s+a\s+b\s+c\s+d\s+e\s+f\s*$", re.M)


@pytest.fixture(scope="module")
def record_path(tmp_path_factory):
    """A short Azure game (several steps a turn, fights with dice) saved as a record."""
    env = azgames.make("azure", num_players=2)
    env.reset(seed=5)
    agents = [make_agent("random", seed=i, game="azure") for i in range(2)]
    for _ in range(40):
        env.step(int(agents[env.possible_agents.index(env.agent_selection)].act(env)))
    return env.unwrapped.save_record(tmp_path_factory.mktemp("replay") / "game.json")


def test_all_prints_one_position_per_ply_with_the_records_moves(record_path, capsys):
    assert cli.main(["replay", str(record_path), "--all"]) == 0
    printed = capsys.readouterr().out
    record = json.loads(record_path.read_text())
    heads = HEAD.findall(printed)
    assert [int(ply) for ply, _, _ in heads] == list(range(len(record["actions"]) + 1))
    assert {int(last) for _, last, _ in heads} == {len(record["actions"])}
    assert heads[0][2] == "the start"
    moves = [re.match(r"^(monster|hunter_0) plays (.+)$", what).group(2) for _, _, what in heads[1:]]
    assert moves == record["moves"]
    assert len(AZURE_FOOTER.findall(printed)) == len(heads)  # a board with every position
    assert printed.splitlines()[0] == "azure, 2 players (monster, hunter_0): 40 plies"


def test_keys_step_forward_back_and_jump(record_path, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\nb\n17\n99\nx\n40\n\nq\nnever read\n"))
    assert cli.main(["replay", str(record_path)]) == 0
    printed = capsys.readouterr().out
    assert [int(ply) for ply, _, _ in HEAD.findall(printed)] == [0, 1, 2, 1, 17, 40]
    assert "no ply 99: the game has plies 0-40" in printed
    assert "'x' is not a key of the replay" in printed
    assert "no ply 41: the game has plies 0-40 (this is its end)" in printed


def test_the_end_of_the_input_ends_the_replay(record_path, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    assert cli.main(["replay", str(record_path), "--legend"]) == 0
    printed = capsys.readouterr().out
    assert [int(ply) for ply, _, _ in HEAD.findall(printed)] == [0, 1]
    assert printed.count(azgames.make("azure").unwrapped.rules.legend()) == 1


@pytest.mark.parametrize(
    "content,named",
    [
        (None, "cannot read it"),
        ("{not json", "is not JSON"),
        ('{"format": "azgames-record/1", "game": "azure"}', "record has no 'num_players' field"),
        ('{"format": "something else"}', "not a game record"),
    ],
)
def test_a_bad_file_is_refused_in_one_line(tmp_path, capsys, content, named):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(SystemExit) as stop:
        cli.main(["replay", str(path), "--all"])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and named in err and str(path) in err
