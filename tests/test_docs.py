"""The README and docs/ point only inside the repository: a fresh clone has
nothing beside it, so a path outside it, or a link to a missing file, is a
dead end for a reader. The home page's install block fits its page."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
INDEX = ROOT / "docs" / "index.md"
#: The longest code line the site's content column shows without scrolling.
CODE_WIDTH = 80
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


def test_the_home_page_install_block_fits_and_pastes_as_one():
    """Its lines fit the page, and joined at their ``\\`` continuations they
    are the base install (no torch: the demo needs none), then the demo."""
    block = re.search(r"^## Install\n.*?^```bash\n(.*?)^```", INDEX.read_text(), re.MULTILINE | re.DOTALL)
    assert block, "docs/index.md has no bash block under ## Install"
    lines = block.group(1).splitlines()
    assert [line for line in lines if len(line) > CODE_WIDTH] == []
    commands = [c.strip() for c in block.group(1).replace("\\\n", " ").split("&&")]
    assert commands[0] == "python -m pip install -e ."
    assert commands[-1].startswith("python -m azgames play ")
