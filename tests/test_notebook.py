"""The example notebook runs (its code cells, in order), so it cannot rot."""

from __future__ import annotations

import json

import matplotlib
import pytest

from tests.conftest import ROOT

matplotlib.use("Agg")


@pytest.mark.parametrize("where", ["notebooks", "root"])
def test_notebook_cells_run(monkeypatch, where):
    """From its own folder (Jupyter's working directory) and from the repository root, as its text says."""
    path = ROOT / "notebooks" / "explore_a_run.ipynb"
    monkeypatch.chdir(path.parent if where == "notebooks" else ROOT)
    namespace: dict = {}
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] == "code":
            exec("".join(cell["source"]), namespace)  # noqa: S102
    assert namespace["a"].summary["stable"]["mfu_mean"] > 0.4
