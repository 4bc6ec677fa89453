"""``python -m azgames serve``: the command starts the app and serves its page
at an address with its token, and refuses a bad port, or a server other
machines reach without a token, in one line."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")


def test_serve_starts_the_app_and_serves_the_page():
    proc = subprocess.Popen(
        [sys.executable, "-m", "azgames", "serve", "--port", "0", "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        url = re.search(r"(http://localhost:\d+/)\?token=([\w-]{40,})", line)
        assert url, line
        page = urllib.request.urlopen(url.group(0), timeout=30).read().decode()
        assert "<script" in page and "azgames" in page
        games = urllib.request.urlopen(f"{url[1]}api/games?token={url[2]}", timeout=30).read().decode()
        assert all(name in games for name in ("azacru", "azimuth", "azimuth_coop", "azure"))
        with pytest.raises(urllib.error.HTTPError, match="403"):
            urllib.request.urlopen(url[1], timeout=30)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


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
        proc = subprocess.Popen(
            [sys.executable, "-m", "azgames", "serve", "--port", "0", "--no-browser"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            tokens.append(re.search(r"\?token=(\S+) ", proc.stdout.readline())[1])
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    assert tokens[0] != tokens[1]


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
    proc = subprocess.Popen(
        [sys.executable, "-m", "azgames", "serve", "--host", "0.0.0.0", "--port", "0", "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        assert re.search(r"http://localhost:\d+/\?token=\S+", line), line
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert err.startswith("warning: serving on 0.0.0.0, which other machines may reach")


def test_serve_refuses_a_bad_number_of_workers():
    run = subprocess.run(
        [sys.executable, "-m", "azgames", "serve", "--workers", "0", "--no-browser"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "--workers 0 must be from 1 to 64" in run.stderr
