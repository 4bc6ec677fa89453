"""mkdocs hooks (mkdocs.yml ``hooks:``): the build's settings for the
notebooks it executes, their links into docs/, and their tables of contents.

A progress bar helps a reader who runs a notebook in Jupyter, where it
updates in place; on a built page every redraw would stay, one after
another. The notebooks' kernels inherit this process's environment, so
``TQDM_DISABLE`` turns the bars off for the build only; so does
``AZGAMES_COMPILE_NOTICE=0`` for numba's compile notice, which a page would
keep when the build's cache is cold.
"""

import os
import re

from markdown.extensions.toc import nest_toc_tokens
from mkdocs.structure.toc import TableOfContents, get_toc


def on_startup(command, dirty):
    os.environ["TQDM_DISABLE"] = "1"
    os.environ["AZGAMES_COMPILE_NOTICE"] = "0"
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")  # the kernels share the cores with the build


#: A notebook's link to a page of docs/, as written for Jupyter and GitHub
#: (notebooks/ beside docs/): ``../docs/rules/azacru.md``.
DOCS_LINK = re.compile(r'href="\.\./docs/([^"#]+)\.md(#[^"]*)?"')


#: A heading of a notebook's markdown cell as mkdocs-jupyter renders it: its
#: id, its inner HTML, then the anchor link that marks it as a cell's heading.
NOTEBOOK_HEADING = re.compile(
    r'<h([1-6]) id="([^"]+)">(.*?)<a class="anchor-link" href="#\2">[^<]*</a></h\1>', re.DOTALL
)


def on_page_content(html, page, config, files):
    """On a notebook's page, such a link points at the page's place on the site,
    and the table of contents is the page's own headings."""
    if not page.file.src_uri.endswith(".ipynb"):
        return html
    page.toc = notebook_toc(html)
    up = "../" * page.url.count("/")  # notebooks/azacru/ -> ../../ (directory URLs, mkdocs' default)
    return DOCS_LINK.sub(lambda m: f'href="{up}{m.group(1)}/{m.group(2) or ""}"', html)


def notebook_toc(html: str) -> TableOfContents:
    """The table of contents of a notebook's rendered headings.

    mkdocs-jupyter builds its own from a markdown copy of the notebook with
    every inline code span deleted, so a heading "the `az` agent" read "the
    agent" there, and its anchor missed the heading's id. The rendered
    headings have both right.
    """
    tokens = [
        {"level": int(level), "id": anchor, "name": re.sub(r"<[^>]+>", "", inner).strip(), "children": []}
        for level, anchor, inner in NOTEBOOK_HEADING.findall(html)
    ]
    return get_toc(nest_toc_tokens(tokens))
