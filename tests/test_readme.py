"""The README's code runs as written: each ```python block as a script of its
own, in a fresh interpreter; each ```bash block's ``python -m azgames ...``
commands in a shell. ``pip install`` commands are not run: they must be the
known install commands. The README stays short: at most 200 lines.

The ```python blocks of the docs pages run too, but for a block whose
fence follows a ``<!-- not run: why -->`` line (a long training recipe)."""

from __future__ import annotations

import importlib.util
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
#: The install commands the README may give, each exactly.
INSTALLS = {
    "python -m pip install torch==2.13.0",
    "python -m pip install -e .",
    'python -m pip install -e ".[dev,train,rllib,web,notebooks,docs,interop]"',
}
#: A block's time limit: a cold numba cache compiles a game's kernels first.
TIMEOUT = 600
#: Modules of optional extras: a block that needs a missing one is skipped.
OPTIONAL = ("sb3_contrib", "stable_baselines3", "torch", "ray")


NOT_RUN = "<!-- not run:"


def blocks(language: set[str], path: Path = README) -> list[tuple[int, str]]:
    """(line number, code) of each fenced block in one of the languages."""
    text = path.read_text()
    return [
        (text.count("\n", 0, m.start()) + 1, m.group(2))
        for m in BLOCK.finditer(text)
        if m.group(1) in language and not text[: m.start()].rstrip().splitlines()[-1].startswith(NOT_RUN)
    ]


PYTHON = blocks({"python"})
SHELL = blocks({"bash", "sh"})
DOCS_PYTHON = [
    (path, number, code)
    for path in sorted((ROOT / "docs").rglob("*.md"))
    for number, code in blocks({"python"}, path)
]


def commands(code: str) -> list[str]:
    """A shell block's commands: its lines, split at ``&&``, comments dropped."""
    out = []
    for line in code.splitlines():
        line = line.split(" #", 1)[0].strip()
        out += [part.strip() for part in line.split("&&") if part.strip()]
    return out


def _first_line(code: str) -> str:
    return next(line for line in code.splitlines() if line.strip())


def _ids(found):
    return [f"line{number}" for number, _ in found]


def _run(argv: list[str], where: Path, what: str, first: str) -> None:
    try:
        result = subprocess.run(argv, cwd=where, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{what} starting {first!r} ran past {TIMEOUT} s")
    if result.returncode != 0:
        missing = re.search(r"No module named '([\w.]+)'", result.stderr)
        if missing and missing.group(1).split(".")[0] in OPTIONAL:
            name = missing.group(1).split(".")[0]
            if importlib.util.find_spec(name) is None:
                pytest.skip(f"{name} is not installed (an optional extra)")
        pytest.fail(
            f"{what} starting {first!r} exited {result.returncode}:\n"
            f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
        )


def test_the_readme_is_short():
    lines = README.read_text().splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines; keep it to 200 (move detail into docs/)"


def test_the_readme_has_code_to_run():
    assert len(PYTHON) >= 3 and len(SHELL) >= 2


def test_the_first_block_installs_and_plays():
    first = SHELL[0][1].strip()
    assert first.startswith("python -m pip install torch==2.13.0 && python -m pip install -e . && ")
    assert "python -m azgames play" in first


def test_every_install_command_is_a_known_one():
    for number, code in SHELL:
        for command in commands(code):
            if "pip install" in command:
                assert command in INSTALLS, f"README line {number}: unknown install command {command!r}"


@pytest.mark.parametrize("block", PYTHON, ids=_ids(PYTHON))
def test_python_block_runs(block, tmp_path):
    number, code = block
    script = tmp_path / "block.py"
    script.write_text(code)
    _run([sys.executable, str(script)], tmp_path, f"README python block at line {number}", _first_line(code))


@pytest.mark.parametrize("block", SHELL, ids=_ids(SHELL))
def test_shell_block_runs(block, tmp_path):
    """Its ``python -m azgames`` commands, in order, in one folder (a later
    command may read what an earlier one wrote)."""
    number, code = block
    for command in commands(code):
        if command.startswith("python -m azgames"):
            argv = [sys.executable, *shlex.split(command)[1:]]
            _run(argv, tmp_path, f"README bash block at line {number}", command)


@pytest.mark.parametrize("block", DOCS_PYTHON, ids=[f"{p.relative_to(ROOT)}:{n}" for p, n, _ in DOCS_PYTHON])
def test_docs_python_block_runs(block, tmp_path):
    path, number, code = block
    script = tmp_path / "block.py"
    script.write_text(code)
    where = f"{path.relative_to(ROOT)} python block at line {number}"
    _run([sys.executable, str(script)], tmp_path, where, _first_line(code))
