"""The README and docs/ point only inside the repository: a fresh clone has
nothing beside it, so a path outside it, or a link to a missing file, is a
dead end for a reader."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
OUTSIDE = re.compile(
    r"(?<![\w.])(\.\./[\w./-]+|/work/[\w./-]*|/tmp/[\w./-]*|shared/(?:rules|notes)/[\w./-]*)"
)


@pytest.mark.parametrize("path", DOCS, ids=[str(p.relative_to(ROOT)) for p in DOCS])
def test_no_path_outside_the_repository(path):
    assert OUTSIDE.findall(path.read_text()) == []


@pytest.mark.parametrize("path", DOCS, ids=[str(p.relative_to(ROOT)) for p in DOCS])
def test_relative_links_reach_a_file(path):
    missing = [
        link
        for link in LINK.findall(path.read_text())
        if "://" not in link and not (path.parent / link).exists()
    ]
    assert missing == []
