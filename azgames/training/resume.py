"""A training run's resume point: everything it needs to go on after a kill.

A run keeps one file, ``resume.npz`` in its folder, written whole at each
checkpoint (:func:`save`): a zip of ``run.json`` (counters, config, random
generators' states: JSON, no pickles) and one ``.npy`` member per array
(weights, optimizer moments, the replay buffer, the games in play). It is
written beside the old one and then renamed over it, so a kill at any
moment leaves the previous resume point or the new one, never half of one.

:func:`load` reads it as data from outside: the members are stored
uncompressed (so an array cannot unpack to more than the file holds), each
header is read before its data, objects are refused, and the reader checks
the CRC of everything it reads, so a truncated or altered file is one line
of error, not a crash halfway into the run. :func:`expect` then checks each
array against the one the resumed run builds (same keys, shapes and dtypes).

No torch here: the trainers turn their tensors into arrays.
"""

from __future__ import annotations

import json
import os
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np
from numpy.lib import format as npy_format

from azgames.agents.policy import NumpyPolicy
from azgames.core.inputs import parse_json

#: The file in a run's folder.
FILE = "resume.npz"
#: What :data:`FILE` says it is, and its layout's version.
FORMAT = {"kind": "azgames training resume point", "version": 1}
#: The longest ``run.json`` read (the config, counters and generators' states).
MAX_RUN_JSON = 16 * 2**20


def generator_state(rng: np.random.Generator) -> dict:
    """A numpy generator's state as JSON (PCG64's words are Python ints)."""
    return dict(rng.bit_generator.state)


def set_generator_state(rng: np.random.Generator, state: Any, where: str) -> None:
    try:
        rng.bit_generator.state = state
    except (TypeError, ValueError, KeyError) as e:
        raise ValueError(
            f"{where}: a random generator's state is not {type(rng.bit_generator).__name__}'s ({e})"
        ) from None


def save(folder: Path, run: dict, arrays: dict[str, np.ndarray]) -> Path:
    """Write the resume point ``run`` (JSON) and ``arrays`` to ``folder/resume.npz``, atomically."""
    path = folder / FILE
    partial = folder / (FILE + ".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("run.json", json.dumps({**FORMAT, **run}))
        for key, array in arrays.items():
            with archive.open(key + ".npy", "w", force_zip64=True) as fp:
                npy_format.write_array(fp, np.asarray(array, order="C"), allow_pickle=False)
    with open(partial, "rb+") as f:
        os.fsync(f.fileno())
    os.replace(partial, path)
    return path


def load(folder: str | os.PathLike) -> tuple[dict, dict[str, np.ndarray]]:
    """The resume point of the run in ``folder``: ``(run, arrays)``; a
    ValueError of one line naming what is wrong otherwise."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"--resume {str(folder)!r}: no such folder")
    path = folder / FILE
    where = f"--resume {str(folder)!r}"
    if not path.is_file():
        finished = (
            " (it finished: policy.json is there; train on from it with --init)"
            if (folder / "policy.json").is_file()
            else ""
        )
        raise ValueError(f"{where}: no {FILE} there, so no run to go on with{finished}")
    corrupt = f"{where}: {FILE} is truncated or corrupt"
    try:
        with zipfile.ZipFile(path) as archive:
            info = archive.getinfo("run.json")
            if info.file_size > MAX_RUN_JSON:
                raise ValueError(f"{where}: its run.json is larger than {MAX_RUN_JSON:,} bytes")
            run = parse_json(archive.read(info), f"{where}: run.json")
            if not isinstance(run, dict) or {k: run.get(k) for k in FORMAT} != FORMAT:
                raise ValueError(f"{where}: {FILE} is not a resume point of this version ({FORMAT})")
            arrays = {}
            for info in archive.infolist():
                if info.filename == "run.json":
                    continue
                if not info.filename.endswith(".npy") or info.compress_type != zipfile.ZIP_STORED:
                    raise ValueError(f"{where}: {FILE} holds a member that is not a stored array")
                arrays[info.filename[:-4]] = _read_array(archive, info, where, corrupt)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, KeyError, RuntimeError, NotImplementedError):
        raise ValueError(corrupt) from None
    return run, arrays


def _read_array(archive: zipfile.ZipFile, info: zipfile.ZipInfo, where: str, corrupt: str) -> np.ndarray:
    with archive.open(info) as fp:
        try:  # numpy's messages quote the header: ours do not
            version = npy_format.read_magic(fp)
            read_header = {(1, 0): npy_format.read_array_header_1_0, (2, 0): npy_format.read_array_header_2_0}
            shape, fortran, dtype = read_header[version](fp)
        except (ValueError, KeyError, SyntaxError):
            raise ValueError(corrupt) from None
        if dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None:
            raise ValueError(f"{where}: the array {info.filename[:-4]!r} holds objects, not numbers")
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        if nbytes > info.file_size:
            raise ValueError(corrupt)
        data = fp.read(nbytes)
        if len(data) != nbytes or fp.read(1):  # the read to the end checks the CRC
            raise ValueError(corrupt)
    return np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran else "C").copy()


def expect(arrays: dict[str, np.ndarray], built: dict[str, np.ndarray], where: str) -> None:
    """``arrays`` (read) has exactly ``built``'s keys (the resumed run's own
    arrays), each of the same shape and dtype."""
    missing = sorted(set(built) - set(arrays))
    extra = sorted(set(arrays) - set(built))
    if missing or extra:
        said = f"lacks {_names(missing)}" if missing else f"holds arrays this run has not: {_names(extra)}"
        raise ValueError(f"{where}: the resume point {said}")
    for key, mine in built.items():
        got = arrays[key]
        if got.shape != mine.shape or got.dtype != mine.dtype:
            raise ValueError(
                f"{where}: the array {key!r} is {got.dtype} {got.shape}; this run's is {mine.dtype} {mine.shape}"
            )


def _names(keys: list[str]) -> str:
    """The first few of ``keys`` (array names), each cut short."""
    return ", ".join(repr(k[:60]) for k in keys[:3]) + (", ..." if len(keys) > 3 else "")


def venv_state(venv, obs: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
    """A vector env's games in play: its state (each game's own generator
    too) and the observations and masks it last returned."""
    assert venv.state is not None  # reset before any resume point
    arrays = {f"venv/state/{k}": v for k, v in venv.state._asdict().items()}
    return arrays | {
        "venv/returned/obs": obs,
        "venv/returned/mask": mask,
        "venv/returned/player": venv.player,
    }


def restore_venv(venv, obs: np.ndarray, mask: np.ndarray, arrays: dict[str, np.ndarray], where: str) -> None:
    """Put :func:`venv_state`'s arrays back, in place (``obs`` and ``mask``
    are the env's own buffers), each checked first."""
    built = venv_state(venv, obs, mask)
    expect({k: v for k, v in arrays.items() if k.startswith("venv/")}, built, where)
    for key, mine in built.items():
        mine[...] = arrays[key]


def generators_of(obj: Any, prefix: str) -> tuple[dict, dict[str, np.ndarray]]:
    """An agent's random state, whatever it keeps it in: its numpy
    generators (JSON) and its arrays (a generator word such as Azure's
    greedy's ``rng_word``), by attribute; ``(run, arrays)``."""
    run = {k: generator_state(v) for k, v in vars(obj).items() if isinstance(v, np.random.Generator)}
    arrays = {f"{prefix}/{k}": v for k, v in vars(obj).items() if isinstance(v, np.ndarray)}
    return run, arrays


def restore_generators(obj: Any, run: Any, arrays: dict[str, np.ndarray], prefix: str, where: str) -> None:
    """Put :func:`generators_of`'s state back into ``obj``, checked against its own."""
    mine, built = generators_of(obj, prefix)
    if not isinstance(run, dict) or set(run) != set(mine):
        raise ValueError(f"{where}: its generators of {prefix} are not this run's")
    expect({k: v for k, v in arrays.items() if k.startswith(prefix + "/")}, built, where)
    for k in mine:
        set_generator_state(getattr(obj, k), run[k], where)
    for key, array in built.items():
        array[...] = arrays[key]


def carried(run: dict, where: str) -> dict[str, Any]:
    """What every trainer's resume point carries besides its own parts: the
    clock, the rounds it was resumed at before, its policy's meta and command."""
    try:
        return {
            "clock": {k: float(run["clock"][k]) for k in ("elapsed", "compiled", "aside", "compiled_aside")},
            "resumed_at": [count({"round": r}, "round", where) for r in run["resumed_at"]],
            "meta": dict(run["meta"]),
            "command": str(run["command"]),
        }
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"{where}: its run.json lacks or mistypes its clock, meta or command") from None


def count(run: dict, key: str, where: str, most: int = 10**15) -> int:
    """The resume point's counter ``key``: a whole number from 0 to ``most``."""
    value = run.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= most:
        raise ValueError(f"{where}: its {key!r} is not a whole number from 0 to {most:,}")
    return value


def check_parts(arrays: dict[str, np.ndarray], parts: tuple[str, ...], where: str) -> None:
    """Every array of the resume point belongs to one of a trainer's ``parts``
    (the first part of its name)."""
    strange = sorted({k for k in arrays if k.split("/")[0] not in parts})
    if strange:
        raise ValueError(f"{where}: the resume point holds arrays no run writes: {_names(strange)}")


def snapshot_state(snapshots: list[NumpyPolicy]) -> tuple[list[dict], dict[str, np.ndarray]]:
    """A league's snapshots for a resume point: their metas and their weights, as they are (float32)."""
    arrays: dict[str, np.ndarray] = {}
    for k, snapshot in enumerate(snapshots):
        arrays |= {f"snapshot/{k}/{name}": w for name, w in snapshot.arrays().items()}
    return [s.meta for s in snapshots], arrays


def restore_snapshots(metas: Any, arrays: dict[str, np.ndarray], where: str) -> list[NumpyPolicy]:
    """The snapshots :func:`snapshot_state` kept, each checked as a policy file is."""
    if not isinstance(metas, list):
        raise ValueError(f"{where}: its snapshots are not a list")
    return [
        policy_from_arrays(
            {n.split("/", 2)[2]: w for n, w in arrays.items() if n.startswith(f"snapshot/{k}/")},
            meta,
            f"{where}: snapshot {k}",
        )
        for k, meta in enumerate(metas)
    ]


def policy_from_arrays(arrays: dict[str, np.ndarray], meta: Any, where: str) -> NumpyPolicy:
    """The policy of :meth:`NumpyPolicy.arrays`' ``arrays``, checked as a policy file is."""
    if not isinstance(meta, dict):
        raise ValueError(f"{where}: its meta is not a JSON object")

    def pairs(kind: str) -> list[tuple[np.ndarray, np.ndarray]]:
        found: list[tuple[np.ndarray, np.ndarray]] = []
        while f"{kind}_{len(found)}_w" in arrays and f"{kind}_{len(found)}_b" in arrays:
            found.append((arrays[f"{kind}_{len(found)}_w"], arrays[f"{kind}_{len(found)}_b"]))
        return found

    try:
        heads = [(arrays[f"{h}_w"], arrays[f"{h}_b"]) for h in ("policy", "value")]
    except KeyError as e:
        raise ValueError(f"{where}: lacks the array {e.args[0]!r}") from None
    return NumpyPolicy(pairs("trunk"), heads[0], heads[1], meta, where=where, convs=pairs("conv"))


__all__ = [
    "FILE",
    "carried",
    "check_parts",
    "count",
    "expect",
    "generator_state",
    "generators_of",
    "load",
    "policy_from_arrays",
    "restore_generators",
    "restore_snapshots",
    "restore_venv",
    "save",
    "set_generator_state",
    "snapshot_state",
    "venv_state",
]
