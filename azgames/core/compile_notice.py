"""A notice on stderr while numba compiles, so that a first run does not look hung.

With an empty cache a game's first moves wait seconds to a minute in numba's
compiler (``python -m azgames compile`` pays that ahead of time). numba
reports each compile that misses its cache as a ``numba:compile`` event; once
a burst of them has lasted :data:`DELAY_S`, the user hears of it for the
whole wait: the seconds so far, the functions compiled and the one compiling
now.

- On a terminal one status line is rewritten in place every :data:`TICK_S`.
- On a pipe, a log file or a notebook (where a rewritten line would pile up)
  a full line every :data:`EVERY_S`.
- While a tqdm progress bar is on screen, lines go through ``tqdm.write``,
  which clears the bar, writes above it and draws it again.

A last line gives the total when the compiling stops (or the process exits).
Cache hits are no event: a warm run prints nothing. ``AZGAMES_COMPILE_NOTICE=0``
silences stderr; :func:`compiling_for` still tells an app (the web server, for
its page) how long numba has been at it.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import threading
import time
from typing import TextIO

from numba.core import event

#: Compiles shorter than this pass without a word.
DELAY_S = 1.0
#: A burst of compiles has ended when none ran for this long.
IDLE_S = 0.5
#: How often the watcher looks (and a terminal's status line moves on).
TICK_S = 0.25
#: How often a pipe, a notebook or a screen with a progress bar gets a line.
EVERY_S = 5.0


class CompileNotice(event.Listener):
    """Listens to numba's compile events; a watcher thread does the talking."""

    def __init__(
        self,
        stream: TextIO | None = None,
        delay_s: float = DELAY_S,
        idle_s: float = IDLE_S,
        tick_s: float = TICK_S,
        every_s: float = EVERY_S,
        quiet: bool = False,
    ) -> None:
        self.stream = stream
        self.delay_s, self.idle_s, self.tick_s, self.every_s = delay_s, idle_s, tick_s, every_s
        self.quiet = quiet  # keep the clock, write nothing
        self.lock = threading.Lock()
        self.start = 0.0  # when the current burst began
        self.last = 0.0  # when a compile last started or ended
        self.watcher: threading.Thread | None = None
        self._new_burst(0.0)

    def _new_burst(self, now: float) -> None:
        self.start = now
        self.compiling: list[str] = []  # the nested compiles now running, outermost first
        self.packages: list[str] = []
        self.compiled = 0  # functions finished in this burst
        self.announced = False
        self.said_at = 0.0  # when the last progress line was written
        self.status_width = 0  # characters of the terminal's status line to clear

    @property
    def out(self) -> TextIO:
        return self.stream or sys.stderr

    def on_start(self, event: event.Event) -> None:
        function = event.data["dispatcher"].py_func
        with self.lock:
            now = time.monotonic()
            if not self.compiling and (self.last == 0.0 or now - self.last >= self.idle_s):
                self._new_burst(now)
            if self.watcher is None and not self.quiet:
                self.watcher = threading.Thread(target=self._watch, name="compile-notice", daemon=True)
                self.watcher.start()
            self.compiling.append(f"{function.__module__}.{function.__qualname__}")
            self.last = now
            package = function.__module__.split(".")[0]
            if package not in self.packages:
                self.packages.append(package)

    def on_end(self, event: event.Event) -> None:
        with self.lock:
            if self.compiling:  # installed mid-compile: an end without its start
                self.compiling.pop()
                self.compiled += 1
            self.last = time.monotonic()

    def _watch(self) -> None:
        done = False
        try:
            while not done:
                time.sleep(self.tick_s)
                # Decide under the lock, write outside it: a slow stderr never holds a compile.
                with self.lock:
                    text, done = self._next_words(time.monotonic())
                if text:
                    self._say(text)
        finally:  # whatever ended it, the next compile starts a new watcher
            with self.lock:
                if self.watcher is threading.current_thread():
                    self.watcher = None

    def settle(self) -> None:
        """Write the total of a burst that has just ended now, not after
        :data:`IDLE_S`: before a prompt, so that it cannot land in what the
        user types."""
        with self.lock:
            if self.compiling or self.last == 0.0:
                return
            text, _ = self._next_words(self.last + self.idle_s)
        if text:
            self._say(text)

    def compiling_for(self) -> float | None:
        """Seconds the current burst of compiles has lasted, or None between bursts."""
        with self.lock:
            now = time.monotonic()
            if self.last == 0.0 or (not self.compiling and now - self.last >= self.idle_s):
                return None
            return now - self.start

    def forget(self) -> None:
        """Start afresh: in a forked child the watcher thread is gone and the lock may be held."""
        self.lock = threading.Lock()
        self.last, self.watcher = 0.0, None
        self._new_burst(0.0)

    def _next_words(self, now: float) -> tuple[str, bool]:
        """What to say at ``now``, and whether the burst is over."""
        elapsed = now - self.start
        live = self._on_terminal() and not _progress_bars()
        if not self.compiling and now - self.last >= self.idle_s:
            said, self.announced = self.announced, False
            if not said:
                return "", True
            total = (
                f"numba: compiled {_functions(self.compiled)} in {self.last - self.start:.0f} s; "
                "cached for later runs\n"
            )
            return self._clear_status() + total, True
        if not self.announced:
            if elapsed < self.delay_s:
                return "", False
            self.announced, self.said_at = True, now
            what = ", ".join(self.packages)
            return f"numba: compiling kernels ({what}) for the first time; cached afterwards\n", False
        if live:
            return self._status_line(elapsed), False
        if self.compiling and now - self.said_at >= self.every_s:
            self.said_at = now
            return f"numba: still compiling: {self._progress(elapsed)}\n", False
        return "", False

    def _progress(self, elapsed: float) -> str:
        """``12 s so far, 31 functions done, now azimuth_env.kernels.step_games``"""
        # The innermost function of ours: numba's own helpers (unicode, arrays) say little.
        ours = [name for name in self.compiling if not name.startswith("numba.")] or self.compiling
        now = f", now {ours[-1]}" if ours else ""
        return f"{elapsed:.0f} s so far, {_functions(self.compiled)} done{now}"

    def _status_line(self, elapsed: float) -> str:
        """The terminal's line, rewritten in place, cut to the terminal's width."""
        width = shutil.get_terminal_size().columns - 1
        text = f"numba: compiling... {self._progress(elapsed)}"[:width]
        line = "\r" + text.ljust(self.status_width)
        self.status_width = len(text)
        return line

    def _clear_status(self) -> str:
        if not self.status_width:
            return ""
        width, self.status_width = self.status_width, 0
        return "\r" + " " * width + "\r"

    def _on_terminal(self) -> bool:
        try:
            return self.out.isatty()
        except (OSError, ValueError):  # a closed stream
            return False

    def _say(self, text: str) -> None:
        try:
            if _progress_bars() and text.endswith("\n"):
                from tqdm import tqdm

                tqdm.write(text.strip("\r ").rstrip("\n"), file=self.out)
            else:
                self.out.write(text)
                self.out.flush()
        except (OSError, ValueError):  # a closed stream at interpreter exit
            pass

    def close(self) -> None:
        """At exit: the total of a burst the process did not outlive."""
        with self.lock:
            self.compiling = []
            text, _ = self._next_words(max(time.monotonic(), self.last + self.idle_s))
        if text:
            self._say(text)


def _functions(n: int) -> str:
    return f"{n} function{'' if n == 1 else 's'}"


def _progress_bars() -> bool:
    """Whether a tqdm bar is on screen (only if tqdm is already imported)."""
    tqdm_module = sys.modules.get("tqdm")
    bars = getattr(getattr(tqdm_module, "tqdm", None), "_instances", None)
    return bool(bars)


_installed: CompileNotice | None = None


def install() -> CompileNotice:
    """Start listening (once per process); ``AZGAMES_COMPILE_NOTICE=0``: quietly."""
    global _installed
    if _installed is None:
        _installed = CompileNotice(quiet=os.environ.get("AZGAMES_COMPILE_NOTICE", "1") == "0")
        event.register("numba:compile", _installed)
        if not _installed.quiet:
            atexit.register(_installed.close)
        if hasattr(os, "register_at_fork"):  # not on Windows, which spawns instead
            os.register_at_fork(after_in_child=_installed.forget)
    return _installed


def compiling_for() -> float | None:
    """Seconds numba has been compiling in this process, or None if it is not."""
    return None if _installed is None else _installed.compiling_for()


def settle() -> None:
    """Finish the notice of a burst of compiles that has just ended (before a prompt)."""
    if _installed is not None and not _installed.quiet:
        _installed.settle()
