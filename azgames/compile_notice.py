"""A notice on stderr while numba compiles, so that a first run does not look hung.

With an empty cache a game's first moves wait seconds to a minute in numba's
compiler (``python -m azgames compile`` pays that ahead of time). numba
reports each compile that misses its cache as a ``numba:compile`` event; once
a burst of them has lasted :data:`DELAY_S`, one line says so, a terminal then
counts the seconds on it, and a last line gives the total when the compiling
stops. Cache hits are no event: a warm run prints nothing.
``AZGAMES_COMPILE_NOTICE=0`` silences stderr; :func:`compiling_for` still
tells an app (the web server, for its page) how long numba has been at it.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import TextIO

from numba.core import event

#: Compiles shorter than this pass without a word.
DELAY_S = 1.0
#: A burst of compiles has ended when none ran for this long.
IDLE_S = 0.5
#: How often the watcher looks (and a terminal's count moves on).
TICK_S = 0.25


class CompileNotice(event.Listener):
    """Listens to numba's compile events; a watcher thread does the talking."""

    def __init__(
        self,
        stream: TextIO | None = None,
        delay_s: float = DELAY_S,
        idle_s: float = IDLE_S,
        tick_s: float = TICK_S,
        quiet: bool = False,
    ) -> None:
        self.stream = stream
        self.delay_s, self.idle_s, self.tick_s = delay_s, idle_s, tick_s
        self.quiet = quiet  # keep the clock, write nothing
        self.lock = threading.Lock()
        self.depth = 0  # compiles nest: a kernel compiles the functions it calls
        self.start = 0.0  # when the current burst began
        self.last = 0.0  # when a compile last started or ended
        self.packages: list[str] = []
        self.announced = False
        self.watcher: threading.Thread | None = None

    @property
    def out(self) -> TextIO:
        return self.stream or sys.stderr

    def on_start(self, event: event.Event) -> None:
        package = event.data["dispatcher"].py_func.__module__.split(".")[0]
        with self.lock:
            now = time.monotonic()
            if self.depth == 0 and (self.last == 0.0 or now - self.last >= self.idle_s):
                self.start, self.packages = now, []  # a new burst
            if self.watcher is None and not self.quiet:
                self.watcher = threading.Thread(target=self._watch, name="compile-notice", daemon=True)
                self.watcher.start()
            self.depth += 1
            self.last = now
            if package not in self.packages:
                self.packages.append(package)

    def on_end(self, event: event.Event) -> None:
        with self.lock:
            self.depth = max(0, self.depth - 1)  # installed mid-compile: an end without its start
            self.last = time.monotonic()

    def _watch(self) -> None:
        done = False
        try:
            while not done:
                time.sleep(self.tick_s)
                # Decide under the lock, write outside it: a slow stderr never holds a compile.
                with self.lock:
                    text, done = self._next_words()
                if text:
                    self._say(text)
        finally:  # whatever ended it, the next compile starts a new watcher
            with self.lock:
                if self.watcher is threading.current_thread():
                    self.watcher = None

    def compiling_for(self) -> float | None:
        """Seconds the current burst of compiles has lasted, or None between bursts."""
        with self.lock:
            now = time.monotonic()
            if self.last == 0.0 or (self.depth == 0 and now - self.last >= self.idle_s):
                return None
            return now - self.start

    def forget(self) -> None:
        """Start afresh: in a forked child the watcher thread is gone and the lock may be held."""
        self.lock = threading.Lock()
        self.depth, self.last, self.announced, self.watcher = 0, 0.0, False, None

    def _next_words(self) -> tuple[str, bool]:
        """What to say now, and whether the burst is over."""
        now = time.monotonic()
        elapsed = now - self.start
        if self.depth == 0 and now - self.last >= self.idle_s:
            said, self.announced, self.watcher = self.announced, False, None
            total = self.last - self.start
            back = "\r" if self._on_terminal() else ""  # over the running count
            return (f"{back}numba: compiled in {total:.0f} s; cached for later runs\n" if said else ""), True
        if not self.announced and elapsed >= self.delay_s:
            self.announced = True
            what = ", ".join(self.packages)
            return f"numba: compiling kernels ({what}) for the first time; cached afterwards\n", False
        if self.announced and self._on_terminal():
            return f"\rnumba: compiling... {elapsed:.0f} s ", False
        return "", False

    def _on_terminal(self) -> bool:
        try:
            return self.out.isatty()
        except (OSError, ValueError):  # a closed stream
            return False

    def _say(self, text: str) -> None:
        try:
            self.out.write(text)
            self.out.flush()
        except (OSError, ValueError):  # a closed stream at interpreter exit
            pass


_installed: CompileNotice | None = None


def install() -> CompileNotice:
    """Start listening (once per process); ``AZGAMES_COMPILE_NOTICE=0``: quietly."""
    global _installed
    if _installed is None:
        _installed = CompileNotice(quiet=os.environ.get("AZGAMES_COMPILE_NOTICE", "1") == "0")
        event.register("numba:compile", _installed)
        if hasattr(os, "register_at_fork"):  # not on Windows, which spawns instead
            os.register_at_fork(after_in_child=_installed.forget)
    return _installed


def compiling_for() -> float | None:
    """Seconds numba has been compiling in this process, or None if it is not."""
    return None if _installed is None else _installed.compiling_for()
