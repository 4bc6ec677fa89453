"""``python -m azgames serve``: the command starts the app and serves its page,
and refuses a bad port in one line."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import urllib.request

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")


def test_serve_starts_the_app_and_serves_the_page():
    proc = subprocess.Popen([sys.executable, "-m", "azgames", "serve", "--port", "0", "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://\S+/", line)
        assert url, line
        page = urllib.request.urlopen(url.group(0), timeout=30).read().decode()
        assert "<script" in page and "azgames" in page
        games = urllib.request.urlopen(url.group(0) + "api/games", timeout=30).read().decode()
        assert all(name in games for name in ("azacru", "azimuth", "azimuth_coop", "azure"))
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.parametrize("port, message", [("70000", "must be from 0 to 65535"), ("-1", "must be from 0 to 65535")])
def test_serve_refuses_a_bad_port(port, message):
    run = subprocess.run([sys.executable, "-m", "azgames", "serve", "--port", port, "--no-browser"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and message in run.stderr and "Traceback" not in run.stderr


def test_serve_refuses_a_port_in_use():
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = str(taken.getsockname()[1])
        run = subprocess.run([sys.executable, "-m", "azgames", "serve", "--port", port, "--no-browser"],
                             capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in run.stderr
