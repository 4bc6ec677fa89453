"""Reading what comes from outside: files read with a cap, JSON parsed with a
bound on its nesting, and no server file named by a remote client.

Every file the suite reads on a user's word (a record, a map, a policy)
goes through :func:`read_bytes` or :func:`read_text`: a FIFO, a device or a
folder is refused before a byte is read, and a file larger than the limit
is refused rather than read whole. Inside :func:`client_request` (the
browser app's handling of a page's message) no file may be named: where a
value from outside would become a path (a map, ``ppo:path``),
:func:`refuse_paths` says so before anything touches the disk, so the
answer is the same whether the file exists or not. The server's own files
(the shipped policies and maps) are read as ever.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .limits import LOCAL

_remote = contextvars.ContextVar("azgames_remote_client", default=False)


@contextlib.contextmanager
def client_request() -> Iterator[None]:
    """Work done for a remote client: file paths in its input are refused."""
    token = _remote.set(True)
    try:
        yield
    finally:
        _remote.reset(token)


def refuse_paths(name: str, what: str) -> None:
    """ValueError if a remote client is being served: ``name`` would be read
    from the server's disk. ``what`` says what the client may give instead."""
    if _remote.get():
        raise ValueError(
            f"{name}: a page cannot name a file on the server; {what} (file paths are a command-line feature)"
        )


def read_bytes(path: str | os.PathLike, name: str = "path", limit: int | None = None) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them
    (the local file limit by default); ValueError naming ``name`` otherwise."""
    limit = LOCAL.file_bytes if limit is None else limit
    shown = str(path)
    try:
        # O_NONBLOCK: opening a FIFO with no writer must not wait for one.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        raise ValueError(f"{name}={shown!r}: cannot read it ({e.strerror})") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = (
            "a folder"
            if stat.S_ISDIR(mode)
            else "a FIFO"
            if stat.S_ISFIFO(mode)
            else "a device"
            if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "not a regular file"
        )
        raise ValueError(f"{name}={shown!r} is {kind}; give a regular file")
    with os.fdopen(fd, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{name}={shown!r} is larger than {limit:,} bytes, the limit for this input")
    return data


def read_text(path: str | os.PathLike, name: str = "path", limit: int | None = None) -> str:
    """:func:`read_bytes` decoded as UTF-8."""
    data = read_bytes(path, name, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{name}={str(path)!r} is not UTF-8 text (byte {e.start})") from None


def parse_json(text: str | bytes, name: str, max_depth: int | None = None) -> Any:
    """``text`` parsed as JSON nested at most ``max_depth`` deep; ValueError
    naming ``name`` otherwise (never quoting the text)."""
    max_depth = LOCAL.json_depth if max_depth is None else max_depth
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(f"{name}: JSON nested deeper than {max_depth} levels") from None
    except ValueError as e:  # JSONDecodeError, or bytes that are not UTF-8
        where = f" (line {e.lineno}, column {e.colno})" if isinstance(e, json.JSONDecodeError) else ""
        raise ValueError(f"{name} is not JSON{where}") from None
    if json_depth(value) > max_depth:
        raise ValueError(f"{name}: JSON nested deeper than {max_depth} levels")
    return value


def read_json(
    path: str | os.PathLike, name: str = "path", limit: int | None = None, max_depth: int | None = None
) -> Any:
    """The JSON of the file at ``path``, read and parsed within the limits."""
    return parse_json(read_bytes(path, name, limit), f"{name}={str(path)!r}", max_depth)


def json_depth(value: Any) -> int:
    """How deep ``value``'s lists and dicts nest (a scalar: 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


def writable_file(name: str, path: str | os.PathLike, force: bool = False) -> Path:
    """``path`` as a file that can be written, checked before any work starts:
    its folder exists and is writable, it is not a folder, and it exists
    only if ``force`` allows replacing it."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{name}={path!r} must be a str or a path")
    path = Path(path)
    shown = str(path)
    if path.is_dir():
        raise ValueError(f"{name}={shown!r} is a folder; give a file name")
    folder = path.parent
    if not folder.is_dir():
        raise ValueError(f"{name}={shown!r}: the folder {str(folder)!r} does not exist")
    if path.exists() and not force:
        raise ValueError(f"{name}={shown!r} exists; give another name, or --force to replace it")
    try:  # the one sure test (root passes os.access where /proc refuses a file)
        if path.exists():
            with open(path, "ab"):
                pass
        else:
            with open(path, "xb"):
                pass
            path.unlink()
    except OSError as e:
        raise ValueError(f"{name}={shown!r}: cannot write it ({e.strerror})") from None
    return path


def writable_folder(
    name: str, path: str | os.PathLike, files: tuple[str, ...] = (), force: bool = False
) -> Path:
    """``path`` as a folder to write ``files`` into, checked (and created)
    before any work starts: not an existing file, writable, and holding none
    of ``files`` unless ``force`` allows replacing them."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{name}={path!r} must be a str or a path")
    path = Path(path)
    shown = str(path)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{name}={shown!r} is a file, not a folder; give a folder to write into")
    if not path.exists():
        try:
            path.mkdir(parents=True)
        except OSError as e:
            raise ValueError(f"{name}={shown!r}: cannot make the folder ({e.strerror})") from None
    try:  # the one sure test, as in writable_file
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as e:
        raise ValueError(f"{name}={shown!r}: cannot write into the folder ({e.strerror})") from None
    present = [f for f in files if (path / f).exists()]
    if present and not force:
        raise ValueError(
            f"{name}={shown!r} already holds {', '.join(present)}; give another folder, "
            f"or --force to replace them"
        )
    return path
