"""The optional extras the commands need, checked before a command starts.

A command that needs an extra calls :func:`require` first: without the
extra it ends at once, before it makes a folder or plays a move, with one
line on stderr (the extra, its missing modules, the command that installs
it) and exit status 2, instead of a traceback half-way. The modules are
looked up (``importlib.util.find_spec``), not imported: the check costs
nothing and loads nothing heavy.
"""

from __future__ import annotations

import importlib.util
import sys

#: The top-level modules of each extra that a command needs: pyproject.toml's
#: [project.optional-dependencies] by their import names (tests/test_extras.py
#: checks that the two agree).
MODULES: dict[str, tuple[str, ...]] = {
    "train": ("torch", "stable_baselines3", "sb3_contrib", "tqdm", "matplotlib"),
    "rllib": ("torch", "ray", "tqdm", "matplotlib"),
    "tournament": ("openskill", "matplotlib", "tqdm"),
    "web": ("fastapi", "uvicorn"),
}
#: Installed before an extra that holds it, pinned: on these machines torch
#: comes from a local CPU wheel, and an unpinned one pulls gigabytes of CUDA.
TORCH = "torch==2.13.0"


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here."""
    return [name for name in MODULES[extra] if importlib.util.find_spec(name) is None]


def install_command(extra: str) -> str:
    """The shell command that installs ``extra`` into a source checkout."""
    torch_first = f"python -m pip install {TORCH} && " if "torch" in MODULES[extra] else ""
    return f'{torch_first}python -m pip install -e ".[{extra}]"'


def require(extra: str, command: str) -> None:
    """Return if ``extra`` is installed; otherwise say so in one line on
    stderr, naming ``command`` (``train --backend rllib``), and exit with status 2."""
    absent = missing(extra)
    if absent:
        print(
            f"azgames {command}: needs the {extra} extra, which is not installed "
            f"(missing: {', '.join(absent)}); install it with: {install_command(extra)}",
            file=sys.stderr,
        )
        raise SystemExit(2)
