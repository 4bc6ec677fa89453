"""No tracked file names a path of one machine: the rule books are cited
beside the repository (``../shared/rules/azacru.txt``) or by their sections,
the work tree by paths inside it, so that a clone elsewhere reads the same."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: An absolute path into a work tree or a home folder (written so that this
#: pattern's own text does not match it).
MACHINE_PATH = re.compile(rb"/(?:work|root)/[\w.-][\w./-]*|/home/\w+/[\w./-]*")


def tracked_files() -> list[Path]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    paths = (ROOT / name for name in listed.decode().split("\0") if name)
    return [p for p in paths if p.is_file() and not p.is_symlink()]


def test_no_tracked_file_names_a_machine_path():
    found = []
    for path in tracked_files():
        data = path.read_bytes()
        if b"\0" in data:  # a binary file: an array, an image
            continue
        for match in MACHINE_PATH.finditer(data):
            line = data.count(b"\n", 0, match.start()) + 1
            found.append(f"{path.relative_to(ROOT)}:{line}: {match.group().decode(errors='replace')}")
    assert found == [], "\n".join(found)
