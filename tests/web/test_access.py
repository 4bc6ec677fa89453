"""The server answers only its user: a real ``python -m azgames serve``
process, asked by other sites' pages (a foreign ``Origin``, a DNS-rebound
``Host``) and without its token; and its workers freed when a page goes or
the server is stopped."""

from __future__ import annotations

import json
import signal
import socket
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")
pytest.importorskip("websockets")

from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from azgames.web.access import Access, _split_host  # noqa: E402

from .helpers import serve  # noqa: E402

POLICY_VIOLATION = 1008
EVIL = "evil.example"
# A search of 25 seconds (Azimuth's simulations are slow enough that the web's
# cap on them, 200,000, is not reached first).
MATCH = {
    "type": "new",
    "game": "azimuth",
    "num_players": 2,
    "seed": 0,
    "seats": ["mcts:simulations=null,seconds=25", "mcts:simulations=null,seconds=25"],
}
GAME = {"type": "new", "game": "azacru", "num_players": 2, "seed": 0, "seats": ["human", "random"]}


@pytest.fixture(scope="module")
def server():
    s = serve()
    yield s
    s.stop()


def closed_with(ws) -> tuple[int, str]:
    """The code and reason the server closed ``ws`` with (before any answer)."""
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=30)
    return closed.value.rcvd.code, closed.value.rcvd.reason


def answered(ws) -> dict:
    ws.send(json.dumps(GAME))
    return first_view(ws)


def first_view(ws) -> dict:
    """The first answer that is not a notice (a compile the fixture did not
    warm says so first, as the page should hear)."""
    while (message := json.loads(ws.recv(timeout=30)))["type"] == "notice":
        pass
    return message


# ---------------------------------------------------------------- HTTP
def test_the_page_opens_with_its_token_and_leaves_it_in_a_cookie(server):
    with httpx.Client() as client:
        page = client.get(server.url)
        assert page.status_code == 200 and "<script" in page.text
        assert page.headers["set-cookie"] == (
            f"azgames-token-{server.port}={server.token}; Path=/; HttpOnly; SameSite=Strict"
        )
        # The page's later requests carry the cookie, not the token.
        assert client.get(server.base + "api/games").status_code == 200
        assert client.get(server.base).status_code == 200


@pytest.mark.parametrize("path", ["", "api/games"])
def test_a_request_without_the_token_or_with_a_wrong_one_is_refused(server, path):
    for url in (server.base + path, server.base + path + "?token=wrong", server.base + path + "?token=é"):
        refused = httpx.get(url)
        assert refused.status_code == 403, url
        assert refused.text == "403 forbidden: token missing or wrong: open the address that serve printed\n"


def test_the_pages_own_files_need_no_token(server):
    assert httpx.get(server.base + "static/app.js").status_code == 200


def test_a_foreign_origin_is_refused(server):
    refused = httpx.get(server.url, headers={"Origin": f"http://{EVIL}"})
    assert (refused.status_code, refused.text) == (403, "403 forbidden: foreign Origin\n")
    same = httpx.get(server.url, headers={"Origin": f"http://localhost:{server.port}"})
    assert same.status_code == 200


def test_a_dns_rebinding_request_is_refused(server):
    """Another site's name resolved to this machine: its Host and Origin agree, but name the site."""
    headers = {"Host": f"{EVIL}:{server.port}", "Origin": f"http://{EVIL}:{server.port}"}
    refused = httpx.get(server.url, headers=headers)
    assert (refused.status_code, refused.text) == (403, "403 forbidden: wrong Host\n")
    for host in (f"localhost:{server.port + 1}", f"127.0.0.1:{server.port}", f"[::1]:{server.port}"):
        expected = 403 if host.endswith(f":{server.port + 1}") else 200
        assert httpx.get(server.url, headers={"Host": host}).status_code == expected, host


# ---------------------------------------------------------------- websocket
def test_a_websocket_with_the_token_is_answered(server):
    with server.ws() as ws:
        assert answered(ws)["type"] == "state"
    with server.ws(origin=f"http://localhost:{server.port}") as ws:  # as the page opens it
        assert answered(ws)["type"] == "state"


def test_a_websocket_from_a_foreign_origin_is_closed(server):
    with server.ws(origin=f"http://{EVIL}") as ws:
        assert closed_with(ws) == (POLICY_VIOLATION, "foreign Origin")


def test_a_dns_rebinding_websocket_is_closed(server):
    sock = socket.create_connection(("127.0.0.1", server.port))
    with connect(
        f"ws://{EVIL}:{server.port}/ws?token={server.token}",
        sock=sock,
        origin=f"http://{EVIL}:{server.port}",
        open_timeout=30,
    ) as ws:
        assert closed_with(ws) == (POLICY_VIOLATION, "wrong Host")


@pytest.mark.parametrize("token", [None, "wrong"])
def test_a_websocket_without_the_token_is_closed(server, token):
    with server.ws(token=token) as ws:
        code, reason = closed_with(ws)
    assert code == POLICY_VIOLATION and reason.startswith("token missing or wrong")


def test_each_refusal_is_logged_in_one_line():
    s = serve()
    try:
        assert httpx.get(s.url, headers={"Origin": f"http://{EVIL}"}).status_code == 403
        with s.ws(token="wrong") as ws:
            closed_with(ws)
    finally:
        err = s.stop()
    lines = [line for line in err.splitlines() if line.startswith("azgames: refused")]
    assert lines == [
        f"azgames: refused GET / from 127.0.0.1: Origin 'http://{EVIL}' is not this server's page "
        f"(Host 'localhost:{s.port}')",
        "azgames: refused websocket /ws from 127.0.0.1: the token is missing or wrong",
    ]


def test_no_token_serves_without_one_but_still_checks_origin():
    s = serve("--no-token")
    try:
        assert s.token is None and s.url == s.base
        assert httpx.get(s.url).status_code == 200
        assert httpx.get(s.url, headers={"Origin": f"http://{EVIL}"}).status_code == 403
    finally:
        s.stop()


def test_the_host_check_parses_what_browsers_send():
    access = Access(port=8000, token=None)
    assert _split_host("[::1]:8000") == ("[::1]", 8000) and _split_host("LocalHost") == ("localhost", 80)
    for bad in ("localhost:80a", "localhost:", "[::1", ":8000", "localhost:٨٠٠٠"):
        assert _split_host(bad) is None, bad
    scope = {
        "type": "http",
        "path": "/",
        "headers": [(b"host", b"localhost:8000"), (b"origin", b"http://localhost:8000/x")],
    }
    assert access.refusal(scope)[0] == "foreign Origin"
    assert Access(port=8000, token=None, host="0.0.0.0").names is None  # any name: the token guards it
    assert Access(port=8000, token="t", host="::1").url() == "http://[::1]:8000/?token=t"


# ---------------------------------------------------------------- searches end with their page
@pytest.fixture(scope="module")
def compiled():
    """The search, and the game the next page starts, compiled (and cached by
    numba) before a server loads them: a cold compile in the server would
    hold its one worker longer than the test allows the page."""
    import azgames
    from azgames.agents import make_agent

    env = azgames.make(MATCH["game"], num_players=2)
    env.reset(seed=0)
    make_agent("mcts:simulations=64", seed=0, game=MATCH["game"]).act(env)
    env = azgames.make(GAME["game"], num_players=2)
    env.reset(seed=0)
    env.step(make_agent("random", seed=0, game=GAME["game"]).act(env))
    env.unwrapped.picture()


def test_a_search_stops_when_its_page_goes(compiled):
    s = serve("--workers", "1")  # one worker: a search left running would hold every later page
    try:
        with s.ws() as ws:
            ws.send(json.dumps(MATCH))
            assert "(mcts:simulations=null,seconds=25) to move" in first_view(ws)["status"]
            time.sleep(2)  # the 25-second search is under way
        started = time.monotonic()
        with s.ws() as ws:
            view = answered(ws)
        assert view["type"] == "state" and time.monotonic() - started < 3
    finally:
        s.stop()


def test_ctrl_c_stops_the_server_during_a_long_search(compiled):
    s = serve()
    try:
        with s.ws() as ws:
            ws.send(json.dumps(MATCH))
            json.loads(ws.recv(timeout=30))
            time.sleep(2)  # the 25-second search is under way
            started = time.monotonic()
            s.proc.send_signal(signal.SIGINT)
            s.proc.wait(timeout=20)
            assert time.monotonic() - started < 5
        assert s.proc.returncode == 0
    finally:
        err = s.stop()
    assert "Traceback" not in err
