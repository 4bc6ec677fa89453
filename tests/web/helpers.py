"""Shared by the web tests: a real server process, and games played outside
the app, to compare with it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import numpy as np

import azgames


def random_game(game: str, plies: int, seed: int = 0, **options):
    """An env of ``game`` after up to ``plies`` random legal moves (seeded),
    and its picture's SVG at every ply on the way (index = ply)."""
    env = azgames.make(game, render_mode="ansi", **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    raw = env.unwrapped
    svgs = [env.picture().svg()]
    for _ in range(plies):
        legal = raw.legal_actions()
        if not legal:
            break
        env.step(int(rng.choice(legal)))
        svgs.append(env.picture().svg())
    return env, svgs


def record_text(env) -> str:
    return json.dumps(env.unwrapped.to_record())


def canonical_svg(svg: str) -> str:
    """The SVG as canonical XML: the same picture however it was serialised."""
    return ET.canonicalize(xml_data=svg)


@dataclass
class Server:
    """A ``python -m azgames serve`` process and the address it printed."""

    proc: subprocess.Popen
    url: str  # as printed: with the token, if any
    port: int
    token: str | None

    @property
    def base(self) -> str:
        return f"http://localhost:{self.port}/"

    def ws(self, token: str | None = "", **kwargs):
        """A websocket to the server, with its token unless told otherwise."""
        from websockets.sync.client import connect

        token = self.token if token == "" else token
        query = "" if token is None else f"?token={token}"
        return connect(f"ws://localhost:{self.port}/ws{query}", open_timeout=30, **kwargs)

    def stop(self) -> str:
        """Stop the server; its stderr."""
        if self.proc.poll() is None:
            self.proc.terminate()
        _, err = self.proc.communicate(timeout=30)
        return err


def serve(*args: str) -> Server:
    """Start ``python -m azgames serve --port 0 --no-browser ARGS`` and read its address."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "azgames", "serve", "--port", "0", "--no-browser", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"(http://localhost:(\d+)/(?:\?token=([\w-]+))?)", line)
    if not found:
        proc.kill()
        raise AssertionError(f"no address in {line!r}: {proc.communicate()[1]}")
    return Server(proc, found[1], int(found[2]), found[3])
