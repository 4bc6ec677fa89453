"""The browser app's server, through its websocket as the page uses it.

The app is the one ``serve`` runs, with its checks (:mod:`azgames.web.access`)
on the test client's address; the page's load with the token sets its cookie."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")  # FastAPI's TestClient

from fastapi.testclient import TestClient  # noqa: E402

import azgames  # noqa: E402
from azgames.core.registry import list_games  # noqa: E402
from azgames.web.access import Access  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
from azgames.web.app import create_app  # noqa: E402

from .helpers import random_game, record_text  # noqa: E402

GAMES = [e.name for e in list_games()]
TOKEN = "test-token"


@pytest.fixture(scope="module")
def client():
    # The test client's requests go to http://testserver (port 80).
    with TestClient(create_app(Access(port=80, token=TOKEN, host="testserver"))) as c:
        assert c.get(f"/?token={TOKEN}").status_code == 200  # as the page is opened: sets the cookie
        yield c


def receive(ws, until=lambda m: True, limit: int = 50) -> dict:
    """The next message satisfying ``until`` (skipping others); fails on an error message."""
    for _ in range(limit):
        m = ws.receive_json()
        if m["type"] == "error" and not until(m):
            raise AssertionError(f"server error: {m['text']}")
        if until(m):
            return m
    raise AssertionError(f"no matching message in {limit}")


def start(ws, game="azacru", seats=("human", "random"), seed=0, **options) -> dict:
    ws.send_json({"type": "speed", "moves_per_second": 50})
    ws.send_json(
        {
            "type": "new",
            "game": game,
            "num_players": len(seats),
            "seats": list(seats),
            "seed": seed,
            "options": options,
        }
    )
    return receive(ws, lambda m: m["type"] == "state" and m["mode"] == "play" and m["ply"] == 0)


def play_by_clicks(ws, view: dict, move: dict) -> dict:
    """Click ``move``'s targets, then its button if other moves share them
    (or it has none); the state after it."""
    ply = view["ply"]
    for i, target in enumerate(move["targets"]):
        ws.send_json({"type": "click", "target": target})
        view = receive(ws, lambda m: m["type"] == "state")
        if view["ply"] > ply:
            break
        assert view["clicks"] == move["targets"][: i + 1]
    else:
        if move["targets"]:
            assert {"action": move["action"], "move": move["move"]} in view["choices"]
        ws.send_json({"type": "choose", "action": move["action"]})
        view = receive(ws, lambda m: m["type"] == "state")
    assert view["ply"] == ply + 1 and view["last"]["move"] == move["move"]
    return view


def test_the_catalogue_offers_every_game_with_its_agents(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert list(games) == GAMES
    assert games["azure"]["options"]["map"] == "standard"
    assert "mcts" in games["azacru"]["agents"] and games["azacru"]["min_players"] == 2


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and '<script src="/static/app.js">' in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_a_new_game_shows_the_envs_picture_and_legal_moves(client):
    env, svgs = random_game("azacru", 0, seed=3)
    raw = env.unwrapped
    with client.websocket_connect("/ws") as ws:
        view = start(ws, seed=3)
    assert view["svg"] == svgs[0]
    assert view["to_move"] == "player_0" and view["human_to_move"]
    assert [(m["action"], m["move"], tuple(m["targets"])) for m in view["legal"]] == [
        (a, raw.action_to_str(a), raw.rules.action_targets(raw.state, a)) for a in raw.legal_actions()
    ]


def test_clicks_play_a_move_and_the_agent_replies(client):
    with client.websocket_connect("/ws") as ws:
        view = start(ws)
        move = next(m for m in view["legal"] if m["move"] == "a3-b4:N")  # a3-b4 has three facings
        ws.send_json({"type": "click", "target": "a3"})
        view = receive(ws)
        assert view["clicks"] == ["a3"] and set(view["next_targets"]) == {"b3", "b4", "b2"}
        ws.send_json({"type": "click", "target": "b4"})
        view = receive(ws)
        assert [c["move"] for c in view["choices"]] == ["a3-b4:NE", "a3-b4:N", "a3-b4:E"]
        ws.send_json({"type": "choose", "action": move["action"]})
        view = receive(ws)
        assert view["last"] == {"agent": "player_0", "move": "a3-b4:N"} and view["ply"] == 1
        view = receive(ws)  # the agent's reply, on its own
        assert view["ply"] == 2 and view["last"]["agent"] == "player_1" and view["human_to_move"]


def test_a_click_with_one_move_left_plays_it(client):
    with client.websocket_connect("/ws") as ws:
        view = start(ws)
        ws.send_json({"type": "click", "target": "a3"})
        receive(ws)
        ws.send_json({"type": "click", "target": "b3"})  # a3-b3:E is the only move to b3
        view = receive(ws)
    assert view["last"] == {"agent": "player_0", "move": "a3-b3:E"} and view["clicks"] == []


def test_a_click_starting_no_move_is_explained(client):
    with client.websocket_connect("/ws") as ws:
        start(ws)
        ws.send_json({"type": "click", "target": "e5"})
        notice = receive(ws)
        view = receive(ws)
    assert notice == {"type": "notice", "text": "no legal move of player_0 starts at e5"}
    assert view["clicks"] == [] and view["ply"] == 0


def test_an_illegal_move_is_explained_with_the_rules_reason(client):
    env, _ = random_game("azacru", 0)
    raw = env.unwrapped
    legal = set(raw.legal_actions())
    clicked = {raw.rules.action_targets(raw.state, a) for a in legal if a != raw.rules.pass_action}
    starts = {first for first, _ in clicked}
    # A piece's move the rules refuse, to a square where no legal move starts or ends.
    illegal = next(
        a
        for a in range(raw.rules.pass_action)
        if a not in legal
        and "off the board" not in raw.action_to_str(a)
        and raw.rules.action_targets(raw.state, a) not in clicked
        and raw.rules.action_targets(raw.state, a)[1] not in starts
    )
    first, second = raw.rules.action_targets(raw.state, illegal)
    reason = raw.rules.illegal_reason(raw.state, illegal)
    with client.websocket_connect("/ws") as ws:
        start(ws)
        ws.send_json({"type": "click", "target": first})
        receive(ws)
        ws.send_json({"type": "click", "target": second})
        notice = receive(ws)
    assert notice["type"] == "notice"
    assert notice["text"].startswith(f"no legal move of player_0 goes {first} then {second}")
    assert f"{raw.action_to_str(illegal)}: {reason}" in notice["text"]


def test_acting_out_of_turn_is_explained(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "pause", "paused": True})  # the agent waits
        receive(ws)
        view = start(ws, seats=("random", "human"))
        ws.send_json({"type": "click", "target": "a3"})
        notice = receive(ws)
        ws.send_json({"type": "choose", "action": view["legal"][0]["action"]})
        again = receive(ws, lambda m: m["type"] == "notice")
    assert notice["text"] == "it is player_0's turn (random), not a human's: wait for its move"
    assert again == notice


def test_undo_takes_back_the_humans_move_and_the_reply(client):
    with client.websocket_connect("/ws") as ws:
        first = start(ws)
        play_by_clicks(ws, first, first["legal"][0])
        view = receive(ws, lambda m: m["type"] == "state" and m["ply"] == 2)
        assert view["can_undo"]
        ws.send_json({"type": "undo"})
        view = receive(ws)
    assert view["ply"] == 0 and view["svg"] == first["svg"] and not view["can_undo"]


def test_a_replay_shows_the_envs_picture_and_moves_at_every_ply(client):
    env, svgs = random_game("azacru", 12, seed=5)
    record = env.unwrapped.to_record()
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "load", "text": json.dumps(record)})
        view = receive(ws)
        assert (view["mode"], view["ply"], view["plies"]) == ("replay", 12, 12)
        for ply in (0, 7, 1, 12):
            ws.send_json({"type": "seek", "ply": ply})
            view = receive(ws)
            assert view["ply"] == ply and view["svg"] == svgs[ply]
            assert view["last"] == (
                None if ply == 0 else {"agent": f"player_{(ply - 1) % 2}", "move": record["moves"][ply - 1]}
            )
        raw = env.unwrapped
        assert [m["move"] for m in view["legal"]] == [raw.action_to_str(a) for a in raw.legal_actions()]
        ws.send_json({"type": "click", "target": "a3"})
        notice = receive(ws)
        ws.send_json({"type": "seek", "ply": 13})
        error = receive(ws, lambda m: m["type"] == "error")
    assert notice["text"].startswith("this is a replay")
    assert error["text"] == "ply=13 is not in the record: choose 0 to 12"


def test_play_from_here_continues_the_replayed_position(client):
    env, svgs = random_game("azacru", 6, seed=2)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "load", "text": record_text(env)})
        receive(ws)
        ws.send_json({"type": "seek", "ply": 4})
        receive(ws)
        ws.send_json({"type": "play_from_here", "seats": ["human", "human"]})
        view = receive(ws)
        assert (view["mode"], view["ply"], view["svg"]) == ("play", 4, svgs[4])
        ws.send_json({"type": "save"})
        saved = receive(ws)["record"]
    assert saved["actions"] == env.unwrapped.to_record()["actions"][:4]


@pytest.mark.parametrize(
    "text, named",
    [
        ("{not json", "the file is not"),
        (
            json.dumps(
                {
                    "format": "azgames-record/1",
                    "game": "chess",
                    "num_players": 2,
                    "options": {},
                    "start": {},
                    "actions": [],
                    "final": {},
                }
            ),
            "'chess'",
        ),
        ("tampered", "record action 3"),
        ("[1, 2]", "record must be a dict"),
    ],
)
def test_a_bad_record_is_refused_by_name(client, text, named):
    if text == "tampered":
        env, _ = random_game("azacru", 6, seed=1)
        record = env.unwrapped.to_record()
        record["actions"][3] = 10_000
        text = json.dumps(record)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "load", "text": text})
        error = receive(ws, lambda m: m["type"] == "error")
    assert error["text"].startswith("bad record: ") and named in error["text"]


@pytest.mark.parametrize(
    "message, named",
    [
        (
            {"game": "azacru", "num_players": 2, "seats": ["human", "foo:x=1"]},
            "seat 1 (player_1): unknown agent 'foo'",
        ),
        ({"game": "go", "num_players": 2, "seats": ["human", "random"]}, "unknown game 'go'"),
        ({"game": "azacru", "num_players": 5, "seats": ["human"] * 5}, "num_players=5"),
        ({"game": "azacru", "num_players": 2, "seats": ["human"]}, "one seat per player (2), got 1"),
        (
            {"game": "azure", "num_players": 2, "seats": ["human", "random"], "options": {"roles": "mixed"}},
            "roles='mixed'",
        ),
        ({"game": "azacru", "num_players": "2", "seats": []}, "num_players='2' must be an integer"),
    ],
)
def test_a_bad_game_set_up_is_refused_by_name(client, message, named):
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "new", **message})
        error = receive(ws, lambda m: m["type"] == "error")
    assert named in error["text"]


def test_a_bad_message_is_refused_by_name(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_text("{oops")
        not_json = receive(ws, lambda m: m["type"] == "error")
        ws.send_json({"type": "fly"})
        unknown = receive(ws, lambda m: m["type"] == "error")
        ws.send_json({"type": "speed", "moves_per_second": 0})
        slow = receive(ws, lambda m: m["type"] == "error")
    assert not_json["text"].startswith("message is not") and "JSON" in not_json["text"]
    assert unknown["text"].startswith("unknown message type 'fly'; known types: ")
    assert slow["text"] == "moves_per_second=0.0 must be from 0.1 to 50.0"


def test_a_saved_game_loads_back_to_the_same_position(client):
    with client.websocket_connect("/ws") as ws:
        view = start(ws, seats=("human", "human"))
        for _ in range(3):
            view = play_by_clicks(ws, view, view["legal"][-1])
        ws.send_json({"type": "save"})
        saved = receive(ws, lambda m: m["type"] == "record")
        ws.send_json({"type": "load", "text": json.dumps(saved["record"])})
        replay = receive(ws)
    assert saved["filename"] == "azacru-3-plies.json"
    assert azgames.core.records.from_record(saved["record"]).unwrapped.state.ply[0] == 3
    assert (replay["ply"], replay["svg"]) == (3, view["svg"])


def test_a_match_between_agents_plays_itself_pauses_and_resumes(client):
    with client.websocket_connect("/ws") as ws:
        start(ws, seats=("random", "greedy"), max_turns=12)
        receive(ws, lambda m: m["type"] == "state" and m["ply"] == 2)
        ws.send_json({"type": "pause", "paused": True})
        paused = receive(ws, lambda m: m["type"] == "state" and m["paused"])
        time.sleep(0.3)  # 15 moves' time at 50 a second
        ws.send_json({"type": "clear"})
        still = receive(ws)
        ws.send_json({"type": "pause", "paused": False})
        over = receive(ws, lambda m: m["type"] == "state" and m["result"] is not None)
    assert still["ply"] == paused["ply"] and paused["status"].endswith("(paused)")
    assert over["ply"] == 12 and over["result"]["truncated"]
    assert over["status"].startswith("turn limit reached")


def test_the_az_agent_plays_in_the_browser_where_its_network_ships(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    shipped = {p.stem.rsplit("_", 1)[0] for p in (ROOT / "agents" / "policies" / "az").glob("*_[0-9]p.npz")}
    assert shipped and all("az" in games[name]["agents"] for name in shipped)
    with client.websocket_connect("/ws") as ws:
        start(ws, seats=("az:simulations=8", "greedy"), max_turns=6)
        over = receive(ws, lambda m: m["type"] == "state" and m["result"] is not None)
    assert over["ply"] == 6 and over["result"]["truncated"]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_a_move_by_clicks(client, game):
    with client.websocket_connect("/ws") as ws:
        view = start(ws, game=game, seats=("human", "human"))  # whoever starts, a human moves
        move = next((m for m in view["legal"] if m["targets"]), view["legal"][0])
        after = play_by_clicks(ws, view, move)
    assert after["ply"] == 1 and after["last"]["move"] == move["move"]


def test_a_team_game_ends_with_the_teams_verdict_not_no_winner():
    from azgames.web.session import Session

    session = Session()
    session.handle(
        {
            "type": "new",
            "game": "azimuth_coop",
            "num_players": 2,
            "seed": 1,
            "seats": ["random", "random"],
            "options": {"rounds": 1},
        }
    )
    while (job := session.agent_job()) is not None:
        session.apply_agent(job, job.think())
    text = session.view()["result"]["text"]
    assert text.startswith(("game over: the team wins", "game over: the team loses")), text


@pytest.mark.parametrize("compiling", [True, False])
def test_a_page_waiting_on_numbas_first_compile_hears_so_each_second(client, monkeypatch, compiling):
    import azgames.web.app as app
    from azgames.web.session import Session

    handle = Session.handle

    def slow_handle(self, message):
        time.sleep(0.3)  # as a game's first compile would, much shorter
        return handle(self, message)

    monkeypatch.setattr(Session, "handle", slow_handle)
    monkeypatch.setattr(app, "COMPILE_TICK_S", 0.05)
    monkeypatch.setattr(app.compile_notice, "compiling_for", lambda: 12.4 if compiling else None)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "new", "game": "azacru", "num_players": 2, "seats": ["human", "random"]})
        heard = []
        while (m := ws.receive_json())["type"] != "state":
            heard.append(m)
    said = "numba is compiling this game's rules for the first time (12 s so far); they are cached for every later game"
    if compiling:
        assert len(heard) >= 2 and all(m == {"type": "notice", "text": said} for m in heard)
    else:
        assert heard == []
