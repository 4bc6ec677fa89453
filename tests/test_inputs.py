"""What comes from outside is bounded before any work starts
(azgames.core.inputs, azgames.core.limits): files read with a cap, never a FIFO or a
device, JSON nested within a bound, no server file named by a page, output
paths checked before the work that fills them, and searches that end."""

from __future__ import annotations

import io
import os
import threading
import time

import numpy as np
import pytest

import azgames
from azgames.agents import make_agent
from azgames.core import inputs
from azgames.core.limits import LOCAL, WEB

GAMES = [e.name for e in azgames.list_games()]


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def test_a_fifo_a_device_and_a_folder_are_refused_before_reading(fifo, tmp_path):
    started = time.perf_counter()
    with pytest.raises(ValueError, match="is a FIFO"):
        inputs.read_bytes(fifo, "record")  # a FIFO with no writer: no wait for one
    with pytest.raises(ValueError, match="is a device"):
        inputs.read_bytes("/dev/zero", "record")  # no end to read to
    with pytest.raises(ValueError, match="is a folder"):
        inputs.read_bytes(tmp_path, "record")
    assert time.perf_counter() - started < 5


def test_a_file_over_the_limit_is_refused_without_reading_it_whole(tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 1001)
    with pytest.raises(ValueError, match="larger than 1,000 bytes"):
        inputs.read_bytes(path, "map file", limit=1000)
    assert inputs.read_bytes(path, "map file", limit=1001) == b" " * 1001


@pytest.mark.parametrize("depth", [LOCAL.json_depth + 1, 100_000])
def test_json_nested_too_deep_is_one_clear_error(depth):
    text = "[" * depth + "]" * depth
    with pytest.raises(ValueError, match=f"nested deeper than {LOCAL.json_depth} levels"):
        inputs.parse_json(text, "message")
    assert inputs.json_depth(inputs.parse_json("[" * 5 + "]" * 5, "message")) == 5


def test_bad_json_names_where_and_never_quotes_the_text():
    with pytest.raises(ValueError) as info:
        inputs.parse_json('{"secret": hunter2}', "record")
    assert "line 1, column 12" in str(info.value) and "hunter2" not in str(info.value)


def test_a_page_cannot_name_a_file_whether_it_exists_or_not(tmp_path):
    present = tmp_path / "map.json"
    present.write_text('{"name": "secret", "tiles": ["M # 1"], "homes": {"M": "a1", "1": "e1"}}')
    answers = []
    with inputs.client_request():
        for path in (str(present), str(tmp_path / "absent.json")):
            with pytest.raises(ValueError) as info:
                azgames.make("azure", map=path)
            answers.append(str(info.value).replace(path, "PATH"))
        with pytest.raises(ValueError, match="shipped policy"):
            make_agent("ppo:path=" + str(present), game="azacru")
        assert azgames.make("azure", map="ring").unwrapped.rules.options["map"] == "ring"
    assert answers[0] == answers[1] and "secret" not in answers[0]
    assert "cannot name a file on the server" in answers[0]
    # The command line may: the same path is a map there.
    assert azgames.make("azure", map=str(present)).unwrapped.rules.options["map"]["name"] == "secret"


def test_output_paths_are_checked_before_work(tmp_path):
    existing = tmp_path / "out.json"
    existing.write_text("{}")
    with pytest.raises(ValueError, match="exists; give another name, or --force"):
        inputs.writable_file("--record", existing)
    assert inputs.writable_file("--record", existing, force=True) == existing
    assert existing.read_text() == "{}"  # probed, not truncated
    fresh = tmp_path / "new.json"
    assert inputs.writable_file("--record", fresh) == fresh and not fresh.exists()
    with pytest.raises(ValueError, match="cannot write it"):
        inputs.writable_file("--record", "/proc/no_files_here.json")
    with pytest.raises(ValueError, match="is a file, not a folder"):
        inputs.writable_folder("--out", existing)
    run = inputs.writable_folder("--out", tmp_path / "run" / "a", ("policy.npz",))
    (run / "policy.npz").write_bytes(b"")
    with pytest.raises(ValueError, match="already holds policy.npz"):
        inputs.writable_folder("--out", run, ("policy.npz",))
    assert inputs.writable_folder("--out", run, ("policy.npz",), force=True) == run


@pytest.mark.parametrize("game", GAMES)
def test_the_web_budget_gives_every_search_a_deadline(game):
    assert make_agent("mcts", game=game, limits=WEB).seconds == WEB.seconds
    assert make_agent("mcts:seconds=2", game=game, limits=WEB).seconds == 2
    assert make_agent("mcts", game=game).seconds is None  # at the keyboard: simulations alone
    for spec, named in [
        (f"mcts:seconds={WEB.seconds * 2}", "seconds"),
        ("mcts:threads=64", "threads"),
        (f"mcts:simulations={WEB.simulations + 1}", "simulations"),
        ("mcts:c=1e400", "c=inf"),
        ("mcts:simulations=null,seconds=1e9", "seconds"),
    ]:
        with pytest.raises(ValueError, match=named):
            make_agent(spec, game=game, limits=WEB)


def test_a_stopped_search_ends_at_once_with_a_legal_move():
    env = azgames.make("azacru")
    env.reset(seed=0)
    make_agent("mcts:simulations=10", game="azacru").act(env)  # compiled before the clock starts
    agent = make_agent("mcts:simulations=null,seconds=60", game="azacru", seed=0)
    threading.Timer(0.5, agent.stop).start()
    started = time.perf_counter()
    action = agent.act(env)
    assert time.perf_counter() - started < 5
    assert action in env.unwrapped.legal_actions()


def test_a_search_in_chunks_is_the_search_in_one_call(monkeypatch):
    from azgames.agents.mcts import agent as mcts_agent

    env = azgames.make("azure", num_players=3)
    env.reset(seed=2)
    chunked = mcts_agent.MCTSAgent(seed=5, game="azure", simulations=700).search(env)
    monkeypatch.setattr(mcts_agent, "STOP_CHUNK", 10**9)
    whole = mcts_agent.MCTSAgent(seed=5, game="azure", simulations=700).search(env)
    assert np.array_equal(chunked.visits, whole.visits) and np.allclose(chunked.values, whole.values)


def test_replay_keys_that_are_not_plain_ply_numbers_are_answered(tmp_path):
    from azgames.terminal import replay

    env = azgames.make("azacru")
    env.reset(seed=0)
    for _ in range(3):
        env.step(env.unwrapped.legal_actions()[0])
    keys = iter(["²", "9" * 5000, "2", "q"])
    out = io.StringIO()
    replay(env, input_fn=lambda prompt: next(keys), out=out)
    printed = out.getvalue()
    assert "'²' is not a key of the replay" in printed
    assert "no ply 999999999...: the game has plies 0-3" in printed
    assert "ply 2/3" in printed
