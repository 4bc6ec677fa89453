"""What a page may ask of the server: no file of the server named, every
message and record bounded, every search within the web's budget; each
refusal one line, after which the connection goes on."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")  # FastAPI's TestClient

from fastapi.testclient import TestClient  # noqa: E402

from azgames.core.limits import WEB  # noqa: E402
from azgames.web.access import Access  # noqa: E402
from azgames.web.app import create_app  # noqa: E402
from azgames.web.session import Session  # noqa: E402

from .helpers import random_game  # noqa: E402

TOKEN = "test-token"
RING = {
    "name": "my ring",
    "tiles": [". . M .", "# # # #", "# . . #", "# . . #", "# # # #", ". 2 1 3"],
    "homes": {"M": "e11", "1": "f2", "2": "d2", "3": "g2"},
}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Access(port=80, token=TOKEN, host="testserver"))) as c:
        c.get(f"/?token={TOKEN}")
        yield c


def new(game="azacru", seats=("human", "random"), **options) -> dict:
    return {
        "type": "new",
        "game": game,
        "num_players": len(seats),
        "seats": list(seats),
        "seed": 0,
        "options": options,
    }


def answer(ws) -> dict:
    """The next answer that is not a notice: a game whose kernels the worker
    has not compiled yet says so first (the order of tests decides which)."""
    while (message := ws.receive_json())["type"] == "notice":
        pass
    return message


def error_then_usable(ws) -> str:
    """The one-line error the last message got; the connection still answers."""
    refusal = answer(ws)
    assert refusal["type"] == "error" and "\n" not in refusal["text"], refusal
    ws.send_json(new())
    view = answer(ws)
    assert view["type"] == "state" and view["mode"] == "play", view
    return refusal["text"]


# ---------------------------------------------------------------- no server file named by a page
@pytest.mark.parametrize("path", ["/etc/passwd", "/etc", "/no/such/file.json"])
def test_an_azure_map_path_is_refused_whether_or_not_it_exists(client, path):
    with client.websocket_connect("/ws") as ws:
        ws.send_json(new("azure", map=path))
        text = error_then_usable(ws)
    assert text == (
        f"map={path!r}: a page cannot name a file on the server; give a built-in map "
        f"(standard, long, ring), a map dict or a map diagram (file paths are a "
        f"command-line feature)"
    )
    assert "root:" not in text


@pytest.mark.parametrize("path", ["/etc/passwd", "/no/such/file.json"])
def test_a_records_map_path_is_refused_the_same_way(client, path):
    env, _ = random_game("azure", 3, seed=0)
    record = env.unwrapped.to_record()
    record["options"]["map"] = path
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "load", "text": json.dumps(record)})
        text = error_then_usable(ws)
    assert text.startswith(f"bad record: map={path!r}: a page cannot name a file on the server")
    assert "root:" not in text


@pytest.mark.parametrize("path", ["/etc/passwd", "/no/such/policy.npz"])
def test_a_policy_path_is_refused_whether_or_not_it_exists(client, path):
    with client.websocket_connect("/ws") as ws:
        ws.send_json(new(seats=("human", f"ppo:path={path}")))
        text = error_then_usable(ws)
    assert text == (
        f"seat 1 (player_1): agent 'ppo:path={path}': ppo:path: a page cannot name a file "
        f"on the server; play the shipped policy: ppo (file paths are a command-line feature)"
    )


def test_a_built_in_map_an_inline_map_and_the_shipped_policy_still_work(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json(new("azure", map="ring"))
        ring = answer(ws)
        ws.send_json(new("azure", seats=("human", "human"), map=RING))
        inline = answer(ws)
        ws.send_json(new(seats=("human", "ppo")))
        policy = answer(ws)
    assert ring["type"] == "state" and ring["options"]["map"] == "ring"
    assert inline["type"] == "state" and inline["options"]["map"]["name"] == "my ring"
    assert policy["type"] == "state" and policy["seats"] == ["human", "ppo"]


@pytest.mark.parametrize("spec", ["ppo", "mcts:simulations=16,policy=ppo"])
def test_the_shipped_policy_plays_its_moves(client, spec):
    """The server's own policy file is read for a page's agent: the page named none."""
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "speed", "moves_per_second": 50})
        answer(ws)
        ws.send_json(new(seats=(spec, "human")))
        first = answer(ws)
        moved = answer(ws)
    assert first["type"] == "state" and first["ply"] == 0
    assert moved["type"] == "state" and moved["ply"] == 1 and moved["last"]["agent"] == "player_0", moved


def test_a_file_path_is_refused_only_for_a_page():
    """The same map is read from disk at the keyboard: the refusal is the
    web's (the worker thread's client_request), not the option's."""
    with pytest.raises(ValueError, match="no such file"):
        Session().handle(new("azure", map="/no/such/file.json"))


# ---------------------------------------------------------------- bounded messages
def test_a_binary_frame_gets_an_error_and_the_connection_goes_on(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_bytes(json.dumps(new()).encode())
        text = error_then_usable(ws)
    assert text == "binary frames are not accepted: send each message as JSON text"


def test_a_message_over_the_limit_is_refused(client):
    message = json.dumps({"type": "load", "text": "é" * (WEB.message_bytes // 2)}, ensure_ascii=False)
    with client.websocket_connect("/ws") as ws:
        ws.send_text(message)
        text = error_then_usable(ws)
    size = len(message.encode())
    assert size > WEB.message_bytes > len(message)
    assert text == f"a message may have at most {WEB.message_bytes:,} bytes; this one has {size:,}"


def test_json_nested_100000_deep_is_refused(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_text("[" * 100_000 + "]" * 100_000)
        text = error_then_usable(ws)
        nested = 0
        for _ in range(WEB.json_depth - 1):  # in the message's two objects: one level too many
            nested = [nested]
        ws.send_json({"type": "new", "options": {"a": nested}})
        deep = error_then_usable(ws)
    assert text == deep and text.startswith("message") and f"nested deeper than {WEB.json_depth}" in text


def test_a_record_nested_too_deep_is_refused(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "load", "text": "{" + '"a":{' * 100_000 + "}" * 100_001})
        deep = error_then_usable(ws)
    assert deep.startswith("bad record: the file") and f"nested deeper than {WEB.json_depth}" in deep


def test_a_record_over_the_plies_limit_is_refused_before_replaying(client, monkeypatch):
    import azgames.core.registry

    made = []  # from_record makes the record's env only once the record passes its checks
    monkeypatch.setattr(azgames.core.registry, "make", lambda *a, **k: made.append(1))
    env, _ = random_game("azacru", 2)
    record = env.unwrapped.to_record()
    record["actions"] = [0] * (WEB.record_plies + 1)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "load", "text": json.dumps(record)})
        text = error_then_usable(ws)
    assert text == (
        f"bad record: record has {WEB.record_plies + 1:,} actions; at most {WEB.record_plies:,} are replayed"
    )
    assert not made


def test_a_record_whose_generator_has_no_shape_is_refused(client):
    env, _ = random_game("azure", 4, seed=2)
    record = env.unwrapped.to_record()
    record["start"]["rng"]["shape"] = []
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "load", "text": json.dumps(record)})
        text = error_then_usable(ws)
    assert text.startswith("bad record: record field 'start': state field 'rng'")


# ---------------------------------------------------------------- the web's search budget
@pytest.mark.parametrize(
    "spec, named",
    [
        ("mcts:simulations=10000000", "simulations"),
        ("mcts:seconds=3600", "seconds"),
        ("mcts:threads=16", "threads"),
        ("az:simulations=100000", "simulations"),
    ],
)
def test_a_search_over_the_webs_budget_is_refused(client, spec, named):
    with client.websocket_connect("/ws") as ws:
        ws.send_json(new(seats=("human", spec)))
        text = error_then_usable(ws)
    assert text.startswith(f"seat 1 (player_1): agent '{spec}': ") and named in text


def test_every_search_has_the_webs_deadline():
    session = Session()
    session.handle(new(seats=("mcts:simulations=100000", "human")))
    assert session.agents["player_0"].seconds == WEB.seconds


def test_a_stopped_session_ends_its_searches_at_once():
    session = Session()
    session.handle(new(seats=("mcts:simulations=null,seconds=25", "human")))
    job = session.agent_job()
    session.stop()
    started = time.perf_counter()
    job.think()
    assert time.perf_counter() - started < 5


def test_a_new_game_stops_the_old_games_searches():
    session = Session()
    session.handle(new(seats=("mcts:simulations=null,seconds=25", "human")))
    job = session.agent_job()
    session.handle(new(seats=("human", "human")))
    started = time.perf_counter()
    job.think()
    assert time.perf_counter() - started < 5
