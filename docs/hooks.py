"""mkdocs hooks (mkdocs.yml ``hooks:``): the build's settings for the
notebooks it executes, and their links into docs/.

A progress bar helps a reader who runs a notebook in Jupyter, where it
updates in place; on a built page every redraw would stay, one after
another. The notebooks' kernels inherit this process's environment, so
``TQDM_DISABLE`` turns the bars off for the build only; so does
``AZGAMES_COMPILE_NOTICE=0`` for numba's compile notice, which a page would
keep when the build's cache is cold.
"""

import os
import re


def on_startup(command, dirty):
    os.environ["TQDM_DISABLE"] = "1"
    os.environ["AZGAMES_COMPILE_NOTICE"] = "0"
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")  # the kernels share the cores with the build


#: A notebook's link to a page of docs/, as written for Jupyter and GitHub
#: (notebooks/ beside docs/): ``../docs/rules/azacru.md``.
DOCS_LINK = re.compile(r'href="\.\./docs/([^"#]+)\.md(#[^"]*)?"')


def on_page_content(html, page, config, files):
    """On a notebook's page, such a link points at the page's place on the site."""
    if not page.file.src_uri.endswith(".ipynb"):
        return html
    up = "../" * page.url.count("/")  # notebooks/azacru/ -> ../../ (directory URLs, mkdocs' default)
    return DOCS_LINK.sub(lambda m: f'href="{up}{m.group(1)}/{m.group(2) or ""}"', html)
