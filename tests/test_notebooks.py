"""Every notebook in notebooks/ runs top to bottom (code cells executed in
order in one namespace, plots drawn off-screen)."""

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, monkeypatch):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    monkeypatch.chdir(path.parent.parent)
    cells = json.loads(path.read_text())["cells"]
    namespace: dict = {}
    for number, cell in enumerate(cells):
        if cell["cell_type"] == "code":
            code = "".join(cell["source"])
            exec(compile(code, f"{path.name}[cell {number}]", "exec"), namespace)
    matplotlib.pyplot.close("all")


def test_there_is_a_notebook():
    assert NOTEBOOKS, "notebooks/ should hold at least the quick start"
