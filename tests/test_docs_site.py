"""The docs site builds with ``mkdocs build --strict`` (mkdocs.yml, the docs
extra): every page, the API pages from the code's docstrings, and the
notebooks, executed at build time. This is the only run of the notebooks in
the test suite: a notebook cell that raises fails the build, and so this test.

The build takes minutes (the notebooks play thousands of games), so it runs
once, in one test (pytest-xdist would otherwise build it once per worker),
and the checks of the built site follow it, every failure listed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from html import unescape
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
GAME_PAGES = sorted(p.stem for p in (ROOT / "docs" / "rules").glob("*.md"))
PAGES = ["training", "search", "rllib", "benchmarks", "apps", "api", "ARCHITECTURE"]
#: The whole build's limit: the notebooks run one after another.
TIMEOUT = 1800
#: An executed cell's image: a PNG (a matplotlib figure) or an SVG (env.picture()).
IMAGE_OUTPUT = re.compile(r'<img\b[^>]*src="\s*data:image/|data-mime-type="image/(?:png|svg\+xml)"')


def build(out: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    started = time.monotonic()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            env=env,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"mkdocs build ran past {TIMEOUT} s")
    log = result.stdout + result.stderr
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{log[-6000:]}"
    print(f"mkdocs build --strict took {time.monotonic() - started:.0f} s")


def page(site: Path, *parts: str) -> str:
    path = site.joinpath(*parts, "index.html")
    return path.read_text() if path.exists() else ""


def text(html: str) -> str:
    """A page's words: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def first_words(doc: str, count: int = 6) -> str:
    return " ".join(doc.replace("``", "").split()[:count])


def problems_with_pages(site: Path) -> list[str]:
    missing = [f"{p}/" for p in PAGES if not page(site, p)]
    missing += [f"rules/{g}/" for g in GAME_PAGES if "<h1" not in page(site, "rules", g)]
    if not (site / "index.html").exists():
        missing.append("index.html")
    return [f"the site has no page {p}" for p in missing]


def problems_with_the_api(site: Path) -> list[str]:
    from azgames.aec import GameAECEnv
    from azgames.registry import make, make_vec
    from azgames.training.single_agent import SingleAgentEnv
    from azgames.vector import GameVectorEnv

    words = text(page(site, "api"))
    docs = {o.__qualname__: o.__doc__ for o in (make, make_vec, GameAECEnv, GameVectorEnv, SingleAgentEnv)}
    docs["azgames.registry"] = sys.modules["azgames.registry"].__doc__
    return [
        f"the API page lacks {name}'s docstring ({first_words(doc)!r})"
        for name, doc in docs.items()
        if first_words(doc) not in words
    ]


def problems_with_the_notebooks(site: Path) -> list[str]:
    out = []
    for name in NOTEBOOKS:
        html = page(site, "notebooks", name)
        if not IMAGE_OUTPUT.search(html):
            out.append(f"notebooks/{name}.ipynb shows no image output on the site")
        if "Traceback" in html:
            out.append(f"notebooks/{name}.ipynb shows an error on the site")
        if 'href="../docs/' in html:
            out.append(f"notebooks/{name}.ipynb: a link into docs/ left as Jupyter's (docs/hooks.py)")
        for target in re.findall(r'href="\.\./\.\./(rules/[\w-]+)/"', html):
            if not (site / target / "index.html").exists():
                out.append(f"notebooks/{name}.ipynb links to a missing page {target}/")
    return out


def test_the_docs_site_builds_with_every_page(tmp_path):
    for module in ("mkdocs", "material", "mkdocstrings_handlers.python", "mkdocs_jupyter"):
        pytest.importorskip(module, reason="the docs extra is not installed")
    assert {"azacru", "azimuth", "azimuth-coop", "azure"} <= set(GAME_PAGES)
    assert {"azacru", "azimuth", "azimuth_coop", "azure", "training_and_evaluation"} <= set(NOTEBOOKS)
    build(tmp_path / "site")
    site = tmp_path / "site"
    problems = problems_with_pages(site) + problems_with_the_api(site) + problems_with_the_notebooks(site)
    assert problems == [], "\n".join(problems)
