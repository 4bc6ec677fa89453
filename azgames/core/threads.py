"""How many threads a batched kernel gets: decided here, for every game.

On 2 cores numba's thread team pays only for large batches on idle cores
(``benchmarks/contention.py``, its table in docs/benchmarks.md): beside a
busy process a team waits at its barrier for the thread the other process
displaced, and on an idle machine a sleeping team takes longer to wake than
a batch of a few hundred games takes to play. So:

- a batch under :data:`PARALLEL_FROM` games runs a serial kernel on the
  calling thread, with no thread team to set (:func:`run_batched`, which
  every batched call of the core goes through);
- a larger one gets a thread per idle core (and the caller's), counted from
  the running tasks the kernel reports (``/proc/loadavg``), looked at most
  every :data:`LOOK_EVERY_S`;
- idle threads sleep instead of spinning (``OMP_WAIT_POLICY=PASSIVE``,
  unless the user set it), so that they take no core from a learner's
  torch threads or another process between batches;
- numba's pool, as it starts, leaves the caller's OpenMP setting (torch's
  thread count) as it was.

``NUMBA_NUM_THREADS`` still caps the team.
"""

from __future__ import annotations

import ctypes
import os
import time
from collections.abc import Callable
from typing import Any, TypeVar

import numba

# Read by the OpenMP runtimes (numba's and torch's) when they start, which is
# after this import: numba starts its thread pool at the first parallel call.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

T = TypeVar("T")

#: Batches smaller than this run the serial kernels on the calling thread:
#: a parallel region costs a launch even on one thread, and the serial
#: kernels run no slower (by hand, 2026-11-30: the vector env's serial step
#: at 1.00-1.31x of the parallel one on one thread at N = 64, 256 and 1024).
PARALLEL_FROM = 2048
#: How long a count of the idle cores is trusted.
LOOK_EVERY_S = 0.25

_looked_at = -LOOK_EVERY_S
_spare = 1


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def _running_tasks() -> int | None:
    """Tasks running or waiting to run now, this one included (Linux), or None."""
    try:
        with open("/proc/loadavg") as f:
            return int(f.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return None


def spare_threads() -> int:
    """Threads worth running now: the caller's and one per idle core."""
    global _looked_at, _spare
    now = time.monotonic()
    if now - _looked_at >= LOOK_EVERY_S:
        running = _running_tasks()
        others = 0 if running is None else running - 1
        _spare, _looked_at = max(1, _cores() - others), now
    return _spare


def threads_for(batch: int) -> int:
    """The threads a kernel over ``batch`` games should run on."""
    if batch < PARALLEL_FROM:
        return 1
    return max(1, min(numba.config.NUMBA_NUM_THREADS, spare_threads()))  # type: ignore[attr-defined]


def _openmp() -> ctypes.CDLL | None:
    """The OpenMP runtime numba's OpenMP layer runs on, or None without one:
    found as the linker binds that layer's calls, in the process's global
    scope first (where torch loads its own runtime), then in the layer's
    own dependencies."""
    try:
        from numba.np.ufunc import omppool  # type: ignore[attr-defined]
    except (ImportError, OSError):
        return None
    for scope in (None, omppool.__file__):
        try:
            runtime = ctypes.CDLL(scope)
            runtime.omp_get_max_threads, runtime.omp_set_num_threads  # noqa: B018 (both there)
        except (OSError, AttributeError, TypeError):  # TypeError: no global scope (Windows)
            continue
        return runtime
    return None


def _keep_openmp_setting() -> None:
    """Have numba's thread pool, wherever it starts (at the first parallel
    kernel run or loaded from the cache), leave the caller's OpenMP team
    size as it was.

    numba's OpenMP layer sets it to numba's thread count as its pool starts;
    torch, on the same runtime, then runs its work on that many threads
    whatever ``torch.set_num_threads`` said. Beside a learner that is
    oversubscription; it also made a resumed training run come out
    different from an unbroken one. numba's own ``_launch_threads`` is
    wrapped, as numba looks it up on each call, until it has started."""
    try:
        from numba.np.ufunc import parallel

        launch = parallel._launch_threads
    except (ImportError, AttributeError):
        return

    def launch_keeping_openmp() -> None:
        runtime = _openmp()
        before = runtime.omp_get_max_threads() if runtime else 0
        try:
            launch()
        finally:
            if runtime:
                runtime.omp_set_num_threads(before)
        parallel._launch_threads = launch  # started: numba's own from now on

    parallel._launch_threads = launch_keeping_openmp


_keep_openmp_setting()


def _thread_setters() -> tuple[Callable[[], int], Callable[[int], None]]:
    """numba's getter and setter of the calling thread's team size.

    The public ``numba.get_num_threads``/``set_num_threads`` check their
    arguments and the pool in Python: 7 us around every call, half of a
    one-game step. After the pool is up, the C functions under them take
    0.6 us; they are numba's own, not public API, so any other numba falls
    back to the public pair."""
    numba.get_num_threads()  # starts the pool, which the raw functions need
    try:
        from numba.np.ufunc import parallel

        return parallel._get_num_threads, parallel._set_num_threads  # type: ignore[attr-defined]
    except (ImportError, AttributeError):
        return numba.get_num_threads, numba.set_num_threads


_setters: tuple[Callable[[], int], Callable[[int], None]] | None = None


def run_batched(batch: int, serial: Callable[..., T], parallel: Callable[..., T], *args: Any) -> T:
    """A batched kernel run as this module decides, for every caller in the
    core: ``serial(*args)`` on the calling thread for a batch under
    :data:`PARALLEL_FROM` games (no thread team to set: two calls of 0.6 us,
    a tenth of a small game's step), else ``parallel(*args)`` on
    :func:`threads_for` ``(batch)`` threads."""
    if batch < PARALLEL_FROM:
        return serial(*args)
    return with_threads(batch, parallel, *args)


def with_threads(batch: int, kernel: Callable[..., T], *args: Any) -> T:
    """The parallel ``kernel(*args)`` on :func:`threads_for` ``(batch)``
    threads; the calling thread's own setting is put back after."""
    global _setters
    if _setters is None:
        _setters = _thread_setters()
    get, put = _setters
    wanted, before = threads_for(batch), get()
    if wanted == before:
        return kernel(*args)
    put(wanted)
    try:
        return kernel(*args)
    finally:
        put(before)
