"""The web server: the page, the catalogue of games and agents, and one
websocket per page carrying its :class:`~azgames.web.session.Session`.

Everything that touches a game runs in a worker thread (the kernels release
the GIL), so one page's long agent move (an MCTS search) or first numba
compile never stalls another page. Each connection handles its messages one
at a time (a lock); its agents think on a clone, outside the lock, so the
page's controls (pause, undo, a new game) answer while an agent thinks, and
a move thought out on a position that has since changed is dropped.
"""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from azgames.agents import agent_names
from azgames.registry import list_games, rules_type

from .session import HUMAN, MAX_SPEED, MIN_SPEED, BadRequest, Session

STATIC = Path(__file__).with_name("static")
log = logging.getLogger("azgames.web")


@lru_cache(maxsize=1)
def catalogue() -> dict:
    """What the page's set-up form offers: every registered game with its
    player counts, options (with defaults) and agents."""
    games = []
    for entry in list_games():
        rules = rules_type(entry.name)
        info = rules.info
        games.append({"name": entry.name, "long_name": info.long_name, "summary": entry.summary,
                      "min_players": info.min_players, "max_players": info.max_players,
                      "options": rules.option_defaults(), "agents": agent_names(entry.name)})
    return {"games": games, "human": HUMAN, "min_speed": MIN_SPEED, "max_speed": MAX_SPEED}


def create_app(workers: int = 4) -> FastAPI:
    """The app; ``workers`` threads run the games and agents of all pages."""
    executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="azgames-web")
    app = FastAPI(title="azgames", docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/api/games")
    def games() -> dict:
        return catalogue()

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        await Connection(ws, executor).run()

    return app


class Connection:
    """One page: its session, its messages, and its agents' moves."""

    def __init__(self, ws: WebSocket, executor: ThreadPoolExecutor):
        self.ws, self.executor = ws, executor
        self.session = Session()
        self.lock = asyncio.Lock()  # one change of the session at a time
        self.wake = asyncio.Event()  # set by every message: agents may have a move to make

    async def run(self) -> None:
        await self.ws.accept()
        driver = asyncio.create_task(self._drive())
        try:
            while True:
                text = await self.ws.receive_text()
                try:
                    message = json.loads(text)
                except ValueError as e:
                    await self._send([error(f"a message must be JSON: {e}")])
                    continue
                async with self.lock:
                    await self._send(await self._call(self.session.handle, message))
                self.wake.set()
        except WebSocketDisconnect:
            pass
        finally:
            driver.cancel()

    async def _call(self, method, *args) -> list[dict]:
        """``method(*args)`` in a worker thread; a refusal becomes an error message."""
        try:
            return await asyncio.get_running_loop().run_in_executor(self.executor, method, *args)
        except (BadRequest, ValueError, TypeError) as e:  # bad input, named by the session or the games
            return [error(str(e))]

    async def _send(self, messages: list[dict]) -> None:
        for message in messages:
            await self.ws.send_json(message)

    async def _drive(self) -> None:
        """Play the agents' moves while an agent is to move, one every
        1 / speed seconds at most."""
        loop = asyncio.get_running_loop()
        while True:
            await self.wake.wait()
            self.wake.clear()
            while True:
                async with self.lock:
                    job = self.session.agent_job()
                if job is None:
                    break
                started = loop.time()
                try:
                    action = await loop.run_in_executor(self.executor, job.think)
                except Exception as e:  # an agent that fails: the page says so and pauses
                    log.exception("agent failed")
                    async with self.lock:
                        if job.generation == self.session.generation:
                            self.session.paused = True
                            who = job.env.agent_selection
                            await self._send([error(f"{who}'s agent failed: {type(e).__name__}: {e}"),
                                              self.session.view()])
                    break
                await self._wait_turn(job, started)
                async with self.lock:
                    if self.session.apply_agent(job, action):
                        await self._send(await self._call(lambda: [self.session.view()]))

    async def _wait_turn(self, job, started: float) -> None:
        """Sleep until 1 / speed seconds after ``started``; a message (a new
        speed, pause, another game) cuts the wait short or resets it."""
        loop = asyncio.get_running_loop()
        while True:
            self.wake.clear()  # before reading the session: a later message sets it again
            remaining = started + 1.0 / self.session.speed - loop.time()
            if remaining <= 0 or job.generation != self.session.generation or self.session.paused:
                return
            try:
                await asyncio.wait_for(self.wake.wait(), remaining)
            except asyncio.TimeoutError:
                return


def error(text: str) -> dict:
    return {"type": "error", "text": text}
