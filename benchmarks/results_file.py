"""Where a benchmark writes its results: nowhere unless asked.

The files in ``benchmarks/results/`` are the figures the README quotes, so a
run replaces its committed file only when given ``--save``; ``--json PATH``
writes elsewhere, and without either the run only prints. A smoke run's
figures (``--quick``) are refused ``--save``: they are not results to keep.

Every script in ``benchmarks/`` takes these arguments from here::

    COMMITTED = results_file.RESULTS / "step_rate.json"
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    ...
    if out is not None:
        results_file.write_json(out, results)

Every file written names the version of every registered game (a top-level
``"versions": {"azacru": 1, ...}``, the games' ``Rules.info.version``): a
figure measured at another version is of other rules. Files written before
carry no ``"versions"``; readers look their rows up by key, so they read both.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from azgames.core.inputs import writable_file

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"


def _shown(path: Path) -> str:
    """``path`` as the README names it: relative to the repository root."""
    return str(path.relative_to(ROOT))


def add_arguments(parser: argparse.ArgumentParser, committed: Path) -> None:
    """Add ``--json PATH`` and ``--save`` (one or the other) to ``parser``."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--json",
        type=Path,
        default=None,
        metavar="PATH",
        help="write the results to PATH (default: no file, the table only)",
    )
    where.add_argument(
        "--save",
        action="store_true",
        help=f"replace {_shown(committed)}, the committed results the README quotes",
    )


def destination(
    parser: argparse.ArgumentParser, args: argparse.Namespace, committed: Path, quick: bool = False
) -> Path | None:
    """The file this run writes: ``committed`` with ``--save``, PATH with
    ``--json PATH``, None without either. A ``quick`` run's ``--save`` is a
    usage error (exit status 2), reported before anything is measured, and
    so is a ``--json`` PATH that cannot be written. An existing file is
    written over (some benchmarks merge their rows into it, as ``--save``
    does into the committed file)."""
    if args.save and quick:
        parser.error(
            f"--save replaces {_shown(committed)}: a --quick run's figures are not "
            "results to keep (give --json PATH to write them elsewhere)"
        )
    if args.json is not None:
        try:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            writable_file("--json", args.json, force=True)
        except (OSError, ValueError) as e:
            parser.error(str(e))
    return committed if args.save else args.json


def game_versions() -> dict[str, int]:
    """The current version of every registered game, by name."""
    from azgames.core.registry import versions

    return versions()


def write_json(path: Path, results: dict, indent: int = 1) -> None:
    """Write ``results`` to ``path`` as JSON (folders made as needed) and say so
    on stderr, leaving stdout to the table.

    ``results`` (a dict) gets a top-level ``"versions"``: every registered
    game's current version (:func:`game_versions`). It is added to the dict
    itself, so that what a benchmark returns is what its file holds."""
    if not isinstance(results, dict):
        raise TypeError(
            f"results must be a dict (a top-level 'versions' is added), not {type(results).__name__}"
        )
    results["versions"] = game_versions()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=indent) + "\n")
    print(f"wrote {path}", file=sys.stderr)


def merge_row(path: Path, row: dict, key: tuple[str, ...], order=None) -> None:
    """Write ``row`` into the results at ``path``, replacing the row with the
    same values of ``key`` (a missing field counts as None), rows sorted by
    ``order`` if given. The file is read just before: benchmark runs
    measuring other rows into it at the same time keep theirs."""
    rows = json.loads(path.read_text())["rows"] if path.exists() else []
    rows = [r for r in rows if tuple(r.get(k) for k in key) != tuple(row.get(k) for k in key)] + [row]
    if order is not None:
        rows.sort(key=order)
    write_json(path, {"date": time.strftime("%Y-%m-%d"), "rows": rows}, indent=2)
