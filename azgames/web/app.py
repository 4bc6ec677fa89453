"""The web server: the page, the catalogue of games and agents, and one
websocket per page carrying its :class:`~azgames.web.session.Session`.

Everything that touches a game runs in a worker thread (the kernels release
the GIL), so one page's long agent move (an MCTS search) or first numba
compile never stalls another page; a page that waits on a first compile is
told so each second. Each connection handles its messages one
at a time (a lock); its agents think on a clone, outside the lock, so the
page's controls (pause, undo, a new game) answer while an agent thinks, and
a move thought out on a position that has since changed is dropped.

What a page sends is bounded (:data:`azgames.core.limits.WEB`): a message's size
and nesting, a record's plies, every search's time; it names no file on
the server (:func:`azgames.core.inputs.client_request`). When a page goes, its
agents' searches stop; when the server stops, every search stops and the
workers are left behind (daemon threads) rather than waited for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Mapping
from concurrent.futures import Executor, Future
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from azgames.agents import agent_names
from azgames.core import compile_notice
from azgames.core.inputs import client_request, parse_json
from azgames.core.limits import WEB, Limits
from azgames.core.registry import list_games, rules_type

from .access import Access, Guard
from .session import HUMAN, MAX_SPEED, MIN_SPEED, BadRequest, Session, notice

STATIC = Path(__file__).with_name("static")
#: How often a page waiting on numba's compiler hears how long it has waited.
COMPILE_TICK_S = 1.0
log = logging.getLogger("azgames.web")


@lru_cache(maxsize=1)
def catalogue() -> dict:
    """What the page's set-up form offers: every registered game with its
    player counts, options (with defaults) and agents."""
    games = []
    for entry in list_games():
        rules = rules_type(entry.name)
        info = rules.info
        games.append(
            {
                "name": entry.name,
                "long_name": info.long_name,
                "summary": entry.summary,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "options": rules.option_defaults(),
                "option_help": {o.name: o.help for o in rules.OPTIONS},
                "agents": agent_names(entry.name),
            }
        )
    return {"games": games, "human": HUMAN, "min_speed": MIN_SPEED, "max_speed": MAX_SPEED}


def create_app(access: Access | None, workers: int = 4, limits: Limits = WEB) -> FastAPI:
    """The app; ``workers`` threads run the games and agents of all pages.

    ``access`` is the address served and its token: every request is
    checked against it (:mod:`.access`). None checks nothing: for tests
    that call the app in their own process, never for a server."""
    executor = Workers(workers, "azgames-web")
    connections: set[Connection] = set()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        # Shutting down: every search ends now, and no worker is waited for.
        for connection in list(connections):
            connection.stop()
        executor.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(title="azgames", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/api/games")
    def games() -> dict:
        return catalogue()

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        connection = Connection(ws, executor, limits)
        connections.add(connection)
        try:
            await connection.run()
        finally:
            connections.discard(connection)

    if access is not None:
        app.add_middleware(Guard, access=access)
    return app


class Workers(Executor):
    """A fixed pool of daemon threads: unlike a ThreadPoolExecutor's, they do
    not hold the interpreter's exit, so a stuck search never keeps a stopped
    server alive."""

    def __init__(self, workers: int, name: str):
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._closed = False
        self._threads = [
            threading.Thread(target=self._work, name=f"{name}_{i}", daemon=True) for i in range(workers)
        ]
        for thread in self._threads:
            thread.start()

    def submit(self, fn, /, *args, **kwargs) -> Future:
        with self._lock:
            if self._closed:
                raise RuntimeError("the server is stopping: no new work")
            future: Future = Future()
            self._queue.put((future, fn, args, kwargs))
            return future

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            future, fn, args, kwargs = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args, **kwargs)
            except BaseException as e:  # handed to whoever waits for it
                future.set_exception(e)
            else:
                future.set_result(result)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._closed = True
        if cancel_futures:
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    item[0].cancel()
        for _ in self._threads:
            self._queue.put(None)
        if wait:
            for thread in self._threads:
                thread.join()


def as_client(method, *args):
    """``method(*args)`` as work for a remote client: no file path in its input
    is read (entered here, in the worker thread that runs it)."""
    with client_request():
        return method(*args)


class Connection:
    """One page: its session, its messages, and its agents' moves."""

    def __init__(self, ws: WebSocket, executor: Executor, limits: Limits = WEB):
        self.ws, self.executor, self.limits = ws, executor, limits
        self.session: Session | None = Session(limits=limits)
        self.lock = asyncio.Lock()  # one change of the session at a time
        self.wake = asyncio.Event()  # set by every message: agents may have a move to make

    async def run(self) -> None:
        await self.ws.accept()
        driver = asyncio.create_task(self._drive())
        try:
            while True:
                frame = await self.ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                message, refusal = self._parse(frame)
                if refusal is not None:
                    await self._send([error(refusal)])
                    continue
                async with self.lock:
                    await self._send(await self._call(self._live().handle, message))
                self.wake.set()
        except (WebSocketDisconnect, OSError, RuntimeError) as e:  # the page went while we answered
            log.debug("connection closed: %s", e)
        finally:
            driver.cancel()
            self.stop()
            self.session = None  # the page's game goes with it

    def _live(self) -> Session:
        """The page's session: it goes only with the page, once its agents' driver is cancelled."""
        assert self.session is not None, "the page has gone"
        return self.session

    def _parse(self, frame: Mapping[str, Any]) -> tuple[object, str | None]:
        """A frame's message, or why it is refused (in one line)."""
        text = frame.get("text")
        if text is None:
            return None, "binary frames are not accepted: send each message as JSON text"
        limit = self.limits.message_bytes
        size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
        if size > limit:
            return None, f"a message may have at most {limit:,} bytes; this one has {size:,}"
        try:
            return parse_json(text, "message", self.limits.json_depth), None
        except ValueError as e:
            return None, str(e)

    def stop(self) -> None:
        """Stop the page's agents' searches (it has gone, or the server stops)."""
        if self.session is not None:
            self.session.stop()

    async def _call(self, method, *args) -> list[dict]:
        """``method(*args)`` in a worker thread, as a remote client's request;
        a refusal becomes an error message, and so does a failure (logged)."""
        try:
            return await self._in_worker(as_client, method, *args)
        except (BadRequest, ValueError, TypeError) as e:  # bad input, named by the session or the games
            return [error(str(e))]
        except Exception as e:  # a bug: the page says so in one line and stays usable
            log.exception("a message failed")
            return [error(f"the server failed on this message: {type(e).__name__}: {e}")]

    async def _in_worker(self, fn, *args):
        """``fn(*args)`` in a worker thread. While it waits on numba's first
        compile of a game, the page hears so once a second (the compile
        notice's clock: a first game waits seconds to a minute)."""
        work = asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)
        while True:
            done, _ = await asyncio.wait({work}, timeout=COMPILE_TICK_S)
            if done:
                return work.result()
            seconds = compile_notice.compiling_for()
            if seconds is not None and seconds >= compile_notice.DELAY_S:
                try:
                    await self._send([notice(compiling_words(seconds))])
                except (WebSocketDisconnect, OSError, RuntimeError):  # the page went: the work goes on
                    pass

    async def _send(self, messages: list[dict]) -> None:
        for message in messages:
            await self.ws.send_json(message)

    async def _drive(self) -> None:
        """Play the agents' moves while an agent is to move, one every
        1 / speed seconds at most."""
        try:
            await self._drive_moves()
        except asyncio.CancelledError:
            raise
        except (WebSocketDisconnect, OSError, RuntimeError) as e:  # the page went
            log.debug("agents stopped: %s", e)

    async def _drive_moves(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self.wake.wait()
            self.wake.clear()
            while True:
                async with self.lock:
                    job = self._live().agent_job()
                if job is None:
                    break
                started = loop.time()
                try:
                    # The agent was built, its options checked and any file path
                    # refused, when the page's message asked for it.
                    action = await self._in_worker(job.think)
                except Exception as e:  # an agent that fails: the page says so and pauses
                    log.exception("agent failed")
                    async with self.lock:
                        session = self._live()
                        if job.generation == session.generation:
                            session.paused = True
                            who = job.env.agent_selection
                            await self._send(
                                [error(f"{who}'s agent failed: {type(e).__name__}: {e}"), session.view()]
                            )
                    break
                await self._wait_turn(job, started)
                async with self.lock:
                    session = self._live()
                    if session.apply_agent(job, action):
                        await self._send(await self._call(lambda: [session.view()]))

    async def _wait_turn(self, job, started: float) -> None:
        """Sleep until 1 / speed seconds after ``started``; a message (a new
        speed, pause, another game) cuts the wait short or resets it."""
        loop = asyncio.get_running_loop()
        while True:
            self.wake.clear()  # before reading the session: a later message sets it again
            session = self._live()
            remaining = started + 1.0 / session.speed - loop.time()
            if remaining <= 0 or job.generation != session.generation or session.paused:
                return
            try:
                await asyncio.wait_for(self.wake.wait(), remaining)
            except asyncio.TimeoutError:
                return


def compiling_words(seconds: float) -> str:
    return (
        f"numba is compiling this game's rules for the first time ({seconds:.0f} s so far); "
        "they are cached for every later game"
    )


def error(text: str) -> dict:
    return {"type": "error", "text": text}
