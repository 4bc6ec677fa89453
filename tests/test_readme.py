"""The README's code runs as a newcomer runs it: every block in order, in one
fresh folder, each ```python block as a script in a fresh interpreter, each
```bash block's ``python -m azgames ...`` commands in a shell, so a later
command meets what an earlier one left behind. ``pip install`` commands are
not run: they must be the known install commands, and the first installs the
core alone. The README stays short: at most 200 lines.

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
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
#: The install commands the README may give, each exactly.
INSTALLS = {
    "python -m pip install torch==2.13.0",  # the test command's: torch from a local CPU wheel here
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
    return [(number, code) for number, lang, code in all_blocks(path) if lang in language]


def all_blocks(path: Path = README) -> list[tuple[int, str, str]]:
    """(line number, language, code) of each fenced block to run, in order."""
    text = path.read_text()
    return [
        (text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2))
        for m in BLOCK.finditer(text)
        if not text[: m.start()].rstrip().splitlines()[-1].startswith(NOT_RUN)
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


def test_the_first_block_installs_the_core_alone_and_plays():
    """The demo needs no extra: no torch (gigabytes on an ordinary machine)."""
    first = SHELL[0][1].strip()
    assert first.startswith("python -m pip install -e . && ")
    assert "torch" not in first and "[" not in first
    assert "python -m azgames play" in first


def test_every_install_command_is_a_known_one():
    for number, code in SHELL:
        for command in commands(code):
            if "pip install" in command:
                assert command in INSTALLS, f"README line {number}: unknown install command {command!r}"


def test_the_readme_runs_top_to_bottom_in_one_folder(tmp_path):
    """Every block in order in one fresh folder: a file a block writes (a
    record, a run folder) must not stop a later one."""
    for number, language, code in all_blocks():
        if language == "python":
            script = tmp_path.parent / f"{tmp_path.name}-block{number}.py"  # not in the user's folder
            script.write_text(code)
            _run(
                [sys.executable, str(script)],
                tmp_path,
                f"README python block at line {number}",
                _first_line(code),
            )
        elif language in ("bash", "sh"):
            for command in commands(code):
                if command.startswith("python -m azgames"):
                    argv = [sys.executable, *shlex.split(command)[1:]]
                    _run(argv, tmp_path, f"README bash block at line {number}", command)


def pyproject() -> dict:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 and later
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


TESTED = re.compile(r"<!-- tested -->(.*?)<!-- /tested -->", re.DOTALL)


def test_the_versions_the_readme_names_as_tested_fit_the_ranges_the_extras_state():
    """The README names exact versions; pyproject.toml states ranges: each
    named version must lie in every range that names its package."""
    named = dict(
        item.strip().rsplit(" ", 1)
        for item in " ".join(TESTED.search(README.read_text()).group(1).split()).split(",")
    )
    project = pyproject()["project"]
    requirements = [Requirement(r) for r in project["dependencies"]] + [
        Requirement(r) for extra in project["optional-dependencies"].values() for r in extra
    ]
    checked = set()
    for requirement in requirements:
        if requirement.name in named:
            assert requirement.specifier.contains(named[requirement.name]), (
                requirement,
                named[requirement.name],
            )
            checked.add(requirement.name)
    assert {"numpy", "numba", "torch", "ray", "torchrl", "tianshou"} <= checked
    assert SpecifierSet(project["requires-python"]).contains(named["Python"])


def test_no_extra_pins_torch_or_another_library_to_one_version():
    """An extra that pins ``torch==X`` fights the torch a user has (a CUDA build)."""
    project = pyproject()["project"]
    for extra, requirements in project["optional-dependencies"].items():
        for text in requirements:
            pinned = [spec for spec in Requirement(text).specifier if spec.operator in ("==", "===")]
            assert not pinned, f"extra {extra!r} pins {text!r}: state the range that works"


@pytest.mark.parametrize("block", DOCS_PYTHON, ids=[f"{p.relative_to(ROOT)}:{n}" for p, n, _ in DOCS_PYTHON])
def test_docs_python_block_runs(block, tmp_path):
    path, number, code = block
    script = tmp_path / "block.py"
    script.write_text(code)
    where = f"{path.relative_to(ROOT)} python block at line {number}"
    _run([sys.executable, str(script)], tmp_path, where, _first_line(code))
