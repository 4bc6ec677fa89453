"""``python -m azgames serve``: the command starts the app and serves its page
at an address with its token, and refuses a bad port, or a server other
machines reach without a token, in one line."""

from __future__ import annotations

import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from .helpers import serve

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")


def test_serve_starts_the_app_and_serves_the_page():
    server = serve()
    try:
        assert server.token is not None and len(server.token) >= 40
        page = urllib.request.urlopen(server.url, timeout=30).read().decode()
        assert "<script" in page and "azgames" in page
        url = f"{server.base}api/games?token={server.token}"
        games = urllib.request.urlopen(url, timeout=30).read().decode()
        assert all(name in games for name in ("azacru", "azimuth", "azimuth_coop", "azure"))
        with pytest.raises(urllib.error.HTTPError, match="403"):
            urllib.request.urlopen(server.base, timeout=30)
    finally:
        server.stop()


@pytest.mark.parametrize(
    "port, message", [("70000", "must be from 0 to 65535"), ("-1", "must be from 0 to 65535")]
)
def test_serve_refuses_a_bad_port(port, message):
    run = subprocess.run(
        [sys.executable, "-m", "azgames", "serve", "--port", port, "--no-browser"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and message in run.stderr and "Traceback" not in run.stderr


def test_serve_refuses_a_port_in_use():
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = str(taken.getsockname()[1])
        run = subprocess.run(
            [sys.executable, "-m", "azgames", "serve", "--port", port, "--no-browser"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert run.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in run.stderr


def test_each_start_has_its_own_token():
    tokens = []
    for _ in range(2):
        server = serve()
        tokens.append(server.token)
        server.stop()
    assert None not in tokens and tokens[0] != tokens[1]


def test_serve_refuses_another_machines_address_without_a_token():
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "azgames",
            "serve",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
            "--no-browser",
            "--no-token",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.startswith("error: --no-token serves only on a loopback address")


def test_serve_warns_when_other_machines_may_reach_it():
    server = serve("--host", "0.0.0.0")
    assert server.token is not None
    assert server.stop().startswith("warning: serving on 0.0.0.0, which other machines may reach")


def test_serve_refuses_a_bad_number_of_workers():
    run = subprocess.run(
        [sys.executable, "-m", "azgames", "serve", "--workers", "0", "--no-browser"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "--workers 0 must be from 1 to 64" in run.stderr
