"""The example notebook runs (its code cells, in order), so it cannot rot."""

from __future__ import annotations

import json

import matplotlib

from tests.conftest import ROOT

matplotlib.use("Agg")


def test_notebook_cells_run(monkeypatch):
    path = ROOT / "notebooks" / "explore_a_run.ipynb"
    monkeypatch.chdir(path.parent)
    namespace: dict = {}
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] == "code":
            exec("".join(cell["source"]), namespace)  # noqa: S102
    assert namespace["a"].summary["stable"]["mfu_mean"] > 0.4
