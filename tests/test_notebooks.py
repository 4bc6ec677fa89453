"""The notebooks are committed without outputs (the docs build executes them:
tests/test_docs_site.py, notebooks/README.md); this checks that each notebook
is clean, so that diffs show code and text only."""

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    names = {p.stem for p in NOTEBOOKS}
    assert {"azacru", "azimuth", "azimuth_coop", "azure", "training_and_evaluation"} <= names, names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_has_no_outputs(path):
    for number, cell in enumerate(json.loads(path.read_text())["cells"]):
        if cell["cell_type"] == "code":
            assert not cell["outputs"], f"{path.name} cell {number} has outputs: clear them before committing"
            assert cell["execution_count"] is None, f"{path.name} cell {number} has an execution count"
