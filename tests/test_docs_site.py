"""The docs site builds with ``mkdocs build --strict`` (mkdocs.yml, the docs
extra): every page, the API pages from the code's docstrings, and the
notebooks, executed at build time. This is the only run of the notebooks in
the test suite: a notebook cell that raises fails the build, and so this test.

The build takes minutes (the notebooks play thousands of games), so it runs
once, in one test (pytest-xdist would otherwise build it once per worker),
and the checks of the built site follow it, every failure listed."""

from __future__ import annotations

import importlib.util
import json
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
#: A markdown cell's heading below the title (Material shows the h1 as the
#: page's title, not in the table of contents).
NOTEBOOK_HEADING = re.compile(r"^#{2,6} +(.+)$", re.MULTILINE)
#: An entry of a built page's table of contents: its anchor and its label.
TOC_LINK = re.compile(r'<a href="#([^"]+)" class="md-nav__link">(.*?)</a>', re.DOTALL)


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
    from azgames.core.aec import GameAECEnv
    from azgames.core.registry import make, make_vec
    from azgames.core.vector import GameVectorEnv
    from azgames.training.single_agent import SingleAgentEnv

    words = text(page(site, "api"))
    docs = {o.__qualname__: o.__doc__ for o in (make, make_vec, GameAECEnv, GameVectorEnv, SingleAgentEnv)}
    docs["azgames.core.registry"] = sys.modules["azgames.core.registry"].__doc__
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


def notebook_headings(name: str) -> list[str]:
    """The headings of a notebook's markdown cells, as written (`code` kept)."""
    cells = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text())["cells"]
    markdown = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return [" ".join(h.split()) for h in NOTEBOOK_HEADING.findall(markdown)]


def problems_with_the_notebook_tocs(site: Path) -> list[str]:
    """Each heading is in its page's table of contents with its inline code's
    text, and links to the heading's anchor (docs/hooks.py)."""
    out = []
    for name in NOTEBOOKS:
        html = page(site, "notebooks", name)
        toc = {text(label): anchor for anchor, label in TOC_LINK.findall(html)}
        for heading in notebook_headings(name):
            label = heading.replace("`", "")
            if label not in toc:
                out.append(
                    f"notebooks/{name}.ipynb: the table of contents lacks {label!r} (has {sorted(toc)})"
                )
            elif f'id="{toc[label]}"' not in html:
                out.append(f"notebooks/{name}.ipynb: the table of contents links {label!r} to no anchor")
    return out


def test_a_notebook_heading_with_code_is_checked():
    """The built site's check above has a heading with inline code to check."""
    assert any("`" in h for name in NOTEBOOKS for h in notebook_headings(name))


def test_a_notebooks_toc_keeps_a_headings_code():
    """docs/hooks.py, on a heading as mkdocs-jupyter renders it; the build
    checks every notebook's."""
    pytest.importorskip("mkdocs", reason="the docs extra is not installed")
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    html = (
        '<h1 id="title">Title<a class="anchor-link" href="#title">¶</a></h1><p>text</p>'
        '<h2 id="the-az-agent">The <code>az</code> agent<a class="anchor-link" href="#the-az-agent">¶</a></h2>'
    )
    [title] = hooks.notebook_toc(html)
    assert (title.title, title.id, title.level) == ("Title", "title", 1)
    assert [(c.title, c.id, c.level) for c in title.children] == [("The az agent", "the-az-agent", 2)]


def test_the_docs_site_builds_with_every_page(tmp_path):
    for module in ("mkdocs", "material", "mkdocstrings_handlers.python", "mkdocs_jupyter"):
        pytest.importorskip(module, reason="the docs extra is not installed")
    assert {"azacru", "azimuth", "azimuth-coop", "azure"} <= set(GAME_PAGES)
    assert {"azacru", "azimuth", "azimuth_coop", "azure", "training_and_evaluation"} <= set(NOTEBOOKS)
    build(tmp_path / "site")
    site = tmp_path / "site"
    problems = (
        problems_with_pages(site)
        + problems_with_the_api(site)
        + problems_with_the_notebooks(site)
        + problems_with_the_notebook_tocs(site)
    )
    assert problems == [], "\n".join(problems)
