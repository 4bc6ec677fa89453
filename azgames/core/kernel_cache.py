"""numba's disk cache, kept from going stale across files.

numba keys a cached function on its own source file only: edit
``azacru_env/kernels.py`` and the greedy agent, the searches and the vector
env, whose kernels were compiled with the old rules inlined or linked in
from *other* files, keep loading the old code from their caches. Here every
kernel of the suite is stamped with one digest of every source file a kernel
may call or read a constant from: the core's modules (``azgames/core/``;
the apps hold no kernel), the agents' and each registered game's package. Change any of them and every kernel's stamp
changes, so numba finds its cache entries obsolete and compiles again, in
every caller, with nothing cleared by hand. Functions outside those folders
keep numba's own per-file stamp.

The stamp is numba's locator hook (``get_source_stamp``), not public API
(nor is the index loader :func:`_tolerant` wraps):
``tests/test_kernel_cache.py`` edits a kernel in a copy of the suite and
would fail if a numba release changed it.

Processes that start on a cold cache together (pytest-xdist's workers, Ray's
actors, a vector env per subprocess) would each compile the same kernels:
:func:`_one_at_a_time` makes a process that reaches a function another is
compiling wait for it, then load it from the cache (``Dispatcher.compile``,
numba's, looks in the cache first).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import io
import os
import pickle
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from numba.core import caching, dispatcher, sigutils

try:
    import fcntl
except ImportError:  # Windows: each process compiles for itself, as numba does
    fcntl = None  # type: ignore[assignment]


def _package_dir(module: str) -> Path | None:
    """A module's package folder, found without importing it."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))).resolve()


@functools.cache
def _roots() -> tuple[tuple[Path, bool], ...]:
    """(folder, with its subfolders) of every source a kernel may depend on.

    Read once per process, when the first kernel touches its cache: by then
    ``import azgames`` has registered the games, and a later registration
    (a user's own game) does not change the stamps of the kernels loaded."""
    from .registry import list_games

    core = Path(__file__).resolve().parent
    roots = {(core, False)}
    for module in ["azgames.agents", *(entry.module.split(".")[0] for entry in list_games())]:
        folder = _package_dir(module)
        if folder is not None:
            roots.add((folder, True))
    return tuple(sorted(roots))


@functools.cache
def suite_digest() -> str:
    """One digest of every source file under :func:`_roots`, by path and content."""
    digest = hashlib.blake2b(digest_size=16)
    for folder, deep in _roots():
        for path in sorted(folder.rglob("*.py") if deep else folder.glob("*.py")):
            digest.update(str(path.relative_to(folder.parent)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


@functools.cache  # asked at every typing of a call (specialisation.py); the roots are read once
def in_suite(py_file: str) -> bool:
    """Whether ``py_file`` is one of the suite's sources (under :func:`_roots`)."""
    path = Path(py_file).resolve()
    return any(path.parent == folder or (deep and folder in path.parents) for folder, deep in _roots())


class _LazyStamp:
    """A kernel's stamp, worked out when numba first compares or saves it.

    numba asks for a function's stamp when the function is decorated, which
    for the core's kernels is during ``import azgames``, before the games
    are registered; it compares or saves the stamp only when the kernel is
    first called. A suite kernel's is the suite's digest, any other's
    numba's own (``own``); either is saved as the plain value it stands for."""

    def __init__(self, py_file: str, own: object) -> None:
        self.py_file, self.own = py_file, own

    def value(self) -> object:
        return ("azgames", suite_digest()) if in_suite(self.py_file) else self.own

    def __eq__(self, other: object) -> bool:
        return self.value() == other

    def __hash__(self) -> int:
        return hash(self.value())

    def __reduce__(self):
        value = self.value()
        return type(value), (value,)


class _SuiteStamp:
    """A locator mixin: the stamp is a :class:`_LazyStamp`."""

    _py_file: str

    def get_source_stamp(self):
        return _LazyStamp(self._py_file, super().get_source_stamp())  # numba's, next in the MRO


def _stamped(locator: Any) -> Any:
    if not issubclass(locator, caching._SourceFileBackedLocatorMixin):  # IPython cells, zip files
        return locator
    return type(f"Suite{locator.__name__}", (_SuiteStamp, locator), {})


class _Gone:
    """Stands, in an index read back, for a class that cannot be imported any more."""


class _KeepingUnpickler(pickle.Unpickler):
    """An unpickler that reads a class it cannot import as a :class:`_Gone`."""

    def find_class(self, module: str, name: str) -> Any:
        try:
            return super().find_class(module, name)
        except (ImportError, AttributeError):
            return type(name, (_Gone,), {"__module__": __name__})


def _tolerant(load_index):
    """numba's index loader, reading an index it cannot unpickle without the
    entries it cannot read.

    The contract's entry points (``azgames.core.contract``) and the searches
    keep one index for every game they were compiled for, keyed by each
    game's state type. If one of those games can no longer be imported (a
    game deleted, a test's game in a temporary folder), unpickling the index
    raises and numba fails the call instead of compiling. Read without that
    game's entries, the other games' stay: read as empty, numba would
    compile every other game again and write the index anew over their
    files (a test's game made every later process of a test run compile
    the contract again)."""

    @functools.wraps(load_index)
    def load(self):
        try:
            return load_index(self)
        except (ImportError, AttributeError):
            pass
        try:
            with open(self._index_path, "rb") as f:
                pickle.load(f)  # numba's version, checked by the load that failed
                stamp, overloads = _KeepingUnpickler(io.BytesIO(f.read())).load()
        except Exception:  # anything else unreadable: compile again, as numba would
            return {}
        if stamp != self._source_stamp:
            return {}
        return {key: name for key, name in overloads.items() if _picklable(key)}

    return load


def _picklable(key: object) -> bool:
    """A key that names no :class:`_Gone` class: it pickles again."""
    try:
        pickle.dumps(key)
    except (pickle.PicklingError, AttributeError, TypeError):
        return False
    return True


#: A compile lock's file, beside the function's cache index (``compile --clear`` removes it too).
LOCK_SUFFIX = ".nbl"
#: How long a process waits for another's compile before compiling itself.
#: The longest compile, Azimuth's greedy, takes 25 s alone on 2 cores; a wait
#: this long means a stuck process, or two processes each holding a function
#: the other's compile calls (overloads defined on one line share a lock
#: file): then both go on, as numba alone would, and compile it twice.
LOCK_PATIENCE_S = 120.0
#: The compile locks this process holds: numba compiles a function's callees
#: inside its compile, and a recursive function inside its own.
_held: set[str] = set()


@contextlib.contextmanager
def _compile_lock(path: str) -> Iterator[None]:
    """Hold ``path``'s lock (for at most :data:`LOCK_PATIENCE_S` of waiting);
    nothing if this process holds it already or the file cannot be opened."""
    if fcntl is None or path in _held:
        yield
        return
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:  # a read-only cache folder: numba will not save there either
        yield
        return
    try:
        deadline = time.monotonic() + LOCK_PATIENCE_S
        locked = False
        while not locked and time.monotonic() < deadline:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                locked = True
            except BlockingIOError:
                time.sleep(0.05)
        _held.add(path)
        try:
            yield
        finally:
            _held.discard(path)
    finally:
        os.close(fd)  # releases the lock


def _one_at_a_time(compile):
    """numba's ``Dispatcher.compile``, holding the function's compile lock
    when it may compile a cached function."""

    @functools.wraps(compile)
    def locked(self, sig):
        cache_file = getattr(self._cache, "_cache_file", None)  # None: not cached (numba's NullCache)
        args, _ = sigutils.normalize_signature(sig)
        if cache_file is None or tuple(args) in self.overloads:  # no compile to share
            return compile(self, sig)
        with _compile_lock(os.path.splitext(cache_file._index_path)[0] + LOCK_SUFFIX):
            return compile(self, sig)

    return locked


def install() -> None:
    """Stamp the suite's kernels from now on (once per process; before the
    first kernel is decorated, so that its cache takes a stamped locator),
    read an index naming a game that is gone as empty, and compile each
    cached function in one process at a time."""
    impl = caching.CacheImpl
    if any(issubclass(cls, _SuiteStamp) for cls in impl._locator_classes):
        return
    impl._locator_classes = [_stamped(cls) for cls in impl._locator_classes]
    index = caching.IndexDataCacheFile
    index._load_index = _tolerant(index._load_index)  # type: ignore[method-assign]
    dispatcher.Dispatcher.compile = _one_at_a_time(dispatcher.Dispatcher.compile)  # type: ignore[method-assign]


if os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0"):
    install()
